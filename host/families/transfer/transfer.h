/* transfer.h - the transfer family's declarations, included by the host (transfer.c), shader_both's shader
 * (transfer_both.comp) and its CUDA twin (transfer.cu): the push constants, written once. */
#ifndef VKB_TRANSFER_H
#define VKB_TRANSFER_H

#include "vkb_types.h"

/* transfer_both: n words each way */
struct transfer_push {
    VKB_U32 n;
};

#ifndef VULKAN
typedef struct transfer_push transfer_push;
#endif

#endif
