/* test_caps.c - what a skipped row says the device lacks (vkb_caps_missing): each bit in words, and for
 * VK_NV_cooperative_matrix2 listed but unusable (lavapipe 26) the features the driver reads absent. */
#include <string.h>

#include "caps.h"
#include "unit.h"

static void missing_words(void)
{
    vkb_caps c;
    char buf[300];
    memset(&c, 0, sizeof c);
    c.features = VKB_NEED_COOPMAT_KHR;
    ASSERT(strcmp(vkb_caps_missing(&c, VKB_NEED_COOPMAT_KHR | VKB_NEED_BFLOAT16_COOPMAT, buf, sizeof buf),
                  "bf16 cooperative matrices (VK_KHR_shader_bfloat16's bfloat16CooperativeMatrix)") == 0);
    ASSERT(strcmp(vkb_caps_missing(&c, VKB_NEED_FLOAT8_COOPMAT, buf, sizeof buf),
                  "fp8 cooperative matrices (VK_EXT_shader_float8's shaderFloat8CooperativeMatrix)") == 0);
    ASSERT(strcmp(vkb_caps_missing(&c, VKB_NEED_COOPMAT_KHR, buf, sizeof buf), "") == 0);
}

static void coopmat2_features_named(void)
{
    vkb_caps c;
    char buf[300];
    memset(&c, 0, sizeof c);
    /* not listed: the extension and what the rows use of it */
    ASSERT(strcmp(vkb_caps_missing(&c, VKB_NEED_COOPMAT2, buf, sizeof buf),
                  "VK_NV_cooperative_matrix2 (workgroup scope, flexible sizes, tensor addressing)") == 0);
    /* listed, features absent (host/backends/vulkan/coopmat.c fills coopmat2_missing) */
    strcpy(c.coopmat2_missing, "cooperativeMatrixWorkgroupScope, cooperativeMatrixTensorAddressing absent");
    ASSERT(strcmp(vkb_caps_missing(&c, VKB_NEED_COOPMAT2 | VKB_NEED_INT8, buf, sizeof buf),
                  "VK_NV_cooperative_matrix2 (listed; cooperativeMatrixWorkgroupScope, "
                  "cooperativeMatrixTensorAddressing absent), shaderInt8") == 0);
}

/* A skip names what is missing, not "needs VK_KHR_cooperative_matrix (fp16 inputs)" for the int8 and bf16 rows
 * (a type they do not use). Not listed: the extension alone; listed without the fp16 x fp16 + fp32 combination every
 * tensor-core row starts from: that, said as such. */
static void coopmat_khr_named(void)
{
    vkb_caps c;
    char buf[300];
    memset(&c, 0, sizeof c);
    ASSERT(strcmp(vkb_caps_missing(&c, VKB_NEED_COOPMAT_KHR | VKB_NEED_INT8, buf, sizeof buf),
                  "VK_KHR_cooperative_matrix, shaderInt8") == 0);
    c.ncoopmat_types = 1;
    ASSERT(strcmp(vkb_caps_missing(&c, VKB_NEED_COOPMAT_KHR, buf, sizeof buf),
                  "VK_KHR_cooperative_matrix's fp16 x fp16 + fp32 (listed without it; every tensor-core row starts "
                  "from it)") == 0);
}

UNIT_TESTS({"missing_words", missing_words}, {"coopmat2_features_named", coopmat2_features_named},
           {"coopmat_khr_named", coopmat_khr_named})
