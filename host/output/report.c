/* report.c - results as an aligned table, a validation matrix, a JSON document and CSV. */
#include "report.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "json.h"
#include "util.h"

#ifndef VKB_VERSION
#define VKB_VERSION "0.0.0"
#endif
#define VKB_JSON_SCHEMA 1

const char *vkb_report_time(double ns, char *buf, size_t len)
{
    if (ns < 1e3)
        snprintf(buf, len, "%.0f ns", ns);
    else if (ns < 1e6)
        snprintf(buf, len, "%.2f us", ns / 1e3);
    else if (ns < 1e9)
        snprintf(buf, len, "%.3f ms", ns / 1e6);
    else
        snprintf(buf, len, "%.3f s", ns / 1e9);
    return buf;
}

static const char *full_name(const vkb_result *r, char *buf, size_t len)
{
    /* --spec: the constants set follow the name, so a tuned row is never mistaken for the table's */
    snprintf(buf, len, "%s/%s%s%s%s", r->family->name, r->variant->name, r->constants[0] ? "[" : "", r->constants,
             r->constants[0] ? "]" : "");
    return buf;
}

/* "ok", "FAIL 3 of 100 (first at 17)", "skip: reason"; with the error against its bound. */
static const char *verdict(const vkb_result *r, char *buf, size_t len)
{
    if (r->status == VKB_RES_SKIP)
        snprintf(buf, len, "skip: %s", r->skip_reason);
    else if (r->status == VKB_RES_FAIL)
        snprintf(buf, len, "FAIL %llu of %llu wrong (first at %llu), %s",
                 (unsigned long long)r->check.bad, (unsigned long long)r->check.checked,
                 (unsigned long long)r->check.first_bad, r->check.method);
    else if (r->check.tolerance > 0)
        snprintf(buf, len, "ok err %.2g <= %.2g (%s)", r->check.max_error, r->check.tolerance, r->check.method);
    else
        snprintf(buf, len, "ok (%s)", r->check.method);
    if (r->cross && r->cross_differing && r->status != VKB_RES_SKIP) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "; differs from the other backend in %llu elements by <= %.2g",
                 (unsigned long long)r->cross_differing, r->cross_max_diff);
    }
    return buf;
}

static const char *metric_text(const vkb_result *r, char *buf, size_t len)
{
    if (!r->timed)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.1f", r->metric);
    return buf;
}

static const char *fraction_text(const vkb_result *r, char *buf, size_t len)
{
    if (!r->timed)
        snprintf(buf, len, "-");
    else if (r->variant->flags & VKB_VAR_CEILING)
        snprintf(buf, len, "ceiling");
    else if (!r->ceiling)
        snprintf(buf, len, "(none)");
    else
        snprintf(buf, len, "%.1f%% %s%s%s", 100 * r->fraction, r->ceiling->variant->name,
                 strcmp(r->ceiling->backend, r->backend) ? "@" : "",
                 strcmp(r->ceiling->backend, r->backend) ? r->ceiling->backend : "");
    return buf;
}

/* The family's predicted fraction of the ceiling, marked where the measured one is off by more than 25%. */
static const char *predicted_text(const vkb_result *r, char *buf, size_t len)
{
    double ratio = r->fraction / r->predicted;
    if (isnan(r->predicted))
        snprintf(buf, len, "-");
    else if (r->timed && r->ceiling && !(r->variant->flags & VKB_VAR_CEILING) && (ratio < 0.8 || ratio > 1.25))
        snprintf(buf, len, "%.1f%% DIFFERS", 100 * r->predicted);
    else
        snprintf(buf, len, "%.1f%%", 100 * r->predicted);
    return buf;
}

static const char *cache_text(const vkb_result *r)
{
    return r->cache_fits < 0 ? "?" : r->cache_fits ? "L2" : "DRAM";
}

static void table_single(FILE *out, const vkb_result *rs, int first, int last)
{
    const char *metric = rs[first].family->metric;
    int pred = rs[first].family->predict != NULL;
    char name[224], shape[64], t[32], m[32], f[64], v[400], p[32];
    fprintf(out, "%-28s %-7s %-16s %11s %6s %10s %-26s %s%-5s %s\n", "variant", "backend", "shape", "median",
            "+-sd", metric, "of ceiling", pred ? "predicted     " : "", "fits", "check");
    for (int i = first; i < last; i++) {
        const vkb_result *r = &rs[i];
        fprintf(out, "%-28s %-7s %-16s %11s %5.1f%% %10s %-26s ", full_name(r, name, sizeof name),
                r->backend, vkb_shape_text(r->family, &r->shape, shape, sizeof shape),
                r->timed ? vkb_report_time(r->time_ns.median, t, sizeof t) : "-",
                r->timed && r->time_ns.median > 0 ? 100 * r->time_ns.stddev / r->time_ns.median : 0.0,
                metric_text(r, m, sizeof m), fraction_text(r, f, sizeof f));
        if (pred)
            fprintf(out, "%-13s ", predicted_text(r, p, sizeof p));
        fprintf(out, "%-5s %s\n", cache_text(r), verdict(r, v, sizeof v));
    }
}

/* Vulkan and CUDA side by side: rows are (variant, shape); the ratio is Vulkan's metric over CUDA's. */
static void table_paired(FILE *out, const vkb_result *rs, int first, int last)
{
    char name[224], shape[64], m0[32], m1[32], f0[64], f1[64], v0[400], v1[400], ratio[16], p0[32], p1[32], pp[80];
    int pred = rs[first].family->predict != NULL;
    fprintf(out, "%-28s %-16s %10s %-22s %10s %-22s %8s  %s%s\n", "variant", "shape", "vulkan", "of ceiling", "cuda",
            "of ceiling", "vk/cuda", pred ? "predicted (vulkan | cuda)  " : "", "check (vulkan | cuda)");
    for (int i = first; i < last; i++) {
        const vkb_result *a = &rs[i], *b = NULL;
        int seen = 0;
        /* print each (variant, shape) once, at its first result */
        for (int j = first; j < i; j++)
            seen |= rs[j].variant == a->variant && memcmp(&rs[j].shape, &a->shape, sizeof a->shape) == 0;
        if (seen)
            continue;
        for (int j = i + 1; j < last && !b; j++)
            if (rs[j].variant == a->variant && memcmp(&rs[j].shape, &a->shape, sizeof a->shape) == 0)
                b = &rs[j];
        if (strcmp(a->backend, "cuda") == 0) {
            const vkb_result *t = a;
            a = b;
            b = t;
        }
        snprintf(ratio, sizeof ratio, "-");
        if (a && b && a->timed && b->timed && b->metric > 0)
            snprintf(ratio, sizeof ratio, "%.3f", a->metric / b->metric);
        fprintf(out, "%-28s %-16s %10s %-22s %10s %-22s %8s  ", full_name(a ? a : b, name, sizeof name),
                vkb_shape_text(rs[i].family, &rs[i].shape, shape, sizeof shape), a ? metric_text(a, m0, sizeof m0) : "n/a",
                a ? fraction_text(a, f0, sizeof f0) : "", b ? metric_text(b, m1, sizeof m1) : "n/a",
                b ? fraction_text(b, f1, sizeof f1) : "", ratio);
        if (pred) {
            snprintf(pp, sizeof pp, "%s | %s", a ? predicted_text(a, p0, sizeof p0) : "-",
                     b ? predicted_text(b, p1, sizeof p1) : "-");
            fprintf(out, "%-26s ", pp);
        }
        fprintf(out, "%s | %s\n", a ? verdict(a, v0, sizeof v0) : "-", b ? verdict(b, v1, sizeof v1) : "-");
    }
}

void vkb_report_table(FILE *out, const vkb_result *r, int first, int last, int paired)
{
    if (first >= last)
        return;
    fprintf(out, "\n== %s: %s (%s; time = device time of the kernel between full barriers, median of the "
            "repetitions)\n", r[first].family->name, r[first].family->summary, r[first].family->metric);
    if (paired)
        table_paired(out, r, first, last);
    else
        table_single(out, r, first, last);
}

void vkb_report_matrix(FILE *out, const vkb_result *rs, int first, int last)
{
    char name[224], shape[64], v[400];
    int fails = 0, skips = 0, oks = 0;
    if (first >= last)
        return;
    fprintf(out, "\n== validate %s\n%-28s %-7s %-16s %-6s %10s %10s  %s\n", rs[first].family->name, "variant",
            "backend", "shape", "result", "max error", "tolerance", "detail");
    for (int i = first; i < last; i++) {
        const vkb_result *r = &rs[i];
        const char *word = r->status == VKB_RES_OK ? "ok" : r->status == VKB_RES_FAIL ? "FAIL" : "skip";
        fails += r->status == VKB_RES_FAIL;
        skips += r->status == VKB_RES_SKIP;
        oks += r->status == VKB_RES_OK;
        fprintf(out, "%-28s %-7s %-16s %-6s %10.3g %10.3g  %s\n", full_name(r, name, sizeof name), r->backend,
                vkb_shape_text(r->family, &r->shape, shape, sizeof shape), word,
                r->status == VKB_RES_SKIP ? 0.0 : r->check.max_error, r->check.tolerance, verdict(r, v, sizeof v));
    }
    fprintf(out, "%s: %d passed, %d failed, %d skipped\n", rs[first].family->name, oks, fails, skips);
}

static void json_caps(vkb_json *j, const vkb_backend *b)
{
    const vkb_caps *c = &b->caps;
    vkb_json_object_begin(j, NULL);
    vkb_json_string(j, "backend", b->name);
    vkb_json_string(j, "name", c->name);
    vkb_json_string(j, "type", c->type);
    vkb_json_string(j, "driver", c->driver);
    vkb_json_string(j, "api_version", c->api_version);
    vkb_json_int(j, "subgroup_size", c->subgroup_size);
    vkb_json_int(j, "subgroup_size_min", c->subgroup_min);
    vkb_json_int(j, "subgroup_size_max", c->subgroup_max);
    vkb_json_int(j, "shared_memory_bytes", c->max_shared_bytes);
    vkb_json_int(j, "uniform_buffer_bytes", c->max_uniform_bytes);
    vkb_json_int(j, "device_memory_bytes", (int64_t)c->device_memory_bytes);
    if (c->cache_bytes)
        vkb_json_int(j, "cache_bytes", (int64_t)c->cache_bytes);
    else
        vkb_json_null(j, "cache_bytes");
    if (c->compute_units)
        vkb_json_int(j, "compute_units", c->compute_units);
    else
        vkb_json_null(j, "compute_units");
    vkb_json_object_end(j);
}

static void json_result(vkb_json *j, const vkb_result *r)
{
    char shape[64];
    const char *status = r->status == VKB_RES_OK ? "ok" : r->status == VKB_RES_FAIL ? "fail" : "skip";
    vkb_json_object_begin(j, NULL);
    vkb_json_string(j, "family", r->family->name);
    vkb_json_string(j, "variant", r->variant->name);
    vkb_json_string(j, "backend", r->backend);
    vkb_json_object_begin(j, "shape");
    for (int d = 0; d < r->family->ndims; d++)
        vkb_json_int(j, r->family->dims[d], r->shape.d[d]);
    vkb_json_object_end(j);
    vkb_json_string(j, "shape_text", vkb_shape_text(r->family, &r->shape, shape, sizeof shape));
    vkb_json_string(j, "status", status);
    vkb_json_string(j, "skip_reason", r->status == VKB_RES_SKIP ? r->skip_reason : NULL);
    vkb_json_string(j, "constants", r->constants[0] ? r->constants : NULL);
    vkb_json_bool(j, "ceiling_row", (r->variant->flags & VKB_VAR_CEILING) != 0);
    vkb_json_bool(j, "deterministic", !(r->variant->flags & VKB_VAR_NONDETERMINISTIC));
    vkb_json_int(j, "reps", r->timed ? r->time_ns.n : 0);
    if (r->timed) {
        vkb_json_object_begin(j, "time_ms");
        vkb_json_number(j, "min", r->time_ns.min / 1e6);
        vkb_json_number(j, "median", r->time_ns.median / 1e6);
        vkb_json_number(j, "mean", r->time_ns.mean / 1e6);
        vkb_json_number(j, "stddev", r->time_ns.stddev / 1e6);
        vkb_json_number(j, "max", r->time_ns.max / 1e6);
        vkb_json_object_end(j);
        vkb_json_object_begin(j, "metric");
        vkb_json_string(j, "name", r->family->metric);
        vkb_json_number(j, "value", r->metric);
        vkb_json_number(j, "ceiling", r->ceiling ? r->ceiling->metric : NAN);
        vkb_json_string(j, "ceiling_variant", r->ceiling ? r->ceiling->variant->name : NULL);
        vkb_json_string(j, "ceiling_backend", r->ceiling ? r->ceiling->backend : NULL);
        vkb_json_number(j, "fraction", r->ceiling ? r->fraction : NAN);
        if (r->family->predict)
            vkb_json_number(j, "predicted_fraction", r->predicted);
        vkb_json_object_end(j);
    } else {
        vkb_json_null(j, "time_ms");
        vkb_json_null(j, "metric");
    }
    vkb_json_number(j, "work", r->work);
    vkb_json_int(j, "working_set_bytes", (int64_t)r->working_set_bytes);
    if (r->cache_fits < 0)
        vkb_json_null(j, "fits_in_cache");
    else
        vkb_json_bool(j, "fits_in_cache", r->cache_fits);
    vkb_json_bool(j, "validated", r->status == VKB_RES_OK);
    if (r->status == VKB_RES_SKIP) {
        vkb_json_null(j, "max_error");
        vkb_json_null(j, "tolerance");
        vkb_json_null(j, "check");
    } else {
        vkb_json_number(j, "max_error", r->check.max_error);
        vkb_json_number(j, "tolerance", r->check.tolerance);
        vkb_json_object_begin(j, "check");
        vkb_json_string(j, "method", r->check.method);
        vkb_json_int(j, "checked", (int64_t)r->check.checked);
        vkb_json_int(j, "wrong", (int64_t)r->check.bad);
        vkb_json_number(j, "error_over_tolerance", r->check.worst_ratio);
        vkb_json_object_end(j);
    }
    vkb_json_array_begin(j, "pipelines");
    for (int i = 0; i < r->npipelines; i++) {
        const vkb_pipeline_stats *p = &r->pipelines[i];
        vkb_json_object_begin(j, NULL);
        vkb_json_string(j, "kernel", p->kernel);
        vkb_json_string(j, "executable", p->executable);
        vkb_json_object_begin(j, "statistics");
        for (int k = 0; k < p->nstat; k++)
            vkb_json_number(j, p->stat[k].name, p->stat[k].value);
        vkb_json_object_end(j);
        vkb_json_object_end(j);
    }
    vkb_json_array_end(j);
    if (r->cross) {
        vkb_json_object_begin(j, "cross_backend");
        vkb_json_int(j, "differing_elements", (int64_t)r->cross_differing);
        vkb_json_number(j, "max_abs_diff", r->cross_max_diff);
        vkb_json_object_end(j);
    }
    vkb_json_object_end(j);
}

void vkb_report_json(FILE *out, const char *command_line, vkb_backend *const *backends, int nbackends,
                     const vkb_results *rs)
{
    vkb_json j;
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    vkb_json_init(&j, out);
    vkb_json_object_begin(&j, NULL);
    vkb_json_int(&j, "schema_version", VKB_JSON_SCHEMA);
    vkb_json_string(&j, "tool", "vkbench");
    vkb_json_string(&j, "version", VKB_VERSION);
    vkb_json_string(&j, "date", date);
    vkb_json_string(&j, "command", command_line);
    vkb_json_array_begin(&j, "devices");
    for (int i = 0; i < nbackends; i++)
        json_caps(&j, backends[i]);
    vkb_json_array_end(&j);
    vkb_json_array_begin(&j, "results");
    for (int i = 0; i < rs->n; i++)
        json_result(&j, &rs->r[i]);
    vkb_json_array_end(&j);
    vkb_json_object_end(&j);
}

void vkb_report_csv(FILE *out, const vkb_results *rs)
{
    char shape[64];
    fprintf(out, "family,variant,backend,shape,status,reps,min_ms,median_ms,mean_ms,stddev_ms,metric_name,"
                 "metric,ceiling,fraction,max_error,tolerance\n");
    for (int i = 0; i < rs->n; i++) {
        const vkb_result *r = &rs->r[i];
        fprintf(out, "%s,%s,%s,%s,%s,%d,%.6g,%.6g,%.6g,%.6g,%s,%.6g,%.6g,%.4f,%.3g,%.3g\n", r->family->name,
                r->variant->name, r->backend, vkb_shape_text(r->family, &r->shape, shape, sizeof shape),
                r->status == VKB_RES_OK ? "ok" : r->status == VKB_RES_FAIL ? "fail" : "skip",
                r->timed ? r->time_ns.n : 0, r->time_ns.min / 1e6, r->time_ns.median / 1e6, r->time_ns.mean / 1e6,
                r->time_ns.stddev / 1e6, r->family->metric, r->metric, r->ceiling ? r->ceiling->metric : 0,
                r->ceiling ? r->fraction : 0, r->check.max_error, r->check.tolerance);
    }
}
