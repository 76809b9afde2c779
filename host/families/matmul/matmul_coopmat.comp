#version 450
// matmul_coopmat.comp - C = A B with fp16 A and B, fp32 accumulation, through 16 x 16 x 16 cooperative
// matrices (tensor cores; VK_NV_cooperative_matrix). A workgroup of NSUB subgroups computes a BM x BN
// block: BK-deep fp16 tiles of A and B go through shared memory (zero beyond the edges), each subgroup
// owns a WM x WN sub-block of (WM/16) x (WN/16) accumulators, and C leaves through a small per-subgroup
// shared tile so any M, N is written with plain guarded stores.
// Pipelined: two shared stages; the next tile's global loads are issued into registers before the
// tensor-core work on the current stage and stored to the other stage after it, one barrier per tile
// (the step the first version lacked: it waited on memory with the tensor cores idle, twice a tile).
// Tiles wholly inside the matrices (K, N multiples of 8) are read with unguarded 16-byte loads.
// The fp16 buffers are read as 32-bit words (two halves each), or 16-byte words when K (for A) or
// N (for B) is a multiple of 8; no 16-bit storage access is needed. Shared memory holds the halves as
// uvec4 (16-byte slots), or, built with SHARED_HALF, as float16_t so the cooperative loads read an
// array of the matrices' own 16-bit type (matmul_coopmat_h: whether the driver cares).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_NV_cooperative_matrix : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#include "vkb.glsl"
#include "matmul.h"

layout(constant_id = 3) const uint BM = 128;
layout(constant_id = 4) const uint BN = 128;
layout(constant_id = 5) const uint BK = 32;
layout(constant_id = 6) const uint WM = 64;
layout(constant_id = 7) const uint WN = 32;

const uint NT = gl_WorkGroupSize.x;
const uint FM = WM / 16u, FN = WN / 16u;    // fragments per subgroup
const uint ASTR = BK / 8u + 1u;             // A tile row stride in 16-byte chunks (8 halves), padded by one
const uint BSTR = BN / 8u + 1u;
const uint ASTAGE = BM * ASTR, BSTAGE = BK * BSTR;
const uint NSUB = (BM / WM) * (BN / WN);
const uint ACH = BM * BK / 8u, BCH = BK * BN / 8u;          // 16-byte chunks per tile
const uint LA = (ACH + NT - 1u) / NT, LB = (BCH + NT - 1u) / NT;

layout(std430, binding = 0) readonly buffer MatA { uint a2[]; };
layout(std430, binding = 0) readonly buffer MatA8 { uvec4 a8[]; };
layout(std430, binding = 1) readonly buffer MatB { uint b2[]; };
layout(std430, binding = 1) readonly buffer MatB8 { uvec4 b8[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };

layout(push_constant) uniform Push { matmul_push pc; };

#if SHARED_HALF
// glslang 12 loads cooperative matrices from scalar float16_t arrays, not from f16 vectors
const uint SLOTS = 8u;                      // halves per 16-byte chunk
shared float16_t as[2u * ASTAGE * SLOTS];
shared float16_t bs[2u * BSTAGE * SLOTS];
void put_a(uint chunk, uvec4 v)
{
    [[unroll]] for (uint q = 0; q < 4u; q++) {
        f16vec2 h = unpackFloat2x16(v[q]);
        as[8u * chunk + 2u * q] = h.x;
        as[8u * chunk + 2u * q + 1u] = h.y;
    }
}
void put_b(uint chunk, uvec4 v)
{
    [[unroll]] for (uint q = 0; q < 4u; q++) {
        f16vec2 h = unpackFloat2x16(v[q]);
        bs[8u * chunk + 2u * q] = h.x;
        bs[8u * chunk + 2u * q + 1u] = h.y;
    }
}
#else
const uint SLOTS = 1u;
shared uvec4 as[2u * ASTAGE];
shared uvec4 bs[2u * BSTAGE];
void put_a(uint chunk, uvec4 v) { as[chunk] = v; }
void put_b(uint chunk, uvec4 v) { bs[chunk] = v; }
#endif
shared float cs[NSUB * 256u];

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
    // the same for the whole workgroup: the branch does not diverge
    bool a_inside = (pc.k & 7u) == 0u && m0 + BM <= pc.m && k0 + BK <= pc.k;
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
            put_a(s * ASTAGE + i / (BK / 8u) * ASTR + i % (BK / 8u), ra[l]);
    }
    [[unroll]] for (uint l = 0; l < LB; l++) {
        uint i = tid + l * NT;
        if (i < BCH)
            put_b(s * BSTAGE + i / (BN / 8u) * BSTR + i % (BN / 8u), rb[l]);
    }
}

#define FRAG fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>
#define ACC fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>

// Fragment (I, J) of the subgroup's accumulators leaves through its staging tile.
void store_c(ACC acc, uint i, uint j, uint sub, uint m0, uint n0, uint sr, uint sc)
{
    coopMatStoreNV(acc, cs, sub * 256u, 16u, false);
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    for (uint e = gl_SubgroupInvocationID; e < 256u; e += gl_SubgroupSize) {
        uint gm = m0 + sr * WM + i * 16u + e / 16u, gn = n0 + sc * WN + j * 16u + e % 16u;
        if (gm < pc.m && gn < pc.n)
            c[gm * pc.n + gn] = cs[sub * 256u + e];
    }
    subgroupBarrier();   // the next fragment reuses this subgroup's staging tile
}

// The fragments are named variables, not arrays: NVIDIA's compiler keeps arrays of cooperative
// matrices in local memory (measured: 32 bytes of spill per accumulator, at a tenth of the WMMA
// twin's speed), so up to 4 x 4 fragments are spelled out and the ones beyond FM x FN, false
// conditions on specialization constants, vanish when the pipeline is built.
#define FOR4(X) X(0) X(1) X(2) X(3)
#define FOR4X4(X) X(0, 0) X(0, 1) X(0, 2) X(0, 3) X(1, 0) X(1, 1) X(1, 2) X(1, 3) \
                  X(2, 0) X(2, 1) X(2, 2) X(2, 3) X(3, 0) X(3, 1) X(3, 2) X(3, 3)
#define DECLARE_ACC(i, j) ACC acc##i##j = ACC(0.0);
#define LOAD_A(i) if (i < FM) coopMatLoadNV(fa##i, as, (cur * ASTAGE + (sr * WM + i * 16u) * ASTR + kk / 8u) * SLOTS, \
                                            ASTR * SLOTS, false);
#define LOAD_B(j) if (j < FN) coopMatLoadNV(fb##j, bs, (cur * BSTAGE + kk * BSTR + (sc * WN + j * 16u) / 8u) * SLOTS, \
                                            BSTR * SLOTS, false);
#define MMA(i, j) if (i < FM && j < FN) acc##i##j = coopMatMulAddNV(fa##i, fb##j, acc##i##j);
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
            [[unroll]] for (uint kk = 0; kk < BK; kk += 16u) {
                FRAG fa0, fa1, fa2, fa3, fb0, fb1, fb2, fb3;
                FOR4(LOAD_A)
                FOR4(LOAD_B)
                FOR4X4(MMA)
            }
        }
        // the other stage was last read before the previous barrier
        if (t + 1u < tiles)
            stash(cur ^ 1u, tid);
        barrier();
    }

    if (sub >= NSUB)
        return;
    FOR4X4(STORE)
}
