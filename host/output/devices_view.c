/* devices_view.c - `vkbench devices`: one block per Vulkan device, from what it reports. */
#include "devices_view.h"

#include "util.h"

void vkb_devices_view(FILE *f, int i, const vkb_caps *c, uint64_t llc, const char *cache_path)
{
    char mem[32], buf[32], uuid[40];
    fprintf(f, "%d: %s (%s)\n", i, c->name, c->type);
    fprintf(f, "   driver          %s\n", c->driver);
    fprintf(f, "   identity        uuid %s, pci %s\n", vkb_fmt_uuid(c->uuid, uuid, sizeof uuid), c->pci_bus[0] ? c->pci_bus : "unknown");
    fprintf(f, "   Vulkan          %s\n", c->api_version);
    fprintf(f, "   subgroup size   %u (min %u, max %u)\n", c->subgroup_size, c->subgroup_min, c->subgroup_max);
    fprintf(f, "   shared memory   %s per workgroup\n", vkb_fmt_bytes(c->max_shared_bytes, buf, sizeof buf));
    fprintf(f, "   uniform buffer  %s at most\n", vkb_fmt_bytes(c->max_uniform_bytes, buf, sizeof buf));
    fprintf(f, "   device memory   %s, largest buffer %s\n", vkb_fmt_bytes(c->device_memory_bytes, mem, sizeof mem),
               vkb_fmt_bytes(c->max_buffer_bytes, buf, sizeof buf));
    fprintf(f, "   compute units   %s\n", c->compute_units ? (snprintf(buf, sizeof buf, "%u", c->compute_units), buf) : "unknown");
    fprintf(f, "   timestamps      %s (period %g ns)\n", c->timestamps ? "yes" : "no", c->timestamp_period_ns);
    if (llc)
        fprintf(f, "   measured cache  last level %s (cache.chase, kept in %s)\n", vkb_fmt_bytes(llc, mem, sizeof mem),
               cache_path);
    else
        fprintf(f, "   measured cache  not measured yet (a timed run measures it where nothing reports it)\n");
    fprintf(f, "   subgroup ops    basic %s, arithmetic %s, shuffle %s\n",
               c->features & VKB_NEED_SUBGROUP_BASIC ? "yes" : "no", c->features & VKB_NEED_SUBGROUP_ARITH ? "yes" : "no",
               c->features & VKB_NEED_SUBGROUP_SHUFFLE ? "yes" : "no");
    fprintf(f, "   extensions      subgroup_size_control %s, cooperative_matrix NV %s KHR %s, float16 %s, "
               "pipeline_executable_properties %s, pipeline_robustness %s\n",
               c->ext_subgroup_size_control ? "yes" : "no", c->ext_coopmat_nv ? "yes" : "no",
               c->ext_coopmat_khr ? "yes" : "no", c->features & VKB_NEED_FLOAT16 ? "yes" : "no",
               c->ext_pipeline_exec_props ? "yes" : "no", c->ext_pipeline_robustness ? "yes" : "no");
    fprintf(f, "   coopmat sizes   KHR fp16->fp32 %ux%ux%u, fp16->fp16 %ux%ux%u; NV coopmat2 granularity %ux%ux%u, "
               "%u invocations (0: none)\n", c->coopmat_khr[0], c->coopmat_khr[1], c->coopmat_khr[2], c->coopmat_khr16[0],
               c->coopmat_khr16[1], c->coopmat_khr16[2], c->coopmat2_granularity[0], c->coopmat2_granularity[1],
               c->coopmat2_granularity[2], c->coopmat2_max_invocations);
    /* the peak family's number types, and every cooperative-matrix combination the device lists
     * (VkComponentTypeKHR codes A,B,C,result; scope 3 subgroup, 2 workgroup) */
    fprintf(f, "   number types    fp64 %s, int16 %s, int8 %s, int dot product %s, bf16 %s\n",
               c->features & VKB_NEED_FLOAT64 ? "yes" : "no", c->features & VKB_NEED_INT16 ? "yes" : "no",
               c->features & VKB_NEED_INT8 ? "yes" : "no", c->features & VKB_NEED_INT_DOT ? "yes" : "no",
               c->features & VKB_NEED_BFLOAT16 ? "yes" : "no");
    for (uint32_t t = 0; t < c->ncoopmat_types; t++)
        fprintf(f, "   coopmat type    %ux%ux%u A,B,C,R %u,%u,%u,%u scope %u%s\n", c->coopmat_types[t].m,
               c->coopmat_types[t].n, c->coopmat_types[t].k, c->coopmat_types[t].a, c->coopmat_types[t].b,
               c->coopmat_types[t].c, c->coopmat_types[t].result, c->coopmat_types[t].scope,
               c->coopmat_types[t].saturating ? " saturating" : "");
}
