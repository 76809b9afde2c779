#version 450
// matmul_coopmat.comp - C = A B with fp16 A and B, fp32 accumulation, through 16 x 16 x 16 cooperative
// matrices (tensor cores; VK_NV_cooperative_matrix). A workgroup of 8 subgroups computes a BM x BN
// block: BK-deep fp16 tiles of A and B go through shared memory (zero beyond the edges), each subgroup
// owns a WM x WN sub-block of (WM/16) x (WN/16) accumulators, and C leaves through a small per-subgroup
// shared tile so any M, N is written with plain guarded stores.
// The fp16 buffers are read as 32-bit words (two halves each), or 16-byte words when K (for A) or
// N (for B) is a multiple of 8; no 16-bit storage access is needed.
#extension GL_GOOGLE_include_directive : require
#extension GL_NV_cooperative_matrix : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#include "vkb.glsl"

layout(constant_id = 3) const uint BM = 128;
layout(constant_id = 4) const uint BN = 128;
layout(constant_id = 5) const uint BK = 32;
layout(constant_id = 6) const uint WM = 64;
layout(constant_id = 7) const uint WN = 32;

const uint NT = gl_WorkGroupSize.x;
const uint FM = WM / 16u, FN = WN / 16u;    // fragments per subgroup
const uint ASTR = BK / 8u + 1u;             // A tile row stride in uvec4 (8 halves), padded by one
const uint BSTR = BN / 8u + 1u;
const uint NSUB = (BM / WM) * (BN / WN);

layout(std430, binding = 0) readonly buffer MatA { uint a2[]; };
layout(std430, binding = 0) readonly buffer MatA8 { uvec4 a8[]; };
layout(std430, binding = 1) readonly buffer MatB { uint b2[]; };
layout(std430, binding = 1) readonly buffer MatB8 { uvec4 b8[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };

layout(push_constant) uniform Push { uint m, n, k; } pc;

shared uvec4 as[BM * ASTR];
shared uvec4 bs[BK * BSTR];
shared float cs[NSUB * 256u];

uint half_at(bool is_a, uint e)
{
    uint w = is_a ? a2[e >> 1] : b2[e >> 1];
    return (w >> ((e & 1u) * 16u)) & 0xffffu;
}

// Eight halves of row ROW from column COL of a ROWS x COLS fp16 matrix, zero beyond its edges.
uvec4 chunk(bool is_a, uint row, uint col, uint rows, uint cols)
{
    if (row >= rows || col >= cols)
        return uvec4(0u);
    if ((cols & 7u) == 0u)
        return is_a ? a8[(row * cols + col) >> 3] : b8[(row * cols + col) >> 3];
    uint h[8];
    for (uint q = 0; q < 8u; q++)
        h[q] = col + q < cols ? half_at(is_a, row * cols + col + q) : 0u;
    return uvec4(h[0] | h[1] << 16, h[2] | h[3] << 16, h[4] | h[5] << 16, h[6] | h[7] << 16);
}

void main()
{
    uint tid = gl_LocalInvocationID.x, sub = gl_SubgroupID;
    uint sr = sub / (BN / WN), sc = sub % (BN / WN);
    uint m0 = gl_WorkGroupID.y * BM, n0 = gl_WorkGroupID.x * BN;
    fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> acc[FM * FN];
    for (uint i = 0; i < FM * FN; i++)
        acc[i] = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);

    for (uint k0 = 0; k0 < pc.k; k0 += BK) {
        for (uint i = tid; i < BM * BK / 8u; i += NT) {
            uint r = i / (BK / 8u), c8 = i % (BK / 8u);
            as[r * ASTR + c8] = chunk(true, m0 + r, k0 + c8 * 8u, pc.m, pc.k);
        }
        for (uint i = tid; i < BK * BN / 8u; i += NT) {
            uint r = i / (BN / 8u), c8 = i % (BN / 8u);
            bs[r * BSTR + c8] = chunk(false, k0 + r, n0 + c8 * 8u, pc.k, pc.n);
        }
        barrier();
        if (sub < NSUB) {
            for (uint kk = 0; kk < BK; kk += 16u) {
                fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> fa[FM], fb[FN];
                for (uint i = 0; i < FM; i++)
                    coopMatLoadNV(fa[i], as, (sr * WM + i * 16u) * ASTR + kk / 8u, ASTR, false);
                for (uint j = 0; j < FN; j++)
                    coopMatLoadNV(fb[j], bs, kk * BSTR + (sc * WN + j * 16u) / 8u, BSTR, false);
                for (uint i = 0; i < FM; i++)
                    for (uint j = 0; j < FN; j++)
                        acc[i * FN + j] = coopMatMulAddNV(fa[i], fb[j], acc[i * FN + j]);
            }
        }
        barrier();
    }

    if (sub >= NSUB)
        return;
    for (uint i = 0; i < FM; i++)
        for (uint j = 0; j < FN; j++) {
            coopMatStoreNV(acc[i * FN + j], cs, sub * 256u, 16u, false);
            subgroupMemoryBarrierShared();
            subgroupBarrier();
            for (uint e = gl_SubgroupInvocationID; e < 256u; e += gl_SubgroupSize) {
                uint gm = m0 + sr * WM + i * 16u + e / 16u, gn = n0 + sc * WN + j * 16u + e % 16u;
                if (gm < pc.m && gn < pc.n)
                    c[gm * pc.n + gn] = cs[sub * 256u + e];
            }
            subgroupBarrier();   // the next fragment reuses this subgroup's staging tile
        }
}
