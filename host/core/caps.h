/* caps.h - what a device offers, in backend-neutral terms: families plan their dispatches from this. */
#ifndef VKB_CAPS_H
#define VKB_CAPS_H

#include <stdint.h>

/* Features a variant can need; a device without one skips the variant with the reason. */
enum {
    VKB_NEED_SUBGROUP_BASIC = 1u << 0,   /* gl_SubgroupSize, subgroupElect, barriers */
    VKB_NEED_SUBGROUP_ARITH = 1u << 1,   /* subgroupAdd and friends */
    VKB_NEED_SUBGROUP_SHUFFLE = 1u << 2,
    VKB_NEED_FLOAT16 = 1u << 3,          /* shaderFloat16 + 16-bit storage buffers */
    VKB_NEED_COOPMAT = 1u << 4,          /* cooperative matrix (NV or KHR) with fp16 x fp16 -> fp32 */
    VKB_NEED_ATOMIC_FLOAT = 1u << 5,     /* atomicAdd on float in storage buffers */
    VKB_NEED_COOPMAT_KHR = 1u << 6,      /* VK_KHR_cooperative_matrix, subgroup scope, fp16 inputs */
    VKB_NEED_COOPMAT2 = 1u << 7          /* VK_NV_cooperative_matrix2: workgroup scope, flexible sizes, tensors */
};

typedef struct vkb_caps {
    char name[256];
    char driver[256];              /* driver name and version as the driver reports them */
    char api_version[32];          /* "1.3.239" or "CUDA 13.0" */
    char type[24];                 /* discrete, integrated, virtual, cpu, other */
    int is_cpu;                    /* a CPU implementation: default sizes are small */
    uint8_t uuid[16];              /* matches Vulkan and CUDA views of one GPU */
    uint32_t subgroup_size, subgroup_min, subgroup_max;
    uint32_t max_shared_bytes;     /* per workgroup */
    uint32_t max_workgroup_invocations;
    uint32_t max_workgroup_size[3];
    uint32_t max_group_count[3];
    uint64_t max_buffer_bytes;     /* largest single buffer a shader can address */
    uint32_t max_uniform_bytes;    /* largest uniform buffer a shader can bind (maxUniformBufferRange;
                                      CUDA: constant memory) */
    uint64_t device_memory_bytes;  /* largest device-local heap */
    uint64_t cache_bytes;          /* last-level cache if known, else 0 */
    int cache_measured;            /* cache_bytes is vkbench's own measurement (cache.chase), not the driver's */
    double timestamp_period_ns;    /* one tick of the device's timestamps (Vulkan), 0 where unknown */
    uint32_t compute_units;        /* SMs / CUs if known, else 0 */
    unsigned features;             /* VKB_NEED_* bits the device has */
    int timestamps;                /* compute queue can write timestamps */
    /* cooperative-matrix sizes the device reports (host/backends/coopmat.c), M N K; 0 where none:
     * the largest subgroup-scope fragment of fp16 x fp16 + fp32 -> fp32 (KHR), the same with an fp16
     * accumulator, and the workgroup-scope granularity of VK_NV_cooperative_matrix2 (fp16 -> fp32) */
    uint32_t coopmat_khr[3], coopmat_khr16[3], coopmat2_granularity[3];
    uint32_t coopmat2_max_invocations;   /* workgroup-scope matrices: largest workgroup */
    /* informational extensions, shown by `vkbench devices` */
    int ext_subgroup_size_control, ext_coopmat_nv, ext_coopmat_khr, ext_float16, ext_pipeline_exec_props;
} vkb_caps;

/* Human words for the missing bits of NEEDS ("subgroup arithmetic, float16"); "" when none. */
const char *vkb_caps_missing(const vkb_caps *caps, unsigned needs, char *buf, unsigned len);

#endif
