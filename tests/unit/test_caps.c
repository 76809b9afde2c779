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

/* A fake device whose list has a different fragment for each accumulator, none a cube, beside entries that must
 * not be taken though larger (workgroup scope, saturating, another result type, bf16 inputs): each pick is its own
 * accumulator's, its M, N and K in that order. */
static void fragments_by_accumulator(void)
{
    enum { F16 = VKB_CT_F16, F32 = VKB_CT_F32, BF16 = VKB_CT_BF16, SG = VKB_SCOPE_SUBGROUP, WG = VKB_SCOPE_WORKGROUP };
    static const vkb_coopmat_type list[] = {
        {8, 8, 16, F16, F16, F32, F32, SG, 0},     {16, 8, 16, F16, F16, F32, F32, SG, 0},
        {8, 16, 16, F16, F16, F16, F16, SG, 0},    {32, 32, 32, F16, F16, F32, F32, WG, 0},
        {16, 16, 32, F16, F16, F32, F32, SG, 1},   {16, 16, 16, F16, F16, F32, F16, SG, 0},
        {16, 16, 16, BF16, BF16, F32, F32, SG, 0}, {8, 8, 8, F16, F16, F16, F16, SG, 0},
    };
    uint32_t f[3] = {0, 0, 0};
    ASSERT(vkb_coopmat_pick(list, 8, F16, F32, f) == 1 && f[0] == 16 && f[1] == 8 && f[2] == 16);
    ASSERT(vkb_coopmat_pick(list, 8, F16, F16, f) == 1 && f[0] == 8 && f[1] == 16 && f[2] == 16);
    ASSERT(vkb_coopmat_pick(list, 8, BF16, F32, f) == 1 && f[0] == 16 && f[1] == 16 && f[2] == 16);
    f[0] = f[1] = f[2] = 7;
    ASSERT(vkb_coopmat_pick(list, 3, BF16, F32, f) == 0 && f[0] == 7 && f[1] == 7 && f[2] == 7); /* none listed */
}

UNIT_TESTS({"missing_words", missing_words}, {"coopmat2_features_named", coopmat2_features_named},
           {"coopmat_khr_named", coopmat_khr_named}, {"fragments_by_accumulator", fragments_by_accumulator})
