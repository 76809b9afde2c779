/* transpose.h - the transpose family's declarations, included by the host (host/families/transpose/transpose.c), the
 * shaders (the host/families/transpose/ .comp files) and the CUDA twins (host/families/transpose/transpose.cu): a change here reaches all three,
 * and a mismatch is a compile error. The rows are in rows.h. */
#ifndef VKB_TRANSPOSE_H
#define VKB_TRANSPOSE_H

#include "vkb_types.h"

/* Push constants: the input is rows x cols, row-major; the output cols x rows (MODE copy: rows x cols). */
struct transpose_push {
    VKB_U32 rows;
    VKB_U32 cols;
};

/* MODE: what a row computes (its check follows it); not a tuning knob. */
#define TRANSPOSE_COPY 0u
#define TRANSPOSE_TRANSPOSE 1u

/* Elements each invocation moves along a tile row, by shader: the workgroup is TILE / LANES x ROWS. */
#define TRANSPOSE_LANES_transpose_direct 1u
#define TRANSPOSE_LANES_transpose_tiled 1u
#define TRANSPOSE_LANES_transpose_vec4 4u

/* Specialization constants 3..9, declared alike by every transpose shader (a shader ignores those it has
 * no use for; the host refuses setting them). */
#define TRANSPOSE_NSPEC 7
#ifdef VULKAN
layout(constant_id = 3) const uint TILE = 32;   // tile edge, a power of two
layout(constant_id = 4) const uint ROWS = 8;    // tile rows per pass = local_size_y; divides TILE
layout(constant_id = 5) const uint PAD = 0;     // words of padding per shared tile row (1: no bank conflicts)
layout(constant_id = 6) const uint SWIZZLE = 0; // 1: shared element (i, j) at column j ^ i instead
layout(constant_id = 7) const uint MODE = TRANSPOSE_TRANSPOSE;
// Tiles per workgroup: the host's grid is the tile count over this (1: a workgroup per tile), and the shared-
// tile shaders' loop issues the next tile's loads before the current tile's stores, so a workgroup moving
// several tiles always has loads in flight. Read by the host; the loop itself takes any number of tiles.
layout(constant_id = 8) const uint TILES_PER_GROUP = 1;
// Tiles whose loads are in flight while one is written (the shared-tile shaders; 1: the next tile): each
// invocation holds DEPTH tiles' shares in registers, so a workgroup still has loads in flight while it waits for
// a tile's loads and at its barriers. Matters where a workgroup moves more than DEPTH tiles (TILES_PER_GROUP);
// the host allows 1 to 8.
layout(constant_id = 9) const uint DEPTH = 1;

layout(push_constant) uniform Push
{
    transpose_push pc;
};

// The TILE x TILE tile whose first column is bx and first row by lies wholly inside the rows x cols input,
// and so its transposed place wholly inside the cols x rows output (MODE copy: the tile itself): none of
// its elements needs a guard. Workgroup-uniform. Differences, not sums: by < rows, so nothing wraps.
bool transpose_interior(uint bx, uint by)
{
    return pc.rows - by >= TILE && pc.cols - bx >= TILE;
}
#endif

#endif
