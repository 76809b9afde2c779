#version 450
// transpose_direct.comp - the transpose study's copy and naive kernels, no shared memory: a workgroup of
// TILE x ROWS threads moves one TILE x TILE tile, each thread TILE / ROWS elements down a column.
// MODE 0 copies (the reference the transpose study compares against: reads and writes coalesced); MODE 1
// transposes (reads coalesced, writes strided by `rows` elements: one sector per element).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "vkb.glsl"
#include "transpose.h" // TILE, ROWS, PAD, SWIZZLE, MODE, TILES_PER_GROUP, DEPTH; pc: struct transpose_push

// restrict: src and dst never overlap, so loads may be issued ahead of stores (the twin's __restrict__)
layout(std430, binding = 0) restrict readonly buffer Src { float src[]; };  // rows x cols, row-major
layout(std430, binding = 1) restrict writeonly buffer Dst { float dst[]; }; // cols x rows (MODE 0: rows x cols)

// Two functions from one body rather than one function with `edge` an argument: two calls of one
// function that differ in a constant argument may be merged into one call (LLVM sinks such calls), and
// `edge` would be a run-time value again, guards and all
#define MOVE_TILE move_tile_interior
#define EDGE false
#include "transpose_direct_tile.glsl"
#undef MOVE_TILE
#undef EDGE
#define MOVE_TILE move_tile_edge
#define EDGE true
#include "transpose_direct_tile.glsl"
#undef MOVE_TILE
#undef EDGE

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
            move_tile_interior(bx, by);
        else
            move_tile_edge(bx, by);
    }
}
