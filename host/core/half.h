/* half.h - fp16 and bf16 conversions, bit-exact. */
#ifndef VKB_HALF_H
#define VKB_HALF_H

#include <stdint.h>

/* fp32 -> fp16 bits, round to nearest even (NaN stays NaN, overflow to infinity); and back, exactly. */
uint16_t vkb_half_from_float(float f);
float vkb_half_to_float(uint16_t h);
/* COUNT fp16 values (bits H) as floats, exactly, in a new array (rounded up to 16 bytes). */
float *vkb_floats_of_halves(const uint16_t *h, int64_t count);
/* fp32 -> bf16 bits (fp32's top 16: 8 significant bits), round to nearest even (NaN stays NaN, past the
 * largest bf16 infinity); and back, exactly. */
uint16_t vkb_bf16_from_float(float f);
float vkb_bf16_to_float(uint16_t b);
/* COUNT bf16 values as floats, exactly, in a new array (rounded up to 16 bytes). */
float *vkb_floats_of_bf16s(const uint16_t *b, int64_t count);

#endif
