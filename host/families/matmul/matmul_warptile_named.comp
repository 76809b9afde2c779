#version 450
// matmul_warptile_named.comp - matmul_warptile's tiling (matmul_warptile.glsl: warp tiles, two shared stages, the
// next tile in registers during the math) with the registers written out for the driver instead of arrays indexed
// in loops: an invocation's 8 x 8 outputs (TM = TN = 8, two 4x4 strips down and across) are 16 named vec4, one
// per row and strip (cRS: row R 0..7, strip S 0..1), its fragments four named vec4 (two of A's column, two of B's
// row), and each k step is written out whole, 32 vec4 FMAs, with nothing left for the compiler to unroll or to
// keep in an array it might index through local memory. The idea: change what the driver is given, not the order.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "vkb.glsl"
#include "matmul.h"
#include "matmul_warptile.glsl"

// one row of the 8 x 8: row R's two vec4 of C (strips 0 and 1) += A's element S of the row times B's fragments
#define ROW_FMA(r, s) c##r##0 = fma(s, b0, c##r##0); c##r##1 = fma(s, b1, c##r##1);
// row R's two vec4 into C at rows GM + ..., columns GN0 and GN1
#define ROW_STORE(r, gm) store4(gm, gn0, c##r##0); store4(gm, gn1, c##r##1);

void main()
{
    uint tid = gl_LocalInvocationID.x;
    uint warp = tid / MATMUL_WARP, lane = tid % MATMUL_WARP;
    uint wr = warp / (BN / WN), wc = warp % (BN / WN), lr = lane / LC, lc = lane % LC;
    uint m0 = gl_WorkGroupID.y * BM, n0 = gl_WorkGroupID.x * BN;
    uint tiles = (DIM_K + BK - 1u) / BK;
    uint abase = wr * (WM / 4u) + lr, bbase = wc * (WN / 4u) + lc;
    vec4 c00 = vec4(0.0), c01 = vec4(0.0), c10 = vec4(0.0), c11 = vec4(0.0);
    vec4 c20 = vec4(0.0), c21 = vec4(0.0), c30 = vec4(0.0), c31 = vec4(0.0);
    vec4 c40 = vec4(0.0), c41 = vec4(0.0), c50 = vec4(0.0), c51 = vec4(0.0);
    vec4 c60 = vec4(0.0), c61 = vec4(0.0), c70 = vec4(0.0), c71 = vec4(0.0);

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

    fetch(0u, m0, n0);
    stash(0u);
    barrier();
    for (uint t = 0; t < tiles; t++) {
        bool more = t + 1u < tiles;
        if (more)
            fetch((t + 1u) * BK, m0, n0);   // in flight while the math below runs
        uint ao = abase + (t & 1u) * ASZ, bo = bbase + (t & 1u) * BSZ;
        [[unroll]] for (uint kk = 0; kk < BK; kk++) {
            // A's rows 0-3 and 4-7 of this k (strips LR vec4 apart), B's columns of strips 0 and 1 (LC apart)
            vec4 a0 = as_[ao + kk * AP4], a1 = as_[ao + kk * AP4 + LR];
            vec4 b0 = bs_[bo + kk * BN4], b1 = bs_[bo + kk * BN4 + LC];
            ROW_FMA(0, a0.xxxx) ROW_FMA(1, a0.yyyy) ROW_FMA(2, a0.zzzz) ROW_FMA(3, a0.wwww)
            ROW_FMA(4, a1.xxxx) ROW_FMA(5, a1.yyyy) ROW_FMA(6, a1.zzzz) ROW_FMA(7, a1.wwww)
        }
        if (more)
            stash((t + 1u) & 1u);   // the other stage: its last reads were before the previous barrier
        barrier();
    }

    uint gm0 = m0 + wr * WM + lr * 4u, gm1 = gm0 + LR * 4u;   // the first rows of strips 0 and 1
    uint gn0 = n0 + wc * WN + lc * 4u, gn1 = gn0 + LC * 4u;
    ROW_STORE(0, gm0) ROW_STORE(1, gm0 + 1u) ROW_STORE(2, gm0 + 2u) ROW_STORE(3, gm0 + 3u)
    ROW_STORE(4, gm1) ROW_STORE(5, gm1 + 1u) ROW_STORE(6, gm1 + 2u) ROW_STORE(7, gm1 + 3u)
}
