/* test_peak_coopmat.c - the cooperative-matrix rows' inputs and expected accumulators (peak_coopmat.c) for every
 * floating operand type, fp16, bf16 and both fp8s, decoded here from each format's definition (sign, exponent
 * width and bias, mantissa width), not from the code under test, at cube and non-cube fragments (M, N and K
 * told apart): every operand of a fragment is +-1 in the type's own encoding, every product A B is +-2 and
 * changes when any one operand does, a load of A or B at a wrong stride past its first row changes it, the
 * expected accumulators are C + trips A B, and the trip bound keeps every partial sum exact. No device here
 * runs bf16 or fp8, so this is what makes the check of those rows right before one does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "families.h"
#include "peak/peak.h"
#include "peak/peak_coopmat.h"
#include "select.h"
#include "test_caps.h"
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
#define NFLOATS (sizeof floats / sizeof floats[0])

/* M N K: lavapipe 26's and NVIDIA's cubes, shapes Intel's and AMD's drivers list, a K of 24 (not a power of 2),
 * an N of 12, the largest the peak takes */
static const uint32_t frags[][3] = {{8, 8, 8},  {16, 16, 16}, {16, 8, 16},  {8, 16, 16},
                                    {8, 8, 16}, {16, 16, 32}, {16, 12, 24}, {32, 32, 64}};
#define NFRAGS (sizeof frags / sizeof frags[0])

static uint32_t element(const uint8_t *pool, uint64_t e, int bytes)
{
    uint32_t v = 0;
    memcpy(&v, pool + e * (uint64_t)bytes, (size_t)bytes);
    return v;
}

static double operand(size_t t, const uint8_t *ab, uint64_t e)
{
    return minifloat(element(ab, e, vkb_peak_cm_a_bytes(floats[t].combo)), floats[t].ebits, floats[t].mbits);
}

static double accumulator(int combo, uint32_t bits)
{
    float f;
    if (vkb_peak_cm_c_bytes(combo) == 2)
        return minifloat(bits, 5, 10);
    memcpy(&f, &bits, 4);
    return f;
}

static uint64_t a_at(const uint32_t frag[3], uint32_t slot, uint32_t i, uint32_t p)
{
    return (uint64_t)slot * frag[0] * frag[2] + (uint64_t)i * frag[2] + p;
}

static uint64_t b_at(const uint32_t frag[3], uint32_t slot, uint32_t p, uint32_t j)
{
    return PEAK_CM_B_OFFSET + (uint64_t)slot * frag[2] * frag[1] + (uint64_t)p * frag[1] + j;
}

/* Every operand of every slot's fragment is +-1, both signs common; the pool past the fragments is 0 */
static void operands_are_units(void)
{
    for (size_t t = 0; t < NFLOATS; t++)
        for (size_t f = 0; f < NFRAGS; f++) {
            const uint32_t *fr = frags[f];
            uint64_t a_end = (uint64_t)PEAK_CM_MAX_SLOTS * fr[0] * fr[2];
            uint64_t b_end = PEAK_CM_B_OFFSET + (uint64_t)PEAK_CM_MAX_SLOTS * fr[2] * fr[1];
            uint8_t *ab, *start;
            int neg = 0, pos = 0;
            vkb_peak_cm_pools(floats[t].combo, fr, 7, &ab, &start);
            for (uint64_t e = 0; e < PEAK_CM_AB_ELEMS; e++) {
                double v = operand(t, ab, e);
                int in = e < a_end || (e >= PEAK_CM_B_OFFSET && e < b_end);
                ASSERT(in ? fabs(v) == 1.0 : v == 0.0);
                neg += v<0, pos += v> 0;
            }
            ASSERT(neg > (int)(a_end / 4) && pos > (int)(a_end / 4));
            for (uint64_t e = 0; e < PEAK_CM_START_ELEMS; e++) { /* integers in [-8, 8] */
                double c = accumulator(floats[t].combo, element(start, e, vkb_peak_cm_c_bytes(floats[t].combo)));
                ASSERT(c == floor(c) && fabs(c) <= 8);
            }
            free(ab);
            free(start);
        }
}

/* The operand pool AB of float type T decoded (PEAK_CM_AB_ELEMS values), freed by the caller */
static double *decoded(size_t t, const uint8_t *ab)
{
    double *v = malloc(PEAK_CM_AB_ELEMS * sizeof *v);
    for (uint64_t e = 0; e < PEAK_CM_AB_ELEMS; e++)
        v[e] = operand(t, ab, e);
    return v;
}

/* (A B)_ij of slot SLOT from the decoded operands V; A read with row stride SA and B with SB (the fragment's K
 * and N: the right loads) */
static double product(const double *v, const uint32_t frag[3], uint32_t slot, uint32_t i, uint32_t j, uint32_t sa,
                      uint32_t sb)
{
    double sum = 0;
    for (uint32_t p = 0; p < frag[2]; p++)
        sum += v[a_at(frag, slot, 0, 0) + (uint64_t)i * sa + p] * v[b_at(frag, slot, 0, 0) + (uint64_t)p * sb + j];
    return sum;
}

/* Every product of every slot is +2 or -2: every step moves every accumulator, by an amount the bound counts */
static void products_are_two(void)
{
    for (size_t t = 0; t < NFLOATS; t++)
        for (size_t f = 0; f < NFRAGS; f++) {
            const uint32_t *fr = frags[f];
            uint8_t *ab, *start;
            double *dv;
            int neg = 0;
            vkb_peak_cm_pools(floats[t].combo, fr, 11, &ab, &start);
            dv = decoded(t, ab);
            for (uint32_t s = 0; s < PEAK_CM_MAX_SLOTS; s++)
                for (uint32_t i = 0; i < fr[0]; i++)
                    for (uint32_t j = 0; j < fr[1]; j++) {
                        double v = product(dv, fr, s, i, j, fr[2], fr[1]);
                        ASSERT(fabs(v) == 2.0);
                        neg += v < 0;
                    }
            ASSERT(neg > 0 && neg < (int)(PEAK_CM_MAX_SLOTS * fr[0] * fr[1]));
            free(dv);
            free(ab);
            free(start);
        }
}

/* Any one operand of A or B negated changes the expected accumulators of its whole row of A B (A) or column (B):
 * every element reaches the result, not only A's first column and B's first row */
static void every_element_reaches(void)
{
    for (size_t t = 0; t < NFLOATS; t++)
        for (size_t f = 0; f < NFRAGS; f++) {
            const uint32_t *fr = frags[f];
            uint32_t m = fr[0], n = fr[1], k = fr[2], slot = 5, chain = 3,
                     sign = 1u << (8 * vkb_peak_cm_a_bytes(floats[t].combo) - 1);
            int bytes = vkb_peak_cm_a_bytes(floats[t].combo), combo = floats[t].combo;
            uint8_t *ab, *start;
            uint32_t *want = malloc((size_t)m * n * sizeof *want);
            vkb_peak_cm_pools(combo, fr, 3, &ab, &start);
            for (uint32_t i = 0; i < m; i++)
                for (uint32_t j = 0; j < n; j++)
                    want[i * n + j] = vkb_peak_cm_expected(combo, fr, ab, start, slot, chain, i, j, 3);
            for (uint32_t x = 0; x < m + n; x++) /* row x of A, then column x - m of B */
                for (uint32_t p = 0; p < k; p++) {
                    uint64_t e = x < m ? a_at(fr, slot, x, p) : b_at(fr, slot, p, x - m);
                    uint32_t v = element(ab, e, bytes), flipped = v ^ sign, moved = 0;
                    memcpy(ab + e * (uint64_t)bytes, &flipped, (size_t)bytes);
                    for (uint32_t y = 0; y < (x < m ? n : m); y++) {
                        uint32_t i = x < m ? x : y, j = x < m ? y : x - m;
                        moved += vkb_peak_cm_expected(combo, fr, ab, start, slot, chain, i, j, 3) != want[i * n + j];
                    }
                    ASSERT(moved == (x < m ? n : m));
                    memcpy(ab + e * (uint64_t)bytes, &v, (size_t)bytes);
                }
            free(want);
            free(ab);
            free(start);
        }
}

/* A load of A (row stride K - one word) or of B (N - one word) at the wrong stride, as a shader bug would read
 * it: the products of every slot move, at most of its elements (each row past A's first, each of B's) */
static void wrong_stride_seen(void)
{
    for (size_t t = 0; t < NFLOATS; t++)
        for (size_t f = 0; f < NFRAGS; f++) {
            const uint32_t *fr = frags[f];
            uint32_t word = 4u / (uint32_t)vkb_peak_cm_a_bytes(floats[t].combo);
            uint8_t *ab, *start;
            double *dv;
            vkb_peak_cm_pools(floats[t].combo, fr, 5, &ab, &start);
            dv = decoded(t, ab);
            for (int which = 0; which < 2; which++) {
                uint32_t sa = which ? fr[2] : fr[2] - word, sb = which ? fr[1] - word : fr[1];
                uint64_t moved_all = 0;
                if (sb == 0)
                    continue; /* a fragment one word wide: no shorter stride */
                for (uint32_t s = 0; s < PEAK_CM_MAX_SLOTS; s++) {
                    uint32_t moved = 0;
                    for (uint32_t i = 0; i < fr[0]; i++)
                        for (uint32_t j = 0; j < fr[1]; j++)
                            moved += product(dv, fr, s, i, j, sa, sb) != product(dv, fr, s, i, j, fr[2], fr[1]);
                    ASSERT(moved > 0); /* every slot: the check sees it whichever subgroups run */
                    moved_all += moved;
                }
                ASSERT(moved_all * 3 > (uint64_t)PEAK_CM_MAX_SLOTS * fr[0] * fr[1]);
            }
            free(dv);
            free(ab);
            free(start);
        }
}

/* every accumulator of every fragment after 5 trips and after the most trips the bound allows: C + trips A B,
 * from the decoded operands */
static void expected_accumulators(void)
{
    for (size_t t = 0; t < NFLOATS; t++)
        for (size_t f = 0; f < NFRAGS; f++) {
            const uint32_t *fr = frags[f];
            int combo = floats[t].combo, cb = vkb_peak_cm_c_bytes(combo);
            uint32_t slot = 3, chain = 2, m = fr[0], n = fr[1];
            uint64_t trips[2] = {5, vkb_peak_cm_max_trips(combo, fr[2])};
            uint8_t *ab, *start;
            double *dv;
            vkb_peak_cm_pools(combo, fr, 7, &ab, &start);
            dv = decoded(t, ab);
            for (int r = 0; r < 2; r++)
                for (uint32_t i = 0; i < m; i++)
                    for (uint32_t j = 0; j < n; j++) {
                        uint32_t c = element(start, ((uint64_t)slot * PEAK_CM_CHAINS + chain) * m * n + i * n + j, cb);
                        uint32_t bits = vkb_peak_cm_expected(combo, fr, ab, start, slot, chain, i, j, trips[r]);
                        double sum = product(dv, fr, slot, i, j, fr[2], fr[1]);
                        ASSERT(accumulator(combo, bits) == accumulator(combo, c) + (double)trips[r] * sum);
                    }
            free(dv);
            free(ab);
            free(start);
        }
}

/* The trip bound: trip t adds +-2 to |acc| <= 8 + 2 (t - 1) with K products of 1 summed on the way, so the
 * largest t keeps 8 + 2 (t - 1) + K within 2048 (fp16 accumulators) or 2^24 (fp32) and one more trip does not;
 * integers wrap as the accumulator does: any */
static void trip_bound(void)
{
    static const uint32_t ks[] = {8, 16, 24, 32, 64};
    for (int combo = PEAK_CM_F16_F32; combo < PEAK_CM_END; combo++)
        for (size_t x = 0; x < sizeof ks / sizeof ks[0]; x++) {
            uint32_t t = vkb_peak_cm_max_trips(combo, ks[x]);
            double limit = vkb_peak_cm_c_bytes(combo) == 2 ? 2048 : 16777216;
            if (combo == PEAK_CM_S8_S32 || combo == PEAK_CM_U8_U32) {
                ASSERT(t == UINT32_MAX);
                continue;
            }
            ASSERT(t >= 256); /* the default shape on a GPU */
            ASSERT(8 + 2.0 * (t - 1) + ks[x] <= limit && 8 + 2.0 * t + ks[x] > limit);
        }
}

/* The fragment the fake device lists, for every combination */
static vkb_caps fragment_caps(const uint32_t frag[3])
{
    static const uint32_t ab_c[][2] = {{VKB_CT_F16, VKB_CT_F32}, {VKB_CT_F16, VKB_CT_F16},  {VKB_CT_S8, VKB_CT_S32},
                                       {VKB_CT_U8, VKB_CT_U32},  {VKB_CT_BF16, VKB_CT_F32}, {VKB_CT_E4M3, VKB_CT_F32},
                                       {VKB_CT_E5M2, VKB_CT_F32}};
    vkb_caps caps = test_caps_gpu("fragment-like", 4); /* subgroups of 32 */
    for (size_t i = 0; i < sizeof ab_c / sizeof ab_c[0]; i++)
        caps.coopmat_types[caps.ncoopmat_types++] = (vkb_coopmat_type){
            frag[0], frag[1], frag[2], ab_c[i][0], ab_c[i][0], ab_c[i][1], ab_c[i][1], VKB_SCOPE_SUBGROUP, 0};
    return caps;
}

/* The family's own check, at a non-cube fragment, of the fp32-accumulator rows (bf16 and fp8 too): the plan's
 * buffers filled as the shader would (acc0 + trips A B from the decoded operands) pass; with B read at its
 * stride less one word (rows past the first from the wrong place) they fail */
static void check_sees_wrong_stride(void)
{
    static const uint32_t check_frags[][3] = {{16, 8, 16}, {8, 16, 16}, {8, 8, 8}};
    const vkb_family *fam = vkb_family_find("peak");
    int checked = 0;
    for (size_t f = 0; f < sizeof check_frags / sizeof check_frags[0]; f++) {
        const uint32_t *fr = check_frags[f];
        vkb_caps caps = fragment_caps(fr);
        vkb_shape shape = {{3 * PEAK_LOCAL + 5, 4}};
        char why[200];
        void *data = fam->case_create(&shape, 9, why, sizeof why);
        for (int vi = 0; vi < fam->nvariants; vi++) {
            const vkb_variant *v = &fam->variants[vi];
            vkb_case c = {fam, shape, data};
            size_t t = 0;
            vkb_plan p;
            while (t < NFLOATS && floats[t].combo != v->param)
                t++;
            if (!v->kernel || t == NFLOATS || vkb_peak_cm_c_bytes(v->param) != 4)
                continue;
            double *dv;
            ASSERT(vkb_family_plan(fam, v, &c, &caps, &p, why, sizeof why) == VKB_PLAN_OK);
            dv = decoded(t, p.buf[0].host);
            for (int wrong = 0; wrong < 2; wrong++) {
                const uint8_t *start = p.buf[1].host;
                uint8_t *out = (uint8_t *)p.buf[2].host;
                uint32_t m = fr[0], n = fr[1], sb = wrong ? n - 4u / (uint32_t)vkb_peak_cm_a_bytes(v->param) : n;
                peak_push push;
                vkb_check res;
                memcpy(&push, p.pass[0].push, sizeof push);
                for (uint64_t sg = 0; sg < p.buf[2].bytes / 4 / (PEAK_CM_CHAINS * m * n); sg++)
                    for (uint32_t ch = 0; ch < PEAK_CM_CHAINS; ch++)
                        for (uint32_t e = 0; e < m * n; e++) {
                            uint32_t slot = (uint32_t)(sg % push.slots), bits;
                            double c0 = accumulator(
                                v->param, element(start, ((uint64_t)slot * PEAK_CM_CHAINS + ch) * m * n + e, 4));
                            float acc =
                                (float)(c0 + (double)shape.d[1] * product(dv, fr, slot, e / n, e % n, fr[2], sb));
                            memcpy(&bits, &acc, 4);
                            memcpy(out + ((sg * PEAK_CM_CHAINS + ch) * m * n + e) * 4, &bits, 4);
                        }
                vkb_family_check(fam, v, &c, &p, &res);
                ASSERT(res.pass == !wrong);
                ASSERT(wrong ? res.bad > res.checked / 3 : res.bad == 0);
                if (res.pass != !wrong)
                    fprintf(stderr, "peak/%s at %ux%ux%u, B's stride %u: %s\n", v->name, m, n, fr[2], sb,
                            res.pass ? "passed" : res.reason);
            }
            free(dv);
            checked++;
        }
        fam->case_destroy(data);
    }
    ASSERT(checked == 3 * 4); /* fp16, bf16, e4m3, e5m2 + fp32 at each fragment */
}

UNIT_TESTS({"operands_are_units", operands_are_units}, {"products_are_two", products_are_two},
           {"every_element_reaches", every_element_reaches}, {"wrong_stride_seen", wrong_stride_seen},
           {"expected_accumulators", expected_accumulators}, {"trip_bound", trip_bound},
           {"check_sees_wrong_stride", check_sees_wrong_stride})
