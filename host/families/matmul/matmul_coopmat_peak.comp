#version 450
// matmul_coopmat_peak.comp - the tensor-core instruction's own peak through VK_KHR_cooperative_matrix: no
// memory traffic in the loop, only cooperative-matrix multiply-adds on registers. Each subgroup holds one
// A and one B fragment (the device's FRAG_M x FRAG_N x FRAG_K, from caps) and a 4 x 4 block of named
// accumulators (16 independent chains) covering a (4 FRAG_M) x (4 FRAG_N) tile of C, and runs
// ceil(K / FRAG_K) steps: exactly the 2 M N K flops of a product of the launch's shape when M, N, K are
// multiples of the tile, so the runner's GFLOP/s is the instruction's rate (other shapes run in whole tiles
// and whole fragments, more work than counted: the rate reads low there). The accumulators are stored
// to C (guarded) so nothing is optimised away; C is not a product (the row is a ceiling, not checked).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#include "vkb.glsl"

layout(constant_id = 8) const uint FRAG_M = 16;
layout(constant_id = 9) const uint FRAG_N = 16;
layout(constant_id = 10) const uint FRAG_K = 16;

#if ACC16
#define ACC_T float16_t
#else
#define ACC_T float
#endif

layout(std430, binding = 0) readonly buffer MatA { float16_t a[]; };
layout(std430, binding = 1) readonly buffer MatB { float16_t b[]; };
layout(std430, binding = 2) buffer MatC { ACC_T c[]; };

layout(push_constant) uniform Push { uint m, n, k; } pc;

#define ACC coopmat<ACC_T, gl_ScopeSubgroup, FRAG_M, FRAG_N, gl_MatrixUseAccumulator>
#define ROW_MAJOR gl_CooperativeMatrixLayoutRowMajor
#define FOR4X4(X) X(0, 0) X(0, 1) X(0, 2) X(0, 3) X(1, 0) X(1, 1) X(1, 2) X(1, 3) \
                  X(2, 0) X(2, 1) X(2, 2) X(2, 3) X(3, 0) X(3, 1) X(3, 2) X(3, 3)
#define DECLARE(i, j) ACC acc##i##j = ACC(0.0);
#define MMA(i, j) acc##i##j = coopMatMulAdd(fa, fb, acc##i##j);
// stored only where the tile lies wholly inside C (C is not checked: a tile at an edge need not be stored)
#define STORE(i, j) coopMatStore(acc##i##j, c, (m0 + i * FRAG_M) * pc.n + n0 + j * FRAG_N, pc.n, ROW_MAJOR);

void main()
{
    // a workgroup: a row of subgroup tiles
    uint m0 = gl_WorkGroupID.y * 4u * FRAG_M;
    uint n0 = (gl_WorkGroupID.x * (gl_WorkGroupSize.x / gl_SubgroupSize) + gl_SubgroupID) * 4u * FRAG_N;
    coopmat<float16_t, gl_ScopeSubgroup, FRAG_M, FRAG_K, gl_MatrixUseA> fa;
    coopmat<float16_t, gl_ScopeSubgroup, FRAG_K, FRAG_N, gl_MatrixUseB> fb;
    coopMatLoad(fa, a, 0, FRAG_K, ROW_MAJOR);
    coopMatLoad(fb, b, 0, FRAG_N, ROW_MAJOR);
    FOR4X4(DECLARE)
    for (uint k0 = 0; k0 < pc.k; k0 += FRAG_K) {
        FOR4X4(MMA)
    }
    if (m0 + 4u * FRAG_M <= pc.m && n0 + 4u * FRAG_N <= pc.n) {
        FOR4X4(STORE)
    }
}
