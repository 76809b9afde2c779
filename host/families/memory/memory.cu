/* memory.cu - the CUDA twins of host/families/memory/: same geometry, push words and constants. */
#include "kernels.h"
#include "memory/rows.h"

namespace
{

/* mem_uniform's table in constant memory: upload_mem_uniform copies the plan's uniform buffer here */
__constant__ unsigned uniform_table[MEM_UNIFORM_WORDS];

template <int WORDS> struct vec_of;
template <> struct vec_of<1> {
    using type = float;
};
template <> struct vec_of<2> {
    using type = float2;
};
template <> struct vec_of<4> {
    using type = float4;
};

__device__ unsigned grid_threads()
{
    return gridDim.x * blockDim.x;
}
__device__ unsigned global_id()
{
    return blockIdx.x * blockDim.x + threadIdx.x;
}

template <int WORDS> __global__ void mem_width(const float *__restrict__ src, float *__restrict__ dst, mem_push pc)
{
    using T = typename vec_of<WORDS>::type;
    unsigned n = pc.n, nel = n / WORDS, id = global_id();
    const T *s = reinterpret_cast<const T *>(src);
    T *d = reinterpret_cast<T *>(dst);
    for (unsigned i = id; i < nel; i += grid_threads())
        d[i] = s[i];
    if (id < n - nel * WORDS)
        dst[nel * WORDS + id] = src[nel * WORDS + id];
}

__global__ void mem_offset(const float *__restrict__ src, float *__restrict__ dst, mem_push pc)
{
    for (unsigned i = global_id(); i < pc.n; i += grid_threads())
        dst[i] = src[i + pc.k];
}

/* MEM_STRIDE_LOADS independent loads in flight per thread, the tail as one trip of guarded loads (see
 * mem_stride.comp) */
__global__ void mem_stride(const unsigned *__restrict__ src, unsigned *__restrict__ partial, mem_push pc)
{
    unsigned id = global_id(), g = grid_threads(), n = pc.n, s = pc.k, m = 0, j = id, sum = 0;
    unsigned count = id < n ? (n - 1 - id) / g + 1 : 0;
    unsigned acc[MEM_STRIDE_LOADS];
#pragma unroll
    for (unsigned u = 0; u < MEM_STRIDE_LOADS; u++)
        acc[u] = 0;
    for (; m + MEM_STRIDE_LOADS <= count; m += MEM_STRIDE_LOADS, j += MEM_STRIDE_LOADS * g) {
#pragma unroll
        for (unsigned u = 0; u < MEM_STRIDE_LOADS; u++)
            acc[u] += src[(j + u * g) * s];
    }
#pragma unroll
    for (unsigned u = 0; u < MEM_STRIDE_LOADS; u++) {
        if (m + u < count)
            acc[u] += src[(j + u * g) * s];
        sum += acc[u];
    }
    partial[id] = sum;
}

template <int FIELDS, int REC>
__global__ void mem_aos(const float *__restrict__ src, float *__restrict__ dst, mem_push pc)
{
    for (unsigned i = global_id(); i < pc.n; i += grid_threads()) {
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

template <int FIELDS> __global__ void mem_soa(const float *__restrict__ src, float *__restrict__ dst, mem_push pc)
{
    unsigned n = pc.n;
    for (unsigned i = global_id(); i < n; i += grid_threads())
        for (unsigned f = 0; f < FIELDS; f++)
            dst[f * n + i] = src[f * n + i];
}

/* see mem_shared.comp */
__global__ void mem_shared(const unsigned *__restrict__ src, unsigned *__restrict__ dst, mem_push_shared pc)
{
    __shared__ unsigned words[MEM_SHARED_WORDS];
    unsigned t = threadIdx.x, acc = 0;
    for (unsigned x = t; x < MEM_SHARED_WORDS; x += blockDim.x)
        words[x] = src[x];
    __syncthreads();
    unsigned base = ((t % pc.mod) * pc.mul) & MEM_SHARED_SPAN;
    for (unsigned it = 0; it < pc.iters; it++) {
        unsigned a = base + ((it << MEM_SHARED_TRIP_SHIFT) & pc.mask);
#pragma unroll
        for (unsigned u = 0; u < MEM_UNROLL; u++)
            acc += words[a + 32u * u];
    }
    if (global_id() < pc.n)
        dst[global_id()] = acc;
}

/* see mem_uniform.comp. CONSTANT: the table from __constant__ memory (the
 * uniform buffer of the Vulkan shader), else from global memory (its storage buffer). */
template <bool CONSTANT>
__global__ void mem_uniform(const unsigned *__restrict__ table, unsigned *__restrict__ dst, mem_push_uniform pc)
{
    unsigned t = threadIdx.x, acc = 0;
    unsigned base = (t * pc.mul) & MEM_UNIFORM_SPREAD;
    for (unsigned it = 0; it < pc.iters; it++) {
        unsigned a = base + ((it << MEM_UNIFORM_TRIP_SHIFT) & pc.mask);
#pragma unroll
        for (unsigned u = 0; u < MEM_UNROLL; u++)
            acc += CONSTANT ? uniform_table[a + 32u * u] : table[a + 32u * u];
    }
    if (global_id() < pc.n)
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

/* The launch table, one entry per row of memory/rows.h: the twin of each row's shader. mem_width's WORDS follows
 * --width, so its rows get a twin per width of MEM_WIDTH_WORDS. */
#define CUDA_ROW(name, shader, param, flags, note, ceiling) CUDA_##shader
#define CUDA_WIDTH(words) {"mem_width", 1, {words}, vkb_launch_push<float, float, mem_push, mem_width<words>>},
#define CUDA_mem_width MEM_WIDTH_WORDS(CUDA_WIDTH)
#define CUDA_mem_offset {"mem_offset", 0, {}, vkb_launch_push<float, float, mem_push, mem_offset>},
#define CUDA_mem_stride {"mem_stride", 0, {}, vkb_launch_push<unsigned, unsigned, mem_push, mem_stride>},
#define CUDA_mem_shared {"mem_shared", 0, {}, vkb_launch_push<unsigned, unsigned, mem_push_shared, mem_shared>},
#define CUDA_mem_uniform                                                                                               \
    {"mem_uniform",                                                                                                    \
     0,                                                                                                                \
     {},                                                                                                               \
     vkb_launch_push<unsigned, unsigned, mem_push_uniform, mem_uniform<true>>,                                         \
     upload_mem_uniform},
#define CUDA_mem_uniform_storage                                                                                       \
    {"mem_uniform_storage", 0, {}, vkb_launch_push<unsigned, unsigned, mem_push_uniform, mem_uniform<false>>},
/* memory.aos_soa: the template each layout shader's constants instantiate */
#define INSTANCE_mem_aos(fields, rec) mem_aos<fields, rec>
#define INSTANCE_mem_soa(fields, rec) mem_soa<fields>
#define CUDA_LAYOUT_ROW(name, shader, fields, rec, note)                                                               \
    {#shader,                                                                                                          \
     MEM_NSPEC_##shader,                                                                                               \
     {fields, rec},                                                                                                    \
     vkb_launch_push<float, float, mem_push, INSTANCE_##shader(fields, rec)>},
extern "C" const vkb_cuda_kernel vkb_cuda_kernels_memory[] = {
    MEM_WIDTH_ROWS(CUDA_ROW) MEM_OFFSET_ROWS(CUDA_ROW) MEM_STRIDE_ROWS(CUDA_ROW) MEM_LAYOUT_ROWS(CUDA_LAYOUT_ROW)
        MEM_SHARED_ROWS(CUDA_ROW) MEM_BROADCAST_ROWS(CUDA_ROW) MEM_UNIFORM_ROWS(CUDA_ROW){nullptr, 0, {}, nullptr},
};
