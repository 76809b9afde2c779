/* matmul_s8_check.h - the exact check of the int8 rows' int32 C = A B (s8 x s8 -> s32): every element up to
 * VKB_MM_FULL_CHECK_MACS multiply-adds; above it integer Freivalds and whole lines against a reference built once
 * per case from A and B and shared by every int8 row checked on it. */
#ifndef VKB_MATMUL_S8_CHECK_H
#define VKB_MATMUL_S8_CHECK_H

#include <stdint.h>

#include "check.h"

/* What the large check needs from A8 (M x K) and B8 (K x N) alone, for the random vectors of SEED: two vectors x
 * by rows and two by columns, their references A (B x) and (x^T A) B, and 4 rows and 4 columns of A B exactly (the
 * first, the last and two random ones): 64 (M + N) bytes. Built on vkb_threads() threads in fixed tasks (integers:
 * the same values on any count), in 8 (M K + K N) multiply-adds; it keeps A8 and B8, which must outlive it. */
typedef struct vkb_mm_s8_ref vkb_mm_s8_ref;
vkb_mm_s8_ref *vkb_mm_s8_ref_create(int64_t m, int64_t n, int64_t k, const int8_t *a8, const int8_t *b8, uint64_t seed);
void vkb_mm_s8_ref_destroy(vkb_mm_s8_ref *ref);

/* The int32 C (M x N) of REF's inputs against REF, exactly: C x against A (B x) for every row and x^T C against
 * (x^T A) B for every column (two vectors each way), then REF's 8 exact lines; one pass over C on the host's cores,
 * compared in a fixed order (the same counts and first wrong element on any thread count). */
void vkb_mm_s8_check(vkb_check *res, const vkb_mm_s8_ref *ref, const int32_t *c32);

/* The check of an int8 row's C32 against A8, B8: every element against the int64 dot product up to
 * VKB_MM_FULL_CHECK_MACS multiply-adds, else vkb_mm_s8_check on REF (built from the same inputs and SEED; NULL:
 * built here and freed). */
void vkb_mm_tc_check_s8(int64_t m, int64_t n, int64_t k, const int8_t *a8, const int8_t *b8, const int32_t *c32,
                        uint64_t seed, const vkb_mm_s8_ref *ref, vkb_check *res);

/* Multiply-adds (int64) of vkb_mm_s8_ref_create, 8 (M K + K N), and of one vkb_mm_s8_check, 4 M N (the run's
 * estimate). */
double vkb_mm_s8_ref_macs(int64_t m, int64_t n, int64_t k);
double vkb_mm_s8_check_macs(int64_t m, int64_t n, int64_t k);

#endif
