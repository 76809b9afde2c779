/* gpu_facts.h - what is known of GPUs by name, in one table: architecture, machine-code name, SM count and boost
 * clock of each model, and the per-SM rate of each instruction class by architecture. It serves the judge's
 * bounds (judge.c), the peak family's theoretical rates and --sass (machine_code.c). */
#ifndef VKB_GPU_FACTS_H
#define VKB_GPU_FACTS_H

#include "caps.h"

/* Instruction classes with a published per-SM throughput. */
typedef enum vkb_rate_class {
    VKB_RATE_F32, /* fp32 add, multiply, FMA: results per clock per SM */
    VKB_RATE_F16, /* fp16, counted per half (a half2 instruction is two) */
    VKB_RATE_F64,
    VKB_RATE_I32,      /* 32-bit integer multiply, multiply-add */
    VKB_RATE_TENSOR16, /* dense fp16 tensor-core operations (a multiply-add is 2) per clock per SM */
    VKB_RATE_COUNT
} vkb_rate_class;

typedef struct vkb_gpu_model {
    const char *pattern; /* a substring of the device's name; the first match wins */
    unsigned sm_arch;    /* compute capability x 10 */
    const char *sass;    /* nvdisasm's name of the architecture ("SM90") */
    unsigned sms;        /* SMs of this model, 0 where the name covers several parts */
    unsigned boost_mhz;  /* its SMs' boost clock, 0 where unknown */
} vkb_gpu_model;

/* The model whose pattern DEVICE_NAME holds, or NULL. */
const vkb_gpu_model *vkb_gpu_model_find(const char *device_name);
/* Results (operations for VKB_RATE_TENSOR16) per clock per SM of CLASS on SM_ARCH; 0 where the sources give none. */
double vkb_gpu_rate_per_sm(unsigned sm_arch, vkb_rate_class c);
/* Giga-operations per second of CLASS on CAPS (SMs x clock x rate; an FMA counts 2 for the scalar classes); 0
 * where one of them is unknown. */
double vkb_gpu_rate(const vkb_caps *caps, vkb_rate_class c);
/* What the device did not report (architecture, SM count, clock: 0 in CAPS) from its model's entry, so that the
 * theoretical rates are known without the CUDA module too. */
void vkb_gpu_facts_fill(vkb_caps *caps);

#endif
