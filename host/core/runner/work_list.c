/* work_list.c - the runner's work list: which cases run, in which order, and the run's time estimate. */
#include "runner_parts.h"

#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "util.h"

/* The run's estimate, as measured on the H100's default suite (`vkbench -v`, 166 cases): pipelines and launches
 * per case, and the share of a GPU's time budget a case spends before its median settles: 15 ms of 100 (a CPU
 * implementation's slow runs spend it whole); preflight adds the host's work on the data */
#define CASE_OVERHEAD_S 0.01
#define BUDGET_SHARE_GPU 0.2

/* The CPU checks' multiply-adds in seconds: S_PER_MAC on one core, each further core adding CORE_GAIN of one.
 * S_PER_MAC: the 4096^3 product reference (vkb_product_ref_macs: 4.6e9) took 1.19 s of CPU on one core of the
 * 2-core build machine (AMD EPYC); CORE_GAIN: on the H200's default suite before its int8 rows ran, matmul's CPU
 * checks took 1.25 s for 3 references and 40 passes over C at 4096^3 (2.2e10) on its host's 16 cores, the work of
 * 4.5 such cores (its passes are bound by memory) */
#define S_PER_MAC 0.26e-9
#define CORE_GAIN 0.24

double vkb_runner_check_seconds(double macs)
{
    return macs * S_PER_MAC / (1 + CORE_GAIN * (vkb_threads() - 1));
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
        plan->families++;
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
