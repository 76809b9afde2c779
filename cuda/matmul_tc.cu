/* matmul_tc.cu - the tensor-core twins of the cooperative-matrix shaders: the WMMA twin of
 * matmul_coopmat_khr.comp (fp32 or fp16 accumulators), the register-only mma.sync peak (twin of
 * matmul_coopmat_peak.comp), and cuBLAS's fp16-compute GEMM, the ceiling of the fp16-accumulate rows. */
#include <cstdio>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "kernels.h"
#include "matmul/rows_tc.h"

namespace {

template <typename T> __device__ T acc_zero();
template <> __device__ float acc_zero<float>() { return 0.0f; }
template <> __device__ half acc_zero<half>() { return __float2half(0.0f); }

/* Eight halves of row ROW from column COL of a ROWS x COLS fp16 matrix W (as 32-bit words), zero beyond. */
__device__ uint4 chunk8(const unsigned *__restrict__ w, unsigned row, unsigned col, unsigned rows, unsigned cols)
{
    if (row >= rows || col >= cols)
        return make_uint4(0u, 0u, 0u, 0u);
    if ((cols & 7u) == 0u)
        return reinterpret_cast<const uint4 *>(w)[(row * cols + col) >> 3];
    unsigned h[8];
    for (unsigned q = 0; q < 8u; q++) {
        unsigned e = row * cols + col + q;
        h[q] = col + q < cols ? (w[e >> 1] >> ((e & 1u) * 16u)) & 0xffffu : 0u;
    }
    return make_uint4(h[0] | h[1] << 16, h[2] | h[3] << 16, h[4] | h[5] << 16, h[6] | h[7] << 16);
}

/* The twin of matmul_coopmat_khr.comp: same block, subgroup tile, padded shared stages, fetch/stash
 * pipeline and staging of C, with 16x16x16 WMMA fragments and ACC accumulators (C written as ACC). */
template <typename ACC, unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32u)
    coopmat_wmma(const unsigned *__restrict__ a, const unsigned *__restrict__ b, ACC *__restrict__ c, vkb_push pc)
{
    using namespace nvcuda;
    constexpr unsigned FM = WM / 16u, FN = WN / 16u, ASTR = BK / 8u + 1u, BSTR = BN / 8u + 1u;
    constexpr unsigned ASTAGE = BM * ASTR, BSTAGE = BK * BSTR, NSUB = (BM / WM) * (BN / WN), NT = NSUB * 32u;
    constexpr unsigned ACH = BM * BK / 8u, BCH = BK * BN / 8u, LA = (ACH + NT - 1u) / NT, LB = (BCH + NT - 1u) / NT;
    __shared__ __align__(32) uint4 as[2u * ASTAGE];
    __shared__ __align__(32) uint4 bs[2u * BSTAGE];
    __shared__ __align__(32) ACC cs[NSUB * 256u];
    unsigned m = pc.u[0], n = pc.u[1], k = pc.u[2];
    unsigned tid = threadIdx.x, sub = tid / 32u, lane = tid % 32u;
    unsigned sr = sub / (BN / WN), sc = sub % (BN / WN), m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    unsigned tiles = (k + BK - 1u) / BK;
    const uint4 *a8 = reinterpret_cast<const uint4 *>(a), *b8 = reinterpret_cast<const uint4 *>(b);
    const half *ah = reinterpret_cast<const half *>(as), *bh = reinterpret_cast<const half *>(bs);
    uint4 ra[LA], rb[LB];
    wmma::fragment<wmma::accumulator, 16, 16, 16, ACC> acc[FM * FN];
#pragma unroll
    for (unsigned i = 0; i < FM * FN; i++)
        wmma::fill_fragment(acc[i], acc_zero<ACC>());

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

/* One m16n8k16 mma.sync, fp16 inputs, fp32 accumulators (4 per thread) in place. */
__device__ __forceinline__ void mma_f32(float *d, const unsigned *a, const unsigned *b)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* The same with fp16 accumulators (2 registers of 2 halves per thread). */
__device__ __forceinline__ void mma_f16(unsigned *d, const unsigned *a, const unsigned *b)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};\n"
                 : "+r"(d[0]), "+r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* The twin of matmul_coopmat_peak.comp: each warp a 64x64 tile of C as 4 x 8 independent m16n8k16
 * accumulators, ceil(K / 16) steps of 32 mma.sync on one A and one B fragment kept in registers (the
 * per-warp instruction NVIDIA's Vulkan driver compiles cooperative matrices to): 2 M N K flops for tile
 * multiples. A block is a row of 8 warp tiles (grid: N / 512 x M / 64), as in the shader. The accumulators
 * go to C so nothing is removed; C is not a product. */
template <bool F16ACC>
__global__ void __launch_bounds__(256) mma_peak(const unsigned *__restrict__ a, const unsigned *__restrict__ b,
                                                void *__restrict__ c, vkb_push pc)
{
    unsigned m = pc.u[0], n = pc.u[1], k = pc.u[2], lane = threadIdx.x % 32u;
    unsigned m0 = blockIdx.y * 64u, n0 = (blockIdx.x * (blockDim.x / 32u) + threadIdx.x / 32u) * 64u;
    unsigned fa[4], fb[2];
    for (int i = 0; i < 4; i++)
        fa[i] = a[lane * 4u + i];
    for (int i = 0; i < 2; i++)
        fb[i] = b[lane * 2u + i];
    if (F16ACC) {
        unsigned d[32][2] = {};
        for (unsigned k0 = 0; k0 < k; k0 += 16u) {
#pragma unroll
            for (int t = 0; t < 32; t++)
                mma_f16(d[t], fa, fb);
        }
        if (m0 + 64u <= m && n0 + 64u <= n) {
            unsigned *c32 = static_cast<unsigned *>(c);
#pragma unroll
            for (int t = 0; t < 32; t++) {   /* fragment layout: row lane/4 (+8), columns 2 (lane%4) .. +1 */
                unsigned r = m0 + (t / 8) * 16u + lane / 4u, col = n0 + (t % 8) * 8u + 2u * (lane % 4u);
                c32[(r * n + col) / 2u] = d[t][0];
                c32[((r + 8u) * n + col) / 2u] = d[t][1];
            }
        }
    } else {
        float d[32][4] = {};
        for (unsigned k0 = 0; k0 < k; k0 += 16u) {
#pragma unroll
            for (int t = 0; t < 32; t++)
                mma_f32(d[t], fa, fb);
        }
        if (m0 + 64u <= m && n0 + 64u <= n) {
            float *cf = static_cast<float *>(c);
#pragma unroll
            for (int t = 0; t < 32; t++) {
                unsigned r = m0 + (t / 8) * 16u + lane / 4u, col = n0 + (t % 8) * 8u + 2u * (lane % 4u);
                cf[r * n + col] = d[t][0];
                cf[r * n + col + 1u] = d[t][1];
                cf[(r + 8u) * n + col] = d[t][2];
                cf[(r + 8u) * n + col + 1u] = d[t][3];
            }
        }
    }
}

template <typename ACC, unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN>
cudaError_t launch_wmma(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    if (p->local[0] != (BM / WM) * (BN / WN) * 32u)
        return cudaErrorInvalidConfiguration;   /* one warp per sub-block: the register arrays are sized so */
    coopmat_wmma<ACC, BM, BN, BK, WM, WN><<<vkb_grid(p), vkb_block(p), 0, s>>>(
        (const unsigned *)a[0], (const unsigned *)a[1], (ACC *)a[2], vkb_push_of(p));
    return cudaGetLastError();
}

template <bool F16ACC>
cudaError_t launch_peak(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    if (p->local[0] != 256u || p->local[1] != 1u || p->local[2] != 1u)
        return cudaErrorInvalidConfiguration;
    mma_peak<F16ACC><<<vkb_grid(p), vkb_block(p), 0, s>>>((const unsigned *)a[0], (const unsigned *)a[1], a[2],
                                                           vkb_push_of(p));
    return cudaGetLastError();
}

/* cublasGemmEx fp16 x fp16 -> fp16 with CUBLAS_COMPUTE_16F: fp16 accumulation, the like-for-like ceiling
 * of the fp16-accumulate rows. Row-major C = A B as column-major C^T = B^T A^T. */
cudaError_t launch_cublas_hgemm_acc16(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    static cublasHandle_t h;
    int m = (int)p->push[0], n = (int)p->push[1], k = (int)p->push[2];
    const half one = __float2half(1.0f), zero = __float2half(0.0f);
    cublasStatus_t st;
    if (!h && cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "vkbench: cublasCreate failed\n");
        return cudaErrorUnknown;
    }
    cublasSetStream(h, s);
    cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
    st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, a[1], CUDA_R_16F, n, a[0], CUDA_R_16F, k, &zero,
                      a[2], CUDA_R_16F, n, CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT);
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "vkbench: cublasGemmEx (fp16 compute): %s\n", cublasGetStatusString(st));
        return cudaErrorUnknown;
    }
    return cudaSuccess;
}

} // namespace

/* One launcher per row of matmul/rows_tc.h, matched by shader name and constants; the host fills the rows'
 * FRAG 0 with the device's fragment, 16 x 16 x 16 on CUDA (cuda/module.cu), which these are built for.
 * coopmat2 has no twin (a workgroup-scope matrix has no CUDA equivalent). */
#define TC_SPEC_LIST(...) __VA_ARGS__
#define TC_CALL(macro, args) macro args
#define TC_CUDA_ROW(name, shader, lx, nspec, spec, param, needs, flags, note, ceiling) \
    TC_CALL(TC_CUDA_##shader, (#shader, TC_SPEC_LIST spec))
#define TC_CUDA_matmul_coopmat_khr(k, bm, bn, bk, wm, wn, fm, fn, fk) \
    {k, 8, {bm, bn, bk, wm, wn, 16, 16, 16}, launch_wmma<float, bm, bn, bk, wm, wn>},
#define TC_CUDA_matmul_coopmat_khr_acc16(k, bm, bn, bk, wm, wn, fm, fn, fk) \
    {k, 8, {bm, bn, bk, wm, wn, 16, 16, 16}, launch_wmma<half, bm, bn, bk, wm, wn>},
#define TC_CUDA_matmul_coopmat2(k, bm, bn, bk)
#define TC_CUDA_matmul_coopmat2_acc16(k, bm, bn, bk)
#define TC_CUDA_matmul_coopmat_peak(k, ...) {k, 8, {0, 0, 0, 0, 0, 16, 16, 16}, launch_peak<false>},
#define TC_CUDA_matmul_coopmat_peak_acc16(k, ...) {k, 8, {0, 0, 0, 0, 0, 16, 16, 16}, launch_peak<true>},
extern "C" const vkb_cuda_kernel vkb_cuda_kernels_matmul_tc[] = {
    MATMUL_TC_ROWS(TC_CUDA_ROW)
    {"cublas_hgemm_acc16", 0, {}, launch_cublas_hgemm_acc16},
    {nullptr, 0, {}, nullptr},
};
