/* coopmat.c - the device's cooperative-matrix sizes (KHR and NV cooperative_matrix2) and their features.
 * Debian 12's Vulkan headers (1.3.239) predate both extensions, so their few structs are declared here
 * with the registry's values (vk.xml: extensions 507 and 594), under our own names. */
#include "coopmat.h"

#include <stdio.h>
#include <string.h>

#define ST_CM_KHR_FEATURES ((VkStructureType)1000506000)
#define ST_CM_KHR_PROPERTIES ((VkStructureType)1000506001)
#define ST_CM2_FEATURES ((VkStructureType)1000593000)
#define ST_CM2_FLEX_PROPERTIES ((VkStructureType)1000593001)
#define ST_CM2_PROPERTIES ((VkStructureType)1000593002)
enum { COMPONENT_F16 = 0, COMPONENT_F32 = 1, SCOPE_WORKGROUP = 2, SCOPE_SUBGROUP = 3 };

typedef struct {
    VkStructureType sType;
    void *pNext;
    VkBool32 cooperativeMatrix, cooperativeMatrixRobustBufferAccess;
} cm_features;

typedef struct {
    VkStructureType sType;
    void *pNext;
    uint32_t m, n, k;
    uint32_t a_type, b_type, c_type, result_type; /* VkComponentTypeKHR */
    VkBool32 saturating;
    uint32_t scope; /* VkScopeKHR */
} cm_properties;

typedef struct {
    VkStructureType sType;
    void *pNext;
    VkBool32 workgroup_scope, flexible_dimensions, reductions, conversions, per_element, tensor_addressing, block_loads;
} cm2_features;

typedef struct {
    VkStructureType sType;
    void *pNext;
    uint32_t max_workgroup_size, max_dimension, reserved_shared;
} cm2_properties;

typedef struct {
    VkStructureType sType;
    void *pNext;
    uint32_t m, n, k;
    uint32_t a_type, b_type, c_type, result_type;
    VkBool32 saturating;
    uint32_t scope;
    uint32_t invocations;
} cm2_flex_properties;

typedef VkResult(VKAPI_PTR *cm_query)(VkPhysicalDevice, uint32_t *, void *);

#define MAX_ENTRIES 64

static cm_features khr_enable;
static cm2_features cm2_enable;

static int has_ext(const VkExtensionProperties *exts, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(exts[i].extensionName, name) == 0)
            return 1;
    return 0;
}

void vkb_coopmat_caps(VkPhysicalDevice phys, const VkExtensionProperties *exts, uint32_t next, int base_ok, vkb_caps *c)
{
    VkInstance inst = volkGetLoadedInstance();
    VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    cm_features khr = {ST_CM_KHR_FEATURES};
    cm2_features cm2 = {ST_CM2_FEATURES};
    int has_khr = has_ext(exts, next, "VK_KHR_cooperative_matrix");
    int has_cm2 = has_khr && has_ext(exts, next, "VK_NV_cooperative_matrix2");
    cm_query q;

    if (!has_khr || !inst)
        return;
    f2.pNext = &khr;
    if (has_cm2)
        khr.pNext = &cm2;
    vkGetPhysicalDeviceFeatures2(phys, &f2);

    q = (cm_query)vkGetInstanceProcAddr(inst, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
    if (q && khr.cooperativeMatrix) {
        cm_properties p[MAX_ENTRIES];
        uint32_t n = 0;
        q(phys, &n, NULL);
        if (n > MAX_ENTRIES)
            n = MAX_ENTRIES;
        for (uint32_t i = 0; i < n; i++)
            p[i] = (cm_properties){ST_CM_KHR_PROPERTIES};
        if (q(phys, &n, p) >= 0) {
            vkb_coopmat_type all[MAX_ENTRIES];
            int f32;
            for (uint32_t i = 0; i < n; i++)
                all[i] = (vkb_coopmat_type){p[i].m,      p[i].n,           p[i].k,     p[i].a_type,    p[i].b_type,
                                            p[i].c_type, p[i].result_type, p[i].scope, p[i].saturating};
            for (uint32_t i = 0; i < n && c->ncoopmat_types < VKB_MAX_COOPMAT_TYPES; i++) /* the peak rows' */
                c->coopmat_types[c->ncoopmat_types++] = all[i];
            f32 = vkb_coopmat_pick(all, n, VKB_CT_F16, VKB_CT_F32, c->coopmat_khr);
            vkb_coopmat_pick(all, n, VKB_CT_F16, VKB_CT_F16, c->coopmat_khr16);
            if (f32 && base_ok)
                c->features |= VKB_NEED_COOPMAT_KHR;
        }
    }

    if (has_cm2 && !(cm2.workgroup_scope && cm2.flexible_dimensions && cm2.tensor_addressing)) {
        /* listed, but a feature the rows need reads absent (lavapipe 26): name each, the driver's words */
        static const char *const names[3] = {"cooperativeMatrixWorkgroupScope", "cooperativeMatrixFlexibleDimensions",
                                             "cooperativeMatrixTensorAddressing"};
        VkBool32 have[3] = {cm2.workgroup_scope, cm2.flexible_dimensions, cm2.tensor_addressing};
        size_t used = 0;
        for (int i = 0; i < 3; i++)
            if (!have[i] && used < sizeof c->coopmat2_missing)
                used += (size_t)snprintf(c->coopmat2_missing + used, sizeof c->coopmat2_missing - used, "%s%s",
                                         used ? ", " : "", names[i]);
        if (used < sizeof c->coopmat2_missing)
            snprintf(c->coopmat2_missing + used, sizeof c->coopmat2_missing - used, " absent");
    }
    q = (cm_query)vkGetInstanceProcAddr(inst, "vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV");
    if (has_cm2 && q && cm2.workgroup_scope && cm2.flexible_dimensions && cm2.tensor_addressing) {
        cm2_flex_properties p[MAX_ENTRIES];
        VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        cm2_properties props = {ST_CM2_PROPERTIES};
        uint32_t n = 0;
        p2.pNext = &props;
        vkGetPhysicalDeviceProperties2(phys, &p2);
        q(phys, &n, NULL);
        if (n > MAX_ENTRIES)
            n = MAX_ENTRIES;
        for (uint32_t i = 0; i < n; i++)
            p[i] = (cm2_flex_properties){ST_CM2_FLEX_PROPERTIES};
        if (q(phys, &n, p) >= 0)
            for (uint32_t i = 0; i < n; i++) {
                if (p[i].scope == SCOPE_WORKGROUP && c->ncoopmat2_types < VKB_MAX_COOPMAT_TYPES)
                    c->coopmat2_types[c->ncoopmat2_types++] =
                        (vkb_coopmat_type){p[i].m,         p[i].n,      p[i].k,           p[i].a_type,
                                           p[i].b_type,    p[i].c_type, p[i].result_type, VKB_SCOPE_WORKGROUP,
                                           p[i].saturating};
                if (p[i].scope == SCOPE_WORKGROUP && p[i].a_type == COMPONENT_F16 && p[i].b_type == COMPONENT_F16 &&
                    p[i].c_type == COMPONENT_F32 && p[i].result_type == COMPONENT_F32 && !p[i].saturating &&
                    !c->coopmat2_granularity[0]) {
                    c->coopmat2_granularity[0] = p[i].m;
                    c->coopmat2_granularity[1] = p[i].n;
                    c->coopmat2_granularity[2] = p[i].k;
                }
            }
        c->coopmat2_max_invocations = props.max_workgroup_size;
        if (c->coopmat2_granularity[0] && base_ok && (c->features & VKB_NEED_COOPMAT_KHR))
            c->features |= VKB_NEED_COOPMAT2;
        else if (!c->coopmat2_granularity[0]) /* the features, but not the rows' types */
            snprintf(c->coopmat2_missing, sizeof c->coopmat2_missing,
                     "no workgroup-scope fp16 x fp16 + fp32 combination listed");
    }
}

void **vkb_coopmat_enable(const vkb_caps *c, void **tail, const char **enable, uint32_t *n)
{
    if (c->features & (VKB_NEED_COOPMAT_KHR | VKB_NEED_COOPMAT2)) {
        enable[(*n)++] = "VK_KHR_cooperative_matrix";
        khr_enable = (cm_features){ST_CM_KHR_FEATURES};
        khr_enable.cooperativeMatrix = VK_TRUE;
        *tail = &khr_enable;
        tail = &khr_enable.pNext;
    }
    if (c->features & VKB_NEED_COOPMAT2) {
        enable[(*n)++] = "VK_NV_cooperative_matrix2";
        cm2_enable = (cm2_features){ST_CM2_FEATURES};
        cm2_enable.workgroup_scope = VK_TRUE;
        cm2_enable.flexible_dimensions = VK_TRUE;
        cm2_enable.tensor_addressing = VK_TRUE;
        *tail = &cm2_enable;
        tail = &cm2_enable.pNext;
    }
    return tail;
}
