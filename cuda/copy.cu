/* copy.cu - the CUDA twin of shaders/copy/copy_vec4.comp: same geometry, same tail rule. */
#include "kernels.h"

namespace {

__global__ void copy_vec4(const float *__restrict__ src, float *__restrict__ dst, vkb_push pc)
{
    unsigned n = pc.u[0], nvec = n / 4u;
    unsigned stride = gridDim.x * blockDim.x, id = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 *s4 = reinterpret_cast<const float4 *>(src);
    float4 *d4 = reinterpret_cast<float4 *>(dst);
    for (unsigned i = id; i < nvec; i += stride)
        d4[i] = s4[i];
    if (id < (n & 3u))
        dst[nvec * 4u + id] = src[nvec * 4u + id];
}

cudaError_t launch_copy_vec4(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    copy_vec4<<<vkb_grid(p), vkb_block(p), 0, s>>>((const float *)a[0], (float *)a[1], vkb_push_of(p));
    return cudaGetLastError();
}

} // namespace

extern "C" const vkb_cuda_kernel vkb_cuda_kernels_copy[] = {
    {"copy_vec4", 0, {}, launch_copy_vec4},
    {nullptr, 0, {}, nullptr},
};
