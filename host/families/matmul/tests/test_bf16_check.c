/* test_bf16_check.c - the bf16 GEMM row's check (matmul.c, coopmat_khr_bf16) through the family's plan and check
 * on a device that lists bf16 cooperative matrices: a C computed from the bf16 inputs the plan uploads passes at
 * an awkward shape; the same inputs read as fp16 (the wrong type), one input a bf16 ulp off (the host's rounding
 * and the check's disagreeing), or an element of C off by a few of its tolerances fail. No device here runs bf16,
 * so these are what stands between the kernel and a wrong answer. */
#include <math.h>
#include <string.h>

#include "family.h"
#include "half.h"
#include "select.h"
#include "test_caps.h"
#include "unit.h"

enum { M = 33, N = 47, K = 70 };   /* no multiple of the 16x16x16 fragment */

typedef enum { GOOD, AS_FP16, A_ULP_OFF, C_OFF } fault;

/* the value of bf16 bits by their definition (fp32's top half), independent of half.c */
static double bf16_value(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

/* C of the plan's 16-bit inputs, as a device with exact products and a wide accumulator computes it, with FAULT */
static void fill(const vkb_plan *p, fault f)
{
    const uint16_t *a = p->buf[0].host, *b = p->buf[1].host;
    float *c = (float *)p->buf[2].host;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int q = 0; q < K; q++) {
                uint16_t ab = a[i * K + q], bb = b[q * N + j];
                if (f == A_ULP_OFF && i == 5 && q == 0)
                    ab++;   /* one bf16 ulp (2^-8 relative) */
                s += f == AS_FP16 ? (double)vkb_half_to_float(ab) * vkb_half_to_float(bb)
                                  : bf16_value(ab) * bf16_value(bb);
            }
            c[i * N + j] = (float)s;
        }
}

static vkb_check run(fault f)
{
    const vkb_family *fam = vkb_family_find("matmul");
    const vkb_variant *v = vkb_variant_find(fam, "coopmat_khr_bf16");
    vkb_shape shape = {{M, N, K}};
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
    ASSERT(p.pass[0].spec[5] == 16 && p.pass[0].spec[7] == 16);   /* the bf16 fragment the device lists */
    fill(&p, f);
    if (f == C_OFF) {   /* one element off by 4 of its tolerances: the bound is the accumulation's */
        float *cc = (float *)p.buf[2].host;
        vkb_family_check(fam, v, &c, &p, &res);
        cc[17] += (float)(4 * res.tolerance + 1e-7);
    }
    vkb_family_check(fam, v, &c, &p, &res);
    fam->case_destroy(c.data);
    return res;
}

static void bf16_good(void)
{
    vkb_check r = run(GOOD);
    ASSERT(r.pass && r.checked == (uint64_t)M * N && strstr(r.method, "bf16 inputs"));
}

static void bf16_read_as_fp16(void) { ASSERT(!run(AS_FP16).pass); }
static void bf16_input_ulp(void) { ASSERT(!run(A_ULP_OFF).pass); }
static void bf16_c_off(void) { ASSERT(!run(C_OFF).pass); }

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
           {"bf16_c_off", bf16_c_off}, {"bf16_not_listed", bf16_not_listed})
