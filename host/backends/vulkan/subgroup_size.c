/* subgroup_size.c - --subgroup-size on Vulkan: the device's offer checked once, then required by every pipeline. */
#include "subgroup_size.h"

#include <stdio.h>

int vkb_vk_subgroup_size_require(vkb_vk *vk, uint32_t size, char *why, size_t len)
{
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceSubgroupSizeControlFeatures feat = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
    VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &feat};
    VkPhysicalDeviceSubgroupSizeControlProperties sizes = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &sizes};

    vkGetPhysicalDeviceProperties(vk->phys, &props);
    /* the context enabled the feature where the device reports it (context.c) */
    if (props.apiVersion < VK_API_VERSION_1_3 && !vk->caps->ext_subgroup_size_control) {
        snprintf(why, len, "%s has neither Vulkan 1.3 nor VK_EXT_subgroup_size_control", vk->caps->name);
        return 1;
    }
    vkGetPhysicalDeviceFeatures2(vk->phys, &f2);
    vkGetPhysicalDeviceProperties2(vk->phys, &p2);
    if (!feat.subgroupSizeControl) {
        snprintf(why, len, "%s does not offer subgroupSizeControl", vk->caps->name);
        return 1;
    }
    if (!(sizes.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT)) {
        snprintf(why, len, "%s cannot require a subgroup size in compute shaders (requiredSubgroupSizeStages)",
                 vk->caps->name);
        return 1;
    }
    if (size < sizes.minSubgroupSize || size > sizes.maxSubgroupSize) {
        snprintf(why, len, "%s offers subgroup sizes %u to %u", vk->caps->name, sizes.minSubgroupSize,
                 sizes.maxSubgroupSize);
        return 1;
    }
    vk->required_subgroup_size = size;
    vk->max_workgroup_subgroups = sizes.maxComputeWorkgroupSubgroups;
    vk->caps->subgroup_size = size; /* what the families plan with: workgroup shapes, rounding depths */
    return 0;
}

int vkb_vk_subgroup_size_chain(const vkb_vk *vk, uint64_t invocations, VkPipelineShaderStageCreateInfo *stage,
                               VkPipelineShaderStageRequiredSubgroupSizeCreateInfo *required, char *why, size_t len)
{
    uint32_t size = vk->required_subgroup_size;
    if (!size)
        return 0;
    if (invocations > (uint64_t)size * vk->max_workgroup_subgroups) {
        snprintf(why, len,
                 "--subgroup-size %u: a workgroup of %llu invocations needs more than the device's %u "
                 "subgroups (maxComputeWorkgroupSubgroups)",
                 size, (unsigned long long)invocations, vk->max_workgroup_subgroups);
        return 1;
    }
    required->sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO;
    required->pNext = (void *)stage->pNext; /* the struct declares a non-const pNext */
    required->requiredSubgroupSize = size;
    stage->pNext = required;
    return 0;
}
