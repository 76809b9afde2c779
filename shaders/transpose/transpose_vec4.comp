#version 450
// transpose_vec4.comp - the padded shared tile with 16-byte global accesses (seed 002: one 128-bit
// load or store per thread moves four words): a workgroup of TILE/4 x ROWS threads; each thread
// loads four neighbours of a row as a vec4, and stores four neighbours of a column of the tile as
// one vec4 of an output row. A quarter of the memory instructions of the scalar kernels, and four
// times the bytes in flight per instruction. Shapes whose rows are not 16-byte aligned (cols or rows
// not a multiple of 4) take scalar accesses on that side.
// Banks (TILE 32, PAD 1, 8 x 8 threads): a subgroup of 32 covers 4 tile rows x 8 threads; the
// stores to tile[y][4x + k] and the reads of tile[4x + k][y] both hit 32 distinct banks.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "vkb.glsl"
#include "transpose.h" // TILE, ROWS, PAD, SWIZZLE, MODE; pc: struct transpose_push

// the same buffers seen as vec4 and as float: unaligned shapes need the scalar view. restrict (the
// twin's __restrict__) still holds: src is only read, and a dispatch writes dst through one view only
layout(std430, binding = 0) restrict readonly buffer SrcVec { vec4 src4[]; };
layout(std430, binding = 0) restrict readonly buffer SrcScalar { float src1[]; };
layout(std430, binding = 1) restrict writeonly buffer DstVec { vec4 dst4[]; };
layout(std430, binding = 1) restrict writeonly buffer DstScalar { float dst1[]; };

shared float tile[TILE][TILE + PAD];

// One tile at column bx, row by. `edge` is a constant at each call: false (a tile wholly inside the matrix,
// rows 16-byte aligned on both sides) drops every guard and the scalar paths below, so the loads and stores
// are straight-line code. wait: a previous tile's column reads may still be under way.
void move_tile(uint bx, uint by, bool edge, bool wait)
{
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    bool vec_in = !edge || (pc.cols & 3u) == 0u, vec_out = !edge || (pc.rows & 3u) == 0u;
    // vec_in: every 16-byte load of the tile first (index clamped to 0 outside the matrix: no branch),
    // then the shared stores. Loading and storing each row in turn, NVIDIA's compiler put each row in
    // a branch of its own and waited for its load (--sass: one LDG.E.128 in flight per invocation;
    // nvcc issues all of them first).
    vec4 v[TILE / ROWS];
    if (vec_in)
        [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
            uint r = by + y + j, c = bx + 4u * x;
            v[j / ROWS] = src4[!edge || (r < pc.rows && c < pc.cols) ? (r * pc.cols + c) / 4u : 0u];
        }
    if (wait)
        barrier(); // the previous tile's column reads are done before its rows are overwritten
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
        uint r = by + y + j, c = bx + 4u * x;
        if (edge && (r >= pc.rows || c >= pc.cols))
            continue;
        if (vec_in) { // c + 3 < cols: c and cols are multiples of 4
            tile[y + j][4u * x] = v[j / ROWS].x;
            tile[y + j][4u * x + 1u] = v[j / ROWS].y;
            tile[y + j][4u * x + 2u] = v[j / ROWS].z;
            tile[y + j][4u * x + 3u] = v[j / ROWS].w;
        } else {
            for (uint k = 0u; k < 4u && c + k < pc.cols; k++)
                tile[y + j][4u * x + k] = src1[r * pc.cols + c + k];
        }
    }
    barrier();
    // the same order on the way out: every shared read, then the stores
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS)
        v[j / ROWS] = vec4(tile[4u * x][y + j], tile[4u * x + 1u][y + j], tile[4u * x + 2u][y + j],
                           tile[4u * x + 3u][y + j]);
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
        uint r = bx + y + j, c = by + 4u * x; // output row = input column
        if (edge && (r >= pc.cols || c >= pc.rows))
            continue;
        if (vec_out) {
            dst4[(r * pc.rows + c) / 4u] = v[j / ROWS];
        } else {
            for (uint k = 0u; k < 4u && c + k < pc.rows; k++)
                dst1[r * pc.rows + c + k] = tile[4u * x + k][y + j];
        }
    }
}

void main()
{
    uint tiles_x = (pc.cols + TILE - 1u) / TILE;
    uint ntiles = tiles_x * ((pc.rows + TILE - 1u) / TILE);
    uint first = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    bool aligned = (pc.cols & 3u) == 0u && (pc.rows & 3u) == 0u;
    for (uint t = first; t < ntiles; t += gl_NumWorkGroups.x * gl_NumWorkGroups.y) {
        uint bx = (t % tiles_x) * TILE, by = (t / tiles_x) * TILE; // tile origin: column, row
        // a guard-free path for whole, aligned tiles: NVIDIA's Vulkan compiler puts each guarded store in a
        // branch of its own (nvcc predicates it), so only edge tiles and unaligned shapes pay for the guards.
        // The test is workgroup-uniform, so the barriers inside stay in uniform control flow.
        if (aligned && transpose_interior(bx, by))
            move_tile(bx, by, false, t != first);
        else
            move_tile(bx, by, true, t != first);
    }
}
