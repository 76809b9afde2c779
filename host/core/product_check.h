/* product_check.h - the check of a large product C = A B: Freivalds blocks against a statistical model,
 * exact lines against the rigorous bound. */
#ifndef VKB_PRODUCT_CHECK_H
#define VKB_PRODUCT_CHECK_H

#include <stdint.h>

#include "check.h"

/* The check of a large product C = A B (docs/verification.md): every element finite; Freivalds' check
 * on blocks of VKB_PRODUCT_BLOCK elements of every row and every column (ROUNDS random +-1 vectors each
 * way) against a statistical model of the accumulation's rounding (VKB_PRODUCT_SIGMAS standard
 * deviations); and exact reference rows and columns that cover every position class of 16- and 128-wide
 * tiles and the last (edge) row and column, against the rigorous bound. U: unit roundoff of the
 * accumulation; MODE: how it accumulates (VKB_ACC_*). Fails any single element off by 1% of rms(C) at
 * 4096^3 and 8192^3 (fp32, and fp16 inputs with truncating fp32 accumulation). */
#define VKB_PRODUCT_SIGMAS 8.0
#define VKB_PRODUCT_ROUNDS 4
#define VKB_PRODUCT_BLOCK 256 /* elements per Freivalds sum: fewer make a tighter tolerance, cost M N K / it */

/* What the product check needs from A and B alone (random vectors, references, model sums, exact lines):
 * built once per case (on vkb_threads() threads, parallel.h), shared by every variant checked on it. It
 * keeps A and B (M x K, K x N, row-major), which must outlive it. */
typedef struct vkb_product_ref vkb_product_ref;
vkb_product_ref *vkb_product_ref_create(int64_t m, int64_t n, int64_t k, const float *a, const float *b, uint64_t seed);
void vkb_product_ref_destroy(vkb_product_ref *ref);
/* Check C against REF (accumulates into R). */
void vkb_product_check(vkb_check *r, const vkb_product_ref *ref, const float *c, double u, int mode);
/* Both in one call (the tests). */
void vkb_check_product(vkb_check *r, int64_t m, int64_t n, int64_t k, const float *a, const float *b, const float *c,
                       double u, int mode, uint64_t seed);
/* Multiply-adds (double) of vkb_product_ref_create and of one vkb_product_check at M x N x K (the run's estimate),
 * with R rounds, B = VKB_PRODUCT_BLOCK and at most 17 exact lines each way: the reference's blocks
 * (R + 2) (M K (ceil(N / B) + 1) + K N (ceil(M / B) + 1)) + 2 K N and its lines 2 x 17 (K N + M K); a check's
 * pass over C (2 R + 4) M N. */
double vkb_product_ref_macs(int64_t m, int64_t n, int64_t k);
double vkb_product_check_macs(int64_t m, int64_t n, int64_t k);
/* The model tolerance of one Freivalds sum of vkb_check_product over N elements of K products (for tests
 * and docs): SIGMAS sqrt(sum_j Var e_ij), SUM_T = sum_j sum_p (a_ip b_pj)^2, SUM_C2 = sum_j C_ij^2. */
double vkb_product_row_tolerance(int64_t n, int64_t k, double sum_t, double sum_c2, double u, int mode);

#endif
