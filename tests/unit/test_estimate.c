/* test_estimate.c - the run's time estimate counts the CPU checks of large products (preflight.c, work_list.c):
 * matmul's rows planned at 4096^3 on a fake device with tensor-core fragments, no device run. A tensor-core row adds
 * its own pass over C and its input type's reference; a row that shares a reference (the same inputs: the _acc16
 * rows and the fp16 ones, both backends, the int8 rows, a later round) adds its pass alone; each shape makes its
 * own; a product checked element by element adds its dot products and the register-only peak nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "matmul/matmul_s8_check.h"
#include "product_check.h"
#include "runner.h"
#include "select.h"
#include "test_caps.h"
#include "unit.h"

/* a GPU like the H100 as the tensor-core plans see it: subgroup fragments of 16x16x16 (fp16, bf16) and 16x16x32
 * (int8), workgroup-scope matrices of 16x16x16 (fp16, int8) */
static vkb_caps tc_caps(void)
{
    vkb_caps c = test_caps_gpu("tensor-core device", 132);
    c.features = ~0u;
    for (int i = 0; i < 3; i++)
        c.coopmat_khr[i] = c.coopmat_khr16[i] = 16;
    c.coopmat_types[c.ncoopmat_types++] =
        (vkb_coopmat_type){16, 16, 16, VKB_CT_BF16, VKB_CT_BF16, VKB_CT_F32, VKB_CT_F32, VKB_SCOPE_SUBGROUP, 0};
    c.coopmat_types[c.ncoopmat_types++] =
        (vkb_coopmat_type){16, 16, 32, VKB_CT_S8, VKB_CT_S8, VKB_CT_S32, VKB_CT_S32, VKB_SCOPE_SUBGROUP, 0};
    for (int i = 0; i < 3; i++) /* and workgroup-scope ones (VK_NV_cooperative_matrix2) of 16 x 16 x 16 */
        c.coopmat2_granularity[i] = 16;
    c.coopmat2_types[c.ncoopmat2_types++] =
        (vkb_coopmat_type){16, 16, 16, VKB_CT_S8, VKB_CT_S8, VKB_CT_S32, VKB_CT_S32, VKB_SCOPE_WORKGROUP, 0};
    return c;
}

/* The estimate's CPU checks for matmul's rows NAMES (comma-separated) at the cubic SIDES (NSIDES), on Vulkan (and
 * CUDA with BOTH), REPEAT rounds, as `validate` plans them: the rows named and no others. */
static double checks_s(const char *names, const int64_t *sides, int nsides, int both, int repeat)
{
    static vkb_backend vk, cu;
    const vkb_family *fam = vkb_family_find("matmul");
    vkb_runner r;
    vkb_selection sel = {calloc(1, sizeof *sel.fam), 1};
    vkb_run_plan plan;
    char err[600], list[256];
    memset(&r, 0, sizeof r);
    vk = (vkb_backend){.name = "vulkan", .caps = tc_caps()};
    cu = (vkb_backend){.name = "cuda", .caps = tc_caps()};
    r.backends[r.nbackends++] = r.all[r.nall++] = &vk;
    if (both)
        r.backends[r.nbackends++] = r.all[r.nall++] = &cu;
    for (int i = 0; i < r.nall; i++)
        r.timing[i] = (vkb_timing){.reps = 3};
    r.repeat = repeat;
    sel.fam[0].family = fam;
    sel.fam[0].selected = calloc((size_t)fam->nvariants, 1);
    snprintf(list, sizeof list, ",%s,", names);
    for (int v = 0; v < fam->nvariants; v++) {
        char name[80];
        snprintf(name, sizeof name, ",%s,", fam->variants[v].name);
        sel.fam[0].selected[v] = strstr(list, name) != NULL;
    }
    sel.fam[0].shapes = calloc((size_t)nsides, sizeof *sel.fam[0].shapes);
    sel.fam[0].nshapes = nsides;
    for (int s = 0; s < nsides; s++)
        sel.fam[0].shapes[s] = (vkb_shape){{sides[s], sides[s], sides[s]}};
    vkb_runner_plan(&r, &sel, &plan);
    ASSERT(vkb_runner_preflight(&r, &sel, &plan, err, sizeof err) == 0);
    ASSERT(plan.check_s <= plan.estimate_s);
    vkb_runner_free(&r);
    vkb_selection_free(&sel);
    return plan.check_s;
}

static double one(const char *names)
{
    static const int64_t side = 4096;
    return checks_s(names, &side, 1, 0, 0);
}

static int near(double x, double y)
{
    return fabs(x - y) <= 1e-9 * fabs(y) && y > 0;
}

/* seconds of the float reference and of a pass over C at SIDE^3; of the int8 ones (counted as 2.5 double ones) */
static double ref_s(int64_t side)
{
    return vkb_runner_check_seconds(vkb_product_ref_macs(side, side, side));
}
static double pass_s(int64_t side)
{
    return vkb_runner_check_seconds(vkb_product_check_macs(side, side, side));
}

/* dbuf's fp32 check is a reference and a pass; coopmat_khr, a tensor-core row of fp16 inputs, adds a reference of
 * its own and its pass, and so do the bf16 and int8 rows, each of its own inputs */
static void tensor_core_row_adds(void)
{
    setenv("VKB_THREADS", "16", 1);
    ASSERT(near(one("dbuf"), ref_s(4096) + pass_s(4096)));
    ASSERT(near(one("dbuf,coopmat_khr") - one("dbuf"), ref_s(4096) + pass_s(4096)));
    ASSERT(one("dbuf,coopmat_khr") - one("dbuf") > 0.1); /* 4.8e9 multiply-adds: a tenth of a second at least */
    ASSERT(near(one("coopmat_khr_bf16"), ref_s(4096) + pass_s(4096)));
    ASSERT(near(one("coopmat_khr_s8"), vkb_runner_check_seconds(2.5 * (vkb_mm_s8_ref_macs(4096, 4096, 4096) +
                                                                       vkb_mm_s8_check_macs(4096, 4096, 4096)))));
    unsetenv("VKB_THREADS");
}

/* a reference its rows share is counted once: the _acc16 row on the fp16 rows', the fp16 rows among themselves,
 * both backends (one case), the int8 rows, the rounds of --repeat; two shapes make two */
static void reused_reference_once(void)
{
    static const int64_t sides[2] = {4096, 2048}, side = 4096;
    setenv("VKB_THREADS", "16", 1);
    ASSERT(near(one("coopmat_khr,coopmat_khr_acc16"), ref_s(4096) + 2 * pass_s(4096)));
    ASSERT(near(one("coopmat_khr,coopmat2,coopmat2_staged"), ref_s(4096) + 3 * pass_s(4096)));
    ASSERT(near(checks_s("coopmat_khr", &side, 1, 1, 0), ref_s(4096) + 2 * pass_s(4096)));
    ASSERT(near(one("coopmat_khr_s8,coopmat_khr_s8_kmajor,coopmat2_s8"),
                vkb_runner_check_seconds(
                    2.5 * (vkb_mm_s8_ref_macs(4096, 4096, 4096) + 3 * vkb_mm_s8_check_macs(4096, 4096, 4096)))));
    ASSERT(near(checks_s("coopmat_khr", &side, 1, 0, 3), one("coopmat_khr")));
    ASSERT(near(checks_s("coopmat_khr", sides, 2, 0, 0), ref_s(4096) + pass_s(4096) + ref_s(2048) + pass_s(2048)));
    /* every input type once: fp32, fp16 (shared by _acc16), bf16, int8 */
    ASSERT(near(one("dbuf,coopmat_khr,coopmat_khr_acc16,coopmat_khr_bf16,coopmat_khr_s8"),
                3 * ref_s(4096) + 4 * pass_s(4096) + one("coopmat_khr_s8")));
    unsetenv("VKB_THREADS");
}

/* a product of at most 2^27 multiply-adds: every element's dot product (its sum and sum of |a b|), no reference;
 * the register-only peak: nothing */
static void small_and_peak(void)
{
    static const int64_t side = 256;
    setenv("VKB_THREADS", "16", 1);
    ASSERT(near(checks_s("dbuf,coopmat_khr", &side, 1, 0, 0), 2 * vkb_runner_check_seconds(2.0 * 256 * 256 * 256)));
    ASSERT(one("tc_peak,tc_peak_acc16") == 0);
    unsetenv("VKB_THREADS");
}

UNIT_TESTS({"tensor_core_row_adds", tensor_core_row_adds}, {"reused_reference_once", reused_reference_once},
           {"small_and_peak", small_and_peak})
