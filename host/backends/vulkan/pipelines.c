/* pipelines.c - compute pipelines from embedded SPIR-V with specialization and push constants. */
#include "pipelines.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv.h"
#include "subgroup_size.h"

/* --sass: the pipeline built into a fresh VkPipelineCache of its own, whose data (the driver's compiled
 * program) goes to the machine-code module. The cache header's vendor id says whose format it is. */
static VkResult create_captured(vkb_vk *vk, const vkb_pass *pass, const VkComputePipelineCreateInfo *cpci,
                                vkb_vk_pipeline *out)
{
    VkPipelineCacheCreateInfo pcci = {VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    VkPipelineCache cache;
    size_t size = 0;
    VkResult r = vkCreatePipelineCache(vk->device, &pcci, NULL, &cache);
    if (r != VK_SUCCESS)
        return r;
    r = vkCreateComputePipelines(vk->device, cache, 1, cpci, NULL, &out->pipeline);
    if (r == VK_SUCCESS && vkGetPipelineCacheData(vk->device, cache, &size, NULL) == VK_SUCCESS && size >= 16) {
        uint8_t *data = vkb_alloc(size);
        if (vkGetPipelineCacheData(vk->device, cache, &size, data) >= 0 && size >= 16) {
            uint32_t vendor =
                (uint32_t)data[8] | (uint32_t)data[9] << 8 | (uint32_t)data[10] << 16 | (uint32_t)data[11] << 24;
            vkb_mc_vulkan(vk->caps->name, vendor, pass, data, size, &out->mc);
        }
        free(data);
    } else if (r == VK_SUCCESS) {
        vkb_mc_unavailable(vk->caps->name, "the driver's pipeline cache is empty");
    }
    vkDestroyPipelineCache(vk->device, cache, NULL);
    return r;
}

int vkb_vk_pipeline_create(vkb_vk *vk, const vkb_pass *pass, unsigned uniform, vkb_vk_pipeline *out, char *why,
                           size_t len)
{
    const vkb_spirv *spv = vkb_spirv_find(pass->kernel);
    VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    VkDescriptorSetLayoutBinding binding[VKB_MAX_BUFFERS];
    VkDescriptorSetLayoutCreateInfo dslci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    VkPushConstantRange push = {VK_SHADER_STAGE_COMPUTE_BIT, 0, VKB_PUSH_WORDS * 4};
    VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    VkSpecializationMapEntry map[3 + VKB_MAX_SPEC];
    uint32_t values[3 + VKB_MAX_SPEC];
    VkSpecializationInfo si;
    VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required;
    /* --robustness disabled: no bounds check on any buffer access (the driver's default puts one on each) */
    VkPipelineRobustnessCreateInfoEXT robustness = {VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT,
                                                    NULL,
                                                    VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DISABLED_EXT,
                                                    VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DISABLED_EXT,
                                                    VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DEVICE_DEFAULT_EXT,
                                                    VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_DEVICE_DEFAULT_EXT};
    VkDescriptorPoolSize ps[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VKB_MAX_BUFFERS},
                                  {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VKB_MAX_BUFFERS}};
    VkDescriptorPoolCreateInfo dpci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    VkDescriptorSetAllocateInfo dsai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    VkResult r;
    /* a Vulkan call that fails here is the device's error (-1), said in WHY: the caller records it, since pipelines
     * are built on several threads at once (precompile) and only the caller's thread owns the error record */
#define PIPELINE_TRY(call)                                                                                             \
    do {                                                                                                               \
        if ((r = (call)) != VK_SUCCESS) {                                                                              \
            snprintf(why, len, "%.*s: %s", (int)strcspn(#call, "("), #call, vkb_vk_result_text(r));                    \
            vkb_vk_pipeline_destroy(vk, out);                                                                          \
            return -1;                                                                                                 \
        }                                                                                                              \
    } while (0)

    memset(out, 0, sizeof *out);
    if (!spv) { /* a family's row that names a shader its list does not build: vkbench's own bug */
        snprintf(why, len, "no embedded shader named '%s' (add it to the family's shader list)", pass->kernel);
        return -1;
    }
    if (!spv->bytes) { /* listed, but its compiler was absent at build time (shaders/CMakeLists.txt) */
        snprintf(why, len, "needs %s and rebuild", spv->needs ? spv->needs : "a shader compiler it lacked");
        return 1;
    }
    /* the device's limits were checked from the plan (core/device_limits.c) before any pipeline is made */
    if (vkb_vk_subgroup_size_chain(vk, (uint64_t)pass->local[0] * pass->local[1] * pass->local[2], &cpci.stage,
                                   &required, why, len))
        return 1;

    smci.codeSize = spv->bytes;
    smci.pCode = spv->code;
    PIPELINE_TRY(vkCreateShaderModule(vk->device, &smci, NULL, &out->module));

    for (int i = 0; i < pass->nbind; i++) {
        VkDescriptorType type =
            (uniform >> i) & 1u ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        binding[i] = (VkDescriptorSetLayoutBinding){(uint32_t)i, type, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    }
    dslci.bindingCount = (uint32_t)pass->nbind;
    dslci.pBindings = binding;
    PIPELINE_TRY(vkCreateDescriptorSetLayout(vk->device, &dslci, NULL, &out->set_layout));
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &out->set_layout;
    plci.pushConstantRangeCount = 1;
    plci.pPushConstantRanges = &push;
    PIPELINE_TRY(vkCreatePipelineLayout(vk->device, &plci, NULL, &out->layout));

    for (uint32_t i = 0; i < 3u + (uint32_t)pass->nspec; i++) {
        map[i] = (VkSpecializationMapEntry){i, i * 4, 4};
        values[i] = i < 3 ? pass->local[i] : pass->spec[i - 3];
    }
    si.mapEntryCount = 3u + (uint32_t)pass->nspec;
    si.pMapEntries = map;
    si.dataSize = si.mapEntryCount * 4;
    si.pData = values;
    cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = out->module;
    cpci.stage.pName = "main";
    cpci.stage.pSpecializationInfo = &si;
    cpci.layout = out->layout;
    if (vk->robustness_off) /* the device enabled pipelineRobustness (context.c): else the driver ignores it */
        cpci.pNext = &robustness;
    if (vk->has_exec_props)
        cpci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    if (vkb_mc_enabled())
        r = create_captured(vk, pass, &cpci, out);
    else
        r = vkCreateComputePipelines(vk->device, vk->cache, 1, &cpci, NULL, &out->pipeline);
    if (r != VK_SUCCESS) {
        snprintf(why, len, "the driver could not build the pipeline (%s)", vkb_vk_result_text(r));
        vkb_vk_pipeline_destroy(vk, out);
        return 1;
    }

    dpci.maxSets = 1;
    dpci.poolSizeCount = 2;
    dpci.pPoolSizes = ps;
    PIPELINE_TRY(vkCreateDescriptorPool(vk->device, &dpci, NULL, &out->pool));
    dsai.descriptorPool = out->pool;
    dsai.descriptorSetCount = 1;
    dsai.pSetLayouts = &out->set_layout;
    PIPELINE_TRY(vkAllocateDescriptorSets(vk->device, &dsai, &out->set));
    return 0;
#undef PIPELINE_TRY
}

void vkb_vk_pipeline_destroy(vkb_vk *vk, vkb_vk_pipeline *p)
{
    if (p->pool)
        vkDestroyDescriptorPool(vk->device, p->pool, NULL);
    if (p->pipeline)
        vkDestroyPipeline(vk->device, p->pipeline, NULL);
    if (p->layout)
        vkDestroyPipelineLayout(vk->device, p->layout, NULL);
    if (p->set_layout)
        vkDestroyDescriptorSetLayout(vk->device, p->set_layout, NULL);
    if (p->module)
        vkDestroyShaderModule(vk->device, p->module, NULL);
    memset(p, 0, sizeof *p);
}

int vkb_vk_pipeline_statistics(vkb_vk *vk, const vkb_vk_pipeline *p, const char *kernel, vkb_pipeline_stats *out,
                               int max)
{
    VkPipelineInfoKHR pi = {VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
    VkPipelineExecutablePropertiesKHR props[4];
    uint32_t nexec = 4;
    int count = 0;
    if (!p->pipeline)
        return 0;
    if (!vk->has_exec_props) {
        if (!p->mc.valid || max < 1)
            return 0;
        memset(out, 0, sizeof *out); /* the machine code alone */
        out->kernel = kernel;
        snprintf(out->executable, sizeof out->executable, "machine code");
        out->mc = p->mc;
        return 1;
    }
    pi.pipeline = p->pipeline;
    for (uint32_t i = 0; i < nexec; i++)
        props[i] = (VkPipelineExecutablePropertiesKHR){VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR};
    if (vkGetPipelineExecutablePropertiesKHR(vk->device, &pi, &nexec, props) < 0)
        return 0;
    for (uint32_t e = 0; e < nexec && count < max; e++) {
        VkPipelineExecutableInfoKHR ei = {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
        VkPipelineExecutableStatisticKHR stats[VKB_MAX_STATS];
        uint32_t nstat = VKB_MAX_STATS;
        vkb_pipeline_stats *o = &out[count];
        ei.pipeline = p->pipeline;
        ei.executableIndex = e;
        for (uint32_t i = 0; i < nstat; i++)
            stats[i] = (VkPipelineExecutableStatisticKHR){VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR};
        /* VK_INCOMPLETE (more than VKB_MAX_STATS) still fills the first ones */
        if (vkGetPipelineExecutableStatisticsKHR(vk->device, &ei, &nstat, stats) < 0)
            continue;
        memset(o, 0, sizeof *o);
        o->kernel = kernel;
        snprintf(o->executable, sizeof o->executable, "%s", props[e].name);
        for (uint32_t i = 0; i < nstat; i++) {
            double v;
            switch (stats[i].format) {
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: v = stats[i].value.b32 ? 1 : 0; break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: v = (double)stats[i].value.i64; break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: v = (double)stats[i].value.u64; break;
            default: v = stats[i].value.f64;
            }
            snprintf(o->stat[o->nstat].name, sizeof o->stat[0].name, "%s", stats[i].name);
            o->stat[o->nstat++].value = v;
        }
        o->mc = p->mc; /* a compute pipeline has one executable */
        count++;
    }
    return count;
}
