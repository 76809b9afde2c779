/* peak_chain.h - the peak family's chains on the host: the number types, their seeded inputs and every step
 * emulated with the device's rounding, so each invocation's final values are checked bit for bit. */
#ifndef VKB_PEAK_CHAIN_H
#define VKB_PEAK_CHAIN_H

#include <stdint.h>

/* The chain's number type (host/families/peak/rows.h's type column; peak_chain.comp's -D PEAK_*). */
enum {
    PEAK_T_F32,
    PEAK_T_F32X4,
    PEAK_T_F16,
    PEAK_T_F16X2,
    PEAK_T_F64,
    PEAK_T_I32,
    PEAK_T_I16,
    PEAK_T_DOT,
    PEAK_T_BF16X2,
    PEAK_T_COUNT
};

#define PEAK_MAX_WORDS 4 /* 32-bit words of one stored value at most (vec4) */

/* 32-bit words one value of TYPE occupies in the shader's buffers (a half or an int16 in the low bits of a
 * word, f16vec2 packed in one, double two, vec4 four). */
int vkb_peak_words(int type);

/* The inputs of one chain from the seeded stream STATE (advanced): start X0, constants A and B as stored. The
 * floating chains run x = fma(x, x, b) with b in [-1.99, -1.9] and x0 in [-1.5, 1.5]: a quadratic map that stays
 * within [-1.98, 1.98] (its largest value is b^2 + b) and is chaotic there, so it never settles and any change of
 * length changes the bits; a is unused. The integer chains x = x a + b with a and b odd (no fixed point modulo
 * 2^w: x (1 - a) = b has no solution with 1 - a even and b odd); the dot chain x += udot(bytes of x, bytes of a)
 * with every byte of a in [1, 15] (fixed only at x = 0), modulo 2^32. */
void vkb_peak_inputs(int type, uint64_t *state, uint32_t *x0, uint32_t *a, uint32_t *b);

/* Run one chain of TYPE STEPS steps from X0, A, B (stored words) into OUT. FUSED 1: each fma rounded once (fmaf,
 * fma; fp16 through its exact double value rounded to fp16 once); 0: the product rounded to the type, then the
 * sum: the two roundings Vulkan's precision rules allow an fma (OpFMul then OpFAdd, each correctly rounded).
 * Integer types ignore FUSED (exact, modulo 2^w). */
void vkb_peak_chain(int type, int fused, const uint32_t *x0, const uint32_t *a, const uint32_t *b, uint64_t steps,
                    uint32_t *out);

/* The fp16 nearest to V, ties to even (overflow: infinity): one correct rounding of an exact value. */
uint16_t vkb_peak_half_of(double v);

#endif
