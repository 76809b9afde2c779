/* matmul.cu - the CUDA twins of the shaders in shaders/matmul (same geometry, constants and edge rules:
 * one template per shader, a row per instantiation) and the cuBLAS ceilings. */
#include <cstdio>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "kernels.h"
#include "matmul/rows.h"

namespace {

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

/* The register-blocked ladder: see shaders/matmul/matmul_block.comp for the meaning of each constant. */
template <unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN, unsigned TM, unsigned TN, unsigned OPT,
          unsigned NT>
__global__ void __launch_bounds__(NT) matmul_block(const float *__restrict__ a, const float *__restrict__ b,
                                                   float *__restrict__ c, matmul_push pc)
{
    constexpr unsigned WIDE = OPT & MATMUL_OPT_WIDE, AT = (OPT & MATMUL_OPT_AT) >> 1u, DB = (OPT & MATMUL_OPT_DB) >> 2u, W = 1u + 3u * WIDE;
    constexpr unsigned NWARPS = (BM / WM) * (BN / WN), WS = NT / NWARPS, LR = WM / TM, LC = WS / LR;
    constexpr unsigned WSUBN = LC * TN, WNITER = WN / WSUBN, PADA = 4u * AT;
    constexpr unsigned ASZ = BK * (BM + PADA) / 4u, BSZ = BK * BN / 4u;
    constexpr unsigned LA = (BM * BK / W + NT - 1u) / NT, LB = (BK * BN / W + NT - 1u) / NT;
    __shared__ float4 as[(1u + DB) * ASZ], bs[(1u + DB) * BSZ];
    float *asf = reinterpret_cast<float *>(as), *bsf = reinterpret_cast<float *>(bs);
    const float4 *a4 = reinterpret_cast<const float4 *>(a), *b4 = reinterpret_cast<const float4 *>(b);
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
            float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            if (i < BM * BK / W && gm < m) {
                if (a_wide) {
                    if (gk < k)
                        v = a4[(gm * k + gk) >> 2];
                } else {
                    float *vf = &v.x;
                    for (unsigned q = 0; q < W; q++)
                        if (gk + q < k)
                            vf[q] = a[gm * k + gk + q];
                }
            }
            ra[l] = v;
        }
#pragma unroll
        for (unsigned l = 0; l < LB; l++) {
            unsigned i = tid + l * NT, r = i / (BN / W), col = i % (BN / W) * W, gk = k0 + r, gn = n0 + col;
            float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            if (i < BK * BN / W && gk < k) {
                if (b_wide) {
                    if (gn < n)
                        v = b4[(gk * n + gn) >> 2];
                } else {
                    float *vf = &v.x;
                    for (unsigned q = 0; q < W; q++)
                        if (gn + q < n)
                            vf[q] = b[gk * n + gn + q];
                }
            }
            rb[l] = v;
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
                        c4[(gm * n + gn0 + j) >> 2] = make_float4(acc[f + j], acc[f + j + 1], acc[f + j + 2], acc[f + j + 3]);
            } else {
#pragma unroll
                for (unsigned j = 0; j < TN; j++)
                    if (gn0 + j < n)
                        c[gm * n + gn0 + j] = acc[f + j];
            }
        }
    }
}

/* Eight halves of row ROW from column COL of a ROWS x COLS fp16 matrix (as 32-bit words), zero beyond it. */
__device__ uint4 chunk8(const unsigned *w, unsigned row, unsigned col, unsigned rows, unsigned cols)
{
    if (row >= rows || col >= cols)
        return make_uint4(0, 0, 0, 0);
    if ((cols & 7u) == 0u)
        return reinterpret_cast<const uint4 *>(w)[(row * cols + col) >> 3];
    unsigned h[8];
    for (unsigned q = 0; q < 8u; q++) {
        unsigned e = row * cols + col + q;
        h[q] = col + q < cols ? (w[e >> 1] >> ((e & 1u) * 16u)) & 0xffffu : 0u;
    }
    return make_uint4(h[0] | h[1] << 16, h[2] | h[3] << 16, h[4] | h[5] << 16, h[6] | h[7] << 16);
}

/* fp16 x fp16 -> fp32 with 16x16x16 WMMA fragments: the twin of matmul_coopmat.comp (two shared stages,
 * the next tile in registers during the math, unguarded 16-byte loads for interior tiles). */
template <unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN>
__global__ void matmul_coopmat(const unsigned *__restrict__ a, const unsigned *__restrict__ b, float *__restrict__ c,
                               matmul_push pc)
{
    using namespace nvcuda;
    constexpr unsigned FM = WM / 16u, FN = WN / 16u, ASTR = BK / 8u + 1u, BSTR = BN / 8u + 1u;
    constexpr unsigned ASTAGE = BM * ASTR, BSTAGE = BK * BSTR, NSUB = (BM / WM) * (BN / WN), NT = NSUB * 32u;
    constexpr unsigned ACH = BM * BK / 8u, BCH = BK * BN / 8u, LA = (ACH + NT - 1u) / NT, LB = (BCH + NT - 1u) / NT;
    __shared__ __align__(32) uint4 as[2u * ASTAGE];
    __shared__ __align__(32) uint4 bs[2u * BSTAGE];
    __shared__ __align__(32) float cs[NSUB * 256u];
    unsigned m = pc.m, n = pc.n, k = pc.k;
    unsigned tid = threadIdx.x, sub = tid / 32u, lane = tid % 32u;
    unsigned sr = sub / (BN / WN), sc = sub % (BN / WN), m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    unsigned tiles = (k + BK - 1u) / BK;
    const uint4 *a8 = reinterpret_cast<const uint4 *>(a), *b8 = reinterpret_cast<const uint4 *>(b);
    const half *ah = reinterpret_cast<const half *>(as), *bh = reinterpret_cast<const half *>(bs);
    uint4 ra[LA], rb[LB];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[FM * FN];
#pragma unroll
    for (unsigned i = 0; i < FM * FN; i++)
        wmma::fill_fragment(acc[i], 0.0f);

    auto fetch = [&](unsigned k0) {
        bool a_inside = (k & 7u) == 0u && m0 + BM <= m && k0 + BK <= k;
        bool b_inside = (n & 7u) == 0u && k0 + BK <= k && n0 + BN <= n;
#pragma unroll
        for (unsigned l = 0; l < LA; l++) {
            unsigned i = min(tid + l * NT, ACH - 1u), r = i / (BK / 8u), c8 = i % (BK / 8u);
            ra[l] = a_inside ? a8[((m0 + r) * k + k0 + c8 * 8u) >> 3] : chunk8(a, m0 + r, k0 + c8 * 8u, m, k);
        }
#pragma unroll
        for (unsigned l = 0; l < LB; l++) {
            unsigned i = min(tid + l * NT, BCH - 1u), r = i / (BN / 8u), c8 = i % (BN / 8u);
            rb[l] = b_inside ? b8[((k0 + r) * n + n0 + c8 * 8u) >> 3] : chunk8(b, k0 + r, n0 + c8 * 8u, k, n);
        }
    };
    auto stash = [&](unsigned s) {
#pragma unroll
        for (unsigned l = 0; l < LA; l++) {
            unsigned i = tid + l * NT;
            if (i < ACH)
                as[s * ASTAGE + i / (BK / 8u) * ASTR + i % (BK / 8u)] = ra[l];
        }
#pragma unroll
        for (unsigned l = 0; l < LB; l++) {
            unsigned i = tid + l * NT;
            if (i < BCH)
                bs[s * BSTAGE + i / (BN / 8u) * BSTR + i % (BN / 8u)] = rb[l];
        }
    };

    fetch(0u);
    stash(0u);
    __syncthreads();
    for (unsigned t = 0; t < tiles; t++) {
        unsigned cur = t & 1u;
        if (t + 1u < tiles)
            fetch((t + 1u) * BK);
#pragma unroll
        for (unsigned kk = 0; kk < BK; kk += 16u) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[FM];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb[FN];
#pragma unroll
            for (unsigned i = 0; i < FM; i++)
                wmma::load_matrix_sync(fa[i], ah + (cur * ASTAGE + (sr * WM + i * 16u) * ASTR) * 8u + kk, ASTR * 8u);
#pragma unroll
            for (unsigned j = 0; j < FN; j++)
                wmma::load_matrix_sync(fb[j], bh + (cur * BSTAGE + kk * BSTR) * 8u + sc * WN + j * 16u, BSTR * 8u);
#pragma unroll
            for (unsigned i = 0; i < FM; i++)
#pragma unroll
                for (unsigned j = 0; j < FN; j++)
                    wmma::mma_sync(acc[i * FN + j], fa[i], fb[j], acc[i * FN + j]);
        }
        if (t + 1u < tiles)
            stash(cur ^ 1u);
        __syncthreads();
    }

#pragma unroll
    for (unsigned i = 0; i < FM; i++)
#pragma unroll
        for (unsigned j = 0; j < FN; j++) {
            wmma::store_matrix_sync(cs + sub * 256u, acc[i * FN + j], 16, wmma::mem_row_major);
            __syncwarp();
            for (unsigned e = lane; e < 256u; e += 32u) {
                unsigned gm = m0 + sr * WM + i * 16u + e / 16u, gn = n0 + sc * WN + j * 16u + e % 16u;
                if (gm < m && gn < n)
                    c[gm * n + gn] = cs[sub * 256u + e];
            }
            __syncwarp();
        }
}

cudaError_t launch_naive(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    matmul_naive<<<vkb_grid(p), vkb_block(p), 0, s>>>((const float *)a[0], (const float *)a[1], (float *)a[2],
                                                       vkb_push_as<matmul_push>(p));
    return cudaGetLastError();
}

template <unsigned TILE>
cudaError_t launch_tiled(const vkb_pass *p, void *const *a, cudaStream_t s)
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
        return cudaErrorInvalidConfiguration;   /* the register arrays are sized for NT threads */
    matmul_block<BM, BN, BK, WM, WN, TM, TN, OPT, NT><<<vkb_grid(p), vkb_block(p), 0, s>>>(
        (const float *)a[0], (const float *)a[1], (float *)a[2], vkb_push_as<matmul_push>(p));
    return cudaGetLastError();
}

template <unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN>
cudaError_t launch_coopmat(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    if (p->local[0] != (BM / WM) * (BN / WN) * 32u)
        return cudaErrorInvalidConfiguration;   /* one warp per sub-block: the register arrays are sized so */
    matmul_coopmat<BM, BN, BK, WM, WN><<<vkb_grid(p), vkb_block(p), 0, s>>>(
        (const unsigned *)a[0], (const unsigned *)a[1], (float *)a[2], vkb_push_as<matmul_push>(p));
    return cudaGetLastError();
}

/* One cuBLAS handle, made on first use. */
cublasHandle_t blas(cudaStream_t s)
{
    static cublasHandle_t h;
    if (!h && cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
        return nullptr;
    cublasSetStream(h, s);
    return h;
}

cudaError_t blas_result(cublasStatus_t st, const char *what)
{
    if (st == CUBLAS_STATUS_SUCCESS)
        return cudaSuccess;
    fprintf(stderr, "vkbench: %s: %s\n", what, cublasGetStatusString(st));
    return cudaErrorUnknown;
}

/* Row-major C = A B is column-major C^T = B^T A^T: swap the operands, keep the leading dimensions. */
cudaError_t launch_cublas_sgemm(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    cublasHandle_t h = blas(s);
    matmul_push pc = vkb_push_as<matmul_push>(p);
    int m = (int)pc.m, n = (int)pc.n, k = (int)pc.k;
    const float one = 1.0f, zero = 0.0f;
    if (!h)
        return blas_result(CUBLAS_STATUS_NOT_INITIALIZED, "cublasCreate");
    cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);   /* true fp32: no TF32, no reduced-precision reductions */
    return blas_result(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, (const float *)a[1], n,
                                   (const float *)a[0], k, &zero, (float *)a[2], n),
                       "cublasSgemm");
}

cudaError_t launch_cublas_hgemm(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    cublasHandle_t h = blas(s);
    matmul_push pc = vkb_push_as<matmul_push>(p);
    int m = (int)pc.m, n = (int)pc.n, k = (int)pc.k;
    const float one = 1.0f, zero = 0.0f;
    if (!h)
        return blas_result(CUBLAS_STATUS_NOT_INITIALIZED, "cublasCreate");
    cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);    /* tensor cores, fp32 accumulation */
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
#define CUDA_ROW(name, shader, lx, ly, nspec, spec, param, needs, note, ceiling) \
    CALL(CUDA_##shader, (#shader, lx, SPEC_LIST spec))
#define CUDA_matmul_naive(kernel, lx, unused) {kernel, 0, {}, launch_naive},
#define CUDA_matmul_tiled(kernel, lx, tile) {kernel, 1, {tile}, launch_tiled<tile>},
#define CUDA_matmul_block(kernel, lx, bm, bn, bk, wm, wn, tm, tn, opt) \
    {kernel, 8, {bm, bn, bk, WARPS2(wm), wn, tm, tn, opt}, launch_block<bm, bn, bk, WARPS2(wm), wn, tm, tn, opt, lx>},
/* the unroll hints of the Vulkan build are nvcc's default: the same template */
#define CUDA_matmul_block_unrolled CUDA_matmul_block
#define CUDA_matmul_coopmat(kernel, lx, bm, bn, bk, wm, wn) \
    {kernel, 5, {bm, bn, bk, wm, wn}, launch_coopmat<bm, bn, bk, wm, wn>},
/* CUDA's shared tile is half already */
#define CUDA_matmul_coopmat_h CUDA_matmul_coopmat
extern "C" const vkb_cuda_kernel vkb_cuda_kernels_matmul[] = {
    MATMUL_ROWS(CUDA_ROW)
    {"cublas_sgemm", 0, {}, launch_cublas_sgemm},
    {"cublas_hgemm", 0, {}, launch_cublas_hgemm},
    {nullptr, 0, {}, nullptr},
};
