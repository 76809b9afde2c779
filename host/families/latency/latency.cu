/* latency.cu - the CUDA twin of host/families/latency/: the counter kernel, one per row of latency/rows.h. */
#include "kernels.h"
#include "latency/rows.h"

namespace
{

__global__ void latency_count(unsigned *count)
{
    if (blockIdx.x * blockDim.x + threadIdx.x == 0)
        atomicAdd(count, LATENCY_INCREMENT);
}

cudaError_t launch_latency_count(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    latency_count<<<vkb_grid(p), vkb_block(p), 0, s>>>((unsigned *)a[0]);
    return cudaGetLastError();
}

} // namespace

#define CUDA_ROW(name, shader, param, flags, note) {#shader, 0, {}, launch_##shader},
extern "C" const vkb_cuda_kernel vkb_cuda_kernels_latency[] = {
    LATENCY_ROWS(CUDA_ROW){nullptr, 0, {}, nullptr},
};
