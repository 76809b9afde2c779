/* rows_tc.h - the matmul family's tensor-core rows, declared once: host/families/matmul/matmul.c builds its
 * variant rows from this list and host/families/matmul/matmul_tc.cu its launch table (the cuBLAS fp16-compute ceiling is a row
 * of matmul.c alone). X(name, shader, LX, NSPEC, (SPEC...), param, needs, flags, note, ceiling): a 1-D workgroup
 * of LX (0 for matmul_coopmat_khr: the plan makes it one subgroup per BM/WM x BN/WN sub-block), the NSPEC
 * constants from id 3 (coopmat_khr and peak: BM BN BK WM WN FRAG_M FRAG_N FRAG_K; coopmat2: BM BN BK UNROLL INTERIOR;
 * coopmat2_staged: BM BN BK PREFETCH TENSOR_LOAD GROUP_M STORE_EARLY, the schedule measured fastest on the
 * H100, docs/performance.md; coopmat_khr's schedule constants PREFETCH, GROUP_M, STORE_EARLY stay at the
 * defaults its WMMA twin runs and are reached by name through --spec), FRAG 0 = the fragment the device
 * reports (host/families/matmul/matmul_tc.c; the CUDA twins are built for WMMA's and mma.sync's 16x16x16); param,
 * needs and flags are host symbols, unused by the CUDA table; ceiling a string or NULL. */
#ifndef VKB_MATMUL_ROWS_TC_H
#define VKB_MATMUL_ROWS_TC_H

/* the block of matmul_coopmat.comp's row: 8 subgroups of 64x32 in 128x128x32 */
#define MATMUL_TC_TILE 128, 128, 32, 64, 32
/* coopmat_khr's: the same 128x128x32 block, the subgroup tile WM x WN and the fragment 0, chosen by the plan
 * from the fragment the device lists (64x32 of NVIDIA's 16x16, 32x32 of lavapipe 26's 8x8: matmul_tc.c) */
#define MATMUL_KHR_TILE 128, 128, 32, 0, 0, 0, 0, 0
/* the subgroup tile it aims at (the H100's, and the CUDA twin's with WMMA's 16x16x16) */
#define MATMUL_KHR_WM 64
#define MATMUL_KHR_WN 32

#define MATMUL_TC_ROWS(X)                                                                                              \
    X(coopmat_khr, matmul_coopmat_khr, 0, 8, (MATMUL_KHR_TILE), MM_F16,                                                \
      VKB_NEED_COOPMAT_KHR | VKB_NEED_SUBGROUP_BASIC, 0,                                                               \
      "VK_KHR_cooperative_matrix (AMD, Intel, NVIDIA): coopmat_f16's pipeline with the fragment the device "           \
      "reports; fp16 in, fp32 accumulate; twin: WMMA",                                                                 \
      "cublas_hgemm")                                                                                                  \
    X(coopmat_khr_bf16, matmul_coopmat_khr_bf16, 0, 8, (MATMUL_KHR_TILE), MM_TC_BF16,                                  \
      VKB_NEED_COOPMAT_KHR | VKB_NEED_SUBGROUP_BASIC | VKB_NEED_BFLOAT16_COOPMAT, 0,                                   \
      "BF16 INPUTS: coopmat_khr with bf16 A and B (VK_KHR_shader_bfloat16, glslang 16) and the device's bf16 "         \
      "fragment; fp32 accumulate; twin: WMMA bf16",                                                                    \
      "cublas_gemm_bf16")                                                                                              \
    X(coopmat2, matmul_coopmat2, 256, 3, (128, 128, 32), MM_F16, VKB_NEED_COOPMAT2, VKB_VAR_VULKAN_ONLY,               \
      "VK_NV_cooperative_matrix2: one workgroup-scope BM x BN accumulator, tiles loaded by clamped tensor "            \
      "layouts (any shape), the driver splits the work; fp16 in, fp32 accumulate",                                     \
      "cublas_hgemm")                                                                                                  \
    X(coopmat2_interior, matmul_coopmat2, 256, 5, (128, 256, 32, 16, 1), MM_F16, VKB_NEED_COOPMAT2,                    \
      VKB_VAR_VULKAN_ONLY,                                                                                             \
      "coopmat2 whose blocks inside M x N load through unclamped tensor layouts (16-byte "                             \
      "rows: K and N multiples of 8), 16 k steps unrolled per trip, 128x256x32 blocks; the edges and other "           \
      "shapes clamped as coopmat2; measured 2.7x coopmat2 at 8192^3 on the H100",                                      \
      "cublas_hgemm")                                                                                                  \
    X(coopmat_khr_acc16, matmul_coopmat_khr_acc16, 0, 8, (MATMUL_KHR_TILE), MM_F16 | MM_TC_ACC16,                      \
      VKB_NEED_COOPMAT_KHR | VKB_NEED_SUBGROUP_BASIC, 0,                                                               \
      "FP16 ACCUMULATE: coopmat_khr with fp16 accumulators and C; like with like against cuBLAS fp16 compute",         \
      "cublas_hgemm_acc16")                                                                                            \
    X(coopmat2_acc16, matmul_coopmat2_acc16, 256, 3, (128, 128, 32), MM_F16 | MM_TC_ACC16, VKB_NEED_COOPMAT2,          \
      VKB_VAR_VULKAN_ONLY, "FP16 ACCUMULATE: coopmat2 with fp16 accumulators and C (as ggml's coopmat2 GEMM)",         \
      "cublas_hgemm_acc16")                                                                                            \
    X(coopmat2_interior_acc16, matmul_coopmat2_acc16, 256, 5, (256, 256, 32, 8, 1), MM_F16 | MM_TC_ACC16,              \
      VKB_NEED_COOPMAT2, VKB_VAR_VULKAN_ONLY,                                                                          \
      "FP16 ACCUMULATE: coopmat2_interior with fp16 accumulators and C, "                                              \
      "256x256x32 blocks",                                                                                             \
      "cublas_hgemm_acc16")                                                                                            \
    X(coopmat2_staged, matmul_coopmat2_staged, 256, 7, (128, 128, 32, 1, 0, 8, 1), MM_F16, VKB_NEED_COOPMAT2,          \
      VKB_VAR_VULKAN_ONLY,                                                                                             \
      "VK_NV_cooperative_matrix2 fed from shared memory: the kernel stages A and B itself "                            \
      "(16-byte loads, two stages, stored after the barrier, block rows in groups of 8), workgroup-scope "             \
      "matrices loaded from shared; fp16 in, fp32 accumulate",                                                         \
      "cublas_hgemm")                                                                                                  \
    X(coopmat2_staged_acc16, matmul_coopmat2_staged_acc16, 256, 7, (256, 256, 16, 1, 0, 1, 1), MM_F16 | MM_TC_ACC16,   \
      VKB_NEED_COOPMAT2, VKB_VAR_VULKAN_ONLY,                                                                          \
      "FP16 ACCUMULATE: coopmat2_staged with fp16 accumulators and C, 256x256x16 blocks", "cublas_hgemm_acc16")        \
    X(tc_peak, matmul_coopmat_peak, 256, 8, (0, 0, 0, 0, 0, 0, 0, 0), MM_F16 | MM_TC_PEAK,                             \
      VKB_NEED_COOPMAT_KHR | VKB_NEED_SUBGROUP_BASIC, VKB_VAR_CEILING,                                                 \
      "the tensor-core instruction's own peak, fp32 accumulate: register-only cooperative-matrix multiply-adds "       \
      "(CUDA: mma.sync m16n8k16); C not a product",                                                                    \
      NULL)                                                                                                            \
    X(tc_peak_acc16, matmul_coopmat_peak_acc16, 256, 8, (0, 0, 0, 0, 0, 0, 0, 0), MM_F16 | MM_TC_ACC16 | MM_TC_PEAK,   \
      VKB_NEED_COOPMAT_KHR | VKB_NEED_SUBGROUP_BASIC, VKB_VAR_CEILING, "tc_peak with fp16 accumulators", NULL)         \
    MATMUL_TC_ROWS_S8_BF16(X)

/* The int8 rows (s8 x s8 -> s32, checked exactly; GOP/s) and the cooperative_matrix2 bf16 rows. */
#define MATMUL_TC_ROWS_S8_BF16(X)                                                                                      \
    X(coopmat_khr_s8, matmul_coopmat_khr_s8, 0, 8, (MATMUL_KHR_TILE), MM_TC_S8,                                        \
      VKB_NEED_COOPMAT_KHR | VKB_NEED_SUBGROUP_BASIC | VKB_NEED_INT8, VKB_VAR_INTEGER_OPS,                             \
      "INT8: coopmat_khr with s8 A and B, s32 accumulators and C at the device's s8 fragment (bytes staged 16 "        \
      "to a load); exact; twin: WMMA s8",                                                                              \
      "cublas_gemm_s8")                                                                                                \
    X(coopmat_khr_s8_kmajor, matmul_coopmat_khr_s8_kmajor, 0, 8, (MATMUL_KHR_TILE), MM_TC_S8,                          \
      VKB_NEED_COOPMAT_KHR | VKB_NEED_SUBGROUP_BASIC | VKB_NEED_INT8, VKB_VAR_INTEGER_OPS,                             \
      "INT8: coopmat_khr_s8 with B staged k-major (4 bytes of 4 k rows a load, transposed into B^T in shared "         \
      "memory), B's fragments loaded column-major as A's are row-major; exact; twin: WMMA s8",                         \
      "cublas_gemm_s8")                                                                                                \
    X(coopmat2_staged_s8, matmul_coopmat2_staged_s8, 256, 7, (128, 128, 64, 1, 0, 8, 1), MM_TC_S8,                     \
      VKB_NEED_COOPMAT2 | VKB_NEED_INT8, VKB_VAR_VULKAN_ONLY | VKB_VAR_INTEGER_OPS,                                    \
      "INT8: coopmat2_staged with s8 A and B, s32 accumulators and C, B staged k-major (as "                           \
      "coopmat_khr_s8_kmajor) and loaded column-major, 128x128x64 blocks; exact",                                      \
      "cublas_gemm_s8")                                                                                                \
    X(coopmat2_s8, matmul_coopmat2_s8, 256, 3, (128, 128, 32), MM_TC_S8, VKB_NEED_COOPMAT2 | VKB_NEED_INT8,            \
      VKB_VAR_VULKAN_ONLY | VKB_VAR_INTEGER_OPS,                                                                       \
      "INT8: coopmat2 with s8 A and B, s32 accumulators and C (clamped tensor layouts, any shape); exact",             \
      "cublas_gemm_s8")                                                                                                \
    X(coopmat2_interior_s8, matmul_coopmat2_s8, 256, 5, (128, 256, 64, 8, 1), MM_TC_S8,                                \
      VKB_NEED_COOPMAT2 | VKB_NEED_INT8, VKB_VAR_VULKAN_ONLY | VKB_VAR_INTEGER_OPS,                                    \
      "INT8: coopmat2_interior with s8 A and B (16-byte rows: K and N multiples of 16), 128x256x64 blocks, 8 k "       \
      "steps per trip; exact",                                                                                         \
      "cublas_gemm_s8")                                                                                                \
    X(coopmat2_bf16, matmul_coopmat2_bf16, 256, 3, (128, 128, 32), MM_TC_BF16,                                         \
      VKB_NEED_COOPMAT2 | VKB_NEED_BFLOAT16_COOPMAT, VKB_VAR_VULKAN_ONLY,                                              \
      "BF16 INPUTS: coopmat2 with bf16 A and B (glslang 16), fp32 accumulate, clamped tensor layouts (any shape)",     \
      "cublas_gemm_bf16")                                                                                              \
    X(coopmat2_interior_bf16, matmul_coopmat2_bf16, 256, 5, (128, 256, 32, 16, 1), MM_TC_BF16,                         \
      VKB_NEED_COOPMAT2 | VKB_NEED_BFLOAT16_COOPMAT, VKB_VAR_VULKAN_ONLY,                                              \
      "BF16 INPUTS: coopmat2_interior with bf16 A and B, fp32 accumulate, 128x256x32 blocks, 16 k steps per trip",     \
      "cublas_gemm_bf16")

#endif
