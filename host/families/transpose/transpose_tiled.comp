#version 450
// transpose_tiled.comp - the transpose study's shared-memory kernels: a workgroup of TILE x ROWS threads reads a
// TILE x TILE tile with coalesced row reads into shared memory, waits, and writes it out with
// coalesced row writes, reading the tile down its columns. Every element of the tile is one thread's
// load and one (other) thread's store; TILE / ROWS elements per thread amortize the index math.
//   MODE 0: write the tile back where it came from (the cost of the tile itself, the study's copySharedMem)
//   PAD:     columns of padding: TILE + PAD words per tile row; PAD 1 puts a column in 32 banks
//   SWIZZLE: store element (i, j) at column j ^ i instead (TILE a power of two): conflict-free
//            column reads without the padding words
//   TILES_PER_GROUP: tiles a workgroup moves in turn (the host's grid); the next tile's loads go out before
//            the current tile's stores
//   DEPTH:   tiles whose loads are in flight while one is written (1: the next one)
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "vkb.glsl"
#include "transpose.h" // TILE, ROWS, PAD, SWIZZLE, MODE, TILES_PER_GROUP, DEPTH; pc: struct transpose_push

// restrict: src and dst never overlap, so loads may be issued ahead of stores (the twin's __restrict__)
layout(std430, binding = 0) restrict readonly buffer Src { float src[]; };  // rows x cols, row-major
layout(std430, binding = 1) restrict writeonly buffer Dst { float dst[]; }; // cols x rows (MODE 0: rows x cols)

shared float tile[TILE][TILE + PAD];
float incoming[DEPTH * (TILE / ROWS)]; // DEPTH tiles' elements on their way from the matrix to the shared tile

// the shared column of element (i, j) of the tile
uint col_of(uint i, uint j)
{
    return SWIZZLE != 0u ? j ^ i : j;
}

// Two sets of functions from one body rather than one set with `edge` an argument: two calls of one
// function that differ in a constant argument may be merged into one call (LLVM sinks such calls), and
// `edge` would be a run-time value again, guards and all
#define LOAD_TILE load_tile_interior
#define PUT_TILE put_tile_interior
#define WRITE_TILE write_tile_interior
#define EDGE false
#include "transpose_tiled_tile.glsl"
#undef LOAD_TILE
#undef PUT_TILE
#undef WRITE_TILE
#undef EDGE
#define LOAD_TILE load_tile_edge
#define PUT_TILE put_tile_edge
#define WRITE_TILE write_tile_edge
#define EDGE true
#include "transpose_tiled_tile.glsl"
#undef LOAD_TILE
#undef PUT_TILE
#undef WRITE_TILE
#undef EDGE

// A guard-free path for whole tiles: NVIDIA's Vulkan compiler puts each guarded store in a branch of its own
// (nvcc predicates it), so only edge tiles pay for the guards. Workgroup-uniform, so the barriers stay in
// uniform control flow.
bool whole_tile(uvec2 o)
{
    return transpose_interior(o.x, o.y);
}

#include "transpose_pipeline.glsl"
