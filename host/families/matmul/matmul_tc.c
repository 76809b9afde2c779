/* matmul_tc.c - plans and checks of the matmul family's tensor-core rows (see matmul_tc.h). */
#include "matmul_tc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "half.h"
#include "matmul/rows_tc.h"
#include "parallel.h"
#include "plan.h"
#include "util.h"

/* Products up to this many multiply-adds get every element checked; larger ones vkb_product_check. */

static int skip(char *why, size_t len, const char *text)
{
    snprintf(why, len, "%s", text);
    return VKB_PLAN_SKIP;
}

/* The largest (by M N K) subgroup fragment the device lists of IN x IN + ACC -> ACC into F; 0 if none. */
static int typed_fragment(const vkb_caps *caps, uint32_t in, uint32_t acc, uint32_t f[3])
{
    uint64_t best = 0;
    for (uint32_t i = 0; i < caps->ncoopmat_types; i++) {
        const vkb_coopmat_type *t = &caps->coopmat_types[i];
        uint64_t vol = (uint64_t)t->m * t->n * t->k;
        if (t->scope == VKB_SCOPE_SUBGROUP && t->a == in && t->b == in && t->c == acc && t->result == acc &&
            !t->saturating && vol > best) {
            best = vol;
            f[0] = t->m, f[1] = t->n, f[2] = t->k;
        }
    }
    return best != 0;
}

/* The granularity (M N K) of the first workgroup-scope combination IN x IN + ACC -> ACC the device lists (the
 * coarsest K where several: interior loops take whole steps of it) into G; 0 if none. */
static void coopmat2_granularity(const vkb_caps *caps, uint32_t in, uint32_t acc, uint32_t g[3])
{
    for (uint32_t i = 0; i < caps->ncoopmat2_types; i++) {
        const vkb_coopmat_type *t = &caps->coopmat2_types[i];
        if (t->a == in && t->b == in && t->c == acc && t->result == acc && !t->saturating && t->k > g[2]) {
            g[0] = t->m, g[1] = t->n, g[2] = t->k;
        }
    }
}

/* The device's subgroup fragment for the row (fp16 inputs with fp16 or fp32 accumulators, or bf16 inputs) into
 * SPEC[5..7] where 0. */
static int fragment(const char *kernel, const vkb_caps *caps, uint32_t *spec, char *why, size_t len)
{
    uint32_t typed[3] = {0, 0, 0};
    int is_bf16 = strstr(kernel, "_bf16") != NULL, is_s8 = strstr(kernel, "_s8") != NULL;
    const uint32_t *f = is_bf16 || is_s8 ? typed : strstr(kernel, "_acc16") ? caps->coopmat_khr16 : caps->coopmat_khr;
    if (is_bf16 || is_s8)
        typed_fragment(caps, is_s8 ? VKB_CT_S8 : VKB_CT_BF16, is_s8 ? VKB_CT_S32 : VKB_CT_F32, typed);
    for (int i = 0; i < 3; i++)
        if (!spec[5 + i])
            spec[5 + i] = f[i];
    if (!spec[5] || !spec[6] || !spec[7])
        return skip(why, len,
                    is_s8     ? "the device lists no subgroup cooperative matrix of s8 x s8 + s32 "
                                "(vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)"
                    : is_bf16 ? "the device lists no subgroup cooperative matrix of bf16 x bf16 + fp32 "
                                "(vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)"
                              : "the device reports no subgroup cooperative matrix of fp16 inputs with this "
                                "accumulator (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)");
    return VKB_PLAN_OK;
}

/* The bytes of B's two shared stages (matmul_tc_stage.glsl): BK rows of BN elements, or with B k-major (the
 * int8 rows that stage B^T) BN rows of BK, each row padded by 16 bytes. */
static uint32_t b_stages_bytes(uint32_t bn, uint32_t bk, uint32_t eb, int kmajor)
{
    return kmajor ? 2u * bn * (bk * eb + 16u) : 2u * bk * (bn * eb + 16u);
}

/* An int8 row staging B k-major takes chunks of 4 k rows by 4 columns in groups of 8 x 4 (matmul_tc_stage.glsl's
 * b_kmajor_chunk): BN a multiple of 32 and BK of 16. 1 (and WHY) where the block is not. */
static int kmajor_bad(uint32_t bm, uint32_t bn, uint32_t bk, char *why, size_t len)
{
    if (bn % 32 == 0 && bk % 16 == 0)
        return 0;
    vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                  "block %ux%ux%u: B staged k-major moves 4x4-byte chunks in groups of 8 x 4, so BN is a "
                  "multiple of 32 and BK of 16",
                  bm, bn, bk);
    return 1;
}

/* matmul_coopmat2_staged's two shared stages of tiles, rows padded by one 16-byte chunk, into SHARED for BM BN BK
 * in SPEC; BK halved (staying a multiple of the granularity GK) where the device's shared memory is short. The
 * kernel loads 8-half chunks (BN and BK multiples of 8), its int8 build 16-byte chunks with B k-major
 * (kmajor_bad). */
static int staged_shared(uint32_t *spec, uint32_t gk, int s8, const vkb_caps *caps, uint32_t *shared, char *why,
                         size_t len)
{
    uint32_t eb = s8 ? 1u : 2u, unit = s8 ? 16u : 8u;
    if (s8 && kmajor_bad(spec[0], spec[1], spec[2], why, len))
        return VKB_PLAN_BAD_REQUEST;
    if (!s8 && (spec[1] % 8 || spec[2] % 8))
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "block %ux%ux%u: the staged kernel loads 8-half "
                             "chunks, so BN and BK are multiples of 8",
                             spec[0], spec[1], spec[2]);
    for (;;) {
        *shared = 2u * spec[0] * (spec[2] * eb + 16u) + b_stages_bytes(spec[1], spec[2], eb, s8);
        if (*shared <= caps->max_shared_bytes || spec[2] % (2u * gk) || spec[2] / 2u % unit)
            return VKB_PLAN_OK;
        spec[2] /= 2u;
    }
}

/* The load schedule's constants (matmul_tc_stage.glsl): 0 is the default (a --spec of a later SpecId passes 0
 * for those between), PREFETCH 1 or 2 register sets, STORE_EARLY and TENSOR_LOAD 0 or 1, GROUP_M at most 65535
 * block rows; anything else is a bad request, never silently read as the nearest meaningful value. */
static int schedule_bad(uint32_t prefetch, uint32_t store_early, uint32_t tensor_load, uint32_t group_m, char *why,
                        size_t len)
{
    if (prefetch <= 2 && store_early <= 1 && tensor_load <= 1 && group_m <= 65535)
        return 0;
    vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                  "PREFETCH=%u STORE_EARLY=%u TENSOR_LOAD=%u GROUP_M=%u: PREFETCH "
                  "0 to 2, STORE_EARLY and TENSOR_LOAD 0 or 1, GROUP_M 0 to 65535 (0: the default)",
                  prefetch, store_early, tensor_load, group_m);
    return 1;
}

/* Fragments per subgroup the shader names at most, each way (matmul_coopmat_khr.comp's FOR4X4). */
#define KHR_MAX_FRAGS 4u

/* The subgroup tile the row leaves to the device (WM, WN 0), as the rows were tuned on the H100: 64 rows by 32
 * columns (4 x 2 of its 16x16 fragments, unchanged), or as many of the device's fragments as the shader names
 * where that tile takes more (lavapipe 26's 8x8: 4 x 4, a 32x32 tile), at least one. */
static uint32_t device_tile(uint32_t target, uint32_t frag)
{
    uint32_t frags = target / frag;
    return frag * (frags < 1u ? 1u : frags > KHR_MAX_FRAGS ? KHR_MAX_FRAGS : frags);
}

/* WM, WN into SPEC[3..4] where 0, from the fragment in SPEC[5..6]; 1 where one was chosen here. */
static int subgroup_tile(uint32_t *spec)
{
    int chosen = !spec[3] || !spec[4];
    if (!spec[3])
        spec[3] = device_tile(MATMUL_KHR_WM, spec[5]);
    if (!spec[4])
        spec[4] = device_tile(MATMUL_KHR_WN, spec[6]);
    return chosen;
}

int vkb_mm_tc_plan(const char *kernel, uint64_t m, uint64_t n, uint64_t k, const vkb_caps *caps, uint32_t *local,
                   uint32_t *spec, uint32_t *tile_m, uint32_t *tile_n, uint32_t *shared, char *why, size_t len)
{
    int acc16 = strstr(kernel, "_acc16") != NULL, s8 = strstr(kernel, "_s8") != NULL;
    int kmajor = strstr(kernel, "_kmajor") != NULL;
    uint64_t invocations = (uint64_t)local[0] * local[1] * local[2];
    (void)k;
    if (!local[0] || !local[1] || !local[2])
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST, "a %ux%ux%u workgroup: each at least 1", local[0],
                             local[1], local[2]);
    if (strncmp(kernel, "matmul_coopmat_khr", 18) == 0) {
        uint32_t bm = spec[0], bn = spec[1], wm, wn, fm, fn, fk, nsub;
        int chosen;
        if (schedule_bad(spec[8], spec[10], 0, spec[9], why, len)) /* SpecIds 11-13 */
            return VKB_PLAN_BAD_REQUEST;
        if (!bm || !bn || !spec[2] || bm > 4096 || bn > 4096 || spec[2] > 4096)
            return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST, "block %ux%ux%u: each 1 to 4096", bm, bn, spec[2]);
        if (fragment(kernel, caps, spec, why, len))
            return VKB_PLAN_SKIP;
        fm = spec[5], fn = spec[6], fk = spec[7];
        chosen = subgroup_tile(spec);
        wm = spec[3], wn = spec[4];
        if ((bm % wm || bn % wn) && chosen) { /* the device's fragments do not tile the row's block */
            snprintf(why, len, "block %ux%u: no multiple of the subgroup tile %ux%u of the device's %ux%u fragments",
                     bm, bn, wm, wn, fm, fn);
            return VKB_PLAN_SKIP;
        }
        if (bm % wm || bn % wn)
            return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                                 "block %ux%u, subgroup tile %ux%u: WM dividing BM "
                                 "and WN dividing BN",
                                 bm, bn, wm, wn);
        /* the rest depends on the device's fragment: a skip, so a default row never fails on other hardware */
        if (wm % fm || wn % fn || spec[2] % fk) {
            snprintf(why, len,
                     "block %ux%ux%u, subgroup tile %ux%u: not multiples of the device's %ux%ux%u "
                     "fragments",
                     bm, bn, spec[2], wm, wn, fm, fn, fk);
            return VKB_PLAN_SKIP;
        }
        if (wm / fm > 4 || wn / fn > 4) { /* the shader names at most 4 x 4 fragments */
            snprintf(why, len, "subgroup tile %ux%u: at most 4 x 4 of the device's %ux%u fragments", wm, wn, fm, fn);
            return VKB_PLAN_SKIP;
        }
        if (fk % 8 || fn % 8 || bn % 8) /* shared tiles are addressed in units of 8 elements */
            return skip(why, len,
                        "the shader addresses shared memory in units of 8 elements: FRAG_K and FRAG_N must be "
                        "multiples of 8");
        if (s8 && (bn % 16 || spec[2] % 16)) /* the int8 build loads 16-byte chunks of 16 elements */
            return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                                 "block %ux%ux%u: the int8 build loads 16-element chunks, so BN and BK are "
                                 "multiples of 16",
                                 bm, bn, spec[2]);
        if (kmajor && kmajor_bad(bm, bn, spec[2], why, len))
            return VKB_PLAN_BAD_REQUEST;
        nsub = (bm / wm) * (bn / wn);
        for (;;) {
            /* two stages of rows padded by 16 bytes (matmul_tc_stage.glsl), C's per-subgroup staging tile */
            uint32_t eb = s8 ? 1u : 2u;
            *shared = 2u * bm * (spec[2] * eb + 16u) + b_stages_bytes(bn, spec[2], eb, kmajor) +
                      nsub * fm * fn * (acc16 ? 2u : 4u);
            if (*shared <= caps->max_shared_bytes || spec[2] % (2u * fk) || (s8 && spec[2] / 2u % 16u))
                break;
            spec[2] /= 2u; /* a shallower k-step where shared memory is short */
        }
        local[0] = nsub * caps->subgroup_size;
        *tile_m = bm;
        *tile_n = bn;
        return VKB_PLAN_OK;
    }
    if (strncmp(kernel, "matmul_coopmat2", 15) == 0) {
        const uint32_t *g = caps->coopmat2_granularity;
        uint32_t typed[3] = {0, 0, 0};
        int bf16 = strstr(kernel, "_bf16") != NULL;
        if (strstr(kernel, "_staged") && schedule_bad(spec[3], spec[6], spec[4], spec[5], why, len)) /* 6-9 */
            return VKB_PLAN_BAD_REQUEST;
        if (s8 || bf16) { /* the granularity the device lists for the row's own types */
            coopmat2_granularity(caps, s8 ? VKB_CT_S8 : VKB_CT_BF16, s8 ? VKB_CT_S32 : VKB_CT_F32, typed);
            g = typed;
            if (!g[0])
                return skip(why, len,
                            s8 ? "the device lists no workgroup-scope cooperative matrix of s8 x s8 + s32 "
                                 "(vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV)"
                               : "the device lists no workgroup-scope cooperative matrix of bf16 x bf16 + fp32 "
                                 "(vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV)");
        }
        if (!g[0])
            return skip(why, len,
                        "the device reports no workgroup-scope fp16 cooperative matrix "
                        "(vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV)");
        if (!spec[0] || !spec[1] || !spec[2] || spec[0] > 4096 || spec[1] > 4096 || spec[2] > 4096)
            return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST, "block %ux%ux%u: each 1 to 4096", spec[0], spec[1],
                                 spec[2]);
        if (spec[0] % g[0] || spec[1] % g[1] || spec[2] % g[2]) {
            snprintf(why, len, "block %ux%ux%u: not multiples of the device's workgroup granularity %ux%ux%u", spec[0],
                     spec[1], spec[2], g[0], g[1], g[2]);
            return VKB_PLAN_SKIP;
        }
        if (caps->coopmat2_max_invocations && invocations > caps->coopmat2_max_invocations) {
            snprintf(why, len, "workgroup-scope matrices allow at most %u invocations", caps->coopmat2_max_invocations);
            return VKB_PLAN_SKIP;
        }
        *shared = 0; /* the driver's own staging */
        *tile_m = spec[0];
        *tile_n = spec[1];
        return strstr(kernel, "_staged") ? staged_shared(spec, g[2], s8, caps, shared, why, len) : VKB_PLAN_OK;
    }
    /* matmul_coopmat_peak(_acc16): each subgroup one (4 FRAG_M) x (4 FRAG_N) tile, a workgroup a row of them */
    if (fragment(kernel, caps, spec, why, len))
        return VKB_PLAN_SKIP;
    if (local[0] % caps->subgroup_size || local[1] != 1 || local[2] != 1 || spec[5] > 1024 || spec[6] > 1024)
        return skip(why, len, "the peak's workgroup is a row of whole subgroups, its fragments at most 1024");
    *tile_m = 4u * spec[5];
    *tile_n = local[0] / caps->subgroup_size * 4u * spec[6];
    /* any shape runs (C is not checked): the grid covers M x N in whole tiles and K in whole fragments, so at a
     * shape not a multiple of them the device does more than the 2 M N K counted and the rate reads low; at
     * multiples (every default shape) it is the instruction's rate */
    (void)m, (void)n;
    *shared = 0;
    return VKB_PLAN_OK;
}

/* The bound on an element of C (vkb_bound_acc16_step, bounds.c). A tensor core with fp16 accumulators adds
 * each instruction's 16 exact products (summed inside with at least fp32's precision: 2^-22 relative,
 * truncation) to the fp16 accumulator and rounds once, with relative error below u = 2^-10 (truncation;
 * round-to-nearest is 2^-11, with 8 products per rounding, about the same bound). With s_t the exact partial
 * sum after the t-th group of 16 and E_t the bound on the accumulator's error then:
 *   E_t = E_{t-1} (1 + u) + u |s_t| + 2^-22 sum over the group of |a b|,
 * rigorous, since |computed| <= |s_t| + E_t (the 2^-22 term also covers the accumulator inside). It scales
 * with the partial sums actually met, not with K sum|a||b| (which at K = 8192 exceeds every value). */

int64_t vkb_mm_rows_per_chunk(int64_t n, int64_t k)
{
    int64_t macs = n * k > 0 ? n * k : 1;
    return 1 + ((int64_t)VKB_CHECK_CHUNK - 1) / macs;
}

/* Row I of C against its exact values and bounds (S, G, E: scratch of N each). */
static void acc16_row(int64_t n, int64_t k, int group, const float *a, const float *b, int64_t i, const uint16_t *c16,
                      double *s, double *g, double *e, vkb_check_part *part)
{
    for (int64_t j = 0; j < n; j++)
        s[j] = g[j] = e[j] = 0;
    for (int64_t p = 0; p < k; p++) {
        double ai = a[i * k + p];
        for (int64_t j = 0; j < n; j++) {
            double t = ai * b[p * n + j];
            s[j] += t;
            g[j] += fabs(t);
        }
        if (vkb_acc16_group_ends(p, k, group))
            for (int64_t j = 0; j < n; j++)
                vkb_bound_acc16_step(s[j], &g[j], &e[j]);
    }
    for (int64_t j = 0; j < n; j++)
        vkb_check_part_value(part, (uint64_t)(i * n + j), vkb_half_to_float(c16[i * n + j]), s[j], e[j]);
}

/* The element-wise check of an fp16-accumulated C, the rows of chunk T (ROWS each). */
typedef struct acc16_run {
    int64_t m, n, k, rows;
    int group;
    float *a, *b; /* the fp16 inputs as floats, made for the check */
    const uint16_t *c16;
} acc16_run;

static void acc16_rows(void *ctx, vkb_check_part *part, int64_t t)
{
    const acc16_run *run = ctx;
    double *s = vkb_alloc((size_t)(3 * run->n) * sizeof *s);
    for (int64_t i = t * run->rows; i < (int64_t)vkb_task_end(t, (uint64_t)run->rows, (uint64_t)run->m); i++)
        acc16_row(run->n, run->k, run->group, run->a, run->b, i, run->c16, s, s + run->n, s + 2 * run->n, part);
    free(s);
}

/* Large products: vkb_product_check with the fp16 accumulator's model (Freivalds blocks at 8 sigma, every
 * element finite, exact lines against the recurrence above; GROUP 1, a library's unknown grouping: a rounding
 * per product, the exact lines against gamma_K sum |a b|). REF: the inputs' reference, or NULL. */
static void acc16_large(int64_t m, int64_t n, int64_t k, int group, const uint16_t *a16, const uint16_t *b16,
                        const uint16_t *c16, const vkb_product_ref *ref, vkb_check *res)
{
    float *a = ref ? NULL : vkb_floats_of_halves(a16, m * k), *b = ref ? NULL : vkb_floats_of_halves(b16, k * n);
    float *c = vkb_floats_of_halves(c16, m * n);
    vkb_product_ref *own = ref ? NULL : vkb_product_ref_create(m, n, k, a, b, VKB_MM_PRODUCT_SEED);
    vkb_check_init(res, "product");
    vkb_product_check(res, ref ? ref : own, c, VKB_ACC16_U, group > 1 ? VKB_ACC_F16 : VKB_ACC_F16_EACH);
    vkb_product_ref_destroy(own);
    free(a);
    free(b);
    free(c);
}

void vkb_mm_tc_check_acc16(int64_t m, int64_t n, int64_t k, int group, const uint16_t *a16, const uint16_t *b16,
                           const uint16_t *c16, const vkb_product_ref *ref, vkb_check *res)
{
    acc16_run run = {m, n, k, vkb_mm_rows_per_chunk(n, k), group, NULL, NULL, c16};
    if ((uint64_t)m * (uint64_t)n * (uint64_t)k > VKB_MM_FULL_CHECK_MACS) {
        acc16_large(m, n, k, group, a16, b16, c16, ref, res);
        vkb_check_finish(res);
        return;
    }
    run.a = vkb_floats_of_halves(a16, m * k);
    run.b = vkb_floats_of_halves(b16, k * n);
    vkb_check_init(res, group > 1 ? "every element, fp16 accumulation: per-group rounding bound from partial sums"
                                  : "every element, fp16 accumulation: a rounding per product (library's order)");
    vkb_check_chunks(res, vkb_tasks_of((uint64_t)m, (uint64_t)run.rows), acc16_rows, &run);
    vkb_check_finish(res);
    free(run.a);
    free(run.b);
}

void vkb_mm_tc_check_peak(vkb_check *res)
{
    vkb_check_init(res, "none: the register-only peak's C is not a product");
    res->pass = 1; /* nothing was compared (checked stays 0): a ceiling row, like a vendor library's timing */
}
