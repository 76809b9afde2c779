/* matmul.c - the matmul family: row-major C = A B (M x K times K x N), a ladder from one thread per
 * element to register blocks, wide accesses, a transposed A tile, double buffering and subgroup tiles
 * (Kirk and Hwu's tiling chapter, Massini's GPU manycore notes), a warp-tiled SGEMM written for NVIDIA's Vulkan
 * compiler, and fp16 cooperative matrices; cuBLAS (pedantic fp32, and fp16 -> fp32) as ceilings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "half.h"
#include "inputs.h"
#include "matmul/rows_tc.h"
#include "matmul_s8_check.h"
#include "matmul_tc.h"
#include "parallel.h"
#include "matmul/rows.h"
#include "util.h"

/* Row param bits. */
enum {
    MM_F16 = 1,        /* fp16 inputs (the seeded fp32 inputs rounded), fp32 output */
    MM_WM_SUBGROUP = 2 /* matmul_block: the warp tile height WM = 2 x the device's subgroup size */
};

/* Tensor cores accumulate fp32 by aligning and truncating, not rounding to nearest (Fasi, Higham,
 * Mikaitis, Pranesh 2021): the unit roundoff of truncation is 2^-23. */
#define U_TENSOR 0x1.0p-23

typedef struct mm_case {
    int64_t m, n, k;
    float *a, *b, *c;    /* fp32 inputs; the output of whichever variant ran last */
    uint16_t *a16, *b16; /* fp16 bits of the same inputs, rounded to nearest even */
    uint16_t *abf, *bbf; /* bf16 bits of the same inputs, rounded to nearest even (the bf16 rows) */
    uint16_t *c16;       /* the fp16 C of the fp16-accumulate rows (matmul_tc.h) */
    int8_t *a8, *b8;     /* the int8 rows' inputs: the same seeded values over the whole int8 range (their C is c,
                            read as int32) */
    int acc16_group;     /* products the last planned device sums per fp16 rounding (its plan sets it) */
    /* made by the first check that needs them, shared by every variant and backend of the case: the fp16
     * and bf16 inputs as floats, and what the large-product checks need from A and B, one per input type
     * (fp32, fp16: the _acc16 rows' too, bf16, int8) */
    float *a16f, *b16f, *abff, *bbff;
    vkb_product_ref *ref32, *ref16, *refbf;
    vkb_mm_s8_ref *ref8;
} mm_case;

/* The rows of host/families/matmul/rows.h, then the cuBLAS ceilings (CUDA only). */
#define SPEC_LIST(...) __VA_ARGS__
/* Where no vendor library ran (no CUDA): the instruction's own peak of the row's types (runner.c) */
#define FALLBACK_cublas_sgemm "peak/fma_f32"
#define FALLBACK_cublas_hgemm "matmul/tc_peak"
#define FALLBACK_cublas_hgemm_acc16 "matmul/tc_peak_acc16"
#define FALLBACK_cublas_gemm_s8 "peak/coopmat_s8_s32"
#define FALLBACK_cublas_gemm_bf16 "matmul/tc_peak"
#define FALLBACK_OF(ceiling) FALLBACK_##ceiling
#define HOST_ROW(name, shader, lx, ly, nspec, spec, param, needs, note, ceiling)                                       \
    {#name,                                                                                                            \
     #shader,                                                                                                          \
     MATMUL_WORKGROUP(shader, lx, ly, spec),                                                                           \
     {SPEC_LIST spec},                                                                                                 \
     nspec,                                                                                                            \
     param,                                                                                                            \
     needs,                                                                                                            \
     0,                                                                                                                \
     note,                                                                                                             \
     #ceiling,                                                                                                         \
     FALLBACK_OF(ceiling),                                                                                             \
     MATMUL_PLAN_KIND(shader)},
/* The tensor-core rows of host/families/matmul/rows_tc.h. */
#define TC_SPEC_LIST(...) __VA_ARGS__
/* LX 0: the plan decides the workgroup (stored as 1 until then) */
#define TC_HOST_ROW(name, shader, lx, nspec, spec, param, needs, flags, note, ceiling)                                 \
    {#name,                                                                                                            \
     #shader,                                                                                                          \
     {(lx) ? (lx) : 1, 1, 1},                                                                                          \
     {TC_SPEC_LIST spec},                                                                                              \
     nspec,                                                                                                            \
     param,                                                                                                            \
     needs,                                                                                                            \
     flags,                                                                                                            \
     note,                                                                                                             \
     ceiling,                                                                                                          \
     (param)&MM_TC_ACC16 ? "matmul/tc_peak_acc16"                                                                      \
     : (param)&MM_TC_S8  ? "peak/coopmat_s8_s32"                                                                       \
                         : "matmul/tc_peak",                                                                            \
     MM_PLAN_TC},
static const vkb_variant variants[] = {
    MATMUL_ROWS(HOST_ROW) MATMUL_TC_ROWS(TC_HOST_ROW){"cublas_sgemm",
                                                      NULL,
                                                      {1, 1, 1},
                                                      {0},
                                                      0,
                                                      0,
                                                      0,
                                                      VKB_VAR_CEILING | VKB_VAR_CUDA_ONLY,
                                                      "cublasSgemm, CUBLAS_PEDANTIC_MATH (no TF32): the fp32 ceiling"},
    {"cublas_hgemm",
     NULL,
     {1, 1, 1},
     {0},
     0,
     MM_F16,
     0,
     VKB_VAR_CEILING | VKB_VAR_CUDA_ONLY,
     "cublasGemmEx fp16 x fp16 -> fp32, compute 32F: the ceiling of coopmat_f16"},
    {"cublas_hgemm_acc16",
     NULL,
     {1, 1, 1},
     {0},
     0,
     MM_F16 | MM_TC_ACC16,
     0,
     VKB_VAR_CEILING | VKB_VAR_CUDA_ONLY,
     "cublasGemmEx fp16 x fp16 -> fp16, compute 16F: the ceiling of the fp16-accumulate rows"},
    {"cublas_gemm_s8",
     NULL,
     {1, 1, 1},
     {0},
     0,
     MM_TC_S8,
     0,
     VKB_VAR_CEILING | VKB_VAR_CUDA_ONLY | VKB_VAR_INTEGER_OPS,
     "cublasGemmEx s8 x s8 -> s32, compute 32I: the ceiling of the int8 rows"},
    {"cublas_gemm_bf16",
     NULL,
     {1, 1, 1},
     {0},
     0,
     MM_TC_BF16,
     0,
     VKB_VAR_CEILING | VKB_VAR_CUDA_ONLY,
     "cublasGemmEx bf16 x bf16 -> fp32, compute 32F: the ceiling of the bf16 rows"},
};

static int default_shapes(const vkb_caps *caps, vkb_shape *out, int max)
{
    if (caps->is_cpu) {
        out[0] = (vkb_shape){{256, 256, 256}};
        return 1;
    }
    out[0] = (vkb_shape){{4096, 4096, 4096}};
    if (max < 2)
        return 1;
    out[1] = (vkb_shape){{8192, 8192, 8192}};
    return 2;
}

static int battery(vkb_shape *out, int max)
{
    /* 1x1x1, a row, a column, K = 1, no dimension a multiple of any tile, tall and skinny, K > tiles */
    static const int64_t s[][3] = {{1, 1, 1},      {1, 33, 17},    {33, 1, 5},   {65, 63, 1},
                                   {127, 129, 67}, {200, 40, 300}, {40, 260, 9}, {132, 136, 36}};
    int count = 0;
    for (size_t i = 0; i < VKB_COUNT(s) && count < max; i++)
        out[count++] = (vkb_shape){{s[i][0], s[i][1], s[i][2]}};
    return count;
}

/* fp16 conversions (round to nearest even) live in half.c, tested bit-exactly in test_check.c */
#define half_from_float vkb_half_from_float
#define half_to_float vkb_half_to_float

/* Bytes of a matrix of COUNT elements of SIZE bytes, rounded up to 16 (kernels read 16-byte words). */
static uint64_t padded_bytes(int64_t count, size_t size)
{
    return ((uint64_t)count * size + 15u) / 16u * 16u;
}

/* One matrix of the inputs: fp32 values and the same rounded to fp16 and to bf16. */
typedef struct mm_fill {
    float *f;
    uint16_t *h, *bf;
    int8_t *i8;
} mm_fill;

/* One chunk of a matrix: uniform in [-1, 1), and its fp16 and bf16 roundings beside it while the values are in
 * cache. */
static void fill_matrix(void *ctx, vkb_rng *rng, uint64_t chunk, uint64_t first, uint64_t end)
{
    const mm_fill *mf = ctx;
    (void)chunk;
    for (uint64_t i = first; i < end; i++) {
        mf->f[i] = (float)vkb_rng_uniform(rng, -1, 1);
        mf->h[i] = half_from_float(mf->f[i]);
        mf->bf[i] = vkb_bf16_from_float(mf->f[i]);
        /* [-1, 1) onto every int8 value, -128 to 127, equally often */
        mf->i8[i] = (int8_t)fmax(-128.0, fmin(127.0, floor((double)mf->f[i] * 128.0)));
    }
}

static void *case_create(const vkb_shape *s, uint64_t seed, char *why, size_t len)
{
    mm_case *c;
    vkb_rng rng;
    int64_t m = s->d[0], n = s->d[1], k = s->d[2];
    (void)why;
    (void)len;
    c = vkb_calloc(1, sizeof *c); /* M*K, K*N, M*N below 2^32: plan() refuses larger shapes first */
    c->m = m;
    c->n = n;
    c->k = k;
    /* fp32 and fp16 inputs, the fp16 inputs as floats (made by the first fp16 check), fp32 and fp16 C */
    vkb_host_reserve(padded_bytes(m * k, 13) + padded_bytes(k * n, 13) + padded_bytes(m * n, 6), "matmul");
    c->a = vkb_alloc(padded_bytes(m * k, 4));
    c->b = vkb_alloc(padded_bytes(k * n, 4));
    c->c = vkb_alloc(padded_bytes(m * n, 4));
    c->c16 = vkb_alloc(padded_bytes(m * n, 2));
    /* the fp16 rows' inputs: the same seeded values rounded to fp16 */
    c->a16 = vkb_calloc(1, padded_bytes(m * k, 2));
    c->b16 = vkb_calloc(1, padded_bytes(k * n, 2));
    c->abf = vkb_calloc(1, padded_bytes(m * k, 2));
    c->bbf = vkb_calloc(1, padded_bytes(k * n, 2));
    c->a8 = vkb_calloc(1, padded_bytes(m * k, 1));
    c->b8 = vkb_calloc(1, padded_bytes(k * n, 1));
    /* one seeded sequence: A's values, then B's */
    vkb_rng_seed(&rng, seed);
    vkb_input_fill(&rng, (uint64_t)(m * k), 1, fill_matrix, &(mm_fill){c->a, c->a16, c->abf, c->a8});
    vkb_rng_skip(&rng, (uint64_t)(m * k));
    vkb_input_fill(&rng, (uint64_t)(k * n), 1, fill_matrix, &(mm_fill){c->b, c->b16, c->bbf, c->b8});
    return c;
}

static void case_destroy(void *data)
{
    mm_case *c = data;
    free(c->a);
    free(c->b);
    free(c->c);
    free(c->c16);
    free(c->a16);
    free(c->b16);
    free(c->a16f);
    free(c->b16f);
    free(c->abf);
    free(c->bbf);
    free(c->abff);
    free(c->bbff);
    free(c->a8);
    free(c->b8);
    vkb_product_ref_destroy(c->ref32);
    vkb_product_ref_destroy(c->ref16);
    vkb_product_ref_destroy(c->refbf);
    vkb_mm_s8_ref_destroy(c->ref8);
    free(c);
}

/* Shared memory of the matmul_block configuration S (BM BN BK WM WN TM TN OPT), in bytes (UINT32_MAX past it). */
static uint32_t block_shared(const uint32_t *s)
{
    uint64_t b = ((s[7] & MATMUL_OPT_DB) ? 2u : 1u) *
                 ((uint64_t)s[2] * (s[0] + ((s[7] & MATMUL_OPT_AT) ? 4ull : 0ull)) + (uint64_t)s[2] * s[1]) * 4u;
    return b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
}

/* Shared memory of the matmul_warptile configuration S (BM BN BK ...), in bytes: two stages of vec4, A's k-rows
 * padded by one vec4 (UINT32_MAX past it). */
static uint32_t warptile_shared(const uint32_t *s)
{
    uint64_t b = 2u * (uint64_t)s[2] * ((uint64_t)s[0] / 4u + 1u + (uint64_t)s[1] / 4u) * 16u;
    return b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
}

/* Is the matmul_warptile configuration S (BM BN BK WM WN TM TN) consistent? Its workgroup in NT (MATMUL_WARP
 * invocations per WM x WN warp tile) and VKB_PLAN_OK, or VKB_PLAN_BAD_REQUEST with WHY. */
static int warptile_check(const uint32_t *s, uint32_t *nt, char *why, size_t len)
{
    uint32_t bm = s[0], bn = s[1], bk = s[2], wm = s[3], wn = s[4], tm = s[5], tn = s[6];
    uint64_t warps;
    if (!bm || !bn || !bk || !wm || !wn || !tm || !tn || bm % wm || bn % wn || wm % tm || wn % tn || tm % 4 || tn % 4 ||
        bk % 4)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "BM=%u BN=%u BK=%u WM=%u WN=%u TM=%u TN=%u: each at "
                             "least 1, WM dividing BM, WN dividing BN, TM dividing WM, TN dividing WN, TM, TN and BK "
                             "multiples of 4",
                             bm, bn, bk, wm, wn, tm, tn);
    if ((uint64_t)(wm / tm) * (wn / tn) != MATMUL_WARP)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "a %ux%u warp tile of %ux%u per invocation is %u x %u "
                             "invocations: matmul_warptile's warp is %u (WM/TM x WN/TN)",
                             wm, wn, tm, tn, wm / tm, wn / tn, MATMUL_WARP);
    warps = (uint64_t)(bm / wm) * (bn / wn);
    *nt = warps * MATMUL_WARP > UINT32_MAX ? UINT32_MAX : (uint32_t)(warps * MATMUL_WARP);
    return VKB_PLAN_OK;
}

/* matmul_warptile's FIXED, FIXED_M (FIXED_N, FIXED_K follow) and INTERIOR as indices of its constants (ids 10, 11...
 * and 14: matmul_warptile.glsl) */
enum { WT_FIXED = 7, WT_DIMS = 8, WT_INTERIOR = 11 };

/* FIXED of the matmul_warptile configuration S: 1 builds its pipeline for the shape M x N x K, written into FIXED_M,
 * FIXED_N, FIXED_K with *NSPEC raised to cover them; 0 leaves M, N, K to the push constants. VKB_PLAN_OK, or
 * VKB_PLAN_BAD_REQUEST with WHY for another FIXED or a FIXED_M, _N, _K (--spec) other than the shape's. */
static int warptile_fixed(uint32_t *s, int *nspec, uint64_t m, uint64_t n, uint64_t k, char *why, size_t len)
{
    const uint64_t dims[3] = {m, n, k};
    uint32_t fixed = *nspec > WT_FIXED ? s[WT_FIXED] : 0; /* a constant past NSPEC is the shader's default */
    if (fixed > 1)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "FIXED=%u: 0 (M, N, K from push constants) or 1 (M, N, "
                             "K constants of a pipeline built per shape)",
                             fixed);
    for (int d = 0; d < 3; d++)
        if (*nspec > WT_DIMS + d && s[WT_DIMS + d] && s[WT_DIMS + d] != dims[d])
            return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                                 "FIXED_%c=%u: the plan sets FIXED_M, FIXED_N, "
                                 "FIXED_K from the shape (%c = %llu here); leave them out of --spec",
                                 "MNK"[d], s[WT_DIMS + d], "mnk"[d], (unsigned long long)dims[d]);
    if (fixed) {
        for (int d = 0; d < 3; d++)
            s[WT_DIMS + d] = (uint32_t)dims[d]; /* each below 2^32: plan() refused larger products first */
        if (*nspec < WT_DIMS + 3)               /* a longer row (INTERIOR) keeps its tail */
            *nspec = WT_DIMS + 3;
    }
    return VKB_PLAN_OK;
}

/* Shared memory of matmul_coopmat with S = BM BN BK WM WN and NSUB subgroups: two stages of padded fp16
 * tiles and a 16x16 fp32 staging tile per subgroup. */
static uint32_t coopmat_shared(const uint32_t *s, uint32_t nsub)
{
    uint64_t b =
        2u * ((uint64_t)s[0] * (s[2] / 8u + 1u) + (uint64_t)s[2] * (s[1] / 8u + 1u)) * 16u + (uint64_t)nsub * 256u * 4u;
    return b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
}

/* Is the matmul_block configuration S (BM BN BK WM WN TM TN OPT) with NT invocations consistent? VKB_PLAN_OK, or
 * VKB_PLAN_BAD_REQUEST with WHY. */
static int block_check(const uint32_t *s, uint32_t nt, char *why, size_t len)
{
    uint32_t bm = s[0], bn = s[1], bk = s[2], wm = s[3], wn = s[4], tm = s[5], tn = s[6], opt = s[7];
    uint32_t nwarps, ws, lr;
    if (!bm || !bn || !bk || !wm || !wn || !tm || !tn || bm % wm || bn % wn || wm % tm || bm % 4 || bn % 4 || bk % 4 ||
        opt > 7)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "BM=%u BN=%u BK=%u WM=%u WN=%u TM=%u TN=%u OPT=%u: each "
                             "at least 1, BM, BN, BK multiples of 4, WM dividing BM, WN dividing BN, TM dividing WM, "
                             "OPT bits 0-2",
                             bm, bn, bk, wm, wn, tm, tn, opt);
    nwarps = (bm / wm) * (bn / wn);
    ws = nt / nwarps;
    lr = wm / tm;
    if (nt % nwarps || ws % lr || wn % (ws / lr * tn))
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "%u invocations do not tile %u warp tiles of %ux%u with "
                             "%ux%u per invocation",
                             nt, nwarps, wm, wn, tm, tn);
    if ((opt & MATMUL_OPT_WIDE) && (tn % 4 || ((opt & MATMUL_OPT_AT) && tm % 4)))
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "vec4 accesses need TN (and TM with a transposed A) "
                             "a multiple of 4");
    return VKB_PLAN_OK;
}

extern const vkb_family vkb_family_matmul; /* the family's own table, defined at the end */

static int plan(const vkb_variant *v, const vkb_case *vc, const vkb_caps *caps, vkb_plan *p, char *why, size_t len)
{
    const mm_case *c = vc->data;
    uint64_t m = (uint64_t)vc->shape.d[0], n = (uint64_t)vc->shape.d[1], k = (uint64_t)vc->shape.d[2];
    uint64_t gx, gy;
    int f16 = (v->param & MM_F16) != 0, bf16 = (v->param & MM_TC_BF16) != 0, s8 = (v->param & MM_TC_S8) != 0, code;
    const void *a_in = !c     ? NULL
                       : s8   ? (const void *)c->a8
                       : bf16 ? (const void *)c->abf
                       : f16  ? (const void *)c->a16
                              : (const void *)c->a;
    const void *b_in = !c     ? NULL
                       : s8   ? (const void *)c->b8
                       : bf16 ? (const void *)c->bbf
                       : f16  ? (const void *)c->b16
                              : (const void *)c->b;
    size_t in_bytes = s8 ? 1 : f16 || bf16 ? 2 : 4;
    int bufs[3];
    uint32_t local[3] = {v->local[0], v->local[1], v->local[2]}, groups[3] = {1, 1, 1}, tile_m = 1, tile_n = 1;
    uint32_t spec[VKB_MAX_SPEC], shared = 0;
    int nspec = v->nspec;
    matmul_push push;
    vkb_pass *pass;

    if (vkb_mul_sat(m, k) > UINT32_MAX || vkb_mul_sat(k, n) > UINT32_MAX || vkb_mul_sat(m, n) > UINT32_MAX)
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,
                             "%llux%llux%llu: the kernels index with 32 bits, so M*K, "
                             "K*N and M*N each stay below 2^32; try a smaller size",
                             (unsigned long long)m, (unsigned long long)n, (unsigned long long)k);
    bufs[0] = vkb_plan_buffer_add(p, padded_bytes((int64_t)(m * k), in_bytes), VKB_BUF_INPUT, a_in);
    bufs[1] = vkb_plan_buffer_add(p, padded_bytes((int64_t)(k * n), in_bytes), VKB_BUF_INPUT, b_in);
    /* C exactly M*N floats: the guard band begins where C ends, so a store past row M-1 or column N-1 is
     * seen (the backends still bind a 16-byte multiple for vec4 views) */
    if (v->param & MM_TC_ACC16) /* an fp16 C (its last word padded) */
        bufs[2] = vkb_plan_buffer_add(p, ((uint64_t)m * n * 2 + 3) / 4 * 4, VKB_BUF_OUTPUT, c ? c->c16 : NULL);
    else
        bufs[2] = vkb_plan_buffer_add(p, (uint64_t)m * n * 4, VKB_BUF_OUTPUT, c ? c->c : NULL);
    if (!v->kernel) {
        /* cuBLAS's int8 GEMM takes leading dimensions of multiples of 4 alone (K and N: matmul_tc.cu) */
        if (s8 && (k % 4 || n % 4))
            return vkb_plan_fail(why, len, VKB_PLAN_SKIP,
                                 "cuBLAS's int8 GEMM needs K and N multiples of 4 (its leading dimensions)");
        pass = vkb_plan_library(p, v->name);
    } else {
        memcpy(spec, v->spec, sizeof spec);
        switch (v->plan_kind) {
        case MM_PLAN_NAIVE:
            tile_m = local[1];
            tile_n = local[0];
            break;
        case MM_PLAN_TILED:
            if (spec[0] == 0 || local[0] != spec[0] || local[1] != spec[0] || local[2] != 1)
                return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                                     "TILE=%u with a %ux%ux%u workgroup: "
                                     "matmul_tiled's workgroup is TILE x TILE (set 0=%u,1=%u with TILE), TILE at "
                                     "least 1",
                                     spec[0], local[0], local[1], local[2], spec[0], spec[0]);
            shared = spec[0] > 1u << 14 ? UINT32_MAX : 2u * spec[0] * spec[0] * 4u;
            tile_m = tile_n = spec[0];
            break;
        case MM_PLAN_BLOCK:
            if ((v->param & MM_WM_SUBGROUP) && spec[3] == 0) /* unless --spec set WM */
                spec[3] = 2u * caps->subgroup_size;
            if (local[1] != 1 || local[2] != 1)
                return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                                     "a %ux%ux%u workgroup: matmul_block's is "
                                     "1-D (0=)",
                                     local[0], local[1], local[2]);
            if ((code = block_check(spec, local[0], why, len)) != VKB_PLAN_OK)
                return code;
            /* a shallower k-step where the device's shared memory is short (lavapipe: 32 KiB) */
            while (block_shared(spec) > caps->max_shared_bytes && spec[2] % 8 == 0)
                spec[2] /= 2;
            shared = block_shared(spec);
            tile_m = spec[0];
            tile_n = spec[1];
            break;
        case MM_PLAN_WARPTILE:
        case MM_PLAN_WARPTILE_NAMED: {
            /* the workgroup follows from the constants; a --spec 0= that says otherwise is refused */
            const vkb_variant *row = vkb_variant_find(&vkb_family_matmul, v->name); /* as declared */
            uint32_t nt = 0, interior;
            if ((code = warptile_check(spec, &nt, why, len)) != VKB_PLAN_OK)
                return code;
            if (v->plan_kind == MM_PLAN_WARPTILE_NAMED && (spec[5] != 8 || spec[6] != 8))
                return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                                     "TM=%u TN=%u: matmul_warptile_named names "
                                     "8x8 accumulators per invocation (TM=8, TN=8)",
                                     spec[5], spec[6]);
            if (local[1] != 1 || local[2] != 1 || (row && local[0] != row->local[0] && local[0] != nt))
                return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                                     "a %ux%ux%u workgroup: %s's is "
                                     "%u x its %u warp tiles = %ux1x1, set by BM, BN, WM, WN (leave 0=, 1=, 2= "
                                     "out)",
                                     local[0], local[1], local[2], v->kernel, MATMUL_WARP, nt / MATMUL_WARP, nt);
            if ((code = warptile_fixed(spec, &nspec, m, n, k, why, len)) != VKB_PLAN_OK)
                return code;
            /* INTERIOR is read by matmul_warptile's main alone: refused where it would change nothing */
            interior = nspec > WT_INTERIOR ? spec[WT_INTERIOR] : 0;
            if (interior > 1 || (interior && v->plan_kind == MM_PLAN_WARPTILE_NAMED))
                return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                                     "INTERIOR=%u: 0 (every block guarded) or 1 "
                                     "(blocks inside M x N unguarded), in matmul_warptile's rows (not %s)",
                                     interior, v->kernel);
            local[0] = nt;
            /* a shallower k-step where the device's shared memory is short (lavapipe: 32 KiB) */
            while (warptile_shared(spec) > caps->max_shared_bytes && spec[2] % 8 == 0)
                spec[2] /= 2;
            shared = warptile_shared(spec);
            tile_m = spec[0];
            tile_n = spec[1];
            break;
        }
        case MM_PLAN_TC: /* KHR, coopmat2 and the peak: matmul_tc.c */
            code = vkb_mm_tc_plan(v->kernel, m, n, k, caps, local, spec, &tile_m, &tile_n, &shared, why, len);
            if (code != VKB_PLAN_OK)
                return code;
            /* NVIDIA's tensor cores round an fp16 accumulator once per 16-product instruction; how another
             * device groups them is unknown (lavapipe 26 rounds every product): the check's model follows */
            if (vc->data)
                ((mm_case *)vc->data)->acc16_group = caps->vendor_id == 0x10DE ? 16 : 1;
            break;
        case MM_PLAN_COOPMAT: { /* one subgroup per WM x WN sub-block */
            uint32_t nsub;
            if (!spec[0] || !spec[1] || !spec[2] || !spec[3] || !spec[4] || spec[0] % spec[3] || spec[1] % spec[4] ||
                spec[3] % 16 || spec[4] % 16 || spec[2] % 16)
                return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                                     "BM=%u BN=%u BK=%u WM=%u WN=%u: multiples "
                                     "of the 16x16x16 fragments, WM dividing BM and WN dividing BN",
                                     spec[0], spec[1], spec[2], spec[3], spec[4]);
            if (spec[3] > 64 || spec[4] > 64) /* the shader names at most 4 x 4 fragments */
                return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                                     "subgroup tile %ux%u: at most 64x64 (4 x 4 "
                                     "fragments)",
                                     spec[3], spec[4]);
            nsub = (spec[0] / spec[3]) * (spec[1] / spec[4]);
            /* a shallower k-step where the device's shared memory is short (lavapipe: 32 KiB) */
            while ((shared = coopmat_shared(spec, nsub)) > caps->max_shared_bytes && spec[2] % 32 == 0)
                spec[2] /= 2;
            local[0] = nsub * caps->subgroup_size;
            tile_m = spec[0];
            tile_n = spec[1];
            break;
        }
        default: /* a row whose shader declares no plan kind (rows.h): the table's own bug */
            return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST, "%s: no plan for shader %s", v->name, v->kernel);
        }
        gx = (n + tile_n - 1) / tile_n;
        gy = (m + tile_m - 1) / tile_m;
        groups[0] = gx > UINT32_MAX ? UINT32_MAX : (uint32_t)gx; /* the limits check refuses past the device's */
        groups[1] = gy > UINT32_MAX ? UINT32_MAX : (uint32_t)gy;
        pass = vkb_plan_dispatch(p, v->kernel, local, groups);
        memcpy(pass->spec, spec, sizeof spec);
        pass->nspec = nspec;
        pass->shared_bytes = shared;
    }
    vkb_pass_bind(pass, 3, bufs);
    push.m = (uint32_t)m;
    push.n = (uint32_t)n;
    push.k = (uint32_t)k;
    vkb_pass_push(pass, &push, sizeof push);
    return VKB_PLAN_OK;
}

static double work(const vkb_variant *v, const vkb_case *vc)
{
    (void)v;
    return 2.0 * (double)vc->shape.d[0] * (double)vc->shape.d[1] * (double)vc->shape.d[2];
}

/* Element (I, J) of A B in double and the bound gamma(K, U) sum|a||b| on its fp32 error. */
static void reference(const mm_case *c, const float *a, const float *b, int64_t i, int64_t j, double u, double *ref,
                      double *bound)
{
    double s = 0, sa = 0;
    for (int64_t p = 0; p < c->k; p++) {
        double t = (double)a[i * c->k + p] * b[p * c->n + j];
        s += t;
        sa += fabs(t);
    }
    *ref = s;
    *bound = vkb_bound_dot((uint64_t)c->k, sa, u);
}

/* The large-product reference of C's inputs A, B (fp32, or the fp16 or bf16 ones as floats) in *REF, built on
 * first use. */
static const vkb_product_ref *product_ref(const mm_case *c, vkb_product_ref **ref, const float *a, const float *b)
{
    if (!*ref)
        *ref = vkb_product_ref_create(c->m, c->n, c->k, a, b, VKB_MM_PRODUCT_SEED);
    return *ref;
}

static int is_large(const mm_case *c)
{
    return (uint64_t)c->m * (uint64_t)c->n * (uint64_t)c->k > VKB_MM_FULL_CHECK_MACS;
}

/* The element-wise check of the rows of chunk T (vkb_mm_rows_per_chunk rows): A, B its inputs, U its unit. */
typedef struct full_run {
    const mm_case *c;
    const float *a, *b;
    double u;
    int64_t rows;
} full_run;

static void full_rows(void *ctx, vkb_check_part *part, int64_t t)
{
    const full_run *run = ctx;
    const mm_case *c = run->c;
    double ref, bound;
    for (int64_t i = t * run->rows; i < (int64_t)vkb_task_end(t, (uint64_t)run->rows, (uint64_t)c->m); i++)
        for (int64_t j = 0; j < c->n; j++) {
            reference(c, run->a, run->b, i, j, run->u, &ref, &bound);
            vkb_check_part_value(part, (uint64_t)(i * c->n + j), c->c[i * c->n + j], ref, bound);
        }
}

static void check(const vkb_variant *v, const vkb_case *vc, const vkb_plan *p, vkb_check *res)
{
    mm_case *c = vc->data; /* the check fills the case's caches (the inputs stay as they are) */
    int f16 = (v->param & (MM_F16 | MM_TC_ACC16)) != 0, bf16 = (v->param & MM_TC_BF16) != 0;
    (void)p;
    if (f16 && !c->a16f) {
        c->a16f = vkb_floats_of_halves(c->a16, c->m * c->k);
        c->b16f = vkb_floats_of_halves(c->b16, c->k * c->n);
    }
    if (bf16 && !c->abff) {
        c->abff = vkb_floats_of_bf16s(c->abf, c->m * c->k);
        c->bbff = vkb_floats_of_bf16s(c->bbf, c->k * c->n);
    }
    if (v->param & MM_TC_PEAK) { /* the tensor-core rows' own checks (matmul_tc.c) */
        vkb_mm_tc_check_peak(res);
        return;
    }
    if (v->param & MM_TC_S8) { /* C holds int32 (exact) */
        if (is_large(c) && !c->ref8)
            c->ref8 = vkb_mm_s8_ref_create(c->m, c->n, c->k, c->a8, c->b8, VKB_MM_PRODUCT_SEED);
        vkb_mm_tc_check_s8(c->m, c->n, c->k, c->a8, c->b8, (const int32_t *)(const void *)c->c, VKB_MM_PRODUCT_SEED,
                           c->ref8, res);
        return;
    }
    if (v->param & MM_TC_ACC16) {
        /* our kernels: the grouping of the device they were planned for; cuBLAS's grouping is unknown */
        vkb_mm_tc_check_acc16(c->m, c->n, c->k, v->kernel && c->acc16_group ? c->acc16_group : 1, c->a16, c->b16,
                              c->c16, is_large(c) ? product_ref(c, &c->ref16, c->a16f, c->b16f) : NULL, res);
        return;
    }
    /* the reference is the product of the inputs the device read (fp16 or bf16 rounded: their rounding is no
     * error of the kernel's), exact in double; fp16 and bf16 products are exact in fp32 (11 + 11 and 8 + 8
     * significant bits), so the bound is the fp32 accumulation's alone, by truncation on the tensor cores */
    const float *a = bf16 ? c->abff : f16 ? c->a16f : c->a, *b = bf16 ? c->bbff : f16 ? c->b16f : c->b;
    vkb_product_ref **ref = bf16 ? &c->refbf : f16 ? &c->ref16 : &c->ref32;
    int narrow = f16 || bf16;
    double u = narrow ? U_TENSOR : VKB_U_F32;
    char method[96];
    if (!is_large(c)) {
        full_run run = {c, a, b, u, vkb_mm_rows_per_chunk(c->n, c->k)};
        snprintf(method, sizeof method, "every element, gamma(K,2^%d)*sum|a||b|%s", narrow ? -23 : -24,
                 bf16  ? " of bf16 inputs"
                 : f16 ? " of fp16 inputs"
                       : "");
        vkb_check_init(res, method);
        res->cols = (uint64_t)c->n;
        vkb_check_chunks(res, vkb_tasks_of((uint64_t)c->m, (uint64_t)run.rows), full_rows, &run);
    } else {
        /* Freivalds by row and column blocks against a rounding model, and exact lines (docs/verification.md) */
        vkb_check_init(res, "product");
        vkb_product_check(res, product_ref(c, ref, a, b), c->c, u, narrow ? VKB_ACC_TRUNCATE : VKB_ACC_ROUND);
    }
    vkb_check_finish(res);
}

/* An int64 multiply-add of the int8 check against a double one of the float checks (no vector multiply of 64-bit
 * integers in AVX2): 0.63-0.71 ns against 0.26 on one core of the 2-core build machine, at 4096^3 */
#define INT64_MAC 2.5

/* What checking V at S costs the host: every element's dot product (its sum and sum of |a b|) up to
 * VKB_MM_FULL_CHECK_MACS, else a pass over C against the reference of V's input type, which the rows of that type
 * share (check() keeps one per type in the case: fp32, fp16 with the _acc16 rows, bf16, int8). */
static void check_cost(const vkb_variant *v, const vkb_shape *s, vkb_check_cost *cost)
{
    int64_t m = s->d[0], n = s->d[1], k = s->d[2];
    int s8 = (v->param & MM_TC_S8) != 0, bf16 = (v->param & MM_TC_BF16) != 0;
    int f16 = (v->param & (MM_F16 | MM_TC_ACC16)) != 0;
    if (v->param & MM_TC_PEAK)
        return; /* nothing is checked */
    if ((uint64_t)m * (uint64_t)n * (uint64_t)k <= VKB_MM_FULL_CHECK_MACS) {
        cost->macs = (s8 ? INT64_MAC : 2.0) * (double)m * (double)n * (double)k;
        return;
    }
    if (s8) {
        cost->ref = 4;
        cost->ref_macs = INT64_MAC * vkb_mm_s8_ref_macs(m, n, k);
        cost->macs = INT64_MAC * vkb_mm_s8_check_macs(m, n, k);
        return;
    }
    cost->ref = bf16 ? 3 : f16 ? 2 : 1;
    cost->ref_macs = vkb_product_ref_macs(m, n, k);
    cost->macs = vkb_product_check_macs(m, n, k);
}

const vkb_family vkb_family_matmul = {
    "matmul",
    "row-major C = A B, fp32 (and fp16 -> fp32), beside cuBLAS",
    {"m", "n", "k"},
    3,
    "GFLOP/s",
    variants,
    (int)VKB_COUNT(variants),
    default_shapes,
    battery,
    case_create,
    case_destroy,
    plan,
    work,
    check,
    NULL,
    NULL,
    .units = {"matrix side", "matrix side", "matrix side"},
    .check_cost = check_cost,
};
