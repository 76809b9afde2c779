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

void main()
{
    uint tiles_x = (pc.cols + TILE - 1u) / TILE;
    uint ntiles = tiles_x * ((pc.rows + TILE - 1u) / TILE);
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    // tiles in row-major order; the grid is capped at the workgroup-count limit, so it strides
    for (uint t = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; t < ntiles;
         t += gl_NumWorkGroups.x * gl_NumWorkGroups.y) {
        uint c = (t % tiles_x) * TILE + x;
        uint r0 = (t / tiles_x) * TILE + y;
        if (c >= pc.cols)
            continue;
        // every load first (an index clamped to 0 outside the matrix, so no branch), then the guarded
        // stores: with a guarded load-store pair per element NVIDIA's compiler put each pair in a branch
        // of its own and waited for each load in turn (--sass: one LDG in flight; nvcc issues all four)
        float v[TILE / ROWS];
        [[unroll]] for (uint j = 0u; j < TILE; j += ROWS)
            v[j / ROWS] = src[r0 + j < pc.rows ? (r0 + j) * pc.cols + c : 0u];
        [[unroll]] for (uint j = 0u; j < TILE; j += ROWS) {
            uint r = r0 + j;
            if (r < pc.rows) {
                if (MODE == 0u)
                    dst[r * pc.cols + c] = v[j / ROWS];
                else
                    dst[c * pc.rows + r] = v[j / ROWS];
            }
        }
    }
}
