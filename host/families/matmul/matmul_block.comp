#version 450
// matmul_block.comp - the register-blocked ladder in one algorithm (siboehm's SGEMM steps 4-10):
// a workgroup computes a BM x BN block of C through BK-deep shared-memory tiles; the block is split
// into WM x WN warp tiles, each owned by WS consecutive invocations (WS = the subgroup size when the
// host derives WM from it); an invocation accumulates TM rows x TN columns in registers, repeated
// WNITER times across its warp tile. OPT switches the later rungs on:
//   bit 0 WIDE: 16-byte global loads (when the row length is a multiple of 4) and vec4 shared reads
//   bit 1 AT:   the A tile stored transposed (k-major, padded by 4) so A fragments are vec4 reads
//   bit 2 DB:   two shared stages: the next tile is fetched into registers during the math, one barrier
// WM = BM, WN = BN is a single warp tile per workgroup (plain 2-D register blocking; TN = 1 is 1-D).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : enable
#include "vkb.glsl"
#include "matmul.h"

// UNROLL_HINTS (matmul_block_unrolled) marks the loops over register arrays [[unroll]]. NVIDIA's Vulkan
// compiler measured on an H100: without the hints the subgroup tile's 128 accumulators went to local
// memory (544 bytes of spill, 3.7% of cuBLAS), with them none (21.7 TFLOP/s); but the same hints slow
// dbuf from 37 to 28 TFLOP/s (and marking the k loop too, 32): so they are a build of their own. The build
// also unrolls the k-step loop (UNROLL_K), which the driver does not do by itself: measured on the H100 with
// BK 8 (the subgroup row), 22.3 -> 30.5 TFLOP/s; with BK 16 the unrolled loop needs 236 registers and 33 KB
// of shared memory and drops to 16.6 (docs/performance.md).
#ifdef UNROLL_HINTS
#define UNROLL [[unroll]]
#define UNROLL_K [[unroll]]
#else
#define UNROLL
#define UNROLL_K
#endif

layout(constant_id = 3) const uint BM = 128;
layout(constant_id = 4) const uint BN = 128;
layout(constant_id = 5) const uint BK = 8;
layout(constant_id = 6) const uint WM = 128;
layout(constant_id = 7) const uint WN = 128;
layout(constant_id = 8) const uint TM = 8;
layout(constant_id = 9) const uint TN = 8;
layout(constant_id = 10) const uint OPT = 0;

const uint NT = gl_WorkGroupSize.x;
const uint WIDE = OPT & MATMUL_OPT_WIDE, AT = (OPT & MATMUL_OPT_AT) >> 1u, DB = (OPT & MATMUL_OPT_DB) >> 2u;
const uint W = 1u + 3u * WIDE;              // floats per global load
const uint NWARPS = (BM / WM) * (BN / WN);
const uint WS = NT / NWARPS;                // invocations per warp tile
const uint LR = WM / TM;                    // lane rows in a warp tile
const uint LC = WS / LR;                    // lane columns
const uint WSUBN = LC * TN;
const uint WNITER = WN / WSUBN;
const uint PADA = 4u * AT;                  // transposed A: pad a k-row by 4 floats (banks, vec4 alignment)
const uint ASZ = BK * (BM + PADA) / 4u;     // one stage, in vec4
const uint BSZ = BK * BN / 4u;
const uint LA = (BM * BK / W + NT - 1u) / NT;   // global loads per invocation per tile
const uint LB = (BK * BN / W + NT - 1u) / NT;

layout(std430, binding = 0) readonly buffer MatA { float a1[]; };
layout(std430, binding = 0) readonly buffer MatA4 { vec4 a4[]; };
layout(std430, binding = 1) readonly buffer MatB { float b1[]; };
layout(std430, binding = 1) readonly buffer MatB4 { vec4 b4[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c1[]; };
layout(std430, binding = 2) writeonly buffer MatC4 { vec4 c4[]; };

layout(push_constant) uniform Push { matmul_push pc; };

// vec4 arrays so the wide rungs read 16 bytes at once; scalar element f is as[f >> 2][f & 3]
shared vec4 as[(1u + DB) * ASZ];
shared vec4 bs[(1u + DB) * BSZ];

vec4 ra[LA], rb[LB];

// Fetch the tile at K0 into registers: A is BM x BK in chunks of W along k, B is BK x BN along n.
void fetch(uint k0, uint m0, uint n0, uint tid)
{
    bool a_wide = W == 4u && (pc.k & 3u) == 0u, b_wide = W == 4u && (pc.n & 3u) == 0u;
    UNROLL for (uint l = 0; l < LA; l++) {
        uint i = tid + l * NT, r = i / (BK / W), c = i % (BK / W) * W;
        uint gm = m0 + r, gk = k0 + c;
        vec4 v = vec4(0.0);
        if (i < BM * BK / W && gm < pc.m) {
            if (a_wide) {
                if (gk < pc.k)
                    v = a4[(gm * pc.k + gk) >> 2];
            } else {
                UNROLL for (uint q = 0; q < W; q++)
                    if (gk + q < pc.k)
                        v[q] = a1[gm * pc.k + gk + q];
            }
        }
        ra[l] = v;
    }
    UNROLL for (uint l = 0; l < LB; l++) {
        uint i = tid + l * NT, r = i / (BN / W), c = i % (BN / W) * W;
        uint gk = k0 + r, gn = n0 + c;
        vec4 v = vec4(0.0);
        if (i < BK * BN / W && gk < pc.k) {
            if (b_wide) {
                if (gn < pc.n)
                    v = b4[(gk * pc.n + gn) >> 2];
            } else {
                UNROLL for (uint q = 0; q < W; q++)
                    if (gn + q < pc.n)
                        v[q] = b1[gk * pc.n + gn + q];
            }
        }
        rb[l] = v;
    }
}

// Store the fetched registers into shared stage S.
void stash(uint s, uint tid)
{
    UNROLL for (uint l = 0; l < LA; l++) {
        uint i = tid + l * NT, r = i / (BK / W), c = i % (BK / W) * W;
        if (i >= BM * BK / W)
            break;
        UNROLL for (uint q = 0; q < W; q++) {
            uint f = s * ASZ * 4u + (AT != 0u ? (c + q) * (BM + PADA) + r : r * BK + c + q);
            as[f >> 2][f & 3u] = ra[l][q];
        }
    }
    UNROLL for (uint l = 0; l < LB; l++) {
        uint i = tid + l * NT, r = i / (BN / W), c = i % (BN / W) * W;
        if (i >= BK * BN / W)
            break;
        uint f = s * BSZ * 4u + r * BN + c;
        if (W == 4u)
            bs[f >> 2] = rb[l];
        else
            bs[f >> 2][f & 3u] = rb[l].x;
    }
}

void main()
{
    uint tid = gl_LocalInvocationID.x;
    uint warp = tid / WS, lane = tid % WS;
    uint wr = warp / (BN / WN), wc = warp % (BN / WN), lr = lane / LC, lc = lane % LC;
    uint m0 = gl_WorkGroupID.y * BM, n0 = gl_WorkGroupID.x * BN;
    uint arow = wr * WM + lr * TM;                  // first row of this invocation in the block
    uint tiles = (pc.k + BK - 1u) / BK;
    float acc[TM * TN * WNITER];
    float fa[TM], fb[TN * WNITER];

    UNROLL for (uint i = 0; i < TM * TN * WNITER; i++)
        acc[i] = 0.0;
    if (DB != 0u) {
        fetch(0u, m0, n0, tid);
        stash(0u, tid);
        barrier();
    }
    for (uint t = 0; t < tiles; t++) {
        uint cur = DB != 0u ? t & 1u : 0u;
        if (DB == 0u) {
            fetch(t * BK, m0, n0, tid);
            stash(0u, tid);
            barrier();
        } else if (t + 1u < tiles) {
            fetch((t + 1u) * BK, m0, n0, tid);   // in flight while the math below runs
        }
        UNROLL_K for (uint kk = 0; kk < BK; kk++) {
            uint fa0 = cur * ASZ * 4u + (AT != 0u ? kk * (BM + PADA) + arow : arow * BK + kk);
            if (AT != 0u && W == 4u) {
                UNROLL for (uint i = 0; i < TM; i += 4u) {
                    vec4 v = as[(fa0 + i) >> 2];
                    fa[i] = v.x; fa[i + 1u] = v.y; fa[i + 2u] = v.z; fa[i + 3u] = v.w;
                }
            } else {
                UNROLL for (uint i = 0; i < TM; i++) {
                    uint f = fa0 + (AT != 0u ? i : i * BK);
                    fa[i] = as[f >> 2][f & 3u];
                }
            }
            UNROLL for (uint wn = 0; wn < WNITER; wn++) {
                uint fb0 = cur * BSZ * 4u + kk * BN + wc * WN + wn * WSUBN + lc * TN;
                if (W == 4u) {
                    UNROLL for (uint j = 0; j < TN; j += 4u) {
                        vec4 v = bs[(fb0 + j) >> 2];
                        fb[wn * TN + j] = v.x; fb[wn * TN + j + 1u] = v.y;
                        fb[wn * TN + j + 2u] = v.z; fb[wn * TN + j + 3u] = v.w;
                    }
                } else {
                    UNROLL for (uint j = 0; j < TN; j++)
                        fb[wn * TN + j] = bs[(fb0 + j) >> 2][(fb0 + j) & 3u];
                }
            }
            UNROLL for (uint i = 0; i < TM; i++)
                UNROLL for (uint j = 0; j < TN * WNITER; j++)
                    acc[i * TN * WNITER + j] = fma(fa[i], fb[j], acc[i * TN * WNITER + j]);
        }
        if (DB == 0u) {
            barrier();   // the next tile overwrites the only stage
        } else {
            if (t + 1u < tiles)
                stash(cur ^ 1u, tid);   // the other stage: last read before the previous barrier
            barrier();
        }
    }

    bool c_wide = W == 4u && (pc.n & 3u) == 0u && (TN & 3u) == 0u;
    UNROLL for (uint i = 0; i < TM; i++) {
        uint gm = m0 + arow + i;
        if (gm >= pc.m)
            break;
        UNROLL for (uint wn = 0; wn < WNITER; wn++) {
            uint gn0 = n0 + wc * WN + wn * WSUBN + lc * TN;
            uint f = i * TN * WNITER + wn * TN;
            if (c_wide) {
                UNROLL for (uint j = 0; j < TN; j += 4u)
                    if (gn0 + j < pc.n)   // n % 4 == 0 and gn0 + j % 4 == 0: the whole vec4 is inside
                        c4[(gm * pc.n + gn0 + j) >> 2] = vec4(acc[f + j], acc[f + j + 1u], acc[f + j + 2u], acc[f + j + 3u]);
            } else {
                UNROLL for (uint j = 0; j < TN; j++)
                    if (gn0 + j < pc.n)
                        c1[gm * pc.n + gn0 + j] = acc[f + j];
            }
        }
    }
}
