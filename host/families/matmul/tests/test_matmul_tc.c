/* test_matmul_tc.c - the fp16-accumulation check of the tensor-core rows (host/families/matmul/matmul_tc.c) on
 * products accumulated in fp16 here, as the hardware does, rounded and truncated: they pass, and a planted
 * error or a lost group of 16 products fails. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matmul/matmul_tc.h"
#include "unit.h"
#include "util.h"

/* X rounded to fp16 (11 significant bits, subnormals from 2^-24): to nearest even, or toward zero. */
static double to_half(double x, int truncate)
{
    int e;
    double q;
    if (x == 0)
        return 0;
    frexp(x, &e);
    q = ldexp(1, e - 11 < -24 ? -24 : e - 11);
    return (truncate ? trunc(x / q) : nearbyint(x / q)) * q;
}

/* The fp16 bits of X, a value fp16 holds exactly (normal or subnormal, |X| < 65504). */
static uint16_t half_bits(double x)
{
    uint16_t sign = x < 0 ? 0x8000u : 0;
    int e;
    double f;
    x = fabs(x);
    if (x < 0x1.0p-14)
        return (uint16_t)(sign | (uint16_t)(x * 0x1.0p24));
    f = frexp(x, &e); /* x = f 2^e, f in [0.5, 1) */
    return (uint16_t)(sign | (uint16_t)((e + 14) << 10) | (uint16_t)((f * 2 - 1) * 1024));
}

static double value(uint16_t h)
{
    int e = h >> 10 & 31;
    double v = ldexp(e ? (h & 1023) | 1024 : h & 1023, e ? e - 25 : -24);
    return h & 0x8000u ? -v : v;
}

typedef struct {
    int64_t m, n, k;
    uint16_t *a, *b, *c;
} product;

/* Random fp16 inputs in [-1, 1] and C accumulated in fp16 PER products at a time (16: a tensor-core
 * instruction; 1: a rounding per product); DROP: the element whose second and third groups of 16 (a 32-deep
 * k-tile) are lost (-1: none). */
static product make_grouped(int64_t m, int64_t n, int64_t k, int per, int truncate, int64_t drop)
{
    product p = {
        m, n, k, vkb_alloc((size_t)(m * k) * 2), vkb_alloc((size_t)(k * n) * 2), vkb_alloc((size_t)(m * n) * 2)};
    vkb_rng rng;
    vkb_rng_seed(&rng, 42);
    for (int64_t i = 0; i < m * k; i++)
        p.a[i] = half_bits(to_half((double)(vkb_rng_u64(&rng) >> 11) * 0x1.0p-52 - 1, 0));
    for (int64_t i = 0; i < k * n; i++)
        p.b[i] = half_bits(to_half((double)(vkb_rng_u64(&rng) >> 11) * 0x1.0p-52 - 1, 0));
    double *av = vkb_alloc((size_t)(m * k) * sizeof *av), *bv = vkb_alloc((size_t)(k * n) * sizeof *bv);
    for (int64_t i = 0; i < m * k; i++)
        av[i] = value(p.a[i]);
    for (int64_t i = 0; i < k * n; i++)
        bv[i] = value(p.b[i]);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double acc = 0, group = 0;
            for (int64_t q = 0; q < k; q++) {
                group += av[i * k + q] * bv[q * n + j];
                if ((q + 1) % per == 0 || q == k - 1) {
                    if (!(i * n + j == drop && (q / 16 == 1 || q / 16 == 2)))
                        acc = to_half(acc + group, truncate);
                    group = 0;
                }
            }
            p.c[i * n + j] = half_bits(acc);
        }
    free(av);
    free(bv);
    return p;
}

static product make(int64_t m, int64_t n, int64_t k, int truncate, int64_t drop)
{
    return make_grouped(m, n, k, 16, truncate, drop);
}

static void destroy(product *p)
{
    free(p->a);
    free(p->b);
    free(p->c);
}

static int passes(const product *p)
{
    vkb_check r;
    vkb_mm_tc_check_acc16(p->m, p->n, p->k, 16, p->a, p->b, p->c, NULL, &r);
    return r.pass;
}

static void acc16_rounded(void)
{
    product p = make(24, 40, 600, 0, -1);
    ASSERT(passes(&p));
    destroy(&p);
}

static void acc16_truncated(void)
{
    product p = make(24, 40, 600, 1, -1);
    ASSERT(passes(&p));
    destroy(&p);
}

static void acc16_planted(void)
{
    product p = make(24, 40, 600, 0, -1);
    vkb_check r;
    p.c[5 * 40 + 7] ^= 0x0040u; /* a middle bit of one element's significand: ~1/16 of its value */
    vkb_mm_tc_check_acc16(p.m, p.n, p.k, 16, p.a, p.b, p.c, NULL, &r);
    ASSERT(!r.pass && r.bad == 1 && r.first_bad == 5 * 40 + 7);
    destroy(&p);
}

static void acc16_lost_group(void)
{
    product p = make(24, 40, 600, 0, 3 * 40 + 11); /* one element misses 32 of its 600 products */
    ASSERT(!passes(&p));
    destroy(&p);
}

/* Large products (K = 8192 as on the GPU) are checked on whole lines, the first row among them. */
static void acc16_lines(void)
{
    product p = make(160, 160, 8192, 1, -1);
    ASSERT(passes(&p));
    p.c[17] ^= 0x8000u; /* row 0: the sign */
    ASSERT(!passes(&p));
    destroy(&p);
}

/* A library's fp16-compute GEMM (cuBLAS: the H100's battery failed it at 40x260x9 and 132x136x36 under the
 * instruction's 16-product model) may round after every product: checked with GROUP 1, such a product passes
 * where the 16-product model rejects it, and a sign flipped in one element still fails. */
static void acc16_library(void)
{
    product p = make_grouped(40, 260, 36, 1, 1, -1);
    vkb_check r;
    vkb_mm_tc_check_acc16(p.m, p.n, p.k, 1, p.a, p.b, p.c, NULL, &r);
    ASSERT(r.pass);
    vkb_mm_tc_check_acc16(p.m, p.n, p.k, 16, p.a, p.b, p.c, NULL, &r);
    ASSERT(!r.pass);
    p.c[9 * 260 + 100] ^= 0x8000u;
    vkb_mm_tc_check_acc16(p.m, p.n, p.k, 1, p.a, p.b, p.c, NULL, &r);
    ASSERT(!r.pass && r.first_bad == 9 * 260 + 100);
    destroy(&p);
}

/* The library's large products (GROUP 1: a rounding per product, in the Freivalds blocks and on the exact
 * lines): a product rounded after every product passes; a NaN fails. */
static void acc16_library_large(void)
{
    product p = make_grouped(272, 272, 2048, 1, 1, -1); /* the large path, as acc16_blocks */
    vkb_check r;
    vkb_mm_tc_check_acc16(p.m, p.n, p.k, 1, p.a, p.b, p.c, NULL, &r);
    ASSERT(r.pass && strstr(r.method, "fp16 acc each"));
    p.c[7 * 272 + 11] = 0x7e00u;
    vkb_mm_tc_check_acc16(p.m, p.n, p.k, 1, p.a, p.b, p.c, NULL, &r);
    ASSERT(!r.pass);
    destroy(&p);
}

/* Is LINE one of the exact lines of a dimension of SIZE (product_check.c: t * 129 mod SIZE, t < 16, and SIZE - 1)? */
static int exact_line(int64_t line, int64_t size)
{
    for (int t = 0; t < 16; t++)
        if ((int64_t)t * 129 % size == line)
            return 1;
    return line == size - 1;
}

/* Large products off the exact lines, through Freivalds blocks with the fp16-accumulation model: a clean
 * truncated product passes; a NaN fails, named; a row's 256-wide block negated (off the exact columns) fails (gross damage is what
 * this model can see: docs/verification.md, "fp16 accumulation"). */
static void acc16_blocks(void)
{
    product p = make(272, 272, 2048, 1, -1); /* 1.5e8 multiply-adds: the large path */
    int64_t row = 7, col = 11;
    vkb_check r;
    ASSERT(!exact_line(row, 272) && !exact_line(col, 272));
    ASSERT(passes(&p));
    p.c[row * 272 + col] = 0x7e00u; /* NaN */
    vkb_mm_tc_check_acc16(p.m, p.n, p.k, 16, p.a, p.b, p.c, NULL, &r);
    ASSERT(!r.pass && r.bad_row == row && r.bad_col == col);
    destroy(&p);
    p = make(272, 272, 2048, 1, -1);
    for (int64_t j = 0; j < 256; j++) /* off the exact columns too: only the blocks can see it */
        if (!exact_line(j, 272))
            p.c[row * 272 + j] ^= 0x8000u;
    vkb_mm_tc_check_acc16(p.m, p.n, p.k, 16, p.a, p.b, p.c, NULL, &r);
    ASSERT(!r.pass);
    destroy(&p);
}

UNIT_TESTS({"acc16_rounded", acc16_rounded}, {"acc16_truncated", acc16_truncated}, {"acc16_planted", acc16_planted},
           {"acc16_lost_group", acc16_lost_group}, {"acc16_lines", acc16_lines}, {"acc16_blocks", acc16_blocks},
           {"acc16_library", acc16_library}, {"acc16_library_large", acc16_library_large})
