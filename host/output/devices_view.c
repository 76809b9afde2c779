/* devices_view.c - `vkbench devices`: one block per Vulkan device, from what it reports. */
#include "devices_view.h"

#include "util.h"

/* VkComponentTypeKHR in words: the core codes 0..10, bfloat16 (VK_KHR_shader_bfloat16) and the 8-bit float and
 * packed types (VK_EXT_shader_float8, VK_NV_cooperative_matrix2); NULL for a code this build does not know. */
const char *vkb_component_type_name(uint32_t type)
{
    static const char *const core[] = {"fp16",  "fp32",  "fp64",   "int8",   "int16", "int32",
                                       "int64", "uint8", "uint16", "uint32", "uint64"};
    if (type < sizeof core / sizeof core[0])
        return core[type];
    switch (type) {
    case 1000141000: return "bf16";         /* VK_COMPONENT_TYPE_BFLOAT16_KHR */
    case 1000491000: return "int8 packed";  /* VK_COMPONENT_TYPE_SINT8_PACKED_NV */
    case 1000491001: return "uint8 packed"; /* VK_COMPONENT_TYPE_UINT8_PACKED_NV */
    case 1000491002: return "fp8 e4m3";     /* VK_COMPONENT_TYPE_FLOAT8_E4M3_EXT (FLOAT_E4M3_NV) */
    case 1000491003: return "fp8 e5m2";     /* VK_COMPONENT_TYPE_FLOAT8_E5M2_EXT (FLOAT_E5M2_NV) */
    default: return NULL;
    }
}

/* VkScopeKHR in words: which invocations share one matrix; NULL for a code this build does not know. */
const char *vkb_scope_name(uint32_t scope)
{
    switch (scope) {
    case 1: return "device";
    case 2: return "workgroup";
    case 3: return "subgroup";
    case 5: return "queue family";
    default: return NULL;
    }
}

/* One component type in words, or "type N" for a code this build does not know (BUF holds the latter). */
static const char *type_text(uint32_t type, char *buf, size_t size)
{
    const char *name = vkb_component_type_name(type);
    if (name)
        return name;
    snprintf(buf, size, "type %u", type);
    return buf;
}

void vkb_coopmat_type_text(const vkb_coopmat_type *t, char *out, size_t size)
{
    char a[24], b[24], c[24], r[24], scope[24];
    const char *sname = vkb_scope_name(t->scope);
    if (!sname)
        snprintf(scope, sizeof scope, "scope %u", t->scope), sname = scope;
    /* A x B + C -> R; the accumulator C named only where it differs from the result */
    char acc[40] = "";
    if (t->c != t->result)
        snprintf(acc, sizeof acc, " + %s", type_text(t->c, c, sizeof c));
    snprintf(out, size, "%s x %s%s -> %s, %ux%ux%u, %s%s", type_text(t->a, a, sizeof a), type_text(t->b, b, sizeof b),
             acc, type_text(t->result, r, sizeof r), t->m, t->n, t->k, sname, t->saturating ? ", saturating" : "");
}

/* "16x16x16", or "none" where the device lists no size (a row of zeros). */
static const char *size_text(const uint32_t s[3], char *out, size_t size)
{
    if (!s[0] || !s[1] || !s[2])
        snprintf(out, size, "none");
    else
        snprintf(out, size, "%ux%ux%u", s[0], s[1], s[2]);
    return out;
}

void vkb_devices_view(FILE *f, int i, const vkb_caps *c, uint64_t llc, const char *cache_path)
{
    char a[40], b[40], g[40];
    char mem[32], buf[32], uuid[40];
    fprintf(f, "%d: %s (%s)\n", i, c->name, c->type);
    fprintf(f, "   driver          %s\n", c->driver);
    fprintf(f, "   identity        uuid %s, pci %s\n", vkb_fmt_uuid(c->uuid, uuid, sizeof uuid),
            c->pci_bus[0] ? c->pci_bus : "unknown");
    fprintf(f, "   Vulkan          %s\n", c->api_version);
    fprintf(f, "   subgroup size   %u (min %u, max %u)\n", c->subgroup_size, c->subgroup_min, c->subgroup_max);
    fprintf(f, "   shared memory   %s per workgroup\n", vkb_fmt_bytes(c->max_shared_bytes, buf, sizeof buf));
    fprintf(f, "   uniform buffer  %s at most\n", vkb_fmt_bytes(c->max_uniform_bytes, buf, sizeof buf));
    fprintf(f, "   device memory   %s, largest buffer %s\n", vkb_fmt_bytes(c->device_memory_bytes, mem, sizeof mem),
            vkb_fmt_bytes(c->max_buffer_bytes, buf, sizeof buf));
    fprintf(f, "   compute units   %s\n",
            c->compute_units ? (snprintf(buf, sizeof buf, "%u", c->compute_units), buf) : "unknown");
    fprintf(f, "   timestamps      %s (period %g ns)\n", c->timestamps ? "yes" : "no", c->timestamp_period_ns);
    if (llc)
        fprintf(f, "   measured cache  last level %s (cache.chase, kept in %s)\n", vkb_fmt_bytes(llc, mem, sizeof mem),
                cache_path);
    else
        fprintf(f, "   measured cache  not measured yet (a timed run measures it where nothing reports it)\n");
    fprintf(f, "   subgroup ops    basic %s, arithmetic %s, shuffle %s\n",
            c->features & VKB_NEED_SUBGROUP_BASIC ? "yes" : "no", c->features & VKB_NEED_SUBGROUP_ARITH ? "yes" : "no",
            c->features & VKB_NEED_SUBGROUP_SHUFFLE ? "yes" : "no");
    fprintf(f,
            "   extensions      subgroup_size_control %s, cooperative_matrix NV %s KHR %s, float16 %s, "
            "pipeline_executable_properties %s, pipeline_robustness %s\n",
            c->ext_subgroup_size_control ? "yes" : "no", c->ext_coopmat_nv ? "yes" : "no",
            c->ext_coopmat_khr ? "yes" : "no", c->features & VKB_NEED_FLOAT16 ? "yes" : "no",
            c->ext_pipeline_exec_props ? "yes" : "no", c->ext_pipeline_robustness ? "yes" : "no");
    /* only the sizes a device lists: a device without the extensions has none, not 0x0x0 */
    fputs("   coopmat sizes  ", f);
    if (c->ext_coopmat_khr)
        fprintf(f, " KHR fp16->fp32 %s, fp16->fp16 %s%s", size_text(c->coopmat_khr, a, sizeof a),
                size_text(c->coopmat_khr16, b, sizeof b), c->coopmat2_granularity[0] ? ";" : "");
    if (c->coopmat2_granularity[0])
        fprintf(f, " NV coopmat2 granularity %s, %u invocations", size_text(c->coopmat2_granularity, g, sizeof g),
                c->coopmat2_max_invocations);
    fputs(c->ext_coopmat_khr || c->coopmat2_granularity[0] ? "\n" : " none (no cooperative-matrix extension)\n", f);
    /* the peak family's number types, and every cooperative-matrix combination the device lists, in words */
    fprintf(f,
            "   number types    fp64 %s, int16 %s, int8 %s, int dot product %s, bf16 %s (cooperative matrices %s), "
            "fp8 cooperative matrices %s\n",
            c->features & VKB_NEED_FLOAT64 ? "yes" : "no", c->features & VKB_NEED_INT16 ? "yes" : "no",
            c->features & VKB_NEED_INT8 ? "yes" : "no", c->features & VKB_NEED_INT_DOT ? "yes" : "no",
            c->features & VKB_NEED_BFLOAT16 ? "yes" : "no", c->features & VKB_NEED_BFLOAT16_COOPMAT ? "yes" : "no",
            c->features & VKB_NEED_FLOAT8_COOPMAT ? "yes" : "no");
    if (c->coopmat2_missing[0]) /* listed, unusable: why its rows skip */
        fprintf(f, "   NV coopmat2     listed; %s\n", c->coopmat2_missing);
    for (uint32_t t = 0; t < c->ncoopmat_types; t++) {
        char text[160];
        vkb_coopmat_type_text(&c->coopmat_types[t], text, sizeof text);
        fprintf(f, "   coopmat type    %s\n", text);
    }
}
