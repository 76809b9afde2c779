/* verify.cu - the runner's device-side comparison (the CUDA side of shaders/common/verify_compare.comp):
 * are two buffers, or a buffer and a word, equal bit for bit? Counted on the GPU so that an output of a GiB
 * is not read back over PCIe to be found identical (the poison and determinism checks). */
#include "verify.h"

namespace
{

constexpr int LOCAL = 256; /* threads per block */

/* Count the words of A that differ from OTHER's (from WORD where OTHER is NULL): the NQUADS first 16-byte
 * quads, then the WORDS - 4 * NQUADS words after them one at a time; fold the count and the smallest index
 * into V. Indices are 64-bit: an output may pass 2^32 words. */
__global__ void compare_words(const uint32_t *__restrict__ a, const uint32_t *__restrict__ other, uint32_t word,
                              uint64_t words, uint64_t nquads, vkb_cuda_verdict *v)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x, id = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint4 *a4 = reinterpret_cast<const uint4 *>(a), *o4 = reinterpret_cast<const uint4 *>(other);
    unsigned long long differing = 0, first = ~0ull;
    /* 16-byte loads where both are aligned (else the caller passes NQUADS 0): a word at a time does not
     * reach the bandwidth */
    for (uint64_t q = id; q < nquads; q += stride) {
        uint4 x = a4[q], y = other ? o4[q] : make_uint4(word, word, word, word);
        unsigned mask = (x.x != y.x) | (x.y != y.y) << 1 | (x.z != y.z) << 2 | (x.w != y.w) << 3;
        if (mask) {
            differing += (unsigned)__popc(mask);
            first = min(first, (unsigned long long)(4 * q + (unsigned)(__ffs((int)mask) - 1)));
        }
    }
    for (uint64_t i = 4 * nquads + id; i < words; i += stride)
        if (a[i] != (other ? other[i] : word)) {
            differing++;
            first = min(first, (unsigned long long)i);
        }
    if (differing) { /* atomics only where something differs: an equal word costs its reads alone */
        atomicAdd(&v->differing, differing);
        atomicMin(&v->first, first);
    }
}

} // namespace

cudaError_t vkb_cuda_compare_words(const void *a, const void *other, uint32_t word, uint64_t words, int blocks,
                                   vkb_cuda_verdict *v, vkb_cuda_verdict *out, cudaStream_t stream)
{
    bool aligned = ((uintptr_t)a | (uintptr_t)other) % 16 == 0;
    uint64_t nquads = aligned ? words / 4 : 0, tail = words - 4 * nquads;
    uint64_t threads = nquads > tail ? nquads : tail; /* a thread per quad, and the tail's first threads */
    cudaError_t e;
    *out = vkb_cuda_verdict{0, ~0ull};
    if (!words)
        return cudaSuccess;
    if ((uint64_t)blocks * LOCAL > threads) /* no more blocks than the work fills */
        blocks = (int)((threads + LOCAL - 1) / LOCAL);
    if ((e = cudaMemsetAsync(&v->differing, 0, sizeof v->differing, stream)) != cudaSuccess ||
        (e = cudaMemsetAsync(&v->first, 0xFF, sizeof v->first, stream)) != cudaSuccess)
        return e;
    compare_words<<<blocks, LOCAL, 0, stream>>>((const uint32_t *)a, (const uint32_t *)other, word, words, nquads, v);
    if ((e = cudaGetLastError()) != cudaSuccess ||
        (e = cudaMemcpyAsync(out, v, sizeof *out, cudaMemcpyDeviceToHost, stream)) != cudaSuccess)
        return e;
    return cudaStreamSynchronize(stream);
}

int vkb_cuda_compare_blocks(int sms)
{
    return sms * (2048 / LOCAL);
}
