/* test_s8_check.c - the int8 rows' exact check past the element-wise limit (matmul_s8_check.c): integer Freivalds
 * and exact lines against a reference made once from A and B. An exact C passes with the same counts on any
 * thread count and with one reference shared by several checks; any element off by one, the poison and two rows
 * swapped fail; a reference made from other inputs fails an exact C. */
#include <stdlib.h>
#include <string.h>

#include "matmul/matmul_s8_check.h"
#include "matmul/matmul_tc.h"
#include "unit.h"

/* past VKB_MM_FULL_CHECK_MACS (2^27) with M != N, no dimension a power of two */
enum { M = 520, N = 516, K = 530 };

typedef struct s8_product {
    int8_t a[M * K], b[K * N];
    int32_t c[M * N];
} s8_product;

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* inputs over the whole int8 range from SEED, and their exact C */
static s8_product *make(uint64_t seed)
{
    s8_product *p = malloc(sizeof *p);
    int64_t *row = malloc(N * sizeof *row);
    for (int e = 0; e < M * K; e++)
        p->a[e] = (int8_t)(lcg(&seed) & 255);
    for (int e = 0; e < K * N; e++)
        p->b[e] = (int8_t)(lcg(&seed) & 255);
    for (int i = 0; i < M; i++) {
        memset(row, 0, N * sizeof *row);
        for (int q = 0; q < K; q++)
            for (int j = 0; j < N; j++)
                row[j] += (int64_t)p->a[i * K + q] * p->b[q * N + j];
        for (int j = 0; j < N; j++)
            p->c[i * N + j] = (int32_t)row[j];
    }
    free(row);
    return p;
}

static vkb_check check(const s8_product *p, const int32_t *c, const vkb_mm_s8_ref *ref)
{
    vkb_check r;
    vkb_mm_tc_check_s8(M, N, K, p->a, p->b, c, VKB_MM_PRODUCT_SEED, ref, &r);
    return r;
}

static int same(const vkb_check *x, const vkb_check *y)
{
    return x->pass == y->pass && x->checked == y->checked && x->bad == y->bad && x->first_bad == y->first_bad &&
           x->bad_row == y->bad_row && x->bad_col == y->bad_col && x->bad_expected == y->bad_expected &&
           x->bad_actual == y->bad_actual && !strcmp(x->method, y->method);
}

/* an exact C passes, every line counted (2 rounds by rows and by columns, 4 exact rows and columns), the same on 1,
 * 2 and 5 threads and with the case's reference made once as with one made for the call */
static void large_clean(void)
{
    s8_product *p = make(1);
    vkb_mm_s8_ref *ref = vkb_mm_s8_ref_create(M, N, K, p->a, p->b, VKB_MM_PRODUCT_SEED);
    vkb_check own = check(p, p->c, NULL);
    ASSERT(own.pass && own.bad == 0 && own.checked == 2ull * (M + N) + 4ull * (M + N));
    ASSERT(strstr(own.method, "integer Freivalds"));
    for (int t = 0; t < 3; t++) {
        setenv("VKB_THREADS", (const char *[]){"1", "2", "5"}[t], 1);
        vkb_check shared = check(p, p->c, ref), again = check(p, p->c, ref);
        ASSERT(same(&own, &shared) && same(&own, &again));
    }
    unsetenv("VKB_THREADS");
    vkb_mm_s8_ref_destroy(ref);
    free(p);
}

/* one element off by one anywhere (the corners, the middle, the last column, random places) fails with a shared
 * reference, named by its row or column; so do the poison and two rows swapped; the next exact C passes again */
static void large_planted(void)
{
    s8_product *p = make(2);
    int32_t *c = malloc(sizeof p->c);
    vkb_mm_s8_ref *ref = vkb_mm_s8_ref_create(M, N, K, p->a, p->b, VKB_MM_PRODUCT_SEED);
    int64_t at[28][2] = {{0, 0}, {0, N - 1}, {M - 1, 0}, {M - 1, N - 1}, {M / 2, N / 2}, {129, N - 1}, {M - 1, 258}};
    uint64_t s = 7;
    for (int q = 7; q < 28; q++) {
        at[q][0] = (int64_t)(lcg(&s) % M);
        at[q][1] = (int64_t)(lcg(&s) % N);
    }
    for (int q = 0; q < 28; q++) {
        int64_t i = at[q][0], j = at[q][1];
        vkb_check r;
        memcpy(c, p->c, sizeof p->c);
        c[i * N + j] += q % 2 ? 1 : -1;
        r = check(p, c, ref);
        ASSERT(!r.pass && r.bad >= 1 && (r.bad_row == i || r.bad_col == j));
    }
    memset(c, 0xA5, sizeof p->c); /* the poison */
    ASSERT(!check(p, c, ref).pass);
    memcpy(c, p->c, sizeof p->c);
    memcpy(c + 3 * N, p->c + 4 * N, N * sizeof *c);
    memcpy(c + 4 * N, p->c + 3 * N, N * sizeof *c);
    ASSERT(!check(p, c, ref).pass);
    ASSERT(check(p, p->c, ref).pass);
    free(c);
    vkb_mm_s8_ref_destroy(ref);
    free(p);
}

/* errors that cancel in every row and column sum (+1 -1 over -1 +1 at the corners of a rectangle) fail: the
 * Freivalds vectors' entries differ from row to row, so the corners weigh differently; vectors of (nearly) one
 * value would see nothing but the exact lines */
static void cancelling_rectangles(void)
{
    s8_product *p = make(5);
    int32_t *c = malloc(sizeof p->c);
    vkb_mm_s8_ref *ref = vkb_mm_s8_ref_create(M, N, K, p->a, p->b, VKB_MM_PRODUCT_SEED);
    uint64_t s = 11;
    for (int q = 0; q < 40; q++) {
        int64_t i = 1 + (int64_t)(lcg(&s) % (M - 2)), i2 = 1 + (int64_t)(lcg(&s) % (M - 2));
        int64_t j = 1 + (int64_t)(lcg(&s) % (N - 2)), j2 = 1 + (int64_t)(lcg(&s) % (N - 2));
        if (i == i2 || j == j2)
            continue;
        memcpy(c, p->c, sizeof p->c);
        c[i * N + j] += 1, c[i * N + j2] -= 1, c[i2 * N + j] -= 1, c[i2 * N + j2] += 1;
        ASSERT(!check(p, c, ref).pass);
    }
    free(c);
    vkb_mm_s8_ref_destroy(ref);
    free(p);
}

/* a reference is its own inputs': one made from other inputs of the same shape fails an exact C */
static void other_inputs(void)
{
    s8_product *p = make(3), *q = make(4);
    vkb_mm_s8_ref *ref = vkb_mm_s8_ref_create(M, N, K, q->a, q->b, VKB_MM_PRODUCT_SEED);
    ASSERT(!check(p, p->c, ref).pass);
    ASSERT(check(q, q->c, ref).pass);
    vkb_mm_s8_ref_destroy(ref);
    free(p);
    free(q);
}

UNIT_TESTS({"large_clean", large_clean}, {"large_planted", large_planted}, {"other_inputs", other_inputs},
           {"cancelling_rectangles", cancelling_rectangles})
