/* csv_sink.c - one CSV row per result, written as it arrives (RFC 4180 quoting, UTF-8 text). */
#include "sinks.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "format.h"
#include "json.h"
#include "outfile.h"
#include "util.h"

typedef struct csv_sink {
    vkb_sink base;
    vkb_outfile *file;
    FILE *out;
    vkb_backend *const *backends;
    int nbackends;
} csv_sink;

static const char *const columns =
    "family,variant,backend,device,shape,constants,status,skip_reason,reps,settled,min_ms,q1_ms,median_ms,"
    "q3_ms,max_ms,mean_ms,stddev_ms,iqr_over_median,metric_name,metric,ceiling_variant,ceiling_backend,ceiling,"
    "fraction,predicted,fits_in_cache,max_error,tolerance,suspect,suspect_reason,repeat,subgroup_size,device_index,"
    "uuid,"
    "pci_bus,driver,host,robustness,values\n";

/* A text field: quoted when it holds a comma, a quote or a line break; NULL is empty. */
static void text(FILE *out, const char *s, int last)
{
    if (s && strpbrk(s, ",\"\r\n")) {
        fputc('"', out);
        for (const char *p = s; *p; p++) {
            char one[2] = {*p, 0};
            if (*p == '"')
                fputs("\"\"", out);
            else if ((unsigned char)*p < 0x80)
                fputs(one, out);
            else {
                int n = vkb_utf8_sequence(p);
                fwrite(n ? p : "\xef\xbf\xbd", 1, n ? (size_t)n : 3, out);
                p += n ? n - 1 : 0;
            }
        }
        fputc('"', out);
    } else if (s) {
        vkb_utf8_write(out, s);
    }
    fputc(last ? '\n' : ',', out);
}

/* A number: empty when unknown (not finite, or WHEN is 0). */
static void number(FILE *out, double v, int when)
{
    if (when && isfinite(v))
        fprintf(out, "%.6g", v);
    fputc(',', out);
}

/* R's named values in one field, "tag=value unit; ..." (their sources are in the JSON); NULL when none. */
static const char *named_values(const vkb_result *r, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < r->nvalues && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s=%.6g %s", i ? "; " : "", r->values[i].tag,
                                 r->values[i].value, r->values[i].unit);
    return r->nvalues ? buf : NULL;
}

static void csv_begin(vkb_sink *s, const vkb_run_settings *set, vkb_backend *const *backends, int nbackends,
                      const vkb_run_plan *plan)
{
    csv_sink *cs = s->impl;
    (void)set;
    (void)plan;
    cs->backends = backends;
    cs->nbackends = nbackends;
}

static void csv_result(vkb_sink *s, const vkb_result *r)
{
    csv_sink *cs = s->impl;
    FILE *out = cs->out;
    const vkb_caps *device = NULL;
    char shape[64], uuid[40], values[VKB_MAX_VALUES * 80];
    int t = r->timed, c = r->timed && r->ceiling != NULL, checked = r->status != VKB_RES_SKIP;
    if (vkb_outfile_failed(cs->file))
        return;
    for (int i = 0; i < cs->nbackends; i++)
        if (strcmp(cs->backends[i]->name, r->backend) == 0 && cs->backends[i]->caps.index == r->device_index)
            device = &cs->backends[i]->caps;
    text(out, r->family->name, 0);
    text(out, r->variant->name, 0);
    text(out, r->backend, 0);
    text(out, device ? device->name : NULL, 0);
    text(out, vkb_shape_text(r->family, &r->shape, shape, sizeof shape), 0);
    text(out, r->constants[0] ? r->constants : NULL, 0);
    text(out, vkb_fmt_status(r), 0);
    text(out, r->status == VKB_RES_SKIP ? r->skip_reason : NULL, 0);
    fprintf(out, "%d,", t ? r->time_ns.n : 0);
    text(out, t ? (r->time_ns.settled ? "true" : "false") : NULL, 0);
    number(out, r->time_ns.min / 1e6, t);
    number(out, r->time_ns.q1 / 1e6, t && r->time_ns.n >= VKB_STATS_MIN_QUARTILES); /* empty, as in the JSON's null */
    number(out, r->time_ns.median / 1e6, t);
    number(out, r->time_ns.q3 / 1e6, t && r->time_ns.n >= VKB_STATS_MIN_QUARTILES);
    number(out, r->time_ns.max / 1e6, t);
    number(out, r->time_ns.mean / 1e6, t);
    number(out, r->time_ns.stddev / 1e6, t && r->time_ns.n >= VKB_STATS_MIN_STDDEV);
    number(out, vkb_stats_iqr_ratio(&r->time_ns), t && r->time_ns.n >= VKB_STATS_MIN_QUARTILES);
    text(out, vkb_variant_unit(r->family, r->variant), 0);
    number(out, r->metric, t);
    text(out, c ? r->ceiling->variant->name : NULL, 0);
    text(out, c ? r->ceiling->backend : NULL, 0);
    number(out, c ? r->ceiling->metric : NAN, c);
    number(out, r->fraction, c);
    number(out, r->predicted, r->family->predict != NULL);
    text(out, r->cache_fits < 0 ? NULL : r->cache_fits ? "true" : "false", 0);
    number(out, r->check.max_error, checked);
    number(out, r->check.tolerance, checked);
    text(out, r->suspect ? "true" : "false", 0);
    text(out, r->suspect ? r->suspect_reason : NULL, 0);
    if (r->repeats > 0)
        fprintf(out, "%d", r->repeat); /* --repeat: which run of the case; empty without */
    fputc(',', out);
    if (r->subgroup_size)
        fprintf(out, "%u", r->subgroup_size);
    fputc(',', out);
    fprintf(out, "%d,", r->device_index);
    text(out, device ? vkb_fmt_uuid(device->uuid, uuid, sizeof uuid) : NULL, 0);
    text(out, device && device->pci_bus[0] ? device->pci_bus : NULL, 0);
    text(out, device ? device->driver : NULL, 0);
    text(out, vkb_host_name(), 0);
    text(out, vkb_robustness_name(r->robustness), 0); /* --robustness; empty for CUDA */
    text(out, named_values(r, values, sizeof values), 1);
    if (out == stdout)
        fflush(stdout);
}

static int csv_end(vkb_sink *s, int interrupted)
{
    csv_sink *cs = s->impl;
    int rc;
    /* every row written is whole; a run stopped early says so in a last line that CSV readers skip as a
     * comment (pandas: comment='#'), since a column could not say it in the rows already written */
    if (interrupted && !vkb_outfile_failed(cs->file))
        fputs("# interrupted: the run was stopped before its last case\n", cs->out);
    if (vkb_fatal_message() && !vkb_outfile_failed(cs->file)) {
        fputs("# error: ", cs->out); /* a fatal error ended the run: a comment line after the last row */
        text(cs->out, vkb_fatal_message(), 1);
    }
    rc = vkb_outfile_close(cs->file);
    cs->file = NULL;
    return rc ? VKB_EXIT_OUTPUT : VKB_EXIT_OK;
}

static void csv_destroy(vkb_sink *s)
{
    csv_sink *cs = s->impl;
    if (cs->file)
        vkb_outfile_discard(cs->file);
}

vkb_sink *vkb_sink_csv_create(const char *path)
{
    csv_sink *cs = vkb_calloc(1, sizeof *cs);
    cs->file = vkb_outfile_open(path, "--csv");
    if (!cs->file)
        vkb_die(VKB_EXIT_OUTPUT, "cannot write %s (--csv): %s", path, vkb_outfile_reason());
    cs->out = vkb_outfile_stream(cs->file);
    fputs(columns, cs->out);
    cs->base.begin = csv_begin;
    cs->base.result = csv_result;
    cs->base.end = csv_end;
    cs->base.destroy = csv_destroy;
    cs->base.impl = cs;
    return &cs->base;
}
