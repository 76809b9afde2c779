/* gpu_facts.c - the one table of GPU facts (gpu_facts.h), with its sources. */
#include "gpu_facts.h"

#include <string.h>

/* Models by name. Architectures and machine-code names: NVIDIA's CUDA GPUs list (compute capability); SM counts
 * and boost clocks: NVIDIA's data sheets and architecture whitepapers (H100 SXM5 132 SMs at 1980 MHz, H100 PCIe
 * 114 at 1755, H200 and GH200 as the H100 SXM5, A100 108 at 1410). More specific names come first: "H100 PCIe"
 * before "H100". */
static const vkb_gpu_model models[] = {
    {"H100 PCIe", 90, "SM90", 114, 1755},
    {"GH200", 90, "SM90", 132, 1980},
    {"H100", 90, "SM90", 132, 1980},
    {"H200", 90, "SM90", 132, 1980},
    {"H800", 90, "SM90", 0, 0},
    {"H20", 90, "SM90", 0, 0},
    {"GB200", 100, "SM100", 0, 0},
    {"B200", 100, "SM100", 0, 0},
    {"B100", 100, "SM100", 0, 0},
    {"RTX 50", 120, "SM120", 0, 0},
    {"L40", 89, "SM89", 0, 0},
    {"L4", 89, "SM89", 0, 0},
    {"RTX 40", 89, "SM89", 0, 0},
    {"Ada", 89, "SM89", 0, 0},
    {"A100", 80, "SM80", 108, 1410},
    {"A800", 80, "SM80", 0, 0},
    {"A30", 80, "SM80", 0, 0},
    {"RTX 30", 86, "SM86", 0, 0},
    {"RTX A", 86, "SM86", 0, 0},
    {"A40", 86, "SM86", 0, 0},
    {"A10", 86, "SM86", 0, 0},
    {"A16", 86, "SM86", 0, 0},
    {"A2", 86, "SM86", 0, 0},
    {"RTX 20", 75, "SM75", 0, 0},
    {"T4", 75, "SM75", 0, 0},
    {"V100", 70, "SM70", 0, 0},
};

/* Per-SM rates by architecture. Scalar classes: NVIDIA CUDA C++ Programming Guide, "Arithmetic Instructions",
 * the table "Throughput of Native Arithmetic Instructions (Operations per Clock Cycle per Multiprocessor)",
 * columns 8.0, 8.6 and 9.0 (fp16 per half). Tensor cores, dense fp16: the A100 and H100 architecture
 * whitepapers (A100: 312 TFLOP/s = 108 SMs x 1410 MHz x 2048; H100 SXM5: 989.4 TFLOP/s = 132 x 1830 x 4096). */
static const struct {
    unsigned sm_arch;
    double per_sm[VKB_RATE_COUNT];
} rates[] = {
    /*    f32  f16  f64  i32  tensor16 */
    {80, {64, 256, 32, 64, 2048}},
    {86, {128, 256, 2, 64, 0}},
    {90, {128, 256, 64, 64, 4096}},
};

const vkb_gpu_model *vkb_gpu_model_find(const char *device_name)
{
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (strstr(device_name, models[i].pattern))
            return &models[i];
    return NULL;
}

double vkb_gpu_rate_per_sm(unsigned sm_arch, vkb_rate_class c)
{
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
        if (rates[i].sm_arch == sm_arch && c >= 0 && c < VKB_RATE_COUNT)
            return rates[i].per_sm[c];
    return 0;
}

double vkb_gpu_rate(const vkb_caps *caps, vkb_rate_class c)
{
    double ops = c == VKB_RATE_TENSOR16 ? 1 : 2; /* the tensor rate counts operations already */
    return vkb_gpu_rate_per_sm(caps->sm_arch, c) * ops * caps->compute_units * caps->clock_mhz * 1e-3;
}

void vkb_gpu_facts_fill(vkb_caps *caps)
{
    const vkb_gpu_model *m = strcmp(caps->vendor, "NVIDIA") == 0 ? vkb_gpu_model_find(caps->name) : NULL;
    if (!m) /* the names are NVIDIA's: another vendor's "A10..." is not an A10 */
        return;
    if (!caps->sm_arch)
        caps->sm_arch = m->sm_arch;
    if (!caps->compute_units)
        caps->compute_units = m->sms;
    if (!caps->clock_mhz)
        caps->clock_mhz = m->boost_mhz;
}
