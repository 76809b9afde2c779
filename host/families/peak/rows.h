/* rows.h - the peak family's rows, declared once: host/families/peak/peak.c builds its variant table from these lists
 * and host/families/peak/peak.cu its launch table; host/families/peak/shaders.cmake says how each shader is built from
 * peak_chain.comp. X(name, shader, type, ops, needs, flags, note): type the chain's number type (host/families/
 * peak_chain.h, PEAK_T_*), ops the operations one step counts (an FMA 2 per lane, a 4-way dot product 8: 4
 * multiplies, 3 adds and the accumulate), needs the VKB_NEED_* bits; type and needs are host symbols, unused by
 * the CUDA table. */
#ifndef VKB_PEAK_ROWS_H
#define VKB_PEAK_ROWS_H

#include "peak.h"

/* the default suite runs fma_f32 (matmul's fp32 fallback ceiling) and mad_i32 (the int32 roof of the suite's
 * roofline, under reduce's integer rows); the others are flagged NIS */
#define NIS VKB_VAR_NOT_IN_SUITE
#define IOPS VKB_VAR_INTEGER_OPS /* integer work: GOP/s, not GFLOP/s */
#define PEAK_ROWS(X)                                                                                                   \
    X(fma_f32, peak_fma_f32, PEAK_T_F32, 2, 0, 0, "fp32 FMA, scalar (NVIDIA FFMA)")                                    \
    X(fma_f32x4, peak_fma_f32x4, PEAK_T_F32X4, 8, 0, NIS, "fp32 FMA on vec4: 4 lanes per step")                        \
    X(fma_f16, peak_fma_f16, PEAK_T_F16, 2, VKB_NEED_FLOAT16, NIS, "fp16 FMA, scalar (shaderFloat16)")                 \
    X(fma_f16x2, peak_fma_f16x2, PEAK_T_F16X2, 4, VKB_NEED_FLOAT16, NIS,                                               \
      "fp16 FMA on f16vec2 (NVIDIA HFMA2: two halves per instruction)")                                                \
    X(fma_f64, peak_fma_f64, PEAK_T_F64, 2, VKB_NEED_FLOAT64, NIS, "fp64 FMA (shaderFloat64; NVIDIA DFMA)")            \
    X(mad_i32, peak_mad_i32, PEAK_T_I32, 2, 0, IOPS, "int32 multiply-add x * a + b (NVIDIA IMAD)")                     \
    X(mad_i16, peak_mad_i16, PEAK_T_I16, 2, VKB_NEED_INT16, NIS | IOPS, "int16 multiply-add (shaderInt16)")            \
    X(dot_u8x4, peak_dot_u8x4, PEAK_T_DOT, 8, VKB_NEED_INT_DOT, NIS | IOPS,                                            \
      "4-way dot product of packed unsigned bytes plus accumulate (VK_KHR_shader_integer_dot_product; "                \
      "NVIDIA IDP4A)")

/* The cooperative-matrix rows: X(name, shader, combo, needs, flags, note), combo
 * host/families/peak/peak_coopmat.h's PEAK_CM_*: each subgroup PEAK_CM_CHAINS accumulators of the device's
 * fragment (peak_coopmat.comp), 2 M N K operations per multiply-add. */
#define PEAK_COOPMAT_ROWS(X)                                                                                           \
    X(coopmat_f16_f32, peak_coopmat_f16_f32, PEAK_CM_F16_F32, VKB_NEED_COOPMAT_KHR | VKB_NEED_SUBGROUP_BASIC, NIS,     \
      "cooperative matrices fp16 x fp16 + fp32, the device's fragment (CUDA: WMMA 16x16x16, HMMA)")                    \
    X(coopmat_f16_f16, peak_coopmat_f16_f16, PEAK_CM_F16_F16, VKB_NEED_COOPMAT_KHR | VKB_NEED_SUBGROUP_BASIC, NIS,     \
      "cooperative matrices fp16 x fp16 + fp16")                                                                       \
    X(coopmat_s8_s32, peak_coopmat_s8_s32, PEAK_CM_S8_S32,                                                             \
      VKB_NEED_COOPMAT_KHR | VKB_NEED_SUBGROUP_BASIC | VKB_NEED_INT8, NIS | IOPS,                                      \
      "cooperative matrices s8 x s8 + s32 (CUDA: WMMA, IMMA)")                                                         \
    X(coopmat_u8_u32, peak_coopmat_u8_u32, PEAK_CM_U8_U32,                                                             \
      VKB_NEED_COOPMAT_KHR | VKB_NEED_SUBGROUP_BASIC | VKB_NEED_INT8, NIS | IOPS,                                      \
      "cooperative matrices u8 x u8 + u32")                                                                            \
    X(coopmat_bf16_f32, peak_coopmat_bf16_f32, PEAK_CM_BF16_F32,                                                       \
      VKB_NEED_COOPMAT_KHR | VKB_NEED_SUBGROUP_BASIC | VKB_NEED_BFLOAT16_COOPMAT, NIS,                                 \
      "cooperative matrices bf16 x bf16 + fp32 (VK_KHR_shader_bfloat16; glslang 16; CUDA: WMMA, HMMA.BF16)")

/* Cooperative-matrix rows without a CUDA twin (WMMA has no fp8): as PEAK_COOPMAT_ROWS, Vulkan only. */
#define PEAK_FP8 (VKB_NEED_COOPMAT_KHR | VKB_NEED_SUBGROUP_BASIC | VKB_NEED_FLOAT8_COOPMAT)
#define PEAK_COOPMAT_VK_ROWS(X)                                                                                        \
    X(coopmat_e4m3_f32, peak_coopmat_e4m3_f32, PEAK_CM_E4M3_F32, PEAK_FP8, NIS | VKB_VAR_VULKAN_ONLY,                  \
      "cooperative matrices fp8 e4m3 x e4m3 + fp32 (VK_EXT_shader_float8; glslang 16)")                                \
    X(coopmat_e5m2_f32, peak_coopmat_e5m2_f32, PEAK_CM_E5M2_F32, PEAK_FP8, NIS | VKB_VAR_VULKAN_ONLY,                  \
      "cooperative matrices fp8 e5m2 x e5m2 + fp32 (VK_EXT_shader_float8; glslang 16)")

/* Rows the shaders cannot express: U(name, type, ops, needs, note, reason); each is skipped with REASON where
 * the device has the feature. */
#define PEAK_UNBUILT_ROWS(U)                                                                                           \
    U(fma_bf16x2, PEAK_T_BF16X2, 4, VKB_NEED_BFLOAT16, "bf16 FMA on pairs (VK_KHR_shader_bfloat16)",                   \
      "GL_EXT_bfloat16 has no bf16 arithmetic (conversions, dot products and cooperative matrices only): "             \
      "no FMA to chain")

#endif
