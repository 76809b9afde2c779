/* reduce.cu - the CUDA twins of host/families/reduce/: the same algorithms, grids and push words, and
 * cub::DeviceReduce::Sum as the ceiling. T is float, or unsigned for the int32 sum (wraps like GLSL int). */
#include <cub/device/device_reduce.cuh>

#include "kernels.h"
#include "reduce/rows.h"

namespace
{

template <typename T> struct vec4_of;
template <> struct vec4_of<float> {
    typedef float4 type;
};
template <> struct vec4_of<unsigned> {
    typedef uint4 type;
};

/* The workgroup's shared array, sized at launch (local * sizeof(T)): the twin of `shared T sh[L]`. */
template <typename T> __device__ T *shared_array()
{
    extern __shared__ __align__(16) unsigned char smem[];
    return reinterpret_cast<T *>(smem);
}

/* subgroupAdd over a full warp: a butterfly for float; redux.sync for unsigned. */
__device__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
__device__ unsigned warp_sum(unsigned v)
{
    return __reduce_add_sync(0xffffffffu, v);
}

/* reduce.glsl's tree_sequential: halve the active threads until KEEP sums are left. */
template <typename T> __device__ void tree_sequential(T *sh, unsigned t, unsigned keep)
{
    for (unsigned s = blockDim.x / 2u; s >= keep && s > 0u; s >>= 1) {
        if (t < s)
            sh[t] += sh[t + s];
        __syncthreads();
    }
}

/* subgroup_tail.glsl's tail_subgroup: warp 0 adds the last min(L, 32) sums. A warp of a block whose size is a
 * multiple of 32 is always full, so lane t exists and subgroup_sum_shared's dense numbering of the active
 * invocations is the lane index here (a Vulkan subgroup may run partly inactive: that shader cannot assume it). */
template <typename T> __device__ void tail_subgroup(const T *sh, T *dst, unsigned out, unsigned L)
{
    unsigned t = threadIdx.x;
    if (t < 32u) {
        T v = t < (L < 32u ? L : 32u) ? sh[t] : T(0);
        v = warp_sum(v);
        if (t == 0u)
            dst[out] = v;
    }
}

/* subgroup_tail.glsl's tree_unrolled: every step for the compile-time block size L, down to a warp. */
template <typename T, unsigned L> __device__ void tree_unrolled(T *sh, unsigned t)
{
#pragma unroll
    for (unsigned s = L / 2u; s >= 32u; s >>= 1) {
        if (t < s)
            sh[t] += sh[t + s];
        __syncthreads();
    }
}

/* The tree steps of the reduction ladder's first three kernels, one element per thread: interleaved addressing with the
 * active threads picked by t % (2s) (interleaved_divergent.comp), the same addressing with contiguous active
 * threads (interleaved_strided.comp), sequential addressing (sequential.comp). */
enum tree_kind { TREE_DIVERGENT, TREE_STRIDED, TREE_SEQUENTIAL };

template <typename T, tree_kind TREE> __device__ void tree_one_per_thread(T *sh, unsigned t, unsigned L)
{
    if constexpr (TREE == TREE_SEQUENTIAL) {
        tree_sequential(sh, t, 1u);
    } else {
        for (unsigned s = 1u; s < L; s *= 2u) {
            if constexpr (TREE == TREE_DIVERGENT) {
                if (t % (2u * s) == 0u)
                    sh[t] += sh[t + s];
            } else {
                unsigned k = 2u * s * t;
                if (k < L)
                    sh[k] += sh[k + s];
            }
            __syncthreads();
        }
    }
}

/* One block of L elements per block, a grid capped at the device limit looping over blocks. */
template <typename T, tree_kind TREE>
__global__ void one_per_thread(const T *__restrict__ src, T *__restrict__ dst, reduce_push pc)
{
    T *sh = shared_array<T>();
    unsigned t = threadIdx.x, L = blockDim.x, n = pc.n, blocks = (n + L - 1u) / L;
    for (unsigned b = blockIdx.x; b < blocks; b += gridDim.x) {
        unsigned i = b * L + t;
        sh[t] = i < n ? src[i] : T(0);
        __syncthreads();
        tree_one_per_thread<T, TREE>(sh, t, L);
        if (t == 0u)
            dst[b] = sh[0];
        __syncthreads(); /* sh is refilled for the next block */
    }
}

/* first_add, unroll_last_subgroup: two elements L apart per thread; KEEP 1 or a warp's worth left */
template <typename T, bool TAIL>
__global__ void first_add(const T *__restrict__ src, T *__restrict__ dst, reduce_push pc)
{
    T *sh = shared_array<T>();
    unsigned t = threadIdx.x, L = blockDim.x, n = pc.n, blocks = (n + 2u * L - 1u) / (2u * L);
    for (unsigned b = blockIdx.x; b < blocks; b += gridDim.x) {
        unsigned i = b * 2u * L + t;
        sh[t] = (i < n ? src[i] : T(0)) + (i + L < n ? src[i + L] : T(0));
        __syncthreads();
        if (TAIL) {
            tree_sequential(sh, t, 32u);
            tail_subgroup(sh, dst, b, L);
        } else {
            tree_sequential(sh, t, 1u);
            if (t == 0u)
                dst[b] = sh[0];
        }
        __syncthreads();
    }
}

template <typename T, unsigned L>
__global__ void unroll_complete(const T *__restrict__ src, T *__restrict__ dst, reduce_push pc)
{
    __shared__ T sh[L];
    unsigned t = threadIdx.x, n = pc.n, blocks = (n + 2u * L - 1u) / (2u * L);
    for (unsigned b = blockIdx.x; b < blocks; b += gridDim.x) {
        unsigned i = b * 2u * L + t;
        sh[t] = (i < n ? src[i] : T(0)) + (i + L < n ? src[i + L] : T(0));
        __syncthreads();
        tree_unrolled<T, L>(sh, t);
        tail_subgroup(sh, dst, b, L);
        __syncthreads();
    }
}

template <typename T, unsigned L>
__global__ void stride_global(const T *__restrict__ src, T *__restrict__ dst, reduce_push pc)
{
    __shared__ T sh[L];
    unsigned t = threadIdx.x, n = pc.n, threads = gridDim.x * L;
    T acc = T(0);
    for (unsigned i = blockIdx.x * L + t; i < n; i += threads)
        acc += src[i];
    sh[t] = acc;
    __syncthreads();
    tree_unrolled<T, L>(sh, t);
    tail_subgroup(sh, dst, blockIdx.x, L);
}

template <typename T, unsigned L>
__global__ void stride_local(const T *__restrict__ src, T *__restrict__ dst, reduce_push pc)
{
    __shared__ T sh[L];
    unsigned t = threadIdx.x, n = pc.n, per = pc.per;
    unsigned base = blockIdx.x * per * L, end = base + per * L < n ? base + per * L : n;
    T acc = T(0);
    for (unsigned i = base + t; i < end; i += L)
        acc += src[i];
    sh[t] = acc;
    __syncthreads();
    tree_unrolled<T, L>(sh, t);
    tail_subgroup(sh, dst, blockIdx.x, L);
}

/* vec4.comp and subgroup.comp's loads: grid-stride 16-byte loads into four sums, the n % 4 tail as scalars */
template <typename T> __device__ T load_vec4_sum(const T *__restrict__ src, unsigned n)
{
    typedef typename vec4_of<T>::type V;
    const V *src4 = reinterpret_cast<const V *>(src);
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x, nvec = n / 4u, threads = gridDim.x * blockDim.x;
    V a = {T(0), T(0), T(0), T(0)};
    for (unsigned i = gid; i < nvec; i += threads) {
        V x = src4[i];
        a.x += x.x;
        a.y += x.y;
        a.z += x.z;
        a.w += x.w;
    }
    T acc = (a.x + a.y) + (a.z + a.w);
    for (unsigned i = gid; i < (n & 3u); i += threads) /* a grid of 1 or 2 threads has a 3-element tail */
        acc += src[nvec * 4u + i];
    return acc;
}

template <typename T, unsigned L> __global__ void vec4(const T *__restrict__ src, T *__restrict__ dst, reduce_push pc)
{
    __shared__ T sh[L];
    unsigned t = threadIdx.x;
    sh[t] = load_vec4_sum(src, pc.n);
    __syncthreads();
    tree_unrolled<T, L>(sh, t);
    tail_subgroup(sh, dst, blockIdx.x, L);
}

/* subgroup_tail.glsl's workgroup_sum_subgroups: warp sums, one shared slot per warp, warp 0 (full, as in
 * tail_subgroup) adds the slots. Returns true in the thread that holds the block's SUM. */
template <typename T, unsigned L> __device__ bool block_sum_warps(T acc, T &sum)
{
    __shared__ T sh[L / 32u];
    unsigned lane = threadIdx.x % 32u, warp = threadIdx.x / 32u;
    acc = warp_sum(acc);
    if (lane == 0u)
        sh[warp] = acc;
    __syncthreads();
    sum = T(0);
    if (warp != 0u)
        return false;
    for (unsigned j = lane; j < L / 32u; j += 32u)
        sum += sh[j];
    sum = warp_sum(sum);
    return lane == 0u;
}

template <typename T, unsigned L>
__global__ void subgroup(const T *__restrict__ src, T *__restrict__ dst, reduce_push pc)
{
    T sum;
    if (block_sum_warps<T, L>(load_vec4_sum(src, pc.n), sum))
        dst[blockIdx.x] = sum;
}

template <typename T, unsigned L> __global__ void subgroup_atomic(const T *__restrict__ src, T *dst, reduce_push pc)
{
    T sum;
    if (block_sum_warps<T, L>(load_vec4_sum(src, pc.n), sum))
        atomicAdd(dst, sum);
}

/* reduce.glsl's sum_partials, the later passes' order: thread t adds src[base + t], src[base + t + L], ... below
 * END, then the sequential tree leaves the sum in sh[0]. P: a plain or a volatile pointer. */
template <typename T, typename P> __device__ void sum_partials(T *sh, P src, unsigned t, unsigned base, unsigned end)
{
    T acc = T(0);
    for (unsigned i = base + t; i < end; i += blockDim.x)
        acc += src[i];
    sh[t] = acc;
    __syncthreads();
    tree_sequential(sh, t, 1u);
}

template <typename T> __global__ void partials(const T *__restrict__ src, T *__restrict__ dst, reduce_push pc)
{
    T *sh = shared_array<T>();
    unsigned t = threadIdx.x, L = blockDim.x, n = pc.n, per = pc.per;
    unsigned base = blockIdx.x * per * L, end = base + per * L < n ? base + per * L : n;
    sum_partials(sh, src, t, base, end);
    if (t == 0u)
        dst[blockIdx.x] = sh[0];
}

/* subgroup_lastblock.comp: subgroup with the partials combined in the same dispatch by the last block to arrive,
 * in the second pass's order (the threadFenceReduction pattern): the fence orders the block's partial before its
 * count, and the last block's before its reads, which are volatile (past L1, which other SMs' writes miss). Its
 * shared array is the sequential tree's, sized at launch (L sums). */
template <typename T, unsigned L>
__global__ void subgroup_lastblock(const T *__restrict__ src, T *dst, reduce_push pc, T *partials, unsigned *arrived)
{
    __shared__ bool last;
    T sum;
    bool holds_sum = block_sum_warps<T, L>(load_vec4_sum(src, pc.n), sum);
    if (gridDim.x == 1u) { /* the whole sum is this block's (small n): no partial, no count */
        if (holds_sum)
            dst[0] = sum;
        return;
    }
    if (holds_sum) {
        partials[blockIdx.x] = sum;
        __threadfence();
        last = atomicAdd(arrived, 1u) == gridDim.x - 1u;
        if (last) {
            __threadfence();
            *arrived = 0u; /* every other block has counted: the next launch starts at 0 */
        }
    }
    __syncthreads();
    if (!last)
        return;
    sum_partials(shared_array<T>(), (const volatile T *)partials, threadIdx.x, 0u, gridDim.x);
    if (threadIdx.x == 0u)
        dst[0] = shared_array<T>()[0];
}

/* Kernels with a runtime block size: shared memory sized at launch. Warp-tail kernels need whole warps. */
#define LAUNCH_DYNAMIC(name, whole_warps, ...)                                                                         \
    template <typename T> cudaError_t launch_##name(const vkb_pass *p, void *const *a, cudaStream_t s)                 \
    {                                                                                                                  \
        if (whole_warps && p->local[0] % 32u)                                                                          \
            return cudaErrorInvalidConfiguration;                                                                      \
        __VA_ARGS__<<<vkb_grid(p), vkb_block(p), p->local[0] * sizeof(T), s>>>((const T *)a[0], (T *)a[1],             \
                                                                               vkb_push_as<reduce_push>(p));           \
        return cudaGetLastError();                                                                                     \
    }
LAUNCH_DYNAMIC(interleaved_divergent, false, one_per_thread<T, TREE_DIVERGENT>)
LAUNCH_DYNAMIC(interleaved_strided, false, one_per_thread<T, TREE_STRIDED>)
LAUNCH_DYNAMIC(sequential, false, one_per_thread<T, TREE_SEQUENTIAL>)
LAUNCH_DYNAMIC(first_add, false, first_add<T, false>)
LAUNCH_DYNAMIC(unroll_last_subgroup, true, first_add<T, true>)
LAUNCH_DYNAMIC(partials, false, partials<T>)

/* Kernels unrolled for the block size (the shader's specialization constant): one instance per size, with
 * SHARED bytes of dynamic shared memory and the arguments ARGS (of src, dst, pc and the bindings a[]). */
#define LAUNCH_BLOCK_ARGS(name, shared, args)                                                                          \
    template <typename T> cudaError_t launch_##name(const vkb_pass *p, void *const *a, cudaStream_t s)                 \
    {                                                                                                                  \
        const T *src = (const T *)a[0];                                                                                \
        T *dst = (T *)a[1];                                                                                            \
        reduce_push pc = vkb_push_as<reduce_push>(p);                                                                  \
        size_t bytes = (shared);                                                                                       \
        switch (p->local[0]) {                                                                                         \
        case 64: name<T, 64><<<vkb_grid(p), vkb_block(p), bytes, s>>> args; break;                                     \
        case 128: name<T, 128><<<vkb_grid(p), vkb_block(p), bytes, s>>> args; break;                                   \
        case 256: name<T, 256><<<vkb_grid(p), vkb_block(p), bytes, s>>> args; break;                                   \
        case 512: name<T, 512><<<vkb_grid(p), vkb_block(p), bytes, s>>> args; break;                                   \
        case 1024: name<T, 1024><<<vkb_grid(p), vkb_block(p), bytes, s>>> args; break;                                 \
        default: return cudaErrorInvalidConfiguration;                                                                 \
        }                                                                                                              \
        return cudaGetLastError();                                                                                     \
    }
#define LAUNCH_BLOCK(name) LAUNCH_BLOCK_ARGS(name, 0, (src, dst, pc))
LAUNCH_BLOCK(unroll_complete)
LAUNCH_BLOCK(stride_global)
LAUNCH_BLOCK(stride_local)
LAUNCH_BLOCK(vec4)
LAUNCH_BLOCK(subgroup)
LAUNCH_BLOCK(subgroup_atomic)
LAUNCH_BLOCK_ARGS(subgroup_lastblock, p->local[0] * sizeof(T), (src, dst, pc, (T *)a[2], (unsigned *)a[3]))

/* The ceiling: CUB's device-wide sum. Its temp storage is allocated on the first (untimed, checked)
 * run and kept for the process, so timed runs measure the reduction only. */
cudaError_t launch_cub_sum(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    static thread_local void *temp; /* per host thread: each GPU of --device LIST its own */
    static thread_local size_t temp_bytes;
    size_t need = 0;
    const float *src = (const float *)a[0];
    float *dst = (float *)a[1];
    int n = (int)vkb_push_as<reduce_push>(p).n;
    cudaError_t e = cub::DeviceReduce::Sum(nullptr, need, src, dst, n, s);
    if (e != cudaSuccess)
        return e;
    if (need > temp_bytes) {
        cudaFree(temp);
        temp = nullptr;
        temp_bytes = 0;
        if ((e = cudaMalloc(&temp, need)) != cudaSuccess)
            return e;
        temp_bytes = need;
    }
    return cub::DeviceReduce::Sum(temp, temp_bytes, src, dst, n, s);
}

} // namespace

#define TWINS(algo)                                                                                                    \
    {"reduce_" #algo "_f32", 0, {}, launch_##algo<float>},                                                             \
    {                                                                                                                  \
        "reduce_" #algo "_i32", 0, {}, launch_##algo<unsigned>                                                         \
    }

/* the rows of reduce/rows.h (rows sharing an algorithm list its twins again: the first match serves) */
#define CUDA_ROW(name, algo, param, needs, flags, note) TWINS(algo),
extern "C" const vkb_cuda_kernel vkb_cuda_kernels_reduce[] = {
    REDUCE_ROWS(CUDA_ROW) TWINS(partials),
    {"cub_sum", 0, {}, launch_cub_sum},
    {nullptr, 0, {}, nullptr},
};
