/* repeats.c - the runs of a case under --repeat folded into one table row. */
#include "repeats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

typedef struct vkb_repeat_case {
    const vkb_result **runs;
    int n;
    vkb_folded *folded; /* once shown */
} vkb_repeat_case;

static double median_of(double *x, int n)
{
    return n ? vkb_median(x, n) : 0;
}

void vkb_repeats_fold(const vkb_result *const *runs, int n, vkb_folded *out)
{
    double *med = vkb_alloc(3 * (size_t)n * sizeof *med + 1), *q1 = med + n, *q3 = q1 + n;
    double frac[VKB_MAX_REPEAT], lo = INFINITY, hi = -INFINITY;
    int timed = 0, fracs = 0;
    out->r = *runs[0];
    out->spread = NAN;
    for (int k = 0; k < n; k++)
        if (runs[k]->status == VKB_RES_FAIL) { /* a run that failed (its timer, say) is the row */
            out->r = *runs[k];
            break;
        }
    out->r.repeat = -1;
    if (out->r.status != VKB_RES_OK || !out->r.timed) {
        free(med);
        return;
    }
    out->r.time_ns.n = 0;
    out->r.time_ns.settled = 1;
    for (int k = 0; k < n; k++) {
        const vkb_result *r = runs[k];
        if (!r->timed)
            continue;
        med[timed] = r->time_ns.median;
        q1[timed] = r->time_ns.q1;
        q3[timed++] = r->time_ns.q3;
        lo = fmin(lo, r->time_ns.median);
        hi = fmax(hi, r->time_ns.median);
        out->r.time_ns.n += r->time_ns.n;
        out->r.time_ns.settled &= r->time_ns.settled;
        out->r.time_ns.min = fmin(out->r.time_ns.min, r->time_ns.min);
        out->r.time_ns.max = fmax(out->r.time_ns.max, r->time_ns.max);
        if (r->ceiling && fracs < VKB_MAX_REPEAT) {
            frac[fracs++] = r->fraction;
            out->r.ceiling = out->r.ceiling ? out->r.ceiling : r->ceiling;
        }
        if (r->suspect && !out->r.suspect) {
            out->r.suspect = 1;
            memcpy(out->r.suspect_reason, r->suspect_reason, sizeof out->r.suspect_reason);
        }
    }
    out->r.time_ns.median = median_of(med, timed);
    out->r.time_ns.q1 = median_of(q1, timed);
    out->r.time_ns.q3 = median_of(q3, timed);
    out->r.metric = out->r.time_ns.median > 0 ? out->r.work / out->r.time_ns.median : 0; /* per ns = G per s */
    out->r.fraction = fracs ? median_of(frac, fracs) : 0;
    if (timed >= 2 && out->r.time_ns.median > 0)
        out->spread = (hi - lo) / out->r.time_ns.median;
    free(med);
}

static int same_case(const vkb_result *a, const vkb_result *b)
{
    return a->family == b->family && a->variant == b->variant && strcmp(a->backend, b->backend) == 0 &&
           memcmp(&a->shape, &b->shape, sizeof a->shape) == 0 && strcmp(a->constants, b->constants) == 0;
}

static const vkb_folded *fold_case(vkb_repeat_case *c)
{
    c->folded = vkb_alloc(sizeof *c->folded);
    vkb_repeats_fold(c->runs, c->n, c->folded);
    return c->folded;
}

const vkb_folded *vkb_repeats_add(vkb_repeats *rs, const vkb_result *r)
{
    vkb_repeat_case *c = NULL;
    for (int i = rs->n - 1; i >= 0 && !c; i--) /* the latest cases first: a shape's cases are together */
        if (!rs->cases[i].folded && same_case(rs->cases[i].runs[0], r))
            c = &rs->cases[i];
    if (!c) {
        if (rs->n == rs->cap) {
            vkb_repeat_case *grown;
            rs->cap = rs->cap ? 2 * rs->cap : 64;
            grown = realloc(rs->cases, (size_t)rs->cap * sizeof *grown);
            if (!grown)
                vkb_die(VKB_EXIT_RESOURCE, "out of host memory");
            rs->cases = grown;
        }
        c = &rs->cases[rs->n++];
        c->runs = vkb_calloc((size_t)(r->repeats > 0 ? r->repeats : 1), sizeof *c->runs);
        c->n = 0;
        c->folded = NULL;
    }
    c->runs[c->n++] = r;
    return c->n >= r->repeats ? fold_case(c) : NULL;
}

const vkb_folded *vkb_repeats_incomplete(vkb_repeats *rs)
{
    for (int i = 0; i < rs->n; i++)
        if (!rs->cases[i].folded)
            return fold_case(&rs->cases[i]);
    return NULL;
}

void vkb_repeats_free(vkb_repeats *rs)
{
    for (int i = 0; i < rs->n; i++) {
        free(rs->cases[i].runs);
        free(rs->cases[i].folded);
    }
    free(rs->cases);
    memset(rs, 0, sizeof *rs);
}
