/* subgroup_size.h - --subgroup-size on Vulkan: the device's offer checked once, then required by every pipeline. */
#ifndef VKB_SUBGROUP_SIZE_H
#define VKB_SUBGROUP_SIZE_H

#include <stddef.h>
#include <stdint.h>

#include "vk.h"

/* Check that VK's device can run compute pipelines at SIZE (VK_EXT_subgroup_size_control or Vulkan 1.3:
 * the subgroupSizeControl feature, compute in requiredSubgroupSizeStages, min <= SIZE <= max); then record it
 * (vk->required_subgroup_size, vk->caps->subgroup_size) and return 0. Else 1 with WHY. */
int vkb_vk_subgroup_size_require(vkb_vk *vk, uint32_t size, char *why, size_t len);
/* Chain the required size into STAGE (REQUIRED, kept alive by the caller) when one was asked for. Returns 0,
 * or 1 with WHY (a skip) when a workgroup of INVOCATIONS needs more than maxComputeWorkgroupSubgroups subgroups
 * of that size (VUID-VkPipelineShaderStageCreateInfo-pNext-02756). */
int vkb_vk_subgroup_size_chain(const vkb_vk *vk, uint64_t invocations, VkPipelineShaderStageCreateInfo *stage,
                               VkPipelineShaderStageRequiredSubgroupSizeCreateInfo *required, char *why, size_t len);

#endif
