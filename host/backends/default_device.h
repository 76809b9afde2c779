/* default_device.h - which Vulkan device runs when none is named: a GPU before a CPU implementation, the most
 * capable kind of GPU first. */
#ifndef VKB_DEFAULT_DEVICE_H
#define VKB_DEFAULT_DEVICE_H

#include <stdint.h>

/* TYPES: each device's VkPhysicalDeviceType, N of them in the loader's order. Returns the index of the first
 * discrete GPU, else of the first integrated one, else of the first virtual one (a virtual machine's GPU), else of
 * the first device of another kind that is not a CPU, else 0 (a CPU implementation such as lavapipe, or N = 0). */
uint32_t vkb_default_device(const int *types, uint32_t n);

#endif
