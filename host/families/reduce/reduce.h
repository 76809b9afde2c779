/* reduce.h - the reduce family's declarations, included by the host (host/families/reduce/reduce.c), the shaders
 * (host/families/reduce/reduce.glsl) and the CUDA twins (host/families/reduce/reduce.cu). */
#ifndef VKB_REDUCE_H
#define VKB_REDUCE_H

#include "vkb_types.h"

/* n: elements in src; per: elements (or vec4s) each thread adds serially, where the grid rule sets it */
struct reduce_push {
    VKB_U32 n;
    VKB_U32 per;
};
#ifndef VULKAN
typedef struct reduce_push reduce_push;
#endif

/* The workgroup trees halve a power-of-two workgroup; the unrolled tree is written out up to this size. */
#define REDUCE_MAX_LOCAL 1024u

#endif
