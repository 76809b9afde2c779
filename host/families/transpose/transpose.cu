/* transpose.cu - the CUDA twins of host/families/transpose/: the same tiles, geometry, strides and edge rules,
 * one template per shader over the constants every transpose shader declares (transpose/transpose.h), in their
 * SpecId order (--sass finds a pass's twin by them), instantiated for the rows of transpose/rows.h. */
#include "kernels.h"
#include "transpose/rows.h"

namespace
{

/* transpose_direct.comp: MODE 0 copies, 1 transposes with strided writes. */
template <unsigned TILE, unsigned ROWS, unsigned PAD, unsigned SWIZZLE, unsigned MODE, unsigned PER_GROUP,
          unsigned DEPTH>
__global__ void transpose_direct(const float *__restrict__ src, float *__restrict__ dst, transpose_push pc)
{
    unsigned rows = pc.rows, cols = pc.cols;
    unsigned tiles_x = (cols + TILE - 1u) / TILE, ntiles = tiles_x * ((rows + TILE - 1u) / TILE);
    unsigned x = threadIdx.x, y = threadIdx.y;
    for (unsigned t = blockIdx.y * gridDim.x + blockIdx.x; t < ntiles; t += gridDim.x * gridDim.y) {
        unsigned c = (t % tiles_x) * TILE + x, r0 = (t / tiles_x) * TILE + y;
        if (c >= cols)
            continue;
#pragma unroll
        for (unsigned j = 0; j < TILE; j += ROWS) {
            unsigned r = r0 + j;
            if (r < rows) {
                float v = src[r * cols + c];
                if (MODE == 0)
                    dst[r * cols + c] = v;
                else
                    dst[c * rows + r] = v;
            }
        }
    }
}

/* transpose_pipeline.glsl: the grid strides over the TILE x TILE tiles of a rows x cols matrix, and the loads
 * of the tile DEPTH ahead (LOAD) are issued before the current tile's shared tile is written out (WRITE); PUT
 * fills the shared tile from what LOAD read. LOAD and PUT take the slot s (of DEPTH) the tile travels in, and
 * each the tile's origin: column bx, row by. */
template <unsigned TILE, unsigned DEPTH, class Load, class Put, class Write>
__device__ void tile_loop(unsigned rows, unsigned cols, Load load, Put put, Write write)
{
    unsigned tiles_x = (cols + TILE - 1u) / TILE, ntiles = tiles_x * ((rows + TILE - 1u) / TILE);
    unsigned stride = gridDim.x * gridDim.y, t = blockIdx.y * gridDim.x + blockIdx.x;
    if (t >= ntiles)
        return;
    load(0u, (t % tiles_x) * TILE, (t / tiles_x) * TILE);
#pragma unroll
    for (unsigned s = 1; s < DEPTH; s++)
        if (t + s * stride < ntiles)
            load(s, ((t + s * stride) % tiles_x) * TILE, ((t + s * stride) / tiles_x) * TILE);
    for (;;) {
#pragma unroll
        for (unsigned s = 0; s < DEPTH; s++) {
            if (s == 0 || t < ntiles) {
                if (s != 0)
                    __syncthreads();
                unsigned bx = (t % tiles_x) * TILE, by = (t / tiles_x) * TILE, ahead = t + DEPTH * stride;
                put(s, bx, by);
                __syncthreads();
                if (ahead < ntiles)
                    load(s, (ahead % tiles_x) * TILE, (ahead / tiles_x) * TILE);
                write(bx, by);
            }
            t += stride;
        }
        if (t >= ntiles)
            break;
        __syncthreads();
    }
}

/* transpose_tiled.comp: a shared tile, padded (PAD) or swizzled (SWIZZLE); MODE 0 copies through it. */
template <unsigned TILE, unsigned ROWS, unsigned PAD, unsigned SWIZZLE, unsigned MODE, unsigned PER_GROUP,
          unsigned DEPTH>
__global__ void transpose_tiled(const float *__restrict__ src, float *__restrict__ dst, transpose_push pc)
{
    __shared__ float tile[TILE][TILE + PAD];
    float incoming[DEPTH * (TILE / ROWS)];
    unsigned rows = pc.rows, cols = pc.cols, x = threadIdx.x, y = threadIdx.y;
    auto col_of = [](unsigned i, unsigned j) { return SWIZZLE ? j ^ i : j; };
    auto load = [&](unsigned s, unsigned bx, unsigned by) {
#pragma unroll
        for (unsigned j = 0; j < TILE; j += ROWS) {
            unsigned r = by + y + j, c = bx + x;
            incoming[s * (TILE / ROWS) + j / ROWS] = src[r < rows && c < cols ? r * cols + c : 0u];
        }
    };
    auto put = [&](unsigned s, unsigned bx, unsigned by) {
#pragma unroll
        for (unsigned j = 0; j < TILE; j += ROWS) {
            unsigned r = by + y + j, c = bx + x;
            if (r < rows && c < cols)
                tile[y + j][col_of(y + j, x)] = incoming[s * (TILE / ROWS) + j / ROWS];
        }
    };
    auto write = [&](unsigned bx, unsigned by) {
#pragma unroll
        for (unsigned j = 0; j < TILE; j += ROWS) {
            if (MODE == 0) {
                unsigned r = by + y + j, c = bx + x;
                if (r < rows && c < cols)
                    dst[r * cols + c] = tile[y + j][col_of(y + j, x)];
            } else {
                unsigned r = bx + y + j, c = by + x;
                if (r < cols && c < rows)
                    dst[r * rows + c] = tile[x][col_of(x, y + j)];
            }
        }
    };
    tile_loop<TILE, DEPTH>(rows, cols, load, put, write);
}

/* transpose_vec4.comp: the padded tile with float4 global accesses where rows are 16-byte aligned. */
template <unsigned TILE, unsigned ROWS, unsigned PAD, unsigned SWIZZLE, unsigned MODE, unsigned PER_GROUP,
          unsigned DEPTH>
__global__ void transpose_vec4(const float *__restrict__ src, float *__restrict__ dst, transpose_push pc)
{
    __shared__ float tile[TILE][TILE + PAD];
    float4 incoming[DEPTH * (TILE / ROWS)];
    unsigned rows = pc.rows, cols = pc.cols, x = threadIdx.x, y = threadIdx.y;
    bool vec_in = (cols & 3u) == 0, vec_out = (rows & 3u) == 0;
    const float4 *src4 = reinterpret_cast<const float4 *>(src);
    float4 *dst4 = reinterpret_cast<float4 *>(dst);
    auto load = [&](unsigned s, unsigned bx, unsigned by) {
        if (vec_in) {
#pragma unroll
            for (unsigned j = 0; j < TILE; j += ROWS) {
                unsigned r = by + y + j, c = bx + 4u * x;
                incoming[s * (TILE / ROWS) + j / ROWS] = src4[r < rows && c < cols ? (r * cols + c) / 4u : 0u];
            }
        }
    };
    auto put = [&](unsigned s, unsigned bx, unsigned by) {
#pragma unroll
        for (unsigned j = 0; j < TILE; j += ROWS) {
            unsigned r = by + y + j, c = bx + 4u * x;
            if (r >= rows || c >= cols)
                continue;
            if (vec_in) {
                float4 v = incoming[s * (TILE / ROWS) + j / ROWS];
                tile[y + j][4u * x] = v.x;
                tile[y + j][4u * x + 1u] = v.y;
                tile[y + j][4u * x + 2u] = v.z;
                tile[y + j][4u * x + 3u] = v.w;
            } else {
                for (unsigned k = 0; k < 4u && c + k < cols; k++)
                    tile[y + j][4u * x + k] = src[r * cols + c + k];
            }
        }
    };
    auto write = [&](unsigned bx, unsigned by) {
#pragma unroll
        for (unsigned j = 0; j < TILE; j += ROWS) {
            unsigned r = bx + y + j, c = by + 4u * x;
            if (r >= cols || c >= rows)
                continue;
            if (vec_out) {
                dst4[(r * rows + c) / 4u] = make_float4(tile[4u * x][y + j], tile[4u * x + 1u][y + j],
                                                        tile[4u * x + 2u][y + j], tile[4u * x + 3u][y + j]);
            } else {
                for (unsigned k = 0; k < 4u && c + k < rows; k++)
                    dst[r * rows + c + k] = tile[4u * x + k][y + j];
            }
        }
    };
    tile_loop<TILE, DEPTH>(rows, cols, load, put, write);
}

} // namespace

/* one launcher per row of transpose/rows.h, matched by shader name and its seven constants (TILES_PER_GROUP sets
 * only the grid: the template ignores it, and moves any number of tiles) */
#define CUDA_ROW(name, shader, tile, rows, pad, swizzle, mode, per_group, depth, note)                                 \
    {#shader,                                                                                                          \
     TRANSPOSE_NSPEC,                                                                                                  \
     {tile, rows, pad, swizzle, mode, per_group, depth},                                                               \
     vkb_launch_push<float, float, transpose_push, shader<tile, rows, pad, swizzle, mode, per_group, depth>>},
extern "C" const vkb_cuda_kernel vkb_cuda_kernels_transpose[] = {
    TRANSPOSE_ROWS(CUDA_ROW){nullptr, 0, {}, nullptr},
};
