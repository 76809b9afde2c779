/* cache.cu - the CUDA twins of host/families/cache/: same geometry, push words and footprints. */
#include "kernels.h"
#include "cache/rows.h"

namespace
{

/* plain loads, as the shader's: no __restrict__ or __ldg that would route the chase through another path */
__global__ void cache_chase(const unsigned *next, unsigned *at, cache_chase_push pc)
{
    if (blockIdx.x * blockDim.x + threadIdx.x != 0)
        return;
    unsigned j = at[0];
    if (j >= pc.words)
        j = 0;
    for (unsigned h = 0; h < pc.hops; h++)
        j = next[j];
    at[0] = j;
}

__global__ void cache_read(const uint4 *src, unsigned *partial, cache_read_push pc)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, i = t % pc.vec4s;
    uint4 acc = make_uint4(0, 0, 0, 0);
    for (unsigned k = 0; k < pc.loads; k++) {
        uint4 v = src[i];
        acc.x += v.x;
        acc.y += v.y;
        acc.z += v.z;
        acc.w += v.w;
        i += pc.step;
        if (i >= pc.vec4s)
            i -= pc.vec4s;
    }
    partial[t] = acc.x + acc.y + acc.z + acc.w;
}

} // namespace

#define LAUNCH_cache_chase vkb_launch_push<unsigned, unsigned, cache_chase_push, cache_chase>
#define LAUNCH_cache_read vkb_launch_push<uint4, unsigned, cache_read_push, cache_read>
#define CUDA_ROW(name, shader, note) {#shader, 0, {}, LAUNCH_##shader},
extern "C" const vkb_cuda_kernel vkb_cuda_kernels_cache[] = {
    CACHE_CHASE_ROWS(CUDA_ROW) CACHE_READ_ROWS(CUDA_ROW){nullptr, 0, {}, nullptr},
};
