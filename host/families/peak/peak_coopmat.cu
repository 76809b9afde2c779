/* peak_coopmat.cu - the CUDA twins of host/families/peak/peak_coopmat.comp: one WMMA kernel template over the operand
 * and accumulator types and the fragment's depth, the same operand layout, accumulators and push words
 * (mma.sync: HMMA for fp16 and bf16, IMMA for 8-bit integers). The fragments are those NVIDIA's Vulkan driver lists (the
 * CUDA module reports the same, so both APIs plan the same): 16 x 16 x 16 for fp16 and bf16; 16 x 16 x 32 for 8-bit
 * integers, which WMMA runs as two 16 x 16 x 16 steps on the two halves of K (exact integer sums: the same
 * result as one step of 32). */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "kernels.h"
#include "peak/rows.h"

using namespace nvcuda;

namespace
{

/* AT: the operands' WMMA type; CT: the accumulator's (u8 accumulates in int: the same bits as u32); KS: 16-deep
 * WMMA steps per K (K = 16 KS). A's halves of K are not 32-byte aligned where KS > 1: staged through shared
 * memory once, before the loop. */
template <typename AT, typename CT, int KS>
__device__ __forceinline__ void coopmat_chain(const unsigned *__restrict__ ab, const CT *__restrict__ start,
                                              CT *__restrict__ dst, peak_push pc)
{
    constexpr unsigned K = 16u * KS;
    __shared__ __align__(32) AT staged[PEAK_LOCAL / 32][KS][256];
    unsigned sg = (blockIdx.x * blockDim.x + threadIdx.x) / 32u, slot = sg % pc.slots, lane = threadIdx.x % 32u;
    unsigned warp = threadIdx.x / 32u;
    const AT *a = reinterpret_cast<const AT *>(ab) + slot * 16u * K;
    const AT *b = reinterpret_cast<const AT *>(ab) + PEAK_CM_B_OFFSET + slot * K * 16u;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, AT, wmma::row_major> fa[KS];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, AT, wmma::row_major> fb[KS];
    wmma::fragment<wmma::accumulator, 16, 16, 16, CT> acc[PEAK_CM_CHAINS];
    for (unsigned e = lane; e < 16u * K; e += 32u) /* A (16 x K) as KS 16 x 16 tiles */
        staged[warp][e % K / 16u][e / K * 16u + e % 16u] = a[e];
    __syncwarp();
#pragma unroll
    for (int s = 0; s < KS; s++) {
        wmma::load_matrix_sync(fa[s], staged[warp][s], 16);
        wmma::load_matrix_sync(fb[s], b + s * 256u, 16); /* rows 16 s .. 16 s + 15 of B */
    }
#pragma unroll
    for (unsigned j = 0; j < PEAK_CM_CHAINS; j++)
        wmma::load_matrix_sync(acc[j], start + (slot * PEAK_CM_CHAINS + j) * 256u, 16, wmma::mem_row_major);
    for (unsigned t = 0; t < pc.trips; t++) {
#pragma unroll
        for (unsigned j = 0; j < PEAK_CM_CHAINS; j++)
#pragma unroll
            for (int s = 0; s < KS; s++)
                wmma::mma_sync(acc[j], fa[s], fb[s], acc[j]);
    }
    if (sg < pc.n) {
#pragma unroll
        for (unsigned j = 0; j < PEAK_CM_CHAINS; j++)
            wmma::store_matrix_sync(dst + (sg * PEAK_CM_CHAINS + j) * 256u, acc[j], 16, wmma::mem_row_major);
    }
}

/* each row's kernel named as its shader (--sass pairs them by name) */
#define CM_KERNEL(shader, AT, CT, KS)                                                                                  \
    __global__ void shader(const unsigned *__restrict__ ab, const CT *__restrict__ start, CT *__restrict__ dst,        \
                           peak_push pc)                                                                               \
    {                                                                                                                  \
        coopmat_chain<AT, CT, KS>(ab, start, dst, pc);                                                                 \
    }
CM_KERNEL(peak_coopmat_f16_f32, half, float, 1)
CM_KERNEL(peak_coopmat_f16_f16, half, half, 1)
CM_KERNEL(peak_coopmat_s8_s32, signed char, int, 2)
CM_KERNEL(peak_coopmat_u8_u32, unsigned char, int, 2)
CM_KERNEL(peak_coopmat_bf16_f32, __nv_bfloat16, float, 1)

template <typename CT, void (*K)(const unsigned *, const CT *, CT *, peak_push)>
cudaError_t launch(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    K<<<vkb_grid(p), vkb_block(p), 0, s>>>((const unsigned *)a[0], (const CT *)a[1], (CT *)a[2],
                                           vkb_push_as<peak_push>(p));
    return cudaGetLastError();
}

using ct_peak_coopmat_f16_f32 = float;
using ct_peak_coopmat_f16_f16 = half;
using ct_peak_coopmat_s8_s32 = int;
using ct_peak_coopmat_u8_u32 = int;
using ct_peak_coopmat_bf16_f32 = float;
/* the fragment's depth K of each (the CUDA module's coopmat_types agree) */
constexpr unsigned k_peak_coopmat_f16_f32 = 16, k_peak_coopmat_f16_f16 = 16, k_peak_coopmat_s8_s32 = 32,
                   k_peak_coopmat_u8_u32 = 32, k_peak_coopmat_bf16_f32 = 16;

} // namespace

#define CUDA_CM_ROW(name, shader, combo, needs, flags, note)                                                           \
    {#shader, 3, {16, 16, k_##shader}, launch<ct_##shader, shader>},
extern "C" const vkb_cuda_kernel vkb_cuda_kernels_peak_coopmat[] = {
    PEAK_COOPMAT_ROWS(CUDA_CM_ROW){nullptr, 0, {}, nullptr},
};
