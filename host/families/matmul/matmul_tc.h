/* matmul_tc.h - the matmul family's tensor-core rows (VK_KHR_cooperative_matrix, VK_NV_cooperative_matrix2,
 * the instruction's register-only peak): their plans from the device's reported sizes, and the checks of the
 * fp16-accumulate rows. matmul.c calls these for the kernels named here and keeps the rest. */
#ifndef VKB_MATMUL_TC_H
#define VKB_MATMUL_TC_H

#include <stddef.h>
#include <stdint.h>

#include "caps.h"
#include "product_check.h"

/* Products of at most this many multiply-adds are checked element by element; larger ones through
 * vkb_product_check on a reference made once per case (check.h) with this seed for its random vectors. */
#define VKB_MM_FULL_CHECK_MACS (1ull << 27)
#define VKB_MM_PRODUCT_SEED 0x6d61746d756cull

/* Row param bits of the tensor-core rows (matmul.c's own bits stay below 1 << 4). */
enum {
    MM_TC_ACC16 = 1 << 4, /* fp16 accumulators and an fp16 C: labelled so, checked by vkb_mm_tc_check_acc16 */
    MM_TC_PEAK = 1 << 5,  /* the register-only instruction peak: C is not a product, not checked */
    MM_TC_BF16 = 1 << 6,  /* bf16 A and B (the seeded inputs rounded to bf16), fp32 accumulators and C */
    MM_TC_S8 = 1 << 7     /* int8 A and B (the seeded inputs over the whole int8 range), int32 C, checked exactly */
};

/* Plan KERNEL for an M x N x K product on CAPS: fills the device's fragment sizes into SPEC where the row
 * left them 0 (matmul_coopmat_khr: the subgroup tile WM x WN too, from the fragment: 64x32 of 16x16 fragments
 * as tuned on the H100, at most 4 x 4 fragments of other shapes), checks the constants, and sets LOCAL, the C tile one workgroup covers (TILE_M x TILE_N) and
 * the shared memory it declares (SHARED, 0 where the driver allocates it). A VKB_PLAN_* outcome, WHY unless OK:
 * inconsistent constants are a bad request, what depends on the device's sizes a skip. */
int vkb_mm_tc_plan(const char *kernel, uint64_t m, uint64_t n, uint64_t k, const vkb_caps *caps, uint32_t *local,
                   uint32_t *spec, uint32_t *tile_m, uint32_t *tile_n, uint32_t *shared, char *why, size_t len);

/* Check the fp16 C (bits C16) of an fp16-accumulate row against the fp16 inputs A16, B16 (M x K, K x N):
 * every element against a bound derived from its own partial sums (matmul_tc.c says how), with a rounding
 * of the accumulator every GROUP products (16: the tensor-core instruction; 1: a library whose grouping is
 * unknown, cuBLAS's fp16-compute GEMM, which at small shapes rounds more often than every 16); large
 * products through vkb_product_check with the fp16 accumulator's model (VKB_ACC_F16, or VKB_ACC_F16_EACH for
 * GROUP 1), on REF (made from the same inputs as floats; NULL: made here). */
void vkb_mm_tc_check_acc16(int64_t m, int64_t n, int64_t k, int group, const uint16_t *a16, const uint16_t *b16,
                           const uint16_t *c16, const vkb_product_ref *ref, vkb_check *res);

/* Rows of C per chunk of an element-wise check (vkb_check_chunks): about VKB_CHECK_CHUNK multiply-adds, at
 * least one row; from the sizes alone, so the chunks never depend on the threads. */
int64_t vkb_mm_rows_per_chunk(int64_t n, int64_t k);

/* The peak rows' "check": nothing to compare (recorded as such, passes). */
void vkb_mm_tc_check_peak(vkb_check *res);

#endif
