/* memory.cu - the CUDA twins of shaders/memory/: same geometry, push words and constants. */
#include "kernels.h"

namespace {

constexpr unsigned kSharedWords = 4096, kUnroll = 16;
constexpr unsigned kStrideLoads = 8;        /* mem_stride: loads in flight per thread (LOADS) */
constexpr unsigned kUniformWords = 1024;    /* mem_uniform: the table (WORDS), 4 KiB */

/* mem_uniform's table in constant memory: upload_mem_uniform copies the plan's uniform buffer here */
__constant__ unsigned uniform_table[kUniformWords];

template <int WORDS> struct vec_of;
template <> struct vec_of<1> { using type = float; };
template <> struct vec_of<2> { using type = float2; };
template <> struct vec_of<4> { using type = float4; };

__device__ unsigned grid_threads() { return gridDim.x * blockDim.x; }
__device__ unsigned global_id() { return blockIdx.x * blockDim.x + threadIdx.x; }

template <int WORDS>
__global__ void mem_width(const float *__restrict__ src, float *__restrict__ dst, vkb_push pc)
{
    using T = typename vec_of<WORDS>::type;
    unsigned n = pc.u[0], nel = n / WORDS, id = global_id();
    const T *s = reinterpret_cast<const T *>(src);
    T *d = reinterpret_cast<T *>(dst);
    for (unsigned i = id; i < nel; i += grid_threads())
        d[i] = s[i];
    if (id < n - nel * WORDS)
        dst[nel * WORDS + id] = src[nel * WORDS + id];
}

__global__ void mem_offset(const float *__restrict__ src, float *__restrict__ dst, vkb_push pc)
{
    for (unsigned i = global_id(); i < pc.u[0]; i += grid_threads())
        dst[i] = src[i + pc.u[1]];
}

/* kStrideLoads independent loads in flight per thread, the tail as one trip of guarded loads (see
 * mem_stride.comp) */
__global__ void mem_stride(const unsigned *__restrict__ src, unsigned *__restrict__ partial, vkb_push pc)
{
    unsigned id = global_id(), g = grid_threads(), n = pc.u[0], s = pc.u[1], m = 0, j = id, sum = 0;
    unsigned count = id < n ? (n - 1 - id) / g + 1 : 0;
    unsigned acc[kStrideLoads];
#pragma unroll
    for (unsigned u = 0; u < kStrideLoads; u++)
        acc[u] = 0;
    for (; m + kStrideLoads <= count; m += kStrideLoads, j += kStrideLoads * g) {
#pragma unroll
        for (unsigned u = 0; u < kStrideLoads; u++)
            acc[u] += src[(j + u * g) * s];
    }
#pragma unroll
    for (unsigned u = 0; u < kStrideLoads; u++) {
        if (m + u < count)
            acc[u] += src[(j + u * g) * s];
        sum += acc[u];
    }
    partial[id] = sum;
}

template <int FIELDS, int REC>
__global__ void mem_aos(const float *__restrict__ src, float *__restrict__ dst, vkb_push pc)
{
    for (unsigned i = global_id(); i < pc.u[0]; i += grid_threads()) {
        if constexpr (REC % 4 == 0) {
            const float4 *s = reinterpret_cast<const float4 *>(src);
            float4 *d = reinterpret_cast<float4 *>(dst);
            for (unsigned q = 0; q < REC / 4; q++)
                d[i * (REC / 4) + q] = s[i * (REC / 4) + q];
        } else {
            for (unsigned f = 0; f < FIELDS; f++)
                dst[i * REC + f] = src[i * REC + f];
        }
    }
}

template <int FIELDS>
__global__ void mem_soa(const float *__restrict__ src, float *__restrict__ dst, vkb_push pc)
{
    unsigned n = pc.u[0];
    for (unsigned i = global_id(); i < n; i += grid_threads())
        for (unsigned f = 0; f < FIELDS; f++)
            dst[f * n + i] = src[f * n + i];
}

/* push: n, iters, mul, mod, mask (see mem_shared.comp) */
__global__ void mem_shared(const unsigned *__restrict__ src, unsigned *__restrict__ dst, vkb_push pc)
{
    __shared__ unsigned words[kSharedWords];
    unsigned t = threadIdx.x, acc = 0;
    for (unsigned x = t; x < kSharedWords; x += blockDim.x)
        words[x] = src[x];
    __syncthreads();
    unsigned base = ((t % pc.u[3]) * pc.u[2]) & 1023u;
    for (unsigned it = 0; it < pc.u[1]; it++) {
        unsigned a = base + ((it << 9) & pc.u[4]);
#pragma unroll
        for (unsigned u = 0; u < kUnroll; u++)
            acc += words[a + 32u * u];
    }
    if (global_id() < pc.u[0])
        dst[global_id()] = acc;
}

/* push: n, iters, mul, mask (see mem_uniform.comp). CONSTANT: the table from __constant__ memory (the
 * uniform buffer of the Vulkan shader), else from global memory (its storage buffer). */
template <bool CONSTANT>
__global__ void mem_uniform(const unsigned *__restrict__ table, unsigned *__restrict__ dst, vkb_push pc)
{
    unsigned t = threadIdx.x, acc = 0;
    unsigned base = (t * pc.u[2]) & 127u;
    for (unsigned it = 0; it < pc.u[1]; it++) {
        unsigned a = base + ((it << 7) & pc.u[3]);
#pragma unroll
        for (unsigned u = 0; u < kUnroll; u++)
            acc += CONSTANT ? uniform_table[a + 32u * u] : table[a + 32u * u];
    }
    if (global_id() < pc.u[0])
        dst[global_id()] = acc;
}

/* mem_uniform reads binding 0 from uniform_table: copy it there (device to device, on the stream) */
cudaError_t upload_mem_uniform(const vkb_pass *, int binding, const void *src, uint64_t bytes, cudaStream_t s)
{
    if (binding != 0 || bytes > sizeof uniform_table)
        return cudaErrorInvalidValue;
    return cudaMemcpyToSymbolAsync(uniform_table, src, bytes, 0, cudaMemcpyDeviceToDevice, s);
}

} // namespace

extern "C" const vkb_cuda_kernel vkb_cuda_kernels_memory[] = {
    {"mem_width", 1, {1}, vkb_launch_io<float, float, mem_width<1>>},
    {"mem_width", 1, {2}, vkb_launch_io<float, float, mem_width<2>>},
    {"mem_width", 1, {4}, vkb_launch_io<float, float, mem_width<4>>},
    {"mem_offset", 0, {}, vkb_launch_io<float, float, mem_offset>},
    {"mem_stride", 0, {}, vkb_launch_io<unsigned, unsigned, mem_stride>},
    {"mem_aos", 2, {3, 3}, vkb_launch_io<float, float, mem_aos<3, 3>>},
    {"mem_aos", 2, {3, 4}, vkb_launch_io<float, float, mem_aos<3, 4>>},
    {"mem_aos", 2, {5, 5}, vkb_launch_io<float, float, mem_aos<5, 5>>},
    {"mem_aos", 2, {5, 8}, vkb_launch_io<float, float, mem_aos<5, 8>>},
    {"mem_soa", 1, {3}, vkb_launch_io<float, float, mem_soa<3>>},
    {"mem_soa", 1, {5}, vkb_launch_io<float, float, mem_soa<5>>},
    {"mem_shared", 0, {}, vkb_launch_io<unsigned, unsigned, mem_shared>},
    {"mem_uniform", 0, {}, vkb_launch_io<unsigned, unsigned, mem_uniform<true>>, upload_mem_uniform},
    {"mem_uniform_storage", 0, {}, vkb_launch_io<unsigned, unsigned, mem_uniform<false>>},
    {nullptr, 0, {}, nullptr},
};
