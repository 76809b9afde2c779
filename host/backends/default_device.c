/* default_device.c - which Vulkan device runs when none is named. */
#include "default_device.h"

#include <vulkan/vulkan_core.h>

uint32_t vkb_default_device(const int *types, uint32_t n)
{
    static const int preferred[] = {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU,
                                    VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU, VK_PHYSICAL_DEVICE_TYPE_OTHER};
    for (uint32_t k = 0; k < sizeof preferred / sizeof preferred[0]; k++)
        for (uint32_t i = 0; i < n; i++)
            if (types[i] == preferred[k])
                return i;
    return 0;
}
