/* execute.c - one case of the runner, in phases: prepare (the plan, its pipelines, its buffers), dispatch (the
 * checked run on poisoned outputs), check (the family's check, the guard bands, determinism, the cross-backend
 * compare), record (the work and the models' numbers), time (the timed repetitions). The faults the tests plant
 * (VKB_FAULT_INJECT) stand together beside the phases, each called from one point. */
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

/* Which queue each copy of a plan that copies went to, as B names it (the transfer family's two-queue rows: which
 * queue families and so which engines ran the two directions), into RES. */
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

enum { WHY_LEN = 200 }; /* the bytes of a case's WHY: the reason a phase gives */

/* A case as its phases hand it on: what the plan, the pipelines and the buffers are, and what the checked run
 * left for the checks and the timing. */
typedef struct case_run {
    vkb_runner *r;
    shape_state *st;
    int bi;
    vkb_backend *b;
    const vkb_family *f;
    const vkb_variant *v;
    const vkb_case *c;
    vkb_result *res;
    const vkb_result *first; /* --repeat: the case's row in the shape's first round, where it was checked */
    vkb_variant tuned;       /* V with --spec applied: what the plan is made from */
    vkb_plan plan;
    void *prep;
    vkb_buffer *bufs[VKB_MAX_BUFFERS], *kept[VKB_MAX_BUFFERS];
    int on_device;  /* the poison and determinism checks compare on the device */
    int unpoisoned; /* the outputs were not poisoned before the checked run (WHY says how) */
    double run_ms;  /* the checked run's time */
    char *why;      /* WHY_LEN bytes: why a phase skipped or failed the case */
} case_run;

/* The faults the tests plant (VKB_FAULT_INJECT, fault.c) in a case, each standing in for a broken part, called
 * from one point of the phase whose part it breaks. */

/* VKB_FAULT_INJECT=no-dispatch: the checked run not dispatched, as a kernel that writes nothing would be. */
static int planted_no_dispatch(void)
{
    const char *f = getenv("VKB_FAULT_INJECT");
    return f && strcmp(f, "no-dispatch") == 0;
}

/* VKB_FAULT_INJECT=wrong-device:I: device I returns its first output with one word changed, as a GPU with a bad
 * memory cell would (its rows fail, the other devices' do not). */
static void planted_wrong_device(const vkb_backend *b, const vkb_plan *plan)
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

/* VKB_FAULT_INJECT=device-lost:I: device I is lost after its first case, as the backend would report it. */
static void planted_device_lost(const vkb_runner *r, vkb_backend *b)
{
    long sick = -1;
    if (vkb_fault_arg("device-lost", &sick) && sick == b->caps.index && r->done > 0)
        vkb_backend_fail(&b->error, VKB_EXIT_API,
                         "vkQueueSubmit: VK_ERROR_DEVICE_LOST (planted: "
                         "VKB_FAULT_INJECT=device-lost:%ld)",
                         sick);
}

/* The faults planted in what the checked run read back, before it is checked: wrong-device:I, low-bit
 * (verify.c), device-lost:I. */
static void plant_faults_after_dispatch(case_run *x)
{
    planted_wrong_device(x->b, &x->plan);
    vkb_verify_low_bit(&x->plan, x->f->name, x->v->name);
    planted_device_lost(x->r, x->b);
}

/* VKB_FAULT_INJECT=slow-api-copy: the API copy's times 3x, as NVIDIA's vkCmdCopyBuffer (driver 580: 28% of a
 * shader copy) on a device whose API copy is fast (lavapipe), to prove the ceiling is the faster copy. */
static void plant_faults_after_timing(case_run *x)
{
    vkb_stats *t = &x->res->time_ns;
    if (!(x->v->flags & VKB_VAR_API_COPY) || !vkb_fault("slow-api-copy"))
        return;
    t->min *= 3, t->q1 *= 3, t->median *= 3, t->q3 *= 3, t->max *= 3, t->mean *= 3, t->stddev *= 3;
}

/* What RES is before anything runs: the case it is a row of, skipped until a phase says otherwise. */
static void begin_row(case_run *x)
{
    vkb_result *res = x->res;
    res->family = x->f;
    res->variant = x->v;
    res->backend = x->b->name;
    res->device_index = x->b->caps.index;
    res->shape = x->c->shape;
    res->cache_fits = -1;
    res->predicted = NAN;
    res->status = VKB_RES_SKIP;
    res->subgroup_asked = x->r->subgroup_size;
    res->robustness = strcmp(x->b->name, "vulkan") != 0 ? VKB_ROBUSTNESS_NONE
                      : x->r->robustness_off            ? VKB_ROBUSTNESS_DISABLED
                                                        : VKB_ROBUSTNESS_DEFAULT;
}

/* The case's plan on its device: 1, or 0 with RES skipped (or failed) and nothing made. */
static int plan_case(case_run *x)
{
    vkb_runner *r = x->r;
    const shape_state *st = x->st;
    const vkb_backend *b = x->b;
    vkb_result *res = x->res;
    char missing[200];
    int code;
    /* --repeat: a case is checked once, in its first round; later rounds time it again, or repeat its skip or
     * failure without running it */
    x->first = res->repeat > 0 ? first_run(r, st, res) : NULL;
    if (x->first && x->first->status != VKB_RES_OK) {
        res->status = x->first->status;
        memcpy(res->skip_reason, x->first->skip_reason, sizeof res->skip_reason);
        memcpy(res->constants, x->first->constants, sizeof res->constants);
        res->check = x->first->check;
        return 0;
    }
    if (st->lenient && !x->c->data) { /* a shared size beyond every kernel of the shape: no inputs (runner.c) */
        snprintf(res->skip_reason, sizeof res->skip_reason, "%s", st->beyond);
        return 0;
    }
    if (x->v->needs & ~b->caps.features) {
        snprintf(res->skip_reason, sizeof res->skip_reason, "needs %s",
                 vkb_caps_missing(&b->caps, x->v->needs, missing, sizeof missing));
        return 0;
    }
    if (vkb_preflight_apply_spec(r, x->v, &x->tuned, res))
        return 0;
    code = vkb_preflight_plan(x->f, &x->tuned, x->c, &b->caps, st->lenient, &x->plan, x->why, WHY_LEN);
    if (code != VKB_PLAN_OK) {
        if (vkb_preflight_plan_exit(code) && !st->lenient) {
            /* preflight planned this case without inputs; refused with them, it is the family's inconsistency */
            res->status = VKB_RES_FAIL;
            snprintf(res->check.method, sizeof res->check.method, "refused with its inputs");
            snprintf(res->check.reason, sizeof res->check.reason, "%.150s", x->why);
            return 0;
        }
        snprintf(res->skip_reason, sizeof res->skip_reason, "%s", x->why);
        return 0;
    }
    /* a backend whose sizes exclude it (CUDA's warps are 32; a Vulkan device was checked at start-up) */
    if (r->subgroup_size && plan_dispatches(&x->plan) &&
        (r->subgroup_size < b->caps.subgroup_min || r->subgroup_size > b->caps.subgroup_max)) {
        snprintf(res->skip_reason, sizeof res->skip_reason, "--subgroup-size %u: %s runs subgroups of %u to %u",
                 r->subgroup_size, b->name, b->caps.subgroup_min, b->caps.subgroup_max);
        return 0;
    }
    return 1;
}

/* The plan's pipelines on the backend, and what RES says of them: 1, or 0 with RES skipped (or failed with the
 * device) and nothing left prepared. */
static int prepare_pipelines(case_run *x)
{
    vkb_backend *b = x->b;
    vkb_result *res = x->res;
    double t0;
    vkb_verify_inject(&x->plan, x->f->name, x->v->name); /* VKB_FAULT_INJECT=skip-pass:K (verify.c) */
    vkb_mc_set_label(x->f->name, x->v->name);            /* --sass: files named by family and variant */
    t0 = vkb_now_ns();
    x->prep = b->prepare(b, &x->plan, x->why, WHY_LEN);
    x->r->clock.prepare_ns += vkb_now_ns() - t0;
    if (device_failed(x->r, res, b)) {
        b->unprepare(b, x->prep);
        return 0;
    }
    if (!x->prep) {
        snprintf(res->skip_reason, sizeof res->skip_reason, "%s", x->why);
        return 0;
    }
    res->subgroup_size = ran_subgroup_size(x->r, b, &x->plan);
    describe_planned(res, &x->plan);
    if (b->statistics)
        res->npipelines = b->statistics(b, x->prep, res->pipelines, VKB_MAX_PASSES);
    if (vkb_verbose)
        print_statistics(res, b);
    return 1;
}

/* The plan's buffers: its inputs (shared by the shape's cases), its other buffers poisoned, the host copies of
 * its outputs spoiled, so that an output nothing wrote cannot pass. */
static void make_buffers(case_run *x)
{
    vkb_backend *b = x->b;
    const vkb_plan *plan = &x->plan;
    double t0 = vkb_now_ns();
    for (int i = 0; i < plan->nbuf; i++) {
        if (plan->buf[i].role == VKB_BUF_INPUT) {
            x->bufs[i] = input_buffer(x->r, x->st, x->bi, &plan->buf[i]);
        } else {
            x->bufs[i] = b->buffer_create(b, plan->buf[i].bytes, plan->buf[i].flags);
            b->poison(b, x->bufs[i], plan->buf[i].bytes);
        }
    }
    describe_memory(x->res, b, plan, x->bufs);
    describe_queues(x->res, b, plan, x->prep);
    x->res->host_timed = plan->host_timed;
    for (int i = 0; i < plan->nbuf; i++)
        if (plan->buf[i].role == VKB_BUF_OUTPUT)
            vkb_parallel_set((void *)plan->buf[i].host, 0xA5, plan->buf[i].bytes); /* a stale host copy must not pass */
    x->r->clock.upload_ns += vkb_now_ns() - t0;
}

/* Prepare: the plan, its pipelines and its buffers; 0 when the case ends there (RES skipped or failed). */
static int prepare(case_run *x)
{
    begin_row(x);
    if (!plan_case(x) || !prepare_pipelines(x))
        return 0;
    make_buffers(x);
    return 1;
}

/* Dispatch: the checked run, on outputs poisoned first (the poison check proves unwritten outputs fail), and
 * its outputs read back into the plan's host copies. */
static void dispatch(case_run *x)
{
    vkb_backend *b = x->b;
    const vkb_plan *plan = &x->plan;
    double t0 = vkb_now_ns(), t1;
    x->unpoisoned = vkb_verify_poison(b, x->bufs, plan, x->on_device, x->why, WHY_LEN);
    t1 = vkb_now_ns();
    if (!planted_no_dispatch())
        b->execute(b, x->prep, x->bufs, 1, 0, NULL);
    x->run_ms = (vkb_now_ns() - t1) / 1e6;
    t1 = vkb_now_ns();
    x->r->clock.run_ns += t1 - t0;
    for (int i = 0; i < plan->nbuf; i++)
        if (plan->buf[i].role == VKB_BUF_OUTPUT)
            b->download(b, x->bufs[i], (void *)plan->buf[i].host, plan->buf[i].bytes);
    x->r->clock.download_ns += vkb_now_ns() - t1;
}

/* Check: the family's check of the checked run's outputs, failed where they were not poisoned first or bytes
 * beside them were written. */
static void check(case_run *x)
{
    vkb_result *res = x->res;
    double t0 = vkb_now_ns();
    vkb_family_check(x->f, x->v, x->c, &x->plan, &res->check);
    if (x->unpoisoned || vkb_verify_guards(x->b, x->bufs, &x->plan, x->why, WHY_LEN)) {
        res->check.pass = 0; /* the outputs were not poisoned, or bytes beside them were written */
        snprintf(res->check.reason, sizeof res->check.reason, "%s", x->why);
        snprintf(res->check.method, sizeof res->check.method, "%s", x->why);
    }
    res->status = res->check.pass ? VKB_RES_OK : VKB_RES_FAIL;
    x->r->clock.check_ns += vkb_now_ns() - t0;
}

/* The checks of a passed checked run that need another: determinism (a second run, in validate) and, with
 * several backends, the same outputs as the first backend's. */
static void check_again(case_run *x)
{
    vkb_runner *r = x->r;
    vkb_result *res = x->res;
    unsigned flags = x->v->flags;
    double t0 = vkb_now_ns();
    /* a variant that claims determinism must give the same bits on the same input: a second run (validate)
     * or the last timed one (not for ceilings: an API's or a vendor library's own call is not ours to prove
     * deterministic) is compared with the checked run, kept on the device where the backend can compare */
    if (res->status == VKB_RES_OK && !(flags & VKB_VAR_NONDETERMINISTIC) && !(r->timed && (flags & VKB_VAR_CEILING)) &&
        x->on_device)
        vkb_verify_keep(x->b, x->bufs, &x->plan, x->kept);
    if (!r->timed && res->status == VKB_RES_OK && !(flags & VKB_VAR_NONDETERMINISTIC) &&
        !outputs_identical(x->b, x->prep, &x->plan, x->bufs, x->kept, 1, x->why, WHY_LEN))
        determinism_failed(res, "a second run differs", x->why);
    if (r->nbackends > 1 && !(flags & VKB_VAR_CEILING) && res->status == VKB_RES_OK) {
        if (x->st->saved.valid)
            vkb_compare_outputs(res, &x->plan, &x->st->saved);
        else
            vkb_compare_save(&x->st->saved, &x->plan, res);
    }
    r->clock.rerun_ns += vkb_now_ns() - t0;
}

/* --repeat: the checks (and the compare across backends) of the case's first round. */
static void checked_in_first_round(case_run *x)
{
    vkb_result *res = x->res;
    res->check = x->first->check;
    res->status = VKB_RES_OK;
    res->cross = x->first->cross;
    res->cross_differing = x->first->cross_differing;
    res->cross_max_diff = x->first->cross_max_diff;
    res->cross_backend = x->first->cross_backend;
}

/* Record: the case's work, working set and the models' numbers (prediction, the device's ceilings), into RES. */
static void record(case_run *x)
{
    const vkb_family *f = x->f;
    const vkb_variant *v = x->v;
    const vkb_caps *caps = &x->b->caps;
    vkb_result *res = x->res;
    res->working_set_bytes = vkb_plan_bytes(&x->plan);
    if (caps->cache_bytes) {
        res->cache_fits = res->working_set_bytes <= caps->cache_bytes;
        res->cache_measured = caps->cache_measured;
    }
    res->work = x->plan.work > 0 ? x->plan.work : vkb_family_work(f, v, x->c);
    res->predicted = f->predict ? f->predict(v, x->c, caps) : NAN;
    res->theoretical = f->theoretical ? f->theoretical(v, caps, &res->bound) : 0;
    if (res->theoretical > 0)
        vkb_result_value(res, "theoretical", res->theoretical, vkb_variant_unit(f, v),
                         "SMs x highest clock x the architecture's per-SM rate (gpu_facts.c)");
    if (res->bound > 0 && res->bound != res->theoretical)
        vkb_result_value(res, "issue_bound", res->bound, vkb_variant_unit(f, v),
                         "SMs x highest clock x the instructions an SM issues per clock (gpu_facts.c)");
}

/* Time: the timed repetitions and the metric, then the last one's outputs compared with the checked run's. */
static void time_case(case_run *x)
{
    vkb_runner *r = x->r;
    vkb_result *res = x->res;
    const vkb_family *f = x->f;
    vkb_timing timing = r->timing[x->bi];
    double t0;
    /* a checked run longer than the warm-up has warmed the kernel (clocks, caches): slow kernels on a
     * CPU implementation would otherwise spend a run on warming up, the suite's largest cost there */
    if (x->run_ms >= timing.warmup_ms)
        timing.warmup_ms = 0;
    t0 = vkb_now_ns();
    vkb_timing_measure(x->b, x->prep, x->bufs, &timing, &res->time_ns);
    r->clock.warmup_ns += vkb_timing_warmup_ns();
    if (vkb_timing_error(res->check.reason, sizeof res->check.reason)) {
        res->status = VKB_RES_FAIL; /* timestamps out of order, zero, or beyond the host's clock */
        snprintf(res->check.method, sizeof res->check.method, "%.90s", res->check.reason);
    }
    r->clock.timing_ns += vkb_now_ns() - t0;
    plant_faults_after_timing(x);
    res->timed = 1;
    if (f->time_unit_ns > 0) /* a time per unit of work */
        res->metric = res->work > 0 ? res->time_ns.median / res->work / f->time_unit_ns : 0;
    else
        res->metric = res->time_ns.median > 0 ? res->work / res->time_ns.median : 0; /* per ns = G per s */
    t0 = vkb_now_ns();
    if (!x->first && res->status == VKB_RES_OK && !(x->v->flags & (VKB_VAR_NONDETERMINISTIC | VKB_VAR_CEILING)) &&
        !outputs_identical(x->b, x->prep, &x->plan, x->bufs, x->kept, 0, x->why, WHY_LEN))
        determinism_failed(res, "a timed run differs from the checked one", x->why);
    r->clock.rerun_ns += vkb_now_ns() - t0;
}

/* What the case made: the outputs kept for the determinism check, its buffers but the shared inputs, its
 * pipelines. */
static void release(case_run *x)
{
    vkb_verify_release(x->b, x->kept);
    for (int i = 0; i < x->plan.nbuf; i++)
        if (x->plan.buf[i].role != VKB_BUF_INPUT)
            x->b->buffer_destroy(x->b, x->bufs[i]);
    x->b->unprepare(x->b, x->prep);
}

void vkb_execute_case(vkb_runner *r, shape_state *st, int bi, const vkb_family *f, const vkb_variant *v,
                      vkb_result *res)
{
    char why[WHY_LEN] = "";
    case_run x = {.r = r, .st = st, .bi = bi, .b = r->all[bi], .f = f, .v = v, .c = &st->c, .res = res, .why = why};
    /* the poison and determinism checks compare on the device, but in a timed run on a CPU implementation:
     * its device memory is the host's, a read-back is a memcpy, and the device's copy and dispatches cost
     * more (the lavapipe suite's determinism checks: 0.3 s against 0.02 s); validate keeps the compare shader
     * tested there */
    x.on_device = !(r->timed && x.b->caps.is_cpu);
    if (!prepare(&x))
        return;
    if (x.first) {
        checked_in_first_round(&x);
    } else {
        dispatch(&x);
        plant_faults_after_dispatch(&x);
        if (device_failed(r, res, x.b)) { /* the outputs are not the kernel's: nothing to check */
            release(&x);
            return;
        }
        check(&x);
        check_again(&x);
    }
    record(&x);
    if (r->timed && res->status == VKB_RES_OK)
        time_case(&x);
    device_failed(r, res, x.b); /* during the timing or the determinism check: the row fails with the error */
    release(&x);
}
