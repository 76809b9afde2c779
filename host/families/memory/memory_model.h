/* memory_model.h - the memory performance guide's rules as numbers, the predictions the memory families print beside
 * what they measure: bytes a half-warp's access moves (the coalescing protocol of compute capability 1.2+), the
 * conflict degree of a shared-memory request, and the efficiency of an access pattern. No device needed. */
#ifndef VKB_MEMORY_MODEL_H
#define VKB_MEMORY_MODEL_H

#include <stdint.h>

#define VKB_MM_HALF_WARP 16 /* the protocol serves 16 threads at a time */
#define VKB_MM_BANKS 32u    /* assumed on every device: 32 banks of 4 bytes (NVIDIA; AMD LDS too) */

/* Bytes moved for one instruction of COUNT (<= 16) threads reading WORD-byte words at byte addresses ADDR
 * (ACTIVE[t] nonzero where thread t accesses): take the segment (32 B for 1-byte words, 64 B for 2, 128 B
 * for 4, 8, 16) of the lowest unserved thread, serve every thread inside it, halve the transfer while only
 * one half is used (down to 32 B), repeat. */
uint64_t vkb_memory_model_transfer_bytes(const uint64_t *addr, const int *active, int count, unsigned word);

/* Access J of thread I of a kernel (J counts its loads, then its stores): its byte address, whether thread I
 * makes it, and the word size. Returns 0 when J is past the kernel's last access. */
typedef int (*vkb_memory_model_access)(const void *ctx, int j, uint64_t i, unsigned *word, uint64_t *addr, int *active);

/* Useful bytes over bytes moved for the accesses ACCESS describes, over the first HALF_WARPS half-warps:
 * the fraction of the copy ceiling a kernel should reach if the ceiling moves bytes at the same rate. NAN
 * when nothing moves. */
double vkb_memory_model_efficiency(vkb_memory_model_access access, const void *ctx, int half_warps);

/* Conflict degree of a shared request where thread t (of LANES, at most 32) reads word ((t % MOD) * MUL) &
 * 1023: the most distinct words one of VKB_MM_BANKS banks serves (a word read by several threads is
 * broadcast). 1 is conflict-free. */
unsigned vkb_memory_model_shared_degree(uint32_t mul, uint32_t mod, unsigned lanes);

#endif
