/* test_peak_chain.c - the peak family's host chains (host/families/peak/peak_chain.c) against independent oracles:
 * the fp16 rounding against every half and a nearest-neighbour search, fp32 steps against the exact value
 * rounded once (fused) or twice (unfused) through double, integer steps by hand, inputs that keep moving. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "family.h"
#include "half.h"
#include "peak/peak_chain.h"
#include "peak/peak_rates.h"
#include "unit.h"

/* The half nearest V by search among the neighbours of a first guess (ties: the even encoding). */
static uint16_t nearest_half(double v)
{
    uint16_t guess = vkb_half_from_float((float)v), best = guess;
    for (int d = -2; d <= 2; d++) {
        uint16_t h = (uint16_t)(guess + d);
        double e = fabs((double)vkb_half_to_float(h) - v), eb = fabs((double)vkb_half_to_float(best) - v);
        if ((guess & 0x7c00u) == 0x7c00u || ((h ^ guess) & 0x8000u) || (h & 0x7c00u) == 0x7c00u)
            continue; /* stay within one sign's finite values */
        if (e < eb || (e == eb && !(h & 1)))
            best = h;
    }
    return best;
}

static void half_rounding(void)
{
    for (uint32_t h = 0; h < 0x7c00u; h++) { /* every finite positive half, and the midpoint above it */
        double v = vkb_half_to_float((uint16_t)h), up = vkb_half_to_float((uint16_t)(h + 1)), mid = (v + up) / 2;
        ASSERT(vkb_peak_half_of(v) == h);
        ASSERT(vkb_peak_half_of(-v) == (h | 0x8000u));
        if (h + 1 < 0x7c00u) {
            ASSERT(vkb_peak_half_of(mid) == ((h & 1) ? h + 1 : h)); /* ties to even */
            ASSERT(vkb_peak_half_of(mid + (up - v) / 64) == h + 1);
            ASSERT(vkb_peak_half_of(mid - (up - v) / 64) == h);
        }
    }
    ASSERT(vkb_peak_half_of(65520.0) == 0x7c00u); /* the tie above the largest half rounds to infinity */
    ASSERT(vkb_peak_half_of(65519.0) == 0x7bffu);
    ASSERT(vkb_peak_half_of(0x1p-25) == 0); /* half the smallest subnormal: a tie to even, 0 */
    ASSERT(vkb_peak_half_of(0x1.8p-25) == 1);
}

static uint32_t word(float f)
{
    uint32_t w;
    memcpy(&w, &f, 4);
    return w;
}

static void fp32_steps(void)
{
    uint64_t s = 7;
    for (int i = 0; i < 20000; i++) {
        uint32_t x0[4], a[4], b[4], fused[4], unfused[4];
        float x, c;
        vkb_peak_inputs(PEAK_T_F32, &s, x0, a, b);
        memcpy(&x, x0, 4);
        memcpy(&c, b, 4);
        vkb_peak_chain(PEAK_T_F32, 1, x0, a, b, 1, fused);
        vkb_peak_chain(PEAK_T_F32, 0, x0, a, b, 1, unfused);
        /* x x (48 bits) + c is exact in a double: one cast rounds it once */
        ASSERT(fused[0] == word((float)((double)x * x + c)));
        ASSERT(unfused[0] == word((float)((double)(float)((double)x * x) + c)));
    }
}

static void fp16_steps(void)
{
    uint64_t s = 11;
    for (int i = 0; i < 20000; i++) {
        uint32_t x0[4], a[4], b[4], fused[4], unfused[4];
        double x, c;
        vkb_peak_inputs(PEAK_T_F16, &s, x0, a, b);
        x = vkb_half_to_float((uint16_t)x0[0]);
        c = vkb_half_to_float((uint16_t)b[0]);
        vkb_peak_chain(PEAK_T_F16, 1, x0, a, b, 1, fused);
        vkb_peak_chain(PEAK_T_F16, 0, x0, a, b, 1, unfused);
        ASSERT(fused[0] == nearest_half(x * x + c));
        ASSERT(unfused[0] == nearest_half(vkb_half_to_float(nearest_half(x * x)) + c));
    }
}

static void int_steps(void)
{
    uint32_t x0 = 3, a = 5, b = 7, out[4];
    vkb_peak_chain(PEAK_T_I32, 1, &x0, &a, &b, 2, out);
    ASSERT(out[0] == 117); /* 3 * 5 + 7 = 22, 22 * 5 + 7 = 117 */
    x0 = 0xffffffffu;
    vkb_peak_chain(PEAK_T_I32, 1, &x0, &a, &b, 1, out);
    ASSERT(out[0] == 2); /* -5 + 7, modulo 2^32 */
    x0 = 0xffff, a = 3, b = 1;
    vkb_peak_chain(PEAK_T_I16, 1, &x0, &a, &b, 1, out);
    ASSERT(out[0] == 0xfffe); /* 3 * 65535 + 1 = 196606 = 0x2fffe, modulo 2^16 */
    x0 = 0x01020304, a = 0x01010101;
    vkb_peak_chain(PEAK_T_DOT, 1, &x0, &a, NULL, 1, out);
    ASSERT(out[0] == 0x0102030e); /* + 1 + 2 + 3 + 4 */
    x0 = 0xff, a = 0x0101;
    vkb_peak_chain(PEAK_T_DOT, 1, &x0, &a, NULL, 2, out);
    ASSERT(out[0] == 0x2fd); /* 0xff + 0xff = 0x1fe; + 0xfe + 0x01 = 0x2fd */
    x0 = 0xfffffff0u, a = 0x01010101;
    vkb_peak_chain(PEAK_T_DOT, 1, &x0, &a, NULL, 1, out);
    ASSERT(out[0] == 0x3dd); /* + 0xf0 + 3 x 0xff = 1005, modulo 2^32 */
}

/* Chains from the seeded inputs stay in range and still change at their last step (a chain that stopped would
 * not tell a length from a shorter one): all but a few of each type. */
static void chains_move(void)
{
    static const int types[] = {PEAK_T_F32, PEAK_T_F32X4, PEAK_T_F16, PEAK_T_F16X2,
                                PEAK_T_F64, PEAK_T_I32,   PEAK_T_I16, PEAK_T_DOT};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        uint64_t s = 1;
        int moved = 0, n = 256, w = vkb_peak_words(types[t]);
        for (int i = 0; i < n; i++) {
            uint32_t x0[4], a[4], b[4], last[4], before[4];
            vkb_peak_inputs(types[t], &s, x0, a, b);
            vkb_peak_chain(types[t], 1, x0, a, b, 1000, last);
            vkb_peak_chain(types[t], 1, x0, a, b, 999, before);
            moved += memcmp(last, before, (size_t)w * 4) != 0;
            if (types[t] == PEAK_T_F32) {
                float f;
                memcpy(&f, last, 4);
                ASSERT(fabsf(f) <= 1.98f);
            }
        }
        ASSERT(moved >= n * 95 / 100);
    }
}

/* The theoretical rates and bounds: the H100's numbers by hand (132 SMs x 1.98 GHz x per-SM rate x ops per
 * result); an unknown architecture or clock claims nothing. */
static void rates(void)
{
    vkb_caps caps;
    double bound;
    memset(&caps, 0, sizeof caps);
    caps.compute_units = 132, caps.clock_mhz = 1980, caps.sm_arch = 90;
    ASSERT(fabs(vkb_peak_theoretical(PEAK_T_F32, 2, &caps, &bound) - 66908.16) < 1e-6);
    ASSERT(fabs(bound - 66908.16) < 1e-6); /* claimed: the bound is the theoretical rate */
    ASSERT(fabs(vkb_peak_theoretical(PEAK_T_F32X4, 8, &caps, &bound) - 66908.16) < 1e-6);
    ASSERT(fabs(vkb_peak_theoretical(PEAK_T_F16X2, 4, &caps, &bound) - 133816.32) < 1e-6);
    ASSERT(fabs(vkb_peak_theoretical(PEAK_T_F64, 2, &caps, &bound) - 33454.08) < 1e-6);
    ASSERT(vkb_peak_theoretical(PEAK_T_DOT, 8, &caps, &bound) == 0 && fabs(bound - 267632.64) < 1e-6);
    ASSERT(fabs(vkb_peak_tensor_rate(0, &caps) - 1070530.56) < 1e-6);
    caps.sm_arch = 75;
    ASSERT(vkb_peak_theoretical(PEAK_T_F32, 2, &caps, &bound) == 0 && bound == 0);
    caps.sm_arch = 90, caps.clock_mhz = 0;
    ASSERT(vkb_peak_theoretical(PEAK_T_F32, 2, &caps, &bound) == 0 && bound == 0);
}

extern const vkb_family vkb_family_peak;

/* The cooperative-matrix rows through the family's own hook, on a faked H100 (132 SMs x 1.98 GHz x 4096 dense fp16
 * operations per clock per SM, int8 twice): their theoretical rate is the tensor cores' (the table then shows NN%t,
 * not "(none)"), and their bound the same; a part the table does not know claims nothing. */
static void coopmat_rates(void)
{
    static const struct {
        const char *row;
        double rate;
    } want[] = {{"coopmat_f16_f32", 1070530.56},
                {"coopmat_f16_f16", 1070530.56},
                {"coopmat_s8_s32", 2141061.12},
                {"coopmat_u8_u32", 2141061.12}};
    vkb_caps caps;
    double bound;
    memset(&caps, 0, sizeof caps);
    caps.compute_units = 132, caps.clock_mhz = 1980, caps.sm_arch = 90;
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const vkb_variant *v = vkb_variant_find(&vkb_family_peak, want[i].row);
        ASSERT(v != NULL);
        if (!v)
            continue;
        ASSERT(fabs(vkb_family_peak.theoretical(v, &caps, &bound) - want[i].rate) < 1e-3);
        ASSERT(fabs(bound - want[i].rate) < 1e-3);
    }
    caps.sm_arch = 86; /* no tensor-core rate in the table: no claim, no bound */
    ASSERT(vkb_family_peak.theoretical(vkb_variant_find(&vkb_family_peak, "coopmat_f16_f32"), &caps, &bound) == 0);
    ASSERT(bound == 0);
}

UNIT_TESTS({"coopmat_rates", coopmat_rates}, {"half_rounding", half_rounding}, {"fp32_steps", fp32_steps},
           {"fp16_steps", fp16_steps}, {"int_steps", int_steps}, {"chains_move", chains_move}, {"rates", rates})
