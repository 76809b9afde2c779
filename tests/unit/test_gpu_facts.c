/* test_gpu_facts.c - the one table of GPU facts: models by name, rates by architecture, what a device is given. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu_facts.h"
#include "test_caps.h"
#include "unit.h"

/* The more specific name wins ("H100 PCIe" is not the SXM part); an unknown name has no model. */
static void models_by_name(void)
{
    const vkb_gpu_model *sxm = vkb_gpu_model_find("NVIDIA H100 80GB HBM3");
    const vkb_gpu_model *pcie = vkb_gpu_model_find("NVIDIA H100 PCIe");
    ASSERT(sxm && sxm->sms == 132 && sxm->boost_mhz == 1980 && strcmp(sxm->sass, "SM90") == 0);
    ASSERT(pcie && pcie->sms == 114 && pcie->boost_mhz == 1755);
    ASSERT(vkb_gpu_model_find("NVIDIA A100-SXM4-80GB")->sm_arch == 80);
    ASSERT(vkb_gpu_model_find("llvmpipe (LLVM 15.0.6, 256 bits)") == NULL);
}

/* The data-sheet rates follow from SMs x clock x per-SM rate: H100 SXM5 66.9 TFLOP/s fp32, 133.8 fp16, 1070.5
 * tensor at the boost clock; A100 19.5 fp32 and 312 tensor. */
static void rates_from_facts(void)
{
    vkb_caps c = test_caps_gpu("NVIDIA H100 80GB HBM3", 0);
    snprintf(c.vendor, sizeof c.vendor, "NVIDIA");
    ASSERT(vkb_gpu_rate(&c, VKB_RATE_F32) == 0); /* nothing known before the facts are filled in */
    vkb_gpu_facts_fill(&c);
    ASSERT(c.sm_arch == 90 && c.compute_units == 132 && c.clock_mhz == 1980);
    ASSERT(fabs(vkb_gpu_rate(&c, VKB_RATE_F32) - 66908.16) < 1e-6);
    ASSERT(fabs(vkb_gpu_rate(&c, VKB_RATE_F16) - 133816.32) < 1e-6);
    ASSERT(fabs(vkb_gpu_rate(&c, VKB_RATE_TENSOR16) - 1070530.56) < 1e-6);
    c = test_caps_gpu("NVIDIA A100-SXM4-40GB", 0);
    snprintf(c.vendor, sizeof c.vendor, "NVIDIA");
    vkb_gpu_facts_fill(&c);
    ASSERT(fabs(vkb_gpu_rate(&c, VKB_RATE_F32) - 19491.84) < 1e-6);
    ASSERT(fabs(vkb_gpu_rate(&c, VKB_RATE_TENSOR16) - 311869.44) < 1e-6);
    ASSERT(vkb_gpu_rate_per_sm(75, VKB_RATE_F32) == 0); /* an architecture the sources do not cover */
}

/* What the device reported stays (CUDA's clock and SM count); another vendor's device is never given an
 * NVIDIA part's facts, whatever its name holds. */
static void fill_keeps_reported(void)
{
    vkb_caps c = test_caps_gpu("NVIDIA H100 PCIe", 100);
    snprintf(c.vendor, sizeof c.vendor, "NVIDIA");
    c.clock_mhz = 1500;
    vkb_gpu_facts_fill(&c);
    ASSERT(c.compute_units == 100 && c.clock_mhz == 1500 && c.sm_arch == 90);
    c = test_caps_gpu("Radeon A100 imitation", 0);
    snprintf(c.vendor, sizeof c.vendor, "AMD");
    vkb_gpu_facts_fill(&c);
    ASSERT(c.sm_arch == 0 && c.compute_units == 0 && c.clock_mhz == 0);
}

UNIT_TESTS({"models_by_name", models_by_name}, {"rates_from_facts", rates_from_facts},
           {"fill_keeps_reported", fill_keeps_reported})
