/* peak_coopmat.c - the peak family's cooperative-matrix rows (see peak_coopmat.h). */
#include "peak_coopmat.h"

#include <string.h>

#include "check.h"
#include "half.h"
#include "util.h"

static const struct {
    uint32_t a, c; /* VkComponentTypeKHR */
    int a_bytes, c_bytes;
    uint32_t one; /* a floating operand type's encoding of 1 (its sign bit the top one); 0: integers */
    const char *name;
} combos[] = {
    [PEAK_CM_F16_F32 - PEAK_CM_F16_F32] = {VKB_CT_F16, VKB_CT_F32, 2, 4, 0x3c00, "fp16 x fp16 + fp32"},
    [PEAK_CM_F16_F16 - PEAK_CM_F16_F32] = {VKB_CT_F16, VKB_CT_F16, 2, 2, 0x3c00, "fp16 x fp16 + fp16"},
    [PEAK_CM_S8_S32 - PEAK_CM_F16_F32] = {VKB_CT_S8, VKB_CT_S32, 1, 4, 0, "s8 x s8 + s32"},
    [PEAK_CM_U8_U32 - PEAK_CM_F16_F32] = {VKB_CT_U8, VKB_CT_U32, 1, 4, 0, "u8 x u8 + u32"},
    [PEAK_CM_BF16_F32 - PEAK_CM_F16_F32] = {VKB_CT_BF16, VKB_CT_F32, 2, 4, 0x3f80, "bf16 x bf16 + fp32"},
    [PEAK_CM_E4M3_F32 - PEAK_CM_F16_F32] = {VKB_CT_E4M3, VKB_CT_F32, 1, 4, 0x38, "fp8 e4m3 x e4m3 + fp32"},
    [PEAK_CM_E5M2_F32 - PEAK_CM_F16_F32] = {VKB_CT_E5M2, VKB_CT_F32, 1, 4, 0x3c, "fp8 e5m2 x e5m2 + fp32"},
};
#define COMBO(c) combos[(c)-PEAK_CM_F16_F32]

int vkb_peak_cm_a_bytes(int combo)
{
    return COMBO(combo).a_bytes;
}
int vkb_peak_cm_c_bytes(int combo)
{
    return COMBO(combo).c_bytes;
}
const char *vkb_peak_cm_name(int combo)
{
    return COMBO(combo).name;
}

int vkb_peak_cm_fragment(const vkb_caps *caps, int combo, uint32_t frag[3])
{
    uint64_t best = 0;
    for (uint32_t i = 0; i < caps->ncoopmat_types; i++) {
        const vkb_coopmat_type *t = &caps->coopmat_types[i];
        uint64_t vol = (uint64_t)t->m * t->n * t->k;
        if (t->scope != VKB_SCOPE_SUBGROUP || t->a != COMBO(combo).a || t->b != COMBO(combo).a ||
            t->c != COMBO(combo).c || t->result != COMBO(combo).c || t->saturating)
            continue;
        if (t->m == 16 && t->n == 16 && t->k == 16)
            vol = UINT64_MAX; /* the twins' shape first */
        if (vol > best) {
            best = vol;
            frag[0] = t->m, frag[1] = t->n, frag[2] = t->k;
        }
    }
    return best != 0;
}

static uint64_t next(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int is_float(int combo)
{
    return COMBO(combo).one != 0;
}

/* +1 or -1 in COMBO's floating operand type */
static uint32_t unit_operand(int combo, int negative)
{
    return COMBO(combo).one | (negative ? 1u << (8 * COMBO(combo).a_bytes - 1) : 0u);
}

/* The value of a floating operand of the pools (+1 or -1 in a fragment, 0 past it: vkb_peak_cm_pools) */
static double operand_value(int combo, uint32_t bits)
{
    uint32_t sign = 1u << (8 * COMBO(combo).a_bytes - 1);
    return bits == 0 ? 0.0 : bits & sign ? -1.0 : 1.0;
}

/* element E of a pool of N elements of BYTES each */
static void put(uint8_t *pool, uint64_t e, int bytes, uint32_t v)
{
    memcpy(pool + e * (uint64_t)bytes, &v, (size_t)bytes);
}

static uint32_t get(const uint8_t *pool, uint64_t e, int bytes)
{
    uint32_t v = 0;
    memcpy(&v, pool + e * (uint64_t)bytes, (size_t)bytes);
    return v;
}

/* The Sylvester Hadamard matrix of order 8: entry (r, u) is +-1, distinct rows orthogonal */
static int hadamard8(uint32_t r, uint32_t u)
{
    uint32_t x = r & u & 7u;
    return (x ^ x >> 1 ^ x >> 2) & 1u ? -1 : 1;
}

/* A float pool for fragment FRAG (M N K, K a multiple of 8): in each slot, every 8 consecutive elements of a row
 * of A (along K) are a signed row of the order-8 Hadamard matrix from rows 0-3, every 8 consecutive elements of
 * a column of B (along K) a signed row from rows 4-7, so each product of 8 is 0; then one element of every row
 * of A, at a random column p, negated, which makes (A B)_ij = -2 a_ip b_pj = +-2 (a_ip its value before). Every
 * element reaches every product of its row (A) or column (B); a wrong stride breaks the cancellation. */
static void float_operands(int combo, const uint32_t frag[3], uint64_t *s, uint8_t *ab)
{
    uint32_t m = frag[0], n = frag[1], k = frag[2];
    int bytes = COMBO(combo).a_bytes;
    for (uint32_t slot = 0; slot < PEAK_CM_MAX_SLOTS; slot++) {
        uint64_t a0 = (uint64_t)slot * m * k, b0 = PEAK_CM_B_OFFSET + (uint64_t)slot * k * n;
        for (uint32_t i = 0; i < m; i++) {
            uint32_t flip = (uint32_t)(next(s) % k);
            for (uint32_t q = 0; q < k / 8; q++) {
                uint64_t r = next(s);
                for (uint32_t u = 0; u < 8; u++) {
                    int v = hadamard8((uint32_t)(r % 4), u) * (r & 4 ? -1 : 1) * (8 * q + u == flip ? -1 : 1);
                    put(ab, a0 + (uint64_t)i * k + 8 * q + u, bytes, unit_operand(combo, v < 0));
                }
            }
        }
        for (uint32_t j = 0; j < n; j++)
            for (uint32_t q = 0; q < k / 8; q++) {
                uint64_t r = next(s);
                for (uint32_t u = 0; u < 8; u++) {
                    int v = hadamard8(4 + (uint32_t)(r % 4), u) * (r & 4 ? -1 : 1);
                    put(ab, b0 + (uint64_t)(8 * q + u) * n + j, bytes, unit_operand(combo, v < 0));
                }
            }
    }
}

void vkb_peak_cm_pools(int combo, const uint32_t frag[3], uint64_t seed, uint8_t **ab, uint8_t **start)
{
    int ab_bytes = COMBO(combo).a_bytes, c_bytes = COMBO(combo).c_bytes;
    uint64_t s = seed * 0x2545f4914f6cdd1dull + (uint64_t)combo, n = PEAK_CM_AB_ELEMS;
    *ab = vkb_calloc((size_t)n, (size_t)ab_bytes);
    *start = vkb_alloc((size_t)(PEAK_CM_START_ELEMS * (uint64_t)c_bytes));
    if (is_float(combo))
        float_operands(combo, frag, &s, *ab);
    else
        for (uint64_t e = 0; e < n; e++) {
            uint32_t v;
            if (COMBO(combo).a == VKB_CT_S8)
                v = (uint32_t)(int32_t)((int)(next(&s) % 16) - 8) & 0xffu;
            else
                v = (uint32_t)(next(&s) % 16);
            put(*ab, e, ab_bytes, v);
        }
    for (uint64_t e = 0; e < PEAK_CM_START_ELEMS; e++) {
        uint32_t v = (uint32_t)next(&s);
        if (is_float(combo)) {
            float f = (float)((int)(v % 17) - 8);
            if (c_bytes == 2)
                v = vkb_half_from_float(f);
            else
                memcpy(&v, &f, 4);
        }
        put(*start, e, c_bytes, v);
    }
}

uint32_t vkb_peak_cm_max_trips(int combo, uint32_t k)
{
    /* trip t adds A B (+-2) to an accumulator of |acc| <= 8 + 2 (t - 1), its partial sums within that plus the K
     * products of 1: all integers, exact while 8 + 2 (t - 1) + K is at most 2048 (fp16) or 2^24 (fp32) */
    uint32_t limit = COMBO(combo).c_bytes == 2 ? 2048u : 1u << 24;
    if (!is_float(combo))
        return UINT32_MAX;
    return k + 8 > limit ? 0 : (limit - 8 - k) / 2 + 1;
}

/* The operand pool as the shader reads it: slot S's A at S M K, its B at PEAK_CM_B_OFFSET + S K N */
uint32_t vkb_peak_cm_expected(int combo, const uint32_t frag[3], const uint8_t *ab, const uint8_t *start, uint32_t slot,
                              uint32_t chain, uint32_t i, uint32_t j, uint64_t trips)
{
    uint32_t m = frag[0], n = frag[1], k = frag[2];
    int c_bytes = COMBO(combo).c_bytes;
    uint64_t a0 = (uint64_t)slot * m * k, b0 = PEAK_CM_B_OFFSET + (uint64_t)slot * k * n;
    uint32_t c0 = get(start, ((uint64_t)slot * PEAK_CM_CHAINS + chain) * m * n + (uint64_t)i * n + j, c_bytes);
    if (is_float(combo)) {
        double sum = 0, c;
        float f;
        for (uint32_t p = 0; p < k; p++)
            sum += operand_value(combo, get(ab, a0 + (uint64_t)i * k + p, COMBO(combo).a_bytes)) *
                   operand_value(combo, get(ab, b0 + (uint64_t)p * n + j, COMBO(combo).a_bytes));
        if (c_bytes == 2)
            c = vkb_half_to_float((uint16_t)c0);
        else
            memcpy(&f, &c0, 4), c = f;
        f = (float)(c + (double)trips * sum); /* an integer below 2^24 (2048 for fp16): exact */
        if (c_bytes == 2)
            return vkb_half_from_float(f);
        memcpy(&c0, &f, 4);
        return c0;
    }
    {
        uint32_t sum = 0; /* modulo 2^32, as the accumulator */
        for (uint32_t p = 0; p < k; p++) {
            uint32_t a = get(ab, a0 + (uint64_t)i * k + p, 1), b = get(ab, b0 + (uint64_t)p * n + j, 1);
            if (COMBO(combo).a == VKB_CT_S8)
                sum += (uint32_t)((int32_t)(int8_t)a * (int32_t)(int8_t)b);
            else
                sum += a * b;
        }
        return c0 + (uint32_t)trips * sum;
    }
}
