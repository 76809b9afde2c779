/* test_check_chunks.c - the element checks on the host's cores (host/core/check.c): vkb_check_words past one
 * chunk and vkb_check_chunks give, on 1 thread and on 3, exactly the check of one sequential pass (every
 * field: counts, the first bad element at the lowest index, the worst element, the largest bound), with no bad
 * element, one, several in different chunks and the last partial one, and NaNs; the families' chunked checks
 * (matmul's element-wise checks, memory.stride's sums) give the same result on 1 thread and on 3. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "family.h"
#include "matmul/matmul_tc.h"
#include "select.h"
#include "test_caps.h"
#include "unit.h"
#include "util.h"

static void set_threads(int n)
{
    char text[8];
    snprintf(text, sizeof text, "%d", n);
    setenv("VKB_THREADS", text, 1);
}

/* Field by field (a memcmp would also compare the padding, and NaN != NaN would fail a ==). */
static int same_check(const vkb_check *x, const vkb_check *y)
{
#define SAME_BITS(f) (memcmp(&x->f, &y->f, sizeof x->f) == 0)
    return SAME_BITS(pass) && SAME_BITS(checked) && SAME_BITS(bad) && SAME_BITS(first_bad) && SAME_BITS(worst_ratio) &&
           SAME_BITS(max_error) && SAME_BITS(tolerance) && SAME_BITS(max_bound) && SAME_BITS(bad_row) &&
           SAME_BITS(bad_col) && SAME_BITS(bad_expected) && SAME_BITS(bad_actual) && SAME_BITS(cols) &&
           strcmp(x->method, y->method) == 0 && strcmp(x->reason, y->reason) == 0;
#undef SAME_BITS
}

/* ---- words ---- */

/* The sequential word check, as vkb_check_words was before chunks: the oracle. */
static void words_oracle(vkb_check *r, const uint32_t *out, const uint32_t *ref, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        r->checked++;
        if (out[i] == ref[i])
            continue;
        if (r->bad++ == 0) {
            r->first_bad = i;
            r->bad_row = r->cols ? (int64_t)(i / r->cols) : -1;
            r->bad_col = r->cols ? (int64_t)(i % r->cols) : -1;
            r->bad_expected = ref[i];
            r->bad_actual = out[i];
        }
        r->worst_ratio = r->max_error = INFINITY;
    }
}

/* OUT against REF (N words, COLS per row or 0) on 1 and 3 threads, each equal to the oracle. */
static void words_agree(const uint32_t *out, const uint32_t *ref, uint64_t n, uint64_t cols)
{
    vkb_check want, got;
    vkb_check_init(&want, "exact");
    want.cols = cols;
    words_oracle(&want, out, ref, n);
    vkb_check_finish(&want);
    for (int threads = 1; threads <= 3; threads += 2) {
        set_threads(threads);
        vkb_check_init(&got, "exact");
        got.cols = cols;
        vkb_check_words(&got, out, ref, n);
        vkb_check_finish(&got);
        ASSERT(same_check(&got, &want));
    }
}

static void chunked_words(void)
{
    /* three whole chunks and a partial one */
    uint64_t n = 3 * (uint64_t)VKB_CHECK_CHUNK + 1001, last = n - 1,
             planted[] = {2 * VKB_CHECK_CHUNK + 5, 17, VKB_CHECK_CHUNK, 3 * VKB_CHECK_CHUNK + 7};
    uint32_t *ref = vkb_alloc(n * 4), *out = vkb_alloc(n * 4);
    vkb_check r;
    for (uint64_t i = 0; i < n; i++)
        ref[i] = out[i] = (uint32_t)(i * 2654435761u);
    words_agree(out, ref, n, 0);
    /* one bad word, in the last partial chunk: its index, value and place */
    out[last] ^= 4;
    words_agree(out, ref, n, 1000);
    set_threads(3);
    vkb_check_init(&r, "exact");
    r.cols = 1000;
    vkb_check_words(&r, out, ref, n);
    vkb_check_finish(&r);
    ASSERT(!r.pass && r.bad == 1 && r.first_bad == last && r.bad_row == (int64_t)(last / 1000) &&
           r.bad_col == (int64_t)(last % 1000) && r.bad_actual == (double)out[last] && isinf(r.worst_ratio));
    /* several, planted out of order in different chunks: the first reported is the lowest index */
    for (size_t q = 0; q < VKB_COUNT(planted); q++)
        out[planted[q]] ^= 1;
    words_agree(out, ref, n, 0);
    vkb_check_init(&r, "exact");
    vkb_check_words(&r, out, ref, n);
    vkb_check_finish(&r);
    ASSERT(!r.pass && r.bad == 5 && r.first_bad == 17 && r.checked == n);
    /* a check that already has a bad element keeps it; counts add up */
    vkb_check_words(&r, out + 1, ref + 1, n - 1);
    ASSERT(r.first_bad == 17 && r.bad == 10 && r.checked == 2 * n - 1);
    free(ref);
    free(out);
}

/* ---- values ---- */

typedef struct values {
    uint64_t n, per; /* elements, elements per chunk */
    double *out, *ref, *bound;
} values;

static void values_chunk(void *ctx, vkb_check_part *part, int64_t t)
{
    const values *v = ctx;
    for (uint64_t i = (uint64_t)t * v->per; i < v->n && i < ((uint64_t)t + 1) * v->per; i++)
        vkb_check_part_value(part, i, v->out[i], v->ref[i], v->bound[i]);
}

/* The chunked check of V (after PRIOR sequential elements, 0 or more) on 1 and 3 threads equals
 * vkb_check_value over every element in order. */
static void values_agree(const values *v, int prior)
{
    vkb_check want, got;
    vkb_check_init(&want, "values");
    want.cols = 7;
    for (int q = 0; q < prior; q++)
        vkb_check_value(&want, 0, 1.0, 1.0, 0.25);
    for (uint64_t i = 0; i < v->n; i++)
        vkb_check_value(&want, i, v->out[i], v->ref[i], v->bound[i]);
    vkb_check_finish(&want);
    for (int threads = 1; threads <= 3; threads += 2) {
        set_threads(threads);
        vkb_check_init(&got, "values");
        got.cols = 7;
        for (int q = 0; q < prior; q++)
            vkb_check_value(&got, 0, 1.0, 1.0, 0.25);
        vkb_check_chunks(&got, (int64_t)((v->n + v->per - 1) / v->per), values_chunk, (void *)v);
        vkb_check_finish(&got);
        ASSERT(same_check(&got, &want));
    }
}

static void values_agree_both(const values *v)
{
    values_agree(v, 0);
    values_agree(v, 3);
}

static void chunked_values(void)
{
    values v = {5 * 1000 + 333, 1000, NULL, NULL, NULL};
    vkb_check r;
    vkb_rng rng;
    v.out = vkb_alloc(v.n * sizeof(double));
    v.ref = vkb_alloc(v.n * sizeof(double));
    v.bound = vkb_alloc(v.n * sizeof(double));
    vkb_rng_seed(&rng, 3);
    for (uint64_t i = 0; i < v.n; i++) {
        v.ref[i] = vkb_rng_uniform(&rng, -1, 1);
        v.bound[i] = 1e-3;
        v.out[i] = v.ref[i] + vkb_rng_uniform(&rng, -1e-4, 1e-4);
    }
    values_agree_both(&v);
    /* the worst ratio three times (exactly 1/2), twice in chunk 1 and in chunk 3: the first one is reported
     * (its error and tolerance say which) */
    v.ref[1500] = v.ref[1600] = v.ref[3500] = 0.5;
    v.out[1600] = 0.5 + 0x1.0p-13;
    v.bound[1600] = 0x1.0p-12;
    v.out[1500] = 0.5 + 0x1.0p-11;
    v.bound[1500] = 0x1.0p-10;
    v.out[3500] = 0.5 + 0x1.0p-12;
    v.bound[3500] = 0x1.0p-11;
    values_agree_both(&v);
    set_threads(3);
    vkb_check_init(&r, "values");
    vkb_check_chunks(&r, 6, values_chunk, &v);
    ASSERT(r.worst_ratio == 0.5 && r.tolerance == 0x1.0p-10);
    values_agree_both(&v);
    /* one bad element in the last partial chunk, then several, then a NaN before all of them */
    v.out[5200] = v.ref[5200] + 0.5;
    values_agree_both(&v);
    v.out[4999] = v.ref[4999] - 0.25;
    v.out[2000] = v.ref[2000] + 2e-3; /* a chunk's first element */
    values_agree_both(&v);
    v.out[1999] = NAN;
    values_agree_both(&v);
    set_threads(3);
    vkb_check_init(&r, "values");
    r.cols = 7;
    vkb_check_chunks(&r, 6, values_chunk, &v);
    vkb_check_finish(&r);
    ASSERT(!r.pass && r.bad == 4 && r.first_bad == 1999 && r.bad_row == 1999 / 7 && r.bad_col == 1999 % 7 &&
           isnan(r.bad_actual) && isinf(r.worst_ratio) && r.tolerance == 1e-3);
    /* an exact compare (bound 0) and an infinite error within an infinite bound (its ratio a NaN) starting a
     * chunk, and starting the check: a check's first element is its worst until a larger ratio */
    v.bound[3000] = 0;
    v.out[3000] = v.ref[3000];
    v.bound[4000] = v.bound[0] = INFINITY;
    v.out[4000] = v.out[0] = INFINITY;
    values_agree_both(&v);
    free(v.out);
    free(v.ref);
    free(v.bound);
}

/* The largest bound over the elements judged (what the cross-backend compare allows) is the serial check's for
 * any chunking, from one element a chunk to one chunk: bounds that differ from element to element, the largest
 * neither in the first chunk nor at the worst element (a bad one); alone and after prior elements of a larger
 * bound. */
static void chunked_max_bound(void)
{
    static const uint64_t pers[] = {1, 2, 7, 1000, 4096, 5333, 6000};
    values v = {5 * 1000 + 333, 1000, NULL, NULL, NULL};
    vkb_check r;
    vkb_rng rng;
    v.out = vkb_alloc(v.n * sizeof(double));
    v.ref = vkb_alloc(v.n * sizeof(double));
    v.bound = vkb_alloc(v.n * sizeof(double));
    vkb_rng_seed(&rng, 5);
    for (uint64_t i = 0; i < v.n; i++) {
        v.ref[i] = vkb_rng_uniform(&rng, -1, 1);
        v.bound[i] = vkb_rng_uniform(&rng, 1e-4, 1e-2);
        v.out[i] = v.ref[i] + 0.5 * v.bound[i] * vkb_rng_uniform(&rng, -1, 1);
    }
    v.bound[4321] = 0.125; /* the largest bound, its error a small part of it */
    v.out[4321] = v.ref[4321] + 1e-3;
    v.out[2500] = v.ref[2500] + 1.0; /* the worst element: a bad one */
    for (size_t q = 0; q < VKB_COUNT(pers); q++) {
        v.per = pers[q];
        values_agree_both(&v);
        set_threads(3);
        vkb_check_init(&r, "values");
        vkb_check_chunks(&r, (int64_t)((v.n + v.per - 1) / v.per), values_chunk, &v);
        vkb_check_finish(&r);
        ASSERT(!r.pass && r.max_bound == 0.125 && r.tolerance == v.bound[2500]);
    }
    free(v.out);
    free(v.ref);
    free(v.bound);
}

/* ---- the families' chunked checks ---- */

/* Check V of FAMILY at SHAPE on 1 and 3 threads, after FILL(outputs of the plan, CTX) made its outputs:
 * the two checks agree; the 3-thread check in *R. */
static void family_agree(const char *family, const char *variant, vkb_shape shape,
                         void (*fill)(const vkb_plan *p, void *ctx), void *ctx, vkb_check *r)
{
    const vkb_family *f = vkb_family_find(family);
    const vkb_variant *v = vkb_variant_find(f, variant);
    vkb_case c = {f, shape, NULL};
    vkb_caps caps = test_caps_gpu("test device", 16);
    vkb_plan p;
    vkb_check one;
    char why[200];
    c.data = f->case_create(&shape, 1, why, sizeof why);
    ASSERT(c.data && vkb_family_plan(f, v, &c, &caps, &p, why, sizeof why) == VKB_PLAN_OK);
    fill(&p, ctx);
    set_threads(1);
    vkb_family_check(f, v, &c, &p, &one);
    set_threads(3);
    vkb_family_check(f, v, &c, &p, r);
    ASSERT(same_check(&one, r));
    f->case_destroy(c.data);
}

/* C = A B of the plan's fp32 inputs (M x K, K x N), accumulated in fp32; PLANT elements off by 1. */
typedef struct mm_fill {
    int64_t m, n, k;
    const int64_t *plant;
    int nplant;
} mm_fill;

static void fill_product(const vkb_plan *p, void *ctx)
{
    const mm_fill *mf = ctx;
    const float *a = p->buf[0].host, *b = p->buf[1].host;
    float *c = (float *)p->buf[2].host;
    for (int64_t i = 0; i < mf->m; i++)
        for (int64_t j = 0; j < mf->n; j++) {
            float s = 0;
            for (int64_t q = 0; q < mf->k; q++)
                s += a[i * mf->k + q] * b[q * mf->n + j];
            c[i * mf->n + j] = s;
        }
    for (int q = 0; q < mf->nplant; q++)
        c[mf->plant[q]] += q == 0 ? NAN : 1.0f;
}

static void family_chunks(void)
{
    /* 200 x 40 x 300: 22 rows a chunk, 10 chunks (the last partial) */
    static const int64_t plant[] = {199 * 40 + 39, 100 * 40 + 3, 22 * 40};
    mm_fill mf = {200, 40, 300, plant, 0};
    vkb_shape shape = {{200, 40, 300}};
    vkb_check r;
    ASSERT(vkb_mm_rows_per_chunk(40, 300) == 22);
    family_agree("matmul", "naive", shape, fill_product, &mf, &r);
    ASSERT(r.pass && r.checked == 200 * 40);
    mf.nplant = 3; /* a NaN in the last element, two errors before it: the first is the lowest */
    family_agree("matmul", "naive", shape, fill_product, &mf, &r);
    ASSERT(!r.pass && r.bad == 3 && r.first_bad == 22 * 40 && r.bad_row == 22 && r.bad_col == 0);
}

/* memory.stride's sums as the kernel makes them (thread t: elements t, t + threads, ... at STRIDE words),
 * one of them off by one in the last chunk of threads. */
static void fill_stride_sums(const vkb_plan *p, void *ctx)
{
    const uint64_t *shape = ctx; /* n, stride, threads */
    const uint32_t *src = p->buf[0].host;
    uint32_t *dst = (uint32_t *)p->buf[1].host;
    memset(dst, 0, shape[2] * 4);
    for (uint64_t i = 0; i < shape[0]; i++)
        dst[i % shape[2]] += src[i * shape[1]];
    dst[shape[2] - 3]++;
}

static void stride_chunks(void)
{
    /* n = 2^20 + 12345: 65 groups of 256 threads, each thread 64 elements (the last fewer) */
    uint64_t shape[3] = {(1u << 20) + 12345, 3, 65 * 256};
    vkb_check r;
    family_agree("memory.stride", "read", (vkb_shape){{(int64_t)shape[0], (int64_t)shape[1]}}, fill_stride_sums, shape,
                 &r);
    ASSERT(!r.pass && r.bad == 1 && r.first_bad == shape[2] - 3 && r.checked == shape[2]);
}

UNIT_TESTS({"chunked_words", chunked_words}, {"chunked_values", chunked_values},
           {"chunked_max_bound", chunked_max_bound}, {"family_chunks", family_chunks}, {"stride_chunks", stride_chunks})
