/* vkresult.c - VkResult to text, and the one place a failed Vulkan call is recorded. */
#include "vk.h"

#include <stdio.h>
#include <string.h>

const char *vkb_vk_result_text(VkResult r)
{
    /* a table, one name per entry: kept as written */
    /* clang-format off */
    switch (r) {
#define R(x) case x: return #x;
    R(VK_SUCCESS) R(VK_NOT_READY) R(VK_TIMEOUT) R(VK_EVENT_SET) R(VK_EVENT_RESET) R(VK_INCOMPLETE)
    R(VK_ERROR_OUT_OF_HOST_MEMORY) R(VK_ERROR_OUT_OF_DEVICE_MEMORY) R(VK_ERROR_INITIALIZATION_FAILED)
    R(VK_ERROR_DEVICE_LOST) R(VK_ERROR_MEMORY_MAP_FAILED) R(VK_ERROR_LAYER_NOT_PRESENT)
    R(VK_ERROR_EXTENSION_NOT_PRESENT) R(VK_ERROR_FEATURE_NOT_PRESENT) R(VK_ERROR_INCOMPATIBLE_DRIVER)
    R(VK_ERROR_TOO_MANY_OBJECTS) R(VK_ERROR_FORMAT_NOT_SUPPORTED) R(VK_ERROR_FRAGMENTED_POOL)
    R(VK_ERROR_UNKNOWN) R(VK_ERROR_OUT_OF_POOL_MEMORY) R(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    R(VK_ERROR_FRAGMENTATION) R(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS) R(VK_PIPELINE_COMPILE_REQUIRED)
    R(VK_ERROR_INVALID_SHADER_NV)
#undef R
    default: return "unknown VkResult";
    }
    /* clang-format on */
}

int vkb_vk_ok(vkb_backend_error *e, VkResult r, const char *call, const char *file, int line)
{
    int oom = r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY ||
              r == VK_ERROR_OUT_OF_POOL_MEMORY || r == VK_ERROR_TOO_MANY_OBJECTS;
    char limits[300];
    if (r == VK_SUCCESS)
        return 1;
    /* the place in the source only with -v: a user's message says what failed, not where in vkbench */
    if (vkb_verbose)
        fprintf(stderr, "vkbench: %s failed at %s:%d\n", call, file, line);
    vkb_backend_fail(e, oom ? VKB_EXIT_RESOURCE : VKB_EXIT_API, "%.*s: %s%s%s", (int)strcspn(call, "("), call,
                     vkb_vk_result_text(r), oom ? "; try a smaller size" : "", vkb_limits_text(limits, sizeof limits));
    return 0;
}
