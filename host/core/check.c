/* check.c - derived tolerances, element checks and Freivalds' check. */
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

double vkb_gamma(double n, double u)
{
    double nu = n * u;
    return nu < 1.0 ? nu / (1.0 - nu) : INFINITY;
}

double vkb_bound_tree_sum(uint64_t n, double sum_abs, double u)
{
    double depth = n > 1 ? ceil(log2((double)n)) : 0.0;
    return vkb_gamma(depth, u) * sum_abs;
}

double vkb_bound_serial_sum(uint64_t n, double sum_abs, double u)
{
    return vkb_gamma(n > 1 ? (double)(n - 1) : 0.0, u) * sum_abs;
}

double vkb_bound_dot(uint64_t k, double sum_abs_products, double u)
{
    return vkb_gamma((double)k, u) * sum_abs_products;
}

void vkb_check_init(vkb_check *r, const char *method)
{
    memset(r, 0, sizeof *r);
    snprintf(r->method, sizeof r->method, "%s", method);
}

void vkb_check_value(vkb_check *r, uint64_t index, double out, double ref, double bound)
{
    double err = fabs(out - ref);
    double ratio;
    r->checked++;
    if (!(err <= bound)) {   /* NaN (an unwritten, poisoned element) lands here too */
        if (r->bad++ == 0)
            r->first_bad = index;
        ratio = INFINITY;
        if (bound > 0 && err == err)
            ratio = err / bound;
    } else {
        ratio = bound > 0 ? err / bound : 0.0;
    }
    if (ratio > r->worst_ratio || r->checked == 1) {
        r->worst_ratio = ratio;
        r->max_error = err;
        r->tolerance = bound;
    }
}

void vkb_check_words(vkb_check *r, const uint32_t *out, const uint32_t *ref, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        r->checked++;
        if (out[i] != ref[i]) {
            if (r->bad++ == 0)
                r->first_bad = i;
            r->worst_ratio = INFINITY;
            r->max_error = INFINITY;
        }
    }
}

void vkb_check_finish(vkb_check *r)
{
    r->pass = r->checked > 0 && r->bad == 0;
}

void vkb_check_freivalds(vkb_check *r, int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                         const float *c, int rounds, uint64_t seed, double u)
{
    double *x = vkb_alloc((size_t)n * sizeof *x);
    double *bx = vkb_alloc((size_t)k * sizeof *bx);
    double *babs = vkb_alloc((size_t)k * sizeof *babs);
    double g = vkb_gamma((double)k, u);
    vkb_rng rng;
    vkb_rng_seed(&rng, seed);

    /* |B| 1: the row sums of |B|, shared by every round. */
    for (int64_t p = 0; p < k; p++) {
        double s = 0;
        for (int64_t j = 0; j < n; j++)
            s += fabs((double)b[p * n + j]);
        babs[p] = s;
    }
    for (int round = 0; round < rounds; round++) {
        for (int64_t j = 0; j < n; j++)
            x[j] = (vkb_rng_u64(&rng) >> 63) ? 1.0 : -1.0;
        for (int64_t p = 0; p < k; p++) {
            double s = 0;
            for (int64_t j = 0; j < n; j++)
                s += (double)b[p * n + j] * x[j];
            bx[p] = s;
        }
        for (int64_t i = 0; i < m; i++) {
            double abx = 0, aabs = 0, cx = 0;
            for (int64_t p = 0; p < k; p++) {
                abx += (double)a[i * k + p] * bx[p];
                aabs += fabs((double)a[i * k + p]) * babs[p];
            }
            for (int64_t j = 0; j < n; j++)
                cx += (double)c[i * n + j] * x[j];
            /* each C_ij is off by at most g (|A||B|)_ij; with |x_j| = 1 row i of C x is off by at most
             * g (|A| |B| 1)_i, plus the double rounding of these sums (tiny, covered by the 2x). */
            vkb_check_value(r, (uint64_t)i, cx, abx, 2.0 * g * aabs + 1e-300);
        }
    }
    free(x);
    free(bx);
    free(babs);
}
