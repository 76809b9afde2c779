#version 450
// matmul_warptile.comp - a warp-tiled fp32 SGEMM written for a compiler that neither unrolls nor vectorises by
// itself (NVIDIA's Vulkan driver 580, docs/performance.md, issue 28): a workgroup computes a BM x BN block of C
// through BK-deep shared tiles in two stages; the block is split into WM x WN warp tiles of MATMUL_WARP
// consecutive invocations (a nominal warp: gl_LocalInvocationID arithmetic, no subgroup operation, so the result
// does not depend on the device's subgroup size); an invocation accumulates TM x TN outputs as (TM/4) x (TN/4)
// strips of 4x4, the strips LR x 4 rows and LC x 4 columns apart (LR = WM/TM, LC = WN/TN, LR x LC = the warp),
// so that every shared read of a warp is contiguous. Written for the driver:
//  - shared tiles are vec4 arrays (A k-major, transposed on store, padded by one vec4 a row; B as is), read
//    only as whole vec4 whose index is one per-invocation base, plus one stage base per tile, plus a constant
//    once the loops are unrolled (no shifts of a sum: the driver folds the constant into LDS.128's offset);
//  - fragments stay vec4 and the FMAs are vec4 fma(a.xxxx, b, acc): no scalar copies of fragments;
//  - every loop over registers and the k loop of a tile are [[unroll]]ed;
//  - the next tile's 16-byte global loads go to registers before the math and to the other stage after it:
//    one barrier per tile.
// Every access is guarded, so any M, N, K is exact (16-byte loads where K, N are multiples of 4).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "vkb.glsl"
#include "matmul.h"

layout(constant_id = 3) const uint BM = 128;
layout(constant_id = 4) const uint BN = 128;
layout(constant_id = 5) const uint BK = 8;
layout(constant_id = 6) const uint WM = 64;
layout(constant_id = 7) const uint WN = 32;
layout(constant_id = 8) const uint TM = 8;
layout(constant_id = 9) const uint TN = 8;

const uint NWARPS = (BM / WM) * (BN / WN);
const uint NT = MATMUL_WARP * NWARPS;       // the workgroup (the plan sets local_size_x to it)
const uint LR = WM / TM, LC = WN / TN;      // lane rows and columns of a warp tile: LR x LC = MATMUL_WARP
const uint MI = TM / 4u, NI = TN / 4u;      // 4x4 strips per invocation, down and across
const uint AP4 = BM / 4u + 1u;              // a k-row of the A tile in vec4, padded by one (stores' banks)
const uint BN4 = BN / 4u;
const uint BK4 = BK / 4u;
const uint ASZ = BK * AP4, BSZ = BK * BN4;  // one stage, in vec4
const uint LA = (BM * BK4 + NT - 1u) / NT;  // 16-byte global loads per invocation per tile
const uint LB = (BK * BN4 + NT - 1u) / NT;

layout(std430, binding = 0) readonly buffer MatA { float a1[]; };
layout(std430, binding = 0) readonly buffer MatA4 { vec4 a4[]; };
layout(std430, binding = 1) readonly buffer MatB { float b1[]; };
layout(std430, binding = 1) readonly buffer MatB4 { vec4 b4[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c1[]; };
layout(std430, binding = 2) writeonly buffer MatC4 { vec4 c4[]; };

layout(push_constant) uniform Push { matmul_push pc; };

shared vec4 as_[2u * ASZ];
shared vec4 bs_[2u * BSZ];

// The next tile in registers, and where this invocation loads it from and stores it to: A's vec4 l is row
// ar[l] (of the block), k columns ac[l]..+3; B's is k row br[l], columns bc[l]..+3.
vec4 ra[LA], rb[LB];
uint ar[LA], ac[LA], br[LB], bc[LB];

// The tile at K0 into ra, rb: zero outside A and B.
void fetch(uint k0, uint m0, uint n0)
{
    bool a_wide = (pc.k & 3u) == 0u, b_wide = (pc.n & 3u) == 0u;
    [[unroll]] for (uint l = 0; l < LA; l++) {
        uint gm = m0 + ar[l], gk = k0 + ac[l];
        vec4 v = vec4(0.0);
        if (ar[l] < BM && gm < pc.m) {
            if (a_wide) {
                if (gk < pc.k)
                    v = a4[(gm * pc.k + gk) >> 2];
            } else {
                [[unroll]] for (uint q = 0; q < 4u; q++)
                    if (gk + q < pc.k)
                        v[q] = a1[gm * pc.k + gk + q];
            }
        }
        ra[l] = v;
    }
    [[unroll]] for (uint l = 0; l < LB; l++) {
        uint gk = k0 + br[l], gn = n0 + bc[l];
        vec4 v = vec4(0.0);
        if (br[l] < BK && gk < pc.k) {
            if (b_wide) {
                if (gn < pc.n)
                    v = b4[(gk * pc.n + gn) >> 2];
            } else {
                [[unroll]] for (uint q = 0; q < 4u; q++)
                    if (gn + q < pc.n)
                        v[q] = b1[gk * pc.n + gn + q];
            }
        }
        rb[l] = v;
    }
}

// ra, rb into shared stage S: A transposed (4 scalar stores down a k column), B one vec4.
void stash(uint s)
{
    [[unroll]] for (uint l = 0; l < LA; l++) {
        if (ar[l] >= BM)
            break;
        uint f = s * ASZ + ac[l] * AP4 + (ar[l] >> 2), e = ar[l] & 3u;
        as_[f][e] = ra[l].x;
        as_[f + AP4][e] = ra[l].y;
        as_[f + 2u * AP4][e] = ra[l].z;
        as_[f + 3u * AP4][e] = ra[l].w;
    }
    [[unroll]] for (uint l = 0; l < LB; l++) {
        if (br[l] >= BK)
            break;
        bs_[s * BSZ + br[l] * BN4 + (bc[l] >> 2)] = rb[l];
    }
}

void main()
{
    uint tid = gl_LocalInvocationID.x;
    uint warp = tid / MATMUL_WARP, lane = tid % MATMUL_WARP;
    uint wr = warp / (BN / WN), wc = warp % (BN / WN), lr = lane / LC, lc = lane % LC;
    uint m0 = gl_WorkGroupID.y * BM, n0 = gl_WorkGroupID.x * BN;
    uint tiles = (pc.k + BK - 1u) / BK;
    // this invocation's first vec4 of A and of B in a k-row of stage 0; strip mi of A is mi * LR vec4 further
    uint abase = wr * (WM / 4u) + lr, bbase = wc * (WN / 4u) + lc;
    vec4 acc[TM * NI];   // row i (mi * 4 + r) of strip ni: acc[i * NI + ni]

    [[unroll]] for (uint l = 0; l < LA; l++) {
        uint i = tid + l * NT;   // past the tile (NT not dividing it): ar[l] >= BM, skipped
        ar[l] = i / BK4;
        ac[l] = i % BK4 * 4u;
    }
    [[unroll]] for (uint l = 0; l < LB; l++) {
        uint i = tid + l * NT;
        br[l] = i / BN4;
        bc[l] = i % BN4 * 4u;
    }
    [[unroll]] for (uint i = 0; i < TM * NI; i++)
        acc[i] = vec4(0.0);

    fetch(0u, m0, n0);
    stash(0u);
    barrier();
    for (uint t = 0; t < tiles; t++) {
        bool more = t + 1u < tiles;
        if (more)
            fetch((t + 1u) * BK, m0, n0);   // in flight while the math below runs
        uint ao = abase + (t & 1u) * ASZ, bo = bbase + (t & 1u) * BSZ;
        [[unroll]] for (uint kk = 0; kk < BK; kk++) {
            vec4 fa[MI], fb[NI];
            [[unroll]] for (uint mi = 0; mi < MI; mi++)
                fa[mi] = as_[ao + kk * AP4 + mi * LR];
            [[unroll]] for (uint ni = 0; ni < NI; ni++)
                fb[ni] = bs_[bo + kk * BN4 + ni * LC];
            [[unroll]] for (uint mi = 0; mi < MI; mi++) {
                [[unroll]] for (uint ni = 0; ni < NI; ni++) {
                    uint i = mi * 4u * NI + ni;
                    acc[i] = fma(fa[mi].xxxx, fb[ni], acc[i]);
                    acc[i + NI] = fma(fa[mi].yyyy, fb[ni], acc[i + NI]);
                    acc[i + 2u * NI] = fma(fa[mi].zzzz, fb[ni], acc[i + 2u * NI]);
                    acc[i + 3u * NI] = fma(fa[mi].wwww, fb[ni], acc[i + 3u * NI]);
                }
            }
        }
        if (more)
            stash((t + 1u) & 1u);   // the other stage: its last reads were before the previous barrier
        barrier();
    }

    bool c_wide = (pc.n & 3u) == 0u;
    [[unroll]] for (uint mi = 0; mi < MI; mi++) {
        [[unroll]] for (uint r = 0; r < 4u; r++) {
            uint gm = m0 + wr * WM + mi * LR * 4u + lr * 4u + r;
            if (gm >= pc.m)
                continue;
            [[unroll]] for (uint ni = 0; ni < NI; ni++) {
                uint gn = n0 + wc * WN + ni * LC * 4u + lc * 4u;
                vec4 v = acc[(mi * 4u + r) * NI + ni];
                if (c_wide) {
                    if (gn < pc.n)   // n and gn multiples of 4: the whole vec4 is inside
                        c4[(gm * pc.n + gn) >> 2] = v;
                } else {
                    [[unroll]] for (uint q = 0; q < 4u; q++)
                        if (gn + q < pc.n)
                            c1[gm * pc.n + gn + q] = v[q];
                }
            }
        }
    }
}
