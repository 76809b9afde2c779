#version 450
// transpose_tiled.comp - seed 001's shared-memory kernels: a workgroup of TILE x ROWS threads reads a
// TILE x TILE tile with coalesced row reads into shared memory, waits, and writes it out with
// coalesced row writes, reading the tile down its columns. Every element of the tile is one thread's
// load and one (other) thread's store; TILE / ROWS elements per thread amortize the index math.
//   MODE 0: write the tile back where it came from (the cost of the tile itself, seed's copySharedMem)
//   PAD:     columns of padding: TILE + PAD words per tile row; PAD 1 puts a column in 32 banks
//   SWIZZLE: store element (i, j) at column j ^ i instead (TILE a power of two): conflict-free
//            column reads without the padding words
//   TILES_PER_GROUP: tiles a workgroup moves in turn (the host's grid); the next tile's loads go out before
//            the current tile's stores
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "vkb.glsl"
#include "transpose.h" // TILE, ROWS, PAD, SWIZZLE, MODE, TILES_PER_GROUP; pc: struct transpose_push

// restrict: src and dst never overlap, so loads may be issued ahead of stores (the twin's __restrict__)
layout(std430, binding = 0) restrict readonly buffer Src { float src[]; };  // rows x cols, row-major
layout(std430, binding = 1) restrict writeonly buffer Dst { float dst[]; }; // cols x rows (MODE 0: rows x cols)

shared float tile[TILE][TILE + PAD];
float incoming[TILE / ROWS]; // a tile's elements on their way from the matrix to the shared tile

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

// Tile t's origin: column bx, row by (tiles in row-major order)
uvec2 tile_origin(uint t, uint tiles_x)
{
    return uvec2((t % tiles_x) * TILE, (t / tiles_x) * TILE);
}

// A guard-free path for whole tiles: NVIDIA's Vulkan compiler puts each guarded store in a branch of its own
// (nvcc predicates it), so only edge tiles pay for the guards. The test is workgroup-uniform, so the
// barriers stay in uniform control flow.
void load_tile(uvec2 o)
{
    if (transpose_interior(o.x, o.y))
        load_tile_interior(o.x, o.y);
    else
        load_tile_edge(o.x, o.y);
}

void main()
{
    uint tiles_x = (pc.cols + TILE - 1u) / TILE;
    uint ntiles = tiles_x * ((pc.rows + TILE - 1u) / TILE);
    uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y; // the grid strides over the tiles
    uint t = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (t >= ntiles)
        return; // workgroup-uniform
    load_tile(tile_origin(t, tiles_x));
    for (;;) {
        uvec2 o = tile_origin(t, tiles_x);
        bool inside = transpose_interior(o.x, o.y);
        if (inside)
            put_tile_interior(o.x, o.y);
        else
            put_tile_edge(o.x, o.y);
        barrier();
        // the next tile's loads go out before this tile's stores: while this one is written, the workgroup
        // has loads in flight (TILES_PER_GROUP > 1; with a workgroup per tile there is no next tile)
        uint next = t + stride;
        if (next < ntiles)
            load_tile(tile_origin(next, tiles_x));
        if (inside)
            write_tile_interior(o.x, o.y);
        else
            write_tile_edge(o.x, o.y);
        if (next >= ntiles)
            break;
        barrier(); // this tile's column reads are done before the next tile's rows overwrite it
        t = next;
    }
}
