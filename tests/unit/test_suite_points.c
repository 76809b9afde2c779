/* test_suite_points.c - the default suite's points of every family that declares them (vkb_family.suite_shapes),
 * planned without a device or inputs: on a GPU every row of a family measured against a copy of device memory
 * moves at least the suite's working set past the cache, on a small GPU every row fits a quarter of its memory,
 * on a CPU implementation the points keep the family's default size; and the suite's selection runs exactly the
 * points the family declares. */
#include <string.h>

#include "families.h"
#include "select.h"
#include "test_caps.h"
#include "unit.h"
#include "util.h"

#define MIB (1024.0 * 1024.0)

/* A GPU with CACHE bytes of last-level cache (0: unknown) and MEMORY bytes of device memory. */
static vkb_caps gpu(uint64_t cache, uint64_t memory)
{
    vkb_caps c = test_caps_gpu("test device", 132);
    c.cache_bytes = cache;
    c.device_memory_bytes = memory;
    return c;
}

/* Whether F has a ceiling that copies device memory (an API-copy row): then its points measure memory. */
static int measures_memory(const vkb_family *f)
{
    for (int v = 0; v < f->nvariants; v++)
        if (f->variants[v].flags & VKB_VAR_API_COPY)
            return 1;
    return 0;
}

/* The least and the most bytes any row of F plans at S on CAPS; every row plans or is skipped. */
static void row_bytes(const vkb_family *f, const vkb_shape *s, const vkb_caps *caps, double *least, double *most)
{
    static vkb_plan p;
    *least = 1e300, *most = 0;
    for (int v = 0; v < f->nvariants; v++) {
        vkb_case c = {f, *s, NULL};
        char why[200];
        int code = vkb_family_plan(f, &f->variants[v], &c, caps, &p, why, sizeof why);
        if (code != VKB_PLAN_OK && code != VKB_PLAN_SKIP)
            fprintf(stderr, "%s/%s: %s\n", f->name, f->variants[v].name, why);
        ASSERT(code == VKB_PLAN_OK || code == VKB_PLAN_SKIP);
        if (code != VKB_PLAN_OK)
            continue;
        if ((double)vkb_plan_bytes(&p) < *least)
            *least = (double)vkb_plan_bytes(&p);
        if ((double)vkb_plan_bytes(&p) > *most)
            *most = (double)vkb_plan_bytes(&p);
    }
}

/* On a GPU (60 MiB of cache, as the H200 reports; and one whose cache is unknown, 256 MiB assumed), every row of
 * every point of a memory-measuring family has a working set of at least PAST: none measures the cache. */
static void past_the_cache(void)
{
    const struct {
        uint64_t cache;
        double past;
    } gpus[] = {{60 * 1048576ull, 120 * MIB}, {0, 256 * MIB}};
    int checked = 0;
    for (size_t g = 0; g < VKB_COUNT(gpus); g++) {
        vkb_caps caps = gpu(gpus[g].cache, 141ull << 30);
        for (int fi = 0; fi < vkb_family_count; fi++) {
            const vkb_family *f = vkb_families[fi];
            vkb_shape s[VKB_MAX_SHAPES];
            int n = f->suite_shapes ? f->suite_shapes(&caps, gpus[g].past, s, VKB_MAX_SHAPES) : 0;
            ASSERT(n >= 0 && n <= VKB_MAX_SHAPES);
            for (int i = 0; i < n && measures_memory(f); i++) {
                double least, most;
                row_bytes(f, &s[i], &caps, &least, &most);
                if (least < gpus[g].past)
                    fprintf(stderr, "%s at point %d: a row moves %.0f MiB\n", f->name, i, least / MIB);
                ASSERT(least >= gpus[g].past);
                checked++;
            }
        }
    }
    ASSERT(checked > 0); /* the memory families declare points */
}

/* On a GPU of 1 GiB (60 MiB of cache) every row of every point fits a quarter of its memory: the suite runs on any
 * device, its largest points held below the cache rule there. */
static void fits_a_small_gpu(void)
{
    vkb_caps caps = gpu(60 * 1048576ull, 1ull << 30);
    for (int fi = 0; fi < vkb_family_count; fi++) {
        const vkb_family *f = vkb_families[fi];
        vkb_shape s[VKB_MAX_SHAPES];
        int n = f->suite_shapes ? f->suite_shapes(&caps, 120 * MIB, s, VKB_MAX_SHAPES) : 0;
        for (int i = 0; i < n; i++) {
            double least, most;
            row_bytes(f, &s[i], &caps, &least, &most);
            ASSERT(most <= (double)caps.device_memory_bytes / 4);
        }
    }
}

/* On a CPU implementation the points keep the family's default size (its first default shape's first dim): the
 * suite there is sized for time, not for a cache. */
static void cpu_default_size(void)
{
    vkb_caps caps = gpu(0, 0);
    caps.is_cpu = 1;
    for (int fi = 0; fi < vkb_family_count; fi++) {
        const vkb_family *f = vkb_families[fi];
        vkb_shape s[VKB_MAX_SHAPES], d[VKB_MAX_SHAPES];
        int n = f->suite_shapes ? f->suite_shapes(&caps, 0, s, VKB_MAX_SHAPES) : 0;
        ASSERT(!f->suite_shapes || (n > 0 && f->default_shapes(&caps, d, VKB_MAX_SHAPES) > 0));
        for (int i = 0; i < n; i++)
            ASSERT(s[i].d[0] == d[0].d[0]);
    }
}

static int parse(vkb_args *a, const char *line)
{
    static char buf[200]; /* the args point into it */
    char *argv[8], *save = NULL, err[300];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *t = strtok_r(buf, " ", &save); t && argc < 7; t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    argv[argc] = NULL;
    memset(a, 0, sizeof *a);
    return vkb_cli_parse(argc, argv, a, err, sizeof err);
}

/* `vkbench` (the suite) runs each declaring family at its declared points, in their order, given twice the
 * device's cache (unknown: 256 MiB; a CPU implementation: 0); every other family at one shape. */
static void selection_runs_them(void)
{
    const struct {
        uint64_t cache;
        int is_cpu;
        double past;
    } devices[] = {{60 * 1048576ull, 0, 120 * MIB}, {0, 0, 256 * MIB}, {60 * 1048576ull, 1, 0}};
    int declared = 0;
    for (size_t k = 0; k < VKB_COUNT(devices); k++) {
        vkb_args a;
        vkb_selection sel;
        vkb_caps caps = gpu(devices[k].cache, 141ull << 30);
        char err[300];
        caps.is_cpu = devices[k].is_cpu;
        ASSERT(parse(&a, "vkbench") == 0 && strcmp(a.command, "suite") == 0);
        ASSERT(vkb_selection_families(&a, &sel, err, sizeof err) == 0);
        ASSERT(vkb_selection_shapes(&a, &caps, &sel, err, sizeof err) == 0);
        for (int i = 0; i < sel.nfams; i++) {
            const vkb_family *f = sel.fam[i].family;
            vkb_shape want[VKB_MAX_SHAPES];
            int n = f->suite_shapes ? f->suite_shapes(&caps, devices[k].past, want, VKB_MAX_SHAPES) : 1;
            declared += f->suite_shapes != NULL;
            ASSERT(sel.fam[i].nshapes == n);
            for (int j = 0; f->suite_shapes && j < n && j < sel.fam[i].nshapes; j++)
                ASSERT(memcmp(&sel.fam[i].shapes[j], &want[j], sizeof want[j]) == 0);
        }
        vkb_selection_free(&sel);
    }
    ASSERT(declared > 0);
}

UNIT_TESTS({"past_the_cache", past_the_cache}, {"fits_a_small_gpu", fits_a_small_gpu},
           {"cpu_default_size", cpu_default_size}, {"selection_runs_them", selection_runs_them})
