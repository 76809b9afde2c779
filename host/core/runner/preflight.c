/* preflight.c - every case of the work list planned, --spec applied, and checked against its device before
 * anything runs; the pipelines built ahead. */
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

/* The host's work on the data (inputs, transfers, read-backs, CPU checks) per byte of a case's working set, as
 * measured on the H100's default suite: 6.5 s on 96 GB */
#define HOST_S_PER_BYTE 7e-11

/* --spec: V with the command line's constants set in TUNED (by the shader's names or SpecIds), the
 * settings written to RES. 0, or 1 with the reason to skip (the shader has no such constant). */
int vkb_preflight_apply_spec(const vkb_runner *r, const vkb_variant *v, vkb_variant *tuned, vkb_result *res)
{
    const vkb_spirv *spv = v->kernel ? vkb_spirv_find(v->kernel) : NULL;
    size_t used = 0;
    *tuned = *v;
    if (!r->nspec || (v->flags & VKB_VAR_CEILING))
        return 0;
    for (int i = 0; i < r->nspec; i++) {
        const char *name = r->spec[i].name;
        int id = spv ? vkb_spirv_spec_lookup(spv, name) : -1; /* a SpecId number too: one the shader has */
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
                tuned->nspec = id - 2;
        }
        if (used < sizeof res->constants)
            used += (size_t)snprintf(res->constants + used, sizeof res->constants - used, "%s%s=%u", i ? "," : "", name,
                                     r->spec[i].value);
    }
    return 0;
}

int vkb_preflight_plan(const vkb_family *f, const vkb_variant *v, const vkb_case *c, const vkb_caps *caps, int lenient,
                       vkb_plan *plan, char *why, size_t len)
{
    char shape[96], reason[300];
    int code = vkb_family_plan(f, v, c, caps, plan, why, len);
    if (code == VKB_PLAN_OK)
        code = vkb_plan_check_limits(plan, caps, why, len);
    if (code == VKB_PLAN_TOO_LARGE && lenient)
        return code;
    if (code == VKB_PLAN_BAD_REQUEST || code == VKB_PLAN_TOO_LARGE) {
        char text[1024]; /* WHY is rewritten around itself: through a copy, truncated to LEN */
        size_t n = strnlen(why, sizeof reason - 1);
        memcpy(reason, why, n);
        reason[n] = 0;
        snprintf(text, sizeof text, "%s/%s at %s on %s: %s", f->name, v->name,
                 vkb_shape_text(f, &c->shape, shape, sizeof shape), caps->name, reason);
        n = strnlen(text, len - 1);
        memcpy(why, text, n);
        why[n] = 0;
    }
    return code;
}

int vkb_preflight_plan_exit(int code)
{
    return code == VKB_PLAN_BAD_REQUEST ? VKB_EXIT_USAGE : code == VKB_PLAN_TOO_LARGE ? VKB_EXIT_RESOURCE : 0;
}

/* A workgroup that --spec made larger than the device allows: the request is impossible, not the variant
 * (VKB_PLAN_BAD_REQUEST with WHY, exit 2, as a memory.* family refuses a workgroup its kernels do not take). */
static int spec_workgroup_fits(const vkb_family *f, const vkb_variant *v, const vkb_variant *tuned,
                               const vkb_caps *caps, char *why, size_t len)
{
    const uint32_t *l = tuned->local;
    if (!memcmp(l, v->local, sizeof v->local) || !l[0] || !l[1] || !l[2])
        return VKB_PLAN_OK;
    if ((uint64_t)l[0] * l[1] * l[2] > caps->max_workgroup_invocations || l[0] > caps->max_workgroup_size[0] ||
        l[1] > caps->max_workgroup_size[1] || l[2] > caps->max_workgroup_size[2]) {
        snprintf(why, len, "%s/%s: --spec sets a %ux%ux%u workgroup, beyond %s's %ux%ux%u and %u invocations", f->name,
                 v->name, l[0], l[1], l[2], caps->name, caps->max_workgroup_size[0], caps->max_workgroup_size[1],
                 caps->max_workgroup_size[2], caps->max_workgroup_invocations);
        return VKB_PLAN_BAD_REQUEST;
    }
    return VKB_PLAN_OK;
}

/* The plan of work item K without inputs (sizes only): 1, or 0 when the case will be a skip (said on its row);
 * -1 with WHY and *EXIT (2 or 4) for a request beyond the kernel or the device, which ends the run
 * (vkb_preflight_plan). *BEYOND (when not NULL) is set where the case skips for a size beyond it (a shared size,
 * vkb_selected_family.shared_sizes). */
static int plan_sizes_why(const vkb_runner *r, const vkb_selection *sel, const vkb_work *k, vkb_plan *plan, int *beyond,
                          int *exit, char *why, size_t len)
{
    const vkb_family *f = sel->fam[k->fam].family;
    const vkb_variant *v = &f->variants[k->variant];
    const vkb_backend *b = r->all[k->backend];
    vkb_case c = {f, sel->fam[k->fam].shapes[k->shape], NULL};
    vkb_variant tuned;
    vkb_result scratch; /* vkb_preflight_apply_spec's skip reason, unused here */
    int code;
    memset(&scratch, 0, sizeof scratch);
    if ((v->needs & ~b->caps.features) || vkb_preflight_apply_spec(r, v, &tuned, &scratch))
        return 0;
    code = spec_workgroup_fits(f, v, &tuned, &b->caps, why, len);
    if (code == VKB_PLAN_OK)
        code = vkb_preflight_plan(f, &tuned, &c, &b->caps, sel->fam[k->fam].shared_sizes, plan, why, len);
    if ((*exit = vkb_preflight_plan_exit(code)) != 0 && !(code == VKB_PLAN_TOO_LARGE && sel->fam[k->fam].shared_sizes))
        return -1;
    *exit = 0;
    if (beyond && code == VKB_PLAN_TOO_LARGE)
        *beyond = 1;
    return code == VKB_PLAN_OK;
}

/* plan_sizes_why for the cases preflight passed: 1 planned, else 0 */
static int plan_sizes(const vkb_runner *r, const vkb_selection *sel, const vkb_work *k, vkb_plan *plan)
{
    char why[600];
    int exit;
    return plan_sizes_why(r, sel, k, plan, NULL, &exit, why, sizeof why) > 0;
}

int vkb_preflight_shape_runs(const vkb_runner *r, const vkb_selection *sel, int w, char *why, size_t len)
{
    const vkb_work *first = &r->work[w];
    const vkb_family *f = sel->fam[first->fam].family;
    int beyond = 0;
    char reason[200];
    for (; w < r->nwork && r->work[w].fam == first->fam && r->work[w].shape == first->shape; w++) {
        vkb_plan plan;
        int was_beyond = 0, exit;
        if (f->variants[r->work[w].variant].flags & VKB_VAR_CEILING)
            continue; /* a ceiling is there for the kernels: it does not keep a shape none of them takes */
        if (plan_sizes_why(r, sel, &r->work[w], &plan, &was_beyond, &exit, reason, sizeof reason) != 0)
            return 1; /* planned (or refused, which preflight has said) */
        if (was_beyond && !beyond++)
            snprintf(why, len, "%s", reason);
    }
    return !beyond;
}

/* The CPU check of planned work item K in ESTIMATE: its own pass in its first round (a later round keeps the first
 * one's check), and a reference its shape's cases share the first time one asks for it (SEEN: a bit per reference
 * for each family's shapes, from BASE). */
static void estimate_check(const vkb_selection *sel, const vkb_work *k, unsigned *seen, const int *base,
                           vkb_run_plan *estimate)
{
    const vkb_family *f = sel->fam[k->fam].family;
    vkb_check_cost cost;
    double macs;
    unsigned *mine = &seen[base[k->fam] + k->shape];
    if (k->repeat > 0)
        return;
    vkb_family_check_cost(f, &f->variants[k->variant], &sel->fam[k->fam].shapes[k->shape], &cost);
    macs = cost.macs;
    if (cost.ref > 0 && cost.ref < 32 && !(*mine >> cost.ref & 1u)) {
        *mine |= 1u << cost.ref;
        macs += cost.ref_macs;
    }
    estimate->check_s += vkb_runner_check_seconds(macs);
    estimate->estimate_s += vkb_runner_check_seconds(macs);
}

int vkb_runner_preflight(vkb_runner *r, const vkb_selection *sel, vkb_run_plan *estimate, char *err, size_t len)
{
    int planned = 0, beyond = -1, *base;
    unsigned *seen;
    char why[600], first_why[600] = "";
    if (r->nwork > VKB_MAX_RESULTS) {
        snprintf(err, len, "%d cases in one run, more than %d; run fewer sizes or variants", r->nwork, VKB_MAX_RESULTS);
        return VKB_EXIT_USAGE;
    }
    base = vkb_calloc((size_t)sel->nfams + 1, sizeof *base);
    for (int fi = 0; fi < sel->nfams; fi++)
        base[fi + 1] = base[fi] + sel->fam[fi].nshapes;
    seen = vkb_calloc((size_t)base[sel->nfams] + 1, sizeof *seen);
    /* the kernels first: their reasons (index ranges, constants) say more than a ceiling's buffer size */
    for (int pass = 0; pass < 2; pass++)
        for (int w = 0; w < r->nwork; w++) {
            const vkb_work *k = &r->work[w];
            vkb_plan plan;
            int was_beyond = 0, exit, planned_case;
            if (((sel->fam[k->fam].family->variants[k->variant].flags & VKB_VAR_CEILING) != 0) != pass)
                continue;
            if ((planned_case = plan_sizes_why(r, sel, k, &plan, &was_beyond, &exit, why, sizeof why)) < 0) {
                snprintf(err, len, "%s", why); /* a request no device run can hold: the application ends */
                free(base);
                free(seen);
                return exit;
            }
            if (planned_case) {
                planned += pass == 0;
                if (estimate) {
                    estimate->estimate_s += HOST_S_PER_BYTE * (double)vkb_plan_bytes(&plan);
                    estimate_check(sel, k, seen, base, estimate);
                }
            } else if (was_beyond) {
                if (estimate && pass == 0)
                    estimate->beyond++;
                if (beyond < 0) {
                    beyond = w;
                    snprintf(first_why, sizeof first_why, "%s", why);
                }
            }
        }
    free(base);
    free(seen);
    /* a shared size that no family's kernels could take is no run: the first refusal ends it, as one family's
     * would */
    if (!planned && beyond >= 0) {
        const vkb_work *k = &r->work[beyond];
        const vkb_family *f = sel->fam[k->fam].family;
        char shape[96];
        snprintf(err, len, "%s/%s at %s on %s: %s", f->name, f->variants[k->variant].name,
                 vkb_shape_text(f, &sel->fam[k->fam].shapes[k->shape], shape, sizeof shape),
                 r->all[k->backend]->caps.name, first_why);
        return VKB_EXIT_RESOURCE;
    }
    return 0;
}

/* Each backend that can builds the pipelines of all its cases ahead, on the host's cores. */
void vkb_preflight_precompile(vkb_runner *r, const vkb_selection *sel)
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
