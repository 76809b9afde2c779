/* peak.c - the peak family: each number type's instruction throughput (host/families/peak/rows.h), from register-
 * resident dependent chains, every chain's final value checked bit for bit against the host's emulation of
 * every step (peak_chain.c), beside the theoretical rate where it is known (peak_rates.c).
 *
 * Shape: n invocations (--n), k loop trips (--k, a push constant: the compiler cannot fold the loop). Each
 * invocation runs PEAK_CHAINS chains of k * PEAK_UNROLL steps; the work is
 *   n * PEAK_CHAINS * steps * ops,   steps = k * PEAK_UNROLL (peak_steps, which the check's emulation also runs),
 * ops per step from the row (an FMA 2 per lane). Invocation i starts from the inputs of slot i % slots (at most
 * PEAK_MAX_SLOTS): the host emulates slots x PEAK_CHAINS chains whatever n is, and checks all n x PEAK_CHAINS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "fault.h"
#include "parallel.h"
#include "peak/rows.h"
#include "peak_chain.h"
#include "peak_coopmat.h"
#include "peak_rates.h"
#include "util.h"

#define ROW(name, shader, type, ops, needs, flags, note)                                                               \
    {#name, #shader, {PEAK_LOCAL, 1, 1}, {0}, 0, type, needs, flags, note},
#define UNBUILT_ROW(name, type, ops, needs, note, reason)                                                              \
    {#name, NULL, {PEAK_LOCAL, 1, 1}, {0}, 0, type, needs, VKB_VAR_VULKAN_ONLY | VKB_VAR_NOT_IN_SUITE, note},
#define CM_ROW(name, shader, combo, needs, flags, note)                                                                \
    {#name, #shader, {PEAK_LOCAL, 1, 1}, {0}, 0, combo, needs, flags, note},
static const vkb_variant variants[] = {PEAK_ROWS(ROW) PEAK_COOPMAT_ROWS(CM_ROW) PEAK_COOPMAT_VK_ROWS(CM_ROW)
                                           PEAK_UNBUILT_ROWS(UNBUILT_ROW)};

/* operations one step counts, by type (the cooperative-matrix rows count 2 M N K per multiply-add) */
#define OPS(name, shader, type, ops, needs, flags, note) [type] = ops,
#define UNBUILT_OPS(name, type, ops, needs, note, reason) [type] = ops,
static const int ops_of[PEAK_CM_END] = {PEAK_ROWS(OPS) PEAK_UNBUILT_ROWS(UNBUILT_OPS)};

#define CM_COMBOS (PEAK_CM_END - PEAK_CM_F16_F32) /* every combination has a shader */
#define CM_FRAGS 4 /* fragments of one combination in a shape's run (one device's backends: one) */

#define UNBUILT_REASON(name, type, ops, needs, note, reason) {#name, reason},
static const struct {
    const char *name, *reason;
} unbuilt[] = {PEAK_UNBUILT_ROWS(UNBUILT_REASON)};

typedef struct peak_case {
    uint64_t n, trips, steps;
    uint32_t slots;
    uint32_t *seeds[PEAK_T_COUNT];       /* slots x PEAK_CHAINS x {x0, a, b}, words of the type each */
    uint32_t *expected[2][PEAK_T_COUNT]; /* [unfused, fused] final values of every slot's chains, made on demand */
    uint32_t *out;                       /* the downloaded outputs: n x PEAK_CHAINS values of the widest type */
    uint64_t seed;
    /* the cooperative-matrix rows' input pools, made for each fragment a plan asks for (the float operands'
     * layout follows M, N and K) and kept to the end of the shape: a device's input buffers are cached by
     * their host address, so a pool's address means one content */
    struct cm_pool {
        uint32_t frag[3];
        uint8_t *ab, *start;
    } cm[CM_COMBOS][CM_FRAGS];
    /* the cooperative-matrix row planned last (work() and the outputs depend on the device's subgroup and
     * fragment: its plan, made just before, records them here): its operations and its output */
    double cm_work;
    uint8_t *cm_out;
    uint64_t cm_out_bytes;
} peak_case;

/* Trips at most: the host emulates 2048 chains of 32 steps a trip (2^19 trips: 2^35 steps, about a minute on
 * 16 cores), and the loop counter is 32 bits */
#define PEAK_MAX_TRIPS (1u << 19)

/* Steps each chain runs: the work model and the check's emulation both use this one count, so a wrong count
 * (VKB_FAULT_INJECT=peak-count plants one) fails the check rather than inflating the rate. */
static uint64_t peak_steps(uint64_t trips)
{
    return trips * (vkb_fault("peak-count") ? PEAK_UNROLL + 1 : PEAK_UNROLL);
}

static int default_shapes(const vkb_caps *caps, vkb_shape *out, int max)
{
    (void)max;
    /* a GPU: 4 full waves of 2048 invocations per SM where the count is known (no partial last wave), 256
     * trips (8192 steps per chain: 2.3 ms of fp32 FMA on an H100, where 2048 steps lost 4-6% to the launch and
     * the last wave); a CPU implementation: 128 steps, a few ms */
    if (caps->is_cpu)
        out[0] = (vkb_shape){{1024, 4}};
    else
        out[0] = (vkb_shape){{caps->compute_units ? (int64_t)caps->compute_units * 2048 * 4 : 1 << 20, 256}};
    return 1;
}

static int battery(vkb_shape *out, int max)
{
    static const int64_t shapes[][2] = {{1, 1}, {31, 3}, {257, 2}, {1000, 5}, {4099, 1}};
    int count = 0;
    for (size_t i = 0; i < VKB_COUNT(shapes) && count < max; i++)
        out[count++] = (vkb_shape){{shapes[i][0], shapes[i][1]}};
    return count;
}

/* the cooperative-matrix rows' multiply-adds per accumulator: the work and the check's expected values both */
static uint64_t cm_steps(uint64_t trips)
{
    return vkb_fault("peak-count") ? trips + 1 : trips;
}

/* Subgroups of the cooperative-matrix rows' dispatch of N invocations: whole workgroups of PEAK_LOCAL */
static uint64_t cm_subgroups(uint64_t n, uint32_t subgroup)
{
    return (n + PEAK_LOCAL - 1) / PEAK_LOCAL * (PEAK_LOCAL / subgroup);
}

static void *case_create(const vkb_shape *s, uint64_t seed, char *why, size_t len)
{
    peak_case *c;
    if (s->d[0] < 1 || s->d[1] < 1) {
        snprintf(why, len, "n and k (trips) are at least 1");
        return NULL;
    }
    c = vkb_calloc(1, sizeof *c);
    c->n = (uint64_t)s->d[0];
    c->trips = (uint64_t)s->d[1];
    c->steps = peak_steps(c->trips);
    c->slots = c->n < PEAK_MAX_SLOTS ? (uint32_t)c->n : PEAK_MAX_SLOTS;
    vkb_host_reserve(c->n * PEAK_CHAINS * PEAK_MAX_WORDS * 4, "peak");
    for (int t = 0; t < PEAK_T_COUNT; t++) {
        uint64_t state = seed * 0x9e3779b97f4a7c15ull + (uint64_t)t; /* each type its own stream */
        int w = vkb_peak_words(t);
        c->seeds[t] = vkb_alloc((size_t)c->slots * PEAK_CHAINS * 3 * (size_t)w * 4);
        for (uint32_t k = 0; k < c->slots * PEAK_CHAINS; k++) {
            uint32_t *in = c->seeds[t] + (size_t)k * 3 * (size_t)w;
            vkb_peak_inputs(t, &state, in, in + w, in + 2 * w);
        }
    }
    c->out = vkb_alloc((size_t)(c->n * PEAK_CHAINS * PEAK_MAX_WORDS * 4));
    c->seed = seed;
    return c;
}

static void case_destroy(void *data)
{
    peak_case *c = data;
    for (int k = 0; k < CM_COMBOS; k++)
        for (int f = 0; f < CM_FRAGS; f++) {
            free(c->cm[k][f].ab);
            free(c->cm[k][f].start);
        }
    free(c->cm_out);
    for (int t = 0; t < PEAK_T_COUNT; t++) {
        free(c->seeds[t]);
        free(c->expected[0][t]);
        free(c->expected[1][t]);
    }
    free(c->out);
    free(c);
}

static const char *unbuilt_reason(const char *name)
{
    for (size_t i = 0; i < VKB_COUNT(unbuilt); i++)
        if (strcmp(unbuilt[i].name, name) == 0)
            return unbuilt[i].reason;
    return NULL;
}

/* The input pools of COMBO for FRAG, made on the first call; NULL where CM_FRAGS others are made (MAKE 0: where
 * none is made). */
static const struct cm_pool *cm_pools(peak_case *c, int combo, const uint32_t frag[3], int make)
{
    struct cm_pool *pool = c->cm[combo - PEAK_CM_F16_F32];
    for (int f = 0; f < CM_FRAGS; f++) {
        if (pool[f].ab && memcmp(pool[f].frag, frag, sizeof pool[f].frag) == 0)
            return &pool[f];
        if (!pool[f].ab) {
            if (!make)
                return NULL;
            memcpy(pool[f].frag, frag, sizeof pool[f].frag);
            vkb_peak_cm_pools(combo, frag, c->seed, &pool[f].ab, &pool[f].start);
            return &pool[f];
        }
    }
    return NULL;
}

/* A cooperative-matrix row: the device's fragment of its types, whole workgroups, every subgroup stored. */
static int plan_coopmat(const vkb_variant *v, const vkb_case *vc, const vkb_caps *caps, vkb_plan *p, char *why,
                        size_t len)
{
    const peak_case *c = vc->data;
    uint64_t n = (uint64_t)vc->shape.d[0], trips = (uint64_t)vc->shape.d[1], subgroups, out_bytes;
    uint32_t frag[3], groups[3] = {0, 1, 1}, slots, ab = (uint32_t)vkb_peak_cm_a_bytes(v->param);
    uint32_t cb = (uint32_t)vkb_peak_cm_c_bytes(v->param);
    const struct cm_pool *pool = NULL;
    int b[3];
    vkb_pass *pass;
    peak_push push;
    if (v->spec[0] || v->spec[1] || v->spec[2]) /* --spec FRAG_M=...: the shape is the device's, not a knob */
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "the cooperative-matrix peak runs the fragment the device "
                             "lists for its types (vkbench devices): FRAG_M, FRAG_N, FRAG_K are not settable");
    if (!vkb_peak_cm_fragment(caps, v->param, frag))
        return vkb_plan_fail(why, len, VKB_PLAN_SKIP,
                             "the device lists no subgroup cooperative matrix of %s "
                             "(vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)",
                             vkb_peak_cm_name(v->param));
    /* K a multiple of 8 (lavapipe 26 lists 8x8x8): the float operands cancel in runs of 8 along K */
    if (frag[0] > PEAK_CM_MAX_MN || frag[1] > PEAK_CM_MAX_MN || frag[2] > PEAK_CM_MAX_K || frag[2] % 8 || frag[1] % 4 ||
        !caps->subgroup_size || PEAK_LOCAL % caps->subgroup_size)
        return vkb_plan_fail(why, len, VKB_PLAN_SKIP,
                             "fragment %ux%ux%u: the peak takes M, N <= %u (N a multiple "
                             "of 4), K <= %u a multiple of 8, whole subgroups in %u invocations",
                             frag[0], frag[1], frag[2], PEAK_CM_MAX_MN, PEAK_CM_MAX_K, PEAK_LOCAL);
    if (n > UINT32_MAX || trips > PEAK_MAX_TRIPS)
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,
                             "n=%llu k=%llu: below 2^32 invocations and at most %u "
                             "trips",
                             (unsigned long long)n, (unsigned long long)trips, PEAK_MAX_TRIPS);
    if (trips > vkb_peak_cm_max_trips(v->param, frag[2]))
        return vkb_plan_fail(why, len, VKB_PLAN_SKIP, "k=%llu: %s accumulators stay exact for at most %u trips",
                             (unsigned long long)trips, vkb_peak_cm_name(v->param),
                             vkb_peak_cm_max_trips(v->param, frag[2]));
    groups[0] = (uint32_t)((n + PEAK_LOCAL - 1) / PEAK_LOCAL);
    if (groups[0] > caps->max_group_count[0])
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE, "n=%llu: more than %u workgroups of %u",
                             (unsigned long long)n, caps->max_group_count[0], PEAK_LOCAL);
    if (c && !(pool = cm_pools((peak_case *)c, v->param, frag, 1)))
        return vkb_plan_fail(why, len, VKB_PLAN_SKIP, "%s: more than %d fragments in one run",
                             vkb_peak_cm_name(v->param), CM_FRAGS);
    subgroups = cm_subgroups(n, caps->subgroup_size);
    slots = subgroups < PEAK_CM_MAX_SLOTS ? (uint32_t)subgroups : PEAK_CM_MAX_SLOTS;
    b[0] = vkb_plan_buffer_add(p, ((uint64_t)PEAK_CM_B_OFFSET + (uint64_t)slots * frag[2] * frag[1]) * ab,
                               VKB_BUF_INPUT, pool ? pool->ab : NULL);
    b[1] = vkb_plan_buffer_add(p, (uint64_t)slots * PEAK_CM_CHAINS * frag[0] * frag[1] * cb, VKB_BUF_INPUT,
                               pool ? pool->start : NULL);
    out_bytes = subgroups * PEAK_CM_CHAINS * frag[0] * frag[1] * cb;
    if (c && c->cm_out_bytes < out_bytes) {
        peak_case *grow = (peak_case *)c;
        free(grow->cm_out);
        vkb_host_reserve(out_bytes, "peak");
        grow->cm_out = vkb_alloc((size_t)out_bytes);
        grow->cm_out_bytes = out_bytes;
    }
    b[2] = vkb_plan_buffer_add(p, out_bytes, VKB_BUF_OUTPUT, c ? c->cm_out : NULL);
    pass = vkb_plan_dispatch(p, v->kernel, v->local, groups);
    vkb_pass_bind(pass, 3, b);
    pass->spec[0] = frag[0], pass->spec[1] = frag[1], pass->spec[2] = frag[2];
    pass->nspec = 3;
    push = (peak_push){(uint32_t)subgroups, (uint32_t)trips, slots};
    if (vkb_fault("peak-trips"))
        push.trips = trips > 1 ? push.trips - 1 : 2;
    vkb_pass_push(pass, &push, sizeof push);
    if (c)
        ((peak_case *)c)->cm_work =
            (double)subgroups * PEAK_CM_CHAINS * (double)cm_steps(trips) * 2.0 * frag[0] * frag[1] * frag[2];
    return VKB_PLAN_OK;
}

static int plan(const vkb_variant *v, const vkb_case *vc, const vkb_caps *caps, vkb_plan *p, char *why, size_t len)
{
    const peak_case *c = vc->data;
    uint64_t n = (uint64_t)vc->shape.d[0], trips = (uint64_t)vc->shape.d[1];
    int w = vkb_peak_words(v->param), b[2];
    uint32_t groups[3] = {0, 1, 1}, slots = n < PEAK_MAX_SLOTS ? (uint32_t)n : PEAK_MAX_SLOTS;
    const char *kernel = v->kernel;
    peak_push push;
    vkb_pass *pass;
    if (!v->kernel)
        return vkb_plan_fail(why, len, VKB_PLAN_SKIP, "%s", unbuilt_reason(v->name));
    if (vkb_peak_is_cm(v->param))
        return plan_coopmat(v, vc, caps, p, why, len);
    if (n < 1 || trips < 1)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST, "n=%llu k=%llu: at least one invocation and one trip",
                             (unsigned long long)n, (unsigned long long)trips);
    if (n > UINT32_MAX / PEAK_CHAINS || trips > PEAK_MAX_TRIPS)
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,
                             "n=%llu k=%llu: below 2^29 invocations (32-bit indices) "
                             "and at most %u trips (the host emulates every step of %u chains)",
                             (unsigned long long)n, (unsigned long long)trips, PEAK_MAX_TRIPS,
                             PEAK_MAX_SLOTS * PEAK_CHAINS);
    if (v->local[0] != PEAK_LOCAL || v->local[1] != 1 || v->local[2] != 1)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST, "the peak kernels' workgroup is %u x 1 x 1", PEAK_LOCAL);
    groups[0] = (uint32_t)((n + PEAK_LOCAL - 1) / PEAK_LOCAL);
    if (groups[0] > caps->max_group_count[0])
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE, "n=%llu: more than %u workgroups of %u",
                             (unsigned long long)n, caps->max_group_count[0], PEAK_LOCAL);
    if (vkb_fault("peak-fold") && strcmp(kernel, "peak_fma_f32") == 0)
        kernel = "peak_fma_f32_fold"; /* planted: the loop's result unused (host/families/peak/test.cmake) */
    b[0] = vkb_plan_buffer_add(p, (uint64_t)slots * PEAK_CHAINS * 3 * (uint64_t)w * 4, VKB_BUF_INPUT,
                               c ? c->seeds[v->param] : NULL);
    b[1] = vkb_plan_buffer_add(p, n * PEAK_CHAINS * (uint64_t)w * 4, VKB_BUF_OUTPUT, c ? c->out : NULL);
    pass = vkb_plan_dispatch(p, kernel, v->local, groups);
    vkb_pass_bind(pass, 2, b);
    push = (peak_push){(uint32_t)n, (uint32_t)trips, slots};
    if (vkb_fault("peak-trips")) /* planted: the device runs one trip fewer than the host counts */
        push.trips = trips > 1 ? push.trips - 1 : 2;
    vkb_pass_push(pass, &push, sizeof push);
    return VKB_PLAN_OK;
}

static double work(const vkb_variant *v, const vkb_case *vc)
{
    uint64_t steps = peak_steps((uint64_t)vc->shape.d[1]);
    if (vkb_peak_is_cm(v->param))
        return ((const peak_case *)vc->data)->cm_work;
    return (double)vc->shape.d[0] * PEAK_CHAINS * (double)steps * ops_of[v->param];
}

typedef struct emulate_job {
    const peak_case *c;
    int type, fused;
    uint32_t *out;
} emulate_job;

/* chain T of the case (a task on the host's cores: each writes its own value, so any thread count agrees) */
static void emulate_one(void *ctx, int64_t t)
{
    const emulate_job *job = ctx;
    int w = vkb_peak_words(job->type);
    const uint32_t *in = job->c->seeds[job->type] + (size_t)t * 3 * (size_t)w;
    vkb_peak_chain(job->type, job->fused, in, in + w, in + 2 * w, job->c->steps, job->out + (size_t)t * (size_t)w);
}

/* The final values of every slot's chains of TYPE, emulated once per case (FUSED: which rounding of fma). */
static const uint32_t *expected(peak_case *c, int type, int fused)
{
    uint32_t **e = &c->expected[fused][type];
    if (!*e) {
        emulate_job job = {c, type, fused, NULL};
        job.out = *e = vkb_alloc((size_t)c->slots * PEAK_CHAINS * (size_t)vkb_peak_words(type) * 4);
        vkb_parallel_run((int64_t)c->slots * PEAK_CHAINS, emulate_one, &job);
    }
    return *e;
}

/* Values of OUT (n x PEAK_CHAINS of W words) that differ from REF's slot values; the first into *FIRST. */
static uint64_t count_wrong(const peak_case *c, const uint32_t *out, const uint32_t *ref, int w, uint64_t *first)
{
    uint64_t wrong = 0;
    for (uint64_t k = 0; k < c->n * PEAK_CHAINS; k++) {
        uint64_t i = k / PEAK_CHAINS, j = k % PEAK_CHAINS;
        const uint32_t *r = ref + ((i % c->slots) * PEAK_CHAINS + j) * (uint64_t)w;
        if (memcmp(out + k * (uint64_t)w, r, (size_t)w * 4) != 0 && !wrong++)
            *first = k;
    }
    return wrong;
}

/* Every chain bit for bit: against the fused emulation (one rounding per fma), else against the unfused one
 * (product, then sum, each rounded: the other result Vulkan's precision rules allow); integers exactly. */
/* A cooperative-matrix row: every element of every subgroup's accumulators against acc0 + steps (A B), exact. */
static void check_coopmat(const vkb_variant *v, peak_case *c, const vkb_plan *p, vkb_check *res)
{
    const vkb_pass *pass = &p->pass[0];
    uint32_t frag[3] = {pass->spec[0], pass->spec[1], pass->spec[2]}, mn = frag[0] * frag[1];
    uint32_t cb = (uint32_t)vkb_peak_cm_c_bytes(v->param);
    const struct cm_pool *pool = cm_pools(c, v->param, frag, 0);
    peak_push push;
    uint32_t *expect;
    uint64_t wrong = 0, first = 0;
    memcpy(&push, pass->push, sizeof push);
    /* what the plan asked for, not what the device was told (a planted short chain must fail) */
    expect = vkb_alloc((size_t)push.slots * PEAK_CM_CHAINS * mn * 4);
    for (uint32_t s = 0; s < push.slots; s++)
        for (uint32_t j = 0; j < PEAK_CM_CHAINS; j++)
            for (uint32_t e = 0; e < mn; e++)
                expect[(s * PEAK_CM_CHAINS + j) * mn + e] = vkb_peak_cm_expected(
                    v->param, frag, pool->ab, pool->start, s, j, e / frag[1], e % frag[1], cm_steps(c->trips));
    vkb_check_init(res, "exact: acc0 + steps x A B, every step exact (integer-valued inputs)");
    for (uint64_t g = 0; g < (uint64_t)push.n * PEAK_CM_CHAINS * mn; g++) {
        uint64_t sg = g / (PEAK_CM_CHAINS * mn), rest = g % (PEAK_CM_CHAINS * mn);
        uint32_t got = 0, want = expect[(sg % push.slots) * PEAK_CM_CHAINS * mn + rest];
        memcpy(&got, c->cm_out + g * cb, cb);
        if (got != want && !wrong++) {
            first = g;
            vkb_check_value(res, g, (double)got, (double)want, 0);
        }
    }
    if (wrong)
        snprintf(res->reason, sizeof res->reason,
                 "%llu of %llu accumulator elements differ (first: subgroup %llu, "
                 "chain %llu)",
                 (unsigned long long)wrong, (unsigned long long)((uint64_t)push.n * PEAK_CM_CHAINS * mn),
                 (unsigned long long)(first / (PEAK_CM_CHAINS * mn)),
                 (unsigned long long)(first / mn % PEAK_CM_CHAINS));
    res->checked = (uint64_t)push.n * PEAK_CM_CHAINS * mn;
    res->bad = wrong;
    vkb_check_finish(res);
    free(expect);
}

static void check(const vkb_variant *v, const vkb_case *vc, const vkb_plan *p, vkb_check *res)
{
    peak_case *c = vc->data;
    if (vkb_peak_is_cm(v->param)) {
        check_coopmat(v, c, p, res);
        return;
    }
    int type = v->param, w = vkb_peak_words(type),
        is_float = type != PEAK_T_I32 && type != PEAK_T_I16 && type != PEAK_T_DOT;
    uint64_t first = 0, wrong = count_wrong(c, c->out, expected(c, type, 1), w, &first), first2 = 0;
    (void)p;
    if (wrong && is_float && count_wrong(c, c->out, expected(c, type, 0), w, &first2) == 0) {
        vkb_check_init(res, "exact: every step emulated, fma as product then sum");
        res->checked = c->n * PEAK_CHAINS;
        vkb_check_finish(res);
        return;
    }
    vkb_check_init(res, is_float ? "exact: every step emulated, fused fma" : "exact: every step emulated");
    if (wrong) {
        const uint32_t *ref =
            expected(c, type, 1) + ((first / PEAK_CHAINS % c->slots) * PEAK_CHAINS + first % PEAK_CHAINS) * (uint64_t)w;
        const uint32_t *got = c->out + first * (uint64_t)w;
        int word = 0;
        while (word < w - 1 && got[word] == ref[word])
            word++;
        /* the first differing word of the first wrong value (its bits, as a number) */
        vkb_check_value(res, first, (double)got[word], (double)ref[word], 0);
        snprintf(res->reason, sizeof res->reason,
                 "%llu of %llu chains differ from the emulated %llu steps "
                 "(first: invocation %llu, chain %llu)",
                 (unsigned long long)wrong, (unsigned long long)(c->n * PEAK_CHAINS), (unsigned long long)c->steps,
                 (unsigned long long)(first / PEAK_CHAINS), (unsigned long long)(first % PEAK_CHAINS));
    }
    res->checked = c->n * PEAK_CHAINS;
    res->bad = wrong;
    vkb_check_finish(res);
}

static double theoretical(const vkb_variant *v, const vkb_caps *caps, double *bound)
{
    *bound = 0;
    if (vkb_peak_is_cm(v->param)) { /* the whitepapers' dense tensor-core rate: the row's rate and bound */
        *bound = vkb_peak_tensor_rate(v->param == PEAK_CM_S8_S32 || v->param == PEAK_CM_U8_U32, caps);
        return *bound;
    }
    return vkb_peak_theoretical(v->param, ops_of[v->param], caps, bound);
}

const vkb_family vkb_family_peak = {
    "peak",
    "instruction throughput per number type: register-resident dependent chains, every step checked",
    {"n", "k"},
    2,
    "GFLOP/s",
    variants,
    (int)VKB_COUNT(variants),
    default_shapes,
    battery,
    case_create,
    case_destroy,
    plan,
    work,
    check,
    NULL,
    NULL,
    0,
    theoretical,
    .units = {"threads", "loop trips"},
};
