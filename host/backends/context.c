/* context.c - volk, instance, validation messenger, device choice, queue, and the device's caps. */
#define VOLK_IMPLEMENTATION
#include "vk.h"
#include "cache_probe.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "coopmat.h"

static unsigned validation_messages;

unsigned vkb_vulkan_validation_messages(void) { return validation_messages; }

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

static void load_loader(void)
{
    if (volkInitialize() != VK_SUCCESS)
        vkb_die(VKB_EXIT_NO_DEVICE, "no Vulkan loader (libvulkan.so.1) found; install one "
                "(Debian: libvulkan1 and a driver such as mesa-vulkan-drivers)");
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

static VkInstance create_instance(int validation, VkDebugUtilsMessengerEXT *messenger)
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
    mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    mci.pfnUserCallback = on_message;
    if (validation) {
        if (!has_layer(layers[0]))
            vkb_die(VKB_EXIT_NO_DEVICE, "--validation needs VK_LAYER_KHRONOS_validation "
                    "(Debian: vulkan-validationlayers)");
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
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER || r == VK_ERROR_INITIALIZATION_FAILED)
        vkb_die(VKB_EXIT_NO_DEVICE, "no Vulkan driver found (vkCreateInstance: %s); install one "
                "(Debian: mesa-vulkan-drivers for the CPU, or your GPU's driver)", vkb_vk_result_text(r));
    /* the loader answers a driver manifest it cannot parse with VK_ERROR_OUT_OF_HOST_MEMORY: a tiny
     * instance that fails is a broken driver installation, not a size to shrink */
    if (r != VK_SUCCESS)
        vkb_die(VKB_EXIT_NO_DEVICE, "the Vulkan loader could not create an instance (vkCreateInstance: %s): a driver "
                "or its manifest is broken; check VK_DRIVER_FILES / VK_ICD_FILENAMES, reinstall the driver",
                vkb_vk_result_text(r));
    volkLoadInstanceOnly(instance);
    *messenger = VK_NULL_HANDLE;
    if (validation) {
        mci.pNext = NULL; /* the validation features chain belongs to the instance only */
        VKB_CHECK(vkCreateDebugUtilsMessengerEXT(instance, &mci, NULL, messenger));
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

/* A queue family that transfers and does not compute (a DMA engine of its own), or UINT32_MAX. */
static uint32_t pick_transfer_family(VkPhysicalDevice phys)
{
    uint32_t n = 0, best = UINT32_MAX;
    VkQueueFamilyProperties *q;
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &n, NULL);
    q = vkb_calloc(n, sizeof *q);
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &n, q);
    for (uint32_t i = 0; i < n && best == UINT32_MAX; i++)
        if ((q[i].queueFlags & VK_QUEUE_TRANSFER_BIT) && !(q[i].queueFlags & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT)))
            best = i;
    free(q);
    return best;
}

/* Fill CAPS from the device's properties; EXTS lists its extensions. */
static void read_caps(VkPhysicalDevice phys, const VkExtensionProperties *exts, uint32_t next, vkb_caps *c)
{
    VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    VkPhysicalDeviceSubgroupProperties sg = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceSubgroupSizeControlPropertiesEXT sgc = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES_EXT};
    VkPhysicalDeviceIDProperties id = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceMaintenance3Properties m3 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
    VkPhysicalDeviceDriverProperties drv = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
    VkPhysicalDeviceShaderCorePropertiesAMD amd = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};
    VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDevice16BitStorageFeatures s16 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
    VkPhysicalDeviceCooperativeMatrixFeaturesNV cm = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT af = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
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
    }
    vkGetPhysicalDeviceProperties2(phys, &p2);

    snprintf(c->name, sizeof c->name, "%s", p2.properties.deviceName);
    if (api >= VK_API_VERSION_1_2)
        snprintf(c->driver, sizeof c->driver, "%.120s %.120s", drv.driverName, drv.driverInfo);
    else
        snprintf(c->driver, sizeof c->driver, "driver version 0x%x", p2.properties.driverVersion);
    snprintf(c->api_version, sizeof c->api_version, "%u.%u.%u", VK_API_VERSION_MAJOR(api),
             VK_API_VERSION_MINOR(api), VK_API_VERSION_PATCH(api));
    snprintf(c->type, sizeof c->type, "%s", type_name(p2.properties.deviceType));
    c->is_cpu = p2.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    memcpy(c->uuid, id.deviceUUID, sizeof c->uuid);
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
        if ((mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) && mem.memoryHeaps[i].size > c->device_memory_bytes)
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
    /* glslang declares the Vulkan memory model in every shader that uses cooperative matrices */
    if (cm.cooperativeMatrix && (c->features & VKB_NEED_FLOAT16) && f12.vulkanMemoryModel)
        c->features |= VKB_NEED_COOPMAT;
    if (af.shaderBufferFloat32AtomicAdd)
        c->features |= VKB_NEED_ATOMIC_FLOAT;
    vkb_coopmat_caps(phys, exts, next, (c->features & VKB_NEED_FLOAT16) && f12.vulkanMemoryModel, c);
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

static VkPhysicalDevice *physical_devices(VkInstance instance, uint32_t *n)
{
    VkPhysicalDevice *list;
    VkResult r = vkEnumeratePhysicalDevices(instance, n, NULL);
    if (r != VK_SUCCESS || *n == 0)
        vkb_die(VKB_EXIT_NO_DEVICE, "no Vulkan device found; install a driver "
                "(Debian: mesa-vulkan-drivers for the CPU, or your GPU's driver)");
    list = vkb_calloc(*n, sizeof *list);
    VKB_CHECK(vkEnumeratePhysicalDevices(instance, n, list));
    return list;
}

static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

/* Index of the device SELECT names: an index, a name substring, or NULL for the first discrete GPU,
 * else integrated GPU, else the first device (a CPU implementation). */
static uint32_t choose_device(VkPhysicalDevice *list, uint32_t n, const char *select)
{
    VkPhysicalDeviceProperties p;
    char *end;
    if (select && *select) {
        long idx = strtol(select, &end, 10);
        if (*end == 0) {
            if (idx < 0 || (uint32_t)idx >= n)
                vkb_die(VKB_EXIT_NO_DEVICE, "no Vulkan device %ld: there %s %u (0..%u); see `vkbench devices`",
                        idx, n == 1 ? "is" : "are", n, n - 1);
            return (uint32_t)idx;
        }
        for (uint32_t i = 0; i < n; i++) {
            vkGetPhysicalDeviceProperties(list[i], &p);
            if (contains_nocase(p.deviceName, select))
                return i;
        }
        vkb_die(VKB_EXIT_NO_DEVICE, "no Vulkan device named like '%s'; see `vkbench devices`", select);
    }
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < n; i++) {
            vkGetPhysicalDeviceProperties(list[i], &p);
            if (p.deviceType == (pass == 0 ? VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU : VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU))
                return i;
        }
    return 0;
}

static void create_device(vkb_vk *vk, const VkExtensionProperties *exts, uint32_t next)
{
    float priority = 1.0f;
    const char *enable[12];
    uint32_t nenable = 0;
    VkDeviceQueueCreateInfo qci[2] = {{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO},
                                      {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}};
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDevice16BitStorageFeatures s16 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
    VkPhysicalDeviceCooperativeMatrixFeaturesNV cm = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT af = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
    VkPhysicalDeviceSubgroupSizeControlFeaturesEXT sgc = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES_EXT};
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pe = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    VkPhysicalDeviceProperties props;
    void **tail = &f2.pNext;
    const vkb_caps *c = vk->caps;

    vkGetPhysicalDeviceProperties(vk->phys, &props);
    for (int i = 0; i < 2; i++) {
        qci[i].queueFamilyIndex = i ? vk->xfer_family : vk->queue_family;
        qci[i].queueCount = 1;
        qci[i].pQueuePriorities = &priority;
    }
    if (props.apiVersion >= VK_API_VERSION_1_2) {
        f12.shaderFloat16 = (c->features & VKB_NEED_FLOAT16) != 0;
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
    if (props.apiVersion < VK_API_VERSION_1_2 && c->ext_float16)
        enable[nenable++] = VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME;
    (void)exts;
    (void)next;
    dci.pNext = &f2;
    dci.queueCreateInfoCount = vk->xfer_family == UINT32_MAX ? 1 : 2;
    dci.pQueueCreateInfos = qci;
    dci.enabledExtensionCount = nenable;
    dci.ppEnabledExtensionNames = enable;
    VKB_CHECK(vkCreateDevice(vk->phys, &dci, NULL, &vk->device));
    volkLoadDevice(vk->device);
    vkGetDeviceQueue(vk->device, vk->queue_family, 0, &vk->queue);
    if (vk->xfer_family != UINT32_MAX)
        vkGetDeviceQueue(vk->device, vk->xfer_family, 0, &vk->xfer_queue);
}

vkb_vk *vkb_vk_create(const char *select, int validation, vkb_caps *caps)
{
    vkb_vk *vk = vkb_calloc(1, sizeof *vk);
    VkPhysicalDevice *list;
    VkPhysicalDeviceProperties props;
    VkExtensionProperties *exts;
    uint32_t n, next;
    VkCommandPoolCreateInfo pci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkPipelineCacheCreateInfo cache_ci = {VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};

    load_loader();
    vk->instance = create_instance(validation, &vk->messenger);
    list = physical_devices(vk->instance, &n);
    vk->phys = list[choose_device(list, n, select)];
    free(list);

    vkGetPhysicalDeviceProperties(vk->phys, &props);
    if (props.apiVersion < VK_API_VERSION_1_1)
        vkb_die(VKB_EXIT_NO_DEVICE, "%s offers Vulkan %u.%u; vkbench needs 1.1 or later", props.deviceName,
                VK_API_VERSION_MAJOR(props.apiVersion), VK_API_VERSION_MINOR(props.apiVersion));
    exts = device_exts(vk->phys, &next);
    vk->caps = caps;
    read_caps(vk->phys, exts, next, vk->caps);
    vk->queue_family = pick_queue_family(vk->phys, &vk->timestamp_bits);
    if (vk->queue_family == UINT32_MAX)
        vkb_die(VKB_EXIT_NO_DEVICE, "%s has no compute queue", props.deviceName);
    vk->caps->timestamps = vk->caps->timestamps && vk->timestamp_bits > 0;
    vk->timestamp_period_ns = props.limits.timestampPeriod;
    vk->caps->timestamp_period_ns = props.limits.timestampPeriod;
    vkGetPhysicalDeviceMemoryProperties(vk->phys, &vk->mem);
    vk->xfer_family = pick_transfer_family(vk->phys);
    create_device(vk, exts, next);
    free(exts);

    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = vk->queue_family;
    VKB_CHECK(vkCreateCommandPool(vk->device, &pci, NULL, &vk->pool));
    cai.commandPool = vk->pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    VKB_CHECK(vkAllocateCommandBuffers(vk->device, &cai, &vk->cmd));
    VKB_CHECK(vkCreateFence(vk->device, &fci, NULL, &vk->fence));
    if (vk->xfer_family != UINT32_MAX) {
        pci.queueFamilyIndex = vk->xfer_family;
        VKB_CHECK(vkCreateCommandPool(vk->device, &pci, NULL, &vk->xfer_pool));
        VKB_CHECK(vkCreateFence(vk->device, &fci, NULL, &vk->xfer_fence));
    }
    VKB_CHECK(vkCreatePipelineCache(vk->device, &cache_ci, NULL, &vk->cache));
    return vk;
}

void vkb_vk_destroy(vkb_vk *vk)
{
    if (!vk)
        return;
    vkDeviceWaitIdle(vk->device);
    vkDestroyFence(vk->device, vk->fence, NULL);
    if (vk->xfer_pool) {
        vkDestroyFence(vk->device, vk->xfer_fence, NULL);
        vkDestroyCommandPool(vk->device, vk->xfer_pool, NULL);
    }
    vkDestroyPipelineCache(vk->device, vk->cache, NULL);
    vkDestroyCommandPool(vk->device, vk->pool, NULL);
    vkDestroyDevice(vk->device, NULL);
    if (vk->messenger)
        vkDestroyDebugUtilsMessengerEXT(vk->instance, vk->messenger, NULL);
    vkDestroyInstance(vk->instance, NULL);
    free(vk);
}

void vkb_vk_submit(vkb_vk *vk, VkCommandBuffer cmd, VkFence fence,
                   void (*fn)(vkb_vk *vk, VkCommandBuffer cmd, void *user), void *user)
{
    VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VKB_CHECK(vkResetCommandBuffer(cmd, 0));
    VKB_CHECK(vkBeginCommandBuffer(cmd, &bi));
    fn(vk, cmd, user);
    VKB_CHECK(vkEndCommandBuffer(cmd));
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    VKB_CHECK(vkQueueSubmit(vk->queue, 1, &si, fence));
}

void vkb_vk_submit_wait(vkb_vk *vk, void (*fn)(vkb_vk *vk, VkCommandBuffer cmd, void *user), void *user)
{
    vkb_vk_submit(vk, vk->cmd, vk->fence, fn, user);
    VKB_CHECK(vkWaitForFences(vk->device, 1, &vk->fence, VK_TRUE, UINT64_MAX));
    VKB_CHECK(vkResetFences(vk->device, 1, &vk->fence));
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

int vkb_vulkan_list_devices(void)
{
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice *list;
    uint32_t n;

    load_loader();
    instance = create_instance(0, &messenger);
    list = physical_devices(instance, &n);
    for (uint32_t i = 0; i < n; i++) {
        vkb_caps c;
        uint32_t next, tsbits;
        VkExtensionProperties *exts = device_exts(list[i], &next);
        char mem[32], buf[32];
        read_caps(list[i], exts, next, &c);
        pick_queue_family(list[i], &tsbits);
        free(exts);
        printf("%u: %s (%s)\n", i, c.name, c.type);
        printf("   driver          %s\n", c.driver);
        printf("   Vulkan          %s\n", c.api_version);
        printf("   subgroup size   %u (min %u, max %u)\n", c.subgroup_size, c.subgroup_min, c.subgroup_max);
        printf("   shared memory   %s per workgroup\n", vkb_fmt_bytes(c.max_shared_bytes, buf, sizeof buf));
        printf("   uniform buffer  %s at most\n", vkb_fmt_bytes(c.max_uniform_bytes, buf, sizeof buf));
        printf("   device memory   %s, largest buffer %s\n", vkb_fmt_bytes(c.device_memory_bytes, mem, sizeof mem),
               vkb_fmt_bytes(c.max_buffer_bytes, buf, sizeof buf));
        printf("   compute units   %s\n", c.compute_units ? (snprintf(buf, sizeof buf, "%u", c.compute_units), buf) : "unknown");
        printf("   timestamps      %s (period %g ns)\n", c.timestamps && tsbits ? "yes" : "no", c.timestamp_period_ns);
        {
            uint64_t llc = vkb_cache_load(&c);
            char path[4096] = "";
            vkb_cache_path(&c, path, sizeof path);
            if (llc)
                printf("   measured cache  last level %s (cache.chase, kept in %s)\n", vkb_fmt_bytes(llc, mem, sizeof mem),
                       path);
            else
                printf("   measured cache  not measured yet (a timed run measures it where nothing reports it)\n");
        }
        printf("   subgroup ops    basic %s, arithmetic %s, shuffle %s\n",
               c.features & VKB_NEED_SUBGROUP_BASIC ? "yes" : "no", c.features & VKB_NEED_SUBGROUP_ARITH ? "yes" : "no",
               c.features & VKB_NEED_SUBGROUP_SHUFFLE ? "yes" : "no");
        printf("   extensions      subgroup_size_control %s, cooperative_matrix NV %s KHR %s, float16 %s, "
               "pipeline_executable_properties %s\n",
               c.ext_subgroup_size_control ? "yes" : "no", c.ext_coopmat_nv ? "yes" : "no",
               c.ext_coopmat_khr ? "yes" : "no", c.features & VKB_NEED_FLOAT16 ? "yes" : "no",
               c.ext_pipeline_exec_props ? "yes" : "no");
        printf("   coopmat sizes   KHR fp16->fp32 %ux%ux%u, fp16->fp16 %ux%ux%u; NV coopmat2 granularity %ux%ux%u, "
               "%u invocations (0: none)\n", c.coopmat_khr[0], c.coopmat_khr[1], c.coopmat_khr[2], c.coopmat_khr16[0],
               c.coopmat_khr16[1], c.coopmat_khr16[2], c.coopmat2_granularity[0], c.coopmat2_granularity[1],
               c.coopmat2_granularity[2], c.coopmat2_max_invocations);
    }
    free(list);
    vkDestroyInstance(instance, NULL);
    return (int)n;
}
