/* table.c - `run` results as one aligned table per family, printed row by row as results finish, fitted
 * to the terminal's width (100 columns unless COLUMNS or --wide say otherwise). Under each table what is
 * the family's own: its fastest row, its ceiling rows' letters, SUSPECT reasons (and with -v the memory each
 * row used); at the end of the run one legend that explains, in words and once each, every marker used. */
#include "sinks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "identity.h"
#include "repeats.h"
#include "util.h"

#define MAX_CEILINGS 8
#define MAX_PENDING 256
#define MAX_NOTES 32
#define MAX_LEGEND 48
#define MAX_SKIP_REASONS 16
/* Column widths of the cells that carry a marker, a space after the number ("0.599 h~", "27 !", "3.1% a",
 * "25.0% #"): room for the usual numbers and their markers (a spread over 999% or a rate past 99999 with
 * both marks pushes its row one column right rather than widen every table) */
#define METRIC_W 9
#define CEIL_W 8
#define IQR_W 5
#define RULE_W 8
/* the rule's mark: the measured share differs from the prediction ("!" is a spread's only) */
#define VKB_DIFFERS_MARK "#"

/* What the table showed: each marker used gets its legend line. */
typedef struct markers {
    int none, over100, differs, unknown_fit, unsettled, suspect, fail, cross, one_api, noisy, runs_apart, theory;
    int host_timed, measured_fit, nobc, cube;
} markers;

typedef struct table_sink {
    vkb_sink base;
    FILE *out;
    int width; /* columns to fit; 0: no limit (--wide) */
    int sg_w;  /* "@sgN" (--subgroup-size) and "@nobc" (--robustness disabled) on names, else 0 */
    int paired;
    const char *home; /* the backend asked for; rows from another get "@backend" */
    int have_cuda;
    const vkb_family *family;
    int name_w, shape_w, predicts, started;
    markers used;
    struct {
        const char *family, *variant, *backend;
    } ceiling[MAX_CEILINGS];
    int nceilings;
    char none_why[400];                     /* why a row has no ceiling */
    const vkb_result *pending[MAX_PENDING]; /* paired: results waiting for the other backend's */
    int npending;
    char *notes[MAX_NOTES]; /* per-row details printed in the legend (suspect reasons) */
    int nnotes, dropped_notes;
    vkb_backend *const *backends; /* the devices under test, named first and in the closing summary */
    int nbackends;
    const char *command;
    int passed, failed, skipped, suspect; /* the closing summary's counts, one per row */
    int repeat;                           /* --repeat N (N > 1): each row folds a case's N runs, with a run% column */
    vkb_repeats runs;                     /* ... collected until each case's last run is in */
    struct {
        const char *variant, *backend;
    } placed[MAX_NOTES]; /* rows whose memory a note already names */
    int nplaced;
    char *legend[MAX_LEGEND]; /* the run's distinct legend lines, printed once at its end */
    int nlegend;
    const vkb_result *fastest; /* the family's fastest trusted kernel row (largest share of its ceiling) */
    const char *column_unit;   /* the unit the rate column's name shows now (a row of another unit names it again) */
    struct {
        const char *reason;
        int rows;
        char names[300];
    } skips[MAX_SKIP_REASONS]; /* this family's, by reason */
    int nskips;
} table_sink;

/* A skipped row, folded into one line per reason under the table (else 22 lines of unsupported tensor-core rows
 * on any non-NVIDIA GPU); 0 when the reasons are too many to fold (the row is then printed as before). */
static int fold_skip(table_sink *t, const vkb_result *r)
{
    int i;
    for (i = 0; i < t->nskips && strcmp(t->skips[i].reason, r->skip_reason) != 0; i++)
        ;
    if (i == MAX_SKIP_REASONS)
        return 0;
    if (i == t->nskips) {
        t->skips[i].reason = r->skip_reason;
        t->skips[i].rows = 0;
        t->skips[i].names[0] = 0;
        t->nskips++;
    }
    t->skips[i].rows++;
    if (!strstr(t->skips[i].names, r->variant->name)) { /* each variant once, whatever its shapes */
        size_t used = strlen(t->skips[i].names);
        snprintf(t->skips[i].names + used, sizeof t->skips[i].names - used, "%s%s", used ? ", " : "", r->variant->name);
    }
    return 1;
}

/* "skipped (22 rows: coopmat_khr, coopmat2, ...): needs VK_KHR_cooperative_matrix": one line per reason. */
static void skip_lines(table_sink *t)
{
    char line[800];
    for (int i = 0; i < t->nskips; i++) {
        snprintf(line, sizeof line, "skipped (%d row%s: %s): %s", t->skips[i].rows, t->skips[i].rows == 1 ? "" : "s",
                 t->skips[i].names, t->skips[i].reason);
        fputs("  ", t->out);
        vkb_fmt_wrap(t->out, 2, 4, line, t->width);
    }
    t->nskips = 0;
}

static int ceiling_letter(table_sink *t, const vkb_result *c)
{
    for (int i = 0; i < t->nceilings; i++)
        if (strcmp(t->ceiling[i].variant, c->variant->name) == 0 && strcmp(t->ceiling[i].backend, c->backend) == 0 &&
            strcmp(t->ceiling[i].family, c->family->name) == 0)
            return 'a' + i;
    if (t->nceilings == MAX_CEILINGS)
        return '?';
    t->ceiling[t->nceilings].family = c->family->name;
    t->ceiling[t->nceilings].variant = c->variant->name;
    t->ceiling[t->nceilings].backend = c->backend;
    return 'a' + t->nceilings++;
}

/* The percent of the ceiling with the ceiling's letter a space apart: "87.3% a", "ceiling", "(none)". */
static const char *of_ceiling(table_sink *t, const vkb_result *r, char *buf, size_t len)
{
    double pct = 100 * r->fraction;
    if (!r->timed)
        snprintf(buf, len, "-");
    else if (r->variant->flags & VKB_VAR_CEILING)
        snprintf(buf, len, "ceiling");
    else if (!r->ceiling && r->theoretical > 0) {
        snprintf(buf, len, "%.1f%% t", 100 * r->metric / r->theoretical);
        t->used.theory = 1;
    } else if (!r->ceiling) {
        snprintf(buf, len, "(none)");
        t->used.none = 1;
    } else {
        snprintf(buf, len,
                 pct < 0.995    ? "%.2f%% %c"
                 : pct < 999.95 ? "%.1f%% %c"
                                : "%.0f%% %c",
                 pct, ceiling_letter(t, r->ceiling));
        t->used.over100 |= pct > 100;
    }
    return buf;
}

/* The metric, its markers a space apart ("0.599 h~"): "h" when timed on the host's clock, "~" when its median
 * did not settle before the budget ran out. */
static const char *metric(table_sink *t, const vkb_result *r, char *buf, size_t len)
{
    char marks[4];
    if (!r->timed) {
        snprintf(buf, len, "-");
        return buf;
    }
    snprintf(marks, sizeof marks, "%s%s%s", r->host_timed || !r->time_ns.settled ? " " : "", r->host_timed ? "h" : "",
             r->time_ns.settled ? "" : "~");
    /* three significant digits for small numbers (lavapipe), one decimal up to 1e5, then whole numbers */
    if (r->metric < 9.995)
        snprintf(buf, len, "%.3g%s", r->metric, marks);
    else
        snprintf(buf, len, r->metric < 99999.95 ? "%.1f%s" : "%.0f%s", r->metric, marks);
    t->used.unsettled |= !r->time_ns.settled;
    t->used.host_timed |= r->host_timed;
    return buf;
}

/* --repeat: the spread between the runs of a folded row; NAN for any other */
static double runs_spread(const vkb_result *r)
{
    return r && r->repeat < 0 && r->repeats > 1 ? ((const vkb_folded *)r)->spread : NAN;
}

/* The spread between runs in percent, " !" past VKB_NOISY_IQR like the IQR; "-" when unknown. */
static const char *runs_text(table_sink *t, double spread, char *buf, size_t len)
{
    double pct = 100 * spread;
    if (isnan(spread)) {
        snprintf(buf, len, "-");
        return buf;
    }
    if (pct < 999.5)
        snprintf(buf, len, pct < 9.95 ? "%.1f%s" : "%.0f%s", pct, spread > VKB_NOISY_IQR ? " !" : "");
    else
        snprintf(buf, len, ">999 !");
    t->used.runs_apart |= spread > VKB_NOISY_IQR;
    return buf;
}

/* The spread in percent, " !" after it when it passes VKB_NOISY_IQR: noise said where it happens. "!" means
 * only this (and the same of --repeat's runs): a spread above 10%. */
static const char *iqr_text(table_sink *t, double ratio, char *buf, size_t len)
{
    double pct = 100 * ratio;
    int noisy = ratio > VKB_NOISY_IQR;
    if (pct < 999.5)
        snprintf(buf, len, pct < 9.95 ? "%.1f%s" : "%.0f%s", pct, noisy ? " !" : "");
    else
        snprintf(buf, len, ">999 !");
    t->used.noisy |= noisy;
    return buf;
}

/* The rule's predicted percent of the ceiling, " #" when the measured one DIFFERS by more than 25% (never "!",
 * which is a spread's). */
static const char *rule_text(table_sink *t, const vkb_result *r, char *buf, size_t len)
{
    int differs = vkb_fmt_differs(r);
    if (isnan(r->predicted) || (r->variant->flags & VKB_VAR_CEILING))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.1f%%%s", 100 * r->predicted, differs ? " " VKB_DIFFERS_MARK : "");
    t->used.differs |= differs;
    return buf;
}

/* Whether a row's footprint says something about its number: a byte rate or a time per load depends on
 * where the bytes live; a GFLOP/s peak or a dispatch's µs does not ("fits L2" on latency or peak would mislead). */
static int footprint_matters(const vkb_family *f)
{
    return strcmp(f->metric, "GB/s") == 0 || strcmp(f->metric, "ns/load") == 0;
}

static const char *fits_text(table_sink *t, const vkb_result *r)
{
    if (!footprint_matters(r->family))
        return "-";
    t->used.unknown_fit |= r->cache_fits < 0;
    t->used.measured_fit |= r->cache_fits >= 0 && r->cache_measured;
    return r->cache_fits < 0 ? "?" : r->cache_fits ? "L2" : "DRAM";
}

static void add_note(table_sink *t, const char *prefix, const vkb_result *r, const char *text)
{
    char name[160], shape[64];
    size_t len;
    if (t->nnotes == MAX_NOTES) {
        t->dropped_notes++;
        return;
    }
    vkb_fmt_name(r, NULL, name, sizeof name);
    vkb_fmt_shape(r, shape, sizeof shape);
    len = strlen(prefix) + strlen(name) + strlen(shape) + strlen(r->backend) + strlen(text) + 16;
    t->notes[t->nnotes] = vkb_alloc(len);
    snprintf(t->notes[t->nnotes++], len, "%s %s %s (%s): %s", prefix, name, shape, r->backend, text);
}

/* The check word of a row: ok, FAIL, skip, SUSPECT; details of a failure go under the row. */
static const char *check_word(table_sink *t, const vkb_result *r)
{
    if (r->status == VKB_RES_FAIL) {
        t->used.fail = 1;
        return "FAIL";
    }
    if (r->status == VKB_RES_SKIP)
        return "skip";
    if (r->suspect) {
        t->used.suspect = 1;
        add_note(t, "SUSPECT", r, r->suspect_reason[0] ? r->suspect_reason : "implausible timing");
        return "SUSPECT";
    }
    if (r->cross && r->cross_differing) {
        t->used.cross = 1;
        return "ok*";
    }
    return "ok";
}

/* The details of a failed check or a skip, on the lines under a row. */
static void details(table_sink *t, const vkb_result *r, const char *side)
{
    char text[600];
    int indent = 4;
    if (r->status == VKB_RES_FAIL) {
        vkb_fmt_failure(r, text, sizeof text);
        fprintf(t->out, "%*s%sFAIL: ", indent, "", side);
        vkb_fmt_wrap(t->out, indent + (int)strlen(side) + 6, indent + 2, text, t->width);
    } else if (r->status == VKB_RES_SKIP && r->timed) {
        fprintf(t->out, "%*s%sskipped: ", indent, "", side);
        vkb_fmt_wrap(t->out, indent + (int)strlen(side) + 9, indent + 2, r->skip_reason, t->width);
    }
}

/* A row without numbers (skipped, or failed before it was timed): the reason after the shape. */
static void untimed_row(table_sink *t, const char *name, const char *shape, const vkb_result *r)
{
    char text[600];
    int col = t->name_w + 1 + t->shape_w + 1;
    vkb_fmt_cell(t->out, name, t->name_w, 1);
    vkb_fmt_cell(t->out, shape, t->shape_w, 1);
    if (r->status == VKB_RES_SKIP) {
        snprintf(text, sizeof text, "skip: %s", r->skip_reason);
    } else {
        char why[500];
        t->used.fail = 1;
        snprintf(text, sizeof text, "FAIL: %s", vkb_fmt_failure(r, why, sizeof why));
    }
    vkb_fmt_wrap(t->out, col, col + 2, text, t->width);
}

static void add_note(table_sink *t, const char *prefix, const vkb_result *r, const char *text);
static void columns(table_sink *t, const char *unit);

/* The memory a placing row used, once per variant and backend in the legend. */
static void memory_note(table_sink *t, const vkb_result *r)
{
    if (!vkb_verbose || !r || !r->memory[0] || r->status == VKB_RES_SKIP) /* heap detail: -v only */
        return;
    for (int i = 0; i < t->nplaced; i++)
        if (strcmp(t->placed[i].variant, r->variant->name) == 0 && strcmp(t->placed[i].backend, r->backend) == 0)
            return;
    if (t->nplaced == MAX_NOTES)
        return;
    t->placed[t->nplaced].variant = r->variant->name;
    t->placed[t->nplaced++].backend = r->backend;
    add_note(t, "memory:", r, r->memory);
}

/* The named values of a row (result.h), with -v: one note each, whatever they name. */
static void values_note(table_sink *t, const vkb_result *r)
{
    char text[300];
    if (!vkb_verbose || !r || r->status == VKB_RES_SKIP)
        return;
    for (int i = 0; i < r->nvalues; i++) {
        snprintf(text, sizeof text, "%.6g %s (%s)", r->values[i].value, r->values[i].unit, r->values[i].source);
        add_note(t, r->values[i].tag, r, text);
    }
}

static void single_row(table_sink *t, const vkb_result *r)
{
    char full[200], name[200], shape[64], buf[64];
    vkb_fmt_fit(vkb_fmt_name(r, t->home, full, sizeof full), t->name_w, name, sizeof name);
    t->used.nobc |= r->robustness == VKB_ROBUSTNESS_DISABLED;
    vkb_fmt_shape(r, shape, sizeof shape);
    t->used.cube |= strchr(shape, '^') != NULL;
    memory_note(t, r);
    values_note(t, r);
    if (!r->timed) {
        if (!(r->status == VKB_RES_SKIP && fold_skip(t, r)))
            untimed_row(t, name, shape, r);
        return;
    }
    if (strcmp(vkb_variant_unit(r->family, r->variant), t->column_unit) != 0) /* peak: float, then integer rows */
        columns(t, vkb_variant_unit(r->family, r->variant));
    vkb_fmt_cell(t->out, name, t->name_w, 1);
    vkb_fmt_cell(t->out, shape, t->shape_w, 1);
    vkb_fmt_cell(t->out, vkb_fmt_time(r->time_ns.median, buf, sizeof buf), 7, 0);
    snprintf(buf, sizeof buf, "%d", r->time_ns.n);
    vkb_fmt_cell(t->out, buf, 5, 0);
    vkb_fmt_cell(
        t->out,
        r->time_ns.n < VKB_STATS_MIN_QUARTILES ? "-" : iqr_text(t, vkb_stats_iqr_ratio(&r->time_ns), buf, sizeof buf),
        IQR_W, 0);
    if (t->repeat > 1)
        vkb_fmt_cell(t->out, runs_text(t, runs_spread(r), buf, sizeof buf), IQR_W, 0);
    vkb_fmt_cell(t->out, metric(t, r, buf, sizeof buf), METRIC_W, 0);
    vkb_fmt_cell(t->out, of_ceiling(t, r, buf, sizeof buf), CEIL_W, 0);
    if (t->predicts)
        vkb_fmt_cell(t->out, rule_text(t, r, buf, sizeof buf), RULE_W, 0);
    vkb_fmt_cell(t->out, fits_text(t, r), 4, 1);
    fprintf(t->out, "%s\n", check_word(t, r));
    details(t, r, "");
}

/* Vulkan's and CUDA's results of one (variant, shape) side by side; either may be NULL. */
static void paired_row(table_sink *t, const vkb_result *vk, const vkb_result *cu)
{
    const vkb_result *any = vk ? vk : cu;
    char full[200], name[200], shape[64], buf[64], check[32];
    int reps = 0;
    double iqr = 0;
    vkb_fmt_fit(vkb_fmt_name(any, NULL, full, sizeof full), t->name_w, name, sizeof name);
    t->used.nobc |= any->robustness == VKB_ROBUSTNESS_DISABLED;
    vkb_fmt_shape(any, shape, sizeof shape);
    t->used.cube |= strchr(shape, '^') != NULL;
    memory_note(t, vk);
    memory_note(t, cu);
    values_note(t, vk);
    values_note(t, cu);
    if (!(vk && vk->timed) && !(cu && cu->timed) && (!vk || !cu || vk->status == cu->status)) {
        if (vk && cu && vk->status == VKB_RES_SKIP && strcmp(vk->skip_reason, cu->skip_reason) != 0) {
            untimed_row(t, name, shape, vk);
            details(t, cu, "cuda ");
        } else if (!(any->status == VKB_RES_SKIP && fold_skip(t, any))) {
            untimed_row(t, name, shape, any);
        }
        return;
    }
    vkb_fmt_cell(t->out, name, t->name_w, 1);
    vkb_fmt_cell(t->out, shape, t->shape_w, 1);
    for (int side = 0; side < 2; side++) {
        const vkb_result *r = side ? cu : vk;
        vkb_fmt_cell(t->out, r ? metric(t, r, buf, sizeof buf) : "n/a", METRIC_W, 0);
        t->used.one_api |= r == NULL;
        vkb_fmt_cell(t->out, r ? of_ceiling(t, r, buf, sizeof buf) : "", CEIL_W, 0);
        if (r && r->timed) {
            reps = reps && reps < r->time_ns.n ? reps : r->time_ns.n;
            iqr = fmax(iqr, vkb_stats_iqr_ratio(&r->time_ns));
        }
    }
    snprintf(buf, sizeof buf, "-");
    if (vk && cu && vk->timed && cu->timed && cu->metric > 0)
        snprintf(buf, sizeof buf, "%.3f", vk->metric / cu->metric);
    vkb_fmt_cell(t->out, buf, 6, 0);
    snprintf(buf, sizeof buf, "%d", reps);
    vkb_fmt_cell(t->out, reps ? buf : "-", 5, 0);
    vkb_fmt_cell(t->out, reps >= VKB_STATS_MIN_QUARTILES ? iqr_text(t, iqr, buf, sizeof buf) : "-", IQR_W, 0);
    if (t->repeat > 1) /* the larger of the two APIs' run-to-run spreads (fmax skips a NAN) */
        vkb_fmt_cell(t->out, runs_text(t, fmax(runs_spread(vk), runs_spread(cu)), buf, sizeof buf), IQR_W, 0);
    if (t->predicts) {
        /* one rule for both APIs: the mark says whether either measured differs from it */
        char vbuf[32], cbuf[32];
        const char *p = vk ? rule_text(t, vk, vbuf, sizeof vbuf) : rule_text(t, cu, cbuf, sizeof cbuf);
        if (vk && cu && vkb_fmt_differs(cu) && !strstr(p, VKB_DIFFERS_MARK) && strcmp(p, "-") != 0) {
            snprintf(buf, sizeof buf, "%s " VKB_DIFFERS_MARK, p);
            p = buf;
            t->used.differs = 1;
        }
        vkb_fmt_cell(t->out, p, 7, 0);
    }
    {
        const char *a = vk ? check_word(t, vk) : "-", *b = cu ? check_word(t, cu) : "-";
        /* one word when both APIs agree */
        /* one word when both APIs agree, or when the row runs through one of them only */
        if (!vk || !cu || strcmp(a, b) == 0)
            snprintf(check, sizeof check, "%s", vk ? a : b);
        else
            snprintf(check, sizeof check, "%s|%s", a, b);
    }
    fprintf(t->out, "%s\n", check);
    if (vk)
        details(t, vk, "vulkan ");
    if (cu)
        details(t, cu, "cuda ");
}

/* The column names; the rate column named by UNIT (single API; paired, the title names the units). */
static void columns(table_sink *t, const char *unit)
{
    t->column_unit = unit;
    vkb_fmt_cell(t->out, "variant", t->name_w, 1);
    vkb_fmt_cell(t->out, "shape", t->shape_w, 1);
    if (t->paired) {
        vkb_fmt_cell(t->out, "vulkan", METRIC_W, 0);
        vkb_fmt_cell(t->out, "ceil%", CEIL_W, 0);
        vkb_fmt_cell(t->out, "cuda", METRIC_W, 0);
        vkb_fmt_cell(t->out, "ceil%", CEIL_W, 0);
        vkb_fmt_cell(t->out, "vk/cu", 6, 0);
        vkb_fmt_cell(t->out, "reps", 5, 0);
        vkb_fmt_cell(t->out, "IQR%", IQR_W, 0);
        if (t->repeat > 1)
            vkb_fmt_cell(t->out, "run%", IQR_W, 0);
    } else {
        vkb_fmt_cell(t->out, "median", 7, 0);
        vkb_fmt_cell(t->out, "reps", 5, 0);
        vkb_fmt_cell(t->out, "IQR%", IQR_W, 0);
        if (t->repeat > 1)
            vkb_fmt_cell(t->out, "run%", IQR_W, 0);
        vkb_fmt_cell(t->out, unit, METRIC_W, 0);
        vkb_fmt_cell(t->out, "ceil%", CEIL_W, 0);
    }
    if (t->predicts)
        vkb_fmt_cell(t->out, "rule%", RULE_W, 0);
    if (!t->paired)
        vkb_fmt_cell(t->out, "fits", 4, 1);
    fputs("check\n", t->out);
}

/* The family's title and its column names, the rate column in the unit of R, the first row. */
static void header(table_sink *t, const vkb_result *r)
{
    const vkb_family *f = t->family;
    char title[400], units[64];
    vkb_family_units(f, units, sizeof units);
    snprintf(title, sizeof title, strstr(f->summary, units) ? "== %s: %s" : "== %s: %s (%s)", f->name, f->summary,
             units);
    fputc('\n', t->out);
    vkb_fmt_wrap(t->out, 0, 3, title, t->width);
    columns(t, vkb_variant_unit(f, r->variant));
}

/* Which rule a memory family's prediction comes from, by name for the legend. */
static const char *rule_name(const vkb_family *f)
{
    if (strncmp(f->name, "memory.shared", 13) == 0)
        return "the bank-conflict rule";
    if (strcmp(f->name, "memory.uniform") == 0)
        return "the broadcast rule";
    if (strncmp(f->name, "memory.", 7) == 0)
        return "the coalescing rule";
    return "the family's rule";
}

/* A line of the run's legend: kept once (a line every table would repeat is said once, at the end). */
static void legend_line(table_sink *t, const char *text)
{
    for (int i = 0; i < t->nlegend; i++)
        if (strcmp(t->legend[i], text) == 0)
            return;
    if (t->nlegend < MAX_LEGEND) {
        size_t len = strlen(text) + 1;
        t->legend[t->nlegend] = vkb_alloc(len);
        memcpy(t->legend[t->nlegend++], text, len);
    }
}

/* A row of the family, weighed for "fastest in this family": a timed kernel row (not a ceiling, not SUSPECT,
 * not failed) with the largest share of its ceiling; without ceilings, the best metric in its direction, of the
 * family's own unit before another (GOP/s and GFLOP/s count different work: peak's integer and float rows). */
static void weigh_fastest(table_sink *t, const vkb_result *r)
{
    const vkb_result *b = t->fastest;
    int lower = r->family->time_unit_ns > 0; /* a time per operation (latency, cache.chase): fewer is faster */
    int own_r, own_b;
    if (!r->timed || r->status != VKB_RES_OK || r->suspect || (r->variant->flags & VKB_VAR_CEILING) || !(r->metric > 0))
        return;
    own_r = strcmp(vkb_variant_unit(r->family, r->variant), r->family->metric) == 0;
    own_b = b && strcmp(vkb_variant_unit(b->family, b->variant), b->family->metric) == 0;
    if (!b || (r->ceiling && (!b->ceiling || r->fraction > b->fraction)) ||
        (!r->ceiling && !b->ceiling && own_r > own_b) ||
        (!r->ceiling && !b->ceiling && own_r == own_b && (lower ? r->metric < b->metric : r->metric > b->metric)))
        t->fastest = r;
}

/* The metric's value with its interval over the middle half of the runs: "2950 ± 30 GB/s" (the metric at the
 * quartile times, half their distance); without quartiles (fewer than 3 runs) the value alone. */
static void value_interval(const vkb_result *r, char *out, size_t size)
{
    const vkb_stats *s = &r->time_ns;
    const char *unit = vkb_variant_unit(r->family, r->variant);
    double half;
    if (s->n < VKB_STATS_MIN_QUARTILES || !(s->median > 0) || !(s->q1 > 0) || !(s->q3 >= s->q1)) {
        snprintf(out, size, "%.4g %s", r->metric, unit);
        return;
    }
    if (r->family->time_unit_ns > 0) /* a time per operation: the metric grows with the time */
        half = r->metric * (s->q3 - s->q1) / s->median / 2;
    else /* a rate: the metric falls as the time grows */
        half = r->metric * s->median * (1 / s->q1 - 1 / s->q3) / 2;
    snprintf(out, size, half >= 10 ? "%.4g ± %.0f %s" : "%.4g ± %.2g %s", r->metric, half, unit);
}

/* "fastest in this family: vec4 (vulkan) n=16777216, 2950 ± 30 GB/s, 97.1% of ceiling a": the table's answer. */
static void fastest_line(table_sink *t)
{
    const vkb_result *r = t->fastest;
    char name[200], shape[64], value[96], line[600];
    if (!r)
        return;
    vkb_fmt_name(r, NULL, name, sizeof name);
    vkb_fmt_shape(r, shape, sizeof shape);
    value_interval(r, value, sizeof value);
    if (r->ceiling)
        snprintf(line, sizeof line, "fastest in this family: %s (%s) %s, %s, %.1f%% of ceiling %c", name, r->backend,
                 shape, value, 100 * r->fraction, ceiling_letter(t, r->ceiling));
    else
        snprintf(line, sizeof line, "fastest in this family: %s (%s) %s, %s (no ceiling ran)", name, r->backend, shape,
                 value);
    fputs("  ", t->out);
    vkb_fmt_wrap(t->out, 2, 4, line, t->width);
}

/* Under a family's table: its fastest row, its ceilings' letters, and the per-row notes; the markers' meanings
 * go to the run's legend (legend_line), said once at the end. */
static void legend(table_sink *t)
{
    const vkb_family *f = t->family;
    char line[800], units[64];
    size_t used = 0;
    skip_lines(t);
    fastest_line(t);
    if (t->paired)
        snprintf(line, sizeof line,
                 "vulkan, cuda: %s through each API; vk/cu: their ratio; reps, IQR%%: the fewer "
                 "runs and the larger spread (interquartile range / median); check: one word when both agree, else "
                 "vulkan|cuda",
                 vkb_family_units(f, units, sizeof units));
    else
        snprintf(line, sizeof line,
                 "median: device time of one run, median of reps runs; IQR%%: spread, interquartile "
                 "range / median");
    legend_line(t, line);
    if (f->ndims > 1) { /* what a shape's numbers are: the family's sizes in order, as its flags name them */
        size_t n = (size_t)snprintf(line, sizeof line, "shape of %s: ", f->name);
        for (int d = 0; d < f->ndims && n < sizeof line; d++)
            n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", d ? " x " : "", f->dims[d]);
        for (int d = 0; d < f->ndims && n < sizeof line; d++)
            n += (size_t)snprintf(line + n, sizeof line - n, "%s--%s", d ? ", " : " (", f->dims[d]);
        if (n < sizeof line)
            snprintf(line + n, sizeof line - n, t->used.cube ? "); N^%d: each of them N" : ")", f->ndims);
        legend_line(t, line);
    }
    for (int i = 0; i < t->nceilings; i++) /* a row of another family (a fallback ceiling) by its family too */
        used += (size_t)snprintf(line + used, sizeof line - used, "%s%c = %s%s%s (%s)", i ? ", " : "", 'a' + i,
                                 strcmp(t->ceiling[i].family, f->name) ? t->ceiling[i].family : "",
                                 strcmp(t->ceiling[i].family, f->name) ? "/" : "", t->ceiling[i].variant,
                                 t->ceiling[i].backend);
    if (t->nceilings) {
        char text[1000];
        snprintf(text, sizeof text, "ceilings: %s", line);
        fputs("  ", t->out);
        vkb_fmt_wrap(t->out, 2, 4, text, t->width);
        legend_line(t, "ceil%: % of the ceiling row's metric (the API's or a library's own way of doing the same "
                       "work); its letter names the row in the \"ceilings:\" line under the table");
    }
    if (t->used.theory)
        legend_line(t, "t: % of the theoretical rate (SMs x highest clock x the architecture's per-SM rate, CUDA C "
                       "Programming Guide; host/families/peak/peak_rates.c)");
    if (t->used.one_api)
        legend_line(t, "n/a: the row runs through one API only (a vendor library, or a kernel with no twin)");
    if (t->used.none) {
        snprintf(line, sizeof line, "(none): no ceiling ran%s%s", t->none_why[0] ? ": " : "", t->none_why);
        legend_line(t, line);
    }
    if (t->used.over100)
        legend_line(t, "ceil% over 100: the kernel beat the ceiling row; a ceiling is a reference, not a hard limit");
    if (t->used.differs) {
        snprintf(line, sizeof line,
                 "rule%%: %% of ceiling %s predicts; " VKB_DIFFERS_MARK " = DIFFERS: measured more than 25%% away",
                 rule_name(f));
        legend_line(t, line);
    } else if (t->predicts) {
        snprintf(line, sizeof line, "rule%%: %% of ceiling %s predicts (every row within 25%% of it)", rule_name(f));
        legend_line(t, line);
    }
    if (t->repeat > 1) {
        snprintf(line, sizeof line,
                 "--repeat %d: a row is the case's %d runs (in rounds: every variant once per "
                 "round): the median of their medians, all their reps, their median IQR; run%%: (slowest - fastest "
                 "run) / that median%s",
                 t->repeat, t->repeat,
                 t->used.runs_apart ? "; ! above 10%: the runs disagree, "
                                      "the machine or its clock drifted between them"
                                    : "");
        legend_line(t, line);
    }
    if (t->used.noisy) {
        snprintf(line, sizeof line,
                 "IQR%% !: a spread above %.0f%%: the repetitions disagree, so the machine was "
                 "busy or the clock unstable while they ran: rerun on an idle machine before trusting a difference of "
                 "that size",
                 100 * VKB_NOISY_IQR);
        legend_line(t, line);
    }
    if (t->used.unsettled)
        legend_line(t, "~: the median had not settled when the time budget ran out: a rough number (raise "
                       "--budget-ms)");
    if (t->used.host_timed)
        legend_line(t, "h: timed on the host's clock (submission to fence, launch to synchronize, or the host's own "
                       "copies), not with GPU timestamps");
    if (t->used.measured_fit)
        legend_line(t, "fits: from the last-level cache size vkbench measured on this device (cache.chase; "
                       "`vkbench devices` shows it), neither the driver nor CUDA reports one");
    if (t->used.unknown_fit)
        legend_line(t, "fits ?: Vulkan alone cannot tell the cache size: in cache (L2) or not (DRAM) is unknown");
    if (t->used.nobc)
        legend_line(t, VKB_NOBC_MARK ": Vulkan pipelines built without the driver's bounds checks on buffer accesses "
                                     "(--robustness disabled); CUDA rows are unaffected");
    if (t->used.cross)
        legend_line(t, "ok*: within tolerance, but some elements differ bitwise between the APIs (JSON: "
                       "cross_backend)");
    if (t->used.fail)
        legend_line(t, "FAIL: the output is wrong (what is wrong: under the row); the run exits with status 1");
    if (t->used.suspect)
        legend_line(t, "SUSPECT: implausible timing (beyond a physical bound, or timestamps out of order): the "
                       "reason is under the table; the run exits with status 1");
    for (int i = 0; i < t->nnotes; i++) {
        fputs("    ", t->out);
        vkb_fmt_wrap(t->out, 4, 6, t->notes[i], t->width);
        free(t->notes[i]);
    }
    if (t->dropped_notes)
        fprintf(t->out, "    and %d more (the JSON has each one's suspect_reason)\n", t->dropped_notes);
    t->nnotes = t->dropped_notes = 0;
}

/* The run's legend, once, at its end: every marker any table used, each distinct line once. */
static void run_legend(table_sink *t)
{
    if (!t->nlegend)
        return;
    fputs("\nlegend:\n", t->out);
    for (int i = 0; i < t->nlegend; i++) {
        fputs("  ", t->out);
        vkb_fmt_wrap(t->out, 2, 4, t->legend[i], t->width);
        free(t->legend[i]);
    }
    t->nlegend = 0;
}

static void table_begin(vkb_sink *s, const vkb_run_settings *set, vkb_backend *const *backends, int nbackends,
                        const vkb_run_plan *plan)
{
    table_sink *t = s->impl;
    (void)plan;
    t->paired = set->paired;
    t->sg_w = set->subgroup_size ? (int)strlen("@sg") + (set->subgroup_size >= 100  ? 3
                                                         : set->subgroup_size >= 10 ? 2
                                                                                    : 1)
                                 : 0;
    t->sg_w += set->robustness_off ? (int)strlen(VKB_NOBC_MARK) : 0;
    t->home = nbackends > 0 ? backends[0]->name : NULL;
    for (int i = 0; i < nbackends; i++)
        t->have_cuda |= strcmp(backends[i]->name, "cuda") == 0;
    /* the device first: a saved table says what it measured */
    t->backends = backends;
    t->nbackends = nbackends;
    t->command = set->command && strcmp(set->command, "suite") == 0 ? "suite" : "run";
    t->repeat = set->repeat;
    vkb_progress_pause(t->out);
    vkb_identity_print(t->out, "", backends, nbackends, t->width);
    fflush(t->out);
    vkb_progress_resume();
}

/* The name column: as wide as the family's longest name needs, at most what the width leaves. */
static void layout(table_sink *t, const vkb_family *f)
{
    int fixed, natural = 7;
    t->shape_w = f->ndims == 1 ? 9 : f->ndims == 2 ? 11 : 14;
    for (int v = 0; v < f->nvariants; v++) {
        int n = (int)strlen(f->variants[v].name) + (t->paired ? 0 : 5) + t->sg_w; /* "@cuda" */
        natural = n > natural ? n : natural;
    }
    natural += 8; /* room for short --spec constants */
    fixed = t->shape_w + 1 +
            (t->paired ? 2 * (METRIC_W + 1 + CEIL_W + 1) + 7 + 6 + IQR_W + 1
                       : 8 + 6 + IQR_W + 1 + METRIC_W + 1 + CEIL_W + 1 + 5) +
            (t->predicts ? RULE_W + 1 : 0) + (t->repeat > 1 ? IQR_W + 1 : 0) + (t->paired ? 9 : 7);
    t->name_w = natural;
    if (t->width > 0 && natural + 1 + fixed > t->width)
        t->name_w = t->width - 1 - fixed;
    if (t->name_w < 9) /* 80 columns with rule% leave 9: a name cut to fit, never dropped */
        t->name_w = 9;
}

static void table_family_begin(vkb_sink *s, const vkb_family *f)
{
    table_sink *t = s->impl;
    t->family = f;
    t->predicts = f->predict != NULL;
    t->started = 0;
    memset(&t->used, 0, sizeof t->used);
    t->nceilings = 0;
    t->none_why[0] = 0;
    t->npending = 0;
    t->fastest = NULL;
    t->nskips = 0;
    layout(t, f);
    /* a ceiling only CUDA can run (cuBLAS, CUB) leaves Vulkan's rows without one where there is no CUDA */
    if (!t->have_cuda) {
        int n = 0;
        for (int v = 0; v < f->nvariants; v++)
            if ((f->variants[v].flags & VKB_VAR_CEILING) && (f->variants[v].flags & VKB_VAR_CUDA_ONLY)) {
                size_t used = strlen(t->none_why);
                snprintf(t->none_why + used, sizeof t->none_why - used, "%s%s", n++ ? ", " : "", f->variants[v].name);
            }
        if (n) {
            size_t used = strlen(t->none_why);
            snprintf(t->none_why + used, sizeof t->none_why - used,
                     " need%s CUDA (a vendor library), which is not "
                     "available here",
                     n == 1 ? "s" : "");
        }
    }
}

static int same_case(const vkb_result *a, const vkb_result *b)
{
    return a->variant == b->variant && memcmp(&a->shape, &b->shape, sizeof a->shape) == 0 &&
           strcmp(a->constants, b->constants) == 0;
}

static void table_result(vkb_sink *s, const vkb_result *r)
{
    table_sink *t = s->impl;
    if (r->repeats > 1 && r->repeat >= 0) { /* --repeat: one row once the case's last run is in */
        const vkb_folded *folded = vkb_repeats_add(&t->runs, r);
        if (!folded)
            return;
        r = &folded->r;
    }
    vkb_progress_pause(t->out);
    t->passed += r->status == VKB_RES_OK && !r->suspect;
    t->failed += r->status == VKB_RES_FAIL;
    t->skipped += r->status == VKB_RES_SKIP;
    t->suspect += r->status == VKB_RES_OK && r->suspect;
    if (!t->family || t->family != r->family)
        table_family_begin(s, r->family);
    if (!t->started) {
        header(t, r);
        t->started = 1;
    }
    if ((r->variant->flags & VKB_VAR_CEILING) && r->status == VKB_RES_SKIP && !t->none_why[0])
        snprintf(t->none_why, sizeof t->none_why, "%s: %s", r->variant->name, r->skip_reason);
    weigh_fastest(t, r);
    if (!t->paired) {
        single_row(t, r);
    } else if (r->variant->flags & (VKB_VAR_VULKAN_ONLY | VKB_VAR_CUDA_ONLY)) {
        int cuda = strcmp(r->backend, "cuda") == 0;
        paired_row(t, cuda ? NULL : r, cuda ? r : NULL);
    } else {
        /* wait for the other API's result of the same case; print the pair when both are in */
        int i;
        for (i = 0; i < t->npending && !same_case(t->pending[i], r); i++)
            ;
        if (i < t->npending) {
            const vkb_result *o = t->pending[i];
            int cuda = strcmp(r->backend, "cuda") == 0;
            t->pending[i] = t->pending[--t->npending];
            paired_row(t, cuda ? o : r, cuda ? r : o);
        } else if (t->npending < MAX_PENDING) {
            t->pending[t->npending++] = r;
        } else {
            int cuda = strcmp(r->backend, "cuda") == 0;
            paired_row(t, cuda ? NULL : r, cuda ? r : NULL);
        }
    }
    fflush(t->out);
    vkb_progress_resume();
}

static void table_family_end(vkb_sink *s, const vkb_family *f)
{
    table_sink *t = s->impl;
    const vkb_folded *folded;
    (void)f;
    /* --repeat stopped early: the cases it has runs of, folded from those */
    while (t->family && (folded = vkb_repeats_incomplete(&t->runs)))
        table_result(s, &folded->r);
    vkb_progress_pause(t->out);
    for (int i = 0; i < t->npending; i++) {
        const vkb_result *r = t->pending[i];
        int cuda = strcmp(r->backend, "cuda") == 0;
        paired_row(t, cuda ? NULL : r, cuda ? r : NULL);
    }
    t->npending = 0;
    if (t->started)
        legend(t);
    t->started = 0;
    t->family = NULL;
    fflush(t->out);
    vkb_progress_resume();
}

static int table_end(vkb_sink *s, int interrupted)
{
    table_sink *t = s->impl;
    char counts[160], device[1200], line[1400];
    if (t->family)
        table_family_end(s, t->family); /* an interrupted run still prints what finished */
    /* the closing summary names the device again: the end of a long log is where a reader looks */
    snprintf(counts, sizeof counts, "%d passed, %d failed, %d skipped", t->passed, t->failed, t->skipped);
    if (t->suspect)
        snprintf(counts + strlen(counts), sizeof counts - strlen(counts), ", %d suspect", t->suspect);
    snprintf(line, sizeof line, "%s: %s on %s%s", t->command ? t->command : "run", counts,
             vkb_identity_short(t->backends, t->nbackends, device, sizeof device),
             interrupted ? " (stopped early)" : "");
    vkb_progress_pause(t->out);
    run_legend(t);
    fputc('\n', t->out);
    vkb_fmt_wrap(t->out, 0, 4, line, t->width);
    fflush(t->out);
    return VKB_EXIT_OK;
}

static void table_destroy(vkb_sink *s)
{
    table_sink *t = s->impl;
    vkb_identity_set_table(NULL);
    vkb_repeats_free(&t->runs);
    for (int i = 0; i < t->nnotes; i++)
        free(t->notes[i]);
    for (int i = 0; i < t->nlegend; i++)
        free(t->legend[i]);
}

vkb_sink *vkb_sink_table_create(FILE *out, int width)
{
    table_sink *t = vkb_calloc(1, sizeof *t);
    t->out = out;
    t->width = width;
    vkb_identity_set_table(out);
    t->base.begin = table_begin;
    t->base.family_begin = table_family_begin;
    t->base.family_end = table_family_end;
    t->base.result = table_result;
    t->base.end = table_end;
    t->base.destroy = table_destroy;
    t->base.impl = t;
    return &t->base;
}
