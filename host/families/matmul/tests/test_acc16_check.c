/* test_acc16_check.c - the element check of the fp16-accumulate rows (vkb_mm_tc_check_acc16, matmul_tc.c) and
 * its bound (vkb_bound_acc16_step, bounds.c) against values computed here: the bound's terms by hand, and
 * elements of an emulated fp16-accumulated product whose error is 0.99x their bound (passes) or 1.01x (fails,
 * named), at the corners of C, for K at the group boundaries (1, 15, 16, 17, 31, 32, 33) and odd K. The
 * tensor-core rows behind the headline numbers are checked by this code and lavapipe cannot run them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "half.h"
#include "matmul/matmul_tc.h"
#include "unit.h"
#include "util.h"

/* The bound's constants as docs/verification.md states them (not read from bounds.h). */
#define U_ACC 0x1.0p-10
#define U_IN 0x1.0p-22

/* X (|X| below 65504) rounded to fp16, to nearest even: 11 significant bits, subnormals from 2^-24. */
static double to_half(double x)
{
    int e;
    if (x == 0)
        return 0;
    frexp(x, &e);
    double q = ldexp(1, e - 11 < -24 ? -24 : e - 11);
    return nearbyint(x / q) * q;
}

/* Two steps of the recurrence E = E (1 + u) + u |S| + U_IN (G + |S|), by hand. */
static void acc16_step_terms(void)
{
    double g = 5, e = 0;
    vkb_bound_acc16_step(3, &g, &e); /* E1 = 3 u + 8 U_IN */
    ASSERT(e == 3 * U_ACC + 8 * U_IN && g == 0);
    g = 2;
    vkb_bound_acc16_step(-1, &g, &e); /* E2 = E1 (1 + u) + u + 3 U_IN */
    ASSERT(e == (3 * U_ACC + 8 * U_IN) * (1 + U_ACC) + U_ACC + 3 * U_IN && g == 0);
    g = 0, e = 0x1.0p-3;
    vkb_bound_acc16_step(0, &g, &e); /* only the carried error grows: E (1 + u) */
    ASSERT(e == 0x1.0p-3 + 0x1.0p-13);
}

/* The accumulator rounds after products 16, 32, ... and after the last, whatever K. */
static void acc16_group_ends(void)
{
    ASSERT(!vkb_acc16_group_ends(0, 600, 16) && vkb_acc16_group_ends(15, 600, 16));
    ASSERT(!vkb_acc16_group_ends(16, 600, 16) && vkb_acc16_group_ends(31, 600, 16));
    ASSERT(vkb_acc16_group_ends(599, 600, 16) && !vkb_acc16_group_ends(598, 600, 16));
    ASSERT(vkb_acc16_group_ends(0, 1, 16) && vkb_acc16_group_ends(16, 17, 16));
    for (int p = 0; p < 5; p++)
        ASSERT(vkb_acc16_group_ends(p, 5, 1));
}

typedef struct product {
    int64_t m, n, k;
    double *a, *b; /* fp16 values */
} product;

/* Element (I, J)'s exact value and bound with a rounding every PER products, computed here. */
static double exact_bound(const product *p, int64_t i, int64_t j, int per, double *bound)
{
    double s = 0, g = 0, e = 0;
    for (int64_t q = 0; q < p->k; q++) {
        double t = p->a[i * p->k + q] * p->b[q * p->n + j];
        s += t;
        g += fabs(t);
        if ((q + 1) % per == 0 || q == p->k - 1) {
            e = e * (1 + U_ACC) + U_ACC * fabs(s) + U_IN * (g + fabs(s));
            g = 0;
        }
    }
    *bound = e;
    return s;
}

/* Element (I, J) accumulated in fp16 as a tensor core does with PER products an instruction. */
static double emulated(const product *p, int64_t i, int64_t j, int per)
{
    double acc = 0, group = 0;
    for (int64_t q = 0; q < p->k; q++) {
        group += p->a[i * p->k + q] * p->b[q * p->n + j];
        if ((q + 1) % per == 0 || q == p->k - 1) {
            acc = to_half(acc + group);
            group = 0;
        }
    }
    return acc;
}

/* The last product a b (fp16 both) of element (I, J) that puts its exact value RATIO times its bound away from
 * C (SIGN: on which side): a search over b's 1024 significands for the a b nearest the value wanted. Returns
 * the ratio reached. */
static double place_at(product *p, int64_t i, int64_t j, int per, double c, double ratio, int sign)
{
    double *a = &p->a[i * p->k + p->k - 1], *b = &p->b[(p->k - 1) * p->n + j], bound, t = 0, s;
    double best = INFINITY, ba = 0, bb = 0;
    for (int it = 0; it < 6; it++) { /* t = c - s0 - sign ratio E(t): E moves little with t */
        s = exact_bound(p, i, j, per, &bound);
        t = c - (s - *a * *b) - sign * ratio * bound;
        *a = t, *b = 1;
    }
    for (int q = 0; q < 1024; q++) {
        double bv = ldexp(1024 + q, -11), av = to_half(t / bv); /* b in [0.5, 1) */
        if (fabs(av * bv - t) < best)
            best = fabs(av * bv - t), ba = av, bb = bv;
    }
    *a = ba, *b = bb;
    s = exact_bound(p, i, j, per, &bound);
    return fabs(c - s) / bound;
}

/* Make element (I, J) lie RATIO times its bound from an output *C near the emulated one: *C and its
 * neighbours a few fp16 steps either side tried (products of two 11-bit significands do not reach every
 * value), the closest kept. Returns the ratio reached. */
static double place(product *p, int64_t i, int64_t j, int per, double *c, double ratio, int sign)
{
    double a0 = p->a[i * p->k + p->k - 1], b0 = p->b[(p->k - 1) * p->n + j], best = INFINITY, bc = *c, step;
    int e;
    frexp(*c, &e);
    step = ldexp(1, e - 11);
    for (int d = -4; d <= 4; d++) {
        double got = to_half(*c + d * step) == *c + d * step ? place_at(p, i, j, per, *c + d * step, ratio, sign)
                                                             : INFINITY; /* an fp16 value only */
        if (fabs(got - ratio) < fabs(best - ratio))
            best = got, bc = *c + d * step;
        p->a[i * p->k + p->k - 1] = a0, p->b[(p->k - 1) * p->n + j] = b0;
    }
    *c = bc;
    return place_at(p, i, j, per, bc, ratio, sign);
}

static uint16_t *halves(const double *x, int64_t count)
{
    uint16_t *h = vkb_alloc((size_t)count * sizeof *h);
    for (int64_t i = 0; i < count; i++)
        h[i] = vkb_half_from_float((float)x[i]);
    return h;
}

/* One element (I, J) of an M x N x K product, K's last product chosen so that its error is RATIO times its
 * bound: the check fails iff RATIO > 1, naming that element alone. */
static void one_edge(int64_t m, int64_t n, int64_t k, int per, int64_t i, int64_t j, double ratio, int sign)
{
    product p = {m, n, k, vkb_alloc((size_t)(m * k) * sizeof(double)), vkb_alloc((size_t)(k * n) * sizeof(double))};
    double *c = vkb_alloc((size_t)(m * n) * sizeof *c), cij, got, bound;
    int before = unit_failures;
    uint16_t *a16, *b16, *c16;
    vkb_rng rng;
    vkb_check r;
    vkb_rng_seed(&rng, (uint64_t)(k * 1000 + i * 37 + j));
    for (int64_t x = 0; x < m * k; x++)
        p.a[x] = to_half(vkb_rng_uniform(&rng, -1, 1));
    for (int64_t x = 0; x < k * n; x++)
        p.b[x] = to_half(vkb_rng_uniform(&rng, -1, 1));
    p.a[i * k + k - 1] = 0, p.b[(k - 1) * n + j] = 0.625;
    /* the last product away from 0, on the side of the others' sum: no cancellation makes the bound tiny */
    p.a[i * k + k - 1] = exact_bound(&p, i, j, per, &bound) < 0 ? -0.75 : 0.75;
    cij = emulated(&p, i, j, per);
    got = place(&p, i, j, per, &cij, ratio, sign);
    ASSERT(fabs(got - ratio) < 0.002); /* the search reached the ratio wanted */
    for (int64_t x = 0; x < m; x++)
        for (int64_t y = 0; y < n; y++)
            c[x * n + y] = x == i && y == j ? cij : emulated(&p, x, y, per);
    a16 = halves(p.a, m * k), b16 = halves(p.b, k * n), c16 = halves(c, m * n);
    vkb_mm_tc_check_acc16(m, n, k, per, a16, b16, c16, NULL, &r);
    if (ratio > 1) {
        ASSERT(!r.pass && r.bad == 1 && r.first_bad == (uint64_t)(i * n + j));
        ASSERT(fabs(r.worst_ratio - got) < 1e-9 * got); /* the error over the bound computed here */
    } else {
        ASSERT(r.pass && r.bad == 0 && r.checked == (uint64_t)(m * n));
        ASSERT(r.worst_ratio >= got * (1 - 1e-9));
    }
    if (unit_failures > before)
        fprintf(stderr, "  at %lldx%lldx%lld per %d, element (%lld, %lld), ratio %g (reached %.6f)\n", (long long)m,
                (long long)n, (long long)k, per, (long long)i, (long long)j, ratio, got);
    free(p.a), free(p.b), free(c), free(a16), free(b16), free(c16);
}

/* Every corner and one inner element, at K around the groups of 16, 0.99x and 1.01x the bound, both sides. */
static void check_edges(int per, const int64_t *ks, int nk)
{
    const int64_t m = 5, n = 7;
    const int64_t at[][2] = {{0, 0}, {0, n - 1}, {m - 1, 0}, {m - 1, n - 1}, {2, 3}};
    for (int q = 0; q < nk; q++)
        for (int e = 0; e < 5; e++)
            for (int side = -1; side <= 1; side += 2) {
                int before = unit_failures;
                one_edge(m, n, ks[q], per, at[e][0], at[e][1], 0.99, side);
                one_edge(m, n, ks[q], per, at[e][0], at[e][1], 1.01, side);
                if (unit_failures > before)
                    return; /* one case's messages are enough */
            }
}

static void acc16_edges(void)
{
    static const int64_t ks[] = {1, 2, 7, 15, 16, 17, 31, 32, 33, 47, 64};
    check_edges(16, ks, (int)(sizeof ks / sizeof ks[0]));
}

/* A library's fp16 GEMM (GROUP 1: a rounding after every product). */
static void acc16_edges_each(void)
{
    static const int64_t ks[] = {1, 2, 17, 33};
    check_edges(1, ks, (int)(sizeof ks / sizeof ks[0]));
}

/* Large products (past VKB_MM_FULL_CHECK_MACS) are checked by Freivalds blocks against a model and by exact
 * lines against the recurrence's bound: an element of the first or last row or column (off the other
 * exact lines) made 1.5x its bound wrong, an error too small for the blocks, is caught by its exact line
 * and named. */
static void acc16_large_edges(void)
{
    const int64_t m = 272, n = 272, k = 2048, at[][2] = {{0, 100}, {m - 1, 100}, {100, 0}, {100, n - 1}};
    product p = {m, n, k, vkb_alloc((size_t)(m * k) * sizeof(double)), vkb_alloc((size_t)(k * n) * sizeof(double))};
    double *c = vkb_alloc((size_t)(m * n) * sizeof *c);
    float *af = vkb_alloc((size_t)(m * k) * sizeof *af), *bf = vkb_alloc((size_t)(k * n) * sizeof *bf);
    uint16_t *a16, *b16, *c16;
    vkb_product_ref *ref;
    vkb_rng rng;
    vkb_check r;
    vkb_rng_seed(&rng, 7);
    for (int64_t x = 0; x < m * k; x++)
        af[x] = (float)(p.a[x] = to_half(vkb_rng_uniform(&rng, -1, 1)));
    for (int64_t x = 0; x < k * n; x++)
        bf[x] = (float)(p.b[x] = to_half(vkb_rng_uniform(&rng, -1, 1)));
    for (int64_t x = 0; x < m; x++)
        for (int64_t y = 0; y < n; y++)
            c[x * n + y] = emulated(&p, x, y, 16);
    a16 = halves(p.a, m * k), b16 = halves(p.b, k * n), c16 = halves(c, m * n);
    ref = vkb_product_ref_create(m, n, k, af, bf, VKB_MM_PRODUCT_SEED);
    vkb_mm_tc_check_acc16(m, n, k, 16, a16, b16, c16, ref, &r);
    ASSERT(r.pass);
    for (int e = 0; e < 4; e++) {
        int64_t i = at[e][0], j = at[e][1];
        uint16_t keep = c16[i * n + j];
        double bound, s = exact_bound(&p, i, j, 16, &bound);
        c16[i * n + j] = vkb_half_from_float((float)to_half(s + 1.5 * bound));
        vkb_mm_tc_check_acc16(m, n, k, 16, a16, b16, c16, ref, &r);
        ASSERT(!r.pass && r.bad_row == i && r.bad_col == j);
        c16[i * n + j] = keep;
    }
    vkb_product_ref_destroy(ref);
    free(p.a), free(p.b), free(c), free(af), free(bf), free(a16), free(b16), free(c16);
}

UNIT_TESTS({"acc16_step_terms", acc16_step_terms}, {"acc16_group_ends", acc16_group_ends}, {"acc16_edges", acc16_edges},
           {"acc16_edges_each", acc16_edges_each}, {"acc16_large_edges", acc16_large_edges})
