/* health.c - `vkbench health`: every GPU of the node runs a fixed battery of validated rows at once; each GPU gets
 * a verdict (pass, warn, fail), its failing checks and the action a cluster should take. */
#include "health.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "outfile.h"
#include "sinks.h"
#include "stats.h"
#include "util.h"
#include "vulkan.h"

/* The battery, each row for a fault a node really has: a wrong result (copy, reduce and the FMA chain are each
 * checked element by element), slow memory (copy), slow compute (the fp32 FMA peak), a slow host link (staging
 * transfers both ways). Ceilings (api_copy, memcpy) come with their families. Default shapes only: short. */
static const char *const battery_families[] = {"copy", "peak", "transfer", "reduce"};
#define BATTERY_VARIANTS "copy/vec4,peak/fma_f32,transfer/staging_h2d,transfer/staging_d2h,reduce/subgroup"
#define BATTERY_BUDGET_MS 100
/* a node of CPU implementations alone (tests, lavapipe): their times are the host's, whose load moves them; three
 * times as many repetitions for a steadier median cost a few seconds there */
#define BATTERY_BUDGET_CPU_MS 300
#define BATTERY_WARMUP_MS 20
/* Each device's own timeout for one submission, when VKB_DEVICE_TIMEOUT_S is not set: inside Slurm's 60 s
 * HealthCheckProgram limit and NHC's 30 s, with the battery's own few seconds beside it */
#define HEALTH_DEVICE_TIMEOUT_S "20"
/* Speed is judged twice. The whole GPU: the median of its rows' speed over their baseline medians, slower than 1
 * by more than NOISE_SIGMAS of that median's noise and by at least MIN_SLOWDOWN (a fleet whose noise is near zero
 * must not fail a GPU for 1%): a uniform slowdown (clocks, throttling) shows in every row at once, and the middle
 * of k rows is steadier than any one of them, and than their mean, which one row caught by load drags (lavapipe:
 * healthy runs' means 0.86 to 1.35 of the baseline, their medians 0.93 to 1.01; docs/tooling.md). One row alone
 * (a slow host link, slow memory): beyond ROW_SIGMAS of its noise and ROW_MIN_SLOWDOWN, wider bounds, as each of
 * k rows is a chance to be off; and it takes the GPU out only below ROW_DRAIN of its median, a warning above:
 * one row alone moves more over a day than a baseline's runs of one hour show (on the H100 the host link's
 * pinned copy read 0.54x and 0.65x of its baseline in 2 of 10 healthy runs, the next ones 1.0x). */
#define NOISE_SIGMAS 4.0
#define MIN_SLOWDOWN 0.08
#define ROW_SIGMAS 6.0
#define ROW_MIN_SLOWDOWN 0.20
#define ROW_DRAIN 0.5
/* The baseline row that holds the noise of the whole GPU's median (fleet.py --write-baseline: the spread of its
 * GPUs' medians, which counts what the rows share, a loaded host or a warm room); without it, the rows' own noise
 * taken as independent, x 1.2533 (a median's standard error over a mean's, normal samples) */
#define AGGREGATE_ROW "*"

enum { ACT_NONE, ACT_DRAIN, ACT_RESET, ACT_SERVICE };
static const char *const action_names[] = {"none", "drain", "reset", "service"};
enum { V_PASS, V_WARN, V_FAIL };
static const char *const verdict_names[] = {"pass", "warn", "fail"};

/* Whether D's device failed mid-run (not a stop signal): lost, hung past its timeout, out of memory. */
static int failed(const vkb_device_run *d)
{
    return d->error && !d->error->stopped;
}

static const char *uuid_text(const vkb_caps *c, char *buf)
{
    const uint8_t *u = c->uuid;
    sprintf(buf, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4],
            u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    return buf;
}

static const char *pci_text(const vkb_caps *c)
{
    return c->pci_bus[0] ? c->pci_bus : "-";
}

/* Parse --expect TEXT ("8", "H100:4,A100:4") against the models of H's GPUs: 0 when they match, else 1 with the
 * difference in WHY; -1 when TEXT is malformed (WHY says why). */
static int vkb_health_expect(const vkb_health *h, const char *text, char *why, size_t len)
{
    const char *p = text;
    int mismatch = 0;
    size_t used = 0;
    why[0] = 0;
    while (*p) {
        size_t item = strcspn(p, ","), colon = strcspn(p, ":");
        const char *num = p;
        size_t model_len = 0;
        char *end;
        long want;
        int have = 0;
        if (colon < item) {
            model_len = colon;
            num = p + colon + 1;
        }
        want = strtol(num, &end, 10);
        if (item == 0 || (colon < item && model_len == 0) || !isdigit((unsigned char)*num) || end != p + item ||
            want > VKB_MAX_DEVICES) {
            snprintf(why, len, "--expect wants N or MODEL:N,... (N from 0 to %d), not '%.60s'", VKB_MAX_DEVICES, text);
            return -1;
        }
        if (!model_len && (p != text || p[item])) {
            snprintf(why, len, "--expect '%.60s': a bare count is the whole node's, not one item of a list", text);
            return -1;
        }
        for (int i = 0; i < h->ngpus; i++)
            have += !model_len || vkb_holds_nocase(h->caps[h->gpus[i]].name, p, model_len);
        if (have != want) {
            used += (size_t)snprintf(why + used, used < len ? len - used : 0, "%sexpected %ld %s%.*s%s, found %d",
                                     mismatch ? "; " : "", want, model_len ? "" : "GPU", (int)model_len, p,
                                     want == 1 || !model_len ? (want == 1 ? "" : "s") : "", have);
            mismatch = 1;
        }
        p += item + (p[item] != 0);
        if (!*p && p[-1] == ',') {
            snprintf(why, len, "--expect '%.60s': a stray comma", text);
            return -1;
        }
    }
    return mismatch;
}

/* Read a baseline file into H: 0, or -1 with WHY. */
static int vkb_health_read_baseline(vkb_health *h, const char *path, char *why, size_t len)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int lineno = 0, header = 0;
    if (!f) {
        snprintf(why, len, "--baseline %.200s: %s", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        vkb_health_golden g;
        char *field[5], *p = line, *end;
        int nf = 0;
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (lineno == 1) {
            header = strcmp(line, "# vkbench baseline 1") == 0;
            if (!header)
                break;
            continue;
        }
        if (!line[0] || line[0] == '#')
            continue;
        while (nf < 5) {
            field[nf++] = p;
            p += strcspn(p, "\t");
            if (!*p)
                break;
            *p++ = 0;
        }
        memset(&g, 0, sizeof g);
        if (nf != 5 || *p || strlen(field[0]) >= sizeof g.model || strlen(field[1]) >= sizeof g.driver ||
            strlen(field[2]) >= sizeof g.row) {
            snprintf(why, len, "--baseline %.200s line %d: wants MODEL, DRIVER, ROW, MEDIAN, NOISE separated by tabs",
                     path, lineno);
            fclose(f);
            return -1;
        }
        strcpy(g.model, field[0]);
        strcpy(g.driver, field[1]);
        strcpy(g.row, field[2]);
        g.median = strtod(field[3], &end);
        if (*end || !(g.median > 0 && g.median < 1e300) || (g.noise = strtod(field[4], &end), *end) ||
            !(g.noise >= 0 && g.noise < 1e300)) {
            snprintf(why, len,
                     "--baseline %.200s line %d: the median must be a positive number and the noise one "
                     "at least 0",
                     path, lineno);
            fclose(f);
            return -1;
        }
        h->golden = realloc(h->golden, (size_t)(h->ngolden + 1) * sizeof *h->golden);
        if (!h->golden)
            vkb_die(VKB_EXIT_RESOURCE, "out of host memory reading --baseline");
        h->golden[h->ngolden++] = g;
    }
    fclose(f);
    if (!header) {
        snprintf(why, len,
                 "--baseline %.200s: not a baseline file (its first line is not '# vkbench baseline 1'; "
                 "tools/fleet.py --write-baseline writes one)",
                 path);
        return -1;
    }
    return 0;
}

int vkb_health_prepare(vkb_health *h, vkb_args *a, const char *version)
{
    char why[900];
    size_t used = 0;
    int all_cpu = 1;
    vkb_backend_error error = {0};
    memset(h, 0, sizeof *h);
    h->json_path = a->json_path;
    h->prom_path = a->prom_path;
    h->version = version;
    if (a->baseline_path && vkb_health_read_baseline(h, a->baseline_path, why, sizeof why))
        vkb_die(VKB_EXIT_USAGE, "%s", why);
    if (a->expect && vkb_health_expect(h, a->expect, why, sizeof why) < 0)
        vkb_die(VKB_EXIT_USAGE, "%s", why);
    h->ndevices = vkb_vulkan_devices(h->caps, VKB_MAX_DEVICES, &error);
    if (h->ndevices < 0)
        vkb_die((vkb_exit)error.code, "%s", error.message);
    if (h->ndevices > VKB_MAX_DEVICES)
        h->ndevices = VKB_MAX_DEVICES;
    for (int i = 0; i < h->ndevices; i++) {
        if (h->caps[i].is_cpu && !a->allow_cpu)
            continue; /* lavapipe is on every machine set up by tools/setup.sh: never a GPU of the node */
        all_cpu &= h->caps[i].is_cpu;
        h->gpus[h->ngpus++] = i;
        used += (size_t)snprintf(h->device_list + used, sizeof h->device_list - used, "%s%d", used ? "," : "", i);
    }
    if (a->expect && vkb_health_expect(h, a->expect, why, sizeof why) > 0)
        snprintf(h->problem, sizeof h->problem, "%s", why);
    else if (!h->ngpus && !a->expect)
        snprintf(h->problem, sizeof h->problem,
                 "no GPU found (%d Vulkan device%s, all CPU implementations; "
                 "--allow-cpu counts them)",
                 h->ndevices, h->ndevices == 1 ? "" : "s");
    if (!getenv("VKB_DEVICE_TIMEOUT_S"))
        setenv("VKB_DEVICE_TIMEOUT_S", HEALTH_DEVICE_TIMEOUT_S, 1); /* one hung GPU cannot hold the verdict */
    /* the battery as a run of its own on every GPU at once */
    a->command = "run";
    a->nfamilies = 0;
    for (size_t i = 0; i < sizeof battery_families / sizeof *battery_families; i++)
        a->families[a->nfamilies++] = battery_families[i];
    a->variants = BATTERY_VARIANTS;
    a->device = h->device_list;
    if (a->budget_ms < 0)
        a->budget_ms = all_cpu ? BATTERY_BUDGET_CPU_MS : BATTERY_BUDGET_MS;
    if (a->warmup_ms < 0)
        a->warmup_ms = BATTERY_WARMUP_MS;
    a->json_path = a->csv_path = a->prom_path = NULL; /* the verdict's, written by vkb_health_judge */
    return h->ngpus ? 0 : -1;
}

/* A result's row: "family/variant", and "@cuda" after a CUDA row, since one row runs through each API (the
 * baseline, the verdict and the metrics name each once). */
static void row_key(const vkb_result *r, char *row, size_t len)
{
    int vulkan = strcmp(r->backend, "vulkan") == 0;
    snprintf(row, len, "%s/%s%s%s", r->family->name, r->variant->name, vulkan ? "" : "@", vulkan ? "" : r->backend);
}

/* The baseline row for CAPS's model and driver, or NULL. */
static const vkb_health_golden *golden_for(const vkb_health *h, const vkb_caps *c, const char *row)
{
    for (int i = 0; i < h->ngolden; i++)
        if (!strcmp(h->golden[i].model, c->name) && !strcmp(h->golden[i].driver, c->driver) &&
            !strcmp(h->golden[i].row, row))
            return &h->golden[i];
    return NULL;
}

typedef struct gpu_verdict {
    int verdict, action, judged_speed, validated;
    double speed_ratio;  /* the whole GPU's speed over its baseline, as its failing check states it; else NAN */
    char checks[8][400]; /* "validate: copy/vec4: ..." */
    int nchecks;
} gpu_verdict;

static void add_check(gpu_verdict *v, int verdict, int action, const char *check, const char *what)
{
    if (verdict > v->verdict)
        v->verdict = verdict;
    if (action > v->action)
        v->action = action;
    if (v->nchecks < 8) /* WHAT cut to fit beside the check's name (a device's message is up to 399) */
        snprintf(v->checks[v->nchecks++], sizeof v->checks[0], "%s: %.380s", check, what);
}

int vkb_health_row_speed(double metric, double median, double noise, double shared)
{
    double slack = fmax(ROW_SIGMAS * sqrt(noise * noise + shared * shared), ROW_MIN_SLOWDOWN * median);
    if (!(metric < median - slack))
        return 0;
    return metric < ROW_DRAIN * median ? 2 : 1;
}

static void judge_gpu(const vkb_health *h, const vkb_device_run *d, gpu_verdict *v)
{
    const vkb_caps *c = &h->caps[d->index];
    const vkb_results *rs = &d->runner.results;
    const vkb_health_golden *all = golden_for(h, c, AGGREGATE_ROW);
    const vkb_result *slow[8]; /* the rows slow on their own, listed after the whole GPU's check */
    const vkb_health_golden *slow_golden[8];
    int slow_verdict[8]; /* ... and each one's vkb_health_row_speed: 1 a warning, 2 out of service */
    double logs[VKB_HEALTH_MAX_ROWS], sum_var = 0; /* the rows judged: log(speed / median); (noise / median)^2 */
    int judged = 0, nslow = 0;
    memset(v, 0, sizeof *v);
    v->speed_ratio = NAN;
    if (failed(d)) /* lost, hung past its timeout, out of memory: the rows after it failed for that reason */
        add_check(v, V_FAIL, ACT_RESET, "device", d->error->message);
    for (int i = 0; i < rs->n; i++) {
        const vkb_result *r = &rs->r[i];
        char row[96], what[300];
        const vkb_health_golden *g;
        row_key(r, row, sizeof row);
        if (r->status == VKB_RES_FAIL && !failed(d)) {
            if (r->check.reason[0])
                snprintf(what, sizeof what, "%s: wrong result (%s)", row, r->check.reason);
            else
                snprintf(what, sizeof what, "%s: wrong result (%llu of %llu elements, the first at %llu)", row,
                         (unsigned long long)r->check.bad, (unsigned long long)r->check.checked,
                         (unsigned long long)r->check.first_bad);
            add_check(v, V_FAIL, ACT_DRAIN, "validate", what);
        }
        if (r->status != VKB_RES_OK)
            continue;
        v->validated++;
        if (r->suspect) {
            snprintf(what, sizeof what, "%s: timing not believed (%s)", row, r->suspect_reason);
            add_check(v, V_WARN, ACT_NONE, "timing", what);
        }
        if (r->timed && r->metric > 0 && (g = golden_for(h, c, row)) != NULL) {
            /* what moves the whole GPU (the aggregate row's noise) moves each row too, beside its own noise */
            double shared = all ? all->noise / all->median * g->median : 0;
            if (judged < VKB_HEALTH_MAX_ROWS) {
                logs[judged++] = log(r->metric / g->median);
                sum_var += (g->noise / g->median) * (g->noise / g->median);
            }
            int speed = vkb_health_row_speed(r->metric, g->median, g->noise, shared);
            if (speed && nslow < 8) {
                slow[nslow] = r;
                slow_verdict[nslow] = speed;
                slow_golden[nslow++] = g;
            }
        }
    }
    v->judged_speed = judged > 0;
    if (judged) {
        double mid = exp(vkb_median(logs, judged)) / (all ? all->median : 1);
        double noise = all ? all->noise / all->median : 1.2533 * sqrt(sum_var) / judged;
        double bound = 1 - fmax(NOISE_SIGMAS * noise, MIN_SLOWDOWN);
        char what[300];
        if (mid < bound) {
            snprintf(what, sizeof what,
                     "all rows: %.2fx of the baseline (the median of %d rows; bound %.2fx, "
                     "noise %.3g)",
                     mid, judged, bound, noise);
            add_check(v, V_FAIL, ACT_DRAIN, "speed", what);
            v->speed_ratio = strtod(what + strlen("all rows: "), NULL); /* as stated: what a reader of it gets */
        }
    }
    for (int i = 0; i < nslow; i++) { /* after the whole GPU's line, which a drain reason carries first */
        const vkb_result *r = slow[i];
        const vkb_health_golden *g = slow_golden[i];
        char row[96], what[300];
        row_key(r, row, sizeof row);
        snprintf(what, sizeof what, "%s: %.4g %s, %.2fx of the baseline's %.4g (noise %.3g)", row, r->metric,
                 r->family->metric, r->metric / g->median, g->median, g->noise);
        if (slow_verdict[i] == 2)
            add_check(v, V_FAIL, ACT_DRAIN, "speed", what);
        else
            add_check(v, V_WARN, ACT_NONE, "speed", what);
    }
    if (!v->validated && !failed(d))
        add_check(v, V_WARN, ACT_NONE, "battery", "no battery row ran (all skipped): nothing was validated");
}

static const char *host_name(char *host, size_t len)
{
    memset(host, 0, len);
    if (getenv("VKB_HOST") && *getenv("VKB_HOST"))
        snprintf(host, len, "%s", getenv("VKB_HOST")); /* Slurm tasks standing for nodes on one host */
    else
        gethostname(host, len - 1);
    return host;
}

static vkb_outfile *open_output(const char *path, const char *option)
{
    vkb_outfile *f = vkb_outfile_open(path, option);
    if (!f)
        vkb_die(VKB_EXIT_OUTPUT, "cannot write %s (%s): %s", path, option, vkb_outfile_reason());
    return f;
}

static void close_output(vkb_outfile *f)
{
    if (vkb_outfile_close(f)) {
        vkb_outfile_report();
        exit(VKB_EXIT_OUTPUT);
    }
}

/* The node's verdict of exit code CODE. */
static const char *node_verdict(int code)
{
    return code == VKB_EXIT_OK ? "keep" : code == VKB_EXIT_MISMATCH ? "take out of service" : "could not judge";
}

/* The verdicts into the store's health table, beside the battery's rows the --db sink wrote (the same columns as
 * an import of the --json verdict gives): 0, or the sink's exit code with its line printed. */
static int store_verdicts(const vkb_health *h, const vkb_device_run *runs, const gpu_verdict *v, int n, int code)
{
    static vkb_store_health rows[VKB_MAX_DEVICES];
    static const char *reasons[VKB_MAX_DEVICES][8];
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < v[i].nchecks; k++)
            reasons[i][k] = v[i].checks[k];
        rows[i] = (vkb_store_health){.gpu = runs[i].index,
                                     .verdict = verdict_names[v[i].verdict],
                                     .action = action_names[v[i].action],
                                     .reasons = reasons[i],
                                     .nreasons = v[i].nchecks,
                                     .speed_judged = v[i].judged_speed,
                                     .speed_ratio = v[i].speed_ratio};
    }
    return vkb_sink_sqlite_health(h->db, node_verdict(code), rows, n);
}

static void write_json(const vkb_health *h, const vkb_device_run *runs, const gpu_verdict *v, int n, int code,
                       const char *path)
{
    vkb_outfile *f = open_output(path, "--json");
    vkb_json j;
    char host[256], uuid[40];
    host_name(host, sizeof host);
    vkb_json_init(&j, vkb_outfile_stream(f));
    vkb_json_object_begin(&j, NULL);
    vkb_json_string(&j, "schema", "vkbench-health/1");
    vkb_json_string(&j, "hostname", host);
    vkb_json_int(&j, "time", (int64_t)time(NULL));
    vkb_json_string(&j, "verdict", node_verdict(code));
    vkb_json_int(&j, "exit", code);
    vkb_json_string(&j, "node_problem", h->problem[0] ? h->problem : NULL);
    vkb_json_int(&j, "gpus_found", h->ngpus);
    vkb_json_bool(&j, "baseline", h->ngolden > 0);
    vkb_json_array_begin(&j, "gpus");
    for (int i = 0; i < n; i++) {
        const vkb_caps *c = &h->caps[runs[i].index];
        const vkb_results *rs = &runs[i].runner.results;
        vkb_json_object_begin(&j, NULL);
        vkb_json_int(&j, "gpu", runs[i].index);
        vkb_json_string(&j, "uuid", uuid_text(c, uuid));
        vkb_json_string(&j, "pci_bus_id", c->pci_bus[0] ? c->pci_bus : NULL);
        vkb_json_string(&j, "model", c->name);
        vkb_json_string(&j, "driver", c->driver);
        vkb_json_string(&j, "verdict", verdict_names[v[i].verdict]);
        vkb_json_string(&j, "action", action_names[v[i].action]);
        vkb_json_bool(&j, "speed_judged", v[i].judged_speed);
        if (!v[i].judged_speed)
            vkb_json_string(&j, "speed_note", "speed reported, not judged: no baseline for this model and driver");
        vkb_json_array_begin(&j, "failing");
        for (int k = 0; k < v[i].nchecks; k++)
            vkb_json_string(&j, NULL, v[i].checks[k]);
        vkb_json_array_end(&j);
        vkb_json_array_begin(&j, "rows");
        for (int r = 0; r < rs->n; r++) {
            char row[96];
            row_key(&rs->r[r], row, sizeof row);
            vkb_json_object_begin(&j, NULL);
            vkb_json_string(&j, "row", row);
            vkb_json_string(&j, "backend", rs->r[r].backend);
            vkb_json_string(&j, "status",
                            rs->r[r].status == VKB_RES_OK     ? "ok"
                            : rs->r[r].status == VKB_RES_FAIL ? "fail"
                                                              : "skip");
            if (rs->r[r].status == VKB_RES_OK && rs->r[r].timed) {
                vkb_json_number(&j, "metric", rs->r[r].metric);
                vkb_json_string(&j, "unit", vkb_variant_unit(rs->r[r].family, rs->r[r].variant));
                vkb_json_number(&j, "median_s", rs->r[r].time_ns.median * 1e-9);
            }
            vkb_json_object_end(&j);
        }
        vkb_json_array_end(&j);
        vkb_json_object_end(&j);
    }
    vkb_json_array_end(&j);
    vkb_json_object_end(&j);
    fputc('\n', vkb_outfile_stream(f));
    close_output(f);
}

/* TEXT as a Prometheus label value: backslash, double quote and newline escaped (the exposition format). */
static void prom_label(FILE *out, const char *name, const char *text, const char *sep)
{
    fprintf(out, "%s=\"", name);
    for (const char *p = text; *p; p++) {
        if (*p == '\\' || *p == '"')
            fputc('\\', out);
        if (*p == '\n')
            fputs("\\n", out);
        else
            fputc(*p, out);
    }
    fprintf(out, "\"%s", sep);
}

/* The labels of one GPU, dcgm-exporter's names, so that dashboards join the two on them. */
static void prom_gpu_labels(FILE *out, const vkb_caps *c, int index, const char *host)
{
    char num[16], uuid[40];
    snprintf(num, sizeof num, "%d", index);
    prom_label(out, "gpu", num, ",");
    prom_label(out, "UUID", uuid_text(c, uuid), ",");
    prom_label(out, "pci_bus_id", c->pci_bus, ",");
    prom_label(out, "modelName", c->name, ",");
    prom_label(out, "Hostname", host, "");
}

static void prom_family(FILE *out, const char *name, const char *help)
{
    fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* The verdict as Prometheus text exposition for node_exporter's textfile collector: written whole (a temporary
 * renamed over the file), no timestamps, base units (bytes per second, FLOP per second, seconds). */
static void write_prom(const vkb_health *h, const vkb_device_run *runs, const gpu_verdict *v, int n, int code,
                       const char *path)
{
    static const char *const units[][2] = {{"GB/s", "bytes_per_second"}, {"GFLOP/s", "flops_per_second"}};
    vkb_outfile *f = open_output(path, "--prom");
    FILE *out = vkb_outfile_stream(f);
    char host[256];
    host_name(host, sizeof host);
    prom_family(out, "vkbench_build_info", "vkbench's version; always 1");
    fputs("vkbench_build_info{", out);
    prom_label(out, "version", h->version, "");
    fputs("} 1\n", out);
    prom_family(out, "vkbench_health_last_run_timestamp_seconds", "When the health check ran, Unix time");
    fputs("vkbench_health_last_run_timestamp_seconds{", out);
    prom_label(out, "Hostname", host, "");
    fprintf(out, "} %lld\n", (long long)time(NULL));
    prom_family(out, "vkbench_health_exit_code",
                "The health check's exit code: 0 keep, 1 take out of service, 7 "
                "could not judge");
    fputs("vkbench_health_exit_code{", out);
    prom_label(out, "Hostname", host, "");
    fprintf(out, "} %d\n", code);
    prom_family(out, "vkbench_health_gpus", "GPUs found on the node");
    fputs("vkbench_health_gpus{", out);
    prom_label(out, "Hostname", host, "");
    fprintf(out, "} %d\n", h->ngpus);
    prom_family(out, "vkbench_health_gpu_verdict", "A GPU's verdict: 0 pass, 1 warn, 2 fail");
    for (int i = 0; i < n; i++) {
        fputs("vkbench_health_gpu_verdict{", out);
        prom_gpu_labels(out, &h->caps[runs[i].index], runs[i].index, host);
        fprintf(out, "} %d\n", v[i].verdict);
    }
    prom_family(out, "vkbench_health_gpu_failing_checks", "Checks a GPU failed or warned on");
    for (int i = 0; i < n; i++) {
        fputs("vkbench_health_gpu_failing_checks{", out);
        prom_gpu_labels(out, &h->caps[runs[i].index], runs[i].index, host);
        fprintf(out, "} %d\n", v[i].nchecks);
    }
    for (size_t u = 0; u < sizeof units / sizeof *units; u++) {
        char name[96];
        snprintf(name, sizeof name, "vkbench_health_row_%s", units[u][1]);
        prom_family(out, name,
                    u == 0 ? "A battery row's rate, bytes per second (1e9 x GB/s)"
                           : "A battery row's rate, floating-point operations per second");
        for (int i = 0; i < n; i++)
            for (int r = 0; r < runs[i].runner.results.n; r++) {
                const vkb_result *res = &runs[i].runner.results.r[r];
                char row[96];
                if (res->status != VKB_RES_OK || !res->timed ||
                    strcmp(vkb_variant_unit(res->family, res->variant), units[u][0]) != 0)
                    continue;
                row_key(res, row, sizeof row);
                fprintf(out, "%s{", name);
                prom_gpu_labels(out, &h->caps[runs[i].index], runs[i].index, host);
                fputc(',', out);
                prom_label(out, "row", row, "");
                fputc(',', out); /* a row runs through each API: one series each */
                prom_label(out, "backend", res->backend, "");
                fprintf(out, "} %.9g\n", res->metric * 1e9);
            }
    }
    close_output(f);
}

int vkb_health_judge(vkb_health *h, const vkb_device_run *runs, int n, int rc)
{
    static gpu_verdict v[VKB_MAX_DEVICES];
    int code = VKB_EXIT_OK, unjudged = 0;
    char uuid[40];
    if (rc > 128)
        return rc; /* stopped by a signal: no verdict */
    if (h->problem[0]) {
        fprintf(stderr, "vkbench: node: count: %s\n", h->problem);
        code = VKB_EXIT_MISMATCH;
    }
    for (int i = 0; i < n; i++) {
        const vkb_caps *c = &h->caps[runs[i].index];
        judge_gpu(h, &runs[i], &v[i]);
        unjudged |= !v[i].validated && !failed(&runs[i]);
        if (v[i].verdict == V_FAIL) {
            code = VKB_EXIT_MISMATCH;
            for (int k = 0; k < v[i].nchecks; k++) /* the stable prefix a drain reason carries as it is */
                fprintf(stderr, "vkbench: GPU %d %s %s: %s\n", runs[i].index, uuid_text(c, uuid), pci_text(c),
                        v[i].checks[k]);
        }
        printf("GPU %d %s (%s) %s: %s, action %s%s\n", runs[i].index, c->name, pci_text(c), uuid_text(c, uuid),
               verdict_names[v[i].verdict], action_names[v[i].action],
               v[i].judged_speed ? "" : "; speed reported, not judged (no baseline)");
    }
    if (code == VKB_EXIT_OK && unjudged)
        code = VKB_EXIT_UNJUDGED;
    if (code == VKB_EXIT_OK && rc && rc != VKB_EXIT_MISMATCH)
        code = VKB_EXIT_UNJUDGED; /* the run itself failed in a way no GPU's verdict explains */
    printf("health: %s (exit %d)\n", node_verdict(code), code);
    if (h->json_path)
        write_json(h, runs, v, n, code, h->json_path);
    if (h->prom_path)
        write_prom(h, runs, v, n, code, h->prom_path);
    if (h->db && store_verdicts(h, runs, v, n, code))
        return VKB_EXIT_OUTPUT;
    return code;
}
