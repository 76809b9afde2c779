/* peak_coopmat.h - the peak family's cooperative-matrix rows: for each combination of types a row names, the
 * device's fragment, inputs that keep every step exact and let every element reach the result, the expected
 * accumulators. */
#ifndef VKB_PEAK_COOPMAT_H
#define VKB_PEAK_COOPMAT_H

#include <stdint.h>

#include "caps.h"
#include "peak/peak.h"

/* Row params of the cooperative-matrix rows (host/families/peak/rows.h), after peak_chain.h's PEAK_T_*. */
enum {
    PEAK_CM_F16_F32 = 32,
    PEAK_CM_F16_F16,
    PEAK_CM_S8_S32,
    PEAK_CM_U8_U32,
    PEAK_CM_BF16_F32,
    PEAK_CM_E4M3_F32,
    PEAK_CM_E5M2_F32,
    PEAK_CM_END
};

static inline int vkb_peak_is_cm(int param)
{
    return param >= PEAK_CM_F16_F32 && param < PEAK_CM_END;
}

/* The fragment of COMBO the device lists at subgroup scope (A = B types, C = result, not saturating) into
 * FRAG (M N K): 16 x 16 x 16 where listed (the CUDA twins' WMMA shape, so both APIs compute the same), else the
 * largest; 0 when none. */
int vkb_peak_cm_fragment(const vkb_caps *caps, int combo, uint32_t frag[3]);
/* Bytes of one A (= B) element and of one accumulator element of COMBO. */
int vkb_peak_cm_a_bytes(int combo);
int vkb_peak_cm_c_bytes(int combo);
/* "fp16 x fp16 + fp32" */
const char *vkb_peak_cm_name(int combo);

/* Input pools of COMBO for fragment FRAG (M N K) from SEED: the operands (a_bytes each; A's below
 * PEAK_CM_B_OFFSET, B's above, slot s's A at s M K and its B at s K N, row-major) and the starting accumulators
 * (c_bytes each) of PEAK_CM_MAX_SLOTS slots, FRAG up to PEAK_CM_MAX_MN x PEAK_CM_MAX_MN x PEAK_CM_MAX_K
 * (host/families/peak/peak.h). Floating types (K a multiple of 8): every element of every slot's A and B is +1
 * or -1, in 8-element runs along K that cancel but for one negated element in each row of A, so every product
 * (A B)_ij is +-2 and depends on every element of A's row i and B's column j (a wrong value read for any one
 * of them moves it); accumulators integers in [-8, 8]; every partial sum is an integer within 8 + 2 trips + K, exact
 * up to 2048 (fp16) or 2^24 (vkb_peak_cm_max_trips). Integers (any FRAG): A, B in [-8, 7] (s8) or [0, 15] (u8),
 * accumulators any 32 bits, exact modulo 2^32. Freed by the caller. */
void vkb_peak_cm_pools(int combo, const uint32_t frag[3], uint64_t seed, uint8_t **ab, uint8_t **start);
/* Elements of the operand pool and of the accumulator pool. */
#define PEAK_CM_AB_ELEMS (2ull * PEAK_CM_B_OFFSET)
#define PEAK_CM_START_ELEMS ((uint64_t)PEAK_CM_MAX_SLOTS * PEAK_CM_CHAINS * PEAK_CM_MAX_MN * PEAK_CM_MAX_MN)
/* Trips that keep COMBO's accumulators exact at fragment depth K (UINT32_MAX: any). */
uint32_t vkb_peak_cm_max_trips(int combo, uint32_t k);
/* The expected accumulator element (i, j) of chain CHAIN of slot SLOT after TRIPS steps, as the stored bits. */
uint32_t vkb_peak_cm_expected(int combo, const uint32_t frag[3], const uint8_t *ab, const uint8_t *start, uint32_t slot,
                              uint32_t chain, uint32_t i, uint32_t j, uint64_t trips);

#endif
