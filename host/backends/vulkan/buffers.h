/* buffers.h - Vulkan buffers: device-local storage, staging upload/download, fills. */
#ifndef VKB_BUFFERS_H
#define VKB_BUFFERS_H

#include "plan.h"
#include "vk.h"

struct vkb_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    uint64_t bytes;
    uint64_t offset; /* where the buffer's range starts in BUFFER: after the guard band before it */
    uint32_t guard;  /* its guard word: VKB_GUARD_WORD varied per buffer, so bytes copied from another
                        * buffer's band do not match */
    uint8_t *map;    /* the allocation as the host sees it (host-visible placements, VKB_BUF_HOST_*,
                        * VKB_BUF_DEVICE_MAPPED), else NULL; a pageable buffer is this alone (BUFFER null) */
    uint32_t type;   /* the memory type and heap it was allocated from (UINT32_MAX: pageable host memory) */
    unsigned flags;  /* VKB_BUF_* */
};

/* A device-local storage buffer usable as copy source and destination, and as a uniform buffer with the
 * flag VKB_BUF_UNIFORM (FLAGS: VKB_BUF_*), its range of BYTES between two guard bands of VKB_GUARD_BYTES
 * filled with VKB_GUARD_WORD (guard.h): descriptors bind offset..offset+bytes (rounded up to 16), so a
 * kernel writing outside its range changes a guard. NULL when memory runs out (recorded in the error: 4). */
struct vkb_buffer *vkb_vk_buffer_create(vkb_vk *vk, uint64_t bytes, unsigned flags);
/* 0 when a buffer of BYTES with placement FLAGS (VKB_BUF_PLACEMENT bits) can be made on this device, else 1
 * and WHY (no device-local host-visible type, or its heap too small: no resizable BAR). */
int vkb_vk_placement_check(vkb_vk *vk, uint64_t bytes, unsigned flags, char *why, size_t len);
/* "heap 1 (251 GiB) type 2: host-visible coherent cached" for BUF, into TEXT. */
const char *vkb_vk_buffer_describe(vkb_vk *vk, const struct vkb_buffer *buf, char *text, size_t len);
/* The host copy of a VKB_PASS_HOST_COPY: BYTES from SRC's range to DST's (SHIFT bytes into it: the oob-write
 * fault), both mapped, on the worker threads. */
void vkb_vk_buffer_host_copy(struct vkb_buffer *src, struct vkb_buffer *dst, uint64_t shift, uint64_t bytes);
void vkb_vk_buffer_destroy(vkb_vk *vk, struct vkb_buffer *buf);
void vkb_vk_buffer_upload(vkb_vk *vk, struct vkb_buffer *buf, const void *src, uint64_t bytes);
void vkb_vk_buffer_download(vkb_vk *vk, struct vkb_buffer *buf, void *dst, uint64_t bytes);
/* Copy BYTES from SRC to DST on the device (each at its offset in its allocation); returns when done. */
void vkb_vk_buffer_copy(vkb_vk *vk, struct vkb_buffer *src, struct vkb_buffer *dst, uint64_t bytes);
/* Free the staging buffer that uploads and downloads keep between calls (before the device goes). */
void vkb_vk_staging_release(vkb_vk *vk);
/* Fill the buffer's range (rounded up to 4 bytes) with the 32-bit WORD; the guards stay. */
void vkb_vk_buffer_fill(vkb_vk *vk, struct vkb_buffer *buf, uint32_t word);
/* Read the guard bands: VKB_GUARD_BYTES before the range into BEFORE, as many after its 4-byte-rounded
 * end into AFTER, each word translated from the buffer's own guard word to VKB_GUARD_WORD. */
void vkb_vk_buffer_read_guards(vkb_vk *vk, struct vkb_buffer *buf, void *before, void *after);

#endif
