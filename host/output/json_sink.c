/* json_sink.c - the JSON document (schema in README.md), streamed: the header at begin, each result as it
 * arrives (O(results) in all), the closing brackets at end, also for an interrupted run. */
#include "sinks.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "build_info.h"
#include "format.h"
#include "json.h"
#include "outfile.h"
#include "util.h"

#ifndef VKB_VERSION
#define VKB_VERSION "0.0.0"
#endif
/* semantic versioning: major for a change a reader must know about, minor for added fields (README) */
#define VKB_JSON_SCHEMA "2.4.0"

/* What a device's end-of-run recheck saw, kept by the sink: the device may be closed before the file ends */
typedef struct json_recheck_seen {
    char backend[16];
    int index, moved;
    double mem_warm, mem_end, fma_warm, fma_end;
} json_recheck_seen;

typedef struct json_sink {
    vkb_sink base;
    vkb_outfile *file;
    vkb_json j;
    vkb_backend *const *backends;
    int nbackends;
    int begun;
    json_recheck_seen recheck[128]; /* two backends of each of --device LIST's 64 devices */
    int nrecheck;
} json_sink;

static void json_caps(vkb_json *j, const vkb_backend *b)
{
    const vkb_caps *c = &b->caps;
    char uuid[40];
    vkb_json_object_begin(j, NULL);
    vkb_json_string(j, "backend", b->name);
    vkb_json_string(j, "name", c->name);
    vkb_json_int(j, "index", c->index);
    vkb_json_string(j, "uuid", vkb_fmt_uuid(c->uuid, uuid, sizeof uuid));
    vkb_json_string(j, "pci_bus", c->pci_bus[0] ? c->pci_bus : NULL);
    vkb_json_string(j, "host", vkb_host_name());
    vkb_json_string(j, "type", c->type);
    vkb_json_string(j, "driver", c->driver);
    vkb_json_string(j, "api_version", c->api_version);
    vkb_json_string(j, "vendor", c->vendor[0] ? c->vendor : NULL); /* 2.1: the device's identity */
    vkb_json_int(j, "vendor_id", c->vendor_id);
    if (c->device_id || strcmp(b->name, "cuda") != 0)
        vkb_json_int(j, "device_id", c->device_id);
    else
        vkb_json_null(j, "device_id"); /* CUDA does not say */
    vkb_json_bool(j, "cpu_implementation", c->is_cpu);
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

void vkb_json_settings(vkb_json *j, const char *key, const vkb_run_settings *s)
{
    vkb_json_object_begin(j, key);
    vkb_json_string(j, "command", s->command_line);
    vkb_json_string(j, "subcommand", s->command);
    vkb_json_uint(j, "seed", s->seed);
    vkb_json_bool(j, "timed", s->timed);
    if (s->timed) {
        vkb_json_string(j, "mode", s->cold ? "cold" : "hot");
        vkb_json_number(j, "warmup_ms", s->warmup_ms);
        vkb_json_number(j, "first_warmup_ms", s->first_warmup_ms);
        vkb_json_number(j, "budget_ms", s->budget_ms);
    } else {
        vkb_json_null(j, "mode");
        vkb_json_null(j, "warmup_ms");
        vkb_json_null(j, "first_warmup_ms");
        vkb_json_null(j, "budget_ms");
    }
    if (s->timed && s->reps > 0)
        vkb_json_int(j, "reps", s->reps);
    else
        vkb_json_null(j, "reps"); /* until the median settles or the budget is spent */
    vkb_json_string(j, "spec", s->spec && s->spec[0] ? s->spec : NULL);
    if (s->subgroup_size)
        vkb_json_int(j, "subgroup_size", s->subgroup_size);
    else
        vkb_json_null(j, "subgroup_size");
    vkb_json_string(j, "robustness", s->robustness_off ? "disabled" : "default");
    vkb_json_bool(j, "paired", s->paired);
    if (s->repeat > 0)
        vkb_json_int(j, "repeat", s->repeat); /* 2.1: --repeat N */
    else
        vkb_json_null(j, "repeat");
    vkb_json_string(j, "tool_version", VKB_VERSION);
    vkb_json_object_end(j);
}

static const char *device_of(const json_sink *js, const vkb_result *r)
{
    for (int i = 0; i < js->nbackends; i++)
        if (strcmp(js->backends[i]->name, r->backend) == 0 && js->backends[i]->caps.index == r->device_index)
            return js->backends[i]->caps.name;
    return NULL;
}

/* Statistics the repetitions cannot give are null, never 0: a standard deviation needs 2, quartiles (and
 * the spread from them) 3, as the table's `-` says (VKB_STATS_MIN_*, stats.h). */
static void json_time(vkb_json *j, const vkb_stats *t)
{
    int quartiles = t->n >= VKB_STATS_MIN_QUARTILES, spread = t->n >= VKB_STATS_MIN_STDDEV;
    vkb_json_object_begin(j, "time_ms");
    vkb_json_number(j, "min", t->min / 1e6);
    vkb_json_number(j, "q1", quartiles ? t->q1 / 1e6 : NAN);
    vkb_json_number(j, "median", t->median / 1e6);
    vkb_json_number(j, "q3", quartiles ? t->q3 / 1e6 : NAN);
    vkb_json_number(j, "max", t->max / 1e6);
    vkb_json_number(j, "mean", t->mean / 1e6);
    vkb_json_number(j, "stddev", spread ? t->stddev / 1e6 : NAN);
    vkb_json_number(j, "iqr_over_median", quartiles ? vkb_stats_iqr_ratio(t) : NAN);
    vkb_json_object_end(j);
}

static void json_result(const json_sink *js, vkb_json *j, const vkb_result *r)
{
    char shape[64];
    int predicts = r->family->predict && !isnan(r->predicted);
    vkb_json_object_begin(j, NULL);
    vkb_json_string(j, "family", r->family->name);
    vkb_json_string(j, "variant", r->variant->name);
    vkb_json_string(j, "backend", r->backend);
    vkb_json_string(j, "device", device_of(js, r));
    vkb_json_int(j, "device_index", r->device_index);
    vkb_json_object_begin(j, "shape");
    for (int d = 0; d < r->family->ndims; d++)
        vkb_json_int(j, r->family->dims[d], r->shape.d[d]);
    vkb_json_object_end(j);
    vkb_json_string(j, "shape_text", vkb_shape_text(r->family, &r->shape, shape, sizeof shape));
    vkb_json_string(j, "status", vkb_fmt_status(r));
    vkb_json_string(j, "skip_reason", r->status == VKB_RES_SKIP ? r->skip_reason : NULL);
    vkb_json_string(j, "constants", r->constants[0] ? r->constants : NULL);
    if (r->repeats > 0)
        vkb_json_int(j, "repeat", r->repeat); /* 2.1, --repeat only: which run of the case, 0-based */
    if (r->subgroup_size)
        vkb_json_int(j, "subgroup_size", r->subgroup_size);
    else
        vkb_json_null(j, "subgroup_size");
    vkb_json_string(j, "robustness", vkb_robustness_name(r->robustness)); /* 2.1: null for CUDA */
    vkb_json_string(j, "memory", r->memory[0] ? r->memory : NULL);
    vkb_json_string(j, "queues", r->queues[0] ? r->queues : NULL);
    if (r->planned_kernel[0]) { /* optional in 2.1: the kernel's shape as planned for this device */
        vkb_json_object_begin(j, "planned");
        vkb_json_string(j, "kernel", r->planned_kernel);
        vkb_json_array_begin(j, "workgroup");
        for (int d = 0; d < 3; d++)
            vkb_json_int(j, NULL, r->planned_local[d]);
        vkb_json_array_end(j);
        vkb_json_string(j, "constants", r->planned_constants[0] ? r->planned_constants : NULL);
        vkb_json_object_end(j);
    } else {
        vkb_json_null(j, "planned");
    }
    vkb_json_string(j, "timer", r->status == VKB_RES_SKIP ? NULL : r->host_timed ? "host" : "device");
    vkb_json_bool(j, "ceiling_row", (r->variant->flags & VKB_VAR_CEILING) != 0);
    vkb_json_bool(j, "deterministic", !(r->variant->flags & VKB_VAR_NONDETERMINISTIC));
    vkb_json_int(j, "reps", r->timed ? r->time_ns.n : 0);
    if (r->timed)
        vkb_json_bool(j, "settled", r->time_ns.settled);
    else
        vkb_json_null(j, "settled");
    vkb_json_bool(j, "suspect", r->suspect);
    vkb_json_string(j, "suspect_reason", r->suspect && r->suspect_reason[0] ? r->suspect_reason : NULL);
    if (r->timed) {
        json_time(j, &r->time_ns);
        vkb_json_object_begin(j, "metric");
        vkb_json_string(j, "name", vkb_variant_unit(r->family, r->variant)); /* GOP/s on integer rows */
        vkb_json_string(j, "better", r->family->time_unit_ns > 0 ? "lower" : "higher");
        vkb_json_number(j, "value", r->metric);
        vkb_json_number(j, "ceiling", r->ceiling ? r->ceiling->metric : NAN);
        vkb_json_string(j, "ceiling_variant", r->ceiling ? r->ceiling->variant->name : NULL);
        vkb_json_string(j, "ceiling_backend", r->ceiling ? r->ceiling->backend : NULL);
        vkb_json_number(j, "fraction", r->ceiling ? r->fraction : NAN);
        /* a ceiling row of another family (a fallback ceiling), and the row's theoretical rate where known */
        vkb_json_string(j, "ceiling_family", r->ceiling ? r->ceiling->family->name : NULL);
        vkb_json_number(j, "theoretical", r->theoretical > 0 ? r->theoretical : NAN);
        vkb_json_object_end(j);
    } else {
        vkb_json_null(j, "time_ms");
        vkb_json_null(j, "metric");
    }
    vkb_json_number(j, "predicted", predicts ? r->predicted : NAN);
    vkb_json_array_begin(j, "values"); /* the named values (result.h): each as it is, whatever it names */
    for (int i = 0; i < r->nvalues; i++) {
        vkb_json_object_begin(j, NULL);
        vkb_json_string(j, "tag", r->values[i].tag);
        vkb_json_number(j, "value", r->values[i].value);
        vkb_json_string(j, "unit", r->values[i].unit);
        vkb_json_string(j, "source", r->values[i].source);
        vkb_json_object_end(j);
    }
    vkb_json_array_end(j);
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
        if (r->check.bad) {
            vkb_json_object_begin(j, "first_wrong");
            vkb_json_int(j, "index", (int64_t)r->check.first_bad);
            if (r->check.bad_row >= 0)
                vkb_json_int(j, "row", r->check.bad_row);
            else
                vkb_json_null(j, "row");
            if (r->check.bad_col >= 0)
                vkb_json_int(j, "col", r->check.bad_col);
            else
                vkb_json_null(j, "col");
            vkb_json_number(j, "expected", r->check.bad_expected);
            vkb_json_number(j, "actual", r->check.bad_actual);
            vkb_json_object_end(j);
        } else {
            vkb_json_null(j, "first_wrong");
        }
        vkb_json_string(j, "reason", r->check.reason[0] ? r->check.reason : NULL);
        vkb_json_number(j, "error_over_tolerance", r->check.worst_ratio);
        vkb_json_number(j, "max_bound", r->check.max_bound);
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
        if (p->mc.valid) { /* --sass: the machine code by instruction class */
            vkb_json_object_begin(j, "machine_code");
            vkb_json_string(j, "source", p->mc.source);
            for (int k = 0; k < VKB_MC_NCLASS; k++)
                vkb_json_int(j, vkb_mc_class_names[k], (int64_t)p->mc.count[k]);
            vkb_json_object_end(j);
        }
        vkb_json_object_end(j);
    }
    vkb_json_array_end(j);
    if (r->cross) {
        vkb_json_object_begin(j, "cross_backend");
        vkb_json_int(j, "differing_elements", (int64_t)r->cross_differing);
        vkb_json_number(j, "max_abs_diff", r->cross_max_diff);
        vkb_json_bool(j, "fail", r->cross_fail);
        if (r->cross_fail) {
            vkb_json_object_begin(j, "first_beyond");
            vkb_json_string(j, "other_backend", r->cross_backend);
            vkb_json_int(j, "output", r->cross_buffer);
            vkb_json_int(j, "index", (int64_t)r->cross_index);
            vkb_json_number(j, "here", r->cross_this);
            vkb_json_number(j, "there", r->cross_other);
            vkb_json_object_end(j);
        } else {
            vkb_json_null(j, "first_beyond");
        }
        vkb_json_object_end(j);
    }
    vkb_json_string(j, "error", r->error); /* the fatal error that ended the run in this case */
    vkb_json_object_end(j);
}

/* What the warm-up before the first timed case saw on each device it ran on (it ran when the backends were
 * opened, before the run began; at the end a device of several may be closed already). */
static void json_warmup(vkb_json *j, vkb_backend *const *backends, int n)
{
    vkb_json_array_begin(j, "warmup");
    for (int i = 0; i < n; i++) {
        const vkb_caps *c = &backends[i]->caps;
        if (!(c->warm_s > 0))
            continue;
        vkb_json_object_begin(j, NULL);
        vkb_json_string(j, "backend", backends[i]->name);
        vkb_json_int(j, "index", c->index);
        vkb_json_number(j, "seconds", c->warm_s);
        vkb_json_bool(j, "settled", c->warm_settled);
        vkb_json_number(j, "memory_gbs_first", c->warm_mem_first);
        vkb_json_number(j, "memory_gbs_last", c->warm_mem_last);
        vkb_json_number(j, "fma_gflops_first", c->warm_fma_first);
        vkb_json_number(j, "fma_gflops_last", c->warm_fma_last);
        vkb_json_object_end(j);
    }
    vkb_json_array_end(j);
}

/* The warm-up's probes measured again at the end of B's run (host/app/warmup.c): kept for end() */
static void json_on_recheck(vkb_sink *s, const vkb_backend *b)
{
    json_sink *js = s->impl;
    json_recheck_seen *e = &js->recheck[js->nrecheck];
    if (js->nrecheck == (int)VKB_COUNT(js->recheck))
        return;
    js->nrecheck++;
    snprintf(e->backend, sizeof e->backend, "%s", b->name);
    e->index = b->caps.index;
    e->moved = b->caps.clocks_moved;
    e->mem_warm = b->caps.warm_mem_last;
    e->mem_end = b->caps.recheck_mem;
    e->fma_warm = b->caps.warm_fma_last;
    e->fma_end = b->caps.recheck_fma;
}

/* Each recheck kept: both rates beside the warm-up's last, and whether the clocks moved (either more than 5%
 * away) */
static void json_recheck(vkb_json *j, const json_sink *js)
{
    vkb_json_array_begin(j, "recheck");
    for (int i = 0; i < js->nrecheck; i++) {
        const json_recheck_seen *e = &js->recheck[i];
        vkb_json_object_begin(j, NULL);
        vkb_json_string(j, "backend", e->backend);
        vkb_json_int(j, "index", e->index);
        vkb_json_number(j, "memory_gbs_warm", e->mem_warm);
        vkb_json_number(j, "memory_gbs_end", e->mem_end);
        vkb_json_number(j, "fma_gflops_warm", e->fma_warm);
        vkb_json_number(j, "fma_gflops_end", e->fma_end);
        vkb_json_bool(j, "clocks_moved", e->moved);
        vkb_json_object_end(j);
    }
    vkb_json_array_end(j);
}

static void json_begin(vkb_sink *s, const vkb_run_settings *set, vkb_backend *const *backends, int nbackends,
                       const vkb_run_plan *plan)
{
    json_sink *js = s->impl;
    vkb_json *j = &js->j;
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    js->backends = backends;
    js->nbackends = nbackends;
    js->begun = 1;
    vkb_json_object_begin(j, NULL);
    vkb_json_string(j, "schema_version", VKB_JSON_SCHEMA);
    vkb_json_string(j, "tool", "vkbench");
    vkb_json_string(j, "version", VKB_VERSION);
    vkb_json_object_begin(j, "build"); /* two builds of one version differ by commit and options */
    vkb_json_string(j, "commit", vkb_build_commit);
    vkb_json_string(j, "build_type", vkb_build_type);
    vkb_json_string(j, "cuda_architectures", vkb_build_cuda_architectures);
    vkb_json_bool(j, "sanitizer", vkb_build_sanitizer);
    vkb_json_object_end(j);
    vkb_json_string(j, "date", date);
    vkb_json_string(j, "command", set->command_line);
    vkb_json_settings(j, "settings", set);
    vkb_json_array_begin(j, "devices");
    for (int i = 0; i < nbackends; i++)
        json_caps(j, backends[i]);
    vkb_json_array_end(j);
    json_warmup(j, backends, nbackends);
    vkb_json_object_begin(j, "plan");
    vkb_json_int(j, "cases", plan ? plan->cases : 0);
    vkb_json_int(j, "shapes", plan ? plan->shapes : 0);
    vkb_json_int(j, "variants", plan ? plan->variants : 0);
    vkb_json_int(j, "backends", plan ? plan->backends : 0);
    vkb_json_number(j, "estimate_s", plan && plan->estimate_s > 0 ? plan->estimate_s : NAN);
    vkb_json_object_end(j);
    vkb_json_array_begin(j, "results");
}

static void json_on_result(vkb_sink *s, const vkb_result *r)
{
    json_sink *js = s->impl;
    if (vkb_outfile_failed(js->file))
        return; /* reported at end(); nothing more can land */
    json_result(js, &js->j, r);
    if (vkb_outfile_stream(js->file) == stdout)
        fflush(stdout); /* a reader of the pipe sees each result as it is measured */
}

static int json_end(vkb_sink *s, int interrupted)
{
    json_sink *js = s->impl;
    vkb_json *j = &js->j;
    int rc;
    if (!js->begun)
        json_begin(s, &(vkb_run_settings){.command = "", .command_line = ""}, NULL, 0, NULL);
    vkb_json_array_end(j);
    json_recheck(j, js);
    vkb_json_string(j, "error", vkb_fatal_message()); /* what ended the run early, or null */
    vkb_json_bool(j, "interrupted", interrupted);
    vkb_json_object_end(j);
    rc = vkb_outfile_close(js->file);
    js->file = NULL;
    return rc ? VKB_EXIT_OUTPUT : VKB_EXIT_OK;
}

static void json_destroy(vkb_sink *s)
{
    json_sink *js = s->impl;
    if (js->file)
        vkb_outfile_discard(js->file);
}

vkb_sink *vkb_sink_json_create(const char *path)
{
    json_sink *js = vkb_calloc(1, sizeof *js);
    js->file = vkb_outfile_open(path, "--json");
    if (!js->file)
        vkb_die(VKB_EXIT_OUTPUT, "cannot write %s (--json): %s", path, vkb_outfile_reason());
    vkb_json_init(&js->j, vkb_outfile_stream(js->file));
    js->base.begin = json_begin;
    js->base.recheck = json_on_recheck;
    js->base.result = json_on_result;
    js->base.end = json_end;
    js->base.destroy = json_destroy;
    js->base.impl = js;
    return &js->base;
}
