/* peak_rates.c - the theoretical rate of each peak row: the per-SM throughput of its instruction class (the GPU
 * facts table, host/core/gpu_facts.c, with its sources) times SMs times clock. A scalar half gets the fp16 rate
 * (256), not half of it: both compilers pack the independent chains in pairs into HFMA2 (the H100 measured fma_f16
 * at 111% and 156% of 128 per clock, docs/performance.md); 16-bit integers run as 32-bit IMAD. The table has no
 * row for the 4-way byte dot product (IDP4A): no theoretical rate is claimed for it; its physical bound is the
 * issue limit, 4 schedulers x 32 lanes per clock per SM, 8 operations each. */
#include "peak_rates.h"

#include "gpu_facts.h"
#include "peak_chain.h"

/* Each chain type's instruction class in the GPU facts table (-1: none there). */
static const int class_of[PEAK_T_COUNT] = {
    [PEAK_T_F32] = VKB_RATE_F32, [PEAK_T_F32X4] = VKB_RATE_F32,
    [PEAK_T_F16] = VKB_RATE_F16, [PEAK_T_F16X2] = VKB_RATE_F16,
    [PEAK_T_F64] = VKB_RATE_F64, [PEAK_T_I32] = VKB_RATE_I32,
    [PEAK_T_I16] = VKB_RATE_I32, [PEAK_T_DOT] = -1,
    [PEAK_T_BF16X2] = -1,
};

#define ISSUE_PER_SM 128.0 /* thread-instructions per clock per SM: 4 schedulers x 32 lanes */

double vkb_peak_theoretical(int type, int ops, const vkb_caps *caps, double *bound)
{
    /* ops counts per lane-step; the table counts results: an FMA result is 2 of our ops, IDP4A's would be 8 */
    double lanes = type == PEAK_T_F32X4 ? 4 : type == PEAK_T_F16X2 || type == PEAK_T_BF16X2 ? 2 : 1;
    double per_clock = (double)caps->compute_units * caps->clock_mhz * 1e-3; /* SMs x GHz */
    *bound = 0;
    if (!caps->compute_units || !caps->clock_mhz || type < 0 || type >= PEAK_T_COUNT)
        return 0;
    if (!vkb_gpu_rate_per_sm(caps->sm_arch, VKB_RATE_F32)) /* an architecture the table does not know */
        return 0;
    {
        double per_sm = class_of[type] < 0 ? 0 : vkb_gpu_rate_per_sm(caps->sm_arch, (vkb_rate_class)class_of[type]);
        double rate = per_sm * per_clock * ops / lanes;
        *bound = rate > 0 ? rate : ISSUE_PER_SM * per_clock * ops;
        return rate;
    }
}

/* Tensor cores, dense (int8 twice), from the architecture whitepapers (gpu_facts.c: the Programming Guide's table
 * has no tensor-core row): the cooperative-matrix rows' theoretical rate, so they read as a share of it (the H100's
 * coopmat_f16_f32 at 61%) instead of "(none)". fp16 and fp32 accumulators at one rate: true of the architectures
 * the table knows (sm_80, sm_90), not of the consumer parts it leaves at 0. */
double vkb_peak_tensor_rate(int int8, const vkb_caps *caps)
{
    return vkb_gpu_rate(caps, VKB_RATE_TENSOR16) * (int8 ? 2 : 1);
}
