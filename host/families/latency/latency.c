/* latency.c - the latency family (µs): what one dispatch costs. From submission to fence on the host's clock,
 * the fence waited on or spun on (CUDA: launch to synchronize); on the device, the time per dispatch of --n back
 * to back in one command buffer with and without barriers (CUDA: --n launches on one stream), between GPU
 * timestamps; and one timestamp's own cost. Each dispatch adds 1 to a counter that starts at the poison word:
 * N dispatches must leave it N above. */
#include <stdlib.h>

#include "backend.h"
#include "family.h"
#include "latency/rows.h"
#include "util.h"

enum { LAT_SUBMIT, LAT_SUBMIT_SPIN, LAT_BARRIER, LAT_NO_BARRIER, LAT_TIMESTAMP };

#define ROW(name, shader, param, flags, note)                                                                          \
    {#name, #shader, {1, 1, 1}, {0}, 0, param, 0, (flags) | VKB_VAR_NONDETERMINISTIC, note, NULL},
/* NONDETERMINISTIC: the counter goes on counting from run to run, so no two runs leave the same word */
static const vkb_variant variants[] = {
    LATENCY_ROWS(ROW){
        "timestamp",
        NULL,
        {1, 1, 1},
        {0},
        0,
        LAT_TIMESTAMP,
        0,
        0,
        "--n timestamps written back to back (vkCmdWriteTimestamp; CUDA: cudaEventRecord) between the timing pair: "
        "one timestamp's own cost (the period of the device's timestamps: `vkbench devices`)",
        NULL},
};

static int default_shapes(const vkb_caps *caps, vkb_shape *out, int max)
{
    /* the time per dispatch among many (the fixed cost of the timing pair spread thin), then of one alone:
     * the two give the slope. A CPU implementation's dispatch takes microseconds: fewer */
    int n = caps->is_cpu ? 64 : 1024;
    out[0] = (vkb_shape){{n}};
    if (max > 1)
        out[1] = (vkb_shape){{1}};
    return max > 1 ? 2 : 1;
}

static int battery(vkb_shape *out, int max)
{
    static const int64_t n[] = {1, 2, 7, 64};
    int count = 0;
    for (size_t i = 0; i < VKB_COUNT(n) && count < max; i++)
        out[count++] = (vkb_shape){{n[i]}};
    return count;
}

typedef struct latency_case {
    uint32_t counter; /* the read-back of the counter */
} latency_case;

static void *case_create(const vkb_shape *s, uint64_t seed, char *why, size_t len)
{
    (void)s;
    (void)seed;
    (void)why;
    (void)len;
    return vkb_calloc(1, sizeof(latency_case));
}

/* Whether V is timed on the host from submission to fence (one dispatch, whatever --n). */
static int is_submit(const vkb_variant *v)
{
    return v->param == LAT_SUBMIT || v->param == LAT_SUBMIT_SPIN;
}

/* Dispatches (or timestamps) one run of V does at C. */
static uint64_t count_of(const vkb_variant *v, const vkb_case *c)
{
    return is_submit(v) ? 1 : (uint64_t)c->shape.d[0];
}

static int plan(const vkb_variant *v, const vkb_case *vc, const vkb_caps *caps, vkb_plan *p, char *why, size_t len)
{
    latency_case *c = vc->data;
    uint64_t n = count_of(v, vc);
    static const uint32_t one[3] = {1, 1, 1};
    vkb_pass *pass;
    int b;
    (void)caps;
    if (n > (v->param == LAT_TIMESTAMP ? VKB_TIMESTAMP_REPEAT_MAX : 1u << 20))
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE, "n=%llu: at most %u %s in one command buffer",
                             (unsigned long long)n, v->param == LAT_TIMESTAMP ? VKB_TIMESTAMP_REPEAT_MAX : 1u << 20,
                             v->param == LAT_TIMESTAMP ? "timestamps" : "dispatches");
    if (v->param == LAT_TIMESTAMP) {
        vkb_plan_timestamps(p, (uint32_t)n);
        return VKB_PLAN_OK;
    }
    b = vkb_plan_buffer_add(p, 4, VKB_BUF_OUTPUT, c ? &c->counter : NULL);
    pass = vkb_plan_dispatch(p, v->kernel, v->local, one);
    vkb_pass_bind(pass, 1, &b);
    pass->repeat = (uint32_t)n;
    pass->no_barrier = v->param == LAT_NO_BARRIER;
    p->host_timed = is_submit(v);
    p->host_spin = v->param == LAT_SUBMIT_SPIN;
    return VKB_PLAN_OK;
}

static double work(const vkb_variant *v, const vkb_case *c)
{
    return (double)count_of(v, c);
}

static void check(const vkb_variant *v, const vkb_case *vc, const vkb_plan *p, vkb_check *res)
{
    const latency_case *c = vc->data;
    uint32_t want = VKB_POISON + (uint32_t)count_of(v, vc) * LATENCY_INCREMENT;
    (void)p;
    if (v->param == LAT_TIMESTAMP) {
        vkb_check_init(res, "none: timestamps write only their queries");
        res->pass = 1; /* nothing of theirs to read back: the timer's own checks (timing.c) judge them */
        return;
    }
    vkb_check_init(res, "exact: the counter rose by one per dispatch");
    vkb_check_words(res, &c->counter, &want, 1);
    vkb_check_finish(res);
}

const vkb_family vkb_family_latency = {
    "latency",
    "what a dispatch costs: submit to fence, per dispatch back to back, a timestamp",
    {"n"},
    1,
    "us",
    variants,
    (int)VKB_COUNT(variants),
    default_shapes,
    battery,
    case_create,
    free,
    plan,
    work,
    check,
    NULL,
    NULL,
    1e3,
    .units = {"dispatches"},
};
