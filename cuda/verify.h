/* verify.h - the module's device-side comparison (verify.cu), for module.cu's compare(). */
#ifndef VKB_CUDA_VERIFY_H
#define VKB_CUDA_VERIFY_H

#include <cuda_runtime.h>
#include <stdint.h>

/* How many words differ, and the smallest index among them (~0: none). */
struct vkb_cuda_verdict {
    unsigned long long differing;
    unsigned long long first;
};

/* Compare the WORDS 4-byte words at A, bit for bit, with those at OTHER, or with WORD where OTHER is NULL, in
 * up to BLOCKS blocks on STREAM; the verdict is counted in V (device memory) and returned in OUT once the
 * stream is done. */
cudaError_t vkb_cuda_compare_words(const void *a, const void *other, uint32_t word, uint64_t words, int blocks,
                                   vkb_cuda_verdict *v, vkb_cuda_verdict *out, cudaStream_t stream);
/* The blocks that fill a device of SMS multiprocessors (a full grid for a GiB, in a grid-stride loop). */
int vkb_cuda_compare_blocks(int sms);

#endif
