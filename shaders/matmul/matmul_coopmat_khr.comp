#version 450
// matmul_coopmat_khr.comp - C = A B with fp16 A and B through VK_KHR_cooperative_matrix, the portable
// tensor-core extension (NVIDIA, AMD RDNA3, Intel Arc): the pipeline of matmul_coopmat.comp (two shared
// stages, the next tile in registers during the math, accumulators as named variables, C through a small
// per-subgroup staging tile so any M, N is written with guarded stores) with the fragment shape FRAG_M x
// FRAG_N x FRAG_K a specialization constant the host takes from vkGetPhysicalDeviceCooperativeMatrix-
// PropertiesKHR, never assumed. Built twice: fp32 accumulators and output, and with ACC16 fp16
// accumulators and an fp16 output (labelled so in the table: like with like against cuBLAS fp16 compute).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
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
#else
#define ACC_T float
#endif

const uint NT = gl_WorkGroupSize.x;
const uint FM = WM / FRAG_M, FN = WN / FRAG_N;    // fragments per subgroup (at most 4 x 4, named below)
const uint ASTR = BK / 8u + 1u;                   // A tile row stride in 16-byte chunks (8 halves), padded by one
const uint BSTR = BN / 8u + 1u;
const uint ASTAGE = BM * ASTR, BSTAGE = BK * BSTR;
const uint NSUB = (BM / WM) * (BN / WN);
const uint ACH = BM * BK / 8u, BCH = BK * BN / 8u; // 16-byte chunks per tile
const uint LA = (ACH + NT - 1u) / NT, LB = (BCH + NT - 1u) / NT;
const uint FRAG_C = FRAG_M * FRAG_N;

layout(std430, binding = 0) readonly buffer MatA { uint a2[]; };
layout(std430, binding = 0) readonly buffer MatA8 { uvec4 a8[]; };
layout(std430, binding = 1) readonly buffer MatB { uint b2[]; };
layout(std430, binding = 1) readonly buffer MatB8 { uvec4 b8[]; };
layout(std430, binding = 2) writeonly buffer MatC { ACC_T c[]; };

layout(push_constant) uniform Push { uint m, n, k; } pc;

shared uvec4 as[2u * ASTAGE];
shared uvec4 bs[2u * BSTAGE];
shared ACC_T cs[NSUB * FRAG_C];

uvec4 ra[LA], rb[LB];   // the next tile, in flight during the math

uint half_of(bool is_a, uint e)
{
    uint w = is_a ? a2[e >> 1] : b2[e >> 1];
    return (w >> ((e & 1u) * 16u)) & 0xffffu;
}

// Eight halves of row ROW from column COL of a ROWS x COLS fp16 matrix, zero beyond its edges.
uvec4 chunk_guarded(bool is_a, uint row, uint col, uint rows, uint cols)
{
    if (row >= rows || col >= cols)
        return uvec4(0u);
    if ((cols & 7u) == 0u)
        return is_a ? a8[(row * cols + col) >> 3] : b8[(row * cols + col) >> 3];
    uint h[8];
    [[unroll]] for (uint q = 0; q < 8u; q++)
        h[q] = col + q < cols ? half_of(is_a, row * cols + col + q) : 0u;
    return uvec4(h[0] | h[1] << 16, h[2] | h[3] << 16, h[4] | h[5] << 16, h[6] | h[7] << 16);
}

// Issue the loads of the tile at K0 into registers.
void fetch(uint k0, uint m0, uint n0, uint tid)
{
    bool a_inside = (pc.k & 7u) == 0u && m0 + BM <= pc.m && k0 + BK <= pc.k;   // uniform: no divergence
    bool b_inside = (pc.n & 7u) == 0u && k0 + BK <= pc.k && n0 + BN <= pc.n;
    [[unroll]] for (uint l = 0; l < LA; l++) {
        uint i = min(tid + l * NT, ACH - 1u), r = i / (BK / 8u), c8 = i % (BK / 8u);
        ra[l] = a_inside ? a8[((m0 + r) * pc.k + k0 + c8 * 8u) >> 3]
                         : chunk_guarded(true, m0 + r, k0 + c8 * 8u, pc.m, pc.k);
    }
    [[unroll]] for (uint l = 0; l < LB; l++) {
        uint i = min(tid + l * NT, BCH - 1u), r = i / (BN / 8u), c8 = i % (BN / 8u);
        rb[l] = b_inside ? b8[((k0 + r) * pc.n + n0 + c8 * 8u) >> 3]
                         : chunk_guarded(false, k0 + r, n0 + c8 * 8u, pc.k, pc.n);
    }
}

// Store the fetched registers into shared stage S.
void stash(uint s, uint tid)
{
    [[unroll]] for (uint l = 0; l < LA; l++) {
        uint i = tid + l * NT;
        if (i < ACH)
            as[s * ASTAGE + i / (BK / 8u) * ASTR + i % (BK / 8u)] = ra[l];
    }
    [[unroll]] for (uint l = 0; l < LB; l++) {
        uint i = tid + l * NT;
        if (i < BCH)
            bs[s * BSTAGE + i / (BN / 8u) * BSTR + i % (BN / 8u)] = rb[l];
    }
}

#define FRAG_A coopmat<float16_t, gl_ScopeSubgroup, FRAG_M, FRAG_K, gl_MatrixUseA>
#define FRAG_B coopmat<float16_t, gl_ScopeSubgroup, FRAG_K, FRAG_N, gl_MatrixUseB>
#define ACC coopmat<ACC_T, gl_ScopeSubgroup, FRAG_M, FRAG_N, gl_MatrixUseAccumulator>
#define ROW_MAJOR gl_CooperativeMatrixLayoutRowMajor

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
// Offsets and strides count uvec4 elements of the shared arrays: 8 halves each.
#define FOR4(X) X(0) X(1) X(2) X(3)
#define FOR4X4(X) X(0, 0) X(0, 1) X(0, 2) X(0, 3) X(1, 0) X(1, 1) X(1, 2) X(1, 3) \
                  X(2, 0) X(2, 1) X(2, 2) X(2, 3) X(3, 0) X(3, 1) X(3, 2) X(3, 3)
#define DECLARE_ACC(i, j) ACC acc##i##j = ACC(0.0);
#define LOAD_A(i) if (i < FM) coopMatLoad(fa##i, as, cur * ASTAGE + (sr * WM + i * FRAG_M) * ASTR + kk / 8u, ASTR, \
                                          ROW_MAJOR);
#define LOAD_B(j) if (j < FN) coopMatLoad(fb##j, bs, cur * BSTAGE + kk * BSTR + (sc * WN + j * FRAG_N) / 8u, BSTR, \
                                          ROW_MAJOR);
#define MMA(i, j) if (i < FM && j < FN) acc##i##j = coopMatMulAdd(fa##i, fb##j, acc##i##j);
#define STORE(i, j) if (i < FM && j < FN) store_c(acc##i##j, i, j, sub, m0, n0, sr, sc);

void main()
{
    uint tid = gl_LocalInvocationID.x, sub = gl_SubgroupID;
    uint sr = sub / (BN / WN), sc = sub % (BN / WN);
    uint m0 = gl_WorkGroupID.y * BM, n0 = gl_WorkGroupID.x * BN;
    uint tiles = (pc.k + BK - 1u) / BK;
    FOR4X4(DECLARE_ACC)

    fetch(0u, m0, n0, tid);
    stash(0u, tid);
    barrier();
    for (uint t = 0; t < tiles; t++) {
        uint cur = t & 1u;
        if (t + 1u < tiles)
            fetch((t + 1u) * BK, m0, n0, tid);
        if (sub < NSUB) {
            [[unroll]] for (uint kk = 0; kk < BK; kk += FRAG_K) {
                FRAG_A fa0, fa1, fa2, fa3;
                FRAG_B fb0, fb1, fb2, fb3;
                FOR4(LOAD_A)
                FOR4(LOAD_B)
                FOR4X4(MMA)
            }
        }
        if (t + 1u < tiles)   // the other stage was last read before the previous barrier
            stash(cur ^ 1u, tid);
        barrier();
    }

    if (sub >= NSUB)
        return;
    FOR4X4(STORE)
}
