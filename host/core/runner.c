/* runner.c - the only code that runs a variant: inputs, poison, dispatch, check, time. */
#include "runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv.h"
#include "util.h"

/* Outputs of the first backend that ran a variant, to compare the second one with. */
typedef struct saved_outputs {
    void *data[VKB_MAX_BUFFERS];
    uint64_t bytes[VKB_MAX_BUFFERS];
    int valid;
} saved_outputs;

/* VKB_FAULT_INJECT=no-dispatch: skip the checked run, as a kernel that writes nothing would (tests). */
static int fault_no_dispatch(void)
{
    const char *f = getenv("VKB_FAULT_INJECT");
    return f && strcmp(f, "no-dispatch") == 0;
}

static int backend_allowed(const vkb_variant *v, const vkb_backend *b)
{
    int cuda = strcmp(b->name, "cuda") == 0;
    if ((v->flags & VKB_VAR_VULKAN_ONLY) && cuda)
        return 0;
    if ((v->flags & VKB_VAR_CUDA_ONLY) && !cuda)
        return 0;
    return 1;
}

static int is_requested(const vkb_runner *r, const vkb_backend *b)
{
    for (int i = 0; i < r->nbackends; i++)
        if (r->backends[i] == b)
            return 1;
    return 0;
}

/* Refuse sizes the device cannot hold before allocating anything: one clear line, exit 4. */
static void check_fits(const vkb_family *f, const vkb_variant *v, const vkb_shape *s, const vkb_plan *p,
                       const vkb_backend *b)
{
    char need[32], have[32], shape[96];
    uint64_t total = vkb_plan_bytes(p);
    vkb_shape_text(f, s, shape, sizeof shape);
    for (int i = 0; i < p->nbuf; i++)
        if (p->buf[i].bytes > b->caps.max_buffer_bytes)
            vkb_die(VKB_EXIT_RESOURCE, "%s/%s at %s needs a %s buffer; the largest %s allows on %s is %s; "
                    "try a smaller size", f->name, v->name, shape, vkb_fmt_bytes(p->buf[i].bytes, need, sizeof need),
                    b->name, b->caps.name, vkb_fmt_bytes(b->caps.max_buffer_bytes, have, sizeof have));
    if (b->caps.device_memory_bytes && total > b->caps.device_memory_bytes / 10 * 9)
        vkb_die(VKB_EXIT_RESOURCE, "%s/%s at %s needs %s of device memory; %s has %s; try a smaller size",
                f->name, v->name, shape, vkb_fmt_bytes(total, need, sizeof need), b->caps.name,
                vkb_fmt_bytes(b->caps.device_memory_bytes, have, sizeof have));
}

static void compare_outputs(vkb_result *res, const vkb_plan *plan, const saved_outputs *saved)
{
    res->cross = 1;
    for (int i = 0; i < plan->nbuf; i++) {
        const uint32_t *a, *b;
        uint64_t words;
        if (plan->buf[i].role != VKB_BUF_OUTPUT || !saved->data[i])
            continue;
        a = saved->data[i];
        b = plan->buf[i].host;
        words = plan->buf[i].bytes / 4;
        for (uint64_t w = 0; w < words; w++) {
            float fa, fb;
            if (a[w] == b[w])
                continue;
            res->cross_differing++;
            memcpy(&fa, &a[w], 4);
            memcpy(&fb, &b[w], 4);
            /* outputs are fp32 or int32 words; for floats the difference says how far apart they are */
            if (fabs((double)fa - fb) > res->cross_max_diff || fa != fa || fb != fb)
                res->cross_max_diff = fa != fa || fb != fb ? INFINITY : fabs((double)fa - fb);
        }
    }
}

static void save_outputs(saved_outputs *saved, const vkb_plan *plan)
{
    for (int i = 0; i < plan->nbuf; i++) {
        if (plan->buf[i].role != VKB_BUF_OUTPUT)
            continue;
        saved->data[i] = vkb_alloc(plan->buf[i].bytes);
        memcpy(saved->data[i], plan->buf[i].host, plan->buf[i].bytes);
        saved->bytes[i] = plan->buf[i].bytes;
    }
    saved->valid = 1;
}

static void free_outputs(saved_outputs *saved)
{
    for (int i = 0; i < VKB_MAX_BUFFERS; i++)
        free(saved->data[i]);
    memset(saved, 0, sizeof *saved);
}

/* Run again on re-poisoned outputs; 1 when every output has the same bits as the first run. */
static int rerun_identical(vkb_backend *b, void *prep, const vkb_plan *plan, vkb_buffer *const *bufs)
{
    int same = 1;
    for (int i = 0; i < plan->nbuf; i++)
        if (plan->buf[i].role != VKB_BUF_INPUT)
            b->poison(b, bufs[i], plan->buf[i].bytes);
    b->execute(b, prep, bufs, 1, 0, NULL);
    for (int i = 0; i < plan->nbuf && same; i++) {
        void *again;
        if (plan->buf[i].role != VKB_BUF_OUTPUT)
            continue;
        again = vkb_alloc(plan->buf[i].bytes);
        b->download(b, bufs[i], again, plan->buf[i].bytes);
        same = memcmp(again, plan->buf[i].host, plan->buf[i].bytes) == 0;
        free(again);
    }
    return same;
}

/* -v: the driver's statistics of the variant's pipelines, one line per executable (as ptxas -v would). */
static void print_statistics(const vkb_result *res)
{
    for (int i = 0; i < res->npipelines; i++) {
        const vkb_pipeline_stats *p = &res->pipelines[i];
        fprintf(stderr, "vkbench: %s/%s pipeline %s (%s):", res->family->name, res->variant->name, p->kernel,
                p->executable);
        for (int k = 0; k < p->nstat; k++)
            fprintf(stderr, " %s=%.17g", p->stat[k].name, p->stat[k].value);
        fputc('\n', stderr);
    }
}

/* --spec: V with the command line's constants set in TUNED (by the shader's names or SpecIds), the
 * settings written to RES. 0, or 1 with the reason to skip (the shader has no such constant). */
static int apply_spec(const vkb_runner *r, const vkb_variant *v, vkb_variant *tuned, vkb_result *res)
{
    const vkb_spirv *spv = v->kernel ? vkb_spirv_find(v->kernel) : NULL;
    size_t used = 0;
    *tuned = *v;
    if (!r->nspec || (v->flags & VKB_VAR_CEILING))
        return 0;
    for (int i = 0; i < r->nspec; i++) {
        const char *name = r->spec[i].name;
        char *end;
        long id = strtol(name, &end, 10);
        if (*end)
            id = spv ? vkb_spirv_spec_id(spv, name) : -1;
        if (id < 0 || id >= 3 + VKB_MAX_SPEC) {
            snprintf(res->skip_reason, sizeof res->skip_reason, "--spec: %s has no constant %s",
                     v->kernel ? v->kernel : v->name, name);
            return 1;
        }
        if (id < 3) {
            tuned->local[id] = r->spec[i].value;
        } else {
            tuned->spec[id - 3] = r->spec[i].value;
            if (tuned->nspec < id - 2)
                tuned->nspec = (int)id - 2;
        }
        if (used < sizeof res->constants)
            used += (size_t)snprintf(res->constants + used, sizeof res->constants - used, "%s%s=%u",
                                     i ? "," : "", name, r->spec[i].value);
    }
    return 0;
}

static void run_one(vkb_runner *r, int bi, const vkb_family *f, const vkb_variant *v, const vkb_case *c,
                    saved_outputs *saved)
{
    vkb_backend *b = r->all[bi];
    vkb_result *res = vkb_results_add(&r->results);
    vkb_plan plan;
    vkb_variant tuned;
    vkb_buffer *bufs[VKB_MAX_BUFFERS] = {0};
    char why[200] = "", missing[200];
    void *prep;

    res->family = f;
    res->variant = v;
    res->backend = b->name;
    res->shape = c->shape;
    res->cache_fits = -1;
    res->predicted = NAN;
    res->status = VKB_RES_SKIP;
    memset(&plan, 0, sizeof plan);

    if (v->needs & ~b->caps.features) {
        snprintf(res->skip_reason, sizeof res->skip_reason, "needs %s",
                 vkb_caps_missing(&b->caps, v->needs, missing, sizeof missing));
        goto done;
    }
    if (apply_spec(r, v, &tuned, res))
        goto done;
    if (f->plan(&tuned, c, &b->caps, &plan, why, sizeof why)) {
        snprintf(res->skip_reason, sizeof res->skip_reason, "%s", why);
        goto done;
    }
    for (int i = 0; i < plan.nbuf; i++)
        if ((plan.buf[i].flags & VKB_BUF_UNIFORM) && plan.buf[i].bytes > b->caps.max_uniform_bytes) {
            char need[32], have[32];
            snprintf(res->skip_reason, sizeof res->skip_reason, "needs a %s uniform buffer; %s allows %s",
                     vkb_fmt_bytes(plan.buf[i].bytes, need, sizeof need), b->caps.name,
                     vkb_fmt_bytes(b->caps.max_uniform_bytes, have, sizeof have));
            goto done;
        }
    check_fits(f, v, &c->shape, &plan, b);
    prep = b->prepare(b, &plan, why, sizeof why);
    if (!prep) {
        snprintf(res->skip_reason, sizeof res->skip_reason, "%s", why);
        goto done;
    }
    if (b->statistics) {
        res->npipelines = b->statistics(b, prep, res->pipelines, VKB_MAX_PASSES);
        if (vkb_verbose)
            print_statistics(res);
    }

    for (int i = 0; i < plan.nbuf; i++) {
        bufs[i] = b->buffer_create(b, plan.buf[i].bytes, plan.buf[i].flags);
        if (plan.buf[i].role == VKB_BUF_INPUT)
            b->upload(b, bufs[i], plan.buf[i].host, plan.buf[i].bytes);
        else
            b->poison(b, bufs[i], plan.buf[i].bytes);
    }
    for (int i = 0; i < plan.nbuf; i++)
        if (plan.buf[i].role == VKB_BUF_OUTPUT)
            memset((void *)plan.buf[i].host, 0xA5, plan.buf[i].bytes); /* a stale host copy must not pass */

    /* verify before timing: one run on poisoned outputs (the fault hook proves unwritten outputs fail) */
    if (!fault_no_dispatch())
        b->execute(b, prep, bufs, 1, 0, NULL);
    for (int i = 0; i < plan.nbuf; i++)
        if (plan.buf[i].role == VKB_BUF_OUTPUT)
            b->download(b, bufs[i], (void *)plan.buf[i].host, plan.buf[i].bytes);
    f->check(v, c, &plan, &res->check);
    res->status = res->check.pass ? VKB_RES_OK : VKB_RES_FAIL;
    if (res->status == VKB_RES_OK && !(v->flags & VKB_VAR_NONDETERMINISTIC) && !rerun_identical(b, prep, &plan, bufs)) {
        /* a variant that claims determinism must give the same bits on the same input */
        res->status = VKB_RES_FAIL;
        snprintf(res->check.method, sizeof res->check.method, "not deterministic: a second run differs");
    }
    if (r->nbackends > 1 && !(v->flags & VKB_VAR_CEILING)) {
        if (saved->valid)
            compare_outputs(res, &plan, saved);
        else
            save_outputs(saved, &plan);
    }

    res->working_set_bytes = vkb_plan_bytes(&plan);
    if (b->caps.cache_bytes)
        res->cache_fits = res->working_set_bytes <= b->caps.cache_bytes;
    res->work = f->work(v, c);
    res->predicted = f->predict ? f->predict(v, c, &b->caps) : NAN;
    if (r->timed && res->status == VKB_RES_OK) {
        vkb_timing_measure(b, prep, bufs, &r->timing[bi], &res->time_ns);
        res->timed = 1;
        res->metric = res->time_ns.median > 0 ? res->work / res->time_ns.median : 0; /* per ns = G per s */
    }
    for (int i = 0; i < plan.nbuf; i++)
        b->buffer_destroy(b, bufs[i]);
    b->unprepare(b, prep);
done:
    r->progress_done++;
    if (r->on_result)
        r->on_result(r, res, r->user);
}

/* Fractions of the ceiling: the fastest ceiling row measured at this shape through either API on this GPU
 * (a row may name which ceiling applies to it). The fastest, not the own API's: on the H100 (driver 580)
 * vkCmdCopyBuffer moves 28% of what a vec4 copy shader does, and would flatter every Vulkan kernel. */
static void attach_ceilings(vkb_runner *r, int first)
{
    vkb_results *rs = &r->results;
    for (int i = first; i < rs->n; i++) {
        vkb_result *res = &rs->r[i];
        const vkb_result *best = NULL;
        if (!res->timed)
            continue;
        for (int j = first; j < rs->n; j++) {
            const vkb_result *c = &rs->r[j];
            if (!c->timed || !(c->variant->flags & VKB_VAR_CEILING) || c->metric <= 0)
                continue;
            if (res->variant->ceiling && strcmp(c->variant->name, res->variant->ceiling) != 0)
                continue;
            if (!best || c->metric > best->metric)
                best = c;
        }
        res->ceiling = best;
        res->fraction = best ? res->metric / best->metric : 0;
    }
}

void vkb_runner_family_shape(vkb_runner *r, const vkb_family *f, const int *selected, const vkb_shape *shape)
{
    vkb_case c = {f, *shape, NULL};
    char why[200] = "", text[96];
    int first = r->results.n;

    c.data = f->case_create(shape, r->seed, why, sizeof why);
    if (!c.data)
        vkb_die(VKB_EXIT_USAGE, "%s at %s: %s", f->name, vkb_shape_text(f, shape, text, sizeof text), why);
    for (int vi = 0; vi < f->nvariants; vi++) {
        const vkb_variant *v = &f->variants[vi];
        int ceiling = (v->flags & VKB_VAR_CEILING) != 0;
        saved_outputs saved = {{0}, {0}, 0};
        if (!selected[vi] && !(ceiling && r->timed))
            continue;
        for (int bi = 0; bi < r->nall; bi++) {
            vkb_backend *b = r->all[bi];
            if (!backend_allowed(v, b))
                continue;
            /* kernels run where asked; ceilings run on every backend open (cudaMemcpy, CUB and cuBLAS
             * are the ceilings of the Vulkan kernels too, on the same GPU) */
            if (!is_requested(r, b) && !(ceiling && r->timed))
                continue;
            run_one(r, bi, f, v, &c, &saved);
        }
        free_outputs(&saved);
    }
    if (r->timed)
        attach_ceilings(r, first);
    f->case_destroy(c.data);
}
