/* test_check.c - tolerance rules, element checks and Freivalds' check catching a planted error. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
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

int main(int argc, char **argv)
{
    static const unit_test tests[] = {{"gamma_rules", gamma_rules}, {"values", values}, {"words", words},
                                      {"freivalds", freivalds}};
    return unit_main(argc, argv, tests, (int)(sizeof tests / sizeof *tests));
}
