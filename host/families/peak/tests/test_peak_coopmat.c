/* test_peak_coopmat.c - the cooperative-matrix rows' inputs and expected accumulators (peak_coopmat.c) for every
 * floating operand type, fp16, bf16 and both fp8s, decoded here from each format's definition (sign, exponent
 * width and bias, mantissa width), not from the code under test: the operands are 0 or +-1 in the type's own
 * encoding, and the expected accumulators are C + trips A B. No device here runs bf16 or fp8, so this is what
 * makes the check of those rows right before one does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "peak/peak_coopmat.h"
#include "unit.h"

/* A minifloat of EBITS exponent bits (bias 2^(EBITS-1) - 1) and MBITS mantissa bits, its sign the top bit: the
 * value of BITS (normal or subnormal; the pools hold no infinity or NaN). */
static double minifloat(uint32_t bits, int ebits, int mbits)
{
    int bias = (1 << (ebits - 1)) - 1;
    uint32_t e = bits >> mbits & ((1u << ebits) - 1u), m = bits & ((1u << mbits) - 1u);
    double v = e ? ldexp(1.0 + ldexp(m, -mbits), (int)e - bias) : ldexp(m, 1 - bias - mbits);
    return bits >> (ebits + mbits) & 1u ? -v : v;
}

static const struct {
    int combo, ebits, mbits;
} floats[] = {
    {PEAK_CM_F16_F32, 5, 10}, {PEAK_CM_F16_F16, 5, 10}, {PEAK_CM_BF16_F32, 8, 7},
    {PEAK_CM_E4M3_F32, 4, 3}, {PEAK_CM_E5M2_F32, 5, 2},
};

static uint32_t element(const uint8_t *pool, uint64_t e, int bytes)
{
    uint32_t v = 0;
    memcpy(&v, pool + e * (uint64_t)bytes, (size_t)bytes);
    return v;
}

/* A's are +-1 at every 16th element and 0 elsewhere, B's all +-1, both signs present */
static void operands_are_units(void)
{
    for (size_t t = 0; t < sizeof floats / sizeof floats[0]; t++) {
        uint8_t *ab, *start;
        int bytes = vkb_peak_cm_a_bytes(floats[t].combo), neg = 0, pos = 0;
        vkb_peak_cm_pools(floats[t].combo, 7, &ab, &start);
        for (uint64_t e = 0; e < PEAK_CM_AB_ELEMS; e++) {
            double v = minifloat(element(ab, e, bytes), floats[t].ebits, floats[t].mbits);
            int unit = e % 16 == 0 || e >= PEAK_CM_B_OFFSET;
            ASSERT(unit ? fabs(v) == 1.0 : v == 0.0);
            neg += v<0, pos += v> 0;
        }
        ASSERT(neg > 1000 && pos > 1000);
        free(ab);
        free(start);
    }
}

/* every accumulator of a 16x16xK fragment after 5 trips: C + 5 A B, from the decoded operands */
static void expected_accumulators(void)
{
    for (size_t t = 0; t < sizeof floats / sizeof floats[0]; t++) {
        int combo = floats[t].combo, bytes = vkb_peak_cm_a_bytes(combo), cb = vkb_peak_cm_c_bytes(combo);
        uint32_t frag[3] = {16, 16, bytes == 1 ? 32u : 16u}, k = frag[2], slot = 3, chain = 2;
        uint8_t *ab, *start;
        vkb_peak_cm_pools(combo, 7, &ab, &start);
        for (uint32_t i = 0; i < 16; i++)
            for (uint32_t j = 0; j < 16; j++) {
                double sum = 0, c0, got;
                uint32_t c = element(start, ((uint64_t)slot * PEAK_CM_CHAINS + chain) * 256u + i * 16u + j, cb);
                uint32_t bits = vkb_peak_cm_expected(combo, frag, ab, start, slot, chain, i, j, 5);
                float f;
                for (uint32_t p = 0; p < k; p++)
                    sum += minifloat(element(ab, (uint64_t)slot * 16u * k + i * k + p, bytes), floats[t].ebits,
                                     floats[t].mbits) *
                           minifloat(element(ab, PEAK_CM_B_OFFSET + (uint64_t)slot * k * 16u + p * 16u + j, bytes),
                                     floats[t].ebits, floats[t].mbits);
                if (cb == 2) {
                    c0 = minifloat(c, 5, 10);
                    got = minifloat(bits, 5, 10);
                } else {
                    memcpy(&f, &c, 4), c0 = f;
                    memcpy(&f, &bits, 4), got = f;
                }
                ASSERT(got == c0 + 5 * sum);
            }
        free(ab);
        free(start);
    }
}

UNIT_TESTS({"operands_are_units", operands_are_units}, {"expected_accumulators", expected_accumulators})
