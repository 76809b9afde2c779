/* peaks.c - `vkbench peaks`: every number type's validated peak and the memory bandwidth, one line each. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "identity.h"
#include "sinks.h"
#include "util.h"

#define PEAKS_MAX 64

typedef struct peaks_sink {
    vkb_sink base;
    FILE *out;
    int verbose;
    vkb_backend *const *backends;
    int nbackends;
    const vkb_result *rows[PEAKS_MAX]; /* the peak family's results, in the run's order */
    int nrows;
    const vkb_result *best, *api; /* copy: the fastest row other than the API copy, and the API copy */
    int failed, suspect;
} peaks_sink;

static void peaks_begin(vkb_sink *s, const vkb_run_settings *set, vkb_backend *const *backends, int nbackends,
                        const vkb_run_plan *plan)
{
    peaks_sink *p = s->impl;
    (void)set, (void)plan;
    p->backends = backends;
    p->nbackends = nbackends;
    vkb_progress_pause(p->out);
    vkb_identity_print(p->out, "", backends, nbackends, 0);
    fflush(p->out);
    vkb_progress_resume();
}

static void peaks_result(vkb_sink *s, const vkb_result *r)
{
    peaks_sink *p = s->impl;
    p->failed += r->status == VKB_RES_FAIL;
    p->suspect += r->status == VKB_RES_OK && r->suspect;
    if (strcmp(r->family->name, "copy") == 0) {
        if (r->variant->flags & VKB_VAR_API_COPY)
            p->api = r;
        else if (r->status == VKB_RES_OK && r->timed && (!p->best || r->metric > p->best->metric))
            p->best = r;
        else if (r->status == VKB_RES_FAIL && !p->best)
            p->best = r; /* a failed row is shown, never hidden behind a faster one */
    } else if (p->nrows < PEAKS_MAX) {
        p->rows[p->nrows++] = r;
    }
}

/* "ok", "FAIL", "SUSPECT": the row's check verdict, in the table's words. */
static const char *verdict(const vkb_result *r)
{
    return r->status == VKB_RES_FAIL ? "FAIL" : r->suspect ? "SUSPECT" : "ok";
}

/* A value in the table's one format: two decimals, as the JSON's number rounds (the test compares them). */
static const char *number(double v, char *buf, size_t len)
{
    if (!(v > 0) || !isfinite(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2f", v);
    return buf;
}

/* One line: NAME, VALUE UNIT, the CEILING's name and value with the share, the check. */
static void line(FILE *out, const char *name, const vkb_result *r, const char *ceil_name, double ceil)
{
    char value[32], c[32], share[16] = "";
    if (ceil > 0 && r->status == VKB_RES_OK && r->metric > 0)
        snprintf(share, sizeof share, "%.0f%%", 100.0 * r->metric / ceil);
    fprintf(out, "%-18s %12s %-8s %-12s %12s %5s  %s\n", name,
            number(r->status == VKB_RES_OK ? r->metric : NAN, value, sizeof value),
            vkb_variant_unit(r->family, r->variant), ceil > 0 ? ceil_name : "-", number(ceil, c, sizeof c), share,
            r->status == VKB_RES_FAIL ? "FAIL (validation)" : verdict(r));
}

static int peaks_end(vkb_sink *s, int interrupted)
{
    peaks_sink *p = s->impl;
    char skipped[1600] = "", device[1200];
    size_t used = 0;
    int nskipped = 0, shown = 0;
    vkb_progress_pause(p->out);
    fprintf(p->out, "\n%-18s %12s %-8s %-12s %12s %5s  %s\n", "number type", "peak", "unit", "ceiling", "value",
            "share", "check");
    for (int i = 0; i < p->nrows; i++) {
        const vkb_result *r = p->rows[i];
        if (r->status == VKB_RES_SKIP) { /* the device lacks the type (or the build the shader): one line below */
            used += (size_t)snprintf(skipped + used, used < sizeof skipped ? sizeof skipped - used : 0, "%s%s",
                                     nskipped++ ? ", " : "", r->variant->name);
            continue;
        }
        /* a row's ceiling: a ceiling row where the family has one, else the device's theoretical rate */
        line(p->out, r->variant->name, r, r->ceiling ? r->ceiling->variant->name : "theoretical",
             r->ceiling ? r->ceiling->metric : r->theoretical);
        shown++;
    }
    if (p->best)
        line(p->out, "bandwidth", p->best, "api_copy", p->api && p->api->status == VKB_RES_OK ? p->api->metric : 0);
    if (p->best && p->best->status == VKB_RES_OK)
        fprintf(p->out, "  bandwidth: copy/%s at %s words, bytes read + written; api_copy: the API's copy of them\n",
                p->best->variant->name, vkb_fmt_shape(p->best, device, sizeof device));
    if (nskipped && used < sizeof skipped) {
        char text[1700];
        snprintf(text, sizeof text, "not on this device: %s%s", skipped,
                 p->verbose ? "" : " (-v: each with its reason)");
        vkb_fmt_wrap(p->out, 0, 2, text, VKB_TABLE_WIDTH);
        for (int i = 0; i < p->nrows && p->verbose; i++)
            if (p->rows[i]->status == VKB_RES_SKIP)
                fprintf(p->out, "  %s: %s\n", p->rows[i]->variant->name, p->rows[i]->skip_reason);
    }
    {
        char text[1400];
        snprintf(text, sizeof text, "peaks: %d number type%s and the bandwidth, %s on %s%s", shown,
                 shown == 1 ? "" : "s",
                 p->failed    ? "some rows FAILED validation"
                 : p->suspect ? "some rows are SUSPECT"
                              : "every row validated",
                 vkb_identity_short(p->backends, p->nbackends, device, sizeof device),
                 interrupted ? " (stopped early)" : "");
        fputc('\n', p->out);
        vkb_fmt_wrap(p->out, 0, 4, text, VKB_TABLE_WIDTH);
    }
    fflush(p->out);
    vkb_progress_resume();
    return VKB_EXIT_OK;
}

static void peaks_destroy(vkb_sink *s)
{
    (void)s;
    vkb_identity_set_table(NULL);
}

vkb_sink *vkb_sink_peaks_create(FILE *out, int verbose)
{
    peaks_sink *p = vkb_calloc(1, sizeof *p);
    p->out = out;
    p->verbose = verbose;
    vkb_identity_set_table(out);
    p->base.begin = peaks_begin;
    p->base.result = peaks_result;
    p->base.end = peaks_end;
    p->base.destroy = peaks_destroy;
    p->base.impl = p;
    return &p->base;
}
