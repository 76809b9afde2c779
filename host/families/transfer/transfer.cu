/* transfer.cu - the CUDA twin of shader_both (transfer_both.comp): the same geometry and push words, the four
 * bindings as pointers (0 and 3 pinned host memory, 1 and 2 device memory). The one-way shader rows' twin is
 * memory.width's mem_width (host/families/memory/memory.cu). */
#include "kernels.h"
#include "transfer/transfer.h"

namespace
{

/* one direction: vec4s from a grid-stride loop over half the grid, the n % 4 tail as single words */
__device__ void copy_half(const float *__restrict__ src, float *__restrict__ dst, unsigned n, unsigned id,
                          unsigned stride)
{
    unsigned nel = n / 4;
    for (unsigned i = id; i < nel; i += stride)
        reinterpret_cast<float4 *>(dst)[i] = reinterpret_cast<const float4 *>(src)[i];
    if (id < n - nel * 4)
        dst[nel * 4 + id] = src[nel * 4 + id];
}

/* even blocks up (up_src -> up_dst), odd ones down (down_src -> down_dst), as the shader */
__global__ void transfer_both(const float *__restrict__ up_src, float *__restrict__ up_dst,
                              const float *__restrict__ down_src, float *__restrict__ down_dst, transfer_push pc)
{
    unsigned stride = gridDim.x / 2 * blockDim.x, id = blockIdx.x / 2 * blockDim.x + threadIdx.x;
    if (blockIdx.x % 2 == 0)
        copy_half(up_src, up_dst, pc.n, id, stride);
    else
        copy_half(down_src, down_dst, pc.n, id, stride);
}

cudaError_t launch_transfer_both(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    transfer_both<<<vkb_grid(p), vkb_block(p), 0, s>>>((const float *)a[0], (float *)a[1], (const float *)a[2],
                                                       (float *)a[3], vkb_push_as<transfer_push>(p));
    return cudaGetLastError();
}

} // namespace

extern "C" const vkb_cuda_kernel vkb_cuda_kernels_transfer[] = {
    {"transfer_both", 0, {}, launch_transfer_both},
    {nullptr, 0, {}, nullptr},
};
