/* test_runner.c - the runner and the selection with a fake backend (a CPU copy, no GPU): the work list and
 * its count, ceilings before the rows that use them, the order of events, one upload per shape, cross-backend
 * disagreement, suspect metrics, an interrupted run, and --size as cubes versus per-dim products. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../host/core/runner/runner_parts.h" /* vkb_judge_metric: the runner folder's own header */
#include "gpu_facts.h"
#include "runner.h"
#include "select.h"
#include "signals.h"
#include "unit.h"
#include "util.h"
#include "families.h"

/* ---- a fake family: n words copied from src to dst ---- */

enum {
    P_OFF = 0,
    P_CEIL = 1
}; /* push word 0: 4 x the offset the "cuda" backend adds to element 3; word 1: 1 for a
                                 * ceiling on every API, 2 for a CUDA-only one (times_differ tells them apart) */

typedef struct fake_case {
    uint64_t n;
    uint32_t *src, *dst;
} fake_case;

/* name, kernel, local, spec, nspec, param (cuda's offset x4, or -1: loose check with tolerance 1), needs,
 * flags, note, ceiling */
static const vkb_variant fake_variants[] = {
    {"plain", "copy", {1, 1, 1}, {0}, 0, 0, 0, 0, "a copy", NULL},
    {"api_copy", "copy", {1, 1, 1}, {0}, 0, 0, 0, VKB_VAR_CEILING, "the copy ceiling", NULL},
    {"loose", "copy", {1, 1, 1}, {0}, 0, 4, 0, 0, "checked loosely; cuda adds 1 to element 3", NULL},
    {"near", "copy", {1, 1, 1}, {0}, 0, 2, 0, 0, "tolerance 1; cuda adds 0.5 to element 3", NULL},
    {"fast", "fast", {1, 1, 1}, {0}, 0, 0, 0, 0, "times 10x faster than the copy", NULL},
    {"vendor", "copy", {1, 1, 1}, {0}, 0, 0, 0, VKB_VAR_CEILING | VKB_VAR_CUDA_ONLY, "a CUDA-only ceiling", NULL},
};

static int fake_defaults(const vkb_caps *caps, vkb_shape *out, int max)
{
    (void)caps, (void)max;
    out[0] = (vkb_shape){{64}};
    out[1] = (vkb_shape){{128}};
    return 2;
}

static int fake_battery(vkb_shape *out, int max)
{
    (void)max;
    out[0] = (vkb_shape){{5}};
    return 1;
}

static void *fake_create(const vkb_shape *s, uint64_t seed, char *why, size_t len)
{
    fake_case *c;
    (void)seed;
    if (s->d[0] == 99) {
        snprintf(why, len, "99 is refused (a fatal error in the middle of a run)");
        return NULL;
    }
    c = calloc(1, sizeof *c);
    c->n = (uint64_t)s->d[0];
    c->src = calloc(c->n, 4);
    c->dst = calloc(c->n, 4);
    for (uint64_t i = 0; i < c->n; i++) {
        float f = (float)i + 1;
        memcpy(&c->src[i], &f, 4);
    }
    return c;
}

static void fake_destroy(void *data)
{
    fake_case *c = data;
    free(c->src);
    free(c->dst);
    free(c);
}

static int fake_plan(const vkb_variant *v, const vkb_case *vc, const vkb_caps *caps, vkb_plan *p, char *why, size_t len)
{
    const fake_case *c = vc->data;
    uint64_t bytes = (uint64_t)vc->shape.d[0] * 4;
    uint32_t local[3] = {1, 1, 1}, groups[3] = {1, 1, 1};
    int b[2];
    vkb_pass *pass;
    (void)caps, (void)why, (void)len;
    b[0] = vkb_plan_buffer_add(p, bytes, VKB_BUF_INPUT, c ? c->src : NULL);
    b[1] = vkb_plan_buffer_add(p, bytes, VKB_BUF_OUTPUT, c ? c->dst : NULL);
    pass = vkb_plan_dispatch(p, v->kernel, local, groups);
    pass->push[P_OFF] = (uint32_t)v->param;
    pass->push[P_CEIL] = !(v->flags & VKB_VAR_CEILING) ? 0 : v->flags & VKB_VAR_CUDA_ONLY ? 2 : 1;
    vkb_pass_bind(pass, 2, b);
    return VKB_PLAN_OK;
}

/* pretend bytes: large enough for the bandwidth bound to judge (it ignores rows below 64 MiB) */
static double fake_work(const vkb_variant *v, const vkb_case *c)
{
    (void)v;
    return 8.0 * 1048576 * (double)c->shape.d[0];
}

static void fake_check(const vkb_variant *v, const vkb_case *vc, const vkb_plan *p, vkb_check *res)
{
    const fake_case *c = vc->data;
    const uint32_t *out = p->buf[1].host;
    if (v->param == 0) {
        vkb_check_init(res, "exact");
        vkb_check_words(res, out, c->src, c->n);
    } else {
        /* loose: any finite value within 1 of the input passes (tolerance 1 for "near", 0 for "loose") */
        vkb_check_init(res, "loose");
        for (uint64_t i = 0; i < c->n; i++) {
            float o, ref;
            memcpy(&o, &out[i], 4);
            memcpy(&ref, &c->src[i], 4);
            vkb_check_value(res, i, o, ref, 1.0);
        }
        if (v->param == 4)
            res->tolerance = res->max_bound = 0; /* reported as exact: any differing bit between backends fails */
    }
    vkb_check_finish(res);
}

static const vkb_family fake_family = {
    .name = "fake",
    .summary = "a CPU copy",
    .dims = {"n"},
    .ndims = 1,
    .metric = "GB/s",
    .variants = fake_variants,
    .nvariants = (int)VKB_COUNT(fake_variants),
    .default_shapes = fake_defaults,
    .battery = fake_battery,
    .case_create = fake_create,
    .case_destroy = fake_destroy,
    .plan = fake_plan,
    .work = fake_work,
    .check = fake_check,
};
/* the ceilings again, and a row that names the vendor's as its own (test_ceiling_choice) */
static const vkb_variant named_variants[] = {
    {"plain", "copy", {1, 1, 1}, {0}, 0, 0, 0, 0, "a copy", NULL},
    {"api_copy", "copy", {1, 1, 1}, {0}, 0, 0, 0, VKB_VAR_CEILING, "the copy ceiling", NULL},
    {"vendor", "copy", {1, 1, 1}, {0}, 0, 0, 0, VKB_VAR_CEILING | VKB_VAR_CUDA_ONLY, "a CUDA-only ceiling", NULL},
    {"named", "copy", {1, 1, 1}, {0}, 0, 0, 0, 0, "compared with the vendor's row", "vendor"},
};
static const vkb_family named_family = {
    .name = "named",
    .summary = "rows naming their ceiling",
    .dims = {"n"},
    .ndims = 1,
    .metric = "GB/s",
    .variants = named_variants,
    .nvariants = (int)VKB_COUNT(named_variants),
    .default_shapes = fake_defaults,
    .battery = fake_battery,
    .case_create = fake_create,
    .case_destroy = fake_destroy,
    .plan = fake_plan,
    .work = fake_work,
    .check = fake_check,
};
static const vkb_family fake_family2 = {
    .name = "fake2",
    .summary = "the same, again",
    .dims = {"n"},
    .ndims = 1,
    .metric = "GB/s",
    .variants = fake_variants,
    .nvariants = 2,
    .default_shapes = fake_defaults,
    .battery = fake_battery,
    .case_create = fake_create,
    .case_destroy = fake_destroy,
    .plan = fake_plan,
    .work = fake_work,
    .check = fake_check,
};

/* A family whose own shader copy runs 10x faster than its API copy (transpose on NVIDIA without CUDA): the shader
 * copy is a copy, so a kernel as fast is not suspect (test_suspect_shader_copy) */
static const vkb_variant shader_copy_variants[] = {
    {"api_copy", "copy", {1, 1, 1}, {0}, 0, 0, 0, VKB_VAR_CEILING, "the (slow) API copy", NULL},
    {"kernel_copy", "fast", {1, 1, 1}, {0}, 0, 0, 0, VKB_VAR_SHADER_COPY, "a shader copy, 10x the API's", NULL},
    {"kernel", "fast", {1, 1, 1}, {0}, 0, 0, 0, 0, "as fast as the shader copy", NULL},
    {"faster", "fastest", {1, 1, 1}, {0}, 0, 0, 0, 0, "10x the shader copy: a timing error", NULL},
};
static const vkb_family shader_copy_family = {
    .name = "shadercopy",
    .summary = "a shader copy faster than the API's",
    .dims = {"n"},
    .ndims = 1,
    .metric = "GB/s",
    .variants = shader_copy_variants,
    .nvariants = (int)VKB_COUNT(shader_copy_variants),
    .default_shapes = fake_defaults,
    .battery = fake_battery,
    .case_create = fake_create,
    .case_destroy = fake_destroy,
    .plan = fake_plan,
    .work = fake_work,
    .check = fake_check,
};

/* An H100 without CUDA: the copy family ran first, its shader copy at half clock; a reduce at the
 * same size ran later at full speed, 10x its own (slow) API copy. Neither copy bounds the reduce: the shader
 * copy ran at another clock, and an API copy is no measure of the memory's rate (test_suspect_other_clock). */
static const vkb_variant halfclock_variants[] = {
    {"vec4", "halfclock", {1, 1, 1}, {0}, 0, 0, 0, VKB_VAR_SHADER_COPY, "a shader copy at half clock", NULL},
    {"api_copy", "copy", {1, 1, 1}, {0}, 0, 0, 0, VKB_VAR_CEILING, "the (slow) API copy", NULL},
};
static const vkb_variant reduce_like_variants[] = {
    {"api_copy", "copy", {1, 1, 1}, {0}, 0, 0, 0, VKB_VAR_CEILING, "the (slow) API copy", NULL},
    {"sum", "fast", {1, 1, 1}, {0}, 0, 0, 0, 0, "at full speed: 2x the half-clock copy", NULL},
};
static const vkb_family halfclock_family = {
    .name = "halfcopy",
    .summary = "copies at half clock",
    .dims = {"n"},
    .ndims = 1,
    .metric = "GB/s",
    .variants = halfclock_variants,
    .nvariants = (int)VKB_COUNT(halfclock_variants),
    .default_shapes = fake_defaults,
    .battery = fake_battery,
    .case_create = fake_create,
    .case_destroy = fake_destroy,
    .plan = fake_plan,
    .work = fake_work,
    .check = fake_check,
};
static const vkb_family reduce_like_family = {
    .name = "reducelike",
    .summary = "a reduce at full speed",
    .dims = {"n"},
    .ndims = 1,
    .metric = "GB/s",
    .variants = reduce_like_variants,
    .nvariants = (int)VKB_COUNT(reduce_like_variants),
    .default_shapes = fake_defaults,
    .battery = fake_battery,
    .case_create = fake_create,
    .case_destroy = fake_destroy,
    .plan = fake_plan,
    .work = fake_work,
    .check = fake_check,
};

/* A family with both ceilings, its API copy 10x slower than its stream copy (NVIDIA's vkCmdCopyBuffer, or
 * VKB_FAULT_INJECT=slow-api-copy): the rows' ceiling is the stream copy (test_stream_ceiling) */
static const vkb_variant streamed_variants[] = {
    {"api_copy", "copy", {1, 1, 1}, {0}, 0, 0, 0, VKB_VAR_CEILING, "the (slow) API copy", NULL},
    {"stream_copy", "fast", {1, 1, 1}, {0}, 0, 0, 0, VKB_VAR_CEILING | VKB_VAR_SHADER_COPY, "a shader copy", NULL},
    {"stream", "fast", {1, 1, 1}, {0}, 0, 0, 0, 0, "as fast as the stream copy", NULL},
    {"slow", "copy", {1, 1, 1}, {0}, 0, 0, 0, 0, "as slow as the API copy", NULL},
};
static const vkb_family streamed_family = {
    .name = "streamed",
    .summary = "both ceilings",
    .dims = {"n"},
    .ndims = 1,
    .metric = "GB/s",
    .variants = streamed_variants,
    .nvariants = (int)VKB_COUNT(streamed_variants),
    .default_shapes = fake_defaults,
    .battery = fake_battery,
    .case_create = fake_create,
    .case_destroy = fake_destroy,
    .plan = fake_plan,
    .work = fake_work,
    .check = fake_check,
};

/* A family whose shader copy runs 10x slower after the first --repeat round (test_suspect_rounds) */
static const vkb_variant rounds_variants[] = {
    {"api_copy", "copy", {1, 1, 1}, {0}, 0, 0, 0, VKB_VAR_CEILING, "the (slow) API copy", NULL},
    {"round_copy",
     "roundcopy",
     {1, 1, 1},
     {0},
     0,
     0,
     0,
     VKB_VAR_CEILING | VKB_VAR_SHADER_COPY,
     "slow after round 0",
     NULL},
    {"kernel", "fast", {1, 1, 1}, {0}, 0, 0, 0, 0, "as fast as round 0's copy", NULL},
};
static const vkb_family rounds_family = {
    .name = "rounds",
    .summary = "copies that differ between rounds",
    .dims = {"n"},
    .ndims = 1,
    .metric = "GB/s",
    .variants = rounds_variants,
    .nvariants = (int)VKB_COUNT(rounds_variants),
    .default_shapes = fake_defaults,
    .battery = fake_battery,
    .case_create = fake_create,
    .case_destroy = fake_destroy,
    .plan = fake_plan,
    .work = fake_work,
    .check = fake_check,
};

/* A family with theoretical rates (the peak family's hook) and one whose rows fall back to its rows' rates as
 * ceilings (matmul's fp32 rows on peak/fma_f32): name, kernel, ..., note, ceiling, fallback. */
static const vkb_variant theory_variants[] = {
    {"honest", "copy", {1, 1, 1}, {0}, 0, 0, 0, 0, "below its bound", NULL},
    {"bounded", "copy", {1, 1, 1}, {0}, 0, 0, 0, 0, "above its bound: suspect", NULL},
};
static const vkb_variant user_variants[] = {
    {"user", "copy", {1, 1, 1}, {0}, 0, 0, 0, 0, "no ceiling of its own ran", "nosuch", "theory/honest"},
    {"user_suspect", "copy", {1, 1, 1}, {0}, 0, 0, 0, 0, "its fallback is suspect", "nosuch", "theory/bounded"},
    {"user_none", "copy", {1, 1, 1}, {0}, 0, 0, 0, 0, "its fallback never ran", "nosuch", "theory/nosuch"},
};

static double theory_rate(const vkb_variant *v, const vkb_caps *caps, double *bound)
{
    (void)caps;
    *bound = strcmp(v->name, "honest") == 0 ? 1e30 : 1e-30;
    return *bound;
}

static const vkb_family theory_family = {
    .name = "theory",
    .summary = "rates with bounds",
    .dims = {"n"},
    .ndims = 1,
    .metric = "GFLOP/s",
    .variants = theory_variants,
    .nvariants = 2,
    .default_shapes = fake_defaults,
    .battery = fake_battery,
    .case_create = fake_create,
    .case_destroy = fake_destroy,
    .plan = fake_plan,
    .work = fake_work,
    .check = fake_check,
    .theoretical = theory_rate,
};
static const vkb_family user_family = {
    .name = "user",
    .summary = "rows with fallback ceilings",
    .dims = {"n"},
    .ndims = 1,
    .metric = "GFLOP/s",
    .variants = user_variants,
    .nvariants = 3,
    .default_shapes = fake_defaults,
    .battery = fake_battery,
    .case_create = fake_create,
    .case_destroy = fake_destroy,
    .plan = fake_plan,
    .work = fake_work,
    .check = fake_check,
};

/* A GFLOP/s family without bounds of its own (matmul's kind): a scalar row, a tensor-core row, an int8 one. */
static const vkb_variant flops_variants[] = {
    {"scalar", "copy", {1, 1, 1}, {0}, 0, 0, 0, 0, "CUDA cores", NULL},
    {"tensor", "copy", {1, 1, 1}, {0}, 0, 0, VKB_NEED_COOPMAT_KHR, 0, "tensor cores", NULL},
    {"int8", "copy", {1, 1, 1}, {0}, 0, 0, VKB_NEED_COOPMAT_KHR, VKB_VAR_INTEGER_OPS, "8-bit tensor cores", NULL},
};
static const vkb_family flops_family = {
    .name = "flops",
    .summary = "rates the GPU facts bound",
    .dims = {"n"},
    .ndims = 1,
    .metric = "GFLOP/s",
    .variants = flops_variants,
    .nvariants = (int)VKB_COUNT(flops_variants),
    .default_shapes = fake_defaults,
    .battery = fake_battery,
    .case_create = fake_create,
    .case_destroy = fake_destroy,
    .plan = fake_plan,
    .work = fake_work,
    .check = fake_check,
};

/* ---- a fake backend: buffers in host memory, "execution" a CPU copy, fixed times ---- */

typedef struct fake_buffer {
    uint64_t bytes;
    uint8_t *data;
} fake_buffer;

typedef struct fake_stats {
    int uploads, downloads, creates, destroys, executes, compares;
    int raise_after;   /* raise SIGINT during this execute (1-based), 0: never */
    int fail_at;       /* this execute (1-based) records a lost device in the backend's error, 0: never */
    int stop_at;       /* this execute (1-based) is stopped by SIGTERM its device answered late, 0: never */
    int after_failure; /* calls the runner made to the backend after its error */
} fake_stats;

static void *fb_prepare(vkb_backend *b, const vkb_plan *plan, char *why, size_t len)
{
    vkb_plan *copy = malloc(sizeof *copy);
    (void)b, (void)why, (void)len;
    *copy = *plan;
    return copy;
}

static void fb_unprepare(vkb_backend *b, void *prep)
{
    (void)b;
    free(prep);
}

static vkb_buffer *fb_create(vkb_backend *b, uint64_t bytes, unsigned flags)
{
    fake_buffer *f = calloc(1, sizeof *f);
    (void)flags;
    ((fake_stats *)b->impl)->creates++;
    f->bytes = bytes;
    f->data = calloc(1, bytes);
    return (vkb_buffer *)f;
}

static void fb_destroy_buffer(vkb_backend *b, vkb_buffer *buf)
{
    fake_buffer *f = (fake_buffer *)buf;
    ((fake_stats *)b->impl)->destroys++;
    free(f->data);
    free(f);
}

static void fb_upload(vkb_backend *b, vkb_buffer *buf, const void *src, uint64_t bytes)
{
    ((fake_stats *)b->impl)->uploads++;
    memcpy(((fake_buffer *)buf)->data, src, bytes);
}

static void fb_download(vkb_backend *b, vkb_buffer *buf, void *dst, uint64_t bytes)
{
    ((fake_stats *)b->impl)->downloads++;
    memcpy(dst, ((fake_buffer *)buf)->data, bytes);
}

/* A word fb_poison leaves as it was (a fill that missed it; fresh buffers hold 0), 0: none (test_poison_word) */
static uint64_t poison_gap;

static void fb_poison(vkb_backend *b, vkb_buffer *buf, uint64_t bytes)
{
    uint32_t w = VKB_POISON;
    (void)b;
    for (uint64_t i = 0; i + 4 <= bytes; i += 4)
        if (!poison_gap || i != 4 * poison_gap)
            memcpy(((fake_buffer *)buf)->data + i, &w, 4);
}

/* 1: the ceilings run at different speeds, the fastest neither the first nor the last to run (CUDA's api_copy
 * 4x the kernels, the CUDA-only vendor row 2x, Vulkan's api_copy 1x); 0: every copy at the same speed. */
static int times_differ;

/* A run's device time (ns) of PASS on B. */
static int kernel_timed; /* test_suspect_rounds: a "fast" kernel was timed, so later round copies run slow */

static double run_ns(const vkb_backend *b, const vkb_pass *pass)
{
    if (strcmp(pass->kernel, "roundcopy") == 0)
        return kernel_timed ? 1e5 : 1e4; /* the device throttled after the first round */
    if (strcmp(pass->kernel, "fast") == 0)
        kernel_timed = 1;
    if (strcmp(pass->kernel, "fast") == 0)
        return 1e4;
    if (strcmp(pass->kernel, "fastest") == 0)
        return 1e3;
    if (strcmp(pass->kernel, "halfclock") == 0)
        return 2e4;
    if (times_differ && pass->push[P_CEIL] == 1 && strcmp(b->name, "cuda") == 0)
        return 2.5e4;
    if (times_differ && pass->push[P_CEIL] == 2)
        return 5e4;
    return 1e5;
}

/* Extra offsets of the loosely checked rows' outputs on each API (test_cross_counts): element AT gets VK on
 * Vulkan and CU on CUDA (values chosen exact in fp32 at AT); NULL: none. */
typedef struct cross_add {
    uint64_t at;
    float vk, cu;
} cross_add;
static const cross_add *cross_adds;
static int ncross_adds;

static void fb_execute(vkb_backend *b, void *prep, vkb_buffer *const *bufs, int reps, int cold, double *ns)
{
    const vkb_plan *p = prep;
    const vkb_pass *pass = &p->pass[0];
    fake_buffer *src = (fake_buffer *)bufs[pass->bind[0]], *dst = (fake_buffer *)bufs[pass->bind[1]];
    fake_stats *st = b->impl;
    (void)cold;
    if (vkb_backend_failed(b)) {
        st->after_failure++;
        return;
    }
    if (st->fail_at && st->executes + 1 == st->fail_at) {
        st->executes++;
        vkb_backend_fail(&b->error, VKB_EXIT_API, "vkQueueSubmit: VK_ERROR_DEVICE_LOST (fake)");
        return;
    }
    if (st->stop_at && st->executes + 1 == st->stop_at) { /* as vkb_vk_wait records a stop answered late */
        st->executes++;
        raise(SIGTERM);
        vkb_backend_stopped(&b->error, vkb_stop_signal(), "the device was still busy");
        return;
    }
    memcpy(dst->data, src->data, src->bytes);
    /* element 3, and the last but one where the output is longer than 2^20 words (another of the runner's
     * compare spans) */
    for (uint64_t at = 12; strcmp(b->name, "cuda") == 0 && pass->push[P_OFF] && at + 4 <= dst->bytes;
         at = at == 12 && dst->bytes > (4u << 20) + 16 ? dst->bytes - 8 : dst->bytes) {
        float f;
        memcpy(&f, dst->data + at, 4);
        f += (float)pass->push[P_OFF] / 4;
        memcpy(&dst->data[at], &f, 4);
    }
    for (int q = 0; q < ncross_adds && pass->push[P_OFF]; q++)
        if (cross_adds[q].at * 4 + 4 <= dst->bytes) {
            float f;
            memcpy(&f, dst->data + 4 * cross_adds[q].at, 4);
            f += strcmp(b->name, "cuda") == 0 ? cross_adds[q].cu : cross_adds[q].vk;
            memcpy(dst->data + 4 * cross_adds[q].at, &f, 4);
        }
    /* fixed device times, and at least as much host time spent around them: the timer's rules then judge the
     * same on a loaded machine (device time above the host's fails; below 1e-4 of it fails, which a fixed
     * 1 ns a run met whenever the scheduler stretched a batch past 10 ms) */
    double t0 = vkb_now_ns(), device = 0;
    for (int r = 0; ns && r < reps; r++)
        device += ns[r] = run_ns(b, pass);
    while (vkb_now_ns() - t0 < device)
        ;
    if (++st->executes == st->raise_after)
        raise(SIGINT);
}

/* The device-side copy and compare, for a backend that has them (test_device_compare). */
static void fb_copy(vkb_backend *b, vkb_buffer *src, vkb_buffer *dst, uint64_t bytes)
{
    (void)b;
    memcpy(((fake_buffer *)dst)->data, ((fake_buffer *)src)->data, (bytes + 3) & ~3ull);
}

/* 1: the poison compare reports word 0 differing; 2: the compare of two buffers does; 3: every compare fails
 * (-1: it cannot compare, as for a buffer too large for one binding) */
static int compare_lies;

static int64_t fb_compare(vkb_backend *b, vkb_buffer *a, vkb_buffer *other, uint32_t word, uint64_t bytes,
                          uint64_t *first)
{
    const uint8_t *x = ((fake_buffer *)a)->data, *y = other ? ((fake_buffer *)other)->data : NULL;
    int64_t differing = 0;
    ((fake_stats *)b->impl)->compares++;
    if (compare_lies == 3)
        return -1;
    if (compare_lies == (other ? 2 : 1)) {
        *first = 0;
        return 1;
    }
    for (uint64_t w = 0; w < (bytes + 3) / 4; w++) {
        uint32_t p, q = word;
        memcpy(&p, x + 4 * w, 4);
        if (y)
            memcpy(&q, y + 4 * w, 4);
        if (p != q && differing++ == 0)
            *first = w;
    }
    return differing;
}

static void fb_free(vkb_backend *b)
{
    (void)b;
}

static fake_stats vk_stats, cu_stats;
static vkb_backend fake_vk, fake_cu;
static int device_compare; /* fake_backend gives copy and compare */
static int known_gpu;      /* fake_backend's caps: an H100 SXM5 by the GPU facts (132 SMs, 1980 MHz, sm_90) */

static void fake_backend(vkb_backend *b, const char *name, fake_stats *st)
{
    memset(st, 0, sizeof *st);
    memset(b, 0, sizeof *b);
    b->name = name;
    snprintf(b->caps.name, sizeof b->caps.name, "fake %s", name);
    b->caps.max_buffer_bytes = 1u << 30;
    b->caps.max_uniform_bytes = 65536;
    b->caps.max_shared_bytes = 49152;
    b->caps.max_workgroup_invocations = 1024;
    for (int d = 0; d < 3; d++) {
        b->caps.max_workgroup_size[d] = 1024;
        b->caps.max_group_count[d] = 65535;
    }
    b->caps.features = ~0u;
    b->caps.timestamps = 1;
    if (known_gpu)
        b->caps.sm_arch = 90, b->caps.compute_units = 132, b->caps.clock_mhz = 1980;
    b->impl = st;
    b->prepare = fb_prepare;
    b->unprepare = fb_unprepare;
    b->buffer_create = fb_create;
    b->buffer_destroy = fb_destroy_buffer;
    b->upload = fb_upload;
    b->download = fb_download;
    b->poison = fb_poison;
    b->execute = fb_execute;
    b->destroy = fb_free;
    if (device_compare) {
        b->copy = fb_copy;
        b->compare = fb_compare;
    }
}

/* ---- a sink that records the events ---- */

#define MAX_EVENTS 256
typedef struct recorder {
    vkb_sink base;
    char ev[MAX_EVENTS]; /* B begin, F family_begin, f family_end, R result, E end */
    const vkb_result *res[MAX_EVENTS];
    int n, nres, interrupted, plan_cases;
} recorder;

static void rec_begin(vkb_sink *s, const vkb_run_settings *set, vkb_backend *const *b, int nb, const vkb_run_plan *p)
{
    recorder *r = s->impl;
    (void)set, (void)b, (void)nb;
    r->plan_cases = p->cases;
    r->ev[r->n++] = 'B';
}

static void rec_family_begin(vkb_sink *s, const vkb_family *f)
{
    recorder *r = s->impl;
    (void)f;
    r->ev[r->n++] = 'F';
}

static void rec_family_end(vkb_sink *s, const vkb_family *f)
{
    recorder *r = s->impl;
    (void)f;
    r->ev[r->n++] = 'f';
}

static void rec_result(vkb_sink *s, const vkb_result *res)
{
    recorder *r = s->impl;
    r->ev[r->n++] = 'R';
    r->res[r->nres++] = res;
}

static const char *end_file; /* when set, end() also writes the events there (a run that exits) */

static int rec_end(vkb_sink *s, int interrupted)
{
    recorder *r = s->impl;
    r->ev[r->n++] = 'E';
    r->interrupted = interrupted;
    if (end_file) {
        FILE *f = fopen(end_file, "w");
        if (f) {
            fprintf(f, "%.*s %d %d", r->n, r->ev, r->nres, interrupted);
            fclose(f);
        }
    }
    return 0;
}

/* ---- running a selection ---- */

typedef struct fixture {
    vkb_runner r;
    vkb_selection sel;
    vkb_run_plan plan;
    recorder rec;
    vkb_sink *sinks[1];
    int rc;
} fixture;

static int fixture_repeat; /* --repeat N for run_fixture (0: none) */

/* FAMS with SHAPES (n values) each, variants chosen by SEL_MASK bits (all when 0), on Vulkan (and CUDA
 * when BOTH; CUDA open as the ceilings' home when CUDA_OPEN). */
static void run_fixture(fixture *fx, const vkb_family *const *fams, int nfams, const int64_t *shapes, int nshapes,
                        unsigned sel_mask, int both, int cuda_open, int timed)
{
    vkb_run_settings set = {.command = "run", .command_line = "test", .seed = 1, .timed = 1, .reps = 3, .paired = both};
    memset(fx, 0, sizeof *fx);
    fake_backend(&fake_vk, "vulkan", &vk_stats);
    fake_backend(&fake_cu, "cuda", &cu_stats);
    fx->r.backends[fx->r.nbackends++] = &fake_vk;
    fx->r.all[fx->r.nall++] = &fake_vk;
    if (both)
        fx->r.backends[fx->r.nbackends++] = &fake_cu;
    if (both || cuda_open)
        fx->r.all[fx->r.nall++] = &fake_cu;
    for (int i = 0; i < fx->r.nall; i++)
        fx->r.timing[i] = (vkb_timing){.reps = 3};
    fx->r.timed = timed;
    fx->r.seed = 1;
    fx->r.repeat = fixture_repeat;
    fx->sel.fam = calloc((size_t)nfams, sizeof *fx->sel.fam);
    fx->sel.nfams = nfams;
    for (int i = 0; i < nfams; i++) {
        vkb_selected_family *sf = &fx->sel.fam[i];
        sf->family = fams[i];
        sf->selected = calloc((size_t)fams[i]->nvariants, 1);
        for (int v = 0; v < fams[i]->nvariants; v++)
            sf->selected[v] = !sel_mask || (sel_mask >> v & 1);
        sf->shapes = calloc((size_t)nshapes, sizeof *sf->shapes);
        sf->nshapes = nshapes;
        for (int s = 0; s < nshapes; s++)
            sf->shapes[s].d[0] = shapes[s];
    }
    fx->rec.base = (vkb_sink){rec_begin, rec_family_begin, rec_family_end, rec_result, rec_end, NULL, &fx->rec};
    fx->sinks[0] = &fx->rec.base;
    fx->r.sinks = fx->sinks;
    fx->r.nsinks = 1;
    vkb_runner_plan(&fx->r, &fx->sel, &fx->plan);
    {
        char err[600];
        int code = vkb_runner_preflight(&fx->r, &fx->sel, &fx->plan, err, sizeof err);
        if (code)
            vkb_die((vkb_exit)code, "%s", err); /* as the application does (test_fatal_ends_sinks) */
    }
    fx->rc = vkb_runner_run(&fx->r, &fx->sel, &set, &fx->plan);
}

/* run_fixture on Vulkan alone with a fake backend that copies and compares on the device; its compare and
 * download counts into COMPARES and DOWNLOADS. */
static void run_device_fixture(fixture *fx, const vkb_family *const *fams, const int64_t *n, int timed, int *compares,
                               int *downloads)
{
    device_compare = 1;
    run_fixture(fx, fams, 1, n, 1, 0, 0, 0, timed);
    device_compare = 0;
    *compares = vk_stats.compares;
    *downloads = vk_stats.downloads;
}

static void free_fixture(fixture *fx)
{
    vkb_runner_free(&fx->r);
    vkb_selection_free(&fx->sel);
}

static const vkb_result *find(const fixture *fx, const char *variant, const char *backend, int64_t n)
{
    for (int i = 0; i < fx->r.results.n; i++) {
        const vkb_result *res = &fx->r.results.r[i];
        if (strcmp(res->variant->name, variant) == 0 && strcmp(res->backend, backend) == 0 && res->shape.d[0] == n)
            return res;
    }
    return NULL;
}

/* The plan's count is exact: CUDA-only ceilings counted only where CUDA is open; every case one result. */
static void test_count(void)
{
    static const vkb_family *fams[] = {&fake_family};
    static const int64_t n[] = {16, 32};
    fixture fx;
    /* Vulkan only: per shape api_copy + plain, loose, near, fast (vendor needs CUDA) */
    run_fixture(&fx, fams, 1, n, 2, 0, 0, 0, 1);
    ASSERT(fx.plan.cases == 2 * 5);
    ASSERT(fx.plan.shapes == 2 && fx.plan.families == 1);
    ASSERT(fx.plan.backends == 1);
    ASSERT(fx.r.results.n == fx.plan.cases);
    ASSERT(fx.rec.nres == fx.plan.cases && fx.rec.plan_cases == fx.plan.cases);
    ASSERT(fx.rc == 0);
    free_fixture(&fx);
    /* CUDA open as the ceilings' home: api_copy and vendor run there too, the kernels only on Vulkan */
    run_fixture(&fx, fams, 1, n, 2, 0, 0, 1, 1);
    ASSERT(fx.plan.cases == 2 * (5 + 2));
    ASSERT(fx.plan.backends == 2);
    ASSERT(fx.rec.nres == fx.plan.cases);
    ASSERT(find(&fx, "vendor", "cuda", 16) && !find(&fx, "plain", "cuda", 16));
    free_fixture(&fx);
    /* validate: no ceilings beyond the selected rows, on the asked backend only */
    run_fixture(&fx, fams, 1, n, 1, 1u << 0, 0, 1, 0);
    ASSERT(fx.plan.cases == 1 && fx.r.results.n == 1);
    free_fixture(&fx);
}

/* Each shape's ceilings run first: every row is emitted with its ceiling already there. */
static void test_ceilings_first(void)
{
    static const vkb_family *fams[] = {&fake_family};
    static const int64_t n[] = {16, 32};
    fixture fx;
    run_fixture(&fx, fams, 1, n, 2, 0, 0, 1, 1);
    for (int i = 0; i < fx.rec.nres; i++) {
        const vkb_result *res = fx.rec.res[i];
        int seen = 0;
        if (res->variant->flags & VKB_VAR_CEILING)
            continue;
        ASSERT(res->ceiling != NULL);
        for (int j = 0; j < i; j++)
            seen |= fx.rec.res[j] == res->ceiling;
        ASSERT(seen); /* emitted before the row that uses it */
        ASSERT(res->ceiling && res->ceiling->shape.d[0] == res->shape.d[0]);
    }
    free_fixture(&fx);
}

/* begin, then per family begin, its results, end; end last. */
static void test_events(void)
{
    static const vkb_family *fams[] = {&fake_family, &fake_family2};
    static const int64_t n[] = {16};
    fixture fx;
    run_fixture(&fx, fams, 2, n, 1, 0, 0, 0, 1);
    fx.rec.ev[fx.rec.n] = 0;
    /* fake: api_copy, plain, loose, near, fast; fake2: api_copy, plain */
    ASSERT(strcmp(fx.rec.ev, "BFRRRRRfFRRfE") == 0);
    ASSERT(!fx.rec.interrupted);
    free_fixture(&fx);
}

/* Inputs are uploaded once per shape and backend, shared by the variants; outputs are per variant and every
 * buffer is freed. */
static void test_input_cache(void)
{
    static const vkb_family *fams[] = {&fake_family};
    static const int64_t n[] = {16, 32, 48};
    fixture fx;
    run_fixture(&fx, fams, 1, n, 3, 0, 1, 1, 1);
    ASSERT(vk_stats.uploads == 3);
    ASSERT(cu_stats.uploads == 3);
    ASSERT(vk_stats.creates == vk_stats.destroys && cu_stats.creates == cu_stats.destroys);
    ASSERT(vk_stats.creates == 3 + 3 * 5); /* one input per shape, one output per case */
    free_fixture(&fx);
}

/* --backend all: outputs that differ beyond the two checks' largest bounds fail the row and name the element;
 * within them they pass (counted). */
static void test_cross_backend(void)
{
    static const vkb_family *fams[] = {&fake_family};
    static const int64_t n[] = {16};
    const vkb_result *loose, *near, *plain;
    fixture fx;
    run_fixture(&fx, fams, 1, n, 1, 0, 1, 1, 1);
    loose = find(&fx, "loose", "cuda", 16);
    near = find(&fx, "near", "cuda", 16);
    plain = find(&fx, "plain", "cuda", 16);
    ASSERT(loose && near && plain);
    ASSERT(find(&fx, "loose", "vulkan", 16)->status == VKB_RES_OK);
    ASSERT(loose && loose->status == VKB_RES_FAIL && loose->cross_fail);
    ASSERT(loose && loose->cross_index == 3 && loose->cross_this == 5.0 && loose->cross_other == 4.0);
    ASSERT(loose && strstr(loose->check.method, "differs from vulkan at [3]"));
    ASSERT(near && near->status == VKB_RES_OK && !near->cross_fail && near->cross_differing == 1);
    ASSERT(plain && plain->status == VKB_RES_OK && plain->cross && plain->cross_differing == 0);
    free_fixture(&fx);
}

/* The cross-backend compare of outputs longer than a compare span: the same counts and the same first element
 * on any thread count. */
static void test_cross_backend_spans(void)
{
    static const vkb_family *fams[] = {&fake_family};
    static const int64_t n[] = {(1 << 21) + 5};
    for (int threads = 1; threads <= 3; threads += 2) {
        const vkb_result *loose, *near;
        fixture fx;
        setenv("VKB_THREADS", threads == 1 ? "1" : "3", 1);
        run_fixture(&fx, fams, 1, n, 1, 0, 1, 1, 1);
        loose = find(&fx, "loose", "cuda", n[0]);
        near = find(&fx, "near", "cuda", n[0]);
        ASSERT(loose && loose->cross_fail && loose->cross_index == 3 && loose->cross_differing == 2);
        ASSERT(loose && loose->check.bad == 2);
        ASSERT(near && near->status == VKB_RES_OK && near->cross_differing == 2 && near->cross_max_diff == 0.5);
        free_fixture(&fx);
    }
    unsetenv("VKB_THREADS");
}

/* A bandwidth above 1.25x the fastest copy of its shape is suspect when a shader copy ran there; the copies
 * themselves are not. An API copy alone bounds nothing (NVIDIA's runs at 28% of a shader copy): the fake
 * family's "fast", 10x its API copy, is not judged. */
static void test_suspect(void)
{
    static const vkb_family *fams[] = {&fake_family, &shader_copy_family};
    static const int64_t n[] = {16};
    fixture fx;
    const vkb_result *fast, *plain, *copy, *faster;
    run_fixture(&fx, fams, 2, n, 1, 0, 0, 0, 1);
    fast = find(&fx, "fast", "vulkan", 16);
    plain = find(&fx, "plain", "vulkan", 16);
    copy = find(&fx, "api_copy", "vulkan", 16);
    faster = find(&fx, "faster", "vulkan", 16);
    ASSERT(fast && plain && copy && faster);
    ASSERT(faster && faster->suspect && strstr(faster->suspect_reason, "fastest copy of the same bytes"));
    ASSERT(fast && !fast->suspect);
    ASSERT(plain && !plain->suspect);
    ASSERT(copy && !copy->suspect);
    free_fixture(&fx);
}

/* An H100 without CUDA: a reduce at full speed after a copy family at half clock is not suspect (the
 * old rule, 1.25x the fastest copy of the run, called it a timing error and the suite exited 1). */
static void test_suspect_other_clock(void)
{
    static const vkb_family *fams[] = {&halfclock_family, &reduce_like_family};
    static const int64_t n[] = {16};
    fixture fx;
    const vkb_result *slow_copy, *sum;
    run_fixture(&fx, fams, 2, n, 1, 0, 0, 0, 1);
    slow_copy = find(&fx, "vec4", "vulkan", 16);
    sum = find(&fx, "sum", "vulkan", 16);
    ASSERT(slow_copy && sum);
    ASSERT(slow_copy && sum && sum->metric > 1.5 * slow_copy->metric); /* the old rule's SUSPECT */
    ASSERT(sum && !sum->suspect);
    ASSERT(slow_copy && !slow_copy->suspect);
    free_fixture(&fx);
}

/* The ceiling of a shape is the faster of its API copy and its stream copy: with the API copy 10x slow, a row
 * as fast as the stream copy reads 100% of it (not 1000% of the API copy), and is not suspect. */
static void test_stream_ceiling(void)
{
    static const vkb_family *fams[] = {&streamed_family};
    static const int64_t n[] = {16};
    fixture fx;
    const vkb_result *stream, *slow;
    run_fixture(&fx, fams, 1, n, 1, 0, 0, 0, 1);
    stream = find(&fx, "stream", "vulkan", 16);
    slow = find(&fx, "slow", "vulkan", 16);
    ASSERT(stream && slow);
    ASSERT(stream && stream->ceiling && strcmp(stream->ceiling->variant->name, "stream_copy") == 0);
    ASSERT(stream && stream->fraction > 0.95 && stream->fraction <= 1.05 && !stream->suspect);
    ASSERT(slow && slow->ceiling == (stream ? stream->ceiling : NULL) && slow->fraction < 0.2);
    free_fixture(&fx);
}

/* A shader copy (VKB_VAR_SHADER_COPY) raises the run's fastest copy: neither it nor a kernel as fast is suspect,
 * though both run 10x the API copy (without the flag both would be: test_suspect's "fast") */
static void test_suspect_shader_copy(void)
{
    static const vkb_family *fams[] = {&shader_copy_family};
    static const int64_t n[] = {16};
    fixture fx;
    const vkb_result *api, *copy, *kernel;
    run_fixture(&fx, fams, 1, n, 1, 0, 0, 0, 1);
    api = find(&fx, "api_copy", "vulkan", 16);
    copy = find(&fx, "kernel_copy", "vulkan", 16);
    kernel = find(&fx, "kernel", "vulkan", 16);
    ASSERT(api && copy && kernel);
    ASSERT(api && copy && copy->metric > 5 * api->metric);
    ASSERT(copy && !copy->suspect);
    ASSERT(kernel && !kernel->suspect);
    free_fixture(&fx);
}

/* The peak bound of a tensor-core row is the tensor cores' dense fp16 rate, twice that for an integer row (int8
 * runs at twice fp16) and for an integer vendor ceiling: on an H100-like device an int8 row at 1.6x and 1.99x the
 * fp16 rate is believed and one at 2.05x is SUSPECT (GOP/s in its reason); an fp16 row at 1.6x is SUSPECT (GFLOP/s)
 * and at 0.99x believed. */
static void test_suspect_tensor_int8(void)
{
    static const vkb_variant rows[] = {
        {.name = "tc_s8", .needs = VKB_NEED_COOPMAT_KHR | VKB_NEED_INT8, .flags = VKB_VAR_INTEGER_OPS},
        {.name = "tc_f16", .needs = VKB_NEED_COOPMAT_KHR},
        {.name = "gemm_s8", .flags = VKB_VAR_CEILING | VKB_VAR_CUDA_ONLY | VKB_VAR_INTEGER_OPS},
    };
    static const struct {
        int row;
        double times; /* the metric over the dense fp16 tensor rate */
        int suspect;
    } cases[] = {{0, 1.6, 0}, {0, 1.99, 0}, {0, 2.05, 1}, {1, 0.99, 0}, {1, 1.6, 1}, {2, 1.6, 0}, {2, 2.05, 1}};
    static vkb_runner r;
    static shape_state st;
    vkb_family f = fake_family;
    vkb_caps caps;
    double fp16;
    memset(&caps, 0, sizeof caps);
    caps.sm_arch = 90, caps.compute_units = 132, caps.clock_mhz = 1980;
    snprintf(caps.name, sizeof caps.name, "an H100-like device");
    f.metric = "GFLOP/s";
    fp16 = vkb_gpu_rate(&caps, VKB_RATE_TENSOR16);
    ASSERT(fp16 > 1e6); /* 4096 operations per clock per SM */
    for (size_t i = 0; i < VKB_COUNT(cases); i++) {
        vkb_result res;
        memset(&res, 0, sizeof res);
        res.family = &f;
        res.variant = &rows[cases[i].row];
        res.backend = "vulkan";
        res.status = VKB_RES_OK;
        res.timed = 1;
        res.metric = cases[i].times * fp16;
        vkb_judge_metric(&r, &st, &res, &caps);
        if (res.suspect != cases[i].suspect)
            fprintf(stderr, "%s at %.2fx the fp16 tensor rate: suspect %d\n", res.variant->name, cases[i].times,
                    res.suspect);
        ASSERT(res.suspect == cases[i].suspect);
        if (res.suspect)
            ASSERT(strstr(res.suspect_reason, cases[i].row == 1 ? " GFLOP/s is above the peak of an H100-like device"
                                                                : " GOP/s is above the peak of an H100-like device"));
    }
}

/* A family's own bound judges its rows (above it: suspect, whatever the peaks table says); a row whose own
 * ceiling did not run takes its fallback of another family (the fastest such result, never a suspect one). */
static void test_fallback_theory(void)
{
    static const vkb_family *fams[] = {&theory_family, &user_family};
    static const int64_t n[] = {16};
    fixture fx;
    const vkb_result *honest, *bounded, *user, *user_suspect, *user_none;
    run_fixture(&fx, fams, 2, n, 1, 0, 0, 0, 1);
    honest = find(&fx, "honest", "vulkan", 16);
    bounded = find(&fx, "bounded", "vulkan", 16);
    user = find(&fx, "user", "vulkan", 16);
    user_suspect = find(&fx, "user_suspect", "vulkan", 16);
    user_none = find(&fx, "user_none", "vulkan", 16);
    ASSERT(honest && bounded && user && user_suspect && user_none);
    ASSERT(honest && !honest->suspect && honest->theoretical == 1e30 && !honest->ceiling);
    ASSERT(bounded && bounded->suspect && strstr(bounded->suspect_reason, "above the bound"));
    ASSERT(user && user->ceiling == honest && user->fraction > 0 && user->fraction == user->metric / honest->metric);
    ASSERT(user_suspect && !user_suspect->ceiling);
    ASSERT(user_none && !user_none->ceiling);
    free_fixture(&fx);
}

/* The value NAME of RES, or NULL. */
static const vkb_named_value *value_of(const vkb_result *res, const char *name)
{
    for (int i = 0; i < res->nvalues; i++)
        if (strcmp(res->values[i].tag, name) == 0)
            return &res->values[i];
    return NULL;
}

/* A GFLOP/s row the GPU facts bound carries that bound as its "peak" value (the roofline's roof where no ceiling
 * of its type ran): the fp32 rate for a scalar row, the tensor cores' dense rate for a tensor-core row, twice that
 * in GOP/s for an 8-bit one; a GPU the facts do not know gives none. */
static void test_peak_values(void)
{
    static const vkb_family *fams[] = {&flops_family};
    static const int64_t n[] = {16};
    static const struct {
        const char *row, *unit;
        double peak;
    } want[] = {{"scalar", "GFLOP/s", 66908.16}, {"tensor", "GFLOP/s", 1070530.56}, {"int8", "GOP/s", 2141061.12}};
    fixture fx;
    for (int known = 0; known < 2; known++) {
        known_gpu = known;
        run_fixture(&fx, fams, 1, n, 1, 0, 0, 0, 1);
        known_gpu = 0;
        for (size_t i = 0; i < VKB_COUNT(want); i++) {
            const vkb_result *res = find(&fx, want[i].row, "vulkan", 16);
            const vkb_named_value *peak = res ? value_of(res, "peak") : NULL;
            ASSERT(res && res->status == VKB_RES_OK && !res->suspect);
            ASSERT(known ? peak && fabs(peak->value - want[i].peak) < 1e-3 && strcmp(peak->unit, want[i].unit) == 0
                         : peak == NULL);
        }
        free_fixture(&fx);
    }
}

/* With a backend that compares on the device, the poison and determinism checks of a MiB of output read
 * nothing back unless something differs, and still fail for the right reason, naming the first differing word. */
static void test_device_compare(void)
{
    static const vkb_family *fams[] = {&fake_family};
    static const int64_t n[] = {1 << 18}; /* a MiB of output: kept on the device (smaller is read back) */
    const char *fault[] = {NULL, "second-run-differs", "no-poison"};
    fixture fx;
    for (int timed = 0; timed < 2; timed++)
        for (int f = 0; f < 3; f++) {
            int compares = 0, downloads = 0;
            if (fault[f])
                setenv("VKB_FAULT_INJECT", fault[f], 1);
            run_device_fixture(&fx, fams, n, timed, &compares, &downloads);
            unsetenv("VKB_FAULT_INJECT");
            for (int i = 0; i < fx.r.results.n; i++) {
                const vkb_result *res = &fx.r.results.r[i];
                int ceiling = (res->variant->flags & VKB_VAR_CEILING) != 0;
                if (!fault[f] || (f == 1 && timed && ceiling)) { /* a timed ceiling is not proven deterministic */
                    ASSERT(res->status == VKB_RES_OK);
                } else if (f == 1) {
                    ASSERT(res->status == VKB_RES_FAIL && strstr(res->check.method, "not deterministic"));
                    /* the middle byte had a bit flipped: word 2^17 */
                    ASSERT(strstr(res->check.reason, "output 0 [131072]: ") &&
                           strstr(res->check.reason, "1 word differs"));
                } else {
                    ASSERT(res->status == VKB_RES_FAIL && strstr(res->check.method, "not poisoned before the run"));
                }
            }
            ASSERT(compares > 0);
            ASSERT(vk_stats.creates == vk_stats.destroys);
            if (!fault[f]) /* read back: only the checked run's outputs, for the CPU check */
                ASSERT(downloads == fx.r.results.n);
            free_fixture(&fx);
        }
}

/* The poison check names the first word of an output not poisoned before the run, where the device compare found
 * it (the read-back then starts there) and where the whole output was read back: a fill that missed word 1000003
 * of 2^21 (not the first of a 16-byte quad, of a workgroup's words or of a compare span) fails every row naming
 * that word, on a backend that compares on the device and on one that does not. */
static void test_poison_word(void)
{
    static const vkb_family *fams[] = {&fake_family};
    static const int64_t n[] = {1 << 21};
    for (int on_device = 0; on_device < 2; on_device++) {
        fixture fx;
        int compares = 0, downloads = 0, named = 0;
        poison_gap = 1000003;
        if (on_device)
            run_device_fixture(&fx, fams, n, 0, &compares, &downloads);
        else
            run_fixture(&fx, fams, 1, n, 1, 0, 0, 0, 0);
        poison_gap = 0;
        for (int i = 0; i < fx.r.results.n; i++) {
            const vkb_result *res = &fx.r.results.r[i];
            named += res->status == VKB_RES_FAIL &&
                     strstr(res->check.reason, "output 0 not poisoned before the run: word 1000003 is 0x00000000,");
            if (res->status != VKB_RES_FAIL || !strstr(res->check.reason, "word 1000003 is"))
                fprintf(stderr, "%s (device compare %d): %s\n", res->variant->name, on_device, res->check.reason);
        }
        ASSERT(fx.r.results.n > 0 && named == fx.r.results.n);
        ASSERT(on_device ? compares > 0 : vk_stats.compares == 0);
        free_fixture(&fx);
    }
}

/* A difference the device compare reports and the read-back does not show fails the case, for the poison
 * check and the determinism check alike: one of the two is wrong, and neither can be trusted. */
static void test_device_compare_disagrees(void)
{
    static const vkb_family *fams[] = {&fake_family};
    static const int64_t n[] = {1 << 18};
    const char *expect[] = {"", "read-back none", "disagree at word 0"};
    for (int lie = 1; lie <= 2; lie++) {
        fixture fx;
        int compares = 0, downloads = 0, failed = 0;
        compare_lies = lie;
        run_device_fixture(&fx, fams, n, 0, &compares, &downloads);
        compare_lies = 0;
        for (int i = 0; i < fx.r.results.n; i++) {
            const vkb_result *res = &fx.r.results.r[i];
            if (res->status == VKB_RES_FAIL && strstr(res->check.reason, expect[lie]))
                failed++;
        }
        ASSERT(failed > 0);
        free_fixture(&fx);
    }
}

/* Several ceilings at different speeds: every kernel row is a fraction of the fastest of them at its shape (not
 * the first to run, the last, nor its own API's), and that fraction is its metric over the ceiling's. */
static void test_ceiling_choice(void)
{
    static const vkb_family *fams[] = {&fake_family};
    static const int64_t n[] = {16, 32};
    fixture fx;
    times_differ = 1;
    run_fixture(&fx, fams, 1, n, 2, 0, 0, 1, 1);
    times_differ = 0;
    for (int s = 0; s < 2; s++) {
        const vkb_result *plain = find(&fx, "plain", "vulkan", n[s]), *fastest = find(&fx, "api_copy", "cuda", n[s]);
        const vkb_result *vk = find(&fx, "api_copy", "vulkan", n[s]), *vendor = find(&fx, "vendor", "cuda", n[s]);
        ASSERT(plain && fastest && vk && vendor);
        if (!plain || !fastest || !vk || !vendor)
            break;
        ASSERT(fastest->metric > vendor->metric && vendor->metric > vk->metric); /* 4x, 2x, 1x */
        ASSERT(plain->ceiling == fastest);
        ASSERT(fabs(plain->fraction - 0.25) < 1e-12 && fabs(plain->fraction * fastest->metric - plain->metric) < 1e-9);
        ASSERT(find(&fx, "fast", "vulkan", n[s])->ceiling == fastest);
        ASSERT(vk->ceiling == NULL && fastest->ceiling == NULL); /* a ceiling is no fraction of another */
    }
    free_fixture(&fx);
    /* a row that names its ceiling is a fraction of that one, though another ran faster */
    times_differ = 1;
    run_fixture(&fx, (const vkb_family *const[]){&named_family}, 1, n, 1, 0, 0, 1, 1);
    times_differ = 0;
    {
        const vkb_result *named = find(&fx, "named", "vulkan", 16), *vendor = find(&fx, "vendor", "cuda", 16);
        const vkb_result *plain = find(&fx, "plain", "vulkan", 16), *fastest = find(&fx, "api_copy", "cuda", 16);
        ASSERT(named && vendor && plain && fastest);
        ASSERT(named && named->ceiling == vendor && fabs(named->fraction - 0.5) < 1e-12);
        ASSERT(plain && plain->ceiling == fastest);
    }
    free_fixture(&fx);
}

/* A time per unit of work (latency, cache.chase: fewer is faster): the ceiling is the ceiling row of the shortest
 * time, and a row's fraction is the ceiling's time over its own, by value (the copy at 1x, 2x and 4x speed: the
 * plain row, at 1x, is 0.25 of the fastest). */
static void test_ceiling_choice_lower(void)
{
    static vkb_family timed_family;
    const vkb_family *fams[] = {&timed_family};
    static const int64_t n[] = {16};
    fixture fx;
    timed_family = fake_family;
    timed_family.name = "faketime";
    timed_family.metric = "us";
    timed_family.time_unit_ns = 1e3;
    times_differ = 1;
    run_fixture(&fx, fams, 1, n, 1, 0, 0, 1, 1);
    times_differ = 0;
    {
        const vkb_result *plain = find(&fx, "plain", "vulkan", 16), *fastest = find(&fx, "api_copy", "cuda", 16);
        const vkb_result *vk = find(&fx, "api_copy", "vulkan", 16), *vendor = find(&fx, "vendor", "cuda", 16);
        ASSERT(plain && fastest && vk && vendor);
        if (plain && fastest && vk && vendor) {
            ASSERT(fastest->metric < vendor->metric && vendor->metric < vk->metric); /* times: 1/4, 1/2, 1 */
            ASSERT(plain->ceiling == fastest);
            ASSERT(fabs(plain->fraction - 0.25) < 1e-12 &&
                   fabs(plain->metric * plain->fraction - fastest->metric) < 1e-12);
            ASSERT(plain->status == VKB_RES_OK && !plain->suspect);
        }
    }
    free_fixture(&fx);
}

/* --backend all on outputs over three compare spans, with elements that differ by amounts either side of the
 * two checks' largest bounds summed (1 + 1): the counts, the largest difference and the first element beyond
 * are those of every span together. */
static void test_cross_counts(void)
{
    static const vkb_family *fams[] = {&fake_family};
    static const int64_t n[] = {(1 << 21) + 5};
    static const cross_add adds[] = {
        {10, -0.875f, 0.875f},          /* span 0: 1.75 apart */
        {(1 << 20) + 7, -1.0f, 1.0f},   /* span 1: 2 apart, the largest; within 1 + 1 exactly */
        {(1 << 21) + 1, 0.25f, -0.75f}, /* span 2: 1 apart */
    };
    const vkb_result *loose, *near;
    fixture fx;
    cross_adds = adds, ncross_adds = 3;
    run_fixture(&fx, fams, 1, n, 1, 0, 1, 1, 1);
    cross_adds = NULL, ncross_adds = 0;
    loose = find(&fx, "loose", "cuda", n[0]);
    near = find(&fx, "near", "cuda", n[0]);
    ASSERT(loose && near);
    if (loose && near) {
        /* near: element 3 (0.5 apart) and the last but one (0.5) and the three above differ, none beyond 2 */
        ASSERT(near->status == VKB_RES_OK && !near->cross_fail);
        ASSERT(near->cross_differing == 5 && near->cross_max_diff == 2.0);
        /* loose, reported exact: every differing word is beyond; the first is element 3 (4 vs 5) */
        ASSERT(loose->status == VKB_RES_FAIL && loose->cross_fail && loose->cross_differing == 5);
        ASSERT(loose->check.bad == 5 && loose->cross_max_diff == 2.0 && loose->cross_index == 3);
        ASSERT(loose->cross_this == 5.0 && loose->cross_other == 4.0 && loose->cross_buffer == 1);
    }
    free_fixture(&fx);
}

/* A backend whose device compare cannot compare (-1) is checked through the read-back: clean rows pass (no
 * failure made of the -1), an output not poisoned and a second run that differs still fail, named. */
static void test_device_compare_cannot(void)
{
    static const vkb_family *fams[] = {&fake_family};
    static const int64_t n[] = {1 << 18};
    const char *fault[] = {NULL, "second-run-differs", "no-poison"};
    for (int f = 0; f < 3; f++) {
        fixture fx;
        int compares = 0, downloads = 0, ok = 0, rows = 0;
        if (fault[f])
            setenv("VKB_FAULT_INJECT", fault[f], 1);
        compare_lies = 3;
        run_device_fixture(&fx, fams, n, 0, &compares, &downloads);
        compare_lies = 0;
        unsetenv("VKB_FAULT_INJECT");
        for (int i = 0; i < fx.r.results.n; i++) {
            const vkb_result *res = &fx.r.results.r[i];
            rows++;
            if (!fault[f])
                ok += res->status == VKB_RES_OK && !res->check.reason[0];
            else if (f == 1)
                ok += res->status == VKB_RES_FAIL && strstr(res->check.reason, "output 0 [131072]: ") != NULL;
            else
                ok += res->status == VKB_RES_FAIL && strstr(res->check.method, "not poisoned before the run") != NULL;
        }
        ASSERT(compares > 0 && rows > 0 && ok == rows);
        free_fixture(&fx);
    }
}

/* --repeat 3: each shape's cases in three rounds (every variant once per round, ceilings first), each result
 * with its round; checked once (the same read-backs as one run), timed three times; each row against the
 * ceiling of its own round; a case that failed its check in round 0 fails the later rounds without running */
static void test_repeat_rounds(void)
{
    static const vkb_family *fams[] = {&fake_family};
    static const int64_t n[] = {16, 32};
    fixture fx;
    int downloads_once, executes_once, vk_cases = 5;
    run_fixture(&fx, fams, 1, n, 2, 0, 0, 0, 1);
    downloads_once = vk_stats.downloads;
    executes_once = vk_stats.executes;
    ASSERT(fx.r.results.r[0].repeats == 0);
    free_fixture(&fx);
    fixture_repeat = 3;
    run_fixture(&fx, fams, 1, n, 2, 0, 0, 0, 1);
    fixture_repeat = 0;
    ASSERT(fx.rc == 0);
    ASSERT(fx.plan.cases == 3 * 2 * vk_cases && fx.r.results.n == fx.plan.cases);
    ASSERT(fx.plan.variants == vk_cases && fx.plan.shapes == 2);
    for (int i = 0; i < fx.r.results.n; i++) {
        const vkb_result *res = &fx.r.results.r[i];
        int shape = i / (3 * vk_cases), round = i / vk_cases % 3, at = i % vk_cases;
        ASSERT(res->repeats == 3 && res->repeat == round);
        ASSERT(res->shape.d[0] == n[shape]);
        ASSERT(res->variant == fx.r.results.r[shape * 3 * vk_cases + at].variant); /* the same order each round */
        ASSERT(res->status == VKB_RES_OK && res->timed);
        if (!(res->variant->flags & VKB_VAR_CEILING))
            ASSERT(res->ceiling && res->ceiling->repeat == round && res->ceiling->shape.d[0] == res->shape.d[0]);
    }
    ASSERT(vk_stats.downloads == downloads_once); /* checked once */
    ASSERT(vk_stats.executes > executes_once);    /* timed again in rounds 1 and 2 */
    free_fixture(&fx);
    /* both APIs: "loose" differs between them (a FAIL in round 0): its later rounds fail too, untimed */
    fixture_repeat = 2;
    run_fixture(&fx, fams, 1, n, 1, 0, 1, 1, 1);
    fixture_repeat = 0;
    {
        int loose_cuda = 0;
        for (int i = 0; i < fx.r.results.n; i++) {
            const vkb_result *res = &fx.r.results.r[i];
            if (strcmp(res->variant->name, "loose") || strcmp(res->backend, "cuda"))
                continue;
            loose_cuda++;
            ASSERT(res->status == VKB_RES_FAIL && res->timed == (res->repeat == 0 ? res->timed : 0));
        }
        ASSERT(loose_cuda == 2);
    }
    free_fixture(&fx);
}

/* --repeat rounds whose copies differ (the device throttled after round 0): each round's rows are bounded by the
 * copy of their own round. The kernel, as fast as round 0's copy, is believed there and SUSPECT in round 1, where
 * the copy beside it ran 10x slower; a bound taken from any round's fastest copy would believe it in both. */
static void test_suspect_rounds(void)
{
    static const vkb_family *fams[] = {&rounds_family};
    static const int64_t n[] = {16};
    fixture fx;
    int seen = 0;
    kernel_timed = 0;
    fixture_repeat = 2;
    run_fixture(&fx, fams, 1, n, 1, 0, 0, 0, 1);
    fixture_repeat = 0;
    for (int i = 0; i < fx.r.results.n; i++) {
        const vkb_result *res = &fx.r.results.r[i];
        if (strcmp(res->variant->name, "kernel") != 0)
            continue;
        seen++;
        ASSERT(res->status == VKB_RES_OK && res->timed && res->ceiling && res->ceiling->repeat == res->repeat);
        ASSERT(res->suspect == (res->repeat == 1));
        if (res->repeat == 1)
            ASSERT(strstr(res->suspect_reason, "fastest copy of the same bytes") != NULL);
    }
    ASSERT(seen == 2);
    free_fixture(&fx);
    kernel_timed = 0;
}

/* SIGINT stops the run after the current case; the sinks still end (interrupted) with what finished. */
static void test_interrupt(void)
{
    static const vkb_family *fams[] = {&fake_family};
    static const int64_t n[] = {16, 32};
    fixture fx;
    memset(&vk_stats, 0, sizeof vk_stats);
    /* raise on the 2nd execute: api_copy's checked run, then its re-run: the case finishes, then the stop */
    fake_backend(&fake_vk, "vulkan", &vk_stats);
    vk_stats.raise_after = 2;
    {
        /* run_fixture resets the stats: set the trigger through a one-off wrapper */
        vkb_run_settings set = {.command = "run", .command_line = "test", .seed = 1, .timed = 1, .reps = 3};
        memset(&fx, 0, sizeof fx);
        fx.r.backends[fx.r.nbackends++] = &fake_vk;
        fx.r.all[fx.r.nall++] = &fake_vk;
        fx.r.timing[0] = (vkb_timing){.reps = 3};
        fx.r.timed = 1;
        fx.sel.fam = calloc(1, sizeof *fx.sel.fam);
        fx.sel.nfams = 1;
        fx.sel.fam[0].family = fams[0];
        fx.sel.fam[0].selected = calloc(8, 1);
        memset(fx.sel.fam[0].selected, 1, 8);
        fx.sel.fam[0].shapes = calloc(2, sizeof(vkb_shape));
        fx.sel.fam[0].shapes[0].d[0] = n[0];
        fx.sel.fam[0].shapes[1].d[0] = n[1];
        fx.sel.fam[0].nshapes = 2;
        fx.rec.base = (vkb_sink){rec_begin, rec_family_begin, rec_family_end, rec_result, rec_end, NULL, &fx.rec};
        fx.sinks[0] = &fx.rec.base;
        fx.r.sinks = fx.sinks;
        fx.r.nsinks = 1;
        vkb_runner_plan(&fx.r, &fx.sel, &fx.plan);
        fx.rc = vkb_runner_run(&fx.r, &fx.sel, &set, &fx.plan);
    }
    ASSERT(fx.rc == 128 + SIGINT);
    ASSERT(fx.rec.interrupted);
    ASSERT(fx.rec.nres == 1 && fx.r.results.n == 1);
    fx.rec.ev[fx.rec.n] = 0;
    ASSERT(strcmp(fx.rec.ev, "BFRfE") == 0);
    free_fixture(&fx);
}

/* A device that fails in the middle of a run (its backend records the error, backend.h): the case fails with the
 * error, the runner calls the backend no more and returns the error's code. One device: the run ends there, the
 * sinks interrupted; one of several: its cases not run are emitted as failed with the error, so its rows stay
 * whole. */
static int failing_by_stop; /* run_failing's device: stopped by a signal it answered late, not lost */

static void run_failing(fixture *fx, int several)
{
    static const int64_t n[] = {16, 32};
    vkb_run_settings set = {.command = "run", .command_line = "test", .seed = 1, .timed = 1, .reps = 3};
    memset(fx, 0, sizeof *fx);
    fake_backend(&fake_vk, "vulkan", &vk_stats);
    if (failing_by_stop)
        vk_stats.stop_at = 3;
    else
        vk_stats.fail_at = 3; /* api_copy's checked run and re-run, then plain's checked run */
    fx->r.backends[fx->r.nbackends++] = &fake_vk;
    fx->r.all[fx->r.nall++] = &fake_vk;
    fx->r.timing[0] = (vkb_timing){.reps = 3};
    fx->r.timed = 1;
    fx->r.several = several;
    fx->sel.fam = calloc(1, sizeof *fx->sel.fam);
    fx->sel.nfams = 1;
    fx->sel.fam[0].family = &fake_family;
    fx->sel.fam[0].selected = calloc(8, 1);
    memset(fx->sel.fam[0].selected, 1, 8);
    fx->sel.fam[0].shapes = calloc(2, sizeof(vkb_shape));
    fx->sel.fam[0].shapes[0].d[0] = n[0];
    fx->sel.fam[0].shapes[1].d[0] = n[1];
    fx->sel.fam[0].nshapes = 2;
    fx->rec.base = (vkb_sink){rec_begin, rec_family_begin, rec_family_end, rec_result, rec_end, NULL, &fx->rec};
    fx->sinks[0] = &fx->rec.base;
    fx->r.sinks = fx->sinks;
    fx->r.nsinks = 1;
    vkb_runner_plan(&fx->r, &fx->sel, &fx->plan);
    fx->rc = vkb_runner_run(&fx->r, &fx->sel, &set, &fx->plan);
}

static void test_device_error(void)
{
    fixture fx;
    const vkb_result *failed;
    run_failing(&fx, 0);
    ASSERT(fx.rc == VKB_EXIT_API);
    ASSERT(vkb_runner_device_error(&fx.r) == &fake_vk.error);
    ASSERT(vk_stats.after_failure == 0); /* the runner stopped calling the failed device */
    ASSERT(fx.rec.interrupted && fx.rec.nres == 2 && fx.r.results.n == 2);
    failed = &fx.r.results.r[1];
    ASSERT(failed->status == VKB_RES_FAIL && !failed->timed && failed->error && strstr(failed->error, "DEVICE_LOST"));
    ASSERT(strcmp(failed->check.method, "the run ended here") == 0);
    ASSERT(fx.r.results.r[0].status == VKB_RES_OK);
    free_fixture(&fx);
    vkb_leave_failed_state(); /* what the runner left with the failed device (its inputs) is not a leak */
}

static void test_device_error_several(void)
{
    fixture fx;
    run_failing(&fx, 1);
    ASSERT(fx.rc == VKB_EXIT_API);
    ASSERT(vk_stats.after_failure == 0);
    ASSERT(fx.r.results.n == fx.r.nwork && fx.rec.nres == fx.r.nwork && fx.r.nwork > 3);
    ASSERT(fx.r.results.r[0].status == VKB_RES_OK);
    for (int i = 1; i < fx.r.results.n; i++)
        ASSERT(fx.r.results.r[i].status == VKB_RES_FAIL && fx.r.results.r[i].error &&
               strncmp(fx.r.results.r[i].check.method, "device failed: ", 15) == 0);
    free_fixture(&fx);
    vkb_leave_failed_state();
}

/* A stop signal the device answered late (its error record a stop, backend.h) is told apart from a device's
 * failure: no row carries it, the case under way is dropped (not failed), the files are interrupted with no
 * error, and the code is 128 + the signal; one device of several fills no rows with "device failed". */
static void device_stopped(int several)
{
    fixture fx;
    failing_by_stop = 1;
    run_failing(&fx, several);
    ASSERT(fx.rc == 128 + SIGTERM);
    ASSERT(fake_vk.error.stopped == 1 && fake_vk.error.code == 128 + SIGTERM);
    ASSERT(strcmp(fake_vk.error.message, "stopped by SIGTERM while the device was still busy") == 0);
    ASSERT(vk_stats.after_failure == 0 && fx.rec.interrupted);
    ASSERT(vkb_fatal_message() == NULL); /* the files' "error": none */
    ASSERT(fx.r.results.n == 1 && fx.rec.nres == 1 && fx.r.results.r[0].status == VKB_RES_OK);
    ASSERT(fx.r.results.r[0].error == NULL);
    free_fixture(&fx);
    vkb_leave_failed_state();
}

static void test_device_stopped(void)
{
    device_stopped(0);
}

static void test_device_stopped_several(void)
{
    device_stopped(1);
}

/* A fatal error in the middle of a run (vkb_die: here a shape whose inputs cannot be made) still ends the
 * sinks, with what finished, before the process exits with the error's code. */
static void test_fatal_ends_sinks(void)
{
    static const vkb_family *fams[] = {&fake_family};
    static const int64_t n[] = {16, 99};
    char path[] = "/tmp/vkb_test_runner_XXXXXX", text[64] = "";
    int fd = mkstemp(path), status = 0, nres = -1, interrupted = -1;
    pid_t pid;
    FILE *f;
    ASSERT(fd >= 0);
    close(fd);
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        fixture fx;
        end_file = path;
        vkb_quiet = 1;
        freopen("/dev/null", "w", stderr);
        run_fixture(&fx, fams, 1, n, 2, 0, 0, 0, 1);
        _exit(0); /* not reached: shape 99 exits 2 */
    }
    ASSERT(pid > 0 && waitpid(pid, &status, 0) == pid);
    ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == VKB_EXIT_USAGE);
    f = fopen(path, "r");
    ASSERT(f && fscanf(f, "%63s %d %d", text, &nres, &interrupted) == 3);
    if (f)
        fclose(f);
    remove(path);
    ASSERT(strcmp(text, "BFRRRRRfE") == 0 || strcmp(text, "BFRRRRRE") == 0); /* shape 16's five, then end */
    ASSERT(nres == 5 && interrupted == 1);
}

/* ---- selection: real families, real command lines ---- */

static int parse(vkb_args *a, const char *line)
{
    static char buf[400]; /* the args point into it */
    char *argv[40], *save = NULL, err[300];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *t = strtok_r(buf, " ", &save); t && argc < 39; t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    argv[argc] = NULL;
    memset(a, 0, sizeof *a);
    return vkb_cli_parse(argc, argv, a, err, sizeof err);
}

static int select_shapes(const char *line, const char *family, vkb_shape *out, char *err, size_t len)
{
    vkb_args a;
    vkb_selection s;
    vkb_caps caps;
    int n = -1;
    memset(&caps, 0, sizeof caps);
    caps.is_cpu = 1;
    if (parse(&a, line) != 0)
        return -2;
    if (vkb_selection_families(&a, &s, err, len) == 0 && vkb_selection_shapes(&a, &caps, &s, err, len) == 0)
        for (int i = 0; i < s.nfams; i++)
            if (strcmp(s.fam[i].family->name, family) == 0) {
                n = s.fam[i].nshapes;
                memcpy(out, s.fam[i].shapes, (size_t)n * sizeof *out);
            }
    vkb_selection_free(&s);
    return n;
}

/* The default suite's shape of a bandwidth family on a GPU streams past the last-level cache: the transpose's
 * 1024x1024 (8 MiB each way) is L2-resident on a GPU with a 50 MB L2, its 8192x8192 is not; with a 4 MiB cache
 * the first shape is past it; unknown, past 256 MiB. A CPU implementation keeps its small first shape. */
static void test_suite_past_cache(void)
{
    vkb_args a;
    vkb_selection s;
    vkb_caps caps;
    char err[300];
    const struct {
        uint64_t cache_bytes;
        int is_cpu;
        int64_t side;
    } cases[] = {{52428800, 0, 8192}, {0, 0, 8192}, {1 << 20, 0, 1024}, {52428800, 1, 256}};
    for (size_t i = 0; i < VKB_COUNT(cases); i++) {
        memset(&caps, 0, sizeof caps);
        caps.cache_bytes = cases[i].cache_bytes, caps.is_cpu = cases[i].is_cpu;
        ASSERT(parse(&a, "vkbench") == 0 && strcmp(a.command, "suite") == 0);
        ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == 0);
        ASSERT(vkb_selection_shapes(&a, &caps, &s, err, sizeof err) == 0);
        for (int f = 0; f < s.nfams; f++)
            if (strcmp(s.fam[f].family->name, "transpose") == 0)
                ASSERT(s.fam[f].nshapes == 1 && s.fam[f].shapes[0].d[0] == cases[i].side);
        vkb_selection_free(&s);
    }
}

/* --size gives square and cubic shapes; a product comes only from explicit per-dim lists. */
static void test_size_cubic(void)
{
    static vkb_shape s[VKB_MAX_SHAPES];
    char err[300];
    ASSERT(select_shapes("vkbench run transpose --size 64:256:x2", "transpose", s, err, sizeof err) == 3);
    ASSERT(s[0].d[0] == 64 && s[0].d[1] == 64 && s[2].d[0] == 256 && s[2].d[1] == 256);
    ASSERT(select_shapes("vkbench run matmul --size 32,48", "matmul", s, err, sizeof err) == 2);
    ASSERT(s[1].d[0] == 48 && s[1].d[1] == 48 && s[1].d[2] == 48);
    ASSERT(select_shapes("vkbench run transpose --rows 1,2 --cols 3,4,5", "transpose", s, err, sizeof err) == 6);
    ASSERT(s[0].d[0] == 1 && s[0].d[1] == 3 && s[5].d[0] == 2 && s[5].d[1] == 5);
    ASSERT(select_shapes("vkbench run matmul --m 16,32 --n 8 --k 4,5", "matmul", s, err, sizeof err) == 4);
    /* --size with one explicit dim: the others take the size, the explicit list multiplies */
    ASSERT(select_shapes("vkbench run transpose --size 8,16 --cols 3,4", "transpose", s, err, sizeof err) == 4);
    ASSERT(s[0].d[0] == 8 && s[0].d[1] == 3 && s[3].d[0] == 16 && s[3].d[1] == 4);
    /* --size sets extents only: memory.stride's stride keeps its default */
    {
        static vkb_shape d[VKB_MAX_SHAPES];
        vkb_caps caps;
        memset(&caps, 0, sizeof caps);
        caps.is_cpu = 1;
        ASSERT(vkb_family_find("memory.stride")->default_shapes(&caps, d, VKB_MAX_SHAPES) >= 1);
        ASSERT(select_shapes("vkbench run memory.stride --size 4096,8192", "memory.stride", s, err, sizeof err) == 2);
        ASSERT(s[1].d[0] == 8192 && s[1].d[1] == d[0].d[1] && s[1].d[1] != 8192);
    }
}

/* Several families: each takes the size flags it knows; a flag none takes is an error. */
static void test_flags_per_family(void)
{
    static vkb_shape s[VKB_MAX_SHAPES], d[VKB_MAX_SHAPES];
    vkb_caps caps;
    char err[300];
    int nd;
    memset(&caps, 0, sizeof caps);
    caps.is_cpu = 1;
    nd = vkb_family_find("transpose")->default_shapes(&caps, d, VKB_MAX_SHAPES);
    ASSERT(select_shapes("vkbench run transpose reduce --n 1024", "reduce", s, err, sizeof err) == 1);
    ASSERT(s[0].d[0] == 1024);
    ASSERT(select_shapes("vkbench run transpose reduce --n 1024", "transpose", s, err, sizeof err) == nd);
    ASSERT(s[0].d[0] == d[0].d[0] && s[0].d[1] == d[0].d[1]);
    ASSERT(select_shapes("vkbench run copy reduce --rows 4", "copy", s, err, sizeof err) == -1);
    ASSERT(strstr(err, "no selected family takes --rows"));
    ASSERT(select_shapes("vkbench run copy --rows 4", "copy", s, err, sizeof err) == -1);
    ASSERT(strstr(err, "copy takes no --rows"));
}

/* One --FAMILY.FLAG on a family of several size flags sets that dim alone: the others keep the first default
 * shape's values (or the plain --size where it is given), and the other families keep theirs. */
static void test_flags_scoped_one_dim(void)
{
    static vkb_shape s[VKB_MAX_SHAPES], d[VKB_MAX_SHAPES], t[VKB_MAX_SHAPES];
    vkb_caps caps;
    char err[300];
    memset(&caps, 0, sizeof caps);
    caps.is_cpu = 1;
    ASSERT(vkb_family_find("matmul")->default_shapes(&caps, d, VKB_MAX_SHAPES) >= 1);
    ASSERT(vkb_family_find("transpose")->default_shapes(&caps, t, VKB_MAX_SHAPES) >= 1);
    ASSERT(d[0].d[0] != 40 && d[0].d[1] != 40 && d[0].d[2] != 40 && t[0].d[0] != 48 && t[0].d[1] != 48);
    ASSERT(select_shapes("vkbench run matmul --matmul.k 40", "matmul", s, err, sizeof err) == 1);
    ASSERT(s[0].d[0] == d[0].d[0] && s[0].d[1] == d[0].d[1] && s[0].d[2] == 40);
    ASSERT(select_shapes("vkbench run matmul --matmul.m 96 --matmul.n 80", "matmul", s, err, sizeof err) == 1);
    ASSERT(s[0].d[0] == 96 && s[0].d[1] == 80 && s[0].d[2] == d[0].d[2]);
    ASSERT(select_shapes("vkbench run matmul transpose --matmul.n 80 --size 64", "matmul", s, err, sizeof err) == 1);
    ASSERT(s[0].d[0] == 64 && s[0].d[1] == 80 && s[0].d[2] == 64);
    ASSERT(select_shapes("vkbench run matmul transpose --matmul.n 80 --size 64", "transpose", s, err, sizeof err) == 1);
    ASSERT(s[0].d[0] == 64 && s[0].d[1] == 64);
    /* the scoped flag before the plain one of the same dim, which sizes the family without its own */
    ASSERT(select_shapes("vkbench run matmul copy --matmul.n 80 --n 96", "matmul", s, err, sizeof err) == 1);
    ASSERT(s[0].d[0] == d[0].d[0] && s[0].d[1] == 80 && s[0].d[2] == d[0].d[2]);
    ASSERT(select_shapes("vkbench run matmul copy --matmul.n 80 --n 96", "copy", s, err, sizeof err) == 1);
    ASSERT(s[0].d[0] == 96);
    ASSERT(select_shapes("vkbench run matmul transpose --transpose.cols 48", "transpose", s, err, sizeof err) == 1);
    ASSERT(s[0].d[0] == t[0].d[0] && s[0].d[1] == 48);
    ASSERT(select_shapes("vkbench run matmul transpose --transpose.cols 48", "matmul", s, err, sizeof err) >= 1);
    ASSERT(s[0].d[0] == d[0].d[0] && s[0].d[1] == d[0].d[1] && s[0].d[2] == d[0].d[2]);
}

/* Whether FAMILY, selected by LINE, is sized by a flag it shares with another family (a size beyond it skips). */
static int shares_sizes(const char *line, const char *family)
{
    vkb_args a;
    vkb_selection s;
    char err[300];
    int shared = -1;
    if (parse(&a, line) != 0 || vkb_selection_families(&a, &s, err, sizeof err) != 0)
        return -1;
    for (int i = 0; i < s.nfams; i++)
        if (strcmp(s.fam[i].family->name, family) == 0)
            shared = s.fam[i].shared_sizes;
    vkb_selection_free(&s);
    return shared;
}

/* A size flag means one thing per run. A plain flag that would count different things in the families it
 * sizes is refused (copy's 8192 words beside an 8192x8192 transpose; 1M dispatches beside 1M bytes); --FAMILY.FLAG
 * sizes one family; validate, whose sizes are shapes to check, takes a plain flag in each family's own terms. */
static void test_flags_one_meaning(void)
{
    static vkb_shape s[VKB_MAX_SHAPES], d[VKB_MAX_SHAPES];
    vkb_caps caps;
    char err[300];
    memset(&caps, 0, sizeof caps);
    caps.is_cpu = 1;
    ASSERT(select_shapes("vkbench run copy transpose --size 8192", "copy", s, err, sizeof err) == -1);
    ASSERT(strstr(err, "--size counts 4-byte words for copy but matrix side for transpose"));
    ASSERT(select_shapes("vkbench run latency transfer --n 1M", "latency", s, err, sizeof err) == -1);
    ASSERT(strstr(err, "(--latency.n, --transfer.n)"));
    ASSERT(select_shapes("vkbench run memory --n 1M", "memory.width", s, err, sizeof err) == -1);
    ASSERT(select_shapes("vkbench run --n 1000", "copy", s, err, sizeof err) == -2); /* run needs a family */
    ASSERT(select_shapes("vkbench --n 1000", "copy", s, err, sizeof err) == -1);     /* the suite: every family */
    /* the same unit in each: both sized */
    ASSERT(select_shapes("vkbench run copy reduce --n 1000", "copy", s, err, sizeof err) == 1 && s[0].d[0] == 1000);
    ASSERT(select_shapes("vkbench run copy reduce --n 1000", "reduce", s, err, sizeof err) == 1 && s[0].d[0] == 1000);
    ASSERT(select_shapes("vkbench run transpose matmul --size 64", "matmul", s, err, sizeof err) == 1);
    ASSERT(s[0].d[0] == 64 && s[0].d[1] == 64 && s[0].d[2] == 64);
    /* --FAMILY.FLAG: one family each; a plain flag then sizes the families without their own */
    ASSERT(select_shapes("vkbench run copy transpose --copy.n 1000 --transpose.size 64", "copy", s, err, sizeof err) ==
               1 &&
           s[0].d[0] == 1000);
    ASSERT(select_shapes("vkbench run copy transpose --copy.n 1000 --transpose.size 64", "transpose", s, err,
                         sizeof err) == 1 &&
           s[0].d[0] == 64 && s[0].d[1] == 64);
    ASSERT(select_shapes("vkbench run copy transpose --copy.n 7 --size 64", "transpose", s, err, sizeof err) == 1);
    ASSERT(s[0].d[0] == 64 && s[0].d[1] == 64);
    ASSERT(select_shapes("vkbench run copy transpose --copy.n 7 --size 64", "copy", s, err, sizeof err) == 1);
    ASSERT(s[0].d[0] == 7);
    ASSERT(select_shapes("vkbench run latency transfer --latency.n 9 --n 1M", "transfer", s, err, sizeof err) == 1);
    ASSERT(s[0].d[0] == 1 << 20);
    ASSERT(vkb_family_find("transpose")->default_shapes(&caps, d, VKB_MAX_SHAPES) >= 1);
    ASSERT(select_shapes("vkbench run copy transpose --copy.n 7", "transpose", s, err, sizeof err) >= 1);
    ASSERT(s[0].d[0] == d[0].d[0] && s[0].d[1] == d[0].d[1]); /* not sized: its defaults */
    ASSERT(select_shapes("vkbench run copy --transpose.rows 7", "copy", s, err, sizeof err) == -1);
    ASSERT(strstr(err, "transpose is not selected"));
    ASSERT(select_shapes("vkbench run copy --copy.n 5 --n 6", "copy", s, err, sizeof err) == -1);
    ASSERT(strstr(err, "--n sets nothing"));
    ASSERT(select_shapes("vkbench run transpose --rows 4 --cols 5 --size 8", "transpose", s, err, sizeof err) == -1);
    /* validate: a plain flag takes each family's own terms */
    ASSERT(select_shapes("vkbench validate copy matmul peak --n 33", "peak", s, err, sizeof err) >= 1);
    ASSERT(s[0].d[0] == 33);
    /* a size shared by several families skips where it is beyond one; one asked of a family alone ends the run */
    ASSERT(shares_sizes("vkbench run copy reduce --n 1000", "reduce") == 1);
    ASSERT(shares_sizes("vkbench run copy reduce --copy.n 5 --n 1000", "reduce") == 0);
    ASSERT(shares_sizes("vkbench run copy --n 1000", "copy") == 0);
    ASSERT(shares_sizes("vkbench run copy transpose --n 1000 --size 64", "transpose") == 0);
    ASSERT(shares_sizes("vkbench run copy reduce", "copy") == 0);
}

/* A group named ten times and a family named twice run once each (was: a stack overflow); unknown names. */
static void test_family_groups(void)
{
    vkb_args a;
    vkb_selection s;
    char err[300];
    int memory = 0;
    for (int i = 0; i < vkb_family_count; i++)
        memory += strncmp(vkb_families[i]->name, "memory.", 7) == 0;
    ASSERT(parse(&a, "vkbench run memory memory memory memory memory memory memory memory memory memory copy") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == 0);
    ASSERT(s.nfams == memory + 1);
    vkb_selection_free(&s);
    ASSERT(parse(&a, "vkbench run nosuch") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == -1 && strstr(err, "unknown family 'nosuch'"));
    vkb_selection_free(&s);
    ASSERT(parse(&a, "vkbench run copy --variant nosuch") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == -1 && strstr(err, "unknown variant 'nosuch'"));
    vkb_selection_free(&s);
    /* a typo gets "did you mean"; a name far from every one gets none */
    ASSERT(parse(&a, "vkbench run trasnpose") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == -1 &&
           strstr(err, "unknown family 'trasnpose' (did you mean transpose?); families: "));
    vkb_selection_free(&s);
    ASSERT(parse(&a, "vkbench run Reduce") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == -1 && strstr(err, "(did you mean reduce?)"));
    vkb_selection_free(&s);
    ASSERT(parse(&a, "vkbench run nosuch") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == -1 && !strstr(err, "did you mean"));
    vkb_selection_free(&s);
    ASSERT(parse(&a, "vkbench run copy --variant vec5") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == -1 &&
           strstr(err, "unknown variant 'vec5' (did you mean vec4?)"));
    vkb_selection_free(&s);
    ASSERT(parse(&a, "vkbench run transpose --variant transpose/padde") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == -1 && strstr(err, "(did you mean transpose/padded?)"));
    vkb_selection_free(&s);
    /* --variant that leaves a named family with nothing to run: an error naming it (was: dropped unsaid) */
    ASSERT(parse(&a, "vkbench run copy reduce --variant vec4_i32") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == -1 && strstr(err, "leaves copy with nothing to run"));
    vkb_selection_free(&s);
    ASSERT(parse(&a, "vkbench run transpose reduce --variant reduce/vec4,transpose/naive") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == 0 && s.nfams == 2);
    vkb_selection_free(&s);
    /* a group keeps the families the filter leaves something in; every family when none is named */
    ASSERT(parse(&a, "vkbench run memory --variant aos12") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == 0 && s.nfams == 1);
    vkb_selection_free(&s);
    ASSERT(parse(&a, "vkbench validate --variant vec4_i32") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == 0 && s.nfams == 1);
    vkb_selection_free(&s);
}

/* --spec: a name no selected kernel's shader has is an error; one that some have is taken (the others skip) */
static void test_spec_names(void)
{
    vkb_args a;
    vkb_selection s;
    char err[400];
    ASSERT(parse(&a, "vkbench run transpose --spec BX=7") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == -1 && strstr(err, "constant BX") && strstr(err, "TILE"));
    vkb_selection_free(&s);
    ASSERT(parse(&a, "vkbench run matmul --variant naive,dbuf --spec BM=64") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == 0);
    vkb_selection_free(&s);
    ASSERT(parse(&a, "vkbench run matmul --variant naive --spec BM=64") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == -1 && strstr(err, "constant BM"));
    vkb_selection_free(&s);
    ASSERT(parse(&a, "vkbench run transpose --spec 0=64,TILE=16") == 0); /* a SpecId the shaders have */
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == 0);
    vkb_selection_free(&s);
    /* a SpecId number no selected shader has (the driver would ignore it, the plan would read it), one past 64
     * bits, and one written with a leading zero (decimal: 010 is 10): each refused, its ids named */
    ASSERT(parse(&a, "vkbench run copy --spec 7=64") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == -1 && strstr(err, "SpecId 7;") &&
           strstr(err, "SpecIds 0 1 2 3,"));
    vkb_selection_free(&s);
    ASSERT(parse(&a, "vkbench run copy --spec 18446744073709551616=64") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == -1 && strstr(err, "SpecId 18446744073709551616"));
    vkb_selection_free(&s);
    ASSERT(parse(&a, "vkbench run transpose --spec 009=1") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == 0); /* transpose's DEPTH */
    vkb_selection_free(&s);
    ASSERT(parse(&a, "vkbench run copy --spec 003=4") == 0);
    ASSERT(vkb_selection_families(&a, &s, err, sizeof err) == 0); /* copy's WORDS */
    vkb_selection_free(&s);
}

/* the runner's own progress lines off: the tests read its events */
static int quiet(void)
{
    vkb_quiet = 1;
    return 0;
}

UNIT_TESTS_SETUP(quiet, {"count", test_count}, {"peak_values", test_peak_values},
                 {"suite_past_cache", test_suite_past_cache}, {"ceilings_first", test_ceilings_first},
                 {"events", test_events}, {"input_cache", test_input_cache}, {"cross_backend", test_cross_backend},
                 {"cross_backend_spans", test_cross_backend_spans}, {"suspect", test_suspect},
                 {"suspect_other_clock", test_suspect_other_clock}, {"stream_ceiling", test_stream_ceiling},
                 {"suspect_shader_copy", test_suspect_shader_copy}, {"fallback_theory", test_fallback_theory},
                 {"interrupt", test_interrupt}, {"fatal_ends_sinks", test_fatal_ends_sinks},
                 {"device_error", test_device_error}, {"device_error_several", test_device_error_several},
                 {"device_stopped", test_device_stopped}, {"device_stopped_several", test_device_stopped_several},
                 {"size_cubic", test_size_cubic}, {"flags_per_family", test_flags_per_family},
                 {"flags_scoped_one_dim", test_flags_scoped_one_dim}, {"flags_one_meaning", test_flags_one_meaning},
                 {"family_groups", test_family_groups}, {"spec_names", test_spec_names},
                 {"repeat_rounds", test_repeat_rounds}, {"suspect_rounds", test_suspect_rounds},
                 {"device_compare", test_device_compare}, {"ceiling_choice", test_ceiling_choice},
                 {"ceiling_choice_lower", test_ceiling_choice_lower}, {"cross_counts", test_cross_counts},
                 {"device_compare_cannot", test_device_compare_cannot},
                 {"device_compare_disagrees", test_device_compare_disagrees},
                 {"suspect_tensor_int8", test_suspect_tensor_int8}, {"poison_word", test_poison_word})
