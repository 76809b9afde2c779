/* test_bf16_check.c - the bf16 GEMM row's check (matmul.c, coopmat_khr_bf16) through the family's plan and check
 * on a device that lists bf16 cooperative matrices: a C computed from the bf16 inputs the plan uploads passes at
 * an awkward shape and past the element-wise limit; the same inputs read as fp16 (the wrong type), one input a
 * bf16 ulp off (the host's rounding and the check's disagreeing), or an element of C off by a few of its
 * tolerances fail. No device here runs bf16,
 * so these are what stands between the kernel and a wrong answer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "half.h"
#include "select.h"
#include "test_caps.h"
#include "unit.h"

enum { M = 33, N = 47, K = 70 }; /* no multiple of the 16x16x16 fragment */
/* past VKB_MM_FULL_CHECK_MACS (2^27): the large-product check (Freivalds blocks and exact lines) */
enum { LM = 520, LN = 521, LK = 500 };

typedef enum { GOOD, AS_FP16, A_ULP_OFF, C_OFF } fault;

/* the value of bf16 bits by their definition (fp32's top half), independent of half.c */
static double bf16_value(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

/* C (m x n) of the plan's 16-bit inputs (depth k), as a device with exact products and a wide accumulator
 * computes it, with FAULT */
static void fill(const vkb_plan *p, int m, int n, int k, fault f)
{
    const uint16_t *a = p->buf[0].host, *b = p->buf[1].host;
    float *c = (float *)p->buf[2].host;
    double *s = malloc((size_t)n * sizeof *s), *bv = malloc((size_t)k * n * sizeof *bv);
    for (int q = 0; q < k; q++) /* B decoded once, row by row (the loop below walks rows: cache-friendly) */
        for (int j = 0; j < n; j++)
            bv[q * n + j] = f == AS_FP16 ? vkb_half_to_float(b[q * n + j]) : bf16_value(b[q * n + j]);
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++)
            s[j] = 0;
        for (int q = 0; q < k; q++) {
            uint16_t ab = (uint16_t)(a[i * k + q] + (f == A_ULP_OFF && i == 5 && q == 0)); /* one bf16 ulp */
            double av = f == AS_FP16 ? vkb_half_to_float(ab) : bf16_value(ab);
            for (int j = 0; j < n; j++)
                s[j] += av * bv[q * n + j];
        }
        for (int j = 0; j < n; j++)
            c[i * n + j] = (float)s[j];
    }
    free(s);
    free(bv);
}

static vkb_check run_at(int m, int n, int k, fault f)
{
    const vkb_family *fam = vkb_family_find("matmul");
    const vkb_variant *v = vkb_variant_find(fam, "coopmat_khr_bf16");
    vkb_shape shape = {{m, n, k}};
    vkb_case c = {fam, shape, NULL};
    vkb_caps caps = test_caps_gpu("bf16 device", 16);
    vkb_plan p;
    vkb_check res;
    char why[200];
    for (int i = 0; i < 3; i++)
        caps.coopmat_khr[i] = 16;
    caps.coopmat_types[caps.ncoopmat_types++] =
        (vkb_coopmat_type){16, 16, 16, VKB_CT_BF16, VKB_CT_BF16, VKB_CT_F32, VKB_CT_F32, VKB_SCOPE_SUBGROUP, 0};
    ASSERT(v);
    c.data = fam->case_create(&shape, 1, why, sizeof why);
    ASSERT(c.data && vkb_family_plan(fam, v, &c, &caps, &p, why, sizeof why) == VKB_PLAN_OK);
    ASSERT(p.pass[0].spec[5] == 16 && p.pass[0].spec[7] == 16); /* the bf16 fragment the device lists */
    fill(&p, m, n, k, f);
    if (f == C_OFF) { /* one element off by 4 of its tolerances: the bound is the accumulation's */
        float *cc = (float *)p.buf[2].host;
        vkb_family_check(fam, v, &c, &p, &res);
        cc[17] += (float)(4 * res.tolerance + 1e-7);
    }
    vkb_family_check(fam, v, &c, &p, &res);
    fam->case_destroy(c.data);
    return res;
}

static vkb_check run(fault f)
{
    return run_at(M, N, K, f);
}

static void bf16_good(void)
{
    vkb_check r = run(GOOD);
    ASSERT(r.pass && r.checked == (uint64_t)M * N && strstr(r.method, "bf16 inputs"));
}

static void bf16_read_as_fp16(void)
{
    ASSERT(!run(AS_FP16).pass);
}
static void bf16_input_ulp(void)
{
    ASSERT(!run(A_ULP_OFF).pass);
}
static void bf16_c_off(void)
{
    ASSERT(!run(C_OFF).pass);
}

static void bf16_large(void)
{
    vkb_check r = run_at(LM, LN, LK, GOOD);
    ASSERT(r.pass && !strstr(r.method, "every element")); /* the large-product path, passed */
    ASSERT(!run_at(LM, LN, LK, AS_FP16).pass && !run_at(LM, LN, LK, A_ULP_OFF).pass);
}

/* a device that lists no bf16 fragment: skipped, saying so */
static void bf16_not_listed(void)
{
    const vkb_family *fam = vkb_family_find("matmul");
    const vkb_variant *v = vkb_variant_find(fam, "coopmat_khr_bf16");
    vkb_shape shape = {{M, N, K}};
    vkb_case c = {fam, shape, NULL};
    vkb_caps caps = test_caps_gpu("fp16-only device", 16);
    vkb_plan p;
    char why[200];
    for (int i = 0; i < 3; i++)
        caps.coopmat_khr[i] = 16;
    ASSERT(vkb_family_plan(fam, v, &c, &caps, &p, why, sizeof why) == VKB_PLAN_SKIP);
    ASSERT(strstr(why, "no subgroup cooperative matrix of bf16 x bf16 + fp32"));
}

UNIT_TESTS({"bf16_good", bf16_good}, {"bf16_read_as_fp16", bf16_read_as_fp16}, {"bf16_input_ulp", bf16_input_ulp},
           {"bf16_c_off", bf16_c_off}, {"bf16_not_listed", bf16_not_listed}, {"bf16_large", bf16_large})
