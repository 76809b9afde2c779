/* pipelines.h - compute pipelines from embedded SPIR-V with specialization and push constants. */
#ifndef VKB_PIPELINES_H
#define VKB_PIPELINES_H

#include "backend.h"
#include "machine_code.h"
#include "plan.h"
#include "vk.h"

typedef struct vkb_vk_pipeline {
    VkShaderModule module;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    vkb_mc_summary mc; /* --sass: the driver's machine code, summarised (valid 0 when not read) */
} vkb_vk_pipeline;

/* Build the pipeline for a dispatch PASS: local size as spec constants 0..2, pass->spec as 3..,
 * one buffer per binding, 32 bytes of push constants. Binding k is a uniform buffer where bit k of UNIFORM
 * is set (vkb_pass_uniform_bindings), else a storage buffer: a cache of pipelines or layouts must key on
 * UNIFORM as well as the pass. Returns 0; 1 with WHY, a skip (the driver cannot build it, the device lacks what it
 * needs); -1 with WHY, the device's error (a Vulkan call failed: not recorded here, the caller's thread records it). */
int vkb_vk_pipeline_create(vkb_vk *vk, const vkb_pass *pass, unsigned uniform, vkb_vk_pipeline *out, char *why,
                           size_t len);
void vkb_vk_pipeline_destroy(vkb_vk *vk, vkb_vk_pipeline *p);
/* The driver's statistics of the pipeline (registers, shared memory, spills...), one entry per executable,
 * up to MAX, when the device has VK_KHR_pipeline_executable_properties; returns how many (else 0). */
int vkb_vk_pipeline_statistics(vkb_vk *vk, const vkb_vk_pipeline *p, const char *kernel, vkb_pipeline_stats *out,
                               int max);

#endif
