/* matmul_tc.cu - the tensor-core twins of the cooperative-matrix shaders: the WMMA twin of
 * matmul_coopmat_khr.comp (fp32 or fp16 accumulators), the register-only mma.sync peak (twin of
 * matmul_coopmat_peak.comp), and cuBLAS's fp16-compute GEMM, the ceiling of the fp16-accumulate rows. */
#include <cstdio>

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "kernels.h"
#include "matmul/rows_tc.h"
#include "matmul_blas.cuh"
#include "matmul_wmma.cuh"

namespace
{

/* The twin of matmul_coopmat_khr.comp (matmul_wmma.cuh) with IN inputs (fp16, bf16) and ACC accumulators, C
 * written as ACC. */
template <typename ACC, typename IN, unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32u)
    coopmat_wmma(const unsigned *__restrict__ a, const unsigned *__restrict__ b, ACC *__restrict__ c, vkb_push pc)
{
    wmma_gemm<ACC, BM, BN, BK, WM, WN, IN>(a, b, c, pc.u[0], pc.u[1], pc.u[2]);
}

/* The accumulators of one m16n8k16 mma.sync (fp16 inputs) per thread: REGS registers of type REG, updated in
 * place by mma(), written by store() to row R (and R + 8) from column COL of the row-major M x N matrix C
 * (fragment layout: row lane/4 (+8), columns 2 (lane%4) .. +1). */
struct acc_f32 {
    typedef float reg;
    static constexpr int regs = 4;
    static __device__ __forceinline__ void mma(float *d, const unsigned *a, const unsigned *b)
    {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
    static __device__ __forceinline__ void store(void *c, const float *d, unsigned r, unsigned col, unsigned n)
    {
        float *cf = static_cast<float *>(c);
        cf[r * n + col] = d[0];
        cf[r * n + col + 1u] = d[1];
        cf[(r + 8u) * n + col] = d[2];
        cf[(r + 8u) * n + col + 1u] = d[3];
    }
};

/* fp16 accumulators: 2 registers of 2 halves, a column pair each. */
struct acc_f16 {
    typedef unsigned reg;
    static constexpr int regs = 2;
    static __device__ __forceinline__ void mma(unsigned *d, const unsigned *a, const unsigned *b)
    {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};\n"
                     : "+r"(d[0]), "+r"(d[1])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
    static __device__ __forceinline__ void store(void *c, const unsigned *d, unsigned r, unsigned col, unsigned n)
    {
        unsigned *c32 = static_cast<unsigned *>(c);
        c32[(r * n + col) / 2u] = d[0];
        c32[((r + 8u) * n + col) / 2u] = d[1];
    }
};

/* The twin of matmul_coopmat_peak.comp: each warp a 64x64 tile of C as 4 x 8 independent m16n8k16
 * accumulators, ceil(K / 16) steps of 32 mma.sync on one A and one B fragment kept in registers (the
 * per-warp instruction NVIDIA's Vulkan driver compiles cooperative matrices to): 2 M N K flops for tile
 * multiples. A block is a row of 8 warp tiles (grid: N / 512 x M / 64), as in the shader. The accumulators
 * (ACC: acc_f32 or acc_f16) go to C so nothing is removed; C is not a product. */
template <typename ACC>
__global__ void __launch_bounds__(256)
    mma_peak(const unsigned *__restrict__ a, const unsigned *__restrict__ b, void *__restrict__ c, vkb_push pc)
{
    unsigned m = pc.u[0], n = pc.u[1], k = pc.u[2], lane = threadIdx.x % 32u;
    unsigned m0 = blockIdx.y * 64u, n0 = (blockIdx.x * (blockDim.x / 32u) + threadIdx.x / 32u) * 64u;
    unsigned fa[4], fb[2];
    for (int i = 0; i < 4; i++)
        fa[i] = a[lane * 4u + i];
    for (int i = 0; i < 2; i++)
        fb[i] = b[lane * 2u + i];
    typename ACC::reg d[32][ACC::regs] = {};
    for (unsigned k0 = 0; k0 < k; k0 += 16u) {
#pragma unroll
        for (int t = 0; t < 32; t++)
            ACC::mma(d[t], fa, fb);
    }
    if (m0 + 64u <= m && n0 + 64u <= n) {
#pragma unroll
        for (int t = 0; t < 32; t++)
            ACC::store(c, d[t], m0 + (t / 8) * 16u + lane / 4u, n0 + (t % 8) * 8u + 2u * (lane % 4u), n);
    }
}

template <typename ACC, typename IN, unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN>
constexpr vkb_cuda_launcher launch_wmma =
    launch_wmma_kernel<ACC, vkb_push, BM, BN, WM, WN, coopmat_wmma<ACC, IN, BM, BN, BK, WM, WN>>;

template <typename ACC> cudaError_t launch_peak(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    if (p->local[0] != 256u || p->local[1] != 1u || p->local[2] != 1u)
        return cudaErrorInvalidConfiguration;
    mma_peak<ACC>
        <<<vkb_grid(p), vkb_block(p), 0, s>>>((const unsigned *)a[0], (const unsigned *)a[1], a[2], vkb_push_of(p));
    return cudaGetLastError();
}

/* cublasGemmEx fp16 x fp16 -> fp16 with CUBLAS_COMPUTE_16F: fp16 accumulation, the like-for-like ceiling
 * of the fp16-accumulate rows. Row-major C = A B as column-major C^T = B^T A^T. */
cudaError_t launch_cublas_hgemm_acc16(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    int m, n, k;
    cublasHandle_t h = blas(p, s, CUBLAS_DEFAULT_MATH, &m, &n, &k);
    const half one = __float2half(1.0f), zero = __float2half(0.0f);
    if (!h)
        return blas_result(CUBLAS_STATUS_NOT_INITIALIZED, "cublasCreate");
    return blas_result(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, a[1], CUDA_R_16F, n, a[0], CUDA_R_16F,
                                    k, &zero, a[2], CUDA_R_16F, n, CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT),
                       "cublasGemmEx (fp16 compute)");
}

/* B^T (N x K) from the row-major int8 K x N matrix B: 32x32 tiles through shared memory. */
__global__ void transpose_s8(const signed char *__restrict__ b, signed char *__restrict__ bt, unsigned k, unsigned n)
{
    __shared__ signed char t[32][33];
    unsigned x = blockIdx.x * 32u + threadIdx.x, y0 = blockIdx.y * 32u;
    for (unsigned r = threadIdx.y; r < 32u; r += blockDim.y)
        if (x < n && y0 + r < k)
            t[r][threadIdx.x] = b[(size_t)(y0 + r) * n + x];
    __syncthreads();
    x = y0 + threadIdx.x;
    for (unsigned r = threadIdx.y; r < 32u; r += blockDim.y)
        if (x < k && blockIdx.x * 32u + r < n)
            bt[(size_t)(blockIdx.x * 32u + r) * k + x] = t[threadIdx.x][r];
}

/* cublasGemmEx s8 x s8 -> s32 with CUBLAS_COMPUTE_32I, the ceiling of the int8 rows, and bf16 x bf16 -> fp32 with
 * CUBLAS_COMPUTE_32F, that of the bf16 rows: row-major C = A B as column-major C^T = B^T A^T. cuBLAS runs int8
 * on its tensor-core kernels only with the first operand transposed (k contiguous in both: measured 128 TOP/s
 * untransposed at 8192^3 on the H200), so each call first writes B^T (its time is in the row's: 2 K N bytes
 * moved, ~3% at 8192^3) and multiplies B^T^T A^T; lda, ldb (K) and ldc (N) multiples of 4 (plan() skips other
 * shapes). */
cudaError_t cublas_typed(const vkb_pass *p, void *const *a, cudaStream_t s, int s8)
{
    static thread_local void *bt;      /* B^T, kept between calls */
    static thread_local size_t bt_len; /* its bytes */
    int m, n, k;
    cublasHandle_t h = blas(p, s, CUBLAS_DEFAULT_MATH, &m, &n, &k);
    const int one_i = 1, zero_i = 0;
    const float one_f = 1.0f, zero_f = 0.0f;
    cublasStatus_t st;
    if (!h)
        return blas_result(CUBLAS_STATUS_NOT_INITIALIZED, "cublasCreate");
    if (s8) {
        size_t len = (size_t)k * (size_t)n;
        if (len > bt_len) {
            if (bt)
                cudaFree(bt);
            bt_len = 0;
            if (cudaMalloc(&bt, len) != cudaSuccess)
                return cudaErrorMemoryAllocation;
            bt_len = len;
        }
        transpose_s8<<<dim3((n + 31) / 32, (k + 31) / 32), dim3(32, 8), 0, s>>>((const signed char *)a[1],
                                                                                (signed char *)bt, k, n);
        if (cudaGetLastError() != cudaSuccess)
            return cudaErrorLaunchFailure;
        st = cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one_i, bt, CUDA_R_8I, k, a[0], CUDA_R_8I, k, &zero_i,
                          a[2], CUDA_R_32I, n, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
    } else
        st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one_f, a[1], CUDA_R_16BF, n, a[0], CUDA_R_16BF, k,
                          &zero_f, a[2], CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    return blas_result(st, s8 ? "cublasGemmEx (s8 -> s32)" : "cublasGemmEx (bf16 -> fp32)");
}

cudaError_t launch_cublas_gemm_s8(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    return cublas_typed(p, a, s, 1);
}

cudaError_t launch_cublas_gemm_bf16(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    return cublas_typed(p, a, s, 0);
}

} // namespace

/* One launcher per row of matmul/rows_tc.h, matched by shader name and constants; the host fills the rows'
 * FRAG 0 with the device's fragment, 16 x 16 x 16 on CUDA (cuda/module.cu), which these are built for.
 * coopmat2 and coopmat2_staged have no twin (a workgroup-scope matrix has no CUDA equivalent). */
#define TC_SPEC_LIST(...) __VA_ARGS__
#define TC_CALL(macro, args) macro args
#define TC_CUDA_ROW(name, shader, lx, nspec, spec, param, needs, flags, note, ceiling)                                 \
    TC_CALL(TC_CUDA_##shader, (#shader, TC_SPEC_LIST spec))
/* the row's WM WN 0: the tile the host plans for WMMA's 16x16 fragments (matmul_tc.c) */
#define TC_KHR_TWIN(acc, in, k, bm, bn, bk)                                                                            \
    {k,                                                                                                                \
     8,                                                                                                                \
     {bm, bn, bk, MATMUL_KHR_WM, MATMUL_KHR_WN, 16, 16, 16},                                                           \
     launch_wmma<acc, in, bm, bn, bk, MATMUL_KHR_WM, MATMUL_KHR_WN>},
#define TC_CUDA_matmul_coopmat_khr(k, bm, bn, bk, wm, wn, fm, fn, fk) TC_KHR_TWIN(float, half, k, bm, bn, bk)
#define TC_CUDA_matmul_coopmat_khr_acc16(k, bm, bn, bk, wm, wn, fm, fn, fk) TC_KHR_TWIN(half, half, k, bm, bn, bk)
#define TC_CUDA_matmul_coopmat_khr_bf16(k, bm, bn, bk, wm, wn, fm, fn, fk)                                             \
    TC_KHR_TWIN(float, __nv_bfloat16, k, bm, bn, bk)
/* int8: the device lists s8 at K = 32 (cuda/module.cu, as NVIDIA's Vulkan driver); WMMA's s8 fragment is
 * 16x16x16, two of its steps per k step of 32 */
#define TC_CUDA_matmul_coopmat_khr_s8(k, bm, bn, bk, wm, wn, fm, fn, fk)                                               \
    {k,                                                                                                                \
     8,                                                                                                                \
     {bm, bn, bk, MATMUL_KHR_WM, MATMUL_KHR_WN, 16, 16, 32},                                                           \
     launch_wmma<int, signed char, bm, bn, bk, MATMUL_KHR_WM, MATMUL_KHR_WN>},
/* B staged k-major is a Vulkan staging detail: the twin is coopmat_khr_s8's (WMMA loads B as it lies) */
#define TC_CUDA_matmul_coopmat_khr_s8_kmajor(k, ...) TC_CUDA_matmul_coopmat_khr_s8(k, __VA_ARGS__)
#define TC_CUDA_matmul_coopmat2_s8(k, ...)
#define TC_CUDA_matmul_coopmat2_staged_s8(k, ...)
#define TC_CUDA_matmul_coopmat2_bf16(k, ...)
#define TC_CUDA_matmul_coopmat2(k, ...)
#define TC_CUDA_matmul_coopmat2_acc16(k, ...)
#define TC_CUDA_matmul_coopmat2_staged(k, ...)
#define TC_CUDA_matmul_coopmat2_staged_acc16(k, ...)
#define TC_CUDA_matmul_coopmat_peak(k, ...) {k, 8, {0, 0, 0, 0, 0, 16, 16, 16}, launch_peak<acc_f32>},
#define TC_CUDA_matmul_coopmat_peak_acc16(k, ...) {k, 8, {0, 0, 0, 0, 0, 16, 16, 16}, launch_peak<acc_f16>},
extern "C" const vkb_cuda_kernel vkb_cuda_kernels_matmul_tc[] = {
    MATMUL_TC_ROWS(TC_CUDA_ROW){"cublas_hgemm_acc16", 0, {}, launch_cublas_hgemm_acc16},
    {"cublas_gemm_s8", 0, {}, launch_cublas_gemm_s8},
    {"cublas_gemm_bf16", 0, {}, launch_cublas_gemm_bf16},
    {nullptr, 0, {}, nullptr},
};
