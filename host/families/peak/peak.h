/* peak.h - the peak family's declarations, included by the host (host/families/peak/peak.c), the shader
 * (host/families/peak/peak_chain.comp) and the CUDA twins (host/families/peak/peak.cu): the push struct and the chain's shape. */
#ifndef VKB_PEAK_H
#define VKB_PEAK_H

#include "vkb_types.h"

/* n invocations; each runs PEAK_CHAINS chains of trips * PEAK_UNROLL steps from the inputs of slot
 * (invocation % slots) and writes the chains' final values at [invocation * PEAK_CHAINS + chain]. */
struct peak_push {
    VKB_U32 n;
    VKB_U32 trips;
    VKB_U32 slots;
};

#ifndef VULKAN
typedef struct peak_push peak_push;
#endif

/* 8 independent chains per invocation hide the FMA pipe's latency (4 cycles on NVIDIA, one instruction of
 * each chain in flight per warp); 32 steps per trip make the loop's own instructions (add, compare, branch)
 * 3 of 259 issued (8 steps: 3 of 67, and the H100's Vulkan fp32 FMA stayed at 88% of the theoretical rate) */
#define PEAK_CHAINS 8u
#define PEAK_UNROLL 32u
#define PEAK_LOCAL 256u
/* peak_coopmat: accumulators per subgroup (its FOR_CHAINS lists 8), input slots at most */
#define PEAK_CM_CHAINS 8u
#define PEAK_CM_MAX_SLOTS 32u
/* fragments up to M, N <= 32 and K <= 64; the operand buffer holds every slot's A (slot s at s M K elements),
 * then from PEAK_CM_B_OFFSET every slot's B (at s K N) */
#define PEAK_CM_MAX_MN 32u
#define PEAK_CM_MAX_K 64u
#define PEAK_CM_B_OFFSET (PEAK_CM_MAX_SLOTS * PEAK_CM_MAX_MN * PEAK_CM_MAX_K)

/* Distinct input slots at most: the host emulates slots x PEAK_CHAINS chains whatever n is */
#define PEAK_MAX_SLOTS 256u

#endif
