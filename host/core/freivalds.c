/* freivalds.c - Freivalds' check of a product C = A B with random +-1 vectors, in double. */
#include "freivalds.h"

#include <math.h>
#include <stdlib.h>

#include "util.h"

void vkb_check_freivalds(vkb_check *r, int64_t m, int64_t n, int64_t k, const float *a, const float *b, const float *c,
                         int rounds, uint64_t seed, double u)
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
