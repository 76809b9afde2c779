/* matmul_wmma.cuh - the one WMMA GEMM behind matmul.cu's matmul_coopmat (fp32 accumulators) and
 * matmul_tc.cu's coopmat_wmma (fp32 or fp16): their shaders, matmul_coopmat.comp and
 * matmul_coopmat_khr.comp, share block, subgroup tile, padded shared stages, fetch/stash pipeline and the
 * staging of C; the twin runs the shaders' default schedule only (PREFETCH 1, STORE_EARLY 0, GROUP_M 1:
 * --spec of those changes the Vulkan kernel alone). Each file keeps its own __global__ entry (its push
 * constants, its launch bounds). */
#ifndef VKB_CUDA_MATMUL_WMMA_CUH
#define VKB_CUDA_MATMUL_WMMA_CUH

#include <cuda_fp16.h>
#include <mma.h>

#include "kernels.h"

namespace
{

template <typename T> __device__ T acc_zero();
template <> __device__ float acc_zero<float>()
{
    return 0.0f;
}
template <> __device__ half acc_zero<half>()
{
    return __float2half(0.0f);
}
template <> __device__ int acc_zero<int>()
{
    return 0;
}

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

/* Sixteen bytes of row ROW from column COL of a ROWS x COLS int8 matrix W (as 32-bit words), zero beyond. */
__device__ uint4 chunk16(const unsigned *__restrict__ w, unsigned row, unsigned col, unsigned rows, unsigned cols)
{
    if (row >= rows || col >= cols)
        return make_uint4(0u, 0u, 0u, 0u);
    if ((cols & 15u) == 0u)
        return reinterpret_cast<const uint4 *>(w)[(row * cols + col) >> 4];
    unsigned v[4] = {0u, 0u, 0u, 0u};
    for (unsigned q = 0; q < 16u; q++) {
        unsigned e = row * cols + col + q;
        if (col + q < cols)
            v[q / 4u] |= ((w[e >> 2] >> ((e & 3u) * 8u)) & 0xffu) << (q % 4u * 8u);
    }
    return make_uint4(v[0], v[1], v[2], v[3]);
}

/* C (M x N, ACC) = A (M x K) B (K x N), IN (fp16, bf16, or signed char with int ACC) A and B as 32-bit words, 16x16x16 fragments: a BM x BN block
 * per workgroup, a WM x WN tile per warp, two shared stages with the next tile in registers during the math,
 * unguarded 16-byte loads for interior tiles. Inlined into the caller's kernel (its shared memory too). */
template <typename ACC, unsigned BM, unsigned BN, unsigned BK, unsigned WM, unsigned WN, typename IN = half>
__device__ __forceinline__ void wmma_gemm(const unsigned *__restrict__ a, const unsigned *__restrict__ b,
                                          ACC *__restrict__ c, unsigned m, unsigned n, unsigned k)
{
    using namespace nvcuda;
    constexpr unsigned EPC = 16u / sizeof(IN); /* elements per 16-byte chunk: 8 (16-bit), 16 (int8) */
    constexpr unsigned FM = WM / 16u, FN = WN / 16u, ASTR = BK / EPC + 1u, BSTR = BN / EPC + 1u;
    constexpr unsigned ASTAGE = BM * ASTR, BSTAGE = BK * BSTR, NSUB = (BM / WM) * (BN / WN), NT = NSUB * 32u;
    constexpr unsigned ACH = BM * BK / EPC, BCH = BK * BN / EPC, LA = (ACH + NT - 1u) / NT, LB = (BCH + NT - 1u) / NT;
    __shared__ __align__(32) uint4 as[2u * ASTAGE];
    __shared__ __align__(32) uint4 bs[2u * BSTAGE];
    __shared__ __align__(32) ACC cs[NSUB * 256u];
    unsigned tid = threadIdx.x, sub = tid / 32u, lane = tid % 32u;
    unsigned sr = sub / (BN / WN), sc = sub % (BN / WN), m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    unsigned tiles = (k + BK - 1u) / BK;
    const uint4 *a8 = reinterpret_cast<const uint4 *>(a), *b8 = reinterpret_cast<const uint4 *>(b);
    const IN *ah = reinterpret_cast<const IN *>(as), *bh = reinterpret_cast<const IN *>(bs);
    uint4 ra[LA], rb[LB];
    wmma::fragment<wmma::accumulator, 16, 16, 16, ACC> acc[FM * FN];
#pragma unroll
    for (unsigned i = 0; i < FM * FN; i++)
        wmma::fill_fragment(acc[i], acc_zero<ACC>());

    auto fetch = [&](unsigned k0) {
        bool a_inside = (k % EPC) == 0u && m0 + BM <= m && k0 + BK <= k;
        bool b_inside = (n % EPC) == 0u && k0 + BK <= k && n0 + BN <= n;
        auto chunk = [&](const unsigned *w, unsigned row, unsigned col, unsigned rows, unsigned cols) {
            return EPC == 16u ? chunk16(w, row, col, rows, cols) : chunk8(w, row, col, rows, cols);
        };
#pragma unroll
        for (unsigned l = 0; l < LA; l++) {
            unsigned i = min(tid + l * NT, ACH - 1u), r = i / (BK / EPC), c8 = i % (BK / EPC);
            ra[l] = a_inside ? a8[((m0 + r) * k + k0 + c8 * EPC) / EPC] : chunk(a, m0 + r, k0 + c8 * EPC, m, k);
        }
#pragma unroll
        for (unsigned l = 0; l < LB; l++) {
            unsigned i = min(tid + l * NT, BCH - 1u), r = i / (BN / EPC), c8 = i % (BN / EPC);
            rb[l] = b_inside ? b8[((k0 + r) * n + n0 + c8 * EPC) / EPC] : chunk(b, k0 + r, n0 + c8 * EPC, k, n);
        }
    };
    auto stash = [&](unsigned s) {
#pragma unroll
        for (unsigned l = 0; l < LA; l++) {
            unsigned i = tid + l * NT;
            if (i < ACH)
                as[s * ASTAGE + i / (BK / EPC) * ASTR + i % (BK / EPC)] = ra[l];
        }
#pragma unroll
        for (unsigned l = 0; l < LB; l++) {
            unsigned i = tid + l * NT;
            if (i < BCH)
                bs[s * BSTAGE + i / (BN / EPC) * BSTR + i % (BN / EPC)] = rb[l];
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
            wmma::fragment<wmma::matrix_a, 16, 16, 16, IN, wmma::row_major> fa[FM];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, IN, wmma::row_major> fb[FN];
#pragma unroll
            for (unsigned i = 0; i < FM; i++)
                wmma::load_matrix_sync(fa[i], ah + (cur * ASTAGE + (sr * WM + i * 16u) * ASTR) * EPC + kk, ASTR * EPC);
#pragma unroll
            for (unsigned j = 0; j < FN; j++)
                wmma::load_matrix_sync(fb[j], bh + (cur * BSTAGE + kk * BSTR) * EPC + sc * WN + j * 16u, BSTR * EPC);
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

/* The launcher of a WMMA kernel K (BM, BN, WM, WN of its template) whose push constants are P. */
template <typename ACC, typename P, unsigned BM, unsigned BN, unsigned WM, unsigned WN,
          void (*K)(const unsigned *, const unsigned *, ACC *, P)>
cudaError_t launch_wmma_kernel(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    if (p->local[0] != (BM / WM) * (BN / WN) * 32u)
        return cudaErrorInvalidConfiguration; /* one warp per sub-block: the register arrays are sized so */
    K<<<vkb_grid(p), vkb_block(p), 0, s>>>((const unsigned *)a[0], (const unsigned *)a[1], (ACC *)a[2],
                                           vkb_push_as<P>(p));
    return cudaGetLastError();
}

} // namespace

#endif
