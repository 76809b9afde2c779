/* test_default_device.c - the device that runs when none is named: a GPU before a CPU implementation, whatever the
 * loader's order, and the most capable kind of GPU first. */
#include <vulkan/vulkan_core.h>

#include "default_device.h"
#include "unit.h"

enum {
    OTHER = VK_PHYSICAL_DEVICE_TYPE_OTHER,
    INTEGRATED = VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU,
    DISCRETE = VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU,
    VIRTUAL = VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU,
    CPU = VK_PHYSICAL_DEVICE_TYPE_CPU
};

/* lavapipe listed before the GPU (as the loader may order them): the GPU runs */
static void gpu_before_cpu(void)
{
    int cpu_first[] = {CPU, DISCRETE}, only_cpu[] = {CPU, CPU};
    ASSERT(vkb_default_device(cpu_first, 2) == 1);
    ASSERT(vkb_default_device(only_cpu, 2) == 0);
    ASSERT(vkb_default_device(only_cpu, 0) == 0);
}

/* a discrete GPU before an integrated one, an integrated before a virtual machine's, that before any other kind */
static void most_capable_first(void)
{
    int all[] = {CPU, OTHER, VIRTUAL, INTEGRATED, DISCRETE, DISCRETE},
        no_discrete[] = {CPU, OTHER, VIRTUAL, INTEGRATED}, virtual_gpu[] = {CPU, OTHER, VIRTUAL},
        other[] = {CPU, OTHER};
    ASSERT(vkb_default_device(all, 6) == 4); /* the first discrete one of two */
    ASSERT(vkb_default_device(no_discrete, 4) == 3);
    ASSERT(vkb_default_device(virtual_gpu, 3) == 2);
    ASSERT(vkb_default_device(other, 2) == 1);
}

UNIT_TESTS({"gpu_before_cpu", gpu_before_cpu}, {"most_capable_first", most_capable_first})
