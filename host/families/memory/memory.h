/* memory.h - the memory families' declarations, included by the host (host/families/memory/memory.c), the shaders
 * (host/families/memory/ .comp files) and the CUDA twins (host/families/memory/memory.cu): push structs and the knobs the kernels
 * and the host's checks and predictions must agree on, written once. */
#ifndef VKB_MEMORY_H
#define VKB_MEMORY_H

#include "vkb_types.h"

/* mem_width, mem_offset, mem_stride, mem_aos, mem_soa: n elements (records); k the --offset in words
 * (mem_offset) or the --stride (mem_stride), else 0. */
struct mem_push {
    VKB_U32 n;
    VKB_U32 k;
};

/* mem_shared: thread t reads word ((t % mod) * mul) & MEM_SHARED_SPAN + ((trip << MEM_SHARED_TRIP_SHIFT) &
 * mask) + 32 u for u < MEM_UNROLL, iters trips; n threads write their sums. */
struct mem_push_shared {
    VKB_U32 n;
    VKB_U32 iters;
    VKB_U32 mul;
    VKB_U32 mod;
    VKB_U32 mask;
};

/* mem_uniform(_storage): invocation t reads word ((t * mul) & MEM_UNIFORM_SPREAD) + ((trip <<
 * MEM_UNIFORM_TRIP_SHIFT) & mask) + 32 u of the table; mul 0 (same) or 1 (divergent). */
struct mem_push_uniform {
    VKB_U32 n;
    VKB_U32 iters;
    VKB_U32 mul;
    VKB_U32 mask;
};

#ifndef VULKAN
typedef struct mem_push mem_push;
typedef struct mem_push_shared mem_push_shared;
typedef struct mem_push_uniform mem_push_uniform;
#endif

#define MEM_UNROLL 16u           /* loads per loop trip, 32 words apart (the same bank) */
#define MEM_SHARED_WORDS 4096u   /* mem_shared's shared array (16 KiB) */
#define MEM_SHARED_SPAN 1023u    /* a thread's base word within the first 1024 */
#define MEM_SHARED_TRIP_SHIFT 9  /* per-trip offset: multiples of 512 words */
#define MEM_UNIFORM_WORDS 1024u  /* mem_uniform's table (4 KiB) */
#define MEM_UNIFORM_SPREAD 127u  /* invocation t's own offset: t & 127, distinct across any subgroup (<= 128) */
#define MEM_UNIFORM_TRIP_SHIFT 7 /* per-trip offset: multiples of 128 words */
#define MEM_STRIDE_LOADS 8u      /* mem_stride: independent loads in flight per thread */

#endif
