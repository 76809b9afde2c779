#version 450
// transpose_direct.comp - seed 001's copy and naive kernels, no shared memory: a workgroup of
// TILE x ROWS threads moves one TILE x TILE tile, each thread TILE / ROWS elements down a column.
// MODE 0 copies (the reference the seed compares against: reads and writes coalesced); MODE 1
// transposes (reads coalesced, writes strided by `rows` elements: one sector per element).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "vkb.glsl"
#include "transpose.h" // TILE, ROWS, PAD, SWIZZLE, MODE; pc: struct transpose_push

// restrict: src and dst never overlap, so loads may be issued ahead of stores (the twin's __restrict__)
layout(std430, binding = 0) restrict readonly buffer Src { float src[]; };  // rows x cols, row-major
layout(std430, binding = 1) restrict writeonly buffer Dst { float dst[]; }; // cols x rows (MODE 0: rows x cols)

// One tile: the invocation's TILE / ROWS elements of column bx + x. `edge` is a constant at each call: false
// (a tile wholly inside the matrix) drops every guard below, so the loads and stores are straight-line code.
void move_tile(uint bx, uint by, bool edge)
{
    uint c = bx + gl_LocalInvocationID.x, r0 = by + gl_LocalInvocationID.y;
    if (edge && c >= pc.cols)
        return;
    // every load first (an index clamped to 0 outside the matrix, so no branch), then the guarded
    // stores: with a guarded load-store pair per element NVIDIA's compiler put each pair in a branch
    // of its own and waited for each load in turn (--sass: one LDG in flight; nvcc issues all four)
    float v[TILE / ROWS];
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS)
        v[j / ROWS] = src[!edge || r0 + j < pc.rows ? (r0 + j) * pc.cols + c : 0u];
    [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
        uint r = r0 + j;
        if (!edge || r < pc.rows) {
            if (MODE == 0u)
                dst[r * pc.cols + c] = v[j / ROWS];
            else
                dst[c * pc.rows + r] = v[j / ROWS];
        }
    }
}

void main()
{
    uint tiles_x = (pc.cols + TILE - 1u) / TILE;
    uint ntiles = tiles_x * ((pc.rows + TILE - 1u) / TILE);
    // tiles in row-major order; the grid is capped at the workgroup-count limit, so it strides
    for (uint t = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; t < ntiles;
         t += gl_NumWorkGroups.x * gl_NumWorkGroups.y) {
        uint bx = (t % tiles_x) * TILE, by = (t / tiles_x) * TILE; // tile origin: column, row
        // a guard-free path for whole tiles: NVIDIA's Vulkan compiler puts each guarded store in a branch of
        // its own (nvcc predicates it), so only edge tiles pay for the guards
        if (transpose_interior(bx, by))
            move_tile(bx, by, false);
        else
            move_tile(bx, by, true);
    }
}
