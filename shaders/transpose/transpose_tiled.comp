#version 450
// transpose_tiled.comp - seed 001's shared-memory kernels: a workgroup of TILE x ROWS threads reads a
// TILE x TILE tile with coalesced row reads into shared memory, waits, and writes it out with
// coalesced row writes, reading the tile down its columns. Every element of the tile is one thread's
// load and one (other) thread's store; TILE / ROWS elements per thread amortize the index math.
//   MODE 0: write the tile back where it came from (the cost of the tile itself, seed's copySharedMem)
//   PAD:     columns of padding: TILE + PAD words per tile row; PAD 1 puts a column in 32 banks
//   SWIZZLE: store element (i, j) at column j ^ i instead (TILE a power of two): conflict-free
//            column reads without the padding words
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "vkb.glsl"
#include "transpose.h" // TILE, ROWS, PAD, SWIZZLE, MODE; pc: struct transpose_push

// restrict: src and dst never overlap, so loads may be issued ahead of stores (the twin's __restrict__)
layout(std430, binding = 0) restrict readonly buffer Src { float src[]; };  // rows x cols, row-major
layout(std430, binding = 1) restrict writeonly buffer Dst { float dst[]; }; // cols x rows (MODE 0: rows x cols)

shared float tile[TILE][TILE + PAD];

// the shared column of element (i, j) of the tile
uint col_of(uint i, uint j)
{
    return SWIZZLE != 0u ? j ^ i : j;
}

// Two functions from one body rather than one function with `edge` an argument: two calls of one
// function that differ in a constant argument may be merged into one call (LLVM sinks such calls), and
// `edge` would be a run-time value again, guards and all
#define MOVE_TILE move_tile_interior
#define EDGE false
#include "transpose_tiled_tile.glsl"
#undef MOVE_TILE
#undef EDGE
#define MOVE_TILE move_tile_edge
#define EDGE true
#include "transpose_tiled_tile.glsl"
#undef MOVE_TILE
#undef EDGE

void main()
{
    uint tiles_x = (pc.cols + TILE - 1u) / TILE;
    uint ntiles = tiles_x * ((pc.rows + TILE - 1u) / TILE);
    uint first = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    // tiles in row-major order; the grid is capped at the workgroup-count limit, so it strides
    for (uint t = first; t < ntiles; t += gl_NumWorkGroups.x * gl_NumWorkGroups.y) {
        uint bx = (t % tiles_x) * TILE, by = (t / tiles_x) * TILE; // tile origin: column, row
        // a guard-free path for whole tiles: NVIDIA's Vulkan compiler puts each guarded store in a branch of
        // its own (nvcc predicates it), so only edge tiles pay for the guards. The test is workgroup-uniform,
        // so the barriers inside stay in uniform control flow.
        if (transpose_interior(bx, by))
            move_tile_interior(bx, by, t != first);
        else
            move_tile_edge(bx, by, t != first);
    }
}
