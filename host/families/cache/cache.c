/* cache.c - the cache families, over footprints from 1 KiB to past the last-level cache: cache.chase, a pointer
 * chase through a random cycle (ns per dependent load: the steps give each level's size and latency), and
 * cache.read, the read bandwidth of the same footprints (GB/s: the knee gives the last-level cache's size). The
 * chase's final index is checked against the host's walk of the cycle; the read's sum exactly. */
#include <stdio.h>
#include <stdlib.h>

#include "cache/rows.h"
#include "family.h"
#include "fault.h"
#include "inputs.h"
#include "util.h"

#define LOCAL 256u
#define ELEMENT_BYTES (CACHE_CHASE_STRIDE * 4u)
#define CHASE_HOPS 8192u /* a DRAM chase of ~0.35 us a load: 3 ms a run, a launch's cost a thousandth */
/* what one run of cache.read reads at least: 13 us from an H100's L2, where a dispatch costs 2 us; a CPU
 * implementation reads 1-10 GB/s, and the default suite runs it once or twice */
#define READ_BYTES_GPU (256ull << 20)
#define READ_BYTES_CPU (16ull << 20)
#define READ_GROUPS 1024u /* 256 Ki invocations: an H100's 132 SMs hold 270 Ki */
#define READ_THREADS ((uint64_t)READ_GROUPS * LOCAL)
#define SWEEP_FIRST 1024ll           /* footprints from 1 KiB, two a power of two (x1, x1.5) */
#define SWEEP_LAST_GPU (512ll << 20) /* where nothing says how large the last-level cache is */
#define SWEEP_LAST_CPU (64ll << 20)

#define ROW(name, shader, note) {#name, #shader, {LOCAL, 1, 1}, {0}, 0, 0, 0, FLAGS, note, NULL},
#define FLAGS VKB_VAR_NONDETERMINISTIC /* the chase goes on from where the last run stopped */
static const vkb_variant chase_variants[] = {CACHE_CHASE_ROWS(ROW)};
#undef FLAGS
#define FLAGS 0
static const vkb_variant read_variants[] = {CACHE_READ_ROWS(ROW)};

/* The footprints: one past the last-level cache first (the default suite's one: DRAM), then the sweep from
 * 1 KiB up to 4x the last-level cache where the driver or CUDA reports it (rounded up to a power of two), else to
 * SWEEP_LAST_*. Never from vkbench's own probe (cache_measured): a probe that read a wrong size would change the
 * rows, and two nodes of one model would run different ones. */
static int default_shapes(const vkb_caps *caps, vkb_shape *out, int max)
{
    int64_t last = caps->is_cpu ? SWEEP_LAST_CPU : SWEEP_LAST_GPU;
    int count = 0;
    if (caps->cache_bytes && !caps->cache_measured) {
        last = SWEEP_FIRST;
        while ((uint64_t)last < 4 * caps->cache_bytes)
            last *= 2;
    }
    out[count++] = (vkb_shape){{last}};
    for (int64_t f = SWEEP_FIRST; f < last && count + 2 <= max; f *= 2) {
        out[count++] = (vkb_shape){{f}};
        out[count++] = (vkb_shape){{f + f / 2}};
    }
    return count;
}

static int battery(vkb_shape *out, int max)
{
    static const int64_t n[] = {128, 192, 4160, 65536 + 64, 1 << 20};
    int count = 0;
    for (size_t i = 0; i < VKB_COUNT(n) && count < max; i++)
        out[count++] = (vkb_shape){{n[i]}};
    return count;
}

typedef struct cache_case {
    uint64_t bytes;
    uint32_t *src; /* the footprint: the chase's links, or the words read */
    uint32_t *out; /* the chase's final index, or the read's partial sums */
} cache_case;

/* Whether BYTES is a footprint the kernels take: VKB_PLAN_OK, VKB_PLAN_BAD_REQUEST (not whole elements, fewer
 * than 2) or VKB_PLAN_TOO_LARGE (past the kernels' 32-bit word index: exit 4, as README.md says). */
static int footprint_check(uint64_t bytes, char *why, size_t len)
{
    if (bytes % ELEMENT_BYTES != 0 || bytes < 2 * ELEMENT_BYTES)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "n=%llu bytes: a footprint is whole 64-byte elements, "
                             "at least 2 of them",
                             (unsigned long long)bytes);
    if (bytes / 4 > UINT32_MAX)
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,
                             "n=%llu bytes: past the kernels' 32-bit index (at most "
                             "2^32 - 1 words, 16 GiB); try a smaller size",
                             (unsigned long long)bytes);
    return VKB_PLAN_OK;
}

static int footprint_ok(uint64_t bytes, char *why, size_t len)
{
    return footprint_check(bytes, why, len) == VKB_PLAN_OK;
}

/* A random cyclic permutation of the elements (Sattolo's algorithm: one cycle through all of them), as links. */
static void *chase_create(const vkb_shape *s, uint64_t seed, char *why, size_t len)
{
    uint64_t bytes = (uint64_t)s->d[0], n = bytes / ELEMENT_BYTES;
    uint32_t *perm;
    cache_case *c;
    vkb_rng rng;
    if (!footprint_ok(bytes, why, len))
        return NULL;
    vkb_host_reserve(bytes + 4 * n, "cache.chase");
    c = vkb_calloc(1, sizeof *c + bytes + 4);
    c->bytes = bytes;
    c->src = (uint32_t *)(c + 1);
    c->out = c->src + bytes / 4;
    perm = vkb_alloc(n * sizeof *perm);
    for (uint64_t i = 0; i < n; i++)
        perm[i] = (uint32_t)i;
    vkb_rng_seed(&rng, seed);
    for (uint64_t i = n - 1; i > 0; i--) {
        uint64_t j = vkb_rng_u64(&rng) % i;
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (uint64_t w = 0; w < bytes / 4; w++) /* the words no hop reads: seeded noise, not zeros */
        c->src[w] = (uint32_t)vkb_rng_u64(&rng);
    for (uint64_t e = 0; e < n; e++) /* element e links to element perm[e]: one cycle (Sattolo) */
        c->src[e * CACHE_CHASE_STRIDE] = perm[e] * CACHE_CHASE_STRIDE;
    free(perm);
    return c;
}

static void fill_words(void *ctx, vkb_rng *rng, uint64_t chunk, uint64_t first, uint64_t end)
{
    cache_case *c = ctx;
    (void)chunk;
    for (uint64_t i = first; i < end; i++)
        c->src[i] = (uint32_t)vkb_rng_u64(rng);
}

static void *read_create(const vkb_shape *s, uint64_t seed, char *why, size_t len)
{
    uint64_t bytes = (uint64_t)s->d[0];
    cache_case *c;
    vkb_rng rng;
    if (!footprint_ok(bytes, why, len))
        return NULL;
    vkb_host_reserve(bytes + READ_THREADS * 4, "cache.read");
    c = vkb_calloc(1, sizeof *c + bytes + READ_THREADS * 4);
    c->bytes = bytes;
    c->src = (uint32_t *)(c + 1);
    c->out = c->src + bytes / 4;
    vkb_rng_seed(&rng, seed);
    vkb_input_fill(&rng, bytes / 4, 1, fill_words, c);
    return c;
}

static int chase_plan(const vkb_variant *v, const vkb_case *vc, const vkb_caps *caps, vkb_plan *p, char *why,
                      size_t len)
{
    cache_case *c = vc->data;
    uint64_t bytes = (uint64_t)vc->shape.d[0];
    static const uint32_t one[3] = {1, 1, 1};
    cache_chase_push push;
    vkb_pass *pass;
    int b[2];
    int fit = footprint_check(bytes, why, len);
    if (fit != VKB_PLAN_OK)
        return fit;
    push.words = (uint32_t)(bytes / 4);
    (void)caps;
    push.hops = CHASE_HOPS;
    p->check_depth = push.hops;  /* the hops the check walks */
    if (vkb_fault("chase-skip")) /* a chase one hop short (tests) */
        push.hops--;
    b[0] = vkb_plan_buffer_add(p, bytes, VKB_BUF_INPUT, c ? c->src : NULL);
    b[1] = vkb_plan_buffer_add(p, 4, VKB_BUF_OUTPUT, c ? c->out : NULL);
    pass = vkb_plan_dispatch(p, v->kernel, v->local, one);
    vkb_pass_bind(pass, 2, b);
    vkb_pass_push(pass, &push, sizeof push);
    return VKB_PLAN_OK;
}

/* cache.read's loads per invocation at BYTES on CAPS: the footprint at least once, READ_BYTES_* at least */
static cache_read_push read_push(uint64_t bytes, const vkb_caps *caps)
{
    uint64_t vec4s = bytes / 16, target = (caps->is_cpu ? READ_BYTES_CPU : READ_BYTES_GPU) / 16;
    cache_read_push push;
    push.vec4s = (uint32_t)vec4s;
    push.loads = (uint32_t)(((vec4s > target ? vec4s : target) + READ_THREADS - 1) / READ_THREADS);
    push.step = (uint32_t)(READ_THREADS % vec4s);
    return push;
}

static int read_plan(const vkb_variant *v, const vkb_case *vc, const vkb_caps *caps, vkb_plan *p, char *why, size_t len)
{
    cache_case *c = vc->data;
    uint64_t bytes = (uint64_t)vc->shape.d[0];
    cache_read_push push;
    uint32_t groups[3] = {READ_GROUPS, 1, 1};
    vkb_pass *pass;
    int b[2];
    int fit = footprint_check(bytes, why, len);
    if (fit != VKB_PLAN_OK)
        return fit;
    push = read_push(bytes, caps);
    b[0] = vkb_plan_buffer_add(p, bytes, VKB_BUF_INPUT, c ? c->src : NULL);
    b[1] = vkb_plan_buffer_add(p, READ_THREADS * 4, VKB_BUF_OUTPUT, c ? c->out : NULL);
    pass = vkb_plan_dispatch(p, v->kernel, v->local, groups);
    vkb_pass_bind(pass, 2, b);
    vkb_pass_push(pass, &push, sizeof push);
    p->check_depth = READ_THREADS * push.loads; /* the loads, for the check's count of each vec4's reads */
    p->work = (double)p->check_depth * 16;      /* bytes read */
    return VKB_PLAN_OK;
}

static double chase_work(const vkb_variant *v, const vkb_case *c)
{
    (void)v;
    (void)c;
    return CHASE_HOPS; /* dependent loads */
}

static double read_work(const vkb_variant *v, const vkb_case *c)
{
    (void)v;
    (void)c;
    return 0; /* the plan's (vkb_plan.work): how much a run reads depends on the device */
}

static void chase_check(const vkb_variant *v, const vkb_case *vc, const vkb_plan *p, vkb_check *res)
{
    const cache_case *c = vc->data;
    uint32_t j = 0;
    (void)v;
    for (uint64_t h = 0; h < p->check_depth; h++)
        j = c->src[j];
    vkb_check_init(res, "exact: the index after every hop of the host's walk");
    vkb_check_words(res, c->out, &j, 1);
    vkb_check_finish(res);
}

static void read_check(const vkb_variant *v, const vkb_case *vc, const vkb_plan *p, vkb_check *res)
{
    const cache_case *c = vc->data;
    uint64_t vec4s = c->bytes / 16, loads = p->check_depth, threads = p->buf[1].bytes / 4;
    uint64_t q = loads / vec4s, r = loads % vec4s;
    uint32_t all = 0, prefix = 0, want, got = 0;
    (void)v;
    /* load i of the whole dispatch reads vec4 (i mod vec4s): each is read q times, the first r once more */
    for (uint64_t i = 0; i < vec4s; i++) {
        uint32_t s = c->src[4 * i] + c->src[4 * i + 1] + c->src[4 * i + 2] + c->src[4 * i + 3];
        all += s;
        if (i < r)
            prefix += s;
    }
    want = (uint32_t)q * all + prefix;
    for (uint64_t t = 0; t < threads; t++)
        got += c->out[t];
    vkb_check_init(res, "exact: the partial sums' total, modulo 2^32");
    vkb_check_words(res, &got, &want, 1);
    vkb_check_finish(res);
}

const vkb_family vkb_family_cache_chase = {
    "cache.chase",
    "pointer chase over a footprint: latency of each cache level and of DRAM",
    {"n"},
    1,
    "ns/load",
    chase_variants,
    (int)VKB_COUNT(chase_variants),
    default_shapes,
    battery,
    chase_create,
    free,
    chase_plan,
    chase_work,
    chase_check,
    NULL,
    NULL,
    1,
    .units = {"bytes"},
};

const vkb_family vkb_family_cache_read = {
    "cache.read",
    "read bandwidth over a footprint: the knee is the last-level cache",
    {"n"},
    1,
    "GB/s",
    read_variants,
    (int)VKB_COUNT(read_variants),
    default_shapes,
    battery,
    read_create,
    free,
    read_plan,
    read_work,
    read_check,
    NULL,
    NULL,
    0,
    .units = {"bytes"},
};
