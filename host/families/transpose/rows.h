/* rows.h - the transpose family's rows, declared once: host/families/transpose/transpose.c builds its variant table
 * from this list and host/families/transpose/transpose.cu its launch table. A variant with new constants of an existing shader
 * is one line here; a new algorithm is a shader (compiled because a row names it: shaders/CMakeLists.txt
 * reads this list), a CUDA template and a line.
 *
 * X(name, shader, TILE, ROWS, PAD, SWIZZLE, MODE, TILES_PER_GROUP, DEPTH, note); the workgroup is
 * TILE / LANES(shader) x ROWS, the grid the tile count over TILES_PER_GROUP. */
#ifndef VKB_TRANSPOSE_ROWS_H
#define VKB_TRANSPOSE_ROWS_H

#include "transpose.h"

#define TRANSPOSE_ROWS(X)                                                                                              \
    X(copy, transpose_direct, 32, 8, 0, 0, TRANSPOSE_COPY, 1, 1,                                                       \
      "tile-shaped copy, 32x8 threads, 4 elements each: the kernel ceiling transposes are held to")                    \
    X(copy_shared, transpose_tiled, 32, 8, 0, 0, TRANSPOSE_COPY, 1, 1,                                                 \
      "copy through a 32x32 shared tile and a barrier: what the tile itself costs")                                    \
    X(naive, transpose_direct, 32, 8, 0, 0, TRANSPOSE_TRANSPOSE, 1, 1,                                                 \
      "coalesced reads, writes strided by rows: a sector per element written")                                         \
    X(coalesced, transpose_tiled, 32, 8, 0, 0, TRANSPOSE_TRANSPOSE, 1, 1,                                              \
      "32x32 shared tile: both global sides coalesced, the column read is a 32-way bank conflict")                     \
    X(padded, transpose_tiled, 32, 8, 1, 0, TRANSPOSE_TRANSPOSE, 1, 1,                                                 \
      "tile [32][33]: a padding word per row puts a tile column in 32 banks, no conflicts")                            \
    X(swizzled, transpose_tiled, 32, 8, 0, 1, TRANSPOSE_TRANSPOSE, 1, 1,                                               \
      "tile [32][32], element (i,j) at column j^i: conflict-free like padded, no padding words")                       \
    X(padded_rows4, transpose_tiled, 32, 4, 1, 0, TRANSPOSE_TRANSPOSE, 1, 1,                                           \
      "padded with 32x4 threads: 8 elements per thread, twice the loads in flight per thread")                         \
    X(padded_rows16, transpose_tiled, 32, 16, 1, 0, TRANSPOSE_TRANSPOSE, 1, 1,                                         \
      "padded with 32x16 threads: 2 elements per thread, twice the threads per tile")                                  \
    X(tile64, transpose_tiled, 64, 8, 1, 0, TRANSPOSE_TRANSPOSE, 1, 1,                                                 \
      "padded 64x64 tile, 64x8 threads: 8 elements per thread, a quarter of the barriers per byte")                    \
    X(vec4, transpose_vec4, 32, 8, 1, 0, TRANSPOSE_TRANSPOSE, 1, 1,                                                    \
      "padded 32x32 tile with 16-byte global loads and stores, 8x8 threads: a quarter of the memory "                  \
      "instructions")                                                                                                  \
    X(vec4_tile64, transpose_vec4, 64, 16, 1, 0, TRANSPOSE_TRANSPOSE, 1, 1,                                            \
      "vec4 on a 64x64 tile, 16x16 threads: 256-byte row segments and 4x the bytes per barrier; "                      \
      "2-way bank conflicts (16 threads per row span 64 words)")                                                       \
    X(tile64_pipe, transpose_tiled, 64, 8, 1, 0, TRANSPOSE_TRANSPOSE, 4, 1,                                            \
      "tile64 with 4 tiles per workgroup: the next tile's loads are in flight while the current one is "               \
      "written, so no workgroup waits for its loads with nothing else to do")                                          \
    X(vec4_tile64_pipe, transpose_vec4, 64, 16, 1, 0, TRANSPOSE_TRANSPOSE, 4, 1,                                       \
      "vec4_tile64 with 4 tiles per workgroup, the next tile's loads in flight while the current one is written")      \
    X(tile64_deep, transpose_tiled, 64, 8, 1, 0, TRANSPOSE_TRANSPOSE, 8, 2,                                            \
      "tile64_pipe with DEPTH 2 and 8 tiles per workgroup: two tiles' loads (32 KiB) in flight while one is "          \
      "written, so the workgroup's loads stay in flight through its barriers")                                         \
    X(vec4_tile64_deep, transpose_vec4, 64, 16, 1, 0, TRANSPOSE_TRANSPOSE, 8, 2,                                       \
      "vec4_tile64_pipe with DEPTH 2 and 8 tiles per workgroup: two tiles' loads (32 KiB) in flight while one "        \
      "is written, so the workgroup's loads stay in flight through its barriers")

#endif
