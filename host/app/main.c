/* main.c - vkbench: subcommand dispatch (devices, list, run, validate, peaks, health, the default suite). */
#define _GNU_SOURCE /* pthread_setattr_default_np */
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "build_info.h"
#include "cache_probe.h"
#include "cli.h"
#include "check.h"
#include "cuda.h"
#include "fault.h"
#include "health.h"
#include "devices.h"
#include "devices_view.h"
#include "env.h"
#include "family.h"
#include "identity.h"
#include "listing.h"
#include "machine_code.h"
#include "outfile.h"
#include "runner.h"
#include "select.h"
#include "signals.h"
#include "sinks.h"
#include "util.h"
#include "warmup.h"
#include "vulkan.h"

#ifndef VKB_VERSION
#define VKB_VERSION "0.0.0"
#endif

/* the default suite must finish in about 30 s on an H100: each family at one default shape (the memory rules at
 * their few points), short budgets.
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
    char *command_line; /* argv joined, whole */
    vkb_runner runner;
    vkb_health *health; /* `vkbench health`: the node's GPUs, judged after the battery ran on them */
} app;

static void open_backends(app *ap, int timed)
{
    const char *which = ap->args.backend;
    vkb_runner *r = &ap->runner;
    vkb_backend *vk = NULL, *cu = NULL;
    char why[300] = "";
    int want_vk = !which || strcmp(which, "cuda") != 0;
    int want_cu = which && strcmp(which, "vulkan") != 0;
    int suite = strcmp(ap->args.command, "suite") == 0;
    int short_budgets = suite || strcmp(ap->args.command, "peaks") == 0; /* a short command, as clpeak's */

    if (want_vk) {
        vkb_backend_error error = {0};
        vk = vkb_vulkan_open(ap->args.device, ap->args.validation, ap->args.robustness_off, &error);
        if (!vk)
            vkb_die((vkb_exit)error.code, "%s", error.message);
    }
    if (vk && ap->args.subgroup_size && vkb_vulkan_require_subgroup_size(vk, ap->args.subgroup_size, why, sizeof why))
        vkb_die(VKB_EXIT_RESOURCE, "--subgroup-size %u: %s", ap->args.subgroup_size, why);
    r->subgroup_size = ap->args.subgroup_size;
    r->robustness_off = ap->args.robustness_off;
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
        cu->caps.index = vk->caps.index; /* one GPU: one identity */
        memcpy(cu->caps.pci_bus, vk->caps.pci_bus, sizeof cu->caps.pci_bus);
        /* one GPU seen by two APIs: what Vulkan cannot tell (L2 size, SM count) CUDA can */
        if (!vk->caps.cache_bytes)
            vk->caps.cache_bytes = cu->caps.cache_bytes;
        if (!vk->caps.compute_units)
            vk->caps.compute_units = cu->caps.compute_units;
        vk->caps.clock_mhz = cu->caps.clock_mhz; /* the theoretical rates (host/families/peak/peak_rates.c) */
        vk->caps.sm_arch = cu->caps.sm_arch;
        /* the CUDA context holds the clocks up for both APIs: no warm-up as long as each idle spell (the suite
         * spent 12 s of its 30 on those on the H200, 2026-12-01, docs/performance/suite.md) */
        vk->caps.clocks_held = cu->caps.clocks_held = 1;
    }
    if (vk && timed && !ap->args.dry_run)
        vkb_warmup(vk); /* before anything is timed, the cache probe included */
    if (vk && timed && !ap->args.dry_run && !ap->health)
        vkb_cache_measure(vk); /* health: a probe of seconds on a GPU never seen; the battery needs no cache size */
    if (vk && vkb_backend_failed(vk)) /* in the warm-up or the probe, before any case */
        vkb_die((vkb_exit)vk->error.code, "%s", vk->error.message);
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
        t->cpu_share = ap->health != NULL; /* judged against a baseline made under another load */
        if (ap->args.warmup_ms >= 0)
            t->warmup_ms = t->first_warmup_ms = ap->args.warmup_ms;
        if (ap->args.budget_ms >= 0)
            t->budget_ms = ap->args.budget_ms;
        else if (short_budgets)
            t->budget_ms = r->all[i]->caps.is_cpu ? SUITE_BUDGET_CPU_MS : SUITE_BUDGET_MS;
        if (ap->args.warmup_ms < 0 && short_budgets)
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
    vkb_identity_print(stdout, "", r->all, r->nall, 0);
    for (int i = 0; i < sel->nfams; i++) {
        char shape[64];
        int cases = 0;
        for (int w = 0; w < r->nwork; w++)
            cases += r->work[w].fam == i;
        printf("  %-24s %4d shape%s (%s%s), %d cases\n", sel->fam[i].family->name, sel->fam[i].nshapes,
               sel->fam[i].nshapes == 1 ? " " : "s",
               vkb_shape_text(sel->fam[i].family, &sel->fam[i].shapes[0], shape, sizeof shape),
               sel->fam[i].nshapes > 1 ? ", ..." : "", cases);
    }
    if (plan->beyond) /* a size several families share, beyond some of them: those cases skip when run */
        printf("%d kernel case%s skip%s: a size shared with other families is beyond %s family's limits; every "
               "other case fits the device's limits; nothing was run (--dry-run)\n",
               plan->beyond, plan->beyond == 1 ? "" : "s", plan->beyond == 1 ? "s" : "",
               plan->beyond == 1 ? "its" : "their");
    else
        printf("every case fits the device's limits; nothing was run (--dry-run)\n");
}

/* Open AP's backends, select its shapes and plan the work into SEL and PLAN (a bad request exits), and fill SET;
 * SEL's families are chosen already. */
static void prepare(app *ap, int timed, vkb_selection *sel, vkb_run_plan *plan, vkb_run_settings *set)
{
    static char spec[400]; /* the same text for every device */
    vkb_runner *r = &ap->runner;
    char err[600];
    int code;
    open_backends(ap, timed);
    /* the default device is a CPU implementation: whoever expected their GPU must hear it before any result
     * (the table's device line and closing summary say it too, also with --quiet) */
    if (!ap->args.device && !ap->args.dry_run && !vkb_quiet && r->all[0]->caps.is_cpu &&
        strcmp(r->all[0]->name, "vulkan") == 0) {
        char kind[128];
        vkb_warn("no GPU found: the default device %s is %s (is the GPU's Vulkan driver installed? `vkbench devices` "
                 "lists what the loader sees; --device picks one)",
                 r->all[0]->caps.name, vkb_identity_kind(&r->all[0]->caps, kind, sizeof kind));
    }
    if (vkb_selection_shapes(&ap->args, &r->backends[0]->caps, sel, err, sizeof err))
        vkb_die(VKB_EXIT_USAGE, "%s", err);
    r->timed = timed;
    r->seed = ap->args.seed;
    r->spec = ap->args.spec;
    r->nspec = ap->args.nspec;
    r->repeat = ap->args.repeat;
    vkb_runner_plan(r, sel, plan);
    if ((code = vkb_runner_preflight(r, sel, plan, err, sizeof err)) != 0)
        vkb_die((vkb_exit)code, "%s", err);
    memset(set, 0, sizeof *set);
    set->command = ap->args.command;
    set->command_line = ap->command_line;
    set->seed = ap->args.seed;
    set->timed = timed;
    set->cold = ap->args.cold;
    set->warmup_ms = r->timing[0].warmup_ms;
    set->first_warmup_ms = r->timing[0].first_warmup_ms;
    set->budget_ms = r->timing[0].budget_ms;
    set->reps = ap->args.reps;
    set->spec = ap->args.nspec ? spec_text(&ap->args, spec, sizeof spec) : NULL;
    set->paired = r->nbackends > 1;
    set->repeat = ap->args.repeat;
    set->subgroup_size = ap->args.subgroup_size;
    set->robustness_off = ap->args.robustness_off;
}

/* Rows that failed validation, or whose timing is suspect, in R's results: bits 1 and 2. */
static int verdicts(const vkb_runner *r)
{
    int v = 0;
    for (int i = 0; i < r->results.n; i++)
        v |= (r->results.r[i].status == VKB_RES_FAIL) | (r->results.r[i].suspect ? 2 : 0);
    return v;
}

/* The exit code after the run: RC (a sink's failure, a signal, a failed device) first, then the validation
 * layer's MESSAGES, then VERDICT's failed or suspect rows. */
static int final_code(int rc, int verdict, unsigned messages)
{
    if (rc)
        return rc;
    if (messages) {
        vkb_warn("the validation layer reported %u message%s: failing the run", messages, messages == 1 ? "" : "s");
        return VKB_EXIT_MISMATCH;
    }
    if (verdict & 1)
        vkb_warn("some results failed validation (FAIL rows above)");
    if (verdict & 2)
        vkb_warn("some timings are suspect: a metric above a physical bound (SUSPECT rows above)");
    return verdict ? VKB_EXIT_MISMATCH : VKB_EXIT_OK;
}

/* Each device asked for runs the selected work on a thread of its own (host/app/devices.c); one device is a list
 * of one. */
static struct {
    app *ap;
    int timed;
    int several;
} run;

static vkb_sink *device_table(FILE *out)
{
    int width = vkb_table_width(run.ap->args.wide);
    if (strcmp(run.ap->args.command, "peaks") == 0)
        return vkb_sink_peaks_create(out, run.ap->args.verbose);
    return run.timed ? vkb_sink_table_create(out, width) : vkb_sink_matrix_create(out, width);
}

static void device_setup(vkb_device_run *d)
{
    /* the device's own copy of the request, kept for the run: its runner and selection point into it (--spec) */
    static app devs[VKB_MAX_DEVICES];
    app *dev = &devs[d->slot];
    char err[600];
    *dev = *run.ap;
    dev->args.device = d->select;
    memset(&dev->runner, 0, sizeof dev->runner);
    if (vkb_selection_families(&dev->args, &d->sel, err, sizeof err))
        vkb_die(VKB_EXIT_USAGE, "%s (see vkbench --help)", err);
    prepare(dev, run.timed, &d->sel, &d->plan, &d->set);
    d->runner = dev->runner;
    if (!dev->health)
        d->runner.recheck = vkb_warmup_recheck; /* the warm-up's ceilings again at the device's end */
    if (dev->args.dry_run) {
        if (run.several)
            printf("device %d: %s\n", d->index, d->runner.all[0]->caps.name);
        print_plan(&d->sel, &d->plan, &d->runner);
    } else if (!run.several) {
        vkb_stop_if_signalled("before any case ran");
        vkb_mc_make_folder(); /* the request passed its checks: only now --sass's folder */
    }
}

/* The selected work on each device of --device (none, one index or name: the default or that device), the tables
 * to TABLE, every result to the SHARED sinks. */
static int run_devices(app *ap, int timed, FILE *table, vkb_sink **shared, int nshared)
{
    static int indices[VKB_MAX_DEVICES];
    static vkb_device_run runs[VKB_MAX_DEVICES];
    /* health: the node's GPUs by index, each named in the verdict, however many there are */
    int several = ap->health || vkb_devices_several(ap->args.device), n = 1, rc, verdict = 0;
    vkb_devices_hooks hooks = {device_setup, device_table, table, shared, nshared, ap->args.dry_run, several};
    unsigned messages;
    if (several)
        n = vkb_devices_parse(ap->args.device, indices);
    if (ap->args.sass_dir && n > 1)
        vkb_die(VKB_EXIT_USAGE, "--sass reads one device's machine code: give --device one device");
    run.ap = ap;
    run.timed = timed;
    run.several = several;
    for (int i = 0; i < n; i++) {
        runs[i].index = several ? indices[i] : -1;
        runs[i].select = several ? NULL : ap->args.device;
    }
    rc = vkb_devices_run(runs, n, &hooks);
    if (ap->health) /* judged before the runners go */
        rc = vkb_health_judge(ap->health, runs, n, rc);
    messages = vkb_vulkan_validation_messages();
    for (int i = 0; i < nshared; i++)
        vkb_sink_destroy(shared[i]);
    for (int i = 0; i < n; i++) {
        vkb_runner *r = &runs[i].runner;
        verdict |= verdicts(r);
        vkb_sink_destroy(runs[i].sinks[0]); /* the device's table; the others are proxies of the shared ones */
        for (int s = 1; s < runs[i].nsinks; s++)
            free(runs[i].sinks[s]->impl);
        vkb_runner_free(r);
        vkb_selection_free(&runs[i].sel);
    }
    if (ap->health)
        return rc; /* the verdict's own exit code */
    return ap->args.dry_run ? VKB_EXIT_OK : final_code(rc, verdict, messages);
}

static int run_command(app *ap)
{
    vkb_selection sel;
    vkb_sink *sinks[5];
    int nsinks = 0;
    int timed = strcmp(ap->args.command, "validate") != 0;
    FILE *table = stdout;
    char err[600];

    /* the selection is checked before any file or device is touched (each device makes its own again) */
    if (vkb_selection_families(&ap->args, &sel, err, sizeof err))
        vkb_die(VKB_EXIT_USAGE, "%s (see vkbench --help)", err);
    vkb_selection_free(&sel);
    /* result files first: a path that cannot be written fails before any work (a dry run writes none) */
    if (!ap->args.dry_run) {
        const char *json = ap->args.json_path, *csv = ap->args.csv_path;
        table = (json && vkb_outfile_is_stdout(json)) || (csv && vkb_outfile_is_stdout(csv)) ? stderr : stdout;
        if (!vkb_quiet)
            sinks[nsinks++] = vkb_sink_progress_create();
        if (json)
            sinks[nsinks++] = vkb_sink_json_create(json);
        if (csv)
            sinks[nsinks++] = vkb_sink_csv_create(csv);
        if (ap->args.db_path) /* opened and migrated now: a store that cannot be written fails before any work */
            sinks[nsinks++] = vkb_sink_sqlite_create(ap->args.db_path, ap->command_line, NULL);
    }
    vkb_signal_fault("signal-early"); /* tests: a signal after the files are opened, before the device */
    vkb_stop_if_signalled("before any case ran");
    return run_devices(ap, timed, table, sinks, nsinks);
}

/* `vkbench health`: the battery on every GPU at once (host/app/health.c), judged per GPU; the tables only with -v. */
static int health_command(app *ap)
{
    static vkb_health h;
    FILE *tables;
    vkb_sink *db = NULL;
    int rc;
    if (vkb_health_prepare(&h, &ap->args, VKB_VERSION))
        return vkb_health_judge(&h, NULL, 0, 0); /* no GPU to run on: the node's verdict */
    ap->health = &h;
    vkb_quiet = 1; /* no progress: a health check's output is its verdict */
    tables = ap->args.verbose ? stderr : fopen("/dev/null", "w");
    if (!tables)
        vkb_die(VKB_EXIT_OUTPUT, "cannot open /dev/null for the battery's tables");
    if (ap->args.db_path && !ap->args.dry_run) /* the battery's rows into the store as a run does, the verdicts after */
        db = h.db = vkb_sink_sqlite_create(ap->args.db_path, ap->command_line, "health");
    rc = run_devices(ap, 1, tables, db ? &db : NULL, db ? 1 : 0);
    if (tables != stderr)
        fclose(tables);
    return rc;
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

/* The result paths against each other and the process (exit 2), and, for a dry run, against what the real
 * run would refuse (exit 6): nothing is created. */
static void check_outputs(const vkb_args *a)
{
    const char *paths[2] = {a->json_path, a->csv_path}, *opts[2] = {"--json", "--csv"};
    char why[300];
    int lists = strcmp(a->command, "list") == 0 || strcmp(a->command, "devices") == 0;
    for (int i = 0; i < 2; i++) {
        if (!paths[i])
            continue;
        if (lists)
            vkb_die(VKB_EXIT_USAGE, "%s: `vkbench %s` writes no result file (%s is for run, validate and the suite)",
                    opts[i], a->command, opts[i]);
        if (vkb_outfile_same(paths[i], "/proc/self/exe"))
            vkb_die(VKB_EXIT_USAGE, "%s %s is the vkbench executable itself", opts[i], paths[i]);
        if (a->dry_run && vkb_outfile_check(paths[i]))
            vkb_die(VKB_EXIT_OUTPUT, "cannot write %s (%s): %s", paths[i], opts[i], vkb_outfile_reason());
    }
    if (a->db_path && lists)
        vkb_die(VKB_EXIT_USAGE,
                "--db: `vkbench %s` stores no results (--db is for run, validate, health and the suite)", a->command);
    for (int i = 0; i < 2 && a->db_path; i++) {
        char db[4096];
        if (paths[i] && vkb_outfile_same(paths[i], vkb_sink_sqlite_path(a->db_path, db, sizeof db)))
            vkb_die(VKB_EXIT_USAGE, "%s %s and --db %s are one file: give each its own", opts[i], paths[i], a->db_path);
    }
    if (a->prom_path && paths[0] && vkb_outfile_same(a->prom_path, paths[0]))
        vkb_die(VKB_EXIT_USAGE, "--json %s and --prom %s are one file: give each its own", paths[0], a->prom_path);
    if (a->prom_path && vkb_outfile_same(a->prom_path, "/proc/self/exe"))
        vkb_die(VKB_EXIT_USAGE, "--prom %s is the vkbench executable itself", a->prom_path);
    if (paths[0] && paths[1] && vkb_outfile_same(paths[0], paths[1]))
        vkb_die(VKB_EXIT_USAGE, "--json %s and --csv %s are one file: give each its own", paths[0], paths[1]);
    if (a->sass_dir && a->dry_run && vkb_mc_check(a->sass_dir, why, sizeof why))
        vkb_die(VKB_EXIT_OUTPUT, "--sass: %s", why);
}

/* The exit code of a command that returned RC, stdout's fate included (a full disk, a reader gone). */
static int finish(int rc)
{
    int out = vkb_stdout_finish(rc != 0 && rc != VKB_EXIT_MISMATCH);
    int code = vkb_stop_signal() == SIGPIPE || out == 128 + SIGPIPE ? 128 + SIGPIPE : rc ? rc : out;
    if (vkb_devices_busy()) {
        /* a device still runs work on what the run holds: its driver's threads outlive main, and exit()'s
         * destructors (the driver's, its compiler's) would free their code and memory under them. The files
         * have ended; the process ends as it stands */
        fflush(NULL);
        _exit(code);
    }
    return code;
}

#define STACK_MIN_KIB 64                /* main's stack: every command runs at this ulimit -s */
#define THREAD_STACK_BYTES (8ull << 20) /* every thread's (vkbench's and the driver's): the compiler's recursion */

/* The main thread's stack limit checked (below STACK_MIN_KIB: one line, exit 4, before any frame could overflow
 * it), and every thread's stack set apart from it: glibc sizes a new thread's stack by ulimit -s, and a driver's
 * shader compiler needs more than a small limit gives. */
static void stack_setup(void)
{
    struct rlimit lim;
    pthread_attr_t attr;
    size_t have;
    if (getrlimit(RLIMIT_STACK, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur < STACK_MIN_KIB << 10)
        vkb_die(VKB_EXIT_RESOURCE,
                "this process runs under ulimit -s %llu (KiB of stack), below the %d KiB vkbench needs",
                (unsigned long long)(lim.rlim_cur >> 10), STACK_MIN_KIB);
    if (pthread_getattr_default_np(&attr) != 0)
        return;
    if (pthread_attr_getstacksize(&attr, &have) == 0 && have < THREAD_STACK_BYTES &&
        pthread_attr_setstacksize(&attr, THREAD_STACK_BYTES) == 0)
        pthread_setattr_default_np(&attr);
    pthread_attr_destroy(&attr);
}

int main(int argc, char **argv)
{
    static app ap;
    char err[400];
    int rc;

    vkb_signals_install(); /* descriptors 0-2 open, every signal handled: before anything else */
    stack_setup();
    ap.command_line = join_args(argc, argv);
    rc = vkb_cli_parse(argc, argv, &ap.args, err, sizeof err);
    if (rc < 0)
        vkb_die(VKB_EXIT_USAGE, "%s (see vkbench --help)", err);
    if (rc > 0) {
        if (strstr(ap.command_line, "--version"))
            printf("vkbench %s (commit %s; %s build, CUDA architectures %s, sanitizer %s)\n", VKB_VERSION,
                   vkb_build_commit, vkb_build_type, vkb_build_cuda_architectures, vkb_build_sanitizer ? "on" : "off");
        return finish(VKB_EXIT_OK);
    }
    if (ap.args.beyond[0])
        vkb_die(VKB_EXIT_RESOURCE, "%s: a size above 2^50, more than any device holds; try a smaller size",
                ap.args.beyond);
    if (vkb_fault_check(err, sizeof err))
        vkb_die(VKB_EXIT_USAGE, "VKB_FAULT_INJECT: %s", err);
    if (vkb_env_check(err, sizeof err)) /* every command: a malformed value is never read as another */
        vkb_die(VKB_EXIT_USAGE, "%s", err);
    vkb_quiet = ap.args.quiet;
    vkb_verbose = ap.args.verbose;
    check_outputs(&ap.args);
    if (ap.args.sass_dir && !ap.args.dry_run)
        vkb_mc_open(ap.args.sass_dir);

    if (strcmp(ap.args.command, "list") == 0) {
        vkb_list_families(stdout, vkb_verbose);
        return finish(VKB_EXIT_OK);
    }
    if (strcmp(ap.args.command, "devices") == 0) {
        char why[300];
        vkb_backend *cu;
        vkb_caps *caps = vkb_calloc(VKB_MAX_DEVICES, sizeof *caps); /* 170 KB: not on main's stack */
        vkb_backend_error error = {0};
        int n = vkb_vulkan_devices(caps, VKB_MAX_DEVICES, &error);
        if (n < 0)
            vkb_die((vkb_exit)error.code, "%s", error.message);
        for (int i = 0; i < n && i < VKB_MAX_DEVICES; i++) {
            char path[VKB_CACHE_PATH_MAX] = "";
            vkb_cache_path(&caps[i], path, sizeof path);
            vkb_devices_view(stdout, i, &caps[i], vkb_cache_load(&caps[i]), path);
        }
        cu = vkb_cuda_open(NULL, why, sizeof why);
        if (cu) {
            printf("cuda: %s (%s), %u SMs, L2 %llu KiB, %u copy engines (asyncEngineCount)\n", cu->caps.name,
                   cu->caps.driver, cu->caps.compute_units, (unsigned long long)(cu->caps.cache_bytes >> 10),
                   cu->caps.copy_engines);
            cu->destroy(cu);
        } else {
            printf("cuda: not available (%s)\n", why);
        }
        free(caps);
        return finish(VKB_EXIT_OK);
    }
    if (strcmp(ap.args.command, "health") == 0)
        return finish(health_command(&ap));
    return finish(run_command(&ap));
}
