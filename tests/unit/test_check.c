/* test_check.c - tolerance rules against hand-computed values, element checks, the large-product check
 * catching every planted error and passing clean products, guard-band messages, fp16 conversion. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "freivalds.h"
#include "guard.h"
#include "half.h"
#include "product_check.h"
#include "unit.h"
#include "util.h"

static void gamma_rules(void)
{
    ASSERT(fabs(vkb_gamma(10, VKB_U_F32) - 10 * VKB_U_F32 / (1 - 10 * VKB_U_F32)) < 1e-20);
    ASSERT(isinf(vkb_gamma(1e9, 0.01)));
    /* a tree of 1024 leaves has depth 10 */
    ASSERT(fabs(vkb_bound_tree_sum(1024, 1.0, VKB_U_F32) - vkb_gamma(10, VKB_U_F32)) < 1e-20);
    ASSERT(vkb_bound_tree_sum(1, 5.0, VKB_U_F32) == 0); /* one term: exact */
    ASSERT(vkb_bound_serial_sum(1025, 1.0, VKB_U_F32) == vkb_gamma(1024, VKB_U_F32));
}

static void values(void)
{
    vkb_check r;
    vkb_check_init(&r, "test");
    vkb_check_value(&r, 0, 1.0, 1.0, 0);
    vkb_check_value(&r, 1, 1.0 + 1e-7, 1.0, 1e-6);
    vkb_check_finish(&r);
    ASSERT(r.pass && r.checked == 2 && r.worst_ratio > 0.09 && r.worst_ratio < 0.11);
    vkb_check_value(&r, 2, NAN, 1.0, 1.0); /* poison left in place */
    vkb_check_finish(&r);
    ASSERT(!r.pass && r.bad == 1 && r.first_bad == 2);
}

static void words(void)
{
    uint32_t a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 7, 4};
    vkb_check r;
    vkb_check_init(&r, "exact");
    vkb_check_words(&r, a, a, 4);
    vkb_check_finish(&r);
    ASSERT(r.pass);
    vkb_check_words(&r, b, a, 4);
    vkb_check_finish(&r);
    ASSERT(!r.pass && r.bad == 1 && r.first_bad == 2);
    b[2] = 3;
    b[0] = 9; /* the first word and the last are compared too */
    b[3] = 5;
    vkb_check_init(&r, "exact");
    vkb_check_words(&r, b, a, 4);
    vkb_check_finish(&r);
    ASSERT(!r.pass && r.bad == 2 && r.first_bad == 0 && r.bad_expected == 1 && r.bad_actual == 9);
}

/* Each of FLIPS (N) xored into the middle word of three: that word, and only it, is named wrong, with both values */
static void flips_caught(const uint32_t *flips, size_t n)
{
    uint32_t ref[3] = {0x3f800000u, 0x12345678u, 0u};
    for (size_t f = 0; f < n; f++) {
        uint32_t out[3] = {ref[0], ref[1], ref[2]};
        vkb_check r;
        out[1] ^= flips[f];
        vkb_check_init(&r, "exact");
        vkb_check_words(&r, out, ref, 3);
        vkb_check_finish(&r);
        ASSERT(!r.pass && r.bad == 1 && r.first_bad == 1);
        ASSERT(r.bad_expected == (double)ref[1] && r.bad_actual == (double)out[1]);
    }
}

/* A word that differs only in its high bytes (bit 30, the sign bit, the top half) is wrong; a
 * compare of too few bits per word (the low 16, say) passes every fault that changes whole values */
static void words_high_bits(void)
{
    static const uint32_t flips[] = {0x40000000u, 0x80000000u, 0x00010000u, 0xffff0000u};
    flips_caught(flips, sizeof flips / sizeof flips[0]);
}

/* A word that differs only in its low bits (bit 0, the low byte, the low half) is wrong; a
 * compare of too few bytes per word (the high 24 bits, say) passes every fault that changes whole values. Doubles
 * too: a value check through floats (24 bits of mantissa) passes a change in a double's low 29. */
static void words_low_bits(void)
{
    static const uint32_t flips[] = {0x1u, 0x80u, 0xffu, 0xffffu};
    flips_caught(flips, sizeof flips / sizeof flips[0]);
    {
        double ref_d = 1.0 + 0x1p-40, out_d = ref_d + 0x1p-52; /* the last bit of the mantissa */
        vkb_check r;
        vkb_check_init(&r, "exact");
        vkb_check_value(&r, 0, out_d, ref_d, 0);
        vkb_check_finish(&r);
        ASSERT(!r.pass && r.bad == 1);
    }
}

/* C = A B computed in fp32 passes; one element off by far more than rounding fails. */
static void freivalds(void)
{
    enum { M = 37, N = 29, K = 53 };
    float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N), *c = malloc(sizeof(float) * M * N);
    vkb_rng rng;
    vkb_check r;
    vkb_rng_seed(&rng, 7);
    for (int i = 0; i < M * K; i++)
        a[i] = (float)vkb_rng_uniform(&rng, -1, 1);
    for (int i = 0; i < K * N; i++)
        b[i] = (float)vkb_rng_uniform(&rng, -1, 1);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = 0;
            for (int p = 0; p < K; p++)
                s += a[i * K + p] * b[p * N + j];
            c[i * N + j] = s;
        }
    vkb_check_init(&r, "freivalds");
    vkb_check_freivalds(&r, M, N, K, a, b, c, 8, 11, VKB_U_F32);
    vkb_check_finish(&r);
    ASSERT(r.pass);
    c[5 * N + 17] += 0.01f;
    vkb_check_init(&r, "freivalds");
    vkb_check_freivalds(&r, M, N, K, a, b, c, 8, 11, VKB_U_F32);
    vkb_check_finish(&r);
    ASSERT(!r.pass && r.first_bad == 5);
    free(a);
    free(b);
    free(c);
}

/* Hand-computed: gamma_10(2^-24) = 10u / (1 - 10u); a tree of 1000 leaves has depth 10; a serial sum of
 * 1000 terms meets 999 roundings; a dot product of 64 terms gamma_64. */
static void hand_values(void)
{
    double u = 0x1.0p-24;
    ASSERT(vkb_gamma(10, u) == 10 * u / (1 - 10 * u));
    ASSERT(fabs(vkb_gamma(10, u) - 5.9604680302549e-7) < 1e-19);
    ASSERT(fabs(vkb_bound_tree_sum(1000, 500.0, u) - 2.98023401513e-4) < 1e-15);
    ASSERT(fabs(vkb_bound_serial_sum(1000, 2.0, u) - 2.0 * 999 * u / (1 - 999 * u)) < 1e-18);
    ASSERT(fabs(vkb_bound_dot(64, 3.0, u) - 3.0 * 64 * u / (1 - 64 * u)) < 1e-18);
    ASSERT(vkb_bound_tree_sum(2, 1.0, u) == vkb_gamma(1, u));
    ASSERT(vkb_bound_tree_sum(1025, 1.0, u) == vkb_gamma(11, u));
    /* the product model: K = 4, sum_t = 8, sum_c2 = 6: var = (2.5 + 1) 8 + 5 * 9 / 24 * 6 = 39.25 */
    ASSERT(fabs(vkb_product_row_tolerance(7, 4, 8, 6, u, 0) - VKB_PRODUCT_SIGMAS * u * sqrt(39.25)) < 1e-20);
    /* truncating, once per 16 products, adds K^2/(12 * 256) sum_t + K^2/(16 * 256) sum_c2 */
    ASSERT(fabs(vkb_product_row_tolerance(7, 4, 8, 6, u, 1) -
                VKB_PRODUCT_SIGMAS * u * sqrt(39.25 + 16.0 / 3072 * 8 + 16.0 / 4096 * 6)) < 1e-20);
    /* fp16 accumulators, K = 4 (one group of 16: Q = 1) at u = 2^-10: rounding (2/2) 8 + (2 * 3 / 6) 6 = 14,
     * truncation's bias 8/12 + 6/16, the sums inside the instruction 2 (2^-12)^2 (4 * 8 + 1 * 14) */
    {
        double uh = 0x1.0p-10, want = VKB_PRODUCT_SIGMAS * uh * sqrt(14 + 8.0 / 12 + 6.0 / 16 + 2 * 0x1.0p-24 * 46);
        ASSERT(fabs(vkb_product_row_tolerance(7, 4, 8, 6, uh, VKB_ACC_F16) - want) < 1e-12 * want);
    }
    /* the fp16 design point: 4096^3 at u = 2^-23, truncating: 0.148, below 1% of rms(C) (0.213) */
    {
        double t = vkb_product_row_tolerance(4096, 4096, 4096.0 * 4096 / 9, 4096.0 * 4096 / 9, 0x1.0p-23, 1);
        ASSERT(t > 0.14 && t < 0.16);
    }
    /* the design point: at 4096^3 with inputs uniform in [-1, 1] (sum_t = K N / 9, sum_c2 = N K / 9), the
     * row tolerance is below 1% of rms(C) = sqrt(K / 9) (docs/verification.md: 0.038 against 0.213) */
    {
        double t = vkb_product_row_tolerance(4096, 4096, 4096.0 * 4096 / 9, 4096.0 * 4096 / 9, u, 0);
        ASSERT(t < 0.01 * sqrt(4096.0 / 9) / 4);
    }
}

enum { PM = 500, PN = 500, PK = 540 }; /* 1.35e8 multiply-adds: past FULL_CHECK_MACS (2^27), Freivalds' side */

typedef struct product {
    float a[PM * PK], b[PK * PN], c[PM * PN];
} product;

/* A B in fp32, each element summed serially over k (the model's worst order). */
static void make_product(product *p, uint64_t seed)
{
    vkb_rng rng;
    vkb_rng_seed(&rng, seed);
    for (int i = 0; i < PM * PK; i++)
        p->a[i] = (float)vkb_rng_uniform(&rng, -1, 1);
    for (int i = 0; i < PK * PN; i++)
        p->b[i] = (float)vkb_rng_uniform(&rng, -1, 1);
    for (int i = 0; i < PM; i++) {
        float row[PN] = {0};
        for (int q = 0; q < PK; q++)
            for (int j = 0; j < PN; j++)
                row[j] += p->a[i * PK + q] * p->b[q * PN + j];
        memcpy(p->c + i * PN, row, sizeof row);
    }
}

/* Another clean product from P: rows of A (and C) permuted and negated at random, columns of B (and C)
 * likewise; each fp32 element is the same sum, so C stays the exact fp32 result of A B. */
static void shuffle_product(const product *p, product *q, uint64_t seed)
{
    static int rows[PM], cols[PN];
    static float rsign[PM], csign[PN];
    vkb_rng rng;
    vkb_rng_seed(&rng, seed);
    for (int i = 0; i < PM; i++)
        rows[i] = i;
    for (int j = 0; j < PN; j++)
        cols[j] = j;
    for (int i = PM - 1; i > 0; i--) {
        int r = (int)(vkb_rng_u64(&rng) % (uint64_t)(i + 1)), t = rows[i];
        rows[i] = rows[r];
        rows[r] = t;
    }
    for (int j = PN - 1; j > 0; j--) {
        int r = (int)(vkb_rng_u64(&rng) % (uint64_t)(j + 1)), t = cols[j];
        cols[j] = cols[r];
        cols[r] = t;
    }
    for (int i = 0; i < PM; i++)
        rsign[i] = (vkb_rng_u64(&rng) >> 63) ? -1.0f : 1.0f;
    for (int j = 0; j < PN; j++)
        csign[j] = (vkb_rng_u64(&rng) >> 63) ? -1.0f : 1.0f;
    for (int i = 0; i < PM; i++)
        for (int k = 0; k < PK; k++)
            q->a[i * PK + k] = rsign[i] * p->a[rows[i] * PK + k];
    for (int k = 0; k < PK; k++)
        for (int j = 0; j < PN; j++)
            q->b[k * PN + j] = csign[j] * p->b[k * PN + cols[j]];
    for (int i = 0; i < PM; i++)
        for (int j = 0; j < PN; j++)
            q->c[i * PN + j] = rsign[i] * csign[j] * p->c[rows[i] * PN + cols[j]];
}

static int product_passes(const product *p, uint64_t seed, vkb_check *r)
{
    vkb_check_init(r, "product");
    vkb_check_product(r, PM, PN, PK, p->a, p->b, p->c, VKB_U_F32, 0, seed);
    vkb_check_finish(r);
    return r->pass;
}

static double rms_of(const float *c, int count)
{
    double s = 0;
    for (int i = 0; i < count; i++)
        s += (double)c[i] * c[i];
    return sqrt(s / count);
}

/* 200 clean products (4 computed, each shuffled 50 ways), every one with another Freivalds seed: all pass. */
static void product_clean(void)
{
    product *p = malloc(sizeof *p), *q = malloc(sizeof *q);
    int passed = 0;
    double worst = 0;
    vkb_check r;
    for (int base = 0; base < 4; base++) {
        make_product(p, 100 + (uint64_t)base);
        for (int s = 0; s < 50; s++) {
            shuffle_product(p, q, 1000 * (uint64_t)base + (uint64_t)s);
            passed += product_passes(q, 77 + 1000 * (uint64_t)base + (uint64_t)s, &r);
            worst = r.worst_ratio > worst ? r.worst_ratio : worst;
            if (!r.pass)
                fprintf(stderr, "clean product %d/%d failed: %s, worst %.3g of its tolerance\n", base, s, r.method,
                        r.worst_ratio);
        }
    }
    fprintf(stderr, "%d of 200 clean products pass; the largest error is %.3g of its tolerance\n", passed, worst);
    ASSERT(passed == 200);
    free(p);
    free(q);
}

/* Every planted error fails: one element off by +-1% of rms(C) anywhere (corners, edge, interior), a NaN,
 * an Inf, one 16x16 tile off by 1% (interior and the partial edge tile, one sign or random signs), a
 * zeroed tile; a single wrong element is named by row and column. */
static void product_planted(void)
{
    product *p = malloc(sizeof *p), *q = malloc(sizeof *q);
    double rms, d;
    vkb_rng rng;
    vkb_check r;
    int planted = 0, caught = 0;
    make_product(p, 4242);
    rms = rms_of(p->c, PM * PN);
    d = 0.01 * rms;
    ASSERT(product_passes(p, 5, &r));
    vkb_rng_seed(&rng, 99);
    for (int e = 0; e < 40; e++) {
        int i, j;
        if (e < 4) {
            i = (e & 1) ? PM - 1 : 0;
            j = (e & 2) ? PN - 1 : 0;
        } else {
            i = (int)(vkb_rng_u64(&rng) % PM);
            j = (int)(vkb_rng_u64(&rng) % PN);
        }
        memcpy(q, p, sizeof *q);
        q->c[i * PN + j] += (float)((e & 4) ? -d : d);
        planted++;
        caught += !product_passes(q, (uint64_t)e, &r);
        ASSERT(!r.pass);
        ASSERT(r.bad_row == i && r.bad_col == j);
    }
    for (int e = 0; e < 3; e++) {
        int i = (int)(vkb_rng_u64(&rng) % PM), j = (int)(vkb_rng_u64(&rng) % PN);
        memcpy(q, p, sizeof *q);
        q->c[i * PN + j] = e == 0 ? NAN : e == 1 ? INFINITY : -INFINITY;
        planted++;
        caught += !product_passes(q, (uint64_t)e, &r);
        ASSERT(r.bad_row == i && r.bad_col == j);
    }
    for (int e = 0; e < 12; e++) {
        /* tiles on the 16-grid; e % 3 == 2: the last (partial: 500 = 31 * 16 + 4) tile row and column */
        int ti = e % 3 == 2 ? 31 : (int)(vkb_rng_u64(&rng) % 31), tj = e % 3 == 2 ? 31 : (int)(vkb_rng_u64(&rng) % 31);
        memcpy(q, p, sizeof *q);
        for (int i = ti * 16; i < ti * 16 + 16 && i < PM; i++)
            for (int j = tj * 16; j < tj * 16 + 16 && j < PN; j++) {
                double sign = e % 4 == 3 ? ((vkb_rng_u64(&rng) >> 63) ? -1.0 : 1.0) : e % 4 == 1 ? -1.0 : 1.0;
                q->c[i * PN + j] = e >= 8 ? 0.0f : (float)(q->c[i * PN + j] + sign * d);
            }
        planted++;
        caught += !product_passes(q, 1000 + (uint64_t)e, &r);
    }
    fprintf(stderr, "planted %d errors (1%% of rms(C) = %.4g), caught %d\n", planted, d, caught);
    ASSERT(caught == planted);
    free(p);
    free(q);
}

/* Guard messages: bytes after the end and before the start, counted and placed. */
static void guard_messages(void)
{
    static uint8_t before[VKB_GUARD_BYTES], after[VKB_GUARD_BYTES];
    uint32_t w = VKB_GUARD_WORD;
    char msg[200];
    for (unsigned o = 0; o < VKB_GUARD_BYTES; o += 4) {
        memcpy(before + o, &w, 4);
        memcpy(after + o, &w, 4);
    }
    ASSERT(vkb_guard_scan(before, after, 0, "output", msg, sizeof msg) == 0 && msg[0] == 0);
    memset(after, 0, 4);
    ASSERT(vkb_guard_scan(before, after, 0, "output", msg, sizeof msg) == 4);
    ASSERT(strcmp(msg, "wrote 4 bytes after the end of output 0, at +0..+3") == 0);
    before[VKB_GUARD_BYTES - 8] ^= 1;
    before[VKB_GUARD_BYTES - 5] ^= 1;
    ASSERT(vkb_guard_scan(before, after, 2, "output", msg, sizeof msg) == 6);
    ASSERT(strcmp(msg, "wrote 4 bytes after the end of output 2, at +0..+3; wrote 2 bytes before the start of "
                       "output 2, at -8..-5") == 0);
    /* another buffer's band: its word differs in every byte, and normalizing translates only its own */
    {
        uint32_t other = vkb_guard_word(1), band[VKB_GUARD_BYTES / 4];
        for (unsigned i = 0; i < VKB_GUARD_BYTES / 4; i++)
            band[i] = other;
        ASSERT(vkb_guard_word(0) == VKB_GUARD_WORD);
        for (int k = 0; k < 4; k++)
            ASSERT(((other >> (8 * k)) & 0xff) != ((VKB_GUARD_WORD >> (8 * k)) & 0xff));
        band[5] = VKB_GUARD_WORD; /* a word of buffer 0's band copied into buffer 1's */
        vkb_guard_normalize(band, other);
        ASSERT(band[0] == VKB_GUARD_WORD && band[VKB_GUARD_BYTES / 4 - 1] == VKB_GUARD_WORD);
        ASSERT(band[5] != VKB_GUARD_WORD);
    }
}

/* fp16 of a double exactly (independent of half.c): sign, exponent, mantissa. */
static double half_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* Round-to-nearest-even by search: the nearest of the 31745 non-negative finite halves and 65536 (the
 * first value past 65504 on the fp16 grid, i.e. infinity), ties to the even code. */
static uint16_t nearest_half(double x)
{
    uint16_t sign = signbit(x) ? 0x8000 : 0, lo = 0, hi = 0x7c00;
    double ax = fabs(x), vlo, vhi;
    if (x != x)
        return 0x7e00;
    if (ax >= 65536.0)
        return sign | 0x7c00;
    while (hi - lo > 1) { /* half_value(lo) <= ax < value(hi), with value(0x7c00) = 65536 */
        uint16_t mid = (uint16_t)((lo + hi) / 2);
        if (half_value(mid) <= ax)
            lo = mid;
        else
            hi = mid;
    }
    vlo = half_value(lo);
    vhi = hi == 0x7c00 ? 65536.0 : half_value(hi);
    if (ax - vlo < vhi - ax || (ax - vlo == vhi - ax && !(lo & 1)))
        return sign | lo;
    return sign | hi;
}

static void fp16_all_halves(void)
{
    int bad = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        float f = vkb_half_to_float((uint16_t)h);
        double v = half_value((uint16_t)h);
        if (v != v) {
            bad += !(f != f) || (vkb_half_from_float(f) & 0x7e00) != 0x7e00; /* NaN stays a (quiet) NaN */
            continue;
        }
        bad += (double)f != v || !signbit(f) != !signbit(v);
        bad += vkb_half_from_float(f) != h; /* exact round trip, -0 included */
    }
    ASSERT(bad == 0);
}

static void fp16_floats(void)
{
    int bad = 0, tested = 0;
    vkb_rng rng;
    /* every tie between neighbouring halves, one float ulp either side, and the neighbours themselves */
    for (uint32_t h = 0; h < 0x7c00; h++) {
        double a = half_value((uint16_t)h), b = h + 1 == 0x7c00 ? 65536.0 : half_value((uint16_t)(h + 1));
        float mid = (float)((a + b) / 2); /* exact: a float has 13 more mantissa bits than a half */
        float around[5] = {mid, nextafterf(mid, 0), nextafterf(mid, INFINITY), (float)a, -mid};
        for (int k = 0; k < 5; k++, tested++)
            bad += vkb_half_from_float(around[k]) != nearest_half(around[k]);
    }
    /* random floats: any bits (subnormals, overflow, NaN), and the fp16 range densely */
    vkb_rng_seed(&rng, 16);
    for (int k = 0; k < 2000000; k++, tested++) {
        uint32_t bits = (uint32_t)(vkb_rng_u64(&rng) >> 32);
        float f;
        if (k & 1)
            bits = (bits & 0x80000000u) | (0x33000000u + bits % (0x47800000u - 0x33000000u)); /* 2^-25..2^16 */
        memcpy(&f, &bits, 4);
        if (f != f)
            bad += (vkb_half_from_float(f) & 0x7e00) != 0x7e00;
        else
            bad += vkb_half_from_float(f) != nearest_half(f);
    }
    for (int k = 0; k < 6; k++, tested++) { /* overflow edges: 65504 stays, 65519.99 stays, 65520 is inf */
        static const float edge[6] = {65504.0f, 65519.996f, 65520.0f, 1e10f, 5.9604645e-8f, 2.9802322e-8f};
        bad += vkb_half_from_float(edge[k]) != nearest_half(edge[k]);
    }
    ASSERT(vkb_half_from_float(65520.0f) == 0x7c00 && vkb_half_from_float(65519.996f) == 0x7bff);
    ASSERT(vkb_half_from_float(2.9802322e-8f) == 0); /* half the smallest subnormal: tie to even 0 */
    fprintf(stderr, "%d floats converted, %d wrong\n", tested, bad);
    ASSERT(bad == 0);
}

/* bf16 of a float by distance (independent of half.c's carry trick): its two bf16 neighbours toward and away from
 * zero, the nearer, ties to the even code; the one past the largest bf16 valued 2^128 (infinity). */
static uint16_t nearest_bf16(float f)
{
    uint32_t x, lo, hi;
    double vlo, vhi, ax = fabs((double)f);
    memcpy(&x, &f, 4);
    lo = x >> 16;
    hi = lo + 1;
    vlo = fabs((double)vkb_bf16_to_float((uint16_t)lo));
    vhi = (hi & 0x7fffu) == 0x7f80u ? 0x1p128 : fabs((double)vkb_bf16_to_float((uint16_t)hi));
    if (ax - vlo < vhi - ax || (ax - vlo == vhi - ax && !(lo & 1)))
        return (uint16_t)lo;
    return (uint16_t)hi;
}

static void bf16_all(void)
{
    int bad = 0, tested = 0;
    vkb_rng rng;
    for (uint32_t b = 0; b < 65536; b++) { /* every bf16: its value is fp32's with 16 zero bits; round trip */
        uint32_t x = b << 16;
        float f = vkb_bf16_to_float((uint16_t)b), want;
        memcpy(&want, &x, 4);
        if (want != want) {
            bad += !(f != f) || (vkb_bf16_from_float(f) & 0x7fc0u) != 0x7fc0u; /* NaN stays a (quiet) NaN */
            continue;
        }
        bad += memcmp(&f, &want, 4) != 0 || vkb_bf16_from_float(f) != b;
        /* the ties between B and the next bf16 (away from zero), and a float ulp either side */
        if ((b & 0x7fffu) < 0x7f80u) {
            uint32_t t = x | 0x8000u;
            float mid;
            memcpy(&mid, &t, 4);
            float around[3] = {mid, nextafterf(mid, 0), nextafterf(mid, mid * 2)};
            for (int k = 0; k < 3; k++, tested++)
                bad += vkb_bf16_from_float(around[k]) != nearest_bf16(around[k]);
        }
    }
    vkb_rng_seed(&rng, 17);
    for (int k = 0; k < 1000000; k++, tested++) { /* any bits: subnormals, overflow, NaN */
        uint32_t bits = (uint32_t)(vkb_rng_u64(&rng) >> 32);
        float f;
        memcpy(&f, &bits, 4);
        bad += f != f ? (vkb_bf16_from_float(f) & 0x7fc0u) != 0x7fc0u : vkb_bf16_from_float(f) != nearest_bf16(f);
    }
    ASSERT(vkb_bf16_from_float(1.00390625f) == 0x3f80); /* 1 + 2^-8: a tie, to the even 1 */
    ASSERT(vkb_bf16_from_float(1.01171875f) == 0x3f82); /* 1 + 3 2^-8: a tie, to the even 1 + 2^-6 */
    ASSERT(vkb_bf16_from_float(3.4e38f) == 0x7f80);     /* past the largest bf16 (3.3895e38) by over half an ulp */
    fprintf(stderr, "%d floats converted to bf16, %d wrong\n", tested, bad);
    ASSERT(bad == 0);
}

UNIT_TESTS({"gamma_rules", gamma_rules}, {"values", values}, {"words", words}, {"words_high_bits", words_high_bits},
           {"words_low_bits", words_low_bits}, {"freivalds", freivalds}, {"hand_values", hand_values},
           {"product_clean", product_clean}, {"product_planted", product_planted}, {"guard_messages", guard_messages},
           {"fp16_all_halves", fp16_all_halves}, {"fp16_floats", fp16_floats}, {"bf16_all", bf16_all})
