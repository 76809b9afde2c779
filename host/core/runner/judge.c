/* judge.c - the runner's judgement of a timed result: its ceiling (the fastest ceiling row of its shape, or a
 * fallback), and SUSPECT where a metric is above a physical bound. */
#include "runner_parts.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_limits.h"
#include "fault.h"
#include "gpu_facts.h"
#include "parallel.h"
#include "signals.h"
#include "spirv.h"
#include "util.h"
#include "verify.h"

#define SUSPECT_COPY_FACTOR 1.25 /* a bandwidth this far above the fastest copy of its shape is not believed */
/* ... for rows that move at least this much: below it, fixed per-call costs (which differ between an API
 * copy and a dispatch) dominate, and a GB/s figure bounds nothing */
#define SUSPECT_MIN_BYTES (64.0 * 1048576)
/* a rate this far above the row's theoretical one (the highest clock the driver reports) is not believed */
#define SUSPECT_THEORY_FACTOR 1.02

/* The peak rate a row's kind of kernel can reach on CAPS (GFLOP/s, GOP/s for integer rows; the GPU facts
 * table), 0 where unknown: a rate above it is not believed. Tensor-core rows and the vendor libraries' ceilings
 * (which may use tensor cores) against the tensor cores' dense rate, which int8 runs at twice. */
static double peak_flops(const vkb_caps *caps, const vkb_variant *v)
{
    if ((v->needs & (VKB_NEED_COOPMAT | VKB_NEED_COOPMAT_KHR | VKB_NEED_COOPMAT2)) || (v->flags & VKB_VAR_CEILING))
        return vkb_gpu_rate(caps, VKB_RATE_TENSOR16) * (v->flags & VKB_VAR_INTEGER_OPS ? 2 : 1);
    return vkb_gpu_rate(caps, v->needs & VKB_NEED_FLOAT16 ? VKB_RATE_F16 : VKB_RATE_F32);
}

/* Where the peak of peak_flops comes from, as the row's "peak" value says */
static const char *peak_source(const vkb_variant *v)
{
    if ((v->needs & (VKB_NEED_COOPMAT | VKB_NEED_COOPMAT_KHR | VKB_NEED_COOPMAT2)) || (v->flags & VKB_VAR_CEILING))
        return "the tensor cores' dense rate (8-bit integers twice): SMs x highest clock x the per-SM rate "
               "(gpu_facts.c); a rate above it is SUSPECT";
    return "SMs x highest clock x the architecture's per-SM rate (gpu_facts.c); a rate above it is SUSPECT";
}

/* A copy: the API's copy row of any family, or a shader copy (VKB_VAR_SHADER_COPY: the copy family's vec4,
 * transpose's copy rows). */
static int is_copy(const vkb_result *res)
{
    return strcmp(res->variant->name, "api_copy") == 0 || (res->variant->flags & VKB_VAR_SHADER_COPY);
}

/* The bandwidth bound of RES: the fastest copy measured at its own shape, in its own --repeat round, before it
 * (the shape's ceilings run first), when one of those copies is a shader copy; else 0 (not judged). A copy at
 * another size or another moment bounds nothing: on the H100 without CUDA the first family's copies ran at
 * half clock and made every later healthy row "too fast". An API copy alone bounds nothing either: it can
 * be far below the memory's rate (vkCmdCopyBuffer on NVIDIA's driver 580: 28% of a shader copy). */
static double copy_bound(const vkb_runner *r, const shape_state *st, const vkb_result *res, int *shader)
{
    double best = 0;
    *shader = 0;
    for (int j = st->first_result; j < r->results.n; j++) {
        const vkb_result *c = &r->results.r[j];
        if (c == res || !c->timed || c->status != VKB_RES_OK || c->repeat != res->repeat || !is_copy(c))
            continue;
        *shader |= (c->variant->flags & VKB_VAR_SHADER_COPY) != 0;
        if (c->metric > best)
            best = c->metric;
    }
    return *shader ? best : 0;
}

/* Mark RES suspect when its metric is above a physical bound: bandwidth above 1.25x the fastest copy of its
 * own shape (copy_bound; rows moving at least SUSPECT_MIN_BYTES, on a GPU: a CPU implementation's caches and
 * write-allocate make a copy no bound for a read-only kernel), a FLOP rate above the device's known peak, which
 * the row then carries as its "peak" value (the roofline's roof where no ceiling of its type ran). */
void vkb_judge_metric(const vkb_runner *r, const shape_state *st, vkb_result *res, const vkb_caps *caps)
{
    double peak, bound;
    int shader;
    if (!res->timed || res->status != VKB_RES_OK)
        return;
    if (res->family->theoretical) { /* the row's own bound, at the highest clock: nothing runs faster */
        if (res->bound > 0 && res->metric > SUSPECT_THEORY_FACTOR * res->bound) {
            res->suspect = 1;
            snprintf(res->suspect_reason, sizeof res->suspect_reason,
                     "%.0f %s is above the bound %.0f (%s): a "
                     "timing error, or an operation count above what ran?",
                     res->metric, res->family->metric, res->bound,
                     res->bound == res->theoretical ? "the theoretical rate" : "the issue limit");
        }
        return;
    }
    if (strcmp(res->family->metric, "GB/s") == 0) {
        if (caps->is_cpu || res->work < SUSPECT_MIN_BYTES || !res->ceiling || !is_copy(res->ceiling))
            return; /* only rows measured against a copy: a cache or transfer row has other bounds */
        bound = copy_bound(r, st, res, &shader);
        if (bound > 0 && res->metric > SUSPECT_COPY_FACTOR * bound) {
            res->suspect = 1;
            snprintf(res->suspect_reason, sizeof res->suspect_reason,
                     "%.1f GB/s is above %.2fx the fastest copy "
                     "of the same bytes (%.1f GB/s): a timing error?",
                     res->metric, SUSPECT_COPY_FACTOR, bound);
        }
    } else if (strcmp(res->family->metric, "GFLOP/s") == 0 && (peak = peak_flops(caps, res->variant)) > 0) {
        const char *unit = vkb_variant_unit(res->family, res->variant);
        vkb_result_value(res, "peak", peak, unit, peak_source(res->variant));
        if (res->metric > peak) {
            res->suspect = 1;
            snprintf(res->suspect_reason, sizeof res->suspect_reason,
                     "%.0f %s is above the peak of %.60s (%.0f %s): a timing error?", res->metric, unit, caps->name,
                     peak, unit);
        }
    }
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

void vkb_judge_ceiling(vkb_runner *r, const shape_state *st, vkb_result *res)
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
            continue; /* --repeat: the ceiling of the same round, measured beside the row */
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
        for (int k = j; k < r->results.n; k++) { /* the fastest of its backends */
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
