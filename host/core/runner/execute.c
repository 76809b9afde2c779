/* execute.c - one case of the runner: plan, inputs, poison, the checked run, the checks, the determinism
 * re-run, the cross-backend compare, the timed repetitions; the result is emitted to the sinks. */
#include "runner_parts.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_limits.h"
#include "fault.h"
#include "parallel.h"
#include "signals.h"
#include "spirv.h"
#include "util.h"
#include "verify.h"

/* One buffer for read-backs, kept for the run: a fresh one per case costs a page fault per 4 KiB (a 1 GiB
 * output: a third of a second). */
static _Thread_local void *scratch; /* per thread: each device of --device LIST runs on its own */
static _Thread_local size_t scratch_bytes;

void vkb_execute_thread_done(void)
{
    free(scratch);
    scratch = NULL;
    scratch_bytes = 0;
}

static void *scratch_for(uint64_t bytes)
{
    if (bytes > scratch_bytes) {
        free(scratch);
        scratch = vkb_alloc((size_t)bytes);
        scratch_bytes = (size_t)bytes;
    }
    return scratch;
}

/* VKB_FAULT_INJECT=no-dispatch: skip the checked run, as a kernel that writes nothing would (tests). */
/* VKB_FAULT_INJECT=slow-api-copy: the API copy's times 3x, as NVIDIA's vkCmdCopyBuffer (driver 580: 28% of a
 * shader copy) on a device whose API copy is fast (lavapipe), to prove the ceiling is the faster copy. */
static void slow_api_copy(vkb_stats *t)
{
    t->min *= 3, t->q1 *= 3, t->median *= 3, t->q3 *= 3, t->max *= 3, t->mean *= 3, t->stddev *= 3;
}

static int fault_no_dispatch(void)
{
    const char *f = getenv("VKB_FAULT_INJECT");
    return f && strcmp(f, "no-dispatch") == 0;
}

/* VKB_FAULT_INJECT=wrong-device:I: device I returns its first output with one word changed, as a GPU with a bad
 * memory cell would (tests: its rows fail, the other devices' do not). */
static void fault_wrong_device(const vkb_backend *b, const vkb_plan *plan)
{
    long sick = -1;
    if (!vkb_fault_arg("wrong-device", &sick) || sick != b->caps.index)
        return;
    for (int i = 0; i < plan->nbuf; i++)
        if (plan->buf[i].role == VKB_BUF_OUTPUT && plan->buf[i].host && plan->buf[i].bytes >= 4) {
            *(uint32_t *)plan->buf[i].host ^= 0x40000000u; /* an exponent bit: far beyond any tolerance */
            return;
        }
}

/* 1 when every output has the same bits as the checked run's (kept on the device in KEPT where the backend
 * can compare there, else the plan's host copies), else 0 with WHY. With RUN: poison the outputs and run once
 * more first (validate); without: the outputs are those the last timed repetition left, later runs on the
 * same input (a timed run saves an execution: slow kernels dominate the suite). */
static int outputs_identical(vkb_backend *b, void *prep, const vkb_plan *plan, vkb_buffer *const *bufs,
                             vkb_buffer *const *kept, int run, char *why, size_t len)
{
    uint64_t largest = 0;
    for (int i = 0; i < plan->nbuf && run; i++)
        if (plan->buf[i].role != VKB_BUF_INPUT)
            b->poison(b, bufs[i], plan->buf[i].bytes);
    if (run)
        b->execute(b, prep, bufs, 1, 0, NULL);
    for (int i = 0; i < plan->nbuf; i++)
        if (plan->buf[i].role == VKB_BUF_OUTPUT && plan->buf[i].bytes > largest)
            largest = plan->buf[i].bytes;
    return vkb_verify_same(b, bufs, plan, kept, scratch_for(largest), why, len);
}

/* RES fails its determinism check: WHAT differed, and WHY (the first differing word). */
static void determinism_failed(vkb_result *res, const char *what, const char *why)
{
    res->status = VKB_RES_FAIL;
    snprintf(res->check.method, sizeof res->check.method, "not deterministic: %s", what);
    snprintf(res->check.reason, sizeof res->check.reason, "not deterministic: %s", why);
}

/* -v: the driver's statistics of the variant's pipelines, one line per executable (as ptxas -v would);
 * a driver that reports none is named once. */
static void print_statistics(const vkb_result *res, const vkb_backend *b)
{
    static _Thread_local const vkb_backend *told[2];
    if (!res->npipelines) {
        int i = 0;
        while (i < 2 && told[i] && told[i] != b)
            i++;
        if (i < 2 && !told[i]) {
            told[i] = b;
            vkb_note("-v: the %s driver of %s reports no pipeline statistics", b->name, b->caps.name);
        }
        return;
    }
    for (int i = 0; i < res->npipelines; i++) {
        const vkb_pipeline_stats *p = &res->pipelines[i];
        fprintf(stderr, "vkbench: %s/%s pipeline %s (%s):", res->family->name, res->variant->name, p->kernel,
                p->executable);
        for (int k = 0; k < p->nstat; k++)
            fprintf(stderr, " %s=%.17g", p->stat[k].name, p->stat[k].value);
        fputc('\n', stderr);
    }
}

/* The device buffer for input PB on backend BI: made and uploaded once per shape, then shared. */
static vkb_buffer *input_buffer(vkb_runner *r, shape_state *st, int bi, const vkb_plan_buffer *pb)
{
    vkb_backend *b = r->all[bi];
    cached_input *e;
    for (int i = 0; i < st->ninputs; i++) {
        e = &st->inputs[i];
        if (e->backend == bi && e->host == pb->host && e->bytes == pb->bytes && e->flags == pb->flags)
            return e->buf;
    }
    if (st->ninputs == st->cap) {
        cached_input *grown;
        st->cap = st->cap ? 2 * st->cap : 8;
        grown = realloc(st->inputs, (size_t)st->cap * sizeof *grown);
        if (!grown)
            vkb_die(VKB_EXIT_RESOURCE, "out of host memory; try a smaller size");
        st->inputs = grown;
    }
    e = &st->inputs[st->ninputs++];
    *e = (cached_input){bi, pb->host, pb->bytes, pb->flags, b->buffer_create(b, pb->bytes, pb->flags)};
    if (pb->host)
        b->upload(b, e->buf, pb->host, pb->bytes);
    return e->buf;
}

/* --repeat: the result of RES's case in the shape's first round (where it was checked), or NULL. */
static const vkb_result *first_run(const vkb_runner *r, const shape_state *st, const vkb_result *res)
{
    for (int j = st->first_result; j < r->results.n; j++) {
        const vkb_result *c = &r->results.r[j];
        if (c != res && c->repeat == 0 && c->variant == res->variant && strcmp(c->backend, res->backend) == 0)
            return c;
    }
    return NULL;
}

/* Which memory each buffer of a plan that places buffers lives in, as BUF's backend names it, into RES. */
static void describe_memory(vkb_result *res, vkb_backend *b, const vkb_plan *plan, vkb_buffer *const *bufs)
{
    size_t used = 0;
    int placed = 0;
    for (int i = 0; i < plan->nbuf; i++)
        placed |= (plan->buf[i].flags & VKB_BUF_PLACEMENT) != 0;
    if (!placed || !b->describe)
        return;
    for (int i = 0; i < plan->nbuf && used < sizeof res->memory; i++) {
        char text[120];
        used += (size_t)snprintf(res->memory + used, sizeof res->memory - used, "%s%s: %s", i ? "; " : "",
                                 plan->buf[i].role == VKB_BUF_INPUT ? "src" : "dst",
                                 b->describe(b, bufs[i], text, sizeof text) ? text : "?");
    }
}

/* Which queue each copy of a plan that copies went to, as B names it (the transfer family's two-queue rows: which
 * queue families and so which engines ran the two directions), into RES. */
/* The first kernel pass of PLAN into RES's planned_* fields, its constants named by the embedded shader (SpecId
 * where the shader names none, or where the build has no SPIR-V of it). */
static void describe_planned(vkb_result *res, const vkb_plan *plan)
{
    vkb_spirv_constant named[3 + VKB_MAX_SPEC];
    const vkb_pass *pass = NULL;
    const vkb_spirv *spv;
    int nnamed = 0;
    size_t used = 0;
    for (int i = 0; i < plan->npass && !pass; i++)
        if (plan->pass[i].kind == VKB_PASS_DISPATCH && plan->pass[i].kernel)
            pass = &plan->pass[i];
    if (!pass)
        return;
    snprintf(res->planned_kernel, sizeof res->planned_kernel, "%s", pass->kernel);
    memcpy(res->planned_local, pass->local, sizeof res->planned_local);
    spv = vkb_spirv_find(pass->kernel);
    if (spv && spv->bytes)
        nnamed = vkb_spirv_spec_constants(spv, named, (int)(sizeof named / sizeof *named));
    for (int k = 0; k < pass->nspec && used < sizeof res->planned_constants; k++) {
        const char *name = NULL;
        char id[12];
        for (int q = 0; q < nnamed && !name; q++)
            if (named[q].id == 3 + k && named[q].name[0])
                name = named[q].name;
        snprintf(id, sizeof id, "%d", 3 + k);
        used += (size_t)snprintf(res->planned_constants + used, sizeof res->planned_constants - used, "%s%s=%u",
                                 used ? "," : "", name ? name : id, pass->spec[k]);
    }
}

static void describe_queues(vkb_result *res, vkb_backend *b, const vkb_plan *plan, void *prep)
{
    int copies = 0;
    for (int i = 0; i < plan->npass; i++)
        copies |= plan->pass[i].kind == VKB_PASS_COPY;
    if (copies && b->describe_queues && !b->describe_queues(b, prep, res->queues, sizeof res->queues))
        res->queues[0] = 0;
}

/* Whether PLAN runs a kernel of ours (a dispatch), whose subgroup size --subgroup-size sets. */
static int plan_dispatches(const vkb_plan *plan)
{
    for (int i = 0; i < plan->npass; i++)
        if (plan->pass[i].kind == VKB_PASS_DISPATCH)
            return 1;
    return 0;
}

/* The subgroup size PLAN's kernels run with on B, when known: the one asked for, or the device's only one. */
static uint32_t ran_subgroup_size(const vkb_runner *r, const vkb_backend *b, const vkb_plan *plan)
{
    if (!plan_dispatches(plan))
        return 0;
    if (r->subgroup_size)
        return r->subgroup_size;
    return b->caps.subgroup_min == b->caps.subgroup_max ? b->caps.subgroup_size : 0;
}

/* RES as the case B's device failed in (backend.h): failed, untimed, the error its row and the files give (one
 * device of several: said as its cases not run will be, runner.c); 1 when B has failed, else 0. */
static int device_failed(const vkb_runner *r, vkb_result *res, const vkb_backend *b)
{
    if (!vkb_backend_failed(b))
        return 0;
    vkb_runner_fail_row(res, b->error.message, r->several);
    return 1;
}

void vkb_execute_case(vkb_runner *r, shape_state *st, int bi, const vkb_family *f, const vkb_variant *v,
                      vkb_result *res)
{
    vkb_backend *b = r->all[bi];
    const vkb_case *c = &st->c;
    vkb_plan plan;
    vkb_variant tuned;
    vkb_buffer *bufs[VKB_MAX_BUFFERS] = {0}, *kept[VKB_MAX_BUFFERS] = {0};
    /* the poison and determinism checks compare on the device, but in a timed run on a CPU implementation:
     * its device memory is the host's, a read-back is a memcpy, and the device's copy and dispatches cost
     * more (the lavapipe suite's determinism checks: 0.3 s against 0.02 s); validate keeps the compare shader
     * tested there */
    int on_device = !(r->timed && b->caps.is_cpu);
    char why[200] = "", missing[200];
    double t0, t1, run_ms = 0;
    const vkb_result *first;
    long sick = -1; /* VKB_FAULT_INJECT=device-lost:I: device I is lost after its first case (tests) */
    int code;
    void *prep;

    res->family = f;
    res->variant = v;
    res->backend = b->name;
    res->device_index = b->caps.index;
    res->shape = c->shape;
    res->cache_fits = -1;
    res->predicted = NAN;
    res->status = VKB_RES_SKIP;
    res->subgroup_asked = r->subgroup_size;
    res->robustness = strcmp(b->name, "vulkan") != 0 ? VKB_ROBUSTNESS_NONE
                      : r->robustness_off            ? VKB_ROBUSTNESS_DISABLED
                                                     : VKB_ROBUSTNESS_DEFAULT;
    /* --repeat: a case is checked once, in its first round; later rounds time it again, or repeat its skip or
     * failure without running it */
    first = res->repeat > 0 ? first_run(r, st, res) : NULL;
    if (first && first->status != VKB_RES_OK) {
        res->status = first->status;
        memcpy(res->skip_reason, first->skip_reason, sizeof res->skip_reason);
        memcpy(res->constants, first->constants, sizeof res->constants);
        res->check = first->check;
        return;
    }

    if (st->lenient && !c->data) { /* a shared size beyond every kernel of the shape: no inputs (runner.c) */
        snprintf(res->skip_reason, sizeof res->skip_reason, "%s", st->beyond);
        return;
    }
    if (v->needs & ~b->caps.features) {
        snprintf(res->skip_reason, sizeof res->skip_reason, "needs %s",
                 vkb_caps_missing(&b->caps, v->needs, missing, sizeof missing));
        return;
    }
    if (vkb_preflight_apply_spec(r, v, &tuned, res))
        return;
    if ((code = vkb_preflight_plan(f, &tuned, c, &b->caps, st->lenient, &plan, why, sizeof why)) != VKB_PLAN_OK) {
        if (vkb_preflight_plan_exit(code) && !st->lenient) {
            /* preflight planned this case without inputs; refused with them, it is the family's inconsistency */
            res->status = VKB_RES_FAIL;
            snprintf(res->check.method, sizeof res->check.method, "refused with its inputs");
            snprintf(res->check.reason, sizeof res->check.reason, "%.150s", why);
            return;
        }
        snprintf(res->skip_reason, sizeof res->skip_reason, "%s", why);
        return;
    }
    /* a backend whose sizes exclude it (CUDA's warps are 32; a Vulkan device was checked at start-up) */
    if (r->subgroup_size && plan_dispatches(&plan) &&
        (r->subgroup_size < b->caps.subgroup_min || r->subgroup_size > b->caps.subgroup_max)) {
        snprintf(res->skip_reason, sizeof res->skip_reason, "--subgroup-size %u: %s runs subgroups of %u to %u",
                 r->subgroup_size, b->name, b->caps.subgroup_min, b->caps.subgroup_max);
        return;
    }
    vkb_verify_inject(&plan, f->name, v->name); /* VKB_FAULT_INJECT=skip-pass:K (tests) */
    vkb_mc_set_label(f->name, v->name);         /* --sass: files named by family and variant */
    t0 = vkb_now_ns();
    prep = b->prepare(b, &plan, why, sizeof why);
    r->clock.prepare_ns += vkb_now_ns() - t0;
    if (device_failed(r, res, b)) {
        b->unprepare(b, prep);
        return;
    }
    if (!prep) {
        snprintf(res->skip_reason, sizeof res->skip_reason, "%s", why);
        return;
    }
    res->subgroup_size = ran_subgroup_size(r, b, &plan);
    describe_planned(res, &plan);
    if (b->statistics)
        res->npipelines = b->statistics(b, prep, res->pipelines, VKB_MAX_PASSES);
    if (vkb_verbose)
        print_statistics(res, b);

    t0 = vkb_now_ns();
    for (int i = 0; i < plan.nbuf; i++) {
        if (plan.buf[i].role == VKB_BUF_INPUT) {
            bufs[i] = input_buffer(r, st, bi, &plan.buf[i]);
        } else {
            bufs[i] = b->buffer_create(b, plan.buf[i].bytes, plan.buf[i].flags);
            b->poison(b, bufs[i], plan.buf[i].bytes);
        }
    }
    describe_memory(res, b, &plan, bufs);
    describe_queues(res, b, &plan, prep);
    res->host_timed = plan.host_timed;
    for (int i = 0; i < plan.nbuf; i++)
        if (plan.buf[i].role == VKB_BUF_OUTPUT)
            vkb_parallel_set((void *)plan.buf[i].host, 0xA5, plan.buf[i].bytes); /* a stale host copy must not pass */
    r->clock.upload_ns += vkb_now_ns() - t0;

    if (first) { /* --repeat: checked (and compared across APIs) in the first round */
        res->check = first->check;
        res->status = VKB_RES_OK;
        res->cross = first->cross;
        res->cross_differing = first->cross_differing;
        res->cross_max_diff = first->cross_max_diff;
        res->cross_backend = first->cross_backend;
    } else {
        /* verify before timing: one run on poisoned outputs (the fault hook proves unwritten outputs fail) */
        t0 = vkb_now_ns();
        int unpoisoned = vkb_verify_poison(b, bufs, &plan, on_device, why, sizeof why);
        t1 = vkb_now_ns();
        if (!fault_no_dispatch())
            b->execute(b, prep, bufs, 1, 0, NULL);
        run_ms = (vkb_now_ns() - t1) / 1e6;
        t1 = vkb_now_ns();
        r->clock.run_ns += t1 - t0;
        for (int i = 0; i < plan.nbuf; i++)
            if (plan.buf[i].role == VKB_BUF_OUTPUT)
                b->download(b, bufs[i], (void *)plan.buf[i].host, plan.buf[i].bytes);
        t0 = t1;
        t1 = vkb_now_ns();
        r->clock.download_ns += t1 - t0;
        fault_wrong_device(b, &plan);
        vkb_verify_low_bit(&plan, f->name, v->name);
        if (vkb_fault_arg("device-lost", &sick) && sick == b->caps.index && r->done > 0) /* as the backend would */
            vkb_backend_fail(&b->error, VKB_EXIT_API,
                             "vkQueueSubmit: VK_ERROR_DEVICE_LOST (planted: "
                             "VKB_FAULT_INJECT=device-lost:%ld)",
                             sick);
        if (device_failed(r, res, b))
            goto done; /* the outputs are not the kernel's: nothing to check */
        vkb_family_check(f, v, c, &plan, &res->check);
        if (unpoisoned || vkb_verify_guards(b, bufs, &plan, why, sizeof why)) {
            res->check.pass = 0; /* the outputs were not poisoned, or bytes beside them were written */
            snprintf(res->check.reason, sizeof res->check.reason, "%s", why);
            snprintf(res->check.method, sizeof res->check.method, "%s", why);
        }
        res->status = res->check.pass ? VKB_RES_OK : VKB_RES_FAIL;
        t0 = vkb_now_ns();
        r->clock.check_ns += t0 - t1;
        /* a variant that claims determinism must give the same bits on the same input: a second run (validate)
         * or the last timed one (not for ceilings: an API's or a vendor library's own call is not ours to prove
         * deterministic) is compared with the checked run, kept on the device where the backend can compare */
        if (res->status == VKB_RES_OK && !(v->flags & VKB_VAR_NONDETERMINISTIC) &&
            !(r->timed && (v->flags & VKB_VAR_CEILING)) && on_device)
            vkb_verify_keep(b, bufs, &plan, kept);
        if (!r->timed && res->status == VKB_RES_OK && !(v->flags & VKB_VAR_NONDETERMINISTIC) &&
            !outputs_identical(b, prep, &plan, bufs, kept, 1, why, sizeof why))
            determinism_failed(res, "a second run differs", why);
        if (r->nbackends > 1 && !(v->flags & VKB_VAR_CEILING) && res->status == VKB_RES_OK) {
            if (st->saved.valid)
                vkb_compare_outputs(res, &plan, &st->saved);
            else
                vkb_compare_save(&st->saved, &plan, res);
        }
        r->clock.rerun_ns += vkb_now_ns() - t0;
    }
    res->working_set_bytes = vkb_plan_bytes(&plan);
    if (b->caps.cache_bytes) {
        res->cache_fits = res->working_set_bytes <= b->caps.cache_bytes;
        res->cache_measured = b->caps.cache_measured;
    }
    res->work = plan.work > 0 ? plan.work : vkb_family_work(f, v, c);
    res->predicted = f->predict ? f->predict(v, c, &b->caps) : NAN;
    res->theoretical = f->theoretical ? f->theoretical(v, &b->caps, &res->bound) : 0;
    if (res->theoretical > 0)
        vkb_result_value(res, "theoretical", res->theoretical, vkb_variant_unit(f, v),
                         "SMs x highest clock x the architecture's per-SM rate (gpu_facts.c)");
    if (res->bound > 0 && res->bound != res->theoretical)
        vkb_result_value(res, "issue_bound", res->bound, vkb_variant_unit(f, v),
                         "SMs x highest clock x the instructions an SM issues per clock (gpu_facts.c)");
    if (r->timed && res->status == VKB_RES_OK) {
        vkb_timing timing = r->timing[bi];
        /* a checked run longer than the warm-up has warmed the kernel (clocks, caches): slow kernels on a
         * CPU implementation would otherwise spend a run on warming up, the suite's largest cost there */
        if (run_ms >= timing.warmup_ms)
            timing.warmup_ms = 0;
        t0 = vkb_now_ns();
        vkb_timing_measure(b, prep, bufs, &timing, &res->time_ns);
        r->clock.warmup_ns += vkb_timing_warmup_ns();
        if (vkb_timing_error(res->check.reason, sizeof res->check.reason)) {
            res->status = VKB_RES_FAIL; /* timestamps out of order, zero, or beyond the host's clock */
            snprintf(res->check.method, sizeof res->check.method, "%.90s", res->check.reason);
        }
        r->clock.timing_ns += vkb_now_ns() - t0;
        if ((v->flags & VKB_VAR_API_COPY) && vkb_fault("slow-api-copy"))
            slow_api_copy(&res->time_ns);
        res->timed = 1;
        if (f->time_unit_ns > 0) /* a time per unit of work */
            res->metric = res->work > 0 ? res->time_ns.median / res->work / f->time_unit_ns : 0;
        else
            res->metric = res->time_ns.median > 0 ? res->work / res->time_ns.median : 0; /* per ns = G per s */
        t0 = vkb_now_ns();
        if (!first && res->status == VKB_RES_OK && !(v->flags & (VKB_VAR_NONDETERMINISTIC | VKB_VAR_CEILING)) &&
            !outputs_identical(b, prep, &plan, bufs, kept, 0, why, sizeof why))
            determinism_failed(res, "a timed run differs from the checked one", why);
        r->clock.rerun_ns += vkb_now_ns() - t0;
    }
    device_failed(r, res, b); /* during the timing or the determinism check: the row fails with the error */
done:
    vkb_verify_release(b, kept);
    for (int i = 0; i < plan.nbuf; i++)
        if (plan.buf[i].role != VKB_BUF_INPUT)
            b->buffer_destroy(b, bufs[i]);
    b->unprepare(b, prep);
}
