/* peak_rates.c - per-SM throughputs of the instructions the peak rows measure, by NVIDIA architecture.
 *
 * Source: NVIDIA CUDA C++ Programming Guide, "Arithmetic Instructions", the table "Throughput of Native
 * Arithmetic Instructions (Operations per Clock Cycle per Multiprocessor)", columns 8.0, 8.6 and 9.0:
 * 32-bit floating-point add, multiply, multiply-add; 16-bit floating-point add, multiply, multiply-add (counted
 * per half: a half2 instruction is two); 64-bit floating-point add, multiply, multiply-add; 32-bit integer
 * multiply, multiply-add. A scalar half uses one lane of a half2 instruction (half the table's rate); 16-bit
 * integers run as 32-bit IMAD (the 32-bit rate). A scalar half gets the table's half rate (256), not half of it:
 * both compilers pack the independent chains in pairs into HFMA2 (the H100 measured fma_f16 at 111% and 156% of
 * 128 per clock, docs/performance.md). The table has no row for the 4-way byte dot product (IDP4A): no
 * theoretical rate is claimed for it; its physical bound is the issue limit, 4 schedulers x 32 lanes per clock
 * per SM, 8 operations each. */
#include "peak_rates.h"

#include "peak_chain.h"

static const struct {
    unsigned arch;           /* compute capability x 10 */
    double per_sm[PEAK_T_COUNT];  /* results (lane operations) per clock per SM; 0: not in the table */
} rates[] = {
    /*        f32  f32x4 f16  f16x2 f64  i32  i16  dot  bf16x2 */
    {80, {64, 64, 256, 256, 32, 64, 64, 0, 0}},
    {86, {128, 128, 256, 256, 2, 64, 64, 0, 0}},
    {90, {128, 128, 256, 256, 64, 64, 64, 0, 0}},
};

#define ISSUE_PER_SM 128.0   /* thread-instructions per clock per SM: 4 schedulers x 32 lanes */

double vkb_peak_theoretical(int type, int ops, const vkb_caps *caps, double *bound)
{
    /* ops counts per lane-step; the table counts results: an FMA result is 2 of our ops, IDP4A's would be 8 */
    double lanes = type == PEAK_T_F32X4 ? 4 : type == PEAK_T_F16X2 || type == PEAK_T_BF16X2 ? 2 : 1;
    double per_clock = (double)caps->compute_units * caps->clock_mhz * 1e-3;   /* SMs x GHz */
    *bound = 0;
    if (!caps->compute_units || !caps->clock_mhz || type < 0 || type >= PEAK_T_COUNT)
        return 0;
    for (unsigned i = 0; i < sizeof rates / sizeof rates[0]; i++)
        if (rates[i].arch == caps->sm_arch) {
            double rate = rates[i].per_sm[type] * per_clock * ops / lanes;
            *bound = rate > 0 ? rate : ISSUE_PER_SM * per_clock * ops;
            return rate;
        }
    return 0;
}

/* Tensor cores, dense, per clock per SM: NVIDIA's A100 and H100 architecture whitepapers (A100: 312 TFLOP/s fp16
 * = 108 SMs x 1410 MHz x 2048; H100 SXM5: 989.4 TFLOP/s fp16 = 132 SMs x 1830 MHz x 4096; int8 twice). A bound
 * for SUSPECT only: the Programming Guide's table, the source of the theoretical rates, has no tensor-core row. */
double vkb_peak_tensor_bound(int int8, const vkb_caps *caps)
{
    double per_sm = caps->sm_arch == 90 ? 4096 : caps->sm_arch == 80 ? 2048 : 0;
    return per_sm * (int8 ? 2 : 1) * caps->compute_units * caps->clock_mhz * 1e-3;
}
