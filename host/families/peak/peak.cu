/* peak.cu - the CUDA twins of host/families/peak/peak_chain.comp: one kernel template over the chain's number type,
 * the same chains, inputs, push words and geometry (FFMA, HFMA2, DFMA, IMAD, IDP4A). */
#include <cuda_fp16.h>

#include "kernels.h"
#include "peak/rows.h"

namespace
{

/* Each number type: T the chain's register type, S its stored word(s), and one step (peak_chain.comp's STEP). */
struct op_f32 {
    using T = float;
    using S = float;
    static __device__ T load(S s)
    {
        return s;
    }
    static __device__ S store(T x)
    {
        return x;
    }
    static __device__ T step(T x, T, T b)
    {
        return __fmaf_rn(x, x, b);
    }
};

struct op_f32x4 {
    using T = float4;
    using S = float4;
    static __device__ T load(S s)
    {
        return s;
    }
    static __device__ S store(T x)
    {
        return x;
    }
    static __device__ T step(T x, T, T b)
    {
        return make_float4(__fmaf_rn(x.x, x.x, b.x), __fmaf_rn(x.y, x.y, b.y), __fmaf_rn(x.z, x.z, b.z),
                           __fmaf_rn(x.w, x.w, b.w));
    }
};

struct op_f16 { /* a half in the low 16 bits of a word */
    using T = __half;
    using S = unsigned;
    static __device__ T load(S s)
    {
        return __ushort_as_half((unsigned short)s);
    }
    static __device__ S store(T x)
    {
        return __half_as_ushort(x);
    }
    static __device__ T step(T x, T, T b)
    {
        return __hfma(x, x, b);
    }
};

struct op_f16x2 { /* two halves packed in a word, low first */
    using T = __half2;
    using S = unsigned;
    static __device__ T load(S s)
    {
        return __halves2half2(__ushort_as_half((unsigned short)s), __ushort_as_half((unsigned short)(s >> 16)));
    }
    static __device__ S store(T x)
    {
        return __half_as_ushort(__low2half(x)) | (unsigned)__half_as_ushort(__high2half(x)) << 16;
    }
    static __device__ T step(T x, T, T b)
    {
        return __hfma2(x, x, b);
    }
};

struct op_f64 {
    using T = double;
    using S = double;
    static __device__ T load(S s)
    {
        return s;
    }
    static __device__ S store(T x)
    {
        return x;
    }
    static __device__ T step(T x, T, T b)
    {
        return __fma_rn(x, x, b);
    }
};

struct op_i32 {
    using T = unsigned;
    using S = unsigned;
    static __device__ T load(S s)
    {
        return s;
    }
    static __device__ S store(T x)
    {
        return x;
    }
    static __device__ T step(T x, T a, T b)
    {
        return x * a + b;
    }
};

struct op_i16 { /* 16-bit wrap-around, stored in the low bits of a word */
    using T = unsigned short;
    using S = unsigned;
    static __device__ T load(S s)
    {
        return (T)s;
    }
    static __device__ S store(T x)
    {
        return x;
    }
    static __device__ T step(T x, T a, T b)
    {
        return (T)(x * a + b);
    }
};

struct op_dot { /* x + the dot product of x's and a's unsigned bytes */
    using T = unsigned;
    using S = unsigned;
    static __device__ T load(S s)
    {
        return s;
    }
    static __device__ S store(T x)
    {
        return x;
    }
    static __device__ T step(T x, T a, T)
    {
        return __dp4a(x, a, x);
    }
};

template <typename Op>
__device__ __forceinline__ void peak_chain(const typename Op::S *__restrict__ seeds, typename Op::S *__restrict__ dst,
                                           peak_push pc)
{
    unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= pc.n)
        return;
    unsigned base = id % pc.slots * PEAK_CHAINS * 3u;
    typename Op::T x[PEAK_CHAINS], a[PEAK_CHAINS], b[PEAK_CHAINS];
#pragma unroll
    for (unsigned j = 0; j < PEAK_CHAINS; j++) {
        x[j] = Op::load(seeds[base + 3u * j]);
        a[j] = Op::load(seeds[base + 3u * j + 1u]);
        b[j] = Op::load(seeds[base + 3u * j + 2u]);
    }
    for (unsigned t = 0; t < pc.trips; t++) {
#pragma unroll
        for (unsigned u = 0; u < PEAK_UNROLL; u++)
#pragma unroll
            for (unsigned j = 0; j < PEAK_CHAINS; j++)
                x[j] = Op::step(x[j], a[j], b[j]);
    }
#pragma unroll
    for (unsigned j = 0; j < PEAK_CHAINS; j++)
        dst[id * PEAK_CHAINS + j] = Op::store(x[j]);
}

/* the row's shader name -> its number type */
using op_peak_fma_f32 = op_f32;
using op_peak_fma_f32x4 = op_f32x4;
using op_peak_fma_f16 = op_f16;
using op_peak_fma_f16x2 = op_f16x2;
using op_peak_fma_f64 = op_f64;
using op_peak_mad_i32 = op_i32;
using op_peak_mad_i16 = op_i16;
using op_peak_dot_u8x4 = op_dot;

/* each row's kernel named as its shader (--sass pairs them by name), the template's instance inside */
#define KERNEL(name, shader, type, ops, needs, flags, note)                                                            \
    __global__ void shader(const op_##shader::S *__restrict__ seeds, op_##shader::S *__restrict__ dst, peak_push pc)   \
    {                                                                                                                  \
        peak_chain<op_##shader>(seeds, dst, pc);                                                                       \
    }
PEAK_ROWS(KERNEL)

} // namespace

#define CUDA_ROW(name, shader, type, ops, needs, flags, note)                                                          \
    {#shader, 0, {}, vkb_launch_push<op_##shader::S, op_##shader::S, peak_push, shader>},
extern "C" const vkb_cuda_kernel vkb_cuda_kernels_peak[] = {
    PEAK_ROWS(CUDA_ROW){nullptr, 0, {}, nullptr},
};
