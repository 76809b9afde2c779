#version 450
// transpose_vec4.comp - the padded shared tile with 16-byte global accesses (the memory performance guide: one 128-bit
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
#include "transpose.h" // TILE, ROWS, PAD, SWIZZLE, MODE, TILES_PER_GROUP, DEPTH; pc: struct transpose_push

// the same buffers seen as vec4 and as float: unaligned shapes need the scalar view. restrict (the
// twin's __restrict__) still holds: src is only read, and a dispatch writes dst through one view only
layout(std430, binding = 0) restrict readonly buffer SrcVec { vec4 src4[]; };
layout(std430, binding = 0) restrict readonly buffer SrcScalar { float src1[]; };
layout(std430, binding = 1) restrict writeonly buffer DstVec { vec4 dst4[]; };
layout(std430, binding = 1) restrict writeonly buffer DstScalar { float dst1[]; };

shared float tile[TILE][TILE + PAD];
vec4 incoming[DEPTH * (TILE / ROWS)]; // DEPTH tiles' rows on their way to the shared tile, 4 words a load

// Two sets of functions from one body rather than one set with `edge` an argument: two calls of one
// function that differ in a constant argument may be merged into one call (LLVM sinks such calls), and
// `edge` would be a run-time value again, guards and all
#define LOAD_TILE load_tile_interior
#define PUT_TILE put_tile_interior
#define WRITE_TILE write_tile_interior
#define EDGE false
#include "transpose_vec4_tile.glsl"
#undef LOAD_TILE
#undef PUT_TILE
#undef WRITE_TILE
#undef EDGE
#define LOAD_TILE load_tile_edge
#define PUT_TILE put_tile_edge
#define WRITE_TILE write_tile_edge
#define EDGE true
#include "transpose_vec4_tile.glsl"
#undef LOAD_TILE
#undef PUT_TILE
#undef WRITE_TILE
#undef EDGE

// A guard-free path for whole tiles of a shape whose rows are 16-byte aligned: NVIDIA's Vulkan compiler puts
// each guarded store in a branch of its own (nvcc predicates it), so only edge tiles and unaligned shapes pay
// for the guards. Workgroup-uniform, so the barriers stay in uniform control flow.
bool whole_tile(uvec2 o)
{
    return (pc.cols & 3u) == 0u && (pc.rows & 3u) == 0u && transpose_interior(o.x, o.y);
}

#include "transpose_pipeline.glsl"
