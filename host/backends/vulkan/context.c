/* context.c - volk, instance, validation messenger, device choice, queue, and the device's caps. */
#define VOLK_IMPLEMENTATION
#include "vk.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "check.h"
#include "env.h"
#include "fault.h"
#include "gpu_facts.h"
#include "coopmat.h"
#include "default_device.h"
#include "peak_features.h"
#include "signals.h"
#include "vulkan.h"

static _Atomic unsigned validation_messages; /* atomic: several devices' threads may report at once */
static int several;                          /* vkb_vulkan_several: device functions through the loader's dispatch */

unsigned vkb_vulkan_validation_messages(void)
{
    return validation_messages;
}

void vkb_vulkan_several(void)
{
    several = 1;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)type;
    (void)user;
    validation_messages++;
    fprintf(stderr, "vkbench: validation %s: %s\n",
            severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning",
            data->pMessage ? data->pMessage : "(no text)");
    return VK_FALSE;
}

static int load_loader(vkb_backend_error *e)
{
    char limits[300];
    void *lib;
    const char *why;
    if (volkInitialize() == VK_SUCCESS)
        return 0;
    /* volk does not say why: the dynamic linker does */
    lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    why = lib ? "it loads, but lacks vkGetInstanceProcAddr" : dlerror();
    vkb_limits_text(limits, sizeof limits);
    if (!limits[0] && why && strstr(why, "No such file"))
        return vkb_backend_fail(e, VKB_EXIT_NO_DEVICE,
                                "no Vulkan loader (libvulkan.so.1) found; install one "
                                "(Debian: libvulkan1 and a driver such as mesa-vulkan-drivers)");
    return vkb_backend_fail(e, VKB_EXIT_NO_DEVICE, "the Vulkan loader libvulkan.so.1 could not be loaded: %s%s",
                            why ? why : "?", limits);
}

static int has_layer(const char *name)
{
    uint32_t n = 0;
    VkLayerProperties *props;
    int found = 0;
    vkEnumerateInstanceLayerProperties(&n, NULL);
    props = vkb_calloc(n, sizeof *props);
    vkEnumerateInstanceLayerProperties(&n, props);
    for (uint32_t i = 0; i < n; i++)
        found |= strcmp(props[i].layerName, name) == 0;
    free(props);
    return found;
}

static int has_instance_ext(const char *name)
{
    uint32_t n = 0;
    VkExtensionProperties *props;
    int found = 0;
    vkEnumerateInstanceExtensionProperties(NULL, &n, NULL);
    props = vkb_calloc(n, sizeof *props);
    vkEnumerateInstanceExtensionProperties(NULL, &n, props);
    for (uint32_t i = 0; i < n; i++)
        found |= strcmp(props[i].extensionName, name) == 0;
    free(props);
    return found;
}

/* VK_NULL_HANDLE when it cannot, E saying why */
static VkInstance create_instance(int validation, VkDebugUtilsMessengerEXT *messenger, vkb_backend_error *e)
{
    const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
    const char *exts[2];
    uint32_t next = 0, version = VK_API_VERSION_1_1;
    VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT features = {VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    VkDebugUtilsMessengerCreateInfoEXT mci = {VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    VkInstance instance;
    VkResult r;

    if (vkEnumerateInstanceVersion)
        vkEnumerateInstanceVersion(&version);
    app.pApplicationName = "vkbench";
    app.apiVersion = version >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : version;
    ici.pApplicationInfo = &app;
    if (has_instance_ext(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
        exts[next++] = VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME;
        ici.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    }
    mci.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    mci.pfnUserCallback = on_message;
    if (validation) {
        if (!has_layer(layers[0])) {
            vkb_backend_fail(e, VKB_EXIT_NO_DEVICE,
                             "--validation needs VK_LAYER_KHRONOS_validation "
                             "(Debian: vulkan-validationlayers)");
            return VK_NULL_HANDLE;
        }
        exts[next++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
        ici.enabledLayerCount = 1;
        ici.ppEnabledLayerNames = layers;
        /* messages during vkCreateInstance go to this chained messenger */
        ici.pNext = &mci;
        if (validation > 1) {
            features.enabledValidationFeatureCount = 1;
            features.pEnabledValidationFeatures = &sync;
            mci.pNext = &features;
        }
    }
    ici.enabledExtensionCount = next;
    ici.ppEnabledExtensionNames = exts;
    r = vkCreateInstance(&ici, NULL, &instance);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER || r == VK_ERROR_INITIALIZATION_FAILED) {
        vkb_backend_fail(e, VKB_EXIT_NO_DEVICE,
                         "no Vulkan driver found (vkCreateInstance: %s); install one "
                         "(Debian: mesa-vulkan-drivers for the CPU, or your GPU's driver)",
                         vkb_vk_result_text(r));
        return VK_NULL_HANDLE;
    }
    /* the loader answers a driver manifest it cannot parse with VK_ERROR_OUT_OF_HOST_MEMORY: a tiny
     * instance that fails is a broken driver installation, not a size to shrink */
    if (r != VK_SUCCESS) {
        vkb_backend_fail(e, VKB_EXIT_NO_DEVICE,
                         "the Vulkan loader could not create an instance (vkCreateInstance: "
                         "%s): a driver or its manifest is broken; check VK_DRIVER_FILES / VK_ICD_FILENAMES, "
                         "reinstall the driver",
                         vkb_vk_result_text(r));
        return VK_NULL_HANDLE;
    }
    volkLoadInstanceOnly(instance);
    *messenger = VK_NULL_HANDLE;
    if (validation) {
        mci.pNext = NULL; /* the validation features chain belongs to the instance only */
        if (!vkb_vk_ok(e, vkCreateDebugUtilsMessengerEXT(instance, &mci, NULL, messenger),
                       "vkCreateDebugUtilsMessengerEXT", __FILE__, __LINE__)) {
            vkDestroyInstance(instance, NULL);
            return VK_NULL_HANDLE;
        }
    }
    return instance;
}

static int has_device_ext(const VkExtensionProperties *e, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(e[i].extensionName, name) == 0)
            return 1;
    return 0;
}

static const char *type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

static uint32_t pick_queue_family(VkPhysicalDevice phys, uint32_t *ts_bits)
{
    uint32_t n = 0, best = UINT32_MAX;
    VkQueueFamilyProperties *q;
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &n, NULL);
    q = vkb_calloc(n, sizeof *q);
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &n, q);
    /* the first compute family that writes timestamps; else any compute family */
    for (uint32_t i = 0; i < n && best == UINT32_MAX; i++)
        if ((q[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && q[i].timestampValidBits)
            best = i;
    for (uint32_t i = 0; i < n && best == UINT32_MAX; i++)
        if (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            best = i;
    *ts_bits = best == UINT32_MAX ? 0 : q[best].timestampValidBits;
    free(q);
    return best;
}

/* A queue family that transfers and does not compute (a DMA engine of its own), or UINT32_MAX; its queue count
 * into *COUNT. */
static uint32_t pick_transfer_family(VkPhysicalDevice phys, uint32_t *count)
{
    uint32_t n = 0, best = UINT32_MAX;
    VkQueueFamilyProperties *q;
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &n, NULL);
    q = vkb_calloc(n, sizeof *q);
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &n, q);
    for (uint32_t i = 0; i < n && best == UINT32_MAX; i++)
        if ((q[i].queueFlags & VK_QUEUE_TRANSFER_BIT) &&
            !(q[i].queueFlags & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT)))
            best = i;
    *count = best == UINT32_MAX ? 0 : q[best].queueCount;
    free(q);
    return best;
}

/* Fill CAPS from the device's properties; EXTS lists its extensions. */
static void read_caps(VkPhysicalDevice phys, const VkExtensionProperties *exts, uint32_t next, vkb_caps *c)
{
    VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    VkPhysicalDeviceSubgroupProperties sg = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceSubgroupSizeControlPropertiesEXT sgc = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES_EXT};
    VkPhysicalDeviceIDProperties id = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceMaintenance3Properties m3 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
    VkPhysicalDeviceDriverProperties drv = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
    VkPhysicalDeviceShaderCorePropertiesAMD amd = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};
    VkPhysicalDevicePCIBusInfoPropertiesEXT pci = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT};
    int has_pci = has_device_ext(exts, next, VK_EXT_PCI_BUS_INFO_EXTENSION_NAME);
    VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDevice16BitStorageFeatures s16 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
    VkPhysicalDeviceCooperativeMatrixFeaturesNV cm = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT af = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceMemoryProperties mem;
    const VkPhysicalDeviceLimits *lim = &p2.properties.limits;
    uint32_t api;

    memset(c, 0, sizeof *c);
    c->ext_subgroup_size_control = has_device_ext(exts, next, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
    c->ext_coopmat_nv = has_device_ext(exts, next, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
    c->ext_coopmat_khr = has_device_ext(exts, next, "VK_KHR_cooperative_matrix");
    c->ext_float16 = has_device_ext(exts, next, VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME);
    c->ext_pipeline_exec_props = has_device_ext(exts, next, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    c->ext_pipeline_robustness = has_device_ext(exts, next, VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME);

    vkGetPhysicalDeviceProperties(phys, &p2.properties);
    api = p2.properties.apiVersion;
    p2.pNext = &sg;
    sg.pNext = &id;
    id.pNext = &m3;
    if (api >= VK_API_VERSION_1_2) {
        m3.pNext = &drv;
    }
    {
        void **tail = api >= VK_API_VERSION_1_2 ? &drv.pNext : &m3.pNext;
        if (c->ext_subgroup_size_control || api >= VK_API_VERSION_1_3) {
            *tail = &sgc;
            tail = &sgc.pNext;
        }
        if (has_device_ext(exts, next, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
            *tail = &sm;
            tail = &sm.pNext;
        }
        if (has_device_ext(exts, next, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) {
            *tail = &amd;
            tail = &amd.pNext;
        }
        if (has_pci) {
            *tail = &pci;
            tail = &pci.pNext;
        }
    }
    vkGetPhysicalDeviceProperties2(phys, &p2);

    snprintf(c->name, sizeof c->name, "%s", p2.properties.deviceName);
    if (api >= VK_API_VERSION_1_2)
        snprintf(c->driver, sizeof c->driver, "%.120s %.120s", drv.driverName, drv.driverInfo);
    else
        snprintf(c->driver, sizeof c->driver, "driver version 0x%x", p2.properties.driverVersion);
    snprintf(c->api_version, sizeof c->api_version, "%u.%u.%u", VK_API_VERSION_MAJOR(api), VK_API_VERSION_MINOR(api),
             VK_API_VERSION_PATCH(api));
    snprintf(c->type, sizeof c->type, "%s", type_name(p2.properties.deviceType));
    c->is_cpu = p2.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    c->vendor_id = p2.properties.vendorID;
    c->device_id = p2.properties.deviceID;
    snprintf(c->vendor, sizeof c->vendor, "%s",
             vkb_caps_vendor_name(c->vendor_id) ? vkb_caps_vendor_name(c->vendor_id) : "");
    memcpy(c->uuid, id.deviceUUID, sizeof c->uuid);
    if (has_pci)
        snprintf(c->pci_bus, sizeof c->pci_bus, "%04x:%02x:%02x.%x", pci.pciDomain & 0xffff, pci.pciBus & 0xff,
                 pci.pciDevice & 0x1f, pci.pciFunction & 0x7);
    c->subgroup_size = c->subgroup_min = c->subgroup_max = sg.subgroupSize;
    if (sgc.maxSubgroupSize) {
        c->subgroup_min = sgc.minSubgroupSize;
        c->subgroup_max = sgc.maxSubgroupSize;
    }
    c->max_shared_bytes = lim->maxComputeSharedMemorySize;
    c->max_workgroup_invocations = lim->maxComputeWorkGroupInvocations;
    memcpy(c->max_workgroup_size, lim->maxComputeWorkGroupSize, sizeof c->max_workgroup_size);
    memcpy(c->max_group_count, lim->maxComputeWorkGroupCount, sizeof c->max_group_count);
    c->max_buffer_bytes = lim->maxStorageBufferRange;
    c->max_uniform_bytes = lim->maxUniformBufferRange;
    if (m3.maxMemoryAllocationSize && m3.maxMemoryAllocationSize < c->max_buffer_bytes)
        c->max_buffer_bytes = m3.maxMemoryAllocationSize;
    c->timestamps = lim->timestampPeriod > 0;
    c->timestamp_period_ns = lim->timestampPeriod;
    if (sm.shaderSMCount)
        c->compute_units = sm.shaderSMCount;
    else if (amd.computeUnitsPerShaderArray)
        c->compute_units = amd.shaderEngineCount * amd.shaderArraysPerEngineCount * amd.computeUnitsPerShaderArray;

    vkGetPhysicalDeviceMemoryProperties(phys, &mem);
    for (uint32_t i = 0; i < mem.memoryHeapCount; i++)
        if ((mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) &&
            mem.memoryHeaps[i].size > c->device_memory_bytes)
            c->device_memory_bytes = mem.memoryHeaps[i].size;

    if (sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) {
        if (sg.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT)
            c->features |= VKB_NEED_SUBGROUP_BASIC;
        if (sg.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT)
            c->features |= VKB_NEED_SUBGROUP_ARITH;
        if (sg.supportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT)
            c->features |= VKB_NEED_SUBGROUP_SHUFFLE;
    }
    /* features: ask only for structs the device's API version or extensions know */
    {
        void **tail = &f2.pNext;
        if (api >= VK_API_VERSION_1_2) {
            *tail = &f12;
            tail = &f12.pNext;
        }
        *tail = &s16;
        tail = &s16.pNext;
        if (c->ext_coopmat_nv) {
            *tail = &cm;
            tail = &cm.pNext;
        }
        if (has_device_ext(exts, next, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME)) {
            *tail = &af;
            tail = &af.pNext;
        }
    }
    vkGetPhysicalDeviceFeatures2(phys, &f2);
    if (f12.shaderFloat16 && s16.storageBuffer16BitAccess)
        c->features |= VKB_NEED_FLOAT16;
    if (f12.shaderInt8 && f12.storageBuffer8BitAccess) /* int8 arithmetic, and int8 buffers (the int8 GEMMs) */
        c->features |= VKB_NEED_INT8;
    /* glslang declares the Vulkan memory model in every shader that uses cooperative matrices */
    if (cm.cooperativeMatrix && (c->features & VKB_NEED_FLOAT16) && f12.vulkanMemoryModel)
        c->features |= VKB_NEED_COOPMAT;
    if (af.shaderBufferFloat32AtomicAdd)
        c->features |= VKB_NEED_ATOMIC_FLOAT;
    vkb_coopmat_caps(phys, exts, next, (c->features & VKB_NEED_FLOAT16) && f12.vulkanMemoryModel, c);
    vkb_peak_features_caps(phys, exts, next, api, &f2.features, c);
}

static VkExtensionProperties *device_exts(VkPhysicalDevice phys, uint32_t *n)
{
    VkExtensionProperties *e;
    *n = 0;
    vkEnumerateDeviceExtensionProperties(phys, NULL, n, NULL);
    e = vkb_calloc(*n, sizeof *e);
    vkEnumerateDeviceExtensionProperties(phys, NULL, n, e);
    return e;
}

/* NULL when there is none or they cannot be listed, E saying why */
static VkPhysicalDevice *physical_devices(VkInstance instance, uint32_t *n, vkb_backend_error *e)
{
    VkPhysicalDevice *list;
    VkResult r = vkEnumeratePhysicalDevices(instance, n, NULL);
    char limits[300];
    vkb_limits_text(limits, sizeof limits);
    if (r != VK_SUCCESS)
        vkb_backend_fail(e, r == VK_ERROR_OUT_OF_HOST_MEMORY ? VKB_EXIT_RESOURCE : VKB_EXIT_NO_DEVICE,
                         "listing the Vulkan devices failed: %s%s", vkb_vk_result_text(r), limits);
    else if (*n == 0 && limits[0])
        vkb_backend_fail(e, VKB_EXIT_NO_DEVICE,
                         "no Vulkan device found (no driver loaded)%s; VK_LOADER_DEBUG=error "
                         "says why",
                         limits);
    else if (*n == 0)
        vkb_backend_fail(e, VKB_EXIT_NO_DEVICE,
                         "no Vulkan device found; install a driver "
                         "(Debian: mesa-vulkan-drivers for the CPU, or your GPU's driver)");
    if (r != VK_SUCCESS || *n == 0)
        return NULL;
    list = vkb_calloc(*n, sizeof *list);
    if (!vkb_vk_ok(e, vkEnumeratePhysicalDevices(instance, n, list), "vkEnumeratePhysicalDevices", __FILE__,
                   __LINE__)) {
        free(list);
        return NULL;
    }
    return list;
}

/* Index of the device SELECT names: an index, a name substring, or NULL for the first discrete GPU,
 * else integrated GPU, else the first device (a CPU implementation); UINT32_MAX when none is, E saying why. */
static uint32_t choose_device(VkPhysicalDevice *list, uint32_t n, const char *select, vkb_backend_error *e)
{
    VkPhysicalDeviceProperties p;
    char *end;
    int *types;
    uint32_t chosen;
    if (select && *select) {
        /* an index: decimal digits, read whole (4294967297 is not device 1) */
        if (strspn(select, "0123456789") == strlen(select)) {
            unsigned long long idx;
            errno = 0;
            idx = strtoull(select, &end, 10);
            if (!errno && idx < n)
                return (uint32_t)idx;
            vkb_backend_fail(e, VKB_EXIT_NO_DEVICE,
                             "no Vulkan device %.30s: there %s %u (0..%u); see `vkbench "
                             "devices`",
                             select, n == 1 ? "is" : "are", n, n - 1);
            return UINT32_MAX;
        }
        for (uint32_t i = 0; i < n; i++) {
            vkGetPhysicalDeviceProperties(list[i], &p);
            if (vkb_holds_nocase(p.deviceName, select, strlen(select)))
                return i;
        }
        vkb_backend_fail(e, VKB_EXIT_NO_DEVICE, "no Vulkan device named like '%.200s'; see `vkbench devices`", select);
        return UINT32_MAX;
    }
    types = vkb_alloc((n ? n : 1) * sizeof *types);
    for (uint32_t i = 0; i < n; i++) {
        vkGetPhysicalDeviceProperties(list[i], &p);
        types[i] = (int)p.deviceType;
    }
    chosen = vkb_default_device(types, n);
    free(types);
    return chosen;
}

static int create_device(vkb_vk *vk, const VkExtensionProperties *exts, uint32_t next)
{
    float priority[2] = {1.0f, 1.0f};
    const char *enable[16];
    uint32_t nenable = 0;
    VkDeviceQueueCreateInfo qci[2] = {{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO},
                                      {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}};
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDevice16BitStorageFeatures s16 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
    VkPhysicalDeviceCooperativeMatrixFeaturesNV cm = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT af = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
    VkPhysicalDeviceSubgroupSizeControlFeaturesEXT sgc = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES_EXT};
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pe = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    VkPhysicalDevicePipelineRobustnessFeaturesEXT pr = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT};
    VkPhysicalDeviceProperties props;
    void **tail = &f2.pNext;
    const vkb_caps *c = vk->caps;

    vkGetPhysicalDeviceProperties(vk->phys, &props);
    for (int i = 0; i < 2; i++) {
        qci[i].queueFamilyIndex = i ? vk->xfer_family : vk->queue_family;
        qci[i].queueCount = i ? vk->xfer_count : 1;
        qci[i].pQueuePriorities = priority;
    }
    if (props.apiVersion >= VK_API_VERSION_1_2) {
        f12.shaderFloat16 = (c->features & VKB_NEED_FLOAT16) != 0;
        f12.shaderInt8 = (c->features & VKB_NEED_INT8) != 0;
        f12.storageBuffer8BitAccess = (c->features & VKB_NEED_INT8) != 0;
        f12.vulkanMemoryModel = (c->features & (VKB_NEED_COOPMAT | VKB_NEED_COOPMAT_KHR | VKB_NEED_COOPMAT2)) != 0;
        *tail = &f12;
        tail = &f12.pNext;
    }
    s16.storageBuffer16BitAccess = (c->features & VKB_NEED_FLOAT16) != 0;
    *tail = &s16;
    tail = &s16.pNext;
    if (c->features & VKB_NEED_COOPMAT) {
        enable[nenable++] = VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME;
        cm.cooperativeMatrix = VK_TRUE;
        *tail = &cm;
        tail = &cm.pNext;
    }
    tail = vkb_coopmat_enable(c, tail, enable, &nenable);
    tail = vkb_peak_features_enable(c, &f2.features, tail, enable, &nenable);
    if (c->features & VKB_NEED_ATOMIC_FLOAT) {
        enable[nenable++] = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
        af.shaderBufferFloat32AtomicAdd = VK_TRUE;
        *tail = &af;
        tail = &af.pNext;
    }
    if (c->ext_subgroup_size_control || props.apiVersion >= VK_API_VERSION_1_3) {
        /* enable only what the device reports */
        VkPhysicalDeviceFeatures2 q = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        q.pNext = &sgc;
        vkGetPhysicalDeviceFeatures2(vk->phys, &q);
        sgc.pNext = NULL;
        if (sgc.subgroupSizeControl) {
            if (props.apiVersion < VK_API_VERSION_1_3)
                enable[nenable++] = VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME;
            *tail = &sgc;
            tail = &sgc.pNext;
        }
    }
    if (c->ext_pipeline_exec_props) {
        enable[nenable++] = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
        pe.pipelineExecutableInfo = VK_TRUE;
        *tail = &pe;
        tail = &pe.pNext;
        vk->has_exec_props = 1;
    }
    if (vk->robustness_off) {
        /* --robustness disabled: the extension's feature, without which the driver ignores the pipelines' struct
         * (pipelines.c). Through the extension also on a Vulkan 1.4 device: the instance asks for 1.3 */
        VkPhysicalDeviceFeatures2 q = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &pr};
        if (!c->ext_pipeline_robustness)
            return vkb_backend_fail(vk->error, VKB_EXIT_RESOURCE,
                                    "--robustness disabled: %s does not offer "
                                    "VK_EXT_pipeline_robustness",
                                    c->name);
        vkGetPhysicalDeviceFeatures2(vk->phys, &q);
        if (!pr.pipelineRobustness)
            return vkb_backend_fail(vk->error, VKB_EXIT_RESOURCE,
                                    "--robustness disabled: %s lists "
                                    "VK_EXT_pipeline_robustness without its pipelineRobustness feature",
                                    c->name);
        enable[nenable++] = VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME;
        *tail = &pr;
        tail = &pr.pNext;
    }
    if (props.apiVersion < VK_API_VERSION_1_2 && c->ext_float16)
        enable[nenable++] = VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME;
    (void)exts;
    (void)next;
    dci.pNext = &f2;
    dci.queueCreateInfoCount = vk->xfer_family == UINT32_MAX ? 1 : 2;
    dci.pQueueCreateInfos = qci;
    dci.enabledExtensionCount = nenable;
    dci.ppEnabledExtensionNames = enable;
    VKB_TRY(vk, vkCreateDevice(vk->phys, &dci, NULL, &vk->device));
    if (several)
        volkLoadInstance(vk->instance); /* the loader's trampolines: they dispatch on the device itself */
    else
        volkLoadDevice(vk->device); /* direct pointers into this one device's driver */
    vkGetDeviceQueue(vk->device, vk->queue_family, 0, &vk->queue);
    for (uint32_t i = 0; i < vk->xfer_count; i++)
        vkGetDeviceQueue(vk->device, vk->xfer_family, i, &vk->xfer_queue[i]);
    return 0;
}

/* VKB_DEVICE_TIMEOUT_S: how long one submission may take before the device is taken for hung; -1 when it is
 * malformed, E saying so. */
static double device_timeout_s(vkb_backend_error *e)
{
    char why[160];
    double v;
    int set = vkb_env_number("VKB_DEVICE_TIMEOUT_S", &v, why, sizeof why);
    if (set < 0)
        return vkb_backend_fail(e, VKB_EXIT_USAGE, "%s", why);
    return set ? v : DEVICE_TIMEOUT_S;
}

/* The context's device and its caps, queues and pools into VK (whose error record is set); 0, or -1 failed. */
static int open_device(vkb_vk *vk, const char *select, int validation)
{
    VkPhysicalDevice *list;
    VkPhysicalDeviceProperties props;
    VkExtensionProperties *exts;
    uint32_t n, next, index;
    VkCommandPoolCreateInfo pci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkPipelineCacheCreateInfo cache_ci = {VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    int rc;

    /* a malformed VKB_DEVICE_TIMEOUT_S fails now, not at the first slow wait */
    if ((vk->timeout_s = device_timeout_s(vk->error)) < 0 || load_loader(vk->error))
        return -1;
    if (!(vk->instance = create_instance(validation, &vk->messenger, vk->error)))
        return -1;
    if (!(list = physical_devices(vk->instance, &n, vk->error)))
        return -1;
    index = choose_device(list, n, select, vk->error);
    vk->phys = index == UINT32_MAX ? VK_NULL_HANDLE : list[index];
    free(list);
    if (index == UINT32_MAX)
        return -1;

    vkGetPhysicalDeviceProperties(vk->phys, &props);
    if (props.apiVersion < VK_API_VERSION_1_1)
        return vkb_backend_fail(vk->error, VKB_EXIT_NO_DEVICE, "%s offers Vulkan %u.%u; vkbench needs 1.1 or later",
                                props.deviceName, VK_API_VERSION_MAJOR(props.apiVersion),
                                VK_API_VERSION_MINOR(props.apiVersion));
    exts = device_exts(vk->phys, &next);
    read_caps(vk->phys, exts, next, vk->caps);
    vk->caps->index = (int)index;
    vkb_gpu_facts_fill(vk->caps); /* what Vulkan does not report: SMs, clock, architecture (theoretical rates) */
    vk->queue_family = pick_queue_family(vk->phys, &vk->timestamp_bits);
    if (vk->queue_family == UINT32_MAX) {
        free(exts);
        return vkb_backend_fail(vk->error, VKB_EXIT_NO_DEVICE, "%s has no compute queue", props.deviceName);
    }
    vk->caps->timestamps = vk->caps->timestamps && vk->timestamp_bits > 0;
    vk->timestamp_period_ns = props.limits.timestampPeriod;
    vk->caps->timestamp_period_ns = props.limits.timestampPeriod;
    vkGetPhysicalDeviceMemoryProperties(vk->phys, &vk->mem);
    vk->xfer_family = pick_transfer_family(vk->phys, &vk->xfer_count);
    if (vk->xfer_count > 2)
        vk->xfer_count = 2; /* two directions at most: a queue each */
    rc = create_device(vk, exts, next);
    free(exts);
    if (rc)
        return -1;

    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = vk->queue_family;
    VKB_TRY(vk, vkCreateCommandPool(vk->device, &pci, NULL, &vk->pool));
    cai.commandPool = vk->pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    VKB_TRY(vk, vkAllocateCommandBuffers(vk->device, &cai, &vk->cmd));
    VKB_TRY(vk, vkCreateFence(vk->device, &fci, NULL, &vk->fence));
    if (vk->xfer_family != UINT32_MAX) {
        pci.queueFamilyIndex = vk->xfer_family;
        VKB_TRY(vk, vkCreateCommandPool(vk->device, &pci, NULL, &vk->xfer_pool));
        for (uint32_t i = 0; i < vk->xfer_count; i++)
            VKB_TRY(vk, vkCreateFence(vk->device, &fci, NULL, &vk->xfer_fence[i]));
    }
    VKB_TRY(vk, vkCreatePipelineCache(vk->device, &cache_ci, NULL, &vk->cache));
    return 0;
}

vkb_vk *vkb_vk_create(const char *select, int validation, int robustness_off, vkb_caps *caps, vkb_backend_error *error)
{
    vkb_vk *vk = vkb_calloc(1, sizeof *vk);
    vk->caps = caps;
    vk->error = error;
    vk->robustness_off = robustness_off;
    if (open_device(vk, select, validation) == 0)
        return vk;
    /* what was made goes: the application ends (or, listing, goes on) without it */
    vkb_vk_destroy(vk);
    return NULL;
}

void vkb_vk_destroy(vkb_vk *vk)
{
    if (!vk)
        return;
    if (vk->device) {                 /* none where the context failed before its device was made */
        vkDeviceWaitIdle(vk->device); /* no timeout to give, none needed: every submission was waited (vkb_vk_wait) */
        vkDestroyFence(vk->device, vk->fence, NULL);
        if (vk->never_fence)
            vkDestroyFence(vk->device, vk->never_fence, NULL);
        if (vk->xfer_pool) {
            for (uint32_t i = 0; i < vk->xfer_count; i++)
                vkDestroyFence(vk->device, vk->xfer_fence[i], NULL);
            vkDestroyCommandPool(vk->device, vk->xfer_pool, NULL);
        }
        vkDestroyPipelineCache(vk->device, vk->cache, NULL);
        vkDestroyCommandPool(vk->device, vk->pool, NULL);
        vkDestroyDevice(vk->device, NULL);
    }
    if (vk->messenger)
        vkDestroyDebugUtilsMessengerEXT(vk->instance, vk->messenger, NULL);
    if (vk->instance)
        vkDestroyInstance(vk->instance, NULL);
    free(vk);
}

int vkb_vk_submit(vkb_vk *vk, VkCommandBuffer cmd, VkFence fence,
                  void (*fn)(vkb_vk *vk, VkCommandBuffer cmd, void *user), void *user)
{
    VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VKB_TRY(vk, vkResetCommandBuffer(cmd, 0));
    VKB_TRY(vk, vkBeginCommandBuffer(cmd, &bi));
    fn(vk, cmd, user);
    VKB_TRY(vk, vkEndCommandBuffer(cmd));
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    VKB_TRY(vk, vkQueueSubmit(vk->queue, 1, &si, fence));
    return 0;
}

int vkb_vk_wait(vkb_vk *vk, VkFence fence)
{
    /* VKB_FAULT_INJECT=stuck-fence (every device) or hang:I (device I alone): a fence no submission signals, one
     * per device */
    double start = vkb_now_ns(), stopped_at = 0;
    long hung = -1;
    if (vkb_fault("stuck-fence") || (vkb_fault_arg("hang", &hung) && hung == vk->caps->index)) {
        VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        if (!vk->never_fence)
            VKB_TRY(vk, vkCreateFence(vk->device, &fci, NULL, &vk->never_fence));
        fence = vk->never_fence;
    }
    /* in slices: a signal is seen between them, and a device that never answers is named. A stop waits on: the
     * driver still runs the submission on the run's buffers and pipelines, and freeing them under it (or ending
     * the process around it) crashes the driver's threads */
    for (;;) {
        VkResult r = vkWaitForFences(vk->device, 1, &fence, VK_TRUE, WAIT_SLICE_NS);
        double now = vkb_now_ns();
        if (r == VK_SUCCESS && !(stopped_at && now - stopped_at > STOP_GRACE_NS))
            return 0;
        if (r == VK_SUCCESS) /* a stop the device answered late: its work is done, the case ends here */
            return vkb_backend_stopped(vk->error, vkb_stop_signal(), "the device was still busy");
        if (r != VK_TIMEOUT)
            return vkb_vk_ok(vk->error, r, "vkWaitForFences", __FILE__, __LINE__) - 1;
        if (vkb_stop_signal() && !stopped_at)
            stopped_at = now;
        if (stopped_at && now - stopped_at > STOP_GRACE_NS)
            vkb_stop_say("a device was still busy: waiting for its work to end (at most VKB_DEVICE_TIMEOUT_S)");
        if (now - start > 1e9 * vk->timeout_s) {
            vk->error->busy = 1; /* its buffers and pipelines stay as they are (backend_vulkan.c) */
            if (stopped_at)
                return vkb_backend_stopped(
                    vk->error, vkb_stop_signal(),
                    "the device was still busy past VKB_DEVICE_TIMEOUT_S: its work left running");
            return vkb_backend_fail(vk->error, VKB_EXIT_API,
                                    "%s did not finish a submission within %g s "
                                    "(VKB_DEVICE_TIMEOUT_S): a hung device or a kernel that never ends",
                                    vk->caps->name, vk->timeout_s);
        }
    }
}

int vkb_vk_submit_wait(vkb_vk *vk, void (*fn)(vkb_vk *vk, VkCommandBuffer cmd, void *user), void *user)
{
    if (vkb_vk_submit(vk, vk->cmd, vk->fence, fn, user) || vkb_vk_wait(vk, vk->fence))
        return -1;
    VKB_TRY(vk, vkResetFences(vk->device, 1, &vk->fence));
    return 0;
}

void vkb_vk_barrier(VkCommandBuffer cmd)
{
    VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT |
                       VK_ACCESS_TRANSFER_READ_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                       VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, stages, stages, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* EACH(device, i, USER) for the first MAX devices the loader lists; how many it lists, or -1 with E saying why. */
static int each_device(int max, void (*each)(VkPhysicalDevice phys, uint32_t i, void *user), void *user,
                       vkb_backend_error *e)
{
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice *list;
    uint32_t n;

    if (load_loader(e) || !(instance = create_instance(0, &messenger, e)))
        return -1;
    list = physical_devices(instance, &n, e);
    for (uint32_t i = 0; list && i < n && (int)i < max; i++)
        each(list[i], i, user);
    free(list);
    vkDestroyInstance(instance, NULL);
    return list ? (int)n : -1;
}

static void device_caps(VkPhysicalDevice phys, uint32_t i, void *user)
{
    vkb_caps *out = (vkb_caps *)user + i;
    uint32_t next, tsbits;
    VkExtensionProperties *exts = device_exts(phys, &next);
    read_caps(phys, exts, next, out);
    pick_queue_family(phys, &tsbits);
    out->timestamps = out->timestamps && tsbits; /* the queue vkbench uses must have them too */
    free(exts);
}

int vkb_vulkan_devices(vkb_caps *out, int max, vkb_backend_error *e)
{
    return each_device(max, device_caps, out, e);
}
