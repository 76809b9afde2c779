/* matmul.cu - the CUDA twins of this folder's shaders (same geometry, constants and edge rules:
 * one template per shader, a row per instantiation) and the cuBLAS ceilings. */
#include <cstdio>

#include <cublas_v2.h>

#include "kernels.h"
#include "matmul/rows.h"
#include "matmul_blas.cuh"
#include "matmul_wmma.cuh"

namespace
{

__global__ void matmul_naive(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
                             matmul_push pc)
{
    unsigned m = pc.m, n = pc.n, k = pc.k;
    unsigned col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    float acc = 0.0f;
    for (unsigned p = 0; p < k; p++)
        acc = fmaf(a[row * k + p], b[p * n + col], acc);
    c[row * n + col] = acc;
}

template <unsigned TILE>
__global__ void matmul_tiled(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
                             matmul_push pc)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    unsigned m = pc.m, n = pc.n, k = pc.k;
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    unsigned row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (unsigned k0 = 0; k0 < k; k0 += TILE) {
        as[ty][tx] = row < m && k0 + tx < k ? a[row * k + k0 + tx] : 0.0f;
        bs[ty][tx] = k0 + ty < k && col < n ? b[(k0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (unsigned p = 0; p < TILE; p++)
            acc = fmaf(as[ty][p], bs[p][tx], acc);
        __syncthreads();
    }
    if (row < m && col < n)
        c[row * n + col] = acc;
}

/* W floats (1 or 4) from (ROW, COL) of row-major P, COLS wide, as a float4: zero past COLS or where OK is
 * false; WIDE (COLS a multiple of 4): one 16-byte load. */
template <unsigned W>
__device__ __forceinline__ float4 load_w(const float *__restrict__ p, bool ok, bool wide, unsigned row, unsigned col,
                                         unsigned cols)
{
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (ok) {
        if (wide) {
            if (col < cols)
                v = reinterpret_cast<const float4 *>(p)[(row * cols + col) >> 2];
        } else {
            float *vf = &v.x;
            for (unsigned q = 0; q < W; q++)
                if (col + q < cols)
                    vf[q] = p[row * cols + col + q];
        }
    }
    return v;
}

/* The register-blocked ladder: see host/families/matmul/matmul_block.comp for the meaning of each constant. */
template <unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN, unsigned TM, unsigned TN, unsigned OPT,
          unsigned NT>
__global__ void __launch_bounds__(NT)
    matmul_block(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, matmul_push pc)
{
    constexpr unsigned WIDE = OPT & MATMUL_OPT_WIDE, AT = (OPT & MATMUL_OPT_AT) >> 1u, DB = (OPT & MATMUL_OPT_DB) >> 2u,
                       W = 1u + 3u * WIDE;
    constexpr unsigned NWARPS = (BM / WM) * (BN / WN), WS = NT / NWARPS, LR = WM / TM, LC = WS / LR;
    constexpr unsigned WSUBN = LC * TN, WNITER = WN / WSUBN, PADA = 4u * AT;
    constexpr unsigned ASZ = BK * (BM + PADA) / 4u, BSZ = BK * BN / 4u;
    constexpr unsigned LA = (BM * BK / W + NT - 1u) / NT, LB = (BK * BN / W + NT - 1u) / NT;
    __shared__ float4 as[(1u + DB) * ASZ], bs[(1u + DB) * BSZ];
    float *asf = reinterpret_cast<float *>(as), *bsf = reinterpret_cast<float *>(bs);
    unsigned m = pc.m, n = pc.n, k = pc.k;
    unsigned tid = threadIdx.x, warp = tid / WS, lane = tid % WS;
    unsigned wr = warp / (BN / WN), wc = warp % (BN / WN), lr = lane / LC, lc = lane % LC;
    unsigned m0 = blockIdx.y * BM, n0 = blockIdx.x * BN, arow = wr * WM + lr * TM;
    unsigned tiles = (k + BK - 1u) / BK;
    bool a_wide = W == 4u && (k & 3u) == 0u, b_wide = W == 4u && (n & 3u) == 0u;
    float4 ra[LA], rb[LB];
    float acc[TM * TN * WNITER], fa[TM], fb[TN * WNITER];

    auto fetch = [&](unsigned k0) {
#pragma unroll
        for (unsigned l = 0; l < LA; l++) {
            unsigned i = tid + l * NT, r = i / (BK / W), col = i % (BK / W) * W, gm = m0 + r, gk = k0 + col;
            ra[l] = load_w<W>(a, i < BM * BK / W && gm < m, a_wide, gm, gk, k);
        }
#pragma unroll
        for (unsigned l = 0; l < LB; l++) {
            unsigned i = tid + l * NT, r = i / (BN / W), col = i % (BN / W) * W, gk = k0 + r, gn = n0 + col;
            rb[l] = load_w<W>(b, i < BK * BN / W && gk < k, b_wide, gk, gn, n);
        }
    };
    auto stash = [&](unsigned s) {
#pragma unroll
        for (unsigned l = 0; l < LA; l++) {
            unsigned i = tid + l * NT, r = i / (BK / W), col = i % (BK / W) * W;
            if (i >= BM * BK / W)
                break;
            const float *vf = &ra[l].x;
#pragma unroll
            for (unsigned q = 0; q < W; q++)
                asf[s * ASZ * 4u + (AT ? (col + q) * (BM + PADA) + r : r * BK + col + q)] = vf[q];
        }
#pragma unroll
        for (unsigned l = 0; l < LB; l++) {
            unsigned i = tid + l * NT, r = i / (BN / W), col = i % (BN / W) * W;
            if (i >= BK * BN / W)
                break;
            unsigned f = s * BSZ * 4u + r * BN + col;
            if (W == 4u)
                bs[f >> 2] = rb[l];
            else
                bsf[f] = rb[l].x;
        }
    };

#pragma unroll
    for (unsigned i = 0; i < TM * TN * WNITER; i++)
        acc[i] = 0.0f;
    if (DB) {
        fetch(0u);
        stash(0u);
        __syncthreads();
    }
    for (unsigned t = 0; t < tiles; t++) {
        unsigned cur = DB ? t & 1u : 0u;
        if (!DB) {
            fetch(t * BK);
            stash(0u);
            __syncthreads();
        } else if (t + 1u < tiles) {
            fetch((t + 1u) * BK);
        }
#pragma unroll
        for (unsigned kk = 0; kk < BK; kk++) {
            unsigned fa0 = cur * ASZ * 4u + (AT ? kk * (BM + PADA) + arow : arow * BK + kk);
            if (AT && W == 4u) {
#pragma unroll
                for (unsigned i = 0; i < TM; i += 4u) {
                    float4 v = as[(fa0 + i) >> 2];
                    fa[i] = v.x, fa[i + 1] = v.y, fa[i + 2] = v.z, fa[i + 3] = v.w;
                }
            } else {
#pragma unroll
                for (unsigned i = 0; i < TM; i++)
                    fa[i] = asf[fa0 + (AT ? i : i * BK)];
            }
#pragma unroll
            for (unsigned wn = 0; wn < WNITER; wn++) {
                unsigned fb0 = cur * BSZ * 4u + kk * BN + wc * WN + wn * WSUBN + lc * TN;
                if (W == 4u) {
#pragma unroll
                    for (unsigned j = 0; j < TN; j += 4u) {
                        float4 v = bs[(fb0 + j) >> 2];
                        fb[wn * TN + j] = v.x, fb[wn * TN + j + 1] = v.y, fb[wn * TN + j + 2] = v.z,
                                     fb[wn * TN + j + 3] = v.w;
                    }
                } else {
#pragma unroll
                    for (unsigned j = 0; j < TN; j++)
                        fb[wn * TN + j] = bsf[fb0 + j];
                }
            }
#pragma unroll
            for (unsigned i = 0; i < TM; i++)
#pragma unroll
                for (unsigned j = 0; j < TN * WNITER; j++)
                    acc[i * TN * WNITER + j] = fmaf(fa[i], fb[j], acc[i * TN * WNITER + j]);
        }
        if (DB && t + 1u < tiles)
            stash(cur ^ 1u);
        __syncthreads();
    }

    bool c_wide = W == 4u && (n & 3u) == 0u && (TN & 3u) == 0u;
    float4 *c4 = reinterpret_cast<float4 *>(c);
#pragma unroll
    for (unsigned i = 0; i < TM; i++) {
        unsigned gm = m0 + arow + i;
        if (gm >= m)
            break;
#pragma unroll
        for (unsigned wn = 0; wn < WNITER; wn++) {
            unsigned gn0 = n0 + wc * WN + wn * WSUBN + lc * TN, f = i * TN * WNITER + wn * TN;
            if (c_wide) {
#pragma unroll
                for (unsigned j = 0; j < TN; j += 4u)
                    if (gn0 + j < n)
                        c4[(gm * n + gn0 + j) >> 2] =
                            make_float4(acc[f + j], acc[f + j + 1], acc[f + j + 2], acc[f + j + 3]);
            } else {
#pragma unroll
                for (unsigned j = 0; j < TN; j++)
                    if (gn0 + j < n)
                        c[gm * n + gn0 + j] = acc[f + j];
            }
        }
    }
}

/* The warp-tiled SGEMM: see host/families/matmul/matmul_warptile.comp for the meaning of each constant (the same
 * nominal warp, strips, shared layout, guards and order of the FMAs). */
template <unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN, unsigned TM, unsigned TN>
__global__ void __launch_bounds__(MATMUL_WARP *(BM / WM) * (BN / WN))
    matmul_warptile(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, matmul_push pc)
{
    constexpr unsigned NT = MATMUL_WARP * (BM / WM) * (BN / WN), LR = WM / TM, LC = WN / TN, MI = TM / 4u, NI = TN / 4u;
    constexpr unsigned AP4 = BM / 4u + 1u, BN4 = BN / 4u, BK4 = BK / 4u, ASZ = BK * AP4, BSZ = BK * BN4;
    constexpr unsigned LA = (BM * BK4 + NT - 1u) / NT, LB = (BK * BN4 + NT - 1u) / NT;
    __shared__ float4 as_[2u * ASZ], bs_[2u * BSZ];
    float *asf = reinterpret_cast<float *>(as_);
    unsigned m = pc.m, n = pc.n, k = pc.k;
    unsigned tid = threadIdx.x, warp = tid / MATMUL_WARP, lane = tid % MATMUL_WARP;
    unsigned wr = warp / (BN / WN), wc = warp % (BN / WN), lr = lane / LC, lc = lane % LC;
    unsigned m0 = blockIdx.y * BM, n0 = blockIdx.x * BN, tiles = (k + BK - 1u) / BK;
    unsigned abase = wr * (WM / 4u) + lr, bbase = wc * (WN / 4u) + lc;
    bool a_wide = (k & 3u) == 0u, b_wide = (n & 3u) == 0u;
    float4 ra[LA], rb[LB], acc[TM * NI];
    unsigned ar[LA], ac[LA], br[LB], bc[LB];

    auto fetch = [&](unsigned k0) {
#pragma unroll
        for (unsigned l = 0; l < LA; l++)
            ra[l] = load_w<4>(a, ar[l] < BM && m0 + ar[l] < m, a_wide, m0 + ar[l], k0 + ac[l], k);
#pragma unroll
        for (unsigned l = 0; l < LB; l++)
            rb[l] = load_w<4>(b, br[l] < BK && k0 + br[l] < k, b_wide, k0 + br[l], n0 + bc[l], n);
    };
    auto stash = [&](unsigned s) {
#pragma unroll
        for (unsigned l = 0; l < LA; l++) {
            if (ar[l] >= BM)
                break;
            unsigned f = (s * ASZ + ac[l] * AP4 + (ar[l] >> 2)) * 4u + (ar[l] & 3u);
            asf[f] = ra[l].x;
            asf[f + AP4 * 4u] = ra[l].y;
            asf[f + 2u * AP4 * 4u] = ra[l].z;
            asf[f + 3u * AP4 * 4u] = ra[l].w;
        }
#pragma unroll
        for (unsigned l = 0; l < LB; l++) {
            if (br[l] >= BK)
                break;
            bs_[s * BSZ + br[l] * BN4 + (bc[l] >> 2)] = rb[l];
        }
    };
    auto fma4 = [](float s, float4 v, float4 &d) {
        d.x = fmaf(s, v.x, d.x), d.y = fmaf(s, v.y, d.y), d.z = fmaf(s, v.z, d.z), d.w = fmaf(s, v.w, d.w);
    };

#pragma unroll
    for (unsigned l = 0; l < LA; l++)
        ar[l] = (tid + l * NT) / BK4, ac[l] = (tid + l * NT) % BK4 * 4u;
#pragma unroll
    for (unsigned l = 0; l < LB; l++)
        br[l] = (tid + l * NT) / BN4, bc[l] = (tid + l * NT) % BN4 * 4u;
#pragma unroll
    for (unsigned i = 0; i < TM * NI; i++)
        acc[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

    fetch(0u);
    stash(0u);
    __syncthreads();
    for (unsigned t = 0; t < tiles; t++) {
        bool more = t + 1u < tiles;
        if (more)
            fetch((t + 1u) * BK);
        unsigned ao = abase + (t & 1u) * ASZ, bo = bbase + (t & 1u) * BSZ;
#pragma unroll
        for (unsigned kk = 0; kk < BK; kk++) {
            float4 fa[MI], fb[NI];
#pragma unroll
            for (unsigned mi = 0; mi < MI; mi++)
                fa[mi] = as_[ao + kk * AP4 + mi * LR];
#pragma unroll
            for (unsigned ni = 0; ni < NI; ni++)
                fb[ni] = bs_[bo + kk * BN4 + ni * LC];
#pragma unroll
            for (unsigned mi = 0; mi < MI; mi++)
#pragma unroll
                for (unsigned ni = 0; ni < NI; ni++) {
                    unsigned i = mi * 4u * NI + ni;
                    fma4(fa[mi].x, fb[ni], acc[i]);
                    fma4(fa[mi].y, fb[ni], acc[i + NI]);
                    fma4(fa[mi].z, fb[ni], acc[i + 2u * NI]);
                    fma4(fa[mi].w, fb[ni], acc[i + 3u * NI]);
                }
        }
        if (more)
            stash((t + 1u) & 1u);
        __syncthreads();
    }

    bool c_wide = (n & 3u) == 0u;
    float4 *c4 = reinterpret_cast<float4 *>(c);
#pragma unroll
    for (unsigned mi = 0; mi < MI; mi++)
#pragma unroll
        for (unsigned r = 0; r < 4u; r++) {
            unsigned gm = m0 + wr * WM + mi * LR * 4u + lr * 4u + r;
            if (gm >= m)
                continue;
#pragma unroll
            for (unsigned ni = 0; ni < NI; ni++) {
                unsigned gn = n0 + wc * WN + ni * LC * 4u + lc * 4u;
                float4 v = acc[(mi * 4u + r) * NI + ni];
                const float *vf = &v.x;
                if (c_wide) {
                    if (gn < n)
                        c4[(gm * n + gn) >> 2] = v;
                } else {
#pragma unroll
                    for (unsigned q = 0; q < 4u; q++)
                        if (gn + q < n)
                            c[gm * n + gn + q] = vf[q];
                }
            }
        }
}

/* fp16 x fp16 -> fp32 with 16x16x16 WMMA fragments: the twin of matmul_coopmat.comp (matmul_wmma.cuh). */
template <unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN>
__global__ void matmul_coopmat(const unsigned *__restrict__ a, const unsigned *__restrict__ b, float *__restrict__ c,
                               matmul_push pc)
{
    wmma_gemm<float, BM, BN, BK, WM, WN>(a, b, c, pc.m, pc.n, pc.k);
}

template <unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN>
constexpr vkb_cuda_launcher launch_coopmat =
    launch_wmma_kernel<float, matmul_push, BM, BN, WM, WN, matmul_coopmat<BM, BN, BK, WM, WN>>;

cudaError_t launch_naive(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    matmul_naive<<<vkb_grid(p), vkb_block(p), 0, s>>>((const float *)a[0], (const float *)a[1], (float *)a[2],
                                                      vkb_push_as<matmul_push>(p));
    return cudaGetLastError();
}

template <unsigned TILE> cudaError_t launch_tiled(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    matmul_tiled<TILE><<<vkb_grid(p), vkb_block(p), 0, s>>>((const float *)a[0], (const float *)a[1], (float *)a[2],
                                                            vkb_push_as<matmul_push>(p));
    return cudaGetLastError();
}

template <unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN, unsigned TM, unsigned TN, unsigned OPT,
          unsigned NT>
cudaError_t launch_block(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    if (p->local[0] != NT || p->local[1] != 1 || p->local[2] != 1)
        return cudaErrorInvalidConfiguration; /* the register arrays are sized for NT threads */
    matmul_block<BM, BN, BK, WM, WN, TM, TN, OPT, NT><<<vkb_grid(p), vkb_block(p), 0, s>>>(
        (const float *)a[0], (const float *)a[1], (float *)a[2], vkb_push_as<matmul_push>(p));
    return cudaGetLastError();
}

template <unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN, unsigned TM, unsigned TN>
cudaError_t launch_warptile(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    if (p->local[0] != MATMUL_WARP * (BM / WM) * (BN / WN) || p->local[1] != 1 || p->local[2] != 1)
        return cudaErrorInvalidConfiguration; /* the warp tiles are laid out for this many threads */
    matmul_warptile<BM, BN, BK, WM, WN, TM, TN><<<vkb_grid(p), vkb_block(p), 0, s>>>(
        (const float *)a[0], (const float *)a[1], (float *)a[2], vkb_push_as<matmul_push>(p));
    return cudaGetLastError();
}

/* Row-major C = A B is column-major C^T = B^T A^T: swap the operands, keep the leading dimensions. */
cudaError_t launch_cublas_sgemm(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    int m, n, k; /* CUBLAS_PEDANTIC_MATH: true fp32, no TF32, no reduced-precision reductions */
    cublasHandle_t h = blas(p, s, CUBLAS_PEDANTIC_MATH, &m, &n, &k);
    const float one = 1.0f, zero = 0.0f;
    if (!h)
        return blas_result(CUBLAS_STATUS_NOT_INITIALIZED, "cublasCreate");
    return blas_result(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, (const float *)a[1], n,
                                   (const float *)a[0], k, &zero, (float *)a[2], n),
                       "cublasSgemm");
}

cudaError_t launch_cublas_hgemm(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    int m, n, k; /* CUBLAS_DEFAULT_MATH: tensor cores, fp32 accumulation */
    cublasHandle_t h = blas(p, s, CUBLAS_DEFAULT_MATH, &m, &n, &k);
    const float one = 1.0f, zero = 0.0f;
    if (!h)
        return blas_result(CUBLAS_STATUS_NOT_INITIALIZED, "cublasCreate");
    return blas_result(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, a[1], CUDA_R_16F, n, a[0], CUDA_R_16F,
                                    k, &zero, a[2], CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                       "cublasGemmEx");
}

} // namespace

/* One launcher per row of matmul/rows.h, matched by shader name and constants: each shader's macro takes the
 * row's workgroup width and its constants (WM 0, two subgroups, is 2 x 32 on a GPU with 32-wide warps). */
#define SPEC_LIST(...) __VA_ARGS__
#define CALL(macro, args) macro args
#define WARPS2(wm) ((wm) ? (wm) : 64u)
#define CUDA_ROW(name, shader, lx, ly, nspec, spec, param, needs, note, ceiling)                                       \
    CALL(CUDA_##shader, (#shader, lx, SPEC_LIST spec))
#define CUDA_matmul_naive(kernel, lx, unused) {kernel, 0, {}, launch_naive},
#define CUDA_matmul_tiled(kernel, lx, tile) {kernel, 1, {tile}, launch_tiled<tile>},
#define CUDA_matmul_block(kernel, lx, bm, bn, bk, wm, wn, tm, tn, opt)                                                 \
    {kernel, 8, {bm, bn, bk, WARPS2(wm), wn, tm, tn, opt}, launch_block<bm, bn, bk, WARPS2(wm), wn, tm, tn, opt, lx>},
/* the unroll hints of the Vulkan build are nvcc's default: the same template */
#define CUDA_matmul_block_unrolled CUDA_matmul_block
/* FIXED, where a row sets it, is the Vulkan driver's: the twin reads M, N, K from its push struct either way, and
 * its entry, matching the first 7 constants, serves both; the 0 appended gives the tail an argument where no FIXED */
#define CUDA_matmul_warptile(kernel, lx, ...) CUDA_WARPTILE(kernel, __VA_ARGS__, 0)
#define CUDA_WARPTILE(kernel, bm, bn, bk, wm, wn, tm, tn, ...)                                                         \
    {kernel, 7, {bm, bn, bk, wm, wn, tm, tn}, launch_warptile<bm, bn, bk, wm, wn, tm, tn>},
/* the named registers are how the Vulkan shader is written for its driver; nvcc keeps warptile's arrays in
 * registers by itself: the same template at the same constants */
#define CUDA_matmul_warptile_named CUDA_matmul_warptile
#define CUDA_matmul_coopmat(kernel, lx, bm, bn, bk, wm, wn)                                                            \
    {kernel, 5, {bm, bn, bk, wm, wn}, launch_coopmat<bm, bn, bk, wm, wn>},
/* CUDA's shared tile is half already */
#define CUDA_matmul_coopmat_h CUDA_matmul_coopmat
extern "C" const vkb_cuda_kernel vkb_cuda_kernels_matmul[] = {
    MATMUL_ROWS(CUDA_ROW){"cublas_sgemm", 0, {}, launch_cublas_sgemm},
    {"cublas_hgemm", 0, {}, launch_cublas_hgemm},
    {nullptr, 0, {}, nullptr},
};
