/* caps.c - naming what a device lacks, and its vendor. */
#include "caps.h"

#include <stdio.h>
#include <string.h>

const char *vkb_caps_missing(const vkb_caps *caps, unsigned needs, char *buf, unsigned len)
{
    static const struct {
        unsigned bit;
        const char *what;
    } names[] = {
        {VKB_NEED_SUBGROUP_BASIC, "subgroup basic operations"},
        {VKB_NEED_SUBGROUP_ARITH, "subgroup arithmetic"},
        {VKB_NEED_SUBGROUP_SHUFFLE, "subgroup shuffle"},
        {VKB_NEED_FLOAT16, "float16 arithmetic and 16-bit storage"},
        {VKB_NEED_COOPMAT, "cooperative matrix (fp16 x fp16 -> fp32)"},
        {VKB_NEED_ATOMIC_FLOAT, "float atomic add on storage buffers"},
        {VKB_NEED_COOPMAT_KHR, "VK_KHR_cooperative_matrix"},
        {VKB_NEED_COOPMAT2, "VK_NV_cooperative_matrix2 (workgroup scope, flexible sizes, tensor addressing)"},
        {VKB_NEED_FLOAT64, "shaderFloat64"},
        {VKB_NEED_INT16, "shaderInt16"},
        {VKB_NEED_INT_DOT, "shaderIntegerDotProduct (VK_KHR_shader_integer_dot_product)"},
        {VKB_NEED_BFLOAT16, "VK_KHR_shader_bfloat16"},
        {VKB_NEED_INT8, "shaderInt8"},
        {VKB_NEED_BFLOAT16_COOPMAT, "bf16 cooperative matrices (VK_KHR_shader_bfloat16's bfloat16CooperativeMatrix)"},
        {VKB_NEED_FLOAT8_COOPMAT, "fp8 cooperative matrices (VK_EXT_shader_float8's shaderFloat8CooperativeMatrix)"},
    };
    size_t used = 0;
    unsigned missing = needs & ~caps->features;
    buf[0] = 0;
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(missing & names[i].bit) || used >= len)
            continue;
        if (names[i].bit == VKB_NEED_COOPMAT_KHR && caps->ncoopmat_types > 0) /* listed, without the base */
            used += (size_t)snprintf(buf + used, len - used,
                                     "%sVK_KHR_cooperative_matrix's fp16 x fp16 + fp32 "
                                     "(listed without it; every tensor-core row starts from it)",
                                     used ? ", " : "");
        else if (names[i].bit == VKB_NEED_COOPMAT2 && caps->coopmat2_missing[0]) /* listed: which feature it lacks */
            used += (size_t)snprintf(buf + used, len - used, "%sVK_NV_cooperative_matrix2 (listed; %s)",
                                     used ? ", " : "", caps->coopmat2_missing);
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", names[i].what);
    }
    return buf;
}

const char *vkb_caps_vendor_name(uint32_t vendor_id)
{
    /* PCI-SIG vendor IDs, and the Khronos IDs (VkVendorId) of vendors without one */
    static const struct {
        uint32_t id;
        const char *name;
    } vendors[] = {
        {0x10DE, "NVIDIA"},   {0x1002, "AMD"},          {0x1022, "AMD"},    {0x8086, "Intel"},     {0x13B5, "ARM"},
        {0x5143, "Qualcomm"}, {0x1010, "Imagination"},  {0x106B, "Apple"},  {0x14E4, "Broadcom"},  {0x1AE0, "Google"},
        {0x10001, "Vivante"}, {0x10002, "VeriSilicon"}, {0x10003, "Kazan"}, {0x10004, "Codeplay"}, {0x10005, "Mesa"},
        {0x10006, "PoCL"},    {0x10007, "Mobileye"},
    };
    for (size_t i = 0; i < sizeof vendors / sizeof vendors[0]; i++)
        if (vendors[i].id == vendor_id)
            return vendors[i].name;
    return NULL;
}

int vkb_coopmat_pick(const vkb_coopmat_type *t, uint32_t n, uint32_t ab, uint32_t acc, uint32_t out[3])
{
    uint64_t best = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t vol = (uint64_t)t[i].m * t[i].n * t[i].k;
        if (t[i].scope == VKB_SCOPE_SUBGROUP && t[i].a == ab && t[i].b == ab && t[i].c == acc && t[i].result == acc &&
            !t[i].saturating && vol > best) {
            best = vol;
            out[0] = t[i].m; /* M, N, K in this order: the planner reads them so */
            out[1] = t[i].n;
            out[2] = t[i].k;
        }
    }
    return best != 0;
}
