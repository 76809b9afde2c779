/* test_check_refs.c - the large-product references matmul.c keeps in a case, one per input type (fp32, fp16 with
 * the _acc16 rows, bf16, int8), built on first use and shared by every row of that type: through the family's plan
 * and check past the element-wise limit, rows of every type in turn on one case each pass on the exact product of
 * the inputs the plan uploads (a reference of another type's inputs, or of another case's, fails it) and fail with
 * one element wrong; a second case at the same shape, from another seed, gets references of its own. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "half.h"
#include "select.h"
#include "test_caps.h"
#include "unit.h"

enum {
    M = 520,
    N = 516,
    K = 532
}; /* past VKB_MM_FULL_CHECK_MACS (2^27); cuBLAS's int8 GEMM takes K, N multiples of 4 */

typedef enum { IN_F32, IN_F16, IN_BF16, IN_S8, NINPUTS } inputs;

/* a row of each input type, its inputs, and whether its C is fp16 (the _acc16 rows) */
typedef struct row {
    const char *name;
    inputs in;
    int c16;
} row;

static const row F32 = {"cublas_sgemm", IN_F32, 0}, F16 = {"cublas_hgemm", IN_F16, 0};
static const row BF16 = {"cublas_gemm_bf16", IN_BF16, 0}, ACC16 = {"cublas_hgemm_acc16", IN_F16, 1};
static const row S8 = {"cublas_gemm_s8", IN_S8, 0};

/* one case of the family and the exact products of its inputs, made as the rows need them */
typedef struct mm_test {
    const vkb_family *fam;
    vkb_case c;
    vkb_caps caps;
    double *exact[NINPUTS];
} mm_test;

static mm_test open_case(uint64_t seed)
{
    mm_test t = {vkb_family_find("matmul"), {NULL, {{M, N, K}}, NULL}, test_caps_gpu("test device", 16), {NULL}};
    char why[200];
    t.c.family = t.fam;
    t.c.data = t.fam->case_create(&t.c.shape, seed, why, sizeof why);
    ASSERT(t.c.data);
    return t;
}

static void close_case(mm_test *t)
{
    t->fam->case_destroy(t->c.data);
    for (int i = 0; i < NINPUTS; i++)
        free(t->exact[i]);
}

/* element E of an input of type IN as the device reads it */
static double value(const void *x, int64_t e, inputs in)
{
    switch (in) {
    case IN_F32: return ((const float *)x)[e];
    case IN_F16: return vkb_half_to_float(((const uint16_t *)x)[e]);
    case IN_BF16: return vkb_bf16_to_float(((const uint16_t *)x)[e]);
    default: return ((const int8_t *)x)[e];
    }
}

/* the exact A B of the plan's inputs (of type IN), in double: exact for every type at this K */
static double *exact_product(const vkb_plan *p, inputs in)
{
    double *c = calloc((size_t)M * N, sizeof *c), *b = malloc((size_t)K * N * sizeof *b);
    for (int64_t e = 0; e < (int64_t)K * N; e++)
        b[e] = value(p->buf[1].host, e, in);
    for (int64_t i = 0; i < M; i++)
        for (int64_t q = 0; q < K; q++) {
            double a = value(p->buf[0].host, i * K + q, in);
            for (int64_t j = 0; j < N; j++)
                c[i * N + j] += a * b[q * N + j];
        }
    free(b);
    return c;
}

/* R's check on T's case of C = the exact product, PLANT: with element (M/2, N/2) wrong (NaN, or +1 for int8) */
static vkb_check check_row(mm_test *t, row r, int plant)
{
    const vkb_variant *v = vkb_variant_find(t->fam, r.name);
    vkb_plan p;
    vkb_check res;
    char why[200];
    int64_t at = (int64_t)(M / 2) * N + N / 2;
    int planned = v && vkb_family_plan(t->fam, v, &t->c, &t->caps, &p, why, sizeof why) == VKB_PLAN_OK;
    ASSERT(planned);
    if (!planned) {
        vkb_check_init(&res, "not planned"); /* failed: pass 0 */
        return res;
    }
    if (!t->exact[r.in])
        t->exact[r.in] = exact_product(&p, r.in);
    for (int64_t e = 0; e < (int64_t)M * N; e++) {
        double x = t->exact[r.in][e];
        if (r.in == IN_S8)
            ((int32_t *)p.buf[2].host)[e] = (int32_t)x + (plant && e == at);
        else if (r.c16)
            ((uint16_t *)p.buf[2].host)[e] = vkb_half_from_float(plant && e == at ? NAN : (float)x);
        else
            ((float *)p.buf[2].host)[e] = plant && e == at ? NAN : (float)x;
    }
    vkb_family_check(t->fam, v, &t->c, &p, &res);
    return res;
}

/* every type in turn, each twice, on one case: each row's exact C passes (a shared reference of the wrong inputs
 * fails it), and one wrong element fails */
static void one_per_input_type(void)
{
    const row order[] = {F32, F16, BF16, ACC16, S8, BF16, F16, S8, ACC16, F32};
    mm_test t = open_case(1);
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        vkb_check good = check_row(&t, order[i], 0), bad = check_row(&t, order[i], 1);
        ASSERT(good.pass && !strstr(good.method, "every element"));
        ASSERT(!bad.pass);
        if (!good.pass)
            fprintf(stderr, "  %s (step %zu) failed on its exact product: %s\n", order[i].name, i, good.method);
    }
    close_case(&t);
}

/* two cases at the same shape, one after the other as the runner has them: the second's exact C passes, so no
 * reference outlives its case (one kept by shape, or by the inputs' addresses, which a new case may reuse) */
static void none_across_cases(void)
{
    for (uint64_t seed = 1; seed <= 2; seed++) {
        mm_test t = open_case(seed);
        const row order[] = {S8, F32, BF16};
        for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
            vkb_check good = check_row(&t, order[i], 0);
            ASSERT(good.pass);
            if (!good.pass)
                fprintf(stderr, "  %s (case of seed %llu) failed on its exact product\n", order[i].name,
                        (unsigned long long)seed);
        }
        close_case(&t);
    }
}

UNIT_TESTS({"one_per_input_type", one_per_input_type}, {"none_across_cases", none_across_cases})
