#version 450
// matmul_warptile.comp - a warp-tiled fp32 SGEMM written for a compiler that neither unrolls nor vectorises by
// itself (NVIDIA's Vulkan driver 580, docs/performance.md): a workgroup computes a BM x BN block of C
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
// Every access is guarded, so any M, N, K is exact (16-byte loads where K, N are multiples of 4); with INTERIOR 1
// (matmul_warptile.glsl) a block shown once to lie inside runs the same code without the guards.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "vkb.glsl"
#include "matmul.h"
#include "matmul_warptile.glsl"

// The block at M0, N0 from its first tile to its store, this invocation's warp tile WR, WC and lane LR, LC with
// its shared bases ABASE, BBASE. Written once, called twice by main: interior (a constant at each call, folded
// once the driver inlines) drops every guard of the loads and stores, for a block main has shown to lie inside.
void block(bool interior, uint m0, uint n0, uint wr, uint wc, uint lr, uint lc, uint abase, uint bbase)
{
    uint tiles = (DIM_K + BK - 1u) / BK;
    vec4 acc[TM * NI];   // row i (mi * 4 + r) of strip ni: acc[i * NI + ni]
    [[unroll]] for (uint i = 0; i < TM * NI; i++)
        acc[i] = vec4(0.0);

    fetch_in(interior, 0u, m0, n0);
    stash(0u);
    barrier();
    for (uint t = 0; t < tiles; t++) {
        bool more = t + 1u < tiles;
        if (more)
            fetch_in(interior, (t + 1u) * BK, m0, n0);   // in flight while the math below runs
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

    [[unroll]] for (uint mi = 0; mi < MI; mi++) {
        [[unroll]] for (uint r = 0; r < 4u; r++) {
            uint gm = m0 + wr * WM + mi * LR * 4u + lr * 4u + r;
            [[unroll]] for (uint ni = 0; ni < NI; ni++)
                store4_in(interior, gm, n0 + wc * WN + ni * LC * 4u + lc * 4u, acc[(mi * 4u + r) * NI + ni]);
        }
    }
}

void main()
{
    uint tid = gl_LocalInvocationID.x;
    uint warp = tid / MATMUL_WARP, lane = tid % MATMUL_WARP;
    uint wr = warp / (BN / WN), wc = warp % (BN / WN), lr = lane / LC, lc = lane % LC;
    uint m0 = gl_WorkGroupID.y * BM, n0 = gl_WorkGroupID.x * BN;
    // this invocation's first vec4 of A and of B in a k-row of stage 0; strip mi of A is mi * LR vec4 further
    uint abase = wr * (WM / 4u) + lr, bbase = wc * (WN / 4u) + lc;

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

    // Uniform over the workgroup, tested once: the block lies inside M x N, its k tiles are whole (the last
    // fetch ends at K) and K, N are multiples of 4 (every row of A and B starts on a vec4). WHOLE shows it
    // for every block; INTERIOR 0 never asks, and the driver keeps one copy of block, guarded, as before.
    if (WHOLE || (INTERIOR != 0u && m0 + BM <= DIM_M && n0 + BN <= DIM_N && DIM_K % BK == 0u &&
                  (DIM_K & 3u) == 0u && (DIM_N & 3u) == 0u))
        block(true, m0, n0, wr, wc, lr, lc, abase, bbase);
    else
        block(false, m0, n0, wr, wc, lr, lc, abase, bbase);
}
