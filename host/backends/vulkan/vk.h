/* vk.h - the Vulkan context shared by the Vulkan modules (context, buffers, pipelines, backend). */
#ifndef VKB_VK_H
#define VKB_VK_H

#include <volk.h>

#include "caps.h"
#include "util.h"

typedef struct vkb_vk {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice phys;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkFence never_fence;  /* VKB_FAULT_INJECT=stuck-fence or hang:I: a fence never submitted (tests) */
    /* up to two more queues, of a transfer-only family (UINT32_MAX: the device has none; a DMA engine each where
     * the driver maps queues to engines), for transfers beside the compute queue's (vkb_pass.queue 1 and 2):
     * how many the family gave, their pool and a fence each */
    uint32_t xfer_family;
    uint32_t xfer_count;
    VkQueue xfer_queue[2];
    VkCommandPool xfer_pool;
    VkFence xfer_fence[2];
    VkPhysicalDeviceMemoryProperties mem;
    double timestamp_period_ns;
    uint32_t timestamp_bits;
    int has_exec_props;   /* VK_KHR_pipeline_executable_properties enabled */
    VkPipelineCache cache; /* every pipeline of the run: one built ahead (precompile) is found, not rebuilt */
    vkb_caps *caps;       /* the backend's caps (vkb_backend.caps): the one copy, completed by main from CUDA */
    uint32_t required_subgroup_size;  /* --subgroup-size (subgroup_size.c): every pipeline's; 0 = the device's */
    uint32_t max_workgroup_subgroups; /* maxComputeWorkgroupSubgroups, read with it */
    int robustness_off;   /* --robustness disabled: the feature enabled (context.c), every pipeline without bounds
                           * checks on its storage and uniform buffers (pipelines.c) */
} vkb_vk;

/* "VK_ERROR_OUT_OF_DEVICE_MEMORY" for R. */
const char *vkb_vk_result_text(VkResult r);
/* Exit with one line naming the call, the result and the place; OOM results exit VKB_EXIT_RESOURCE. */
VKB_NORETURN void vkb_vk_fail(const char *call, VkResult r, const char *file, int line);
#define VKB_CHECK(call)                                                  \
    do {                                                                 \
        VkResult vkb_r_ = (call);                                        \
        if (vkb_r_ != VK_SUCCESS)                                        \
            vkb_vk_fail(#call, vkb_r_, __FILE__, __LINE__);              \
    } while (0)

/* Context: create on the device chosen by SELECT (see backend.h), its caps written to CAPS (kept), destroy.
 * ROBUSTNESS_OFF: --robustness disabled (exits 4 with one line where the device lacks it). */
vkb_vk *vkb_vk_create(const char *select, int validation, int robustness_off, vkb_caps *caps);
void vkb_vk_destroy(vkb_vk *vk);

/* Record CMD with begin/end around FN(vk, user) and submit it, signalling FENCE; no wait. */
void vkb_vk_submit(vkb_vk *vk, VkCommandBuffer cmd, VkFence fence,
                   void (*fn)(vkb_vk *vk, VkCommandBuffer cmd, void *user), void *user);
/* Wait for FENCE in slices of WAIT_SLICE_NS: a stop signal (signals.h) not answered within STOP_GRACE_NS
 * exits 128 + signal; a submission longer than VKB_DEVICE_TIMEOUT_S (default DEVICE_TIMEOUT_S) fails the
 * case and the run (exit 5) with one line. */
#define WAIT_SLICE_NS 100000000ull
#define STOP_GRACE_NS 1e9
#define DEVICE_TIMEOUT_S 120
void vkb_vk_wait(vkb_vk *vk, VkFence fence);
/* vkb_vk_submit on the context's own command buffer, then wait: for uploads, fills and timed batches. */
void vkb_vk_submit_wait(vkb_vk *vk, void (*fn)(vkb_vk *vk, VkCommandBuffer cmd, void *user), void *user);
/* Full compute/transfer memory barrier: every earlier write visible to every later access. */
void vkb_vk_barrier(VkCommandBuffer cmd);

#endif
