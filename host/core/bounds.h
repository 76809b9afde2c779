/* bounds.h - error bounds derived from the arithmetic (Higham's gamma_n): sums, dot products, and the
 * accumulations of tensor cores (fp32 truncating, fp16). */
#ifndef VKB_BOUNDS_H
#define VKB_BOUNDS_H

#include <stdint.h>

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

/* How a product's elements accumulate (MODE of the product checks), and the unit of each way. */
#define VKB_TENSOR_K_STEP 16.0 /* products per truncation of a tensor-core instruction (HMMA.16816) */
enum {
    VKB_ACC_ROUND = 0,    /* round to nearest after every product (fp32 FMA) */
    VKB_ACC_TRUNCATE = 1, /* tensor cores, fp32 accumulators: also truncate once per VKB_TENSOR_K_STEP */
    VKB_ACC_F16 = 2,      /* tensor cores, fp16 accumulators: exact products, one rounding per 16 (U: VKB_ACC16_U) */
    VKB_ACC_F16_EACH = 3  /* a library's fp16 accumulation, grouping unknown: a rounding after every product */
};
/* The fp16 accumulator's rounding (truncation's unit: it covers round to nearest's 2^-11 too) and the
 * sum of one instruction's 16 exact products inside it (at least fp32's precision, truncated). */
#define VKB_ACC16_U 0x1.0p-10
#define VKB_ACC16_U_IN 0x1.0p-22
/* The rigorous bound on an fp16-accumulated element, one group of 16 products at a time: with S the exact
 * partial sum after the group and *G the group's sum of |a b| (reset here), *E = *E (1 + u) + u |S| +
 * U_IN (*G + |S|). */
void vkb_bound_acc16_step(double s, double *g, double *e);
/* Whether product P of K ends a group of PER that an fp16 accumulator rounds after (PER 16: one HMMA). */
static inline int vkb_acc16_group_ends(int64_t p, int64_t k, int64_t per)
{
    return (p + 1) % per == 0 || p == k - 1;
}

#endif
