/* matmul.h - the matmul family's declarations, included by the host (host/families/matmul/matmul.c), the shaders
 * (host/families/matmul/matmul_naive, _tiled, _block, _warptile, _coopmat .comp) and the CUDA twins (host/families/matmul/matmul.cu). */
#ifndef VKB_MATMUL_H
#define VKB_MATMUL_H

#include "vkb_types.h"

/* row-major C (m x n) = A (m x k) B (k x n) */
struct matmul_push {
    VKB_U32 m;
    VKB_U32 n;
    VKB_U32 k;
};
#ifndef VULKAN
typedef struct matmul_push matmul_push;
#endif

/* matmul_block's OPT constant: the later rungs of the ladder, switched on bit by bit */
#define MATMUL_OPT_WIDE 1u /* 16-byte global loads (rows a multiple of 4) and vec4 shared reads of B */
#define MATMUL_OPT_AT 2u   /* the A tile stored k-major (+4 pad): vec4, conflict-free A reads */
#define MATMUL_OPT_DB 4u   /* two shared stages: the next tile fetched during the math */

/* matmul_warptile's nominal warp: the invocations of one WM x WN warp tile, counted by gl_LocalInvocationID (a
 * performance choice, not a subgroup: the result is the same at any subgroup size) */
#define MATMUL_WARP 32u

#endif
