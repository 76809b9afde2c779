#version 450
// matmul_coopmat_khr.comp - C = A B with fp16 A and B through VK_KHR_cooperative_matrix, the portable
// tensor-core extension (NVIDIA, AMD RDNA3, Intel Arc): the pipeline of matmul_coopmat.comp (two shared
// stages filled by matmul_tc_stage.glsl, the next tile in registers during the math, PREFETCH and
// STORE_EARLY choose the schedule; accumulators as named variables, C through a small per-subgroup staging tile so any M, N is
// written with guarded stores) with the fragment shape FRAG_M x FRAG_N x FRAG_K a specialization constant
// the host takes from vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR, never assumed. Built twice: fp32
// accumulators and output, with ACC16 fp16 accumulators and an fp16 output (labelled so in the table:
// like with like against cuBLAS fp16 compute), with BF16 bf16 A and B (glslang 16; the staging moves
// 16-bit elements whatever their type), and with S8 int8 A and B, int32 accumulators and output (the staging
// moves bytes, 16 to a chunk: TC_INT8), the last also with KMAJOR: B staged k-major (B^T in shared memory,
// matmul_tc_stage.glsl's TC_B_KMAJOR) and its fragments loaded column-major.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#if BF16
#extension GL_EXT_bfloat16 : require
#define IN_T bfloat16_t
#elif S8
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#define IN_T int8_t
#define TC_INT8 1
#if KMAJOR
#define TC_B_KMAJOR 1
#endif
#else
#define IN_T float16_t
#endif
#include "vkb.glsl"

layout(constant_id = 3) const uint BM = 128;
layout(constant_id = 4) const uint BN = 128;
layout(constant_id = 5) const uint BK = 32;
layout(constant_id = 6) const uint WM = 64;
layout(constant_id = 7) const uint WN = 32;
layout(constant_id = 8) const uint FRAG_M = 16;   // the device's fragment (host: caps.coopmat_khr)
layout(constant_id = 9) const uint FRAG_N = 16;
layout(constant_id = 10) const uint FRAG_K = 16;

#if ACC16
#define ACC_T float16_t
#elif S8
#define ACC_T int32_t
#else
#define ACC_T float
#endif

// the load schedule and the workgroups' order (matmul_tc_stage.glsl)
layout(constant_id = 11) const uint PREFETCH = 1;      // 2: two register sets of loads in flight
layout(constant_id = 12) const uint GROUP_M = 1;       // block rows per group of the launch order (L2 reuse)
layout(constant_id = 13) const uint STORE_EARLY = 0;   // 1: each tile stored after the barrier

const uint FM = WM / FRAG_M, FN = WN / FRAG_N;    // fragments per subgroup (at most 4 x 4, named below)
const uint NSUB = (BM / WM) * (BN / WN);
const uint FRAG_C = FRAG_M * FRAG_N;

layout(std430, binding = 2) writeonly buffer MatC { ACC_T c[]; };

layout(push_constant) uniform Push { uint m, n, k; } pc;

#include "matmul_tc_stage.glsl"

shared ACC_T cs[NSUB * FRAG_C];

#define FRAG_A coopmat<IN_T, gl_ScopeSubgroup, FRAG_M, FRAG_K, gl_MatrixUseA>
#define FRAG_B coopmat<IN_T, gl_ScopeSubgroup, FRAG_K, FRAG_N, gl_MatrixUseB>
#define ACC coopmat<ACC_T, gl_ScopeSubgroup, FRAG_M, FRAG_N, gl_MatrixUseAccumulator>
#define ROW_MAJOR gl_CooperativeMatrixLayoutRowMajor
#if S8
#define ACC_ZERO 0
#else
#define ACC_ZERO 0.0
#endif

// Fragment (I, J) of the subgroup's accumulators leaves through its staging tile.
void store_c(ACC acc, uint i, uint j, uint sub, uint m0, uint n0, uint sr, uint sc)
{
    coopMatStore(acc, cs, sub * FRAG_C, FRAG_N, ROW_MAJOR);
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    for (uint e = gl_SubgroupInvocationID; e < FRAG_C; e += gl_SubgroupSize) {
        uint gm = m0 + sr * WM + i * FRAG_M + e / FRAG_N, gn = n0 + sc * WN + j * FRAG_N + e % FRAG_N;
        if (gm < pc.m && gn < pc.n)
            c[gm * pc.n + gn] = cs[sub * FRAG_C + e];
    }
    subgroupBarrier();   // the next fragment reuses this subgroup's staging tile
}

// Named variables, not arrays: NVIDIA's compiler keeps arrays of cooperative matrices in local memory
// (docs/performance.md); the ones beyond FM x FN, false conditions on specialization constants, vanish.
// Offsets and strides count the units of the shared arrays: TC_EPS elements each (matmul_tc_stage.glsl).
#define FOR4(X) X(0) X(1) X(2) X(3)
#define FOR4X4(X) X(0, 0) X(0, 1) X(0, 2) X(0, 3) X(1, 0) X(1, 1) X(1, 2) X(1, 3) \
                  X(2, 0) X(2, 1) X(2, 2) X(2, 3) X(3, 0) X(3, 1) X(3, 2) X(3, 3)
#define DECLARE_ACC(i, j) ACC acc##i##j = ACC(ACC_ZERO);
#define LOAD_A(i) if (i < FM) coopMatLoad(fa##i, as, cur * ASTAGE + (sr * WM + i * FRAG_M) * ASTR + kk / TC_EPS, ASTR, \
                                          ROW_MAJOR);
#if TC_B_KMAJOR
#define LOAD_B(j) if (j < FN) coopMatLoad(fb##j, bs, cur * BSTAGE + (sc * WN + j * FRAG_N) * BSTR + kk / TC_EPS, BSTR, \
                                          gl_CooperativeMatrixLayoutColumnMajor);
#else
#define LOAD_B(j) if (j < FN) coopMatLoad(fb##j, bs, cur * BSTAGE + kk * BSTR + (sc * WN + j * FRAG_N) / TC_EPS, BSTR, \
                                          ROW_MAJOR);
#endif
// The math on shared stage G, for matmul_tc_stage.glsl's TC_PIPELINE.
#define TC_MATH(g) if (sub < NSUB) {                                                                    \
        uint cur = g;                                                                                   \
        [[unroll]] for (uint kk = 0; kk < BK; kk += FRAG_K) {                                          \
            FRAG_A fa0, fa1, fa2, fa3;                                                                  \
            FRAG_B fb0, fb1, fb2, fb3;                                                                  \
            FOR4(LOAD_A)                                                                                \
            FOR4(LOAD_B)                                                                                \
            FOR4X4(MMA)                                                                                 \
        }                                                                                               \
    }
#define MMA(i, j) if (i < FM && j < FN) acc##i##j = coopMatMulAdd(fa##i, fb##j, acc##i##j);
#define STORE(i, j) if (i < FM && j < FN) store_c(acc##i##j, i, j, sub, m0, n0, sr, sc);

void main()
{
    uint tid = gl_LocalInvocationIndex, sub = gl_SubgroupID;
    uint sr = sub / (BN / WN), sc = sub % (BN / WN);
    uvec2 block = block_of_workgroup();
    uint m0 = block.y * BM, n0 = block.x * BN;
    uint tiles = (pc.k + BK - 1u) / BK;
    FOR4X4(DECLARE_ACC)

    TC_PIPELINE(tiles, m0, n0, tid)

    if (sub >= NSUB)
        return;
    FOR4X4(STORE)
}
