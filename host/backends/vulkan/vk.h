/* vk.h - the Vulkan context shared by the Vulkan modules (context, buffers, pipelines, backend). */
#ifndef VKB_VK_H
#define VKB_VK_H

#include <volk.h>

#include "backend.h"
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
    VkFence never_fence; /* VKB_FAULT_INJECT=stuck-fence or hang:I: a fence never submitted (tests) */
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
    int has_exec_props;    /* VK_KHR_pipeline_executable_properties enabled */
    VkPipelineCache cache; /* every pipeline of the run: one built ahead (precompile) is found, not rebuilt */
    vkb_caps *caps;        /* the backend's caps (vkb_backend.caps): the one copy, completed by main from CUDA */
    uint32_t required_subgroup_size;  /* --subgroup-size (subgroup_size.c): every pipeline's; 0 = the device's */
    uint32_t max_workgroup_subgroups; /* maxComputeWorkgroupSubgroups, read with it */
    vkb_backend_error *error; /* the backend's first error (backend.h): every failure is recorded there, none exits */
    double timeout_s;         /* VKB_DEVICE_TIMEOUT_S, read at creation */
    int robustness_off;       /* --robustness disabled: the feature enabled (context.c), every pipeline without bounds
                           * checks on its storage and uniform buffers (pipelines.c) */
} vkb_vk;

/* "VK_ERROR_OUT_OF_DEVICE_MEMORY" for R. */
const char *vkb_vk_result_text(VkResult r);
/* Whether R, what CALL returned, is VK_SUCCESS; else the error is recorded in E (out-of-memory results as
 * VKB_EXIT_RESOURCE with "; try a smaller size", the rest as VKB_EXIT_API; -v adds the place to stderr) and 0. */
int vkb_vk_ok(vkb_backend_error *e, VkResult r, const char *call, const char *file, int line);
#define VKB_OK(vk, call) vkb_vk_ok((vk)->error, (call), #call, __FILE__, __LINE__)
/* In a function that returns 0 done, -1 failed: return -1 when CALL fails (recorded in VK's error). */
#define VKB_TRY(vk, call)                                                                                              \
    do {                                                                                                               \
        if (!VKB_OK(vk, call))                                                                                         \
            return -1;                                                                                                 \
    } while (0)

/* Context: create on the device chosen by SELECT (see backend.h), its caps written to CAPS (kept), its errors to
 * ERROR (kept: the backend's); NULL when it cannot, ERROR saying why (no loader, no such device: 3; --robustness
 * disabled where the device lacks it: 4). Destroy. */
vkb_vk *vkb_vk_create(const char *select, int validation, int robustness_off, vkb_caps *caps, vkb_backend_error *error);
void vkb_vk_destroy(vkb_vk *vk);

/* Record CMD with begin/end around FN(vk, user) and submit it, signalling FENCE; no wait. 0, or -1 failed. */
int vkb_vk_submit(vkb_vk *vk, VkCommandBuffer cmd, VkFence fence,
                  void (*fn)(vkb_vk *vk, VkCommandBuffer cmd, void *user), void *user);
/* Wait for FENCE in slices of WAIT_SLICE_NS. A stop signal (signals.h) does not end the wait: the device's work
 * uses what the run holds, so it is waited for until the fence signals (recorded as a stop, 128 + signal, when that
 * took longer than STOP_GRACE_NS, said once) or the submission is older than VKB_DEVICE_TIMEOUT_S (default
 * DEVICE_TIMEOUT_S): then the device is left busy (error.busy: nothing it uses is freed), recorded as a stop or,
 * without one, as a hung device (5). 0 when it was signalled, else -1. */
#define WAIT_SLICE_NS 100000000ull
#define STOP_GRACE_NS 1e9
#define DEVICE_TIMEOUT_S 120
int vkb_vk_wait(vkb_vk *vk, VkFence fence);
/* vkb_vk_submit on the context's own command buffer, then wait: for uploads, fills and timed batches; 0 or -1. */
int vkb_vk_submit_wait(vkb_vk *vk, void (*fn)(vkb_vk *vk, VkCommandBuffer cmd, void *user), void *user);
/* Full compute/transfer memory barrier: every earlier write visible to every later access. */
void vkb_vk_barrier(VkCommandBuffer cmd);

#endif
