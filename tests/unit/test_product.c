/* test_product.c - the large-product check (host/core/product_check.c): the same verdict and values whatever the
 * number of threads, and fp16 inputs with truncating fp32 accumulation at K = 8192 (the 8192^3 design
 * point's tolerance): 200 clean emulated products pass, every planted 1% element fails. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "half.h"
#include "product_check.h"
#include "parallel.h"
#include "unit.h"
#include "util.h"

/* M x N x K: M N K = 6.1e8, past the 2^27 of the element-wise check; N = 256 + 16: a partial block. */
enum { DM = 272, DN = 272, DK = 8192 };

typedef struct product {
    int64_t m, n, k;
    float *a, *b, *c;
} product;

static product product_alloc(int64_t m, int64_t n, int64_t k)
{
    product p = {
        m, n, k, vkb_alloc((size_t)(m * k) * 4), vkb_alloc((size_t)(k * n) * 4), vkb_alloc((size_t)(m * n) * 4)};
    return p;
}

static void product_free(product *p)
{
    free(p->a);
    free(p->b);
    free(p->c);
}

/* X truncated toward zero to fp32's 24 significant bits. */
static double trunc_f32(double x)
{
    int e;
    double f = frexp(x, &e);
    return ldexp(trunc(ldexp(f, 24)), e - 24);
}

/* Inputs uniform in [-1, 1] rounded to fp16; C accumulated as the model has the tensor cores do it: each
 * instruction's 16 exact products (exact in double: 22-bit products of close magnitudes) added to an fp32
 * accumulator that is truncated, not rounded. */
static void make_f16_product(product *p, uint64_t seed)
{
    vkb_rng rng;
    double *acc = vkb_alloc((size_t)p->n * sizeof *acc), *group = vkb_alloc((size_t)p->n * sizeof *group);
    vkb_rng_seed(&rng, seed);
    for (int64_t i = 0; i < p->m * p->k; i++)
        p->a[i] = vkb_half_to_float(vkb_half_from_float((float)vkb_rng_uniform(&rng, -1, 1)));
    for (int64_t i = 0; i < p->k * p->n; i++)
        p->b[i] = vkb_half_to_float(vkb_half_from_float((float)vkb_rng_uniform(&rng, -1, 1)));
    for (int64_t i = 0; i < p->m; i++) {
        memset(acc, 0, (size_t)p->n * sizeof *acc);
        memset(group, 0, (size_t)p->n * sizeof *group);
        for (int64_t q = 0; q < p->k; q++) {
            double a = p->a[i * p->k + q];
            for (int64_t j = 0; j < p->n; j++)
                group[j] += a * p->b[q * p->n + j];
            if (q % 16 == 15 || q == p->k - 1)
                for (int64_t j = 0; j < p->n; j++) {
                    acc[j] = trunc_f32(acc[j] + group[j]);
                    group[j] = 0;
                }
        }
        for (int64_t j = 0; j < p->n; j++)
            p->c[i * p->n + j] = (float)acc[j];
    }
    free(acc);
    free(group);
}

/* Another clean product from P: rows of A (and C) and columns of B (and C) permuted and negated at random;
 * truncation toward zero is odd, so every element stays exactly what the emulation would give. */
static void shuffle(const product *p, product *q, uint64_t seed)
{
    int64_t *rows = vkb_alloc((size_t)p->m * sizeof *rows), *cols = vkb_alloc((size_t)p->n * sizeof *cols);
    float *rs = vkb_alloc((size_t)p->m * sizeof *rs), *cs = vkb_alloc((size_t)p->n * sizeof *cs);
    vkb_rng rng;
    vkb_rng_seed(&rng, seed);
    for (int64_t i = 0; i < p->m; i++)
        rows[i] = i, rs[i] = (vkb_rng_u64(&rng) >> 63) ? -1.0f : 1.0f;
    for (int64_t j = 0; j < p->n; j++)
        cols[j] = j, cs[j] = (vkb_rng_u64(&rng) >> 63) ? -1.0f : 1.0f;
    for (int64_t i = p->m - 1; i > 0; i--) {
        int64_t r = (int64_t)(vkb_rng_u64(&rng) % (uint64_t)(i + 1)), t = rows[i];
        rows[i] = rows[r], rows[r] = t;
    }
    for (int64_t j = p->n - 1; j > 0; j--) {
        int64_t r = (int64_t)(vkb_rng_u64(&rng) % (uint64_t)(j + 1)), t = cols[j];
        cols[j] = cols[r], cols[r] = t;
    }
    for (int64_t i = 0; i < p->m; i++)
        for (int64_t k = 0; k < p->k; k++)
            q->a[i * p->k + k] = rs[i] * p->a[rows[i] * p->k + k];
    for (int64_t k = 0; k < p->k; k++)
        for (int64_t j = 0; j < p->n; j++)
            q->b[k * p->n + j] = cs[j] * p->b[k * p->n + cols[j]];
    for (int64_t i = 0; i < p->m; i++)
        for (int64_t j = 0; j < p->n; j++)
            q->c[i * p->n + j] = rs[i] * cs[j] * p->c[rows[i] * p->n + cols[j]];
    free(rows);
    free(cols);
    free(rs);
    free(cs);
}

/* P checked on REF (made from P's inputs), or on its own when REF is NULL. */
static int f16_passes(const product *p, const vkb_product_ref *ref, uint64_t seed, vkb_check *r)
{
    vkb_check_init(r, "product");
    if (ref)
        vkb_product_check(r, ref, p->c, 0x1.0p-23, VKB_ACC_TRUNCATE);
    else
        vkb_check_product(r, p->m, p->n, p->k, p->a, p->b, p->c, 0x1.0p-23, VKB_ACC_TRUNCATE, seed);
    vkb_check_finish(r);
    return r->pass;
}

static double rms_of(const product *p)
{
    double s = 0;
    for (int64_t e = 0; e < p->m * p->n; e++)
        s += (double)p->c[e] * p->c[e];
    return sqrt(s / (double)(p->m * p->n));
}

/* 200 clean products (4 emulated, each shuffled 50 ways, each with another Freivalds seed): all pass. */
static void f16_deep_clean(void)
{
    product p = product_alloc(DM, DN, DK), q = product_alloc(DM, DN, DK);
    int passed = 0;
    double worst = 0;
    vkb_check r;
    for (int base = 0; base < 4; base++) {
        make_f16_product(&p, 300 + (uint64_t)base);
        for (int s = 0; s < 50; s++) {
            shuffle(&p, &q, 1000 * (uint64_t)base + (uint64_t)s);
            passed += f16_passes(&q, NULL, 55 + 1000 * (uint64_t)base + (uint64_t)s, &r);
            worst = r.worst_ratio > worst ? r.worst_ratio : worst;
            if (!r.pass)
                fprintf(stderr, "clean product %d/%d failed: %s, worst %.3g\n", base, s, r.method, r.worst_ratio);
        }
    }
    fprintf(stderr, "%d of 200 clean products pass; the largest residual is %.3g of its tolerance (%s)\n", passed,
            worst, r.method);
    ASSERT(passed == 200);
    product_free(&p);
    product_free(&q);
}

/* One element off by +-1% of rms(C) fails and is named, anywhere (corners, the partial block, interior); a
 * NaN; a 16x16 tile off by 1%. The design point's margin is printed: a block's tolerance against 1%. */
static void f16_deep_planted(void)
{
    product p = product_alloc(DM, DN, DK);
    vkb_product_ref *ref;
    double d, tol;
    vkb_rng rng;
    vkb_check r;
    int planted = 0, caught = 0;
    make_f16_product(&p, 4243);
    d = 0.01 * rms_of(&p);
    /* a full block at this K with inputs uniform in [-1, 1]: sum_t = w K / 9, sum_c2 = w K / 9 */
    tol = vkb_product_row_tolerance(VKB_PRODUCT_BLOCK, DK, VKB_PRODUCT_BLOCK * DK / 9.0, VKB_PRODUCT_BLOCK * DK / 9.0,
                                    0x1.0p-23, VKB_ACC_TRUNCATE);
    fprintf(stderr, "K = %d: 1%% of rms(C) = %.4g, a block's tolerance %.4g (%.2fx margin)\n", DK, d, tol, d / tol);
    ASSERT(tol < d / 2);
    ref = vkb_product_ref_create(DM, DN, DK, p.a, p.b, 5); /* one reference: the planted errors are in C */
    ASSERT(f16_passes(&p, ref, 5, &r));
    vkb_rng_seed(&rng, 98);
    for (int e = 0; e < 40; e++) {
        float keep;
        int64_t i = e < 4 ? ((e & 1) ? DM - 1 : 0) : (int64_t)(vkb_rng_u64(&rng) % DM);
        int64_t j = e < 4 ? ((e & 2) ? DN - 1 : 0) : (int64_t)(vkb_rng_u64(&rng) % DN);
        keep = p.c[i * DN + j];
        p.c[i * DN + j] = (float)(keep + ((e & 4) ? -d : d));
        planted++;
        caught += !f16_passes(&p, ref, 0, &r);
        ASSERT(r.bad_row == i && r.bad_col == j);
        p.c[i * DN + j] = keep;
    }
    {
        float keep = p.c[100 * DN + 200];
        p.c[100 * DN + 200] = NAN;
        planted++;
        caught += !f16_passes(&p, ref, 0, &r);
        ASSERT(r.bad_row == 100 && r.bad_col == 200);
        p.c[100 * DN + 200] = keep;
    }
    for (int e = 0; e < 4; e++) { /* a 16x16 tile off by 1%: interior, and the last tiles (edge) */
        float *keep = vkb_alloc((size_t)(DM * DN) * 4);
        int64_t ti = e < 2 ? 3 + e : DM / 16 - 1, tj = e < 2 ? 7 - e : DN / 16 - 1;
        memcpy(keep, p.c, (size_t)(DM * DN) * 4);
        for (int64_t i = ti * 16; i < ti * 16 + 16; i++)
            for (int64_t j = tj * 16; j < tj * 16 + 16; j++)
                p.c[i * DN + j] = (float)(p.c[i * DN + j] + (e & 1 ? -d : d));
        planted++;
        caught += !f16_passes(&p, ref, 0, &r);
        memcpy(p.c, keep, (size_t)(DM * DN) * 4);
        free(keep);
    }
    fprintf(stderr, "planted %d errors (1%% of rms(C) = %.4g), caught %d\n", planted, d, caught);
    ASSERT(caught == planted);
    vkb_product_ref_destroy(ref);
    product_free(&p);
}

/* The largest bound a product check records (check.max_bound, what the cross-backend compare allows each
 * output) covers every element: row 5 of A and column 9 of B 1024x the others, so element (5, 9)'s bound is
 * 2^20 times a typical one's and off every exact line. Its model bound sqrt(Var e) x 8 (the rounding model,
 * one element) is below the largest Freivalds block tolerance the check judged (the block's sums over its
 * elements bound each element's own terms), and every exact-line element's rigorous gamma_K sum|a b| (rows
 * and columns 0 and the last are exact lines) is below max_bound too; the check's tolerance, its worst
 * line's, is far below that element's bound, which is why the compare does not use it. */
static void max_bound_covers(void)
{
    product p = product_alloc(DM, DN, 2048);
    double model = 0, rigorous = 0;
    vkb_check r;
    vkb_rng rng;
    vkb_rng_seed(&rng, 21);
    for (int64_t e = 0; e < p.m * p.k; e++)
        p.a[e] = (float)vkb_rng_uniform(&rng, -1, 1) * (e / p.k == 5 ? 1024.0f : 1.0f);
    for (int64_t e = 0; e < p.k * p.n; e++)
        p.b[e] = (float)vkb_rng_uniform(&rng, -1, 1) * (e % p.n == 9 ? 1024.0f : 1.0f);
    for (int64_t i = 0; i < p.m; i++)
        for (int64_t j = 0; j < p.n; j++) {
            float s = 0;
            double c = 0, t = 0, abs_sum = 0, bound;
            for (int64_t q = 0; q < p.k; q++) {
                double x = (double)p.a[i * p.k + q] * p.b[q * p.n + j];
                s += p.a[i * p.k + q] * p.b[q * p.n + j];
                c += x, t += x * x, abs_sum += fabs(x);
            }
            p.c[i * p.n + j] = s;
            bound = vkb_product_row_tolerance(1, p.k, t, c * c, VKB_U_F32, VKB_ACC_ROUND);
            model = bound > model ? bound : model;
            bound = vkb_bound_dot((uint64_t)p.k, abs_sum, VKB_U_F32);
            if ((i == 0 || j == 0 || i == p.m - 1 || j == p.n - 1) && bound > rigorous)
                rigorous = bound;
        }
    vkb_check_init(&r, "product");
    vkb_check_product(&r, p.m, p.n, p.k, p.a, p.b, p.c, VKB_U_F32, VKB_ACC_ROUND, 7);
    vkb_check_finish(&r);
    fprintf(stderr, "max_bound %.4g, largest element model bound %.4g, exact-line rigorous %.4g, tolerance %.4g\n",
            r.max_bound, model, rigorous, r.tolerance);
    ASSERT(r.pass && r.max_bound >= model && r.max_bound >= rigorous && r.tolerance < model / 100);
    product_free(&p);
}

/* Compare two outcomes field by field (the struct is zeroed by vkb_check_init: memcmp sees every byte). */
static int same_check(const vkb_check *x, const vkb_check *y)
{
    return memcmp(x, y, sizeof *x) == 0;
}

/* The verdict and every value (worst ratio, first bad element, the method's widest ratio) are the same with
 * one thread, two and five, on a clean product and on ones with a planted element and a NaN. */
static void threads_identical(void)
{
    product p = product_alloc(300, 530, 600);
    vkb_check one, many;
    vkb_rng rng;
    vkb_rng_seed(&rng, 12);
    for (int64_t e = 0; e < p.m * p.k; e++)
        p.a[e] = (float)vkb_rng_uniform(&rng, -1, 1);
    for (int64_t e = 0; e < p.k * p.n; e++)
        p.b[e] = (float)vkb_rng_uniform(&rng, -1, 1);
    for (int64_t i = 0; i < p.m; i++)
        for (int64_t j = 0; j < p.n; j++) {
            float s = 0;
            for (int64_t q = 0; q < p.k; q++)
                s += p.a[i * p.k + q] * p.b[q * p.n + j];
            p.c[i * p.n + j] = s;
        }
    for (int variant = 0; variant < 3; variant++) {
        if (variant == 1)
            p.c[17 * p.n + 301] += 0.5f;
        if (variant == 2)
            p.c[250 * p.n + 9] = NAN;
        setenv("VKB_THREADS", "1", 1);
        ASSERT(vkb_threads() == 1);
        vkb_check_init(&one, "product");
        vkb_check_product(&one, p.m, p.n, p.k, p.a, p.b, p.c, VKB_U_F32, VKB_ACC_ROUND, 3);
        vkb_check_finish(&one);
        ASSERT(one.pass == (variant == 0));
        for (int t = 2; t <= 5; t += 3) {
            char n[8];
            snprintf(n, sizeof n, "%d", t);
            setenv("VKB_THREADS", n, 1);
            ASSERT(vkb_threads() == t);
            vkb_check_init(&many, "product");
            vkb_check_product(&many, p.m, p.n, p.k, p.a, p.b, p.c, VKB_U_F32, VKB_ACC_ROUND, 3);
            vkb_check_finish(&many);
            ASSERT(same_check(&one, &many));
        }
        fprintf(stderr, "case %d: pass %d, bad %llu, worst %.17g, %s\n", variant, one.pass, (unsigned long long)one.bad,
                one.worst_ratio, one.method);
    }
    unsetenv("VKB_THREADS");
    product_free(&p);
}

UNIT_TESTS({"threads_identical", threads_identical}, {"f16_deep_clean", f16_deep_clean},
           {"f16_deep_planted", f16_deep_planted}, {"max_bound_covers", max_bound_covers})
