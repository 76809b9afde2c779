/* check.h - validating outputs against double-precision references with tolerances derived from
 * the arithmetic (Higham's gamma_n), exact compares, and Freivalds' check for large products. */
#ifndef VKB_CHECK_H
#define VKB_CHECK_H

#include <stdint.h>

typedef struct vkb_check {
    int pass;
    uint64_t checked;      /* elements compared */
    uint64_t bad;          /* elements beyond their bound (NaN counts) */
    uint64_t first_bad;    /* index of the first bad element */
    double worst_ratio;    /* max over elements of |out - ref| / bound (exact: 0 or inf) */
    double max_error;      /* |out - ref| at the worst element */
    double tolerance;      /* the bound at the worst element */
    char method[96];       /* how it was checked: "exact", "gamma(K)*sum|a||b|", "Freivalds x8 + 256 entries" */
} vkb_check;

/* Unit roundoff of fp32 (2^-24) and fp16 (2^-11). */
#define VKB_U_F32 0x1.0p-24
#define VKB_U_F16 0x1.0p-11

/* gamma_n = n u / (1 - n u): bound on the relative error of n roundings (Higham, ASNA 3.1). */
double vkb_gamma(double n, double u);
/* Bound for a sum of N terms added in a balanced tree: gamma(ceil(log2 N)) * sum|x|; serial: gamma(N-1). */
double vkb_bound_tree_sum(uint64_t n, double sum_abs, double u);
double vkb_bound_serial_sum(uint64_t n, double sum_abs, double u);
/* Bound for a dot product of length K in any order: gamma(K) * sum|a_i b_i|. */
double vkb_bound_dot(uint64_t k, double sum_abs_products, double u);

void vkb_check_init(vkb_check *r, const char *method);
/* Account one element: OUT against REF with absolute BOUND (0 demands equality; NaN always fails). */
void vkb_check_value(vkb_check *r, uint64_t index, double out, double ref, double bound);
/* Compare N 32-bit words exactly (copies, transposes, integer sums). */
void vkb_check_words(vkb_check *r, const uint32_t *out, const uint32_t *ref, uint64_t n);
/* Set r->pass from the counts; call once after the last element. */
void vkb_check_finish(vkb_check *r);

/* Freivalds' check of C = A B (row-major fp32, M x K times K x N) in double: ROUNDS random +-1 vectors x,
 * each row of C x compared with A (B x) against gamma_K(U) (|A| (|B| 1)). Accumulates into R. */
void vkb_check_freivalds(vkb_check *r, int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                         const float *c, int rounds, uint64_t seed, double u);

#endif
