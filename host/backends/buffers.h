/* buffers.h - Vulkan buffers: device-local storage, staging upload/download, fills. */
#ifndef VKB_BUFFERS_H
#define VKB_BUFFERS_H

#include "plan.h"
#include "vk.h"

struct vkb_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    uint64_t bytes;
};

/* A device-local storage buffer usable as copy source and destination, and as a uniform buffer with the
 * flag VKB_BUF_UNIFORM (FLAGS: VKB_BUF_*). Exits 4 when memory runs out. */
struct vkb_buffer *vkb_vk_buffer_create(vkb_vk *vk, uint64_t bytes, unsigned flags);
void vkb_vk_buffer_destroy(vkb_vk *vk, struct vkb_buffer *buf);
void vkb_vk_buffer_upload(vkb_vk *vk, struct vkb_buffer *buf, const void *src, uint64_t bytes);
void vkb_vk_buffer_download(vkb_vk *vk, struct vkb_buffer *buf, void *dst, uint64_t bytes);
/* Fill the whole buffer with the 32-bit WORD. */
void vkb_vk_buffer_fill(vkb_vk *vk, struct vkb_buffer *buf, uint32_t word);

#endif
