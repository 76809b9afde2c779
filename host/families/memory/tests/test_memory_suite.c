/* test_memory_suite.c - the memory families' points in the default suite (host/families/memory/memory.c) show their
 * rules: the fraction of the ceiling each rule predicts at the points, on a device of 32-lane subgroups, takes
 * the values that make the rule visible (stride: halving to a sector per word; offset: aligned, misaligned,
 * aligned again a line on; shared stride: each conflict degree and a conflict-free odd stride). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "families.h"
#include "selection.h"
#include "test_caps.h"
#include "unit.h"
#include "util.h"

static const vkb_family *family_named(const char *name)
{
    for (int i = 0; i < vkb_family_count; i++)
        if (strcmp(vkb_families[i]->name, name) == 0)
            return vkb_families[i];
    return NULL;
}

/* The predictions of FAMILY's ROW at each of its suite points on a CPU implementation with 32-lane subgroups (the
 * rules' geometry, at the CPU's small sizes) into OUT; returns the count. */
static int predictions(const char *family, const char *row, double *out, int max)
{
    const vkb_family *f = family_named(family);
    const vkb_variant *v = f ? vkb_variant_find(f, row) : NULL;
    vkb_caps caps = test_caps_gpu("test device", 132);
    vkb_shape s[VKB_MAX_SHAPES];
    int n;
    ASSERT(f && v && f->suite_shapes && f->predict);
    if (!f || !v || !f->suite_shapes || !f->predict)
        return 0;
    caps.is_cpu = 1;
    n = f->suite_shapes(&caps, 0, s, VKB_MAX_SHAPES);
    for (int i = 0; i < n && i < max; i++) {
        char why[200];
        vkb_case c = {f, s[i], f->case_create(&s[i], 1, why, sizeof why)};
        ASSERT(c.data != NULL);
        out[i] = c.data ? f->predict(v, &c, &caps) : NAN;
        f->case_destroy(c.data);
    }
    return n;
}

static void expect(const char *family, const char *row, const double *want, int nwant)
{
    double got[VKB_MAX_SHAPES];
    int n = predictions(family, row, got, VKB_MAX_SHAPES);
    ASSERT(n == nwant);
    for (int i = 0; i < n && i < nwant; i++) {
        if (!(fabs(got[i] - want[i]) < 1e-3))
            fprintf(stderr, "%s/%s at point %d: predicted %.4f, not %.4f\n", family, row, i, got[i], want[i]);
        ASSERT(fabs(got[i] - want[i]) < 1e-3);
    }
}

/* strides 1, 2, 4, 8, 32: the useful share halves until each word costs a 32-byte sector, then stays */
static void stride_halves(void)
{
    static const double want[] = {1, 0.5, 0.25, 0.125, 0.125};
    expect("memory.stride", "read", want, (int)VKB_COUNT(want));
}

/* offsets 0, 1, 32, 33 words: aligned, misaligned, aligned again one 128-byte line on, misaligned past it */
static void offset_aligns(void)
{
    static const double want[] = {1, 16.0 / 22, 1, 16.0 / 22};
    expect("memory.offset", "copy", want, (int)VKB_COUNT(want));
}

/* shared strides 2, 4, 8, 32, 33: conflict degrees 2, 4, 8, 32 and none */
static void shared_degrees(void)
{
    static const double want[] = {0.5, 0.25, 0.125, 1.0 / 32, 1};
    expect("memory.shared_stride", "read", want, (int)VKB_COUNT(want));
}

/* widths 4, 8 and 16 bytes: the coalescing rule predicts full speed for each (what it measures differs) */
static void every_width(void)
{
    static const double want[] = {1, 1, 1};
    expect("memory.width", "copy", want, (int)VKB_COUNT(want));
}

UNIT_TESTS({"stride_halves", stride_halves}, {"offset_aligns", offset_aligns}, {"shared_degrees", shared_degrees},
           {"every_width", every_width})
