/* peak_chain.c - the peak family's chains on the host (see peak_chain.h). */
#include "peak_chain.h"

#include <math.h>
#include <string.h>

#include "check.h"
#include "half.h"

int vkb_peak_words(int type)
{
    return type == PEAK_T_F32X4 ? 4 : type == PEAK_T_F64 ? 2 : 1;
}

static uint64_t next(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *s, double lo, double hi)
{
    return lo + (hi - lo) * (double)(next(s) >> 11) * 0x1p-53;
}

uint16_t vkb_peak_half_of(double v)
{
    uint16_t sign = signbit(v) ? 0x8000u : 0;
    double q;
    int e;
    v = fabs(v);
    if (isnan(v))
        return 0x7e00u;
    if (v < 0x1p-14) /* subnormal: multiples of 2^-24 (q = 1024 is the smallest normal's encoding) */
        return (uint16_t)(sign | (uint16_t)nearbyint(v * 0x1p24));
    frexp(v, &e); /* v = m 2^e, m in [0.5, 1): 11 significant bits are v 2^(11 - e) */
    q = nearbyint(ldexp(v, 11 - e));
    if (q == 2048) {
        q = 1024;
        e++;
    }
    if (e - 1 > 15)
        return (uint16_t)(sign | 0x7c00u);
    return (uint16_t)(sign | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)(q - 1024));
}

static float f32_of(uint32_t w)
{
    float f;
    memcpy(&f, &w, 4);
    return f;
}

static uint32_t word_of(float f)
{
    uint32_t w;
    memcpy(&w, &f, 4);
    return w;
}

/* one float input word in [lo, hi) as TYPE stores it */
static void float_input(int type, uint64_t *s, double lo, double hi, uint32_t *out)
{
    switch (type) {
    case PEAK_T_F64: {
        double d = uniform(s, lo, hi);
        memcpy(out, &d, 8);
        break;
    }
    case PEAK_T_F16: out[0] = vkb_peak_half_of(uniform(s, lo, hi)); break;
    case PEAK_T_F16X2:
    case PEAK_T_BF16X2:
        out[0] = vkb_peak_half_of(uniform(s, lo, hi)) | (uint32_t)vkb_peak_half_of(uniform(s, lo, hi)) << 16;
        break;
    default:
        for (int i = 0; i < vkb_peak_words(type); i++)
            out[i] = word_of((float)uniform(s, lo, hi));
    }
}

void vkb_peak_inputs(int type, uint64_t *s, uint32_t *x0, uint32_t *a, uint32_t *b)
{
    switch (type) {
    case PEAK_T_I32:
    case PEAK_T_I16:
        x0[0] = (uint32_t)next(s);
        a[0] = (uint32_t)next(s) | 1u;
        b[0] = (uint32_t)next(s) | 1u;
        if (type == PEAK_T_I16) {
            x0[0] &= 0xffffu;
            a[0] &= 0xffffu;
            b[0] &= 0xffffu;
        }
        break;
    case PEAK_T_DOT:
        x0[0] = (uint32_t)next(s) & 0xfffffu;
        a[0] = 0;
        for (int i = 0; i < 4; i++)
            a[0] |= (uint32_t)(1 + next(s) % 15) << (8 * i);
        b[0] = 0;
        break;
    default:
        float_input(type, s, -1.5, 1.5, x0);
        float_input(type, s, 0, 0, a);
        float_input(type, s, -1.99, -1.9, b);
    }
}

static uint16_t half_step(uint16_t x, uint16_t b, int fused)
{
    double h = vkb_half_to_float(x), c = vkb_half_to_float(b);
    /* h h (22 bits) + c is exact in a double: one rounding to fp16 is the fused result */
    return fused ? vkb_peak_half_of(h * h + c) : vkb_peak_half_of(vkb_half_to_float(vkb_peak_half_of(h * h)) + c);
}

static float f32_step(float x, float b, int fused)
{
    volatile float p; /* the product rounded to fp32 on its own */
    if (fused)
        return fmaf(x, x, b);
    p = x * x;
    return p + b;
}

static double f64_step(double x, double b, int fused)
{
    volatile double p;
    if (fused)
        return fma(x, x, b);
    p = x * x;
    return p + b;
}

/* x + the dot product, modulo 2^32 */
static uint32_t udot_step(uint32_t x, uint32_t a)
{
    uint32_t sum = x;
    for (int i = 0; i < 4; i++)
        sum += ((x >> (8 * i)) & 0xffu) * ((a >> (8 * i)) & 0xffu);
    return sum;
}

void vkb_peak_chain(int type, int fused, const uint32_t *x0, const uint32_t *a, const uint32_t *b, uint64_t steps,
                    uint32_t *out)
{
    switch (type) {
    case PEAK_T_F32:
    case PEAK_T_F32X4:
        for (int i = 0; i < vkb_peak_words(type); i++) {
            float x = f32_of(x0[i]), c = f32_of(b[i]);
            for (uint64_t t = 0; t < steps; t++)
                x = f32_step(x, c, fused);
            out[i] = word_of(x);
        }
        break;
    case PEAK_T_F64: {
        double x, c;
        memcpy(&x, x0, 8);
        memcpy(&c, b, 8);
        for (uint64_t t = 0; t < steps; t++)
            x = f64_step(x, c, fused);
        memcpy(out, &x, 8);
        break;
    }
    case PEAK_T_F16:
    case PEAK_T_F16X2: {
        uint16_t lo = (uint16_t)x0[0], hi = (uint16_t)(x0[0] >> 16);
        for (uint64_t t = 0; t < steps; t++) {
            lo = half_step(lo, (uint16_t)b[0], fused);
            if (type == PEAK_T_F16X2)
                hi = half_step(hi, (uint16_t)(b[0] >> 16), fused);
        }
        out[0] = type == PEAK_T_F16X2 ? lo | (uint32_t)hi << 16 : lo;
        break;
    }
    case PEAK_T_I32:
    case PEAK_T_I16: {
        uint32_t x = x0[0];
        for (uint64_t t = 0; t < steps; t++)
            x = x * a[0] + b[0];
        out[0] = type == PEAK_T_I16 ? x & 0xffffu : x;
        break;
    }
    case PEAK_T_DOT: {
        uint32_t x = x0[0];
        for (uint64_t t = 0; t < steps; t++)
            x = udot_step(x, a[0]);
        out[0] = x;
        break;
    }
    default: memset(out, 0, (size_t)vkb_peak_words(type) * 4);
    }
}
