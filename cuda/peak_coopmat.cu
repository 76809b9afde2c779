/* peak_coopmat.cu - the CUDA twins of shaders/peak/peak_coopmat.comp: one WMMA kernel template over the operand
 * and accumulator types, 16 x 16 x 16 fragments (the shape the CUDA module reports, so both APIs plan the same),
 * the same operand layout, accumulators and push words (mma.sync: HMMA for fp16, IMMA for 8-bit integers). */
#include <cuda_fp16.h>
#include <mma.h>

#include "kernels.h"
#include "peak/rows.h"

using namespace nvcuda;

namespace {

/* AT: the operands' WMMA type; CT: the accumulator's (u8 accumulates in int: the same bits as u32) */
template <typename AT, typename CT>
__device__ __forceinline__ void coopmat_chain(const unsigned *__restrict__ ab, const CT *__restrict__ start,
                                              CT *__restrict__ dst, peak_push pc)
{
    unsigned sg = (blockIdx.x * blockDim.x + threadIdx.x) / 32u, slot = sg % pc.slots;
    const AT *a = reinterpret_cast<const AT *>(ab);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, AT, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, AT, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, CT> acc[PEAK_CM_CHAINS];
    wmma::load_matrix_sync(fa, a + slot * 256u, 16);
    wmma::load_matrix_sync(fb, a + PEAK_CM_B_OFFSET + slot * 256u, 16);
#pragma unroll
    for (unsigned j = 0; j < PEAK_CM_CHAINS; j++)
        wmma::load_matrix_sync(acc[j], start + (slot * PEAK_CM_CHAINS + j) * 256u, 16, wmma::mem_row_major);
    for (unsigned t = 0; t < pc.trips; t++) {
#pragma unroll
        for (unsigned j = 0; j < PEAK_CM_CHAINS; j++)
            wmma::mma_sync(acc[j], fa, fb, acc[j]);
    }
    if (sg < pc.n) {
#pragma unroll
        for (unsigned j = 0; j < PEAK_CM_CHAINS; j++)
            wmma::store_matrix_sync(dst + (sg * PEAK_CM_CHAINS + j) * 256u, acc[j], 16, wmma::mem_row_major);
    }
}

/* each row's kernel named as its shader (--sass pairs them by name) */
#define CM_KERNEL(shader, AT, CT)                                                                                 \
    __global__ void shader(const unsigned *__restrict__ ab, const CT *__restrict__ start, CT *__restrict__ dst,   \
                           peak_push pc)                                                                          \
    {                                                                                                             \
        coopmat_chain<AT, CT>(ab, start, dst, pc);                                                                \
    }
CM_KERNEL(peak_coopmat_f16_f32, half, float)
CM_KERNEL(peak_coopmat_f16_f16, half, half)
CM_KERNEL(peak_coopmat_s8_s32, signed char, int)
CM_KERNEL(peak_coopmat_u8_u32, unsigned char, int)

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

} // namespace

#define CUDA_CM_ROW(name, shader, combo, needs, note) \
    {#shader, 3, {16, 16, 16}, launch<ct_##shader, shader>},
extern "C" const vkb_cuda_kernel vkb_cuda_kernels_peak_coopmat[] = {
    PEAK_COOPMAT_ROWS(CUDA_CM_ROW)
    {nullptr, 0, {}, nullptr},
};
