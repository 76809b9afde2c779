/* main.c - vkbench: subcommand dispatch (devices, list, run, validate, the default suite). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "cache_probe.h"
#include "cli.h"
#include "family.h"
#include "runner.h"
#include "selection.h"
#include "sinks.h"
#include "util.h"

#ifndef VKB_VERSION
#define VKB_VERSION "0.0.0"
#endif

/* the default suite must finish in about 30 s on an H100: each family's first default shape, short budgets.
 * The first variant of the process still warms up in full (clocks ramp up); after it the GPU is kept busy by
 * the checked runs between timings, and a variant's warm-up still goes on until two batches agree within 2%
 * (timing.c): 10 ms instead of 50 saved 6 s of the H100 suite's 9.5 s of warm-up (docs/performance.md) */
#define SUITE_BUDGET_MS 100
#define SUITE_WARMUP_MS 10
/* on a CPU implementation (lavapipe) a kernel run takes milliseconds: 100 ms buys a handful of repetitions
 * and 50 ms about half as many, for 2-4 s less of the suite's ~10 s on two cores */
#define SUITE_BUDGET_CPU_MS 50

typedef struct app {
    vkb_args args;
    char *command_line;   /* argv joined, whole */
    vkb_runner runner;
} app;

static void list_families(void)
{
    for (int i = 0; i < vkb_family_count; i++) {
        const vkb_family *f = vkb_families[i];
        printf("%s: %s [%s; sizes:", f->name, f->summary, f->metric);
        for (int d = 0; d < f->ndims; d++)
            printf(" --%s", f->dims[d]);
        printf("]\n");
        for (int v = 0; v < f->nvariants; v++) {
            const vkb_variant *var = &f->variants[v];
            printf("  %-22s %s%s%s\n", var->name, var->flags & VKB_VAR_CEILING ? "(ceiling) " : "",
                   var->flags & VKB_VAR_NONDETERMINISTIC ? "(nondeterministic) " : "", var->note);
        }
    }
}

static void open_backends(app *ap, int timed)
{
    const char *which = ap->args.backend;
    vkb_runner *r = &ap->runner;
    vkb_backend *vk = NULL, *cu = NULL;
    char why[300] = "";
    int want_vk = !which || strcmp(which, "cuda") != 0;
    int want_cu = which && strcmp(which, "vulkan") != 0;
    int suite = strcmp(ap->args.command, "suite") == 0;

    if (want_vk)
        vk = vkb_vulkan_open(ap->args.device, ap->args.validation);
    /* CUDA: when asked; for the suite when present; for timed runs as the home of vendor ceilings */
    if (want_cu || suite || timed) {
        cu = vkb_cuda_open(vk ? &vk->caps : NULL, why, sizeof why);
        if (!cu && want_cu)
            vkb_die(VKB_EXIT_NO_DEVICE, "the CUDA backend is not available: %s", why);
        if (cu && vk && memcmp(cu->caps.uuid, vk->caps.uuid, 16) != 0) {
            /* not the same GPU: its numbers would not be comparable */
            if (want_cu)
                vkb_die(VKB_EXIT_NO_DEVICE, "no CUDA device is the Vulkan device %s; pick the GPU with --device",
                        vk->caps.name);
            cu->destroy(cu);
            cu = NULL;
        }
    }
    if (vk && cu) {
        /* one GPU seen by two APIs: what Vulkan cannot tell (L2 size, SM count) CUDA can */
        if (!vk->caps.cache_bytes)
            vk->caps.cache_bytes = cu->caps.cache_bytes;
        if (!vk->caps.compute_units)
            vk->caps.compute_units = cu->caps.compute_units;
    }
    if (vk && timed && !ap->args.dry_run)
        vkb_cache_measure(vk);
    if (vk) {
        r->backends[r->nbackends++] = vk;
        r->all[r->nall++] = vk;
    }
    if (cu) {
        if (want_cu || suite)
            r->backends[r->nbackends++] = cu;
        r->all[r->nall++] = cu;
    }
    for (int i = 0; i < r->nall; i++) {
        vkb_timing *t = &r->timing[i];
        vkb_timing_defaults(t, &r->all[i]->caps);
        t->reps = ap->args.reps;
        t->cold = ap->args.cold;
        if (ap->args.warmup_ms >= 0)
            t->warmup_ms = t->first_warmup_ms = ap->args.warmup_ms;
        if (ap->args.budget_ms >= 0)
            t->budget_ms = ap->args.budget_ms;
        else if (strcmp(ap->args.command, "suite") == 0)
            t->budget_ms = r->all[i]->caps.is_cpu ? SUITE_BUDGET_CPU_MS : SUITE_BUDGET_MS;
        if (ap->args.warmup_ms < 0 && strcmp(ap->args.command, "suite") == 0)
            t->warmup_ms = t->warmup_ms < SUITE_WARMUP_MS ? t->warmup_ms : SUITE_WARMUP_MS;
    }
}

/* --spec as given: "BM=64,TN=4". */
static const char *spec_text(const vkb_args *a, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < a->nspec && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s=%u", i ? "," : "", a->spec[i].name, a->spec[i].value);
    return buf;
}

/* The work plan of a dry run on stdout: the totals, then each family's shapes and variants. */
static void print_plan(const vkb_selection *sel, const vkb_run_plan *plan, const vkb_runner *r)
{
    char text[160];
    printf("%s\n", vkb_plan_text(plan, text, sizeof text));
    for (int i = 0; i < sel->nfams; i++) {
        char shape[64];
        int cases = 0;
        for (int w = 0; w < r->nwork; w++)
            cases += r->work[w].fam == i;
        printf("  %-24s %4d shape%s (%s%s), %d cases\n", sel->fam[i].family->name, sel->fam[i].nshapes,
               sel->fam[i].nshapes == 1 ? " " : "s", vkb_shape_text(sel->fam[i].family, &sel->fam[i].shapes[0], shape,
               sizeof shape), sel->fam[i].nshapes > 1 ? ", ..." : "", cases);
    }
    printf("every case fits the device's limits; nothing was run (--dry-run)\n");
}

static int run_command(app *ap)
{
    vkb_selection sel;
    vkb_run_plan plan;
    vkb_run_settings set;
    vkb_sink *sinks[4];
    int nsinks = 0;
    vkb_runner *r = &ap->runner;
    int timed = strcmp(ap->args.command, "validate") != 0;
    int failed = 0, suspect = 0, rc;
    unsigned messages;
    char err[600], spec[400];

    if (vkb_selection_families(&ap->args, &sel, err, sizeof err))
        vkb_die(VKB_EXIT_USAGE, "%s (see vkbench --help)", err);
    /* result files first: a path that cannot be written fails before any work (a dry run writes none) */
    if (!ap->args.dry_run) {
        const char *json = ap->args.json_path, *csv = ap->args.csv_path;
        FILE *table = (json && strcmp(json, "-") == 0) || (csv && strcmp(csv, "-") == 0) ? stderr : stdout;
        if (!vkb_quiet)
            sinks[nsinks++] = vkb_sink_progress_create();
        sinks[nsinks++] = timed ? vkb_sink_table_create(table, vkb_table_width(ap->args.wide))
                                : vkb_sink_matrix_create(table, vkb_table_width(ap->args.wide));
        if (json)
            sinks[nsinks++] = vkb_sink_json_create(json);
        if (csv)
            sinks[nsinks++] = vkb_sink_csv_create(csv);
    }
    open_backends(ap, timed);
    if (vkb_selection_shapes(&ap->args, &r->backends[0]->caps, &sel, err, sizeof err))
        vkb_die(VKB_EXIT_USAGE, "%s", err);
    r->timed = timed;
    r->seed = ap->args.seed;
    r->spec = ap->args.spec;
    r->nspec = ap->args.nspec;
    vkb_runner_plan(r, &sel, &plan);
    vkb_runner_preflight(r, &sel, &plan);
    if (ap->args.dry_run) {
        print_plan(&sel, &plan, r);
        for (int i = 0; i < r->nall; i++)
            r->all[i]->destroy(r->all[i]);
        vkb_runner_free(r);
        vkb_selection_free(&sel);
        return VKB_EXIT_OK;
    }

    memset(&set, 0, sizeof set);
    set.command = ap->args.command;
    set.command_line = ap->command_line;
    set.seed = ap->args.seed;
    set.timed = timed;
    set.cold = ap->args.cold;
    set.warmup_ms = r->timing[0].warmup_ms;
    set.first_warmup_ms = r->timing[0].first_warmup_ms;
    set.budget_ms = r->timing[0].budget_ms;
    set.reps = ap->args.reps;
    set.spec = ap->args.nspec ? spec_text(&ap->args, spec, sizeof spec) : NULL;
    set.paired = r->nbackends > 1;
    r->sinks = sinks;
    r->nsinks = nsinks;
    rc = vkb_runner_run(r, &sel, &set, &plan);
    for (int i = 0; i < nsinks; i++)
        vkb_sink_destroy(sinks[i]);

    for (int i = 0; i < r->results.n; i++) {
        failed |= r->results.r[i].status == VKB_RES_FAIL;
        suspect |= r->results.r[i].suspect;
    }
    messages = vkb_vulkan_validation_messages();
    for (int i = 0; i < r->nall; i++)
        r->all[i]->destroy(r->all[i]);
    vkb_runner_free(r);
    vkb_selection_free(&sel);
    if (rc)
        return rc;
    if (messages) {
        vkb_warn("the validation layer reported %u message%s: failing the run", messages, messages == 1 ? "" : "s");
        return VKB_EXIT_MISMATCH;
    }
    if (failed)
        vkb_warn("some results failed validation (FAIL rows above)");
    if (suspect)
        vkb_warn("some timings are suspect: a metric above a physical bound (SUSPECT rows above)");
    return failed || suspect ? VKB_EXIT_MISMATCH : VKB_EXIT_OK;
}

/* argv joined by spaces, whole (the JSON records it). */
static char *join_args(int argc, char **argv)
{
    size_t len = 1, used = 0;
    char *s;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    s = vkb_alloc(len);
    s[0] = 0;
    for (int i = 0; i < argc; i++)
        used += (size_t)snprintf(s + used, len - used, "%s%s", i ? " " : "", argv[i]);
    return s;
}

int main(int argc, char **argv)
{
    static app ap;
    char err[400];
    int rc;

    ap.command_line = join_args(argc, argv);
    rc = vkb_cli_parse(argc, argv, &ap.args, err, sizeof err);
    if (rc < 0)
        vkb_die(VKB_EXIT_USAGE, "%s (see vkbench --help)", err);
    if (rc > 0) {
        if (strstr(ap.command_line, "--version"))
            printf("vkbench %s\n", VKB_VERSION);
        return VKB_EXIT_OK;
    }
    vkb_quiet = ap.args.quiet;
    vkb_verbose = ap.args.verbose;
    if (ap.args.sass_dir)
        vkb_mc_open(ap.args.sass_dir);

    if (strcmp(ap.args.command, "list") == 0) {
        list_families();
        return VKB_EXIT_OK;
    }
    if (strcmp(ap.args.command, "devices") == 0) {
        char why[300];
        vkb_backend *cu;
        vkb_vulkan_list_devices();
        cu = vkb_cuda_open(NULL, why, sizeof why);
        if (cu) {
            printf("cuda: %s (%s), %u SMs, L2 %llu KiB\n", cu->caps.name, cu->caps.driver, cu->caps.compute_units,
                   (unsigned long long)(cu->caps.cache_bytes >> 10));
            cu->destroy(cu);
        } else {
            printf("cuda: not available (%s)\n", why);
        }
        return VKB_EXIT_OK;
    }
    return run_command(&ap);
}
