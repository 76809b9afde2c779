/* peak_features.c - fp64, int16, integer dot products, bf16 and fp8 for the peak and matmul families.
 * VK_KHR_shader_bfloat16 and VK_EXT_shader_float8 postdate Debian 12's headers (1.3.239): their feature structs
 * are declared here with the registry's values (vk.xml: extension 142, VkPhysicalDeviceShaderBfloat16FeaturesKHR;
 * extension 568, VkPhysicalDeviceShaderFloat8FeaturesEXT). */
#include "peak_features.h"

#include <string.h>

#define ST_BF16_FEATURES ((VkStructureType)1000141000)
#define ST_FP8_FEATURES ((VkStructureType)1000567000)

typedef struct {
    VkStructureType sType;
    void *pNext;
    VkBool32 bfloat16_type, bfloat16_dot_product, bfloat16_cooperative_matrix;
} bf16_features;

typedef struct {
    VkStructureType sType;
    void *pNext;
    VkBool32 float8, float8_cooperative_matrix;
} fp8_features;

static VkPhysicalDeviceShaderIntegerDotProductFeatures dot_enable;
static VkPhysicalDeviceMaintenance4Features m4_enable;
static bf16_features bf16_enable;
static fp8_features fp8_enable;

static int has_ext(const VkExtensionProperties *exts, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(exts[i].extensionName, name) == 0)
            return 1;
    return 0;
}

void vkb_peak_features_caps(VkPhysicalDevice phys, const VkExtensionProperties *exts, uint32_t next, uint32_t api,
                            const VkPhysicalDeviceFeatures *core, vkb_caps *c)
{
    VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceShaderIntegerDotProductFeatures dot = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES};
    VkPhysicalDeviceMaintenance4Features m4 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES};
    bf16_features bf16 = {ST_BF16_FEATURES};
    fp8_features fp8 = {ST_FP8_FEATURES};
    void **tail = &f2.pNext;
    int has_bf16 = has_ext(exts, next, "VK_KHR_shader_bfloat16"), has_fp8 = has_ext(exts, next, "VK_EXT_shader_float8");
    if (core->shaderFloat64)
        c->features |= VKB_NEED_FLOAT64;
    if (core->shaderInt16)
        c->features |= VKB_NEED_INT16;
    /* the dot-product shader is SPIR-V 1.6 (the newer compiler, Vulkan 1.3), where the feature is core */
    if (api >= VK_API_VERSION_1_3) {
        *tail = &dot;
        dot.pNext = &m4;
        tail = &m4.pNext;
    }
    if (has_bf16) {
        *tail = &bf16;
        tail = &bf16.pNext;
    }
    if (has_fp8)
        *tail = &fp8;
    if (!f2.pNext)
        return;
    vkGetPhysicalDeviceFeatures2(phys, &f2);
    if (dot.shaderIntegerDotProduct)
        c->features |= VKB_NEED_INT_DOT;
    if (bf16.bfloat16_type)
        c->features |= VKB_NEED_BFLOAT16;
    if (bf16.bfloat16_type && bf16.bfloat16_cooperative_matrix) /* the bf16 cooperative-matrix rows need both */
        c->features |= VKB_NEED_BFLOAT16_COOPMAT;
    if (fp8.float8 && fp8.float8_cooperative_matrix)
        c->features |= VKB_NEED_FLOAT8_COOPMAT;
    c->maintenance4 = m4.maintenance4 != 0;
}

void **vkb_peak_features_enable(const vkb_caps *c, VkPhysicalDeviceFeatures *core, void **tail, const char **enable,
                                uint32_t *n)
{
    core->shaderFloat64 = (c->features & VKB_NEED_FLOAT64) != 0;
    core->shaderInt16 = (c->features & VKB_NEED_INT16) != 0;
    if (c->features & VKB_NEED_INT_DOT) {
        dot_enable = (VkPhysicalDeviceShaderIntegerDotProductFeatures){
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES};
        dot_enable.shaderIntegerDotProduct = VK_TRUE;
        *tail = &dot_enable;
        tail = &dot_enable.pNext;
    }
    if (c->maintenance4) {
        m4_enable = (VkPhysicalDeviceMaintenance4Features){VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES};
        m4_enable.maintenance4 = VK_TRUE;
        *tail = &m4_enable;
        tail = &m4_enable.pNext;
    }
    if (c->features & VKB_NEED_BFLOAT16) {
        enable[(*n)++] = "VK_KHR_shader_bfloat16";
        bf16_enable = (bf16_features){ST_BF16_FEATURES};
        bf16_enable.bfloat16_type = VK_TRUE;
        bf16_enable.bfloat16_cooperative_matrix = (c->features & VKB_NEED_BFLOAT16_COOPMAT) != 0;
        *tail = &bf16_enable;
        tail = &bf16_enable.pNext;
    }
    if (c->features & VKB_NEED_FLOAT8_COOPMAT) {
        enable[(*n)++] = "VK_EXT_shader_float8";
        fp8_enable = (fp8_features){ST_FP8_FEATURES};
        fp8_enable.float8 = fp8_enable.float8_cooperative_matrix = VK_TRUE;
        *tail = &fp8_enable;
        tail = &fp8_enable.pNext;
    }
    return tail;
}
