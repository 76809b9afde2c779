/* runner.c - the only code that runs a variant: the work list, preflight, inputs, poison, dispatch, check,
 * time; every result goes out, final, as an event to the sinks. */
#include "runner.h"

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

#define SUSPECT_COPY_FACTOR 1.25  /* a bandwidth this far above the fastest copy of the run is not believed */
/* ... for rows that move at least this much: below it, fixed per-call costs (which differ between an API
 * copy and a dispatch) dominate, and a GB/s figure bounds nothing */
#define SUSPECT_MIN_BYTES (64.0 * 1048576)
/* a rate this far above the row's theoretical one (the highest clock the driver reports) is not believed */
#define SUSPECT_THEORY_FACTOR 1.02
/* The run's estimate, from the H100 default suite of 2026-11-23 (session 3, `vkbench -v`, 166 cases):
 * pipelines and launches per case; the host's work on the data (inputs, transfers, read-backs, CPU checks)
 * per byte of a case's working set: 6.5 s on 96 GB; and the share of a GPU's time budget a case spends before
 * its median settles: 15 ms of 100 (a CPU implementation's slow runs spend it whole) */
#define CASE_OVERHEAD_S 0.01
#define HOST_S_PER_BYTE 7e-11
#define BUDGET_SHARE_GPU 0.2

/* Outputs of the first backend that ran a variant, to compare the second one with. */
typedef struct saved_outputs {
    void *data[VKB_MAX_BUFFERS];
    uint64_t bytes[VKB_MAX_BUFFERS];
    uint64_t cap[VKB_MAX_BUFFERS];  /* kept from variant to variant: fresh memory costs a page fault per 4 KiB */
    double tolerance;   /* the first backend's check tolerance (0: exact) */
    const char *backend;
    int valid;
} saved_outputs;

/* A device buffer holding an input of the current shape, shared by the variants that plan the same host
 * data (same pointer, size and flags) on the same backend; freed when the shape ends. */
typedef struct cached_input {
    int backend;
    const void *host;
    uint64_t bytes;
    unsigned flags;
    vkb_buffer *buf;
} cached_input;

/* What the run holds for the shape being worked on. */
typedef struct shape_state {
    int fam, shape;          /* -1: none */
    vkb_case c;
    int first_result;        /* results of this shape start here (its ceilings first) */
    cached_input *inputs;
    int ninputs, cap;
    saved_outputs saved;     /* the current variant's outputs on its first backend */
    int saved_variant;
    vkb_runner_clock clock;  /* the run's clock when the shape began (-v: where the shape's time went) */
} shape_state;

/* One buffer for read-backs, kept for the run: a fresh one per case costs a page fault per 4 KiB (a 1 GiB
 * output: a third of a second). */
static _Thread_local void *scratch;   /* per thread: each device of --device LIST runs on its own */
static _Thread_local size_t scratch_bytes;

static void *scratch_for(uint64_t bytes)
{
    if (bytes > scratch_bytes) {
        free(scratch);
        scratch = vkb_alloc((size_t)bytes);
        scratch_bytes = (size_t)bytes;
    }
    return scratch;
}

static vkb_runner *active;   /* the run whose sinks an early exit must still end */
static _Thread_local vkb_result *in_progress; /* the case being run: a fatal error is recorded on it */

/* VKB_FAULT_INJECT=no-dispatch: skip the checked run, as a kernel that writes nothing would (tests). */
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
            *(uint32_t *)plan->buf[i].host ^= 0x40000000u;   /* an exponent bit: far beyond any tolerance */
            return;
        }
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

static void add_work(vkb_runner *r, int *cap, int fam, int shape, int variant, int backend, int repeat)
{
    if (r->nwork == *cap) {
        vkb_work *grown;
        *cap = *cap ? 2 * *cap : 256;
        grown = realloc(r->work, (size_t)*cap * sizeof *grown);
        if (!grown)
            vkb_die(VKB_EXIT_RESOURCE, "out of host memory for the work list; run fewer sizes");
        r->work = grown;
    }
    r->work[r->nwork++] = (vkb_work){fam, shape, variant, backend, repeat};
}

void vkb_runner_plan(vkb_runner *r, const vkb_selection *sel, vkb_run_plan *plan)
{
    int cap = 0, used_backend[2] = {0, 0};
    double first_warmup = 0;
    memset(plan, 0, sizeof *plan);
    r->nwork = 0;
    for (int fi = 0; fi < sel->nfams; fi++) {
        const vkb_selected_family *sf = &sel->fam[fi];
        const vkb_family *f = sf->family;
        int rows = 0;
        plan->shapes += sf->nshapes;
        for (int s = 0; s < sf->nshapes; s++) {
            int start = r->nwork;
            /* --repeat N: the shape's cases in N rounds, each case once per round (A1 B1 C1 A2 B2 C2), not each
             * case N times back to back (A1 A2 A3 B1 ...): drift over the run (clocks, heat, another process's
             * load) then falls on every variant alike, as spread between its runs, instead of on whichever
             * variants happened to run late, as a difference between them */
            for (int k = 0; k < (r->repeat > 1 ? r->repeat : 1); k++)
                /* pass 0: the ceilings (timed runs: on every backend open); pass 1: the selected kernels */
                for (int pass = 0; pass < 2; pass++)
                    for (int vi = 0; vi < f->nvariants; vi++) {
                        const vkb_variant *v = &f->variants[vi];
                        int ceiling = r->timed && (v->flags & VKB_VAR_CEILING);
                        if (pass == 0 ? !ceiling : ceiling || !sf->selected[vi])
                            continue;
                        for (int bi = 0; bi < r->nall; bi++)
                            if (backend_allowed(v, r->all[bi]) && (ceiling || is_requested(r, r->all[bi]))) {
                                add_work(r, &cap, fi, s, vi, bi, k);
                                used_backend[bi] = 1;
                            }
                    }
            if (s == 0)
                for (int w = start; w < r->nwork && r->work[w].repeat == 0; w++) /* distinct rows: the first shape's */
                    rows += w == start || r->work[w].variant != r->work[w - 1].variant;
        }
        plan->variants += rows;
    }
    plan->cases = r->nwork;
    for (int bi = 0; bi < r->nall; bi++)
        plan->backends += used_backend[bi];
    /* the estimate: warm-up and the part of the budget a timed case spends (the first of a process warms
     * longer), plus a guess for pipelines and launches; the host's work on the data is added by preflight */
    for (int w = 0; w < r->nwork; w++) {
        const vkb_timing *t = &r->timing[r->work[w].backend];
        double share = r->all[r->work[w].backend]->caps.is_cpu ? 1 : BUDGET_SHARE_GPU;
        plan->estimate_s += CASE_OVERHEAD_S;
        if (!r->timed)
            continue;
        plan->estimate_s += (t->reps > 0 ? 0 : share * t->budget_ms) / 1e3 + t->warmup_ms / 1e3;
        if (t->first_warmup_ms - t->warmup_ms > first_warmup) /* once per process */
            first_warmup = t->first_warmup_ms - t->warmup_ms;
    }
    plan->estimate_s += first_warmup / 1e3;
}

/* One span of words of a cross-backend compare (a task on the worker threads: fixed spans, merged in
 * order, so the counts and the first element named do not depend on the thread count). */
#define COMPARE_SPAN_WORDS ((uint64_t)1 << 20)

typedef struct compare_span {
    uint64_t differing, beyond, first_beyond;   /* first_beyond: the lowest index beyond the tolerance */
    double max_diff;
} compare_span;

typedef struct compare_job {
    const uint32_t *a, *b;   /* the first backend's words, this one's */
    uint64_t words;
    double tol;
    int exact;
    compare_span *span;
} compare_job;

static float float_of_word(uint32_t w)
{
    float f;
    memcpy(&f, &w, 4);
    return f;
}

/* How far apart two output words are: outputs are fp32 or int32 words; for floats the difference says how
 * far apart they are (a NaN: infinitely) */
static double word_diff(uint32_t a, uint32_t b)
{
    float fa = float_of_word(a), fb = float_of_word(b);
    return fa != fa || fb != fb ? INFINITY : fabs((double)fa - fb);
}

static void compare_span_task(void *ctx, int64_t t)
{
    const compare_job *j = ctx;
    compare_span *sp = &j->span[t];
    uint64_t end = vkb_task_end(t, COMPARE_SPAN_WORDS, j->words);
    for (uint64_t w = (uint64_t)t * COMPARE_SPAN_WORDS; w < end; w++) {
        double diff;
        if (j->a[w] == j->b[w])
            continue;
        sp->differing++;
        diff = word_diff(j->a[w], j->b[w]);
        if (diff > sp->max_diff)
            sp->max_diff = diff;
        if (!j->exact && diff <= j->tol)
            continue;
        if (sp->beyond++ == 0)
            sp->first_beyond = w;
    }
}

/* Compare RES's outputs with those the first backend gave: differing bits are counted; beyond the two
 * checks' tolerances combined (any differing bit when both checks were exact) the row fails, and the
 * first such element is named. */
static void compare_outputs(vkb_result *res, const vkb_plan *plan, const saved_outputs *saved)
{
    double tol = saved->tolerance + res->check.tolerance;
    int exact = !(saved->tolerance > 0) && !(res->check.tolerance > 0);
    uint64_t beyond = 0;
    res->cross = 1;
    res->cross_backend = saved->backend;
    for (int i = 0; i < plan->nbuf; i++) {
        compare_job j = {saved->data[i], plan->buf[i].host, 0, tol, exact, NULL};
        int64_t nspan;
        if (plan->buf[i].role != VKB_BUF_OUTPUT || !saved->bytes[i] || !plan->buf[i].host)
            continue;
        j.words = (saved->bytes[i] < plan->buf[i].bytes ? saved->bytes[i] : plan->buf[i].bytes) / 4;
        nspan = vkb_tasks_of(j.words, COMPARE_SPAN_WORDS);
        j.span = vkb_calloc((size_t)nspan + 1, sizeof *j.span);
        vkb_parallel_run(nspan, compare_span_task, &j);
        for (int64_t t = 0; t < nspan; t++) {
            const compare_span *sp = &j.span[t];
            uint64_t w = sp->first_beyond;
            res->cross_differing += sp->differing;
            if (sp->max_diff > res->cross_max_diff)
                res->cross_max_diff = sp->max_diff;
            if (sp->beyond && beyond == 0) {
                uint32_t a = j.a[w], b = j.b[w];
                float fa = float_of_word(a), fb = float_of_word(b);
                /* words that are not normal floats (exponent bits 0) are read as the int32 they likely are */
                int ints = exact && ((a & 0x7F800000u) == 0 || (b & 0x7F800000u) == 0);
                res->cross_index = w;
                res->cross_buffer = i;
                res->cross_this = ints ? (double)(int32_t)b : fb;
                res->cross_other = ints ? (double)(int32_t)a : fa;
                if (exact)
                    snprintf(res->check.method, sizeof res->check.method, "differs from %s at [%llu]: 0x%08x vs 0x%08x",
                             saved->backend, (unsigned long long)w, b, a);
                else
                    snprintf(res->check.method, sizeof res->check.method, "differs from %s at [%llu]: %.9g vs %.9g "
                             "(> %.2g)", saved->backend, (unsigned long long)w, (double)fb, (double)fa, tol);
                res->check.first_bad = w;
            }
            beyond += sp->beyond;
        }
        free(j.span);
    }
    if (beyond) {
        res->cross_fail = 1;
        res->status = VKB_RES_FAIL;
        res->check.pass = 0;
        res->check.bad = beyond;
    }
}

static void save_outputs(saved_outputs *saved, const vkb_plan *plan, const vkb_result *res)
{
    for (int i = 0; i < VKB_MAX_BUFFERS; i++) {
        saved->bytes[i] = 0;
        if (i >= plan->nbuf || plan->buf[i].role != VKB_BUF_OUTPUT || !plan->buf[i].host)
            continue;
        if (plan->buf[i].bytes > saved->cap[i]) {
            free(saved->data[i]);
            saved->data[i] = vkb_alloc(plan->buf[i].bytes);
            saved->cap[i] = plan->buf[i].bytes;
        }
        vkb_parallel_copy(saved->data[i], plan->buf[i].host, plan->buf[i].bytes);
        saved->bytes[i] = plan->buf[i].bytes;
    }
    saved->tolerance = res->check.tolerance;
    saved->backend = res->backend;
    saved->valid = 1;
}

/* Forget the saved outputs; their memory stays for the next variant. */
static void forget_outputs(saved_outputs *saved)
{
    memset(saved->bytes, 0, sizeof saved->bytes);
    saved->valid = 0;
}

static void free_outputs(saved_outputs *saved)
{
    for (int i = 0; i < VKB_MAX_BUFFERS; i++)
        free(saved->data[i]);
    memset(saved, 0, sizeof *saved);
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

/* The plan of V at C on CAPS within the device's limits: VKB_PLAN_OK, or VKB_PLAN_SKIP with WHY; a bad
 * request (exit 2) or one beyond the kernel or the device (exit 4) ends the run with one line. */
static int plan_or_die(const vkb_family *f, const vkb_variant *v, const vkb_case *c, const vkb_caps *caps,
                       vkb_plan *plan, char *why, size_t len)
{
    char shape[96];
    int code = vkb_family_plan(f, v, c, caps, plan, why, len);
    if (code == VKB_PLAN_OK)
        code = vkb_plan_check_limits(plan, caps, why, len);
    if (code == VKB_PLAN_BAD_REQUEST || code == VKB_PLAN_TOO_LARGE)
        vkb_die(code == VKB_PLAN_BAD_REQUEST ? VKB_EXIT_USAGE : VKB_EXIT_RESOURCE, "%s/%s at %s on %s: %s", f->name,
                v->name, vkb_shape_text(f, &c->shape, shape, sizeof shape), caps->name, why);
    return code;
}

/* A workgroup that --spec made larger than the device allows: the request is impossible, not the variant
 * (exit 2, as a memory.* family refuses a workgroup its kernels do not take). */
static void spec_workgroup_fits(const vkb_family *f, const vkb_variant *v, const vkb_variant *tuned,
                                const vkb_caps *caps)
{
    const uint32_t *l = tuned->local;
    if (!memcmp(l, v->local, sizeof v->local) || !l[0] || !l[1] || !l[2])
        return;
    if ((uint64_t)l[0] * l[1] * l[2] > caps->max_workgroup_invocations || l[0] > caps->max_workgroup_size[0] ||
        l[1] > caps->max_workgroup_size[1] || l[2] > caps->max_workgroup_size[2])
        vkb_die(VKB_EXIT_USAGE, "%s/%s: --spec sets a %ux%ux%u workgroup, beyond %s's %ux%ux%u and %u invocations",
                f->name, v->name, l[0], l[1], l[2], caps->name, caps->max_workgroup_size[0],
                caps->max_workgroup_size[1], caps->max_workgroup_size[2], caps->max_workgroup_invocations);
}

/* The plan of work item K without inputs (sizes only): 1, or 0 when the case will be a skip (said on its row);
 * a request beyond the kernel or the device ends the run (plan_or_die). */
static int plan_sizes(const vkb_runner *r, const vkb_selection *sel, const vkb_work *k, vkb_plan *plan)
{
    const vkb_family *f = sel->fam[k->fam].family;
    const vkb_variant *v = &f->variants[k->variant];
    const vkb_backend *b = r->all[k->backend];
    vkb_case c = {f, sel->fam[k->fam].shapes[k->shape], NULL};
    vkb_variant tuned;
    vkb_result scratch;   /* apply_spec's skip reason, unused here */
    char why[200];
    memset(&scratch, 0, sizeof scratch);
    if ((v->needs & ~b->caps.features) || apply_spec(r, v, &tuned, &scratch))
        return 0;
    spec_workgroup_fits(f, v, &tuned, &b->caps);
    return plan_or_die(f, &tuned, &c, &b->caps, plan, why, sizeof why) == VKB_PLAN_OK;
}

void vkb_runner_preflight(vkb_runner *r, const vkb_selection *sel, vkb_run_plan *estimate)
{
    if (r->nwork > VKB_MAX_RESULTS)
        vkb_die(VKB_EXIT_USAGE, "%d cases in one run, more than %d; run fewer sizes or variants", r->nwork,
                VKB_MAX_RESULTS);
    /* the kernels first: their reasons (index ranges, constants) say more than a ceiling's buffer size */
    for (int pass = 0; pass < 2; pass++)
        for (int w = 0; w < r->nwork; w++) {
            const vkb_work *k = &r->work[w];
            vkb_plan plan;
            if (((sel->fam[k->fam].family->variants[k->variant].flags & VKB_VAR_CEILING) != 0) == pass &&
                plan_sizes(r, sel, k, &plan) && estimate)
                estimate->estimate_s += HOST_S_PER_BYTE * (double)vkb_plan_bytes(&plan);
        }
}

/* Each backend that can builds the pipelines of all its cases ahead, on the host's cores. */
static void precompile(vkb_runner *r, const vkb_selection *sel)
{
    double t0 = vkb_now_ns();
    for (int bi = 0; bi < r->nall; bi++) {
        vkb_backend *b = r->all[bi];
        vkb_plan *plans;
        int n = 0;
        if (!b->precompile)
            continue;
        plans = vkb_alloc((size_t)r->nwork * sizeof *plans + 1);
        for (int w = 0; w < r->nwork; w++)
            n += r->work[w].backend == bi && plan_sizes(r, sel, &r->work[w], &plans[n]);
        b->precompile(b, plans, n);
        free(plans);
    }
    r->clock.prepare_ns += vkb_now_ns() - t0;
}

/* Known peak rates (GFLOP/s) of devices by name: fp32 FMA, fp16 FMA, fp16 tensor cores (dense). A rate above
 * the peak its kind of kernel can reach is not believed. NVIDIA's data sheets; SXM figures for the H100 name
 * (the PCIe card is slower, so the bound stays a bound). */
static const struct {
    const char *name;
    double fp32, fp16, tensor16;
} peaks[] = {
    {"H100", 66.9e3, 133.8e3, 989.4e3},
    {"H200", 66.9e3, 133.8e3, 989.4e3},
    {"A100", 19.5e3, 78e3, 312e3},
};

static double peak_flops(const vkb_caps *caps, const vkb_variant *v)
{
    for (size_t i = 0; i < VKB_COUNT(peaks); i++)
        if (strstr(caps->name, peaks[i].name)) {
            if ((v->needs & (VKB_NEED_COOPMAT | VKB_NEED_COOPMAT_KHR | VKB_NEED_COOPMAT2)) ||
                (v->flags & VKB_VAR_CEILING))
                return peaks[i].tensor16; /* vendor libraries may use tensor cores */
            return v->needs & VKB_NEED_FLOAT16 ? peaks[i].fp16 : peaks[i].fp32;
        }
    return 0;
}

/* A copy: the API's copy row of any family, or a shader copy (VKB_VAR_SHADER_COPY: the copy family's vec4,
 * transpose's copy rows). The shader copies count because an API copy can be far below the memory's rate
 * (vkCmdCopyBuffer on NVIDIA's driver 580: 28% of a shader copy), and would make every honest kernel of a run
 * without CUDA look too fast. */
static int is_copy(const vkb_result *res)
{
    return strcmp(res->variant->name, "api_copy") == 0 || (res->variant->flags & VKB_VAR_SHADER_COPY);
}

/* Mark RES suspect when its metric is above a physical bound: bandwidth above 1.25x the fastest copy of the
 * run (rows measured against a copy ceiling, moving at least SUSPECT_MIN_BYTES, on a GPU: a CPU
 * implementation's caches and write-allocate make a copy no bound for a read-only kernel), a FLOP rate
 * above the device's known peak. */
static void judge_metric(vkb_runner *r, vkb_result *res, const vkb_caps *caps)
{
    double peak;
    if (!res->timed || res->status != VKB_RES_OK)
        return;
    if (res->family->theoretical) {   /* the row's own bound, at the highest clock: nothing runs faster */
        if (res->bound > 0 && res->metric > SUSPECT_THEORY_FACTOR * res->bound) {
            res->suspect = 1;
            snprintf(res->suspect_reason, sizeof res->suspect_reason, "%.0f %s is above the bound %.0f (%s): a "
                     "timing error, or an operation count above what ran?", res->metric, res->family->metric,
                     res->bound, res->bound == res->theoretical ? "the theoretical rate" : "the issue limit");
        }
        return;
    }
    if (strcmp(res->family->metric, "GB/s") == 0) {
        if (caps->is_cpu || res->work < SUSPECT_MIN_BYTES)
            return;
        if (is_copy(res) && res->metric > r->fastest_copy)
            r->fastest_copy = res->metric;
        if (res->ceiling && is_copy(res->ceiling) && r->fastest_copy > 0 &&
            res->metric > SUSPECT_COPY_FACTOR * r->fastest_copy) {
            res->suspect = 1;
            snprintf(res->suspect_reason, sizeof res->suspect_reason, "%.1f GB/s is above %.2fx the fastest copy "
                     "of this run (%.1f GB/s): a timing error?", res->metric, SUSPECT_COPY_FACTOR, r->fastest_copy);
        }
    } else if ((peak = peak_flops(caps, res->variant)) > 0 && res->metric > peak) {
        res->suspect = 1;
        snprintf(res->suspect_reason, sizeof res->suspect_reason, "%.0f GFLOP/s is above the peak of %s (%.0f "
                 "GFLOP/s): a timing error?", res->metric, caps->name, peak);
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

/* The ceiling RES is a fraction of: the fastest ceiling row measured at this shape through either API on
 * this GPU (a row may name which ceiling applies to it). The fastest, not the own API's: on the H100 (driver
 * 580) vkCmdCopyBuffer moves 28% of what a vec4 copy shader does, and would flatter every Vulkan kernel.
 * Where none ran (a vendor library's row without CUDA), the row's fallback: the fastest result of the run
 * named "family/variant" there (matmul's fp32 rows: the fp32 FMA peak), which ran before it (families run in
 * table order). The shape's ceilings ran first, so the result is final. */
/* 1 when ceiling row NAME is named by LIST ("a|b") at or before position *RANK (lower: preferred), which it
 * then becomes; NULL LIST names every row at rank 0. */
static int named_ceiling(const char *list, const char *name, int *rank)
{
    size_t len = strlen(name);
    int k = 0;
    if (!list)
        return 1;
    for (const char *p = list; *p && k <= *rank; k++) {
        const char *end = strchr(p, '|');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, name, n) == 0) {
            *rank = k;
            return 1;
        }
        p += n + (end != NULL);
    }
    return 0;
}

static void attach_ceiling(vkb_runner *r, const shape_state *st, vkb_result *res)
{
    const vkb_result *best = NULL;
    const char *fb = res->variant->fallback;
    int rank = INT32_MAX / 2, time = res->family->time_unit_ns > 0;
    if (!res->timed || (res->variant->flags & VKB_VAR_CEILING))
        return;
    for (int j = st->first_result; j < r->results.n; j++) {
        const vkb_result *c = &r->results.r[j];
        int before = rank;
        if (!c->timed || !(c->variant->flags & VKB_VAR_CEILING) || c->metric <= 0 || c->repeat != res->repeat ||
            !named_ceiling(res->variant->ceiling, c->variant->name, &rank))
            continue;   /* --repeat: the ceiling of the same round, measured beside the row */
        /* a preferred row first; among equals the fastest (a time metric: the shortest) */
        if (!best || rank < before || (time ? c->metric < best->metric : c->metric > best->metric))
            best = c;
    }
    for (int j = 0; !best && fb && j < r->results.n; j++) {
        const vkb_result *c = &r->results.r[j];
        size_t flen = strlen(c->family->name);
        if (c == res || !c->timed || c->status != VKB_RES_OK || c->suspect || c->metric <= 0 ||
            strncmp(fb, c->family->name, flen) != 0 || fb[flen] != '/' || strcmp(fb + flen + 1, c->variant->name))
            continue;
        for (int k = j; k < r->results.n; k++) {   /* the fastest of its backends */
            const vkb_result *o = &r->results.r[k];
            if (o->family == c->family && o->variant == c->variant && o->timed && o->status == VKB_RES_OK &&
                !o->suspect && o->metric > c->metric)
                c = o;
        }
        best = c;
    }
    res->ceiling = best;
    res->fraction = !best ? 0 : time ? best->metric / res->metric : res->metric / best->metric;
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

static void run_one(vkb_runner *r, shape_state *st, int bi, const vkb_family *f, const vkb_variant *v,
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
    long sick = -1;   /* VKB_FAULT_INJECT=device-lost:I: device I is lost after its first case (tests) */
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
                      : r->robustness_off ? VKB_ROBUSTNESS_DISABLED : VKB_ROBUSTNESS_DEFAULT;
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

    if (v->needs & ~b->caps.features) {
        snprintf(res->skip_reason, sizeof res->skip_reason, "needs %s",
                 vkb_caps_missing(&b->caps, v->needs, missing, sizeof missing));
        return;
    }
    if (apply_spec(r, v, &tuned, res))
        return;
    if (plan_or_die(f, &tuned, c, &b->caps, &plan, why, sizeof why) != VKB_PLAN_OK) {
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
    vkb_mc_set_label(f->name, v->name); /* --sass: files named by family and variant */
    t0 = vkb_now_ns();
    prep = b->prepare(b, &plan, why, sizeof why);
    r->clock.prepare_ns += vkb_now_ns() - t0;
    if (!prep) {
        snprintf(res->skip_reason, sizeof res->skip_reason, "%s", why);
        return;
    }
    res->subgroup_size = ran_subgroup_size(r, b, &plan);
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
    res->host_timed = plan.host_timed;
    for (int i = 0; i < plan.nbuf; i++)
        if (plan.buf[i].role == VKB_BUF_OUTPUT)
            vkb_parallel_set((void *)plan.buf[i].host, 0xA5, plan.buf[i].bytes); /* a stale host copy must not pass */
    r->clock.upload_ns += vkb_now_ns() - t0;

    if (first) {   /* --repeat: checked (and compared across APIs) in the first round */
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
        if (vkb_fault_arg("device-lost", &sick) && sick == b->caps.index && r->done > 0)
            vkb_die(VKB_EXIT_API, "vkQueueSubmit: VK_ERROR_DEVICE_LOST (planted: VKB_FAULT_INJECT=device-lost:%ld)",
                    sick);
        vkb_family_check(f, v, c, &plan, &res->check);
        if (unpoisoned || vkb_verify_guards(b, bufs, &plan, why, sizeof why)) {
            res->check.pass = 0;   /* the outputs were not poisoned, or bytes beside them were written */
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
                compare_outputs(res, &plan, &st->saved);
            else
                save_outputs(&st->saved, &plan, res);
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
            res->status = VKB_RES_FAIL;   /* timestamps out of order, zero, or beyond the host's clock */
            snprintf(res->check.method, sizeof res->check.method, "%.90s", res->check.reason);
        }
        r->clock.timing_ns += vkb_now_ns() - t0;
        res->timed = 1;
        if (f->time_unit_ns > 0)   /* a time per unit of work */
            res->metric = res->work > 0 ? res->time_ns.median / res->work / f->time_unit_ns : 0;
        else
            res->metric = res->time_ns.median > 0 ? res->work / res->time_ns.median : 0; /* per ns = G per s */
        t0 = vkb_now_ns();
        if (!first && res->status == VKB_RES_OK && !(v->flags & (VKB_VAR_NONDETERMINISTIC | VKB_VAR_CEILING)) &&
            !outputs_identical(b, prep, &plan, bufs, kept, 0, why, sizeof why))
            determinism_failed(res, "a timed run differs from the checked one", why);
        r->clock.rerun_ns += vkb_now_ns() - t0;
    }
    vkb_verify_release(b, kept);
    for (int i = 0; i < plan.nbuf; i++)
        if (plan.buf[i].role != VKB_BUF_INPUT)
            b->buffer_destroy(b, bufs[i]);
    b->unprepare(b, prep);
}

/* Inputs of shape S of family FI, made once for all its variants and backends. */
static void shape_begin(vkb_runner *r, shape_state *st, const vkb_selection *sel, int fi, int s)
{
    const vkb_family *f = sel->fam[fi].family;
    char why[200] = "", text[96];
    double t0 = vkb_now_ns();
    r->clock.wall_ns = t0 - r->start_ns;
    st->clock = r->clock;
    st->fam = fi;
    st->shape = s;
    st->c = (vkb_case){f, sel->fam[fi].shapes[s], NULL};
    st->first_result = r->results.n;
    st->saved_variant = -1;
    st->c.data = f->case_create(&st->c.shape, r->seed, why, sizeof why);
    if (!st->c.data)
        vkb_die(VKB_EXIT_USAGE, "%s at %s: %s", f->name, vkb_shape_text(f, &st->c.shape, text, sizeof text), why);
    t0 = vkb_now_ns() - t0;
    r->clock.inputs_ns += t0;
}

/* -v: where the time of WHAT went: CLOCK, or its part since BEFORE. */
static void print_clock(const char *what, const vkb_runner_clock *clock, const vkb_runner_clock *before)
{
    static const vkb_runner_clock zero;
    const vkb_runner_clock *b = before ? before : &zero;
    vkb_note("time%s%s: %.2f s: inputs %.2f, pipelines %.2f, buffers and uploads %.2f, checked runs %.2f, "
             "downloads %.2f, CPU checks %.2f, determinism and cross-backend %.2f, timing %.2f (warm-up %.2f)",
             what[0] ? " of " : "", what, (clock->wall_ns - b->wall_ns) / 1e9,
             (clock->inputs_ns - b->inputs_ns) / 1e9, (clock->prepare_ns - b->prepare_ns) / 1e9,
             (clock->upload_ns - b->upload_ns) / 1e9, (clock->run_ns - b->run_ns) / 1e9,
             (clock->download_ns - b->download_ns) / 1e9, (clock->check_ns - b->check_ns) / 1e9,
             (clock->rerun_ns - b->rerun_ns) / 1e9, (clock->timing_ns - b->timing_ns) / 1e9,
             (clock->warmup_ns - b->warmup_ns) / 1e9);
}

static void shape_end(vkb_runner *r, shape_state *st)
{
    char text[96], what[160];
    if (st->fam < 0)
        return;
    r->clock.wall_ns = vkb_now_ns() - r->start_ns;
    if (vkb_verbose) {
        snprintf(what, sizeof what, "%s at %s", st->c.family->name,
                 vkb_shape_text(st->c.family, &st->c.shape, text, sizeof text));
        print_clock(what, &r->clock, &st->clock);
    }
    forget_outputs(&st->saved);
    for (int i = 0; i < st->ninputs; i++)
        r->all[st->inputs[i].backend]->buffer_destroy(r->all[st->inputs[i].backend], st->inputs[i].buf);
    st->ninputs = 0;
    st->c.family->case_destroy(st->c.data);
    st->c.data = NULL;
    st->fam = -1;
}

/* Sinks get end() once: after the work, when a signal stopped it, or at exit when a fatal error ended it. */
static int end_sinks(vkb_runner *r, int interrupted)
{
    int rc = 0;
    active = NULL;
    for (int i = 0; i < r->nsinks; i++) {
        int code = r->sinks[i]->end ? r->sinks[i]->end(r->sinks[i], interrupted) : 0;
        if (code && !rc)
            rc = code;
    }
    if (r->ended)
        r->ended();
    return rc;
}

static void end_at_exit(void)
{
    if (active)
        end_sinks(active, 1);
}

/* vkb_die during the run: the case in progress fails with the error (its row says it), and the files are
 * ended with what ran, the error recorded, before the error line is printed. */
static void end_on_fatal(const char *msg)
{
    vkb_runner *r = active;
    vkb_result *res = in_progress;
    if (!r)
        return;
    in_progress = NULL;
    if (res && res->family) {
        res->status = VKB_RES_FAIL;
        res->timed = 0;
        res->check.pass = 0;
        res->error = msg;
        snprintf(res->check.method, sizeof res->check.method, "the run ended here");
        snprintf(res->check.reason, sizeof res->check.reason, "error: %s", msg);
        for (int i = 0; i < r->nsinks; i++)
            if (r->sinks[i]->result)
                r->sinks[i]->result(r->sinks[i], res);
    }
    end_sinks(r, 1);
}

static void family_event(vkb_runner *r, const vkb_family *f, int begin)
{
    for (int i = 0; i < r->nsinks; i++) {
        void (*fn)(vkb_sink *, const vkb_family *) = begin ? r->sinks[i]->family_begin : r->sinks[i]->family_end;
        if (fn)
            fn(r->sinks[i], f);
    }
}

int vkb_runner_run(vkb_runner *r, const vkb_selection *sel, const vkb_run_settings *set, const vkb_run_plan *plan)
{
    static int registered;
    shape_state st;
    int family = -1, rc;

    memset(&st, 0, sizeof st);
    st.fam = -1;
    vkb_signals_install(); /* main installed them first; a test's run installs them here */
    vkb_results_reserve(&r->results, r->nwork);
    r->family = -1;
    r->start_ns = vkb_now_ns();
    for (int i = 0; i < r->nsinks; i++)
        if (r->sinks[i]->begin)
            r->sinks[i]->begin(r->sinks[i], set, r->all, r->nall, plan);
    if (!registered && !r->several)
        registered = atexit(end_at_exit) == 0;
    if (!r->several) {   /* --device LIST: the devices' threads catch their own fatal errors (devices.c) */
        active = r;
        vkb_set_fatal_hook(end_on_fatal);
    }
    /* SIGINT, SIGTERM, SIGHUP, SIGPIPE: the case under way ends (its timing within a second), is dropped
     * when its timing was cut short, and the sinks end with what ran (signals.c: a second one ends at once) */
    precompile(r, sel);
    for (int w = 0; w < r->nwork && !vkb_stop_signal(); w++) {
        const vkb_work *k = &r->work[w];
        const vkb_family *f = sel->fam[k->fam].family;
        const vkb_variant *v = &f->variants[k->variant];
        vkb_result *res;
        if (st.fam != k->fam || st.shape != k->shape)
            shape_end(r, &st);
        if (family != k->fam) {
            if (family >= 0)
                family_event(r, sel->fam[family].family, 0);
            family = r->family = k->fam;
            family_event(r, f, 1);
        }
        if (st.fam < 0)
            shape_begin(r, &st, sel, k->fam, k->shape);
        if (st.saved_variant != k->variant) {
            forget_outputs(&st.saved);
            st.saved_variant = k->variant;
        }
        res = in_progress = vkb_results_add(&r->results);
        res->repeats = r->repeat;
        res->repeat = k->repeat;
        run_one(r, &st, k->backend, f, v, res);
        in_progress = NULL;
        if (vkb_stop_signal() && vkb_timing_cut_short()) {
            r->results.n--; /* its timing was stopped: not a measurement */
            break;
        }
        attach_ceiling(r, &st, res);
        judge_metric(r, res, &r->all[k->backend]->caps);
        r->done++;
        for (int i = 0; i < r->nsinks; i++)
            if (r->sinks[i]->result)
                r->sinks[i]->result(r->sinks[i], res);
    }
    shape_end(r, &st);
    free_outputs(&st.saved);
    free(st.inputs);
    if (family >= 0)
        family_event(r, sel->fam[family].family, 0);
    r->family = -1;
    vkb_signal_fault("signal-late"); /* tests: a signal after the last case, while the files are closed */
    r->interrupted = vkb_stop_signal();
    if (!r->several)
        vkb_set_fatal_hook(NULL);
    rc = end_sinks(r, r->done < r->nwork);
    if (vkb_verbose)
        print_clock("", &r->clock, NULL);
    if (rc)
        return rc;
    return r->interrupted ? 128 + r->interrupted : 0;
}

int vkb_runner_fail_rest(vkb_runner *r, const vkb_selection *sel, const char *reason)
{
    int rc;
    r->results.n = r->done;   /* the case that was running when the device failed is emitted below */
    for (int w = r->done; w < r->nwork; w++) {
        const vkb_work *k = &r->work[w];
        const vkb_family *f = sel->fam[k->fam].family;
        vkb_result *res = vkb_results_add(&r->results);
        if (r->family != k->fam) {
            if (r->family >= 0)
                family_event(r, sel->fam[r->family].family, 0);
            r->family = k->fam;
            family_event(r, f, 1);
        }
        res->family = f;
        res->variant = &f->variants[k->variant];
        res->backend = r->all[k->backend]->name;
        res->device_index = r->all[k->backend]->caps.index;
        res->shape = sel->fam[k->fam].shapes[k->shape];
        res->status = VKB_RES_FAIL;
        res->cache_fits = -1;
        res->predicted = NAN;
        snprintf(res->check.reason, sizeof res->check.reason, "device failed: %s", reason);
        snprintf(res->check.method, sizeof res->check.method, "device failed: %.78s", reason);
        r->done++;
        for (int i = 0; i < r->nsinks; i++)
            if (r->sinks[i]->result)
                r->sinks[i]->result(r->sinks[i], res);
    }
    if (r->family >= 0)
        family_event(r, sel->fam[r->family].family, 0);
    r->family = -1;
    rc = end_sinks(r, 0);
    return rc ? rc : r->interrupted ? 128 + r->interrupted : 0;
}

void vkb_runner_thread_done(void)
{
    free(scratch);
    scratch = NULL;
    scratch_bytes = 0;
}

void vkb_runner_free(vkb_runner *r)
{
    vkb_runner_thread_done();
    free(r->work);
    r->work = NULL;
    r->nwork = 0;
    vkb_results_free(&r->results);
}
