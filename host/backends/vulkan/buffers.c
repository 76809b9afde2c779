/* buffers.c - Vulkan buffers: device-local storage (and uniform), staging upload/download, fills. */
#include "buffers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "parallel.h"

#define STAGING_CHUNK                                                                                                  \
    (32ull << 20) /* a half of the staging buffer: bounded host-visible memory, whatever the
                                     * buffer size */
#define STAGING_MIN (1ull << 20)

/* UINT32_MAX when no type fits (recorded as an error: a driver that lists no memory for a buffer it made) */
static uint32_t memory_type(vkb_vk *vk, uint32_t bits, VkMemoryPropertyFlags want, VkMemoryPropertyFlags fallback)
{
    for (int pass = 0; pass < 2; pass++) {
        VkMemoryPropertyFlags flags = pass ? fallback : want;
        for (uint32_t i = 0; i < vk->mem.memoryTypeCount; i++)
            if ((bits & (1u << i)) && (vk->mem.memoryTypes[i].propertyFlags & flags) == flags)
                return i;
    }
    vkb_backend_fail(vk->error, VKB_EXIT_API, "no Vulkan memory type fits a buffer (flags 0x%x)", (unsigned)want);
    return UINT32_MAX;
}

static struct vkb_buffer *buffer_create_shared(vkb_vk *vk, uint64_t bytes, VkBufferUsageFlags usage,
                                               VkMemoryPropertyFlags want, VkMemoryPropertyFlags fallback, int shared);

static struct vkb_buffer *buffer_create(vkb_vk *vk, uint64_t bytes, VkBufferUsageFlags usage,
                                        VkMemoryPropertyFlags want, VkMemoryPropertyFlags fallback)
{
    return buffer_create_shared(vk, bytes, usage, want, fallback, 0);
}

/* SHARED: concurrent between the compute queue's family and the transfer queue's. NULL when it cannot be made
 * (recorded: out of memory is VKB_EXIT_RESOURCE, "try a smaller size"). */
static struct vkb_buffer *buffer_create_shared(vkb_vk *vk, uint64_t bytes, VkBufferUsageFlags usage,
                                               VkMemoryPropertyFlags want, VkMemoryPropertyFlags fallback, int shared)
{
    uint32_t families[2] = {vk->queue_family, vk->xfer_family};
    struct vkb_buffer *b = vkb_calloc(1, sizeof *b);
    VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    VkMemoryRequirements req;
    VkResult r;
    char sz[32];

    /* round up to 16 bytes so vec4 views of a buffer are always valid */
    bci.size = (bytes + 15) & ~15ull;
    bci.usage = usage;
    bci.sharingMode = shared ? VK_SHARING_MODE_CONCURRENT : VK_SHARING_MODE_EXCLUSIVE;
    bci.queueFamilyIndexCount = shared ? 2 : 0;
    bci.pQueueFamilyIndices = shared ? families : NULL;
    r = vkCreateBuffer(vk->device, &bci, NULL, &b->buffer);
    if (r != VK_SUCCESS) {
        vkb_backend_fail(vk->error, VKB_EXIT_RESOURCE, "cannot create a Vulkan buffer of %s (%s); try a smaller size",
                         vkb_fmt_bytes(bytes, sz, sizeof sz), vkb_vk_result_text(r));
        free(b);
        return NULL;
    }
    vkGetBufferMemoryRequirements(vk->device, b->buffer, &req);
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = memory_type(vk, req.memoryTypeBits, want, fallback);
    r = mai.memoryTypeIndex == UINT32_MAX ? VK_ERROR_UNKNOWN : vkAllocateMemory(vk->device, &mai, NULL, &b->memory);
    if (r != VK_SUCCESS)
        vkb_backend_fail(vk->error, VKB_EXIT_RESOURCE, "out of device memory allocating %s (%s); try a smaller size",
                         vkb_fmt_bytes(bytes, sz, sizeof sz), vkb_vk_result_text(r));
    if (r != VK_SUCCESS || !VKB_OK(vk, vkBindBufferMemory(vk->device, b->buffer, b->memory, 0))) {
        b->type = 0;
        vkb_vk_buffer_destroy(vk, b);
        return NULL;
    }
    b->bytes = bytes;
    b->type = mai.memoryTypeIndex;
    return b;
}

typedef struct fill_job {
    VkBuffer buffer;
    VkDeviceSize offset, size;
    uint32_t word;
} fill_job;

static void record_fill(vkb_vk *vk, VkCommandBuffer cmd, void *user)
{
    fill_job *j = user;
    (void)vk;
    vkCmdFillBuffer(cmd, j->buffer, j->offset, j->size, j->word);
    vkb_vk_barrier(cmd);
}

#define HOST_BITS (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)

/* The memory type of a placement (VKB_BUF_PLACEMENT bits of FLAGS) among BITS, or -1: staging prefers system
 * memory (a host-visible type that is not device-local, cached where one is; a CPU implementation has only
 * device-local types), a mapped device buffer needs a device-local host-visible type. */
static int placement_type(vkb_vk *vk, uint32_t bits, unsigned flags)
{
    static const VkMemoryPropertyFlags staging[][2] = {
        /* {want, avoid}, best first */
        {HOST_BITS | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT},
        {HOST_BITS, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT},
        {HOST_BITS, 0},
    };
    static const VkMemoryPropertyFlags mapped[][2] = {{HOST_BITS | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0}};
    int staged = (flags & VKB_BUF_HOST_STAGING) != 0;
    int n = staged ? (int)VKB_COUNT(staging) : 1;
    for (int k = 0; k < n; k++) {
        VkMemoryPropertyFlags want = staged ? staging[k][0] : mapped[k][0], avoid = staged ? staging[k][1] : 0;
        for (uint32_t i = 0; i < vk->mem.memoryTypeCount; i++) {
            VkMemoryPropertyFlags f = vk->mem.memoryTypes[i].propertyFlags;
            if ((bits & (1u << i)) && (f & want) == want && !(f & avoid))
                return (int)i;
        }
    }
    return -1;
}

int vkb_vk_placement_check(vkb_vk *vk, uint64_t bytes, unsigned flags, char *why, size_t len)
{
    uint64_t total = VKB_GUARD_BYTES + ((bytes + 15) & ~15ull) + VKB_GUARD_BYTES;
    int type;
    char sz[32];
    if (!(flags & (VKB_BUF_HOST_STAGING | VKB_BUF_DEVICE_MAPPED)))
        return 0;
    type = placement_type(vk, ~0u, flags);
    if (type < 0) {
        snprintf(why, len, "no %s memory type on this device",
                 flags & VKB_BUF_HOST_STAGING ? "host-visible coherent" : "device-local host-visible (resizable BAR)");
        return 1;
    }
    if (total > vk->mem.memoryHeaps[vk->mem.memoryTypes[type].heapIndex].size) {
        snprintf(why, len, "the device-local host-visible heap holds %s, less than the buffer (no resizable BAR?)",
                 vkb_fmt_bytes(vk->mem.memoryHeaps[vk->mem.memoryTypes[type].heapIndex].size, sz, sizeof sz));
        return 1;
    }
    return 0;
}

const char *vkb_vk_buffer_describe(vkb_vk *vk, const struct vkb_buffer *buf, char *text, size_t len)
{
    static const struct {
        VkMemoryPropertyFlags bit;
        const char *name;
    } props[] = {{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "device-local"},
                 {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, "host-visible"},
                 {VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, "coherent"},
                 {VK_MEMORY_PROPERTY_HOST_CACHED_BIT, "cached"}};
    const VkMemoryType *t;
    size_t used;
    char sz[32];
    if (buf->type == UINT32_MAX) {
        snprintf(text, len, "malloc (pageable host memory)");
        return text;
    }
    t = &vk->mem.memoryTypes[buf->type];
    used = (size_t)snprintf(text, len, "heap %u (%s) type %u:", t->heapIndex,
                            vkb_fmt_bytes(vk->mem.memoryHeaps[t->heapIndex].size, sz, sizeof sz), buf->type);
    for (size_t i = 0; i < VKB_COUNT(props) && used < len; i++)
        if (t->propertyFlags & props[i].bit)
            used += (size_t)snprintf(text + used, len - used, " %s", props[i].name);
    return text;
}

/* Pageable host memory: the allocation alone, page-aligned, guard bands as the device's; NULL (recorded) when the
 * host has not the memory. */
static struct vkb_buffer *pageable_create(vkb_vk *vk, uint64_t total)
{
    struct vkb_buffer *b = vkb_calloc(1, sizeof *b);
    if (posix_memalign((void **)&b->map, 4096, (size_t)total) != 0) {
        vkb_backend_fail(vk->error, VKB_EXIT_RESOURCE,
                         "out of host memory allocating a pageable buffer; try a "
                         "smaller size");
        free(b);
        return NULL;
    }
    b->type = UINT32_MAX;
    return b;
}

static void host_fill(uint8_t *dst, uint32_t word, uint64_t bytes)
{
    uint32_t *w = (uint32_t *)dst;
    for (uint64_t i = 0; i < bytes / 4; i++)
        w[i] = word;
}

/* The range sits VKB_GUARD_BYTES into the allocation: 4096 is a multiple of every allowed
 * minStorageBufferOffsetAlignment and minUniformBufferOffsetAlignment (at most 256 by the spec). */
struct vkb_buffer *vkb_vk_buffer_create(vkb_vk *vk, uint64_t bytes, unsigned flags)
{
    uint64_t total = VKB_GUARD_BYTES + ((bytes + 15) & ~15ull) + VKB_GUARD_BYTES;
    VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                               VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                               (flags & VKB_BUF_UNIFORM ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT : 0);
    struct vkb_buffer *b;
    static _Thread_local uint32_t serial; /* per device thread: the guard words of a one-device run */
    uint32_t guard = vkb_guard_word(serial++);
    int shared = (flags & VKB_BUF_TWO_QUEUES) && vk->xfer_family != UINT32_MAX;
    if (flags & VKB_BUF_HOST_PAGEABLE) {
        b = pageable_create(vk, total);
    } else if (flags & (VKB_BUF_HOST_STAGING | VKB_BUF_DEVICE_MAPPED)) {
        VkMemoryRequirements req;
        VkBuffer probe;
        VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        int type;
        bci.size = total;
        bci.usage = usage;
        if (!VKB_OK(vk, vkCreateBuffer(vk->device, &bci, NULL, &probe)))
            return NULL;
        vkGetBufferMemoryRequirements(vk->device, probe, &req);
        vkDestroyBuffer(vk->device, probe, NULL);
        type = placement_type(vk, req.memoryTypeBits, flags);
        if (type < 0) {
            vkb_backend_fail(vk->error, VKB_EXIT_API, "no Vulkan memory type fits a host-visible buffer (flags 0x%x)",
                             flags);
            return NULL;
        }
        b = buffer_create_shared(vk, total, usage, vk->mem.memoryTypes[type].propertyFlags, 0, shared);
        if (b && !VKB_OK(vk, vkMapMemory(vk->device, b->memory, 0, VK_WHOLE_SIZE, 0, (void **)&b->map))) {
            vkb_vk_buffer_destroy(vk, b);
            return NULL;
        }
    } else {
        b = buffer_create_shared(vk, total, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, shared);
    }
    if (!b)
        return NULL;
    fill_job j = {b->buffer, 0, VK_WHOLE_SIZE, 0};
    b->guard = guard;
    b->flags = flags;
    j.word = b->guard;
    if (b->map)
        host_fill(b->map, j.word, total);
    else if (vkb_vk_submit_wait(vk, record_fill, &j)) {
        vkb_vk_buffer_destroy(vk, b);
        return NULL;
    }
    b->bytes = bytes;
    b->offset = VKB_GUARD_BYTES;
    return b;
}

void vkb_vk_buffer_destroy(vkb_vk *vk, struct vkb_buffer *buf)
{
    if (!buf)
        return;
    if (buf->type == UINT32_MAX) {
        free(buf->map);
        free(buf);
        return;
    }
    vkDestroyBuffer(vk->device, buf->buffer, NULL);
    vkFreeMemory(vk->device, buf->memory, NULL);
    free(buf);
}

void vkb_vk_buffer_host_copy(struct vkb_buffer *src, struct vkb_buffer *dst, uint64_t shift, uint64_t bytes)
{
    vkb_parallel_copy(dst->map + dst->offset + shift, src->map + src->offset, (size_t)bytes);
}

typedef struct copy_job {
    VkBuffer src, dst;
    VkDeviceSize src_offset, dst_offset, bytes;
} copy_job;

static void record_copy(vkb_vk *vk, VkCommandBuffer cmd, void *user)
{
    copy_job *j = user;
    VkBufferCopy region = {j->src_offset, j->dst_offset, j->bytes};
    (void)vk;
    vkCmdCopyBuffer(cmd, j->src, j->dst, 1, &region);
    vkb_vk_barrier(cmd);
}

/* The host-visible staging buffer of every transfer, kept mapped for the run (a fresh one per transfer cost an
 * allocation and a page fault per 4 KiB of the mapping at each read-back), in two halves, each with its own
 * command buffer and fence: the device copies one chunk while the host copies the other (one Vulkan device a
 * thread: with --device LIST each device's thread has its own). */
static _Thread_local struct {
    vkb_vk *vk;
    struct vkb_buffer *buf;
    uint8_t *map;
    uint64_t half; /* bytes of each half */
    VkCommandBuffer cmd[2];
    VkFence fence[2];
    int busy[2]; /* a copy submitted and not yet waited for */
} staging;

static int staging_for(vkb_vk *vk, uint64_t half)
{
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    void *map;
    if (staging.buf && (staging.vk != vk || staging.half < half))
        vkb_vk_staging_release(staging.vk);
    if (staging.buf)
        return 0;
    staging.buf = buffer_create(vk, 2 * half, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
                                    VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                                VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    if (!staging.buf)
        return -1;
    /* from here on the release frees what was made (a failed device's state is left, not freed) */
    staging.vk = vk;
    staging.half = half;
    VKB_TRY(vk, vkMapMemory(vk->device, staging.buf->memory, 0, VK_WHOLE_SIZE, 0, &map));
    staging.map = map;
    cai.commandPool = vk->pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 2;
    VKB_TRY(vk, vkAllocateCommandBuffers(vk->device, &cai, staging.cmd));
    for (int k = 0; k < 2; k++)
        VKB_TRY(vk, vkCreateFence(vk->device, &fci, NULL, &staging.fence[k]));
    return 0;
}

static int staging_wait(int k)
{
    if (!staging.busy[k])
        return 0;
    if (vkb_vk_wait(staging.vk, staging.fence[k]))
        return -1;
    staging.busy[k] = 0;
    VKB_TRY(staging.vk, vkResetFences(staging.vk->device, 1, &staging.fence[k]));
    return 0;
}

/* A staged copy: after the work submitted before (its writes, its reads of the buffer), and a read-back's
 * bytes made available to the host before the fence signals. */
static void record_staged_copy(vkb_vk *vk, VkCommandBuffer cmd, void *user)
{
    VkMemoryBarrier to_host = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    vkb_vk_barrier(cmd);
    record_copy(vk, cmd, user);
    to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, NULL, 0,
                         NULL);
}

/* Submit, without waiting, the copy J on half K's command buffer; 0 or -1. */
static int staging_submit(int k, copy_job *j)
{
    /* the half's command buffer may still be pending: never reset it in flight */
    if (staging_wait(k) || vkb_vk_submit(staging.vk, staging.cmd[k], staging.fence[k], record_staged_copy, j))
        return -1;
    staging.busy[k] = 1;
    return 0;
}

void vkb_vk_staging_release(vkb_vk *vk)
{
    if (!staging.buf || staging.vk != vk)
        return;
    for (int k = 0; k < 2; k++) {
        staging_wait(k);
        if (staging.fence[k])
            vkDestroyFence(vk->device, staging.fence[k], NULL);
    }
    if (staging.cmd[0])
        vkFreeCommandBuffers(vk->device, vk->pool, 2, staging.cmd);
    vkUnmapMemory(vk->device, staging.buf->memory);
    vkb_vk_buffer_destroy(vk, staging.buf);
    memset(&staging, 0, sizeof staging);
}

/* Move BYTES between HOST and BUF at OFFSET (of the allocation) through the staging buffer, chunk by chunk,
 * alternating halves: chunk i + 1 is on its way on the device while the host copies chunk i. Returns with
 * every copy finished (0), or -1 failed. */
static int staged(vkb_vk *vk, struct vkb_buffer *buf, uint64_t offset, void *host, uint64_t bytes, int to_device)
{
    uint64_t chunk = bytes < STAGING_CHUNK ? bytes : STAGING_CHUNK, count;
    uint8_t *h = host;
    if (bytes == 0)
        return 0;
    /* small transfers share halves of a MiB at least, so that growing them is rare */
    if (staging_for(vk, chunk < STAGING_MIN ? STAGING_MIN : chunk))
        return -1;
    chunk = staging.half < bytes ? staging.half : bytes;
    count = (bytes + chunk - 1) / chunk;
    for (uint64_t i = 0; i < count + !to_device; i++) {
        int k = (int)(i & 1);
        uint64_t off = i * chunk, n = bytes - off < chunk ? bytes - off : chunk;
        uint8_t *half = staging.map + (uint64_t)k * staging.half;
        copy_job j;
        if (to_device) {
            if (staging_wait(k)) /* its last chunk has left */
                return -1;
            vkb_parallel_copy(half, h + off, n);
            j = (copy_job){staging.buf->buffer, buf->buffer, (uint64_t)k * staging.half, offset + off, n};
            if (staging_submit(k, &j))
                return -1;
            continue;
        }
        if (i < count) { /* ask for chunk i, then copy out chunk i - 1 while it comes */
            j = (copy_job){buf->buffer, staging.buf->buffer, offset + off, (uint64_t)k * staging.half, n};
            if (staging_submit(k, &j))
                return -1;
        }
        if (i > 0) {
            uint64_t prev = off - chunk, m = bytes - prev < chunk ? bytes - prev : chunk;
            if (staging_wait(!k))
                return -1;
            vkb_parallel_copy(h + prev, staging.map + (uint64_t)!k * staging.half, m);
        }
    }
    return staging_wait(0) || staging_wait(1) ? -1 : 0;
}

/* Mapped buffers (coherent) are read and written by the host directly; the device is idle between the
 * runner's calls (every submission waited for). A pageable buffer has no VkBuffer: only the host reaches it.
 * A failure is recorded in VK's error (the backend's calls return without doing anything after it). */
void vkb_vk_buffer_copy(vkb_vk *vk, struct vkb_buffer *src, struct vkb_buffer *dst, uint64_t bytes)
{
    copy_job j = {src->buffer, dst->buffer, src->offset, dst->offset, bytes};
    if (src->map && dst->map)
        vkb_vk_buffer_host_copy(src, dst, 0, bytes);
    else if (bytes)
        (void)vkb_vk_submit_wait(vk, record_copy, &j);
}

void vkb_vk_buffer_upload(vkb_vk *vk, struct vkb_buffer *buf, const void *src, uint64_t bytes)
{
    if (buf->map)
        vkb_parallel_copy(buf->map + buf->offset, src, (size_t)bytes);
    else
        (void)staged(vk, buf, buf->offset, (void *)src, bytes, 1);
}

void vkb_vk_buffer_download(vkb_vk *vk, struct vkb_buffer *buf, void *dst, uint64_t bytes)
{
    if (buf->map)
        vkb_parallel_copy(dst, buf->map + buf->offset, (size_t)bytes);
    else
        (void)staged(vk, buf, buf->offset, dst, bytes, 0);
}

/* J's range of BUF: by the host where it is mapped, else on the device */
static void fill_range(vkb_vk *vk, struct vkb_buffer *buf, fill_job *j)
{
    if (buf->map)
        host_fill(buf->map + j->offset, j->word, j->size);
    else
        (void)vkb_vk_submit_wait(vk, record_fill, j);
}

void vkb_vk_buffer_fill(vkb_vk *vk, struct vkb_buffer *buf, uint32_t word)
{
    fill_job j = {buf->buffer, buf->offset, (buf->bytes + 3) & ~3ull, word};
    if (buf->bytes)
        fill_range(vk, buf, &j);
}

void vkb_vk_buffer_read_guards(vkb_vk *vk, struct vkb_buffer *buf, void *before, void *after)
{
    if (buf->map) { /* the host's view of the same bands */
        memcpy(before, buf->map + buf->offset - VKB_GUARD_BYTES, VKB_GUARD_BYTES);
        memcpy(after, buf->map + buf->offset + ((buf->bytes + 3) & ~3ull), VKB_GUARD_BYTES);
    } else {
        if (staged(vk, buf, buf->offset - VKB_GUARD_BYTES, before, VKB_GUARD_BYTES, 0) ||
            staged(vk, buf, buf->offset + ((buf->bytes + 3) & ~3ull), after, VKB_GUARD_BYTES, 0))
            return;
    }
    vkb_guard_normalize(before, buf->guard);
    vkb_guard_normalize(after, buf->guard);
}
