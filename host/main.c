/* main.c - vkbench: subcommand dispatch (devices, list, run, validate, the default suite). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "cli.h"
#include "family.h"
#include "report.h"
#include "runner.h"
#include "util.h"

#ifndef VKB_VERSION
#define VKB_VERSION "0.0.0"
#endif

#define MAX_SHAPES 1024
/* the default suite must finish well under a minute: each family's first default shape, short budgets
 * (the first variant of the process still warms up in full: clocks ramp up) */
#define SUITE_BUDGET_MS 100
#define SUITE_WARMUP_MS 50

typedef struct app {
    vkb_args args;
    char command_line[1024];
    vkb_runner runner;
    FILE *table;          /* stdout, or stderr when JSON goes to stdout */
} app;

VKB_NORETURN static void usage_error(const char *fmt, const char *a, const char *b)
{
    char msg[600];
    snprintf(msg, sizeof msg, fmt, a, b);
    vkb_die(VKB_EXIT_USAGE, "%s (see vkbench --help)", msg);
}

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

static const char *family_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < vkb_family_count && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", vkb_families[i]->name);
    return buf;
}

/* The families the command names (all when none), checked. */
static int pick_families(const vkb_args *a, const vkb_family **out)
{
    char names[400];
    int n = 0;
    if (a->nfamilies == 0) {
        for (int i = 0; i < vkb_family_count; i++)
            out[i] = vkb_families[i];
        return vkb_family_count;
    }
    for (int i = 0; i < a->nfamilies; i++) {
        const vkb_family *f = vkb_family_find(a->families[i]);
        size_t len = strlen(a->families[i]);
        int found = f != NULL;
        if (f)
            out[n++] = f;
        /* a group: NAME selects every family named NAME.PART */
        for (int k = 0; !f && k < vkb_family_count && n < 64; k++)
            if (strncmp(vkb_families[k]->name, a->families[i], len) == 0 && vkb_families[k]->name[len] == '.') {
                out[n++] = vkb_families[k];
                found = 1;
            }
        if (!found)
            usage_error("unknown family '%s'; families: %s", a->families[i], family_names(names, sizeof names));
    }
    return n;
}

/* Every name in --variant must exist in one of the families. */
static void check_variant_names(const char *sel, const vkb_family *const *fams, int nfams)
{
    char buf[1024], *save = NULL, *item;
    if (!sel || strcmp(sel, "all") == 0)
        return;
    snprintf(buf, sizeof buf, "%s", sel);
    for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        int found = 0;
        char valid[800] = "";
        size_t used = 0;
        for (int i = 0; i < nfams; i++)
            for (int v = 0; v < fams[i]->nvariants; v++) {
                found |= vkb_cli_variant_selected(item, fams[i]->name, fams[i]->variants[v].name);
                if (used < sizeof valid)
                    used += (size_t)snprintf(valid + used, sizeof valid - used, "%s%s", used ? ", " : "",
                                             fams[i]->variants[v].name);
            }
        if (!found)
            usage_error("unknown variant '%s'; variants: %s", item, valid);
    }
}

static int dim_index(const char *name)
{
    for (int i = 0; i < VKB_DIM_COUNT; i++)
        if (strcmp(vkb_dim_flags[i], name) == 0)
            return i;
    return -1;
}

/* Shapes from the size flags (their cartesian product), else the family's defaults. */
static int shapes_for(const vkb_family *f, const vkb_args *a, const vkb_caps *caps, vkb_shape *out)
{
    vkb_shape defaults[MAX_SHAPES];
    const vkb_list *lists[VKB_MAX_DIMS];
    vkb_list fixed[VKB_MAX_DIMS];
    int given = 0, n = 0, idx[VKB_MAX_DIMS] = {0};
    for (int d = 0; d < VKB_DIM_COUNT; d++) {
        int used = d == VKB_DIM_SIZE;
        for (int k = 0; k < f->ndims; k++)
            used |= dim_index(f->dims[k]) == d;
        if (a->dims[d].n && !used)
            usage_error("%s takes no --%s", f->name, vkb_dim_flags[d]);
        given |= a->dims[d].n > 0;
    }
    if (!given)
        return f->default_shapes(caps, out, MAX_SHAPES);
    f->default_shapes(caps, defaults, MAX_SHAPES);
    for (int k = 0; k < f->ndims; k++) {
        int d = dim_index(f->dims[k]);
        if (a->dims[d].n) {
            lists[k] = &a->dims[d];
        } else if (a->dims[VKB_DIM_SIZE].n) {
            lists[k] = &a->dims[VKB_DIM_SIZE];
        } else {
            fixed[k].n = 1;
            fixed[k].v[0] = defaults[0].d[k];
            lists[k] = &fixed[k];
        }
    }
    for (;;) {
        int k;
        if (n == MAX_SHAPES)
            vkb_die(VKB_EXIT_USAGE, "more than %d shapes; give fewer sizes", MAX_SHAPES);
        memset(&out[n], 0, sizeof out[n]);
        for (k = 0; k < f->ndims; k++)
            out[n].d[k] = lists[k]->v[idx[k]];
        n++;
        for (k = f->ndims - 1; k >= 0; k--) {
            if (++idx[k] < lists[k]->n)
                break;
            idx[k] = 0;
        }
        if (k < 0)
            return n;
    }
}

static int sizes_given(const vkb_args *a)
{
    for (int d = 0; d < VKB_DIM_COUNT; d++)
        if (a->dims[d].n)
            return 1;
    return 0;
}

static void write_json_file(app *ap)
{
    char tmp[1100];
    FILE *f;
    snprintf(tmp, sizeof tmp, "%s.tmp", ap->args.json_path);
    f = fopen(tmp, "w");
    if (!f)
        vkb_die(VKB_EXIT_USAGE, "cannot write %s", tmp);
    vkb_report_json(f, ap->command_line, ap->runner.all, ap->runner.nall, &ap->runner.results);
    fclose(f);
    if (rename(tmp, ap->args.json_path) != 0)
        vkb_die(VKB_EXIT_USAGE, "cannot write %s", ap->args.json_path);
}

/* Progress on stderr: a bar with the case and the time left on a terminal, plain lines otherwise. */
static void show_progress(const vkb_runner *r, const vkb_result *res)
{
    static double start;
    char shape[64], bar[21];
    double now = vkb_now_ns(), left;
    int done = r->progress_done, total = r->progress_total > done ? r->progress_total : done;
    if (!start)
        start = now;
    left = done ? (now - start) / done * (total - done) / 1e9 : 0;
    vkb_shape_text(res->family, &res->shape, shape, sizeof shape);
    if (isatty(2)) {
        for (int i = 0; i < 20; i++)
            bar[i] = i < 20 * done / total ? '#' : '.';
        bar[20] = 0;
        fprintf(stderr, "\r\033[K[%s] %d/%d %s/%s %s %s, %.0f s left", bar, done, total, res->family->name,
                res->variant->name, res->backend, shape, left);
        if (done == total)
            fputs("\r\033[K", stderr);
    } else {
        fprintf(stderr, "vkbench: [%d/%d] %s/%s %s %s %s\n", done, total, res->family->name, res->variant->name,
                res->backend, shape, res->status == VKB_RES_OK ? "ok" : res->status == VKB_RES_FAIL ? "FAIL" : "skip");
    }
    fflush(stderr);
}

static void on_result(vkb_runner *r, const vkb_result *res, void *user)
{
    app *ap = user;
    /* the JSON file is rewritten whole after each result: an interrupted run keeps valid JSON */
    if (ap->args.json_path && strcmp(ap->args.json_path, "-") != 0)
        write_json_file(ap);
    if (!vkb_quiet)
        show_progress(r, res);
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
            t->budget_ms = SUITE_BUDGET_MS;
        if (ap->args.warmup_ms < 0 && strcmp(ap->args.command, "suite") == 0)
            t->warmup_ms = t->warmup_ms < SUITE_WARMUP_MS ? t->warmup_ms : SUITE_WARMUP_MS;
    }
}

/* The shapes a command runs F at: `validate` the family's battery; `run` the size flags or the
 * defaults; the default suite only the first default shape (it must finish well under a minute). */
static int command_shapes(const app *ap, const vkb_family *f, int timed, vkb_shape *shapes)
{
    if (!timed)
        return f->battery(shapes, MAX_SHAPES);
    if (strcmp(ap->args.command, "suite") == 0 && !sizes_given(&ap->args)) {
        f->default_shapes(&ap->runner.backends[0]->caps, shapes, MAX_SHAPES);
        return 1;
    }
    return shapes_for(f, &ap->args, &ap->runner.backends[0]->caps, shapes);
}

static int run_command(app *ap)
{
    const vkb_family *fams[64];
    static vkb_shape shapes[MAX_SHAPES];
    vkb_runner *r = &ap->runner;
    int timed = strcmp(ap->args.command, "validate") != 0;
    int nfams = pick_families(&ap->args, fams);
    int failed = 0;
    unsigned messages;

    check_variant_names(ap->args.variants, fams, nfams);
    open_backends(ap, timed);
    r->timed = timed;
    r->seed = ap->args.seed;
    r->spec = ap->args.spec;
    r->nspec = ap->args.nspec;
    r->on_result = on_result;
    r->user = ap;
    ap->table = ap->args.json_path && strcmp(ap->args.json_path, "-") == 0 ? stderr : stdout;

    for (int i = 0; i < nfams; i++) {
        int nsel = 0, nshape = command_shapes(ap, fams[i], timed, shapes);
        for (int v = 0; v < fams[i]->nvariants; v++)
            nsel += vkb_cli_variant_selected(ap->args.variants, fams[i]->name, fams[i]->variants[v].name) ||
                    (timed && (fams[i]->variants[v].flags & VKB_VAR_CEILING));
        r->progress_total += nshape * nsel * r->nbackends;
    }
    for (int i = 0; i < nfams; i++) {
        const vkb_family *f = fams[i];
        int selected[64], any = 0, first = r->results.n;
        int n = command_shapes(ap, f, timed, shapes);
        for (int v = 0; v < f->nvariants; v++)
            any |= selected[v] = vkb_cli_variant_selected(ap->args.variants, f->name, f->variants[v].name);
        if (!any)
            continue;
        for (int s = 0; s < n; s++) {
            vkb_runner_family_shape(r, f, selected, &shapes[s]);
            if (ap->args.json_path && strcmp(ap->args.json_path, "-") != 0)
                write_json_file(ap); /* again, now with the ceilings attached */
        }
        if (timed)
            vkb_report_table(ap->table, r->results.r, first, r->results.n, r->nbackends > 1);
        else
            vkb_report_matrix(ap->table, r->results.r, first, r->results.n);
        fflush(ap->table);
    }
    for (int i = 0; i < r->results.n; i++)
        failed |= r->results.r[i].status == VKB_RES_FAIL;

    if (ap->args.json_path && strcmp(ap->args.json_path, "-") == 0)
        vkb_report_json(stdout, ap->command_line, r->all, r->nall, &r->results);
    if (ap->args.csv_path) {
        FILE *csv = fopen(ap->args.csv_path, "w");
        if (!csv)
            vkb_die(VKB_EXIT_USAGE, "cannot write %s", ap->args.csv_path);
        vkb_report_csv(csv, &r->results);
        fclose(csv);
    }
    messages = vkb_vulkan_validation_messages();
    for (int i = 0; i < r->nall; i++)
        r->all[i]->destroy(r->all[i]);
    vkb_results_free(&r->results);
    if (messages) {
        vkb_warn("the validation layer reported %u message%s: failing the run", messages, messages == 1 ? "" : "s");
        return VKB_EXIT_MISMATCH;
    }
    if (failed)
        vkb_warn("some results failed validation (FAIL rows above)");
    return failed ? VKB_EXIT_MISMATCH : VKB_EXIT_OK;
}

int main(int argc, char **argv)
{
    static app ap;
    char err[400];
    size_t used = 0;
    int rc;

    for (int i = 0; i < argc && used < sizeof ap.command_line; i++)
        used += (size_t)snprintf(ap.command_line + used, sizeof ap.command_line - used, "%s%s", i ? " " : "", argv[i]);
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
