/* rows.h - the matmul family's kernel rows, declared once: host/families/matmul/matmul.c builds its variant table
 * from this list and host/families/matmul/matmul.cu its launch table (the cuBLAS ceilings are rows of matmul.c alone).
 * X(name, shader, LX, LY, NSPEC, (SPEC...), param, needs, note, ceiling): the workgroup LX x LY where it is a knob
 * of its own (matmul_naive: the C tile a workgroup covers; matmul_block: the invocations sharing a block), 0 where
 * the constants decide it (MATMUL_WORKGROUP), the NSPEC constants from id 3 (matmul_tiled: TILE; matmul_block:
 * BM BN BK WM WN TM TN OPT; matmul_warptile and _named: BM BN BK WM WN TM TN, _named's TM = TN = 8, then optionally
 * FIXED, 1: M, N, K as constants of a pipeline built per shape, which the plan sets, FIXED_M FIXED_N FIXED_K (0: the
 * plan's) and INTERIOR, 1: unguarded interior blocks; coopmat: BM BN BK WM WN); param
 * and needs are host symbols, unused by the CUDA table.
 * WM 0 (subgroup) is two subgroups: the host sets it from the device, the CUDA table from the warp (64). */
#ifndef VKB_MATMUL_ROWS_H
#define VKB_MATMUL_ROWS_H

#include "matmul.h"

/* matmul_block's 8x8 register blocks of a 128x128x8 block */
#define MATMUL_BLOCK2D 128, 128, 8, 128, 128, 8, 8
#define MATMUL_OPT_ALL (MATMUL_OPT_WIDE | MATMUL_OPT_AT | MATMUL_OPT_DB)

/* The workgroup of a row of SHADER, never stated beside the constants it follows from: matmul_tiled's is
 * TILE x TILE (the plan refuses a --spec that sets them apart), matmul_coopmat's one subgroup per WM x WN
 * sub-block, which the plan sets from the device's subgroup size (1 until then). */
#define MATMUL_WORKGROUP(shader, lx, ly, spec) MATMUL_WG_##shader(lx, ly, MATMUL_SPEC_ARGS spec)
#define MATMUL_SPEC_ARGS(...) __VA_ARGS__
#define MATMUL_WG_matmul_naive(lx, ly, ...)                                                                            \
    {                                                                                                                  \
        lx, ly, 1                                                                                                      \
    }
#define MATMUL_WG_matmul_tiled(lx, ly, tile)                                                                           \
    {                                                                                                                  \
        tile, tile, 1                                                                                                  \
    }
#define MATMUL_WG_matmul_block(lx, ly, ...)                                                                            \
    {                                                                                                                  \
        lx, ly, 1                                                                                                      \
    }
#define MATMUL_WG_matmul_block_unrolled MATMUL_WG_matmul_block
#define MATMUL_WG_matmul_warptile(lx, ly, ...) MATMUL_WG_WARPTILE(__VA_ARGS__)
#define MATMUL_WG_matmul_warptile_named MATMUL_WG_matmul_warptile
#define MATMUL_WG_WARPTILE(bm, bn, bk, wm, wn, ...)                                                                    \
    {                                                                                                                  \
        MATMUL_WARP *((bm) / (wm)) * ((bn) / (wn)), 1, 1                                                               \
    }
#define MATMUL_WG_matmul_coopmat(lx, ly, ...)                                                                          \
    {                                                                                                                  \
        1, 1, 1                                                                                                        \
    }
#define MATMUL_WG_matmul_coopmat_h MATMUL_WG_matmul_coopmat

/* Which plan a row of SHADER takes (matmul.c's plan()), declared once per shader beside its workgroup rule; the
 * rows of rows_tc.h take MM_PLAN_TC, and the library ceilings (no shader) MM_PLAN_LIBRARY. */
enum mm_plan_kind {
    MM_PLAN_LIBRARY,
    MM_PLAN_NAIVE,
    MM_PLAN_TILED,
    MM_PLAN_BLOCK,
    MM_PLAN_WARPTILE,
    MM_PLAN_WARPTILE_NAMED, /* matmul_warptile_named: TM = TN = 8 named registers, no INTERIOR */
    MM_PLAN_COOPMAT,        /* matmul_coopmat(_h): one subgroup per WM x WN sub-block */
    MM_PLAN_TC              /* the rows of rows_tc.h: KHR, coopmat2 and the peak, planned by matmul_tc.c */
};
#define MATMUL_PLAN_KIND(shader) MATMUL_PLAN_##shader
#define MATMUL_PLAN_matmul_naive MM_PLAN_NAIVE
#define MATMUL_PLAN_matmul_tiled MM_PLAN_TILED
#define MATMUL_PLAN_matmul_block MM_PLAN_BLOCK
#define MATMUL_PLAN_matmul_block_unrolled MM_PLAN_BLOCK
#define MATMUL_PLAN_matmul_warptile MM_PLAN_WARPTILE
#define MATMUL_PLAN_matmul_warptile_named MM_PLAN_WARPTILE_NAMED
#define MATMUL_PLAN_matmul_coopmat MM_PLAN_COOPMAT
#define MATMUL_PLAN_matmul_coopmat_h MM_PLAN_COOPMAT

#define MATMUL_ROWS(X)                                                                                                 \
    X(naive, matmul_naive, 16, 16, 0, (0), 0, 0,                                                                       \
      "one invocation per element of C, A and B from global memory: 2 loads per FMA, L1/L2-bound; ~10% of "            \
      "cuBLAS",                                                                                                        \
      cublas_sgemm)                                                                                                    \
    X(tiled16, matmul_tiled, 0, 0, 1, (16), 0, 0,                                                                      \
      "the textbook's 16x16 shared-memory tiles loaded in phases between barriers: global traffic / 16; ~20% "         \
      "of cuBLAS",                                                                                                     \
      cublas_sgemm)                                                                                                    \
    X(tiled32, matmul_tiled, 0, 0, 1, (32), 0, 0,                                                                      \
      "TILE_WIDTH 32: traffic / 32 but 2 shared loads per FMA still bound it; ~20% of cuBLAS", cublas_sgemm)           \
    X(rows, matmul_block, 512, 1, 8, (64, 64, 8, 64, 64, 8, 1, 0), 0, 0,                                               \
      "8 outputs per invocation down a column: one shared B value feeds 8 FMAs; predict ~2x tiled32", cublas_sgemm)    \
    X(block2d, matmul_block, 256, 1, 8, (MATMUL_BLOCK2D, 0), 0, 0,                                                     \
      "8x8 register block per invocation: 16 shared loads per 64 FMAs; predict ~1.5x rows", cublas_sgemm)              \
    X(vec4, matmul_block, 256, 1, 8, (MATMUL_BLOCK2D, MATMUL_OPT_WIDE), 0, 0,                                          \
      "16-byte global loads and vec4 B reads from shared memory: fewer instructions; predict +15%", cublas_sgemm)      \
    X(transposed_a, matmul_block, 256, 1, 8, (MATMUL_BLOCK2D, MATMUL_OPT_WIDE | MATMUL_OPT_AT), 0, 0,                  \
      "A tile stored k-major (+4 pad): vec4, conflict-free A reads and stores; predict +10%", cublas_sgemm)            \
    X(dbuf, matmul_block, 256, 1, 8, (MATMUL_BLOCK2D, MATMUL_OPT_ALL), 0, 0,                                           \
      "two shared stages, next tile fetched during the math, one barrier per tile; predict +5-10%", cublas_sgemm)      \
    X(subgroup, matmul_block_unrolled, 128, 1, 8, (128, 128, 8, 0, 64, 8, 4, MATMUL_OPT_ALL), MM_WM_SUBGROUP, 0,       \
      "each subgroup owns a (2 x subgroup) x 64 sub-block, 4 strips of 8x4 per invocation: local shared "              \
      "reads; [[unroll]] keeps its 128 accumulators in registers and unrolls the k loop (BK 8): ~60% of cuBLAS",       \
      cublas_sgemm)                                                                                                    \
    X(warptile, matmul_warptile, 0, 0, 7, (128, 128, 8, 64, 32, 8, 8), 0, 0,                                           \
      "8 warps of 64x32, 2x2 strips of 4x4 per invocation, written for NVIDIA's Vulkan compiler: vec4 shared "         \
      "tiles read at constant offsets from one base, vec4 fragments and FMAs, k loop [[unroll]]ed, two "               \
      "stages; predict ~85% of cuBLAS, 1.0x its twin",                                                                 \
      cublas_sgemm)                                                                                                    \
    X(warptile_fixed, matmul_warptile, 0, 0, 8, (128, 128, 8, 64, 32, 8, 8, 1), 0, 0,                                  \
      "warptile with M, N, K as specialization constants (FIXED=1), one pipeline per shape: every stride, "            \
      "bound and k trip count a constant, the guards folded where the shape is whole 128x128x8 blocks; "               \
      "predict warptile + a few % if address arithmetic is on its critical path, else the same",                       \
      cublas_sgemm)                                                                                                    \
    X(warptile_interior, matmul_warptile, 0, 0, 12, (128, 128, 8, 64, 32, 8, 8, 0, 0, 0, 0, 1), 0, 0,                  \
      "warptile with INTERIOR=1: a block shown once (uniform test before its k loop) to lie inside M x N with "        \
      "whole k tiles runs the loop and stores without guards, the others guarded; one pipeline for every "             \
      "shape; predict between warptile and warptile_fixed, near fixed at whole-block shapes",                          \
      cublas_sgemm)                                                                                                    \
    X(warptile_named, matmul_warptile_named, 0, 0, 7, (128, 64, 16, 64, 32, 8, 8), 0, 0,                               \
      "warptile's tiling as 4 warps of 64x32 (128 invocations, 8x8 each, BK 16, two stages) with the registers "       \
      "written out: 16 named vec4 accumulators, 4 named vec4 fragments, each k step 32 vec4 FMAs in the "              \
      "source; predict >= warptile, 1.0x its twin (warptile's template at these constants)",                           \
      cublas_sgemm)                                                                                                    \
    X(warptile_64x64, matmul_warptile, 0, 0, 7, (128, 128, 8, 64, 64, 8, 16), 0, 0,                                    \
      "warptile at subgroup's geometry (4 warps of 64x64, 128 invocations, 8x16 each as 2x4 strips of 4x4): "          \
      "the same work per invocation in code written for the driver; predict >= subgroup's twin (~80%)",                \
      cublas_sgemm)                                                                                                    \
    X(warptile_64x64_interior, matmul_warptile, 0, 0, 12, (128, 128, 8, 64, 64, 8, 16, 0, 0, 0, 0, 1), 0, 0,           \
      "warptile_64x64 with INTERIOR=1 (warptile_interior's uniform test): measured on the H100 1.25x "                 \
      "warptile_64x64 and 0.91 of its twin at 8192^3, the best fp32 SGEMM (at 256 invocations the same "               \
      "test lost 4%)",                                                                                                 \
      cublas_sgemm)                                                                                                    \
    X(coopmat_f16, matmul_coopmat, 0, 0, 5, (128, 128, 32, 64, 32), MM_F16,                                            \
      VKB_NEED_COOPMAT | VKB_NEED_SUBGROUP_BASIC,                                                                      \
      "fp16 inputs, fp32 accumulation, 16x16x16 cooperative matrices (tensor cores), 8 subgroups of 64x32 "            \
      "held in named variables, two shared stages with the next tile in flight; predict ~30% of cuBLAS fp16",          \
      cublas_hgemm)                                                                                                    \
    X(coopmat_f16_smem16, matmul_coopmat_h, 0, 0, 5, (128, 128, 32, 64, 32), MM_F16,                                   \
      VKB_NEED_COOPMAT | VKB_NEED_SUBGROUP_BASIC,                                                                      \
      "coopmat_f16 with shared memory typed float16_t (the matrices' own type) instead of uvec4: predict the "         \
      "same unless the driver's cooperative loads depend on it",                                                       \
      cublas_hgemm)

#endif
