/* freivalds.h - Freivalds' check of a product C = A B against the rigorous bound, in double. */
#ifndef VKB_FREIVALDS_H
#define VKB_FREIVALDS_H

#include <stdint.h>

#include "check.h"

/* Freivalds' check of C = A B (row-major fp32, M x K times K x N) in double: ROUNDS random +-1 vectors x,
 * each row of C x compared with A (B x) against gamma_K(U) (|A| (|B| 1)). Accumulates into R. */
void vkb_check_freivalds(vkb_check *r, int64_t m, int64_t n, int64_t k, const float *a, const float *b, const float *c,
                         int rounds, uint64_t seed, double u);

#endif
