/* caps.h - what a device offers, in backend-neutral terms: families plan their dispatches from this. */
#ifndef VKB_CAPS_H
#define VKB_CAPS_H

#include <stdint.h>

/* Features a variant can need; a device without one skips the variant with the reason. */
enum {
    VKB_NEED_SUBGROUP_BASIC = 1u << 0, /* gl_SubgroupSize, subgroupElect, barriers */
    VKB_NEED_SUBGROUP_ARITH = 1u << 1, /* subgroupAdd and friends */
    VKB_NEED_SUBGROUP_SHUFFLE = 1u << 2,
    VKB_NEED_FLOAT16 = 1u << 3,           /* shaderFloat16 + 16-bit storage buffers */
    VKB_NEED_COOPMAT = 1u << 4,           /* cooperative matrix (NV or KHR) with fp16 x fp16 -> fp32 */
    VKB_NEED_ATOMIC_FLOAT = 1u << 5,      /* atomicAdd on float in storage buffers */
    VKB_NEED_COOPMAT_KHR = 1u << 6,       /* VK_KHR_cooperative_matrix, subgroup scope, fp16 inputs */
    VKB_NEED_COOPMAT2 = 1u << 7,          /* VK_NV_cooperative_matrix2: workgroup scope, flexible sizes, tensors */
    VKB_NEED_FLOAT64 = 1u << 8,           /* shaderFloat64 */
    VKB_NEED_INT16 = 1u << 9,             /* shaderInt16 */
    VKB_NEED_INT_DOT = 1u << 10,          /* shaderIntegerDotProduct (VK_KHR_shader_integer_dot_product, 1.3) */
    VKB_NEED_BFLOAT16 = 1u << 11,         /* VK_KHR_shader_bfloat16's shaderBFloat16Type */
    VKB_NEED_INT8 = 1u << 12,             /* shaderInt8 and storageBuffer8BitAccess (int8 cooperative matrices) */
    VKB_NEED_BFLOAT16_COOPMAT = 1u << 13, /* VK_KHR_shader_bfloat16's bfloat16CooperativeMatrix (and its type) */
    VKB_NEED_FLOAT8_COOPMAT = 1u << 14    /* VK_EXT_shader_float8's shaderFloat8 and shaderFloat8CooperativeMatrix */
};

/* Component types of cooperative matrices, VkComponentTypeKHR's values (the CUDA module uses the same). */
enum {
    VKB_CT_F16 = 0,
    VKB_CT_F32 = 1,
    VKB_CT_S8 = 3,
    VKB_CT_S32 = 5,
    VKB_CT_U8 = 7,
    VKB_CT_U32 = 9,
    VKB_CT_BF16 = 1000141000,
    VKB_CT_E4M3 = 1000491002,
    VKB_CT_E5M2 = 1000491003
};
enum { VKB_SCOPE_WORKGROUP = 2, VKB_SCOPE_SUBGROUP = 3 }; /* VkScopeKHR */
#define VKB_MAX_COOPMAT_TYPES 48

/* One entry of vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR: an M x N x K multiply-add of A x B + C. */
typedef struct vkb_coopmat_type {
    uint32_t m, n, k, a, b, c, result, scope, saturating;
} vkb_coopmat_type;

typedef struct vkb_caps {
    char name[256];
    char driver[256];     /* driver name and version as the driver reports them */
    char api_version[32]; /* "1.3.239" or "CUDA 13.0" */
    char type[24];        /* discrete, integrated, virtual, cpu, other */
    int is_cpu;           /* a CPU implementation: default sizes are small */
    /* the warm-up before the first timed case (host/app/warmup.c): its seconds (0: none ran), each probe's rate
     * in its first and last window (memory GB/s, fp32 FMA GFLOP/s), and whether both stopped rising in time */
    double warm_s, warm_mem_first, warm_mem_last, warm_fma_first, warm_fma_last;
    int warm_settled;
    /* the same probes again at the run's end (0: not run), and whether either moved by more than 5% from the
     * warm-up's last window: the clocks moved during the run, and the rows of that unit may be off */
    double recheck_mem, recheck_fma;
    int clocks_moved;
    /* a CUDA context is open on this GPU for the whole run: NVIDIA's driver then keeps the clocks up between
     * timed runs (the H200 read the same rows with and without a warm-up after each idle spell, 2026-12-01), so a
     * case needs no warm-up as long as the idle time before it */
    int clocks_held;
    char vendor[32];               /* the vendor in words, from vendor_id ("NVIDIA", "Mesa"); "" when unknown */
    uint32_t vendor_id, device_id; /* PCI (or Khronos) vendor ID and the device ID; device_id 0 where the API
                                      does not say (CUDA) */
    uint8_t uuid[16];              /* matches Vulkan and CUDA views of one GPU */
    uint32_t subgroup_size, subgroup_min, subgroup_max;
    uint32_t max_shared_bytes; /* per workgroup */
    uint32_t max_workgroup_invocations;
    uint32_t max_workgroup_size[3];
    uint32_t max_group_count[3];
    uint64_t max_buffer_bytes;    /* largest single buffer a shader can address */
    uint32_t max_uniform_bytes;   /* largest uniform buffer a shader can bind (maxUniformBufferRange;
                                      CUDA: constant memory) */
    uint64_t device_memory_bytes; /* largest device-local heap */
    uint64_t cache_bytes;         /* last-level cache if known, else 0 */
    int cache_measured;           /* cache_bytes is vkbench's own measurement (cache.chase), not the driver's */
    double timestamp_period_ns;   /* one tick of the device's timestamps (Vulkan), 0 where unknown */
    uint32_t compute_units;       /* SMs / CUs if known, else 0 */
    uint32_t clock_mhz;           /* the SMs' peak clock if known (CUDA), else 0 */
    uint32_t sm_arch;             /* NVIDIA compute capability x 10 (90: sm_90) if known (CUDA), else 0 */
    uint32_t copy_engines;        /* copy engines (CUDA's asyncEngineCount: 2 or more copy both ways at once)
                                      where CUDA says, else 0 (Vulkan names no engine) */
    unsigned features;            /* VKB_NEED_* bits the device has */
    int timestamps;               /* compute queue can write timestamps */
    /* cooperative-matrix sizes the device reports (host/backends/vulkan/coopmat.c), M N K; 0 where none:
     * the largest subgroup-scope fragment of fp16 x fp16 + fp32 -> fp32 (KHR), the same with an fp16
     * accumulator, and the workgroup-scope granularity of VK_NV_cooperative_matrix2 (fp16 -> fp32) */
    uint32_t coopmat_khr[3], coopmat_khr16[3], coopmat2_granularity[3];
    uint32_t coopmat2_max_invocations; /* workgroup-scope matrices: largest workgroup */
    /* VK_NV_cooperative_matrix2 listed but unusable: what it lacks, features in the driver's names
     * ("cooperativeMatrixWorkgroupScope, ... absent") or the rows' types ("no workgroup-scope fp16 ..."); else "" */
    char coopmat2_missing[120];
    vkb_coopmat_type coopmat_types[VKB_MAX_COOPMAT_TYPES]; /* every combination the device lists */
    uint32_t ncoopmat_types;
    /* VK_NV_cooperative_matrix2's workgroup-scope combinations (M N K: the granularity), every one listed */
    vkb_coopmat_type coopmat2_types[VKB_MAX_COOPMAT_TYPES];
    uint32_t ncoopmat2_types;
    int maintenance4; /* Vulkan 1.3's maintenance4: enabled where present (shaders of the newer
                                      compiler declare their workgroup size with LocalSizeId, which needs it) */
    /* informational extensions, shown by `vkbench devices` */
    int ext_subgroup_size_control, ext_coopmat_nv, ext_coopmat_khr, ext_float16, ext_pipeline_exec_props;
    int ext_pipeline_robustness; /* VK_EXT_pipeline_robustness listed (--robustness disabled needs it) */
    /* where the GPU is: its Vulkan device index (a CUDA twin: its GPU's), its PCI address "0000:65:00.0"
     * (VK_EXT_pci_bus_info; "" where the driver does not say: a CPU implementation) */
    int index;
    char pci_bus[16];
} vkb_caps;

/* The vendor of a Vulkan vendorID in words ("NVIDIA", "AMD", "Intel", "Mesa" for Mesa's CPU and software
 * drivers); NULL when unknown. */
const char *vkb_caps_vendor_name(uint32_t vendor_id);

/* The largest (by M N K) subgroup fragment of the N types T of AB x AB + ACC -> ACC (VKB_CT_*, not saturating) into
 * OUT as M N K: 1, or 0 (OUT untouched) where the device lists none. */
int vkb_coopmat_pick(const vkb_coopmat_type *t, uint32_t n, uint32_t ab, uint32_t acc, uint32_t out[3]);

/* Human words for the missing bits of NEEDS ("subgroup arithmetic, float16"); "" when none. */
const char *vkb_caps_missing(const vkb_caps *caps, unsigned needs, char *buf, unsigned len);

#endif
