/* cache.h - the cache families' declarations, included by the host (host/families/cache/cache.c), the shaders
 * (host/families/cache/) and the CUDA twins (host/families/cache/cache.cu): push structs and knobs, written once. */
#ifndef VKB_CACHE_H
#define VKB_CACHE_H

#include "vkb_types.h"

/* cache.chase: one element of the chase every CACHE_CHASE_STRIDE words (64 bytes: a cache line on CPUs, two
 * 32-byte sectors on NVIDIA), its first word the word index of the next element */
#define CACHE_CHASE_STRIDE 16u

/* cache_chase: one invocation follows `hops` links from word at[0] (0 when that is not an index below `words`),
 * and leaves where it stopped in at[0]: the next run goes on from there, over the footprint's whole cycle */
struct cache_chase_push {
    VKB_U32 words;
    VKB_U32 hops;
};

/* cache_read: invocation t sums `loads` uvec4s of the footprint, from (t mod vec4s) in steps of `step` (the
 * dispatch's thread count modulo vec4s) wrapping at vec4s, and writes the sum of the four lanes to partial[t] */
struct cache_read_push {
    VKB_U32 vec4s;
    VKB_U32 loads;
    VKB_U32 step;
};

#ifndef VULKAN
typedef struct cache_chase_push cache_chase_push;
typedef struct cache_read_push cache_read_push;
#endif

#endif
