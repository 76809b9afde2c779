/* half.c - fp16 and bf16 conversions (round to nearest even), bit-exact; their arrays as floats on the host's cores. */
#include "half.h"

#include <math.h>
#include <string.h>

#include "check.h"
#include "parallel.h"
#include "util.h"

uint16_t vkb_half_from_float(float f)
{
    uint32_t x, absx, sign, h, rem;
    memcpy(&x, &f, 4);
    sign = (x >> 16) & 0x8000u;
    absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u)
        return (uint16_t)(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0));
    if (absx >= 0x477ff000u) /* 65520 and up round to infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (absx < 0x38800000u) { /* below 2^-14: a subnormal half, exactly round(|f| 2^24) */
        float af;
        memcpy(&af, &absx, 4);
        return (uint16_t)(sign | (uint32_t)lrintf(af * 16777216.0f));
    }
    h = ((((absx >> 23) - 127u + 15u)) << 10) | ((absx & 0x7fffffu) >> 13);
    rem = absx & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        h++; /* a carry into the exponent is still the right result */
    return (uint16_t)(sign | h);
}

float vkb_half_to_float(uint16_t h)
{
    uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu, bits;
    float v;
    if (e == 0) {
        v = (float)m * 0x1.0p-24f; /* zero and the subnormals, exactly */
    } else if (e == 31 && m) {
        v = NAN;
    } else { /* the bits themselves (exponent rebiased 15 -> 127), or infinity: ldexpf costs 10x more */
        bits = e == 31 ? 0x7f800000u : ((e + 112u) << 23) | (m << 13);
        memcpy(&v, &bits, 4);
    }
    return h & 0x8000u ? -v : v;
}

uint16_t vkb_bf16_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)(x >> 16 | 0x40u); /* NaN: quiet, whatever its payload's low bits were */
    /* bf16 is fp32's top half: add half an ulp of it (less one where the kept bit is even: ties to even); a carry
     * into the exponent is still right, and past the largest bf16 it makes infinity */
    return (uint16_t)((x + 0x7fffu + (x >> 16 & 1u)) >> 16);
}

float vkb_bf16_to_float(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

typedef struct halves_run {
    const uint16_t *h;
    float *f;
    int64_t count;
    int bf16;
} halves_run;

static void halves_chunk(void *ctx, int64_t t)
{
    const halves_run *run = ctx;
    int64_t end = (int64_t)vkb_task_end(t, VKB_CHECK_CHUNK, (uint64_t)run->count);
    for (int64_t i = t * VKB_CHECK_CHUNK; i < end; i++)
        run->f[i] = run->bf16 ? vkb_bf16_to_float(run->h[i]) : vkb_half_to_float(run->h[i]);
}

static float *floats_of(const uint16_t *h, int64_t count, int bf16)
{
    halves_run run = {h, vkb_alloc(((size_t)count * sizeof *run.f + 15) & ~(size_t)15), count, bf16};
    vkb_parallel_run(vkb_tasks_of((uint64_t)count, VKB_CHECK_CHUNK), halves_chunk, &run);
    return run.f;
}

float *vkb_floats_of_halves(const uint16_t *h, int64_t count)
{
    return floats_of(h, count, 0);
}
float *vkb_floats_of_bf16s(const uint16_t *b, int64_t count)
{
    return floats_of(b, count, 1);
}
