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

} // namespace

extern "C" const vkb_cuda_kernel vkb_cuda_kernels_copy[] = {
    {"copy_vec4", 0, {}, vkb_launch_io<float, float, copy_vec4>},
    {nullptr, 0, {}, nullptr},
};
