/* memory.c - the memory families: each rule of the memory performance guide that decides memory speed, measured on the
 * device at hand, beside the fraction of the ceiling the rule predicts.
 *
 * Each rule sweeps its own knob, so each is a family of its own (all share this file, and `vkbench run
 * memory` runs them all): memory.width (--width), memory.offset (--offset), memory.stride (--stride),
 * memory.aos_soa, memory.shared_stride (--stride), memory.shared_broadcast, memory.uniform. Global families
 * are measured in GB/s of useful bytes against the API copy; shared families in GB/s of words read from
 * shared memory (accesses/ns = GB/s / 4) against the conflict-free case of the same run; memory.uniform in
 * GB/s of words read from a 4 KiB table (accesses/ns = GB/s / 4), as a uniform buffer (CUDA: __constant__
 * memory) or a storage buffer (CUDA: global memory), each against its same-address case: the guide's rule
 * "constant memory is fast only when every thread reads the same address" predicts that distinct addresses
 * are served one by one, 1 / subgroup size of the broadcast, and that a storage buffer does not care. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "inputs.h"
#include "memory/rows.h"
#include "memory_model.h"
#include "parallel.h"
#include "util.h"

enum { WIDTH, OFFSET, STRIDE, LAYOUT, SHARED, BROADCAST, UNIFORM };

#define LOCAL 256u
#define STRIDE_PER_THREAD 64u    /* memory.stride: elements each thread sums (the partial sums are ~1.5%) */
#define SHARED_ITERS 64u         /* loop trips: 1024 loads per thread (shared and uniform kernels) */
#define SHARED_OFFSET_MASK 1536u /* per-trip offset (trip << 9) & mask: 0, 512, 1024, 1536 words */
#define UNIFORM_TRIP_MASK 384u   /* per-trip offset (trip << 7) & mask: 0, 128, 256, 384 words; max word 991 */
#define MAX_GROUPS 65535u        /* the grid every Vulkan device allows; kernels loop past it */

typedef struct mem_case {
    int kind;
    uint64_t n, knob; /* n and the swept value (width bytes, offset, stride); 0 where none */
    uint32_t *src, *dst;
    uint64_t src_words, dst_words;
} mem_case;

/* ---- variant tables: the rows of host/families/memory/rows.h ---- */

#define API_COPY                                                                                                       \
    VKB_API_COPY_ROW("vkCmdCopyBuffer / cudaMemcpy device-to-device: with stream_copy, the ceiling"),                  \
        VKB_STREAM_COPY_ROW

/* the shared kernels' access modes: thread t reads shared[((t % MOD) * MUL) & 1023 + offsets] (shared_mode) */
enum { SH_STRIDE, SH_ONE, SH_DISTINCT, SH_SAME, SH_FEW, SH_FEW_BANK };
/* memory.uniform: param bits; the kernel (uniform or storage buffer) follows UN_CONSTANT */
enum { UN_DIVERGENT = 1, UN_CONSTANT = 2 };

#define ROW(name, shader, param, flags, note, ceiling)                                                                 \
    {#name, #shader, {LOCAL, 1, 1}, {0}, 0, param, 0, flags, note, ceiling},
/* memory.aos_soa: spec {FIELDS, REC} (mem_soa reads FIELDS only) */
#define LAYOUT_ROW(name, shader, fields, rec, note)                                                                    \
    {#name, #shader, {LOCAL, 1, 1}, {fields, rec}, MEM_NSPEC_##shader, 0, 0, 0, note},

static const vkb_variant width_variants[] = {MEM_WIDTH_ROWS(ROW) API_COPY};
static const vkb_variant offset_variants[] = {MEM_OFFSET_ROWS(ROW) API_COPY};
static const vkb_variant stride_variants[] = {MEM_STRIDE_ROWS(ROW) API_COPY};
static const vkb_variant layout_variants[] = {MEM_LAYOUT_ROWS(LAYOUT_ROW) API_COPY};
static const vkb_variant shared_variants[] = {MEM_SHARED_ROWS(ROW)};
static const vkb_variant broadcast_variants[] = {MEM_BROADCAST_ROWS(ROW)};
static const vkb_variant uniform_variants[] = {MEM_UNIFORM_ROWS(ROW)};

/* ---- shapes ---- */

static int add_shapes(vkb_shape *out, int count, int max, const int64_t *n, int nn, const int64_t *k, int nk)
{
    for (int i = 0; i < nn; i++)
        for (int j = 0; j < (nk ? nk : 1) && count < max; j++)
            out[count++] = (vkb_shape){{n[i], nk ? k[j] : 0}};
    return count;
}

/* --width: the bytes of mem_width's elements (rows.h) */
#define WIDTH_BYTES(words) 4 * (words),
static const int64_t widths[] = {MEM_WIDTH_WORDS(WIDTH_BYTES)};

/* words (records) of the copy-like families' shapes on a CPU implementation, sized for time: the defaults there and
 * the suite's smallest size anywhere */
#define COPY_CPU_WORDS (1 << 20)
#define STRIDE_CPU_WORDS (1 << 16)

static int width_defaults(const vkb_caps *caps, vkb_shape *out, int max)
{
    int64_t n = caps->is_cpu ? COPY_CPU_WORDS : 1 << 28; /* words: 1 GiB each way on a GPU */
    return add_shapes(out, 0, max, &n, 1, widths, (int)VKB_COUNT(widths));
}

static int width_battery(vkb_shape *out, int max)
{
    static const int64_t n[] = {1, 3, 5, 7, 257, 1027, 4099};
    return add_shapes(out, 0, max, n, (int)VKB_COUNT(n), widths, (int)VKB_COUNT(widths));
}

/* Whether K bytes is one of the widths mem_width is built for. */
static int width_known(uint64_t k)
{
    for (size_t i = 0; i < VKB_COUNT(widths); i++)
        if (k == (uint64_t)widths[i])
            return 1;
    return 0;
}

static int offset_defaults(const vkb_caps *caps, vkb_shape *out, int max)
{
    static const int64_t cpu_k[] = {0, 1, 2, 4, 8, 16, 31, 32};
    int64_t k[33], n = caps->is_cpu ? COPY_CPU_WORDS : 1 << 26; /* 256 MiB each way, past the L2 */
    if (caps->is_cpu)
        return add_shapes(out, 0, max, &n, 1, cpu_k, (int)VKB_COUNT(cpu_k));
    for (int i = 0; i <= 32; i++)
        k[i] = i;
    return add_shapes(out, 0, max, &n, 1, k, 33);
}

static int offset_battery(vkb_shape *out, int max)
{
    static const int64_t n[] = {1, 2, 257, 1027}, k[] = {0, 1, 3, 32};
    return add_shapes(out, 0, max, n, (int)VKB_COUNT(n), k, (int)VKB_COUNT(k));
}

static int stride_defaults(const vkb_caps *caps, vkb_shape *out, int max)
{
    static const int64_t s[] = {1, 2, 3, 4, 8, 16, 32, 33};
    int64_t n = caps->is_cpu ? STRIDE_CPU_WORDS : 1 << 24; /* 64 MiB summed; the buffer is 33x that at s = 33 */
    return add_shapes(out, 0, max, &n, 1, s, (int)VKB_COUNT(s));
}

static int stride_battery(vkb_shape *out, int max)
{
    static const int64_t n[] = {1, 257, 5000, 20000}, s[] = {1, 2, 3, 32, 33};
    return add_shapes(out, 0, max, n, (int)VKB_COUNT(n), s, (int)VKB_COUNT(s));
}

static int layout_defaults(const vkb_caps *caps, vkb_shape *out, int max)
{
    int64_t n = caps->is_cpu ? 1 << 16 : 1 << 24; /* records: up to 512 MiB each way padded to 32 bytes */
    return add_shapes(out, 0, max, &n, 1, NULL, 0);
}

static int layout_battery(vkb_shape *out, int max)
{
    static const int64_t n[] = {1, 7, 257, 1025, 5003};
    return add_shapes(out, 0, max, n, (int)VKB_COUNT(n), NULL, 0);
}

/* Threads of the shared-memory and uniform families' shapes: 2^30 loads on a GPU */
static int64_t shared_threads(const vkb_caps *caps)
{
    return caps->is_cpu ? 1024 : 1 << 20;
}

static int shared_defaults(const vkb_caps *caps, vkb_shape *out, int max)
{
    static const int64_t cpu_s[] = {1, 2, 3, 4, 8, 16, 32, 33};
    int64_t s[33], n = shared_threads(caps);
    if (caps->is_cpu)
        return add_shapes(out, 0, max, &n, 1, cpu_s, (int)VKB_COUNT(cpu_s));
    for (int i = 0; i < 33; i++)
        s[i] = i + 1;
    return add_shapes(out, 0, max, &n, 1, s, 33);
}

static int shared_battery(vkb_shape *out, int max)
{
    static const int64_t n[] = {1, 255, 257, 1000}, s[] = {1, 2, 3, 32, 33};
    return add_shapes(out, 0, max, n, (int)VKB_COUNT(n), s, (int)VKB_COUNT(s));
}

static int broadcast_defaults(const vkb_caps *caps, vkb_shape *out, int max)
{
    int64_t n = shared_threads(caps);
    return add_shapes(out, 0, max, &n, 1, NULL, 0);
}

static int broadcast_battery(vkb_shape *out, int max)
{
    static const int64_t n[] = {1, 255, 257, 1000};
    return add_shapes(out, 0, max, n, (int)VKB_COUNT(n), NULL, 0);
}

/* memory.uniform: n threads, as memory.shared_broadcast */
#define uniform_defaults broadcast_defaults
#define uniform_battery broadcast_battery

/* ---- the default suite's points: the few shapes that show each rule ---- */

/* N of a suite point on CAPS: the smallest power of two from FLOOR at which the least working set of the point's
 * rows, LEAST bytes per word (its kernel's, its ceiling copy's), reaches PAST, while the point's buffers, MOST
 * bytes per word, stay within a quarter of the device's memory and its largest buffer (the suite must fit
 * every device; a point held below PAST there may measure partly cache). */
static int64_t suite_n(const vkb_caps *caps, double past, double least, double most, int64_t floor)
{
    double room = caps->device_memory_bytes ? (double)caps->device_memory_bytes / 4 : INFINITY;
    int64_t n = floor;
    if (caps->max_buffer_bytes && (double)caps->max_buffer_bytes < room)
        room = (double)caps->max_buffer_bytes;
    while ((double)n * least < past && 2.0 * (double)n * most <= room)
        n *= 2;
    return n;
}

/* memory.width: every element width, n words read and n written (the kernel's and the copy ceiling's) */
static int width_suite(const vkb_caps *caps, double past, vkb_shape *out, int max)
{
    int64_t n = suite_n(caps, past, 8, 8, COPY_CPU_WORDS);
    return add_shapes(out, 0, max, &n, 1, widths, (int)VKB_COUNT(widths));
}

/* memory.offset: aligned, one word off, one 128-byte line off (aligned again) and one word past a line */
static int offset_suite(const vkb_caps *caps, double past, vkb_shape *out, int max)
{
    static const int64_t k[] = {0, 1, 32, 33};
    int64_t n = suite_n(caps, past, 8, 8, COPY_CPU_WORDS);
    return add_shapes(out, 0, max, &n, 1, k, (int)VKB_COUNT(k));
}

/* memory.stride: the useful bandwidth halves with each doubling up to a 32-byte sector per word (s = 8), and s = 32
 * puts each word in a 128-byte line of its own. A point's copy ceiling reads and writes n words; its kernel spans
 * 4 s bytes a word: at s = 1 the kernel's span alone binds, so that point has twice the words of the others. */
static int stride_suite(const vkb_caps *caps, double past, vkb_shape *out, int max)
{
    static const int64_t s[] = {1, 2, 4, 8, 32};
    int count = 0;
    for (size_t i = 0; i < VKB_COUNT(s); i++) {
        double span = 4.0 * (double)s[i];
        int64_t n = suite_n(caps, past, fmin(span, 8), span + 4, STRIDE_CPU_WORDS);
        count = add_shapes(out, count, max, &n, 1, &s[i], 1);
    }
    return count;
}

/* memory.shared_stride: conflict degrees 2, 4, 8 and 32 (gcd(s, 32 banks)) and an odd stride, conflict-free; each
 * beside the stride-1 ceiling. Shared memory is no cache: the default n. */
static int shared_suite(const vkb_caps *caps, double past, vkb_shape *out, int max)
{
    static const int64_t s[] = {2, 4, 8, 32, 33};
    int64_t n = shared_threads(caps);
    (void)past;
    return add_shapes(out, 0, max, &n, 1, s, (int)VKB_COUNT(s));
}

/* one point each: the rows are the rule (layouts, broadcasts, uniform against storage), the suite's own rule sizes it */
#define layout_suite NULL
#define broadcast_suite NULL
#define uniform_suite NULL

/* ---- cases ---- */

/* Threads of memory.stride's grid: each sums STRIDE_PER_THREAD elements, the grid capped at MAX_GROUPS. */
static uint64_t stride_threads(uint64_t n)
{
    uint64_t groups = (n + LOCAL * STRIDE_PER_THREAD - 1) / (LOCAL * STRIDE_PER_THREAD);
    return (groups > MAX_GROUPS ? MAX_GROUPS : groups) * LOCAL;
}

typedef struct random_words {
    uint32_t *w;
    uint64_t count;
} random_words;

/* Pairs [FIRST, END) of words: one draw fills two. */
static void fill_pairs(void *ctx, vkb_rng *rng, uint64_t chunk, uint64_t first, uint64_t end)
{
    const random_words *rw = ctx;
    (void)chunk;
    for (uint64_t p = first; p < end; p++) {
        uint64_t r = vkb_rng_u64(rng);
        rw->w[2 * p] = (uint32_t)r;
        if (2 * p + 1 < rw->count)
            rw->w[2 * p + 1] = (uint32_t)(r >> 32);
    }
}

static void fill_random(uint32_t *w, uint64_t count, uint64_t seed)
{
    random_words rw = {w, count};
    vkb_rng rng;
    vkb_rng_seed(&rng, seed);
    vkb_input_fill(&rng, (count + 1) / 2, 1, fill_pairs, &rw);
}

/* Words of the source and destination buffers of a case of KIND at S: a VKB_PLAN_* outcome, with WHY. */
static int case_words(int kind, const vkb_shape *s, uint64_t *src, uint64_t *dst, char *why, size_t len)
{
    uint64_t n = (uint64_t)s->d[0], k = (uint64_t)s->d[1];
    *src = *dst = 0;
    switch (kind) {
    case WIDTH:
        if (!width_known(k))
            return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST, "--width is 4, 8 or 16 bytes, not %llu",
                                 (unsigned long long)k);
        *src = *dst = n;
        break;
    case OFFSET:
        *src = n + k;
        *dst = n;
        break;
    case STRIDE:
        if (k < 1 || k > UINT32_MAX || (n > 1 && (n - 1) > (UINT32_MAX - 1) / k))
            return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,
                                 "--stride %llu at n=%llu: the kernel indexes with 32 "
                                 "bits, so (n - 1) * stride < 2^32; try a smaller n or stride",
                                 (unsigned long long)k, (unsigned long long)n);
        *src = (n - 1) * k + 1;
        *dst = n > stride_threads(n) ? n : stride_threads(n); /* the kernel's partial sums, or the copy */
        break;
    case LAYOUT:
        *src = *dst = vkb_mul_sat(8, n); /* the largest record, 8 words padded */
        break;
    case SHARED:
    case BROADCAST:
    case UNIFORM:
        if (n > (uint64_t)MAX_GROUPS * LOCAL)
            return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE, "n=%llu: at most %u threads; try a smaller n",
                                 (unsigned long long)n, MAX_GROUPS * LOCAL);
        if (k > UINT32_MAX)
            return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,
                                 "--stride %llu: the kernel multiplies with 32 bits, "
                                 "so at most 2^32 - 1 (and only stride mod 1024 matters)",
                                 (unsigned long long)k);
        *src = kind == UNIFORM ? MEM_UNIFORM_WORDS : MEM_SHARED_WORDS;
        *dst = n;
        break;
    }
    if (*src >= 1ull << 32 || *dst >= 1ull << 32)
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,
                             "more than 2^32 words in a buffer (the kernels index "
                             "with 32 bits); try a smaller size");
    return VKB_PLAN_OK;
}

static void *case_create(int kind, const vkb_shape *s, uint64_t seed, char *why, size_t len)
{
    mem_case *c;
    uint64_t src, dst;
    if (case_words(kind, s, &src, &dst, why, len) != VKB_PLAN_OK)
        return NULL;
    vkb_host_reserve(4 * (src + dst), "memory");
    /* one block, freed by free(): the case, src, then dst, last so that a write past it leaves the block */
    c = vkb_alloc(sizeof *c + 4 * (src + dst));
    c->kind = kind;
    c->n = (uint64_t)s->d[0];
    c->knob = (uint64_t)s->d[1];
    c->src_words = src;
    c->dst_words = dst;
    c->src = (uint32_t *)(c + 1);
    c->dst = c->src + src;
    fill_random(c->src, src, seed);
    return c;
}

/* ---- plans ---- */

/* Words each variant of memory.aos_soa copies: n records as stored. */
static uint64_t layout_words(const vkb_variant *v, uint64_t n)
{
    return n * (v->nspec == 2 ? v->spec[1] : v->spec[0]);
}

/* (MUL, MOD) of a shared variant: thread t reads ((t % MOD) * MUL) & 1023 */
static void shared_mode(const vkb_variant *v, uint64_t stride, uint32_t *mul, uint32_t *mod)
{
    static const uint32_t modes[][2] = {{0, 0}, {1, 0x7fffffff}, {1, 0x7fffffff}, {0, 1}, {1, 4}, {32, 4}};
    *mul = v->param == SH_STRIDE ? (uint32_t)stride : modes[v->param][0];
    *mod = v->param == SH_STRIDE ? 0x7fffffff : modes[v->param][1];
}

/* Which of the memory families C belongs to. */
static int kind_of(const vkb_case *c)
{
    extern const vkb_family vkb_family_memory_width, vkb_family_memory_offset, vkb_family_memory_stride,
        vkb_family_memory_aos_soa, vkb_family_memory_shared_stride, vkb_family_memory_shared_broadcast;
    const vkb_family *f = c->family;
    return f == &vkb_family_memory_width              ? WIDTH
           : f == &vkb_family_memory_offset           ? OFFSET
           : f == &vkb_family_memory_stride           ? STRIDE
           : f == &vkb_family_memory_aos_soa          ? LAYOUT
           : f == &vkb_family_memory_shared_stride    ? SHARED
           : f == &vkb_family_memory_shared_broadcast ? BROADCAST
                                                      : UNIFORM;
}

/* memory.aos_soa's constants: FIELDS (and REC, the words per stored record) within the 8 words per record the
 * inputs hold, and a packed record as wide as its fields (the check compares every stored word). */
static int layout_check(const vkb_variant *v, char *why, size_t len)
{
    uint32_t fields = v->spec[0], rec = v->nspec == 2 ? v->spec[1] : fields;
    if (fields < 1 || rec > 8 || fields > rec || (rec % 4 != 0 && rec != fields))
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "FIELDS=%u, REC=%u: 1 <= FIELDS <= REC <= 8, and a "
                             "record not padded to a multiple of 4 words has REC = FIELDS",
                             fields, rec);
    return VKB_PLAN_OK;
}

static int plan(const vkb_variant *v, const vkb_case *vc, const vkb_caps *caps, vkb_plan *p, char *why, size_t len)
{
    const mem_case *c = vc->data;
    int kind = kind_of(vc), code;
    uint64_t n = (uint64_t)vc->shape.d[0], knob = (uint64_t)vc->shape.d[1], in_words, out_words, items = n;
    uint32_t groups[3] = {1, 1, 1};
    int b[2];
    vkb_pass *pass;
    if ((code = case_words(kind, &vc->shape, &in_words, &out_words, why, len)) != VKB_PLAN_OK)
        return code;
    if (v->local[0] != LOCAL || v->local[1] != 1 || v->local[2] != 1)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "a %ux%ux%u workgroup: the memory kernels' grids, "
                             "checks and predictions assume %ux1x1",
                             v->local[0], v->local[1], v->local[2], LOCAL);
    if (kind == WIDTH && v->nspec != 0) /* the row sets none: --spec WORDS=... did */
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST, "WORDS follows --width; sweep --width 4,8,16");
    if (kind == LAYOUT && (code = layout_check(v, why, len)) != VKB_PLAN_OK)
        return code;
    if (kind == LAYOUT)
        in_words = out_words = layout_words(v, n);
    if (kind == STRIDE)
        out_words = stride_threads(n);
    b[0] = vkb_plan_buffer_add(p, 4 * in_words, VKB_BUF_INPUT, c ? c->src : NULL);
    b[1] = vkb_plan_buffer_add(p, 4 * out_words, VKB_BUF_OUTPUT, c ? c->dst : NULL);
    if (kind == UNIFORM && (v->param & UN_CONSTANT))
        p->buf[b[0]].flags |= VKB_BUF_UNIFORM; /* the limits check skips it where the device's limit is smaller */
    switch (kind) {
    case WIDTH: items = n / (knob / 4); break;
    case STRIDE: groups[0] = (uint32_t)(stride_threads(n) / LOCAL); break;
    case SHARED:
    case BROADCAST:
    case UNIFORM: groups[0] = (uint32_t)((n + LOCAL - 1) / LOCAL); break;
    }
    if (kind != STRIDE && kind != SHARED && kind != BROADCAST && kind != UNIFORM)
        groups[0] = vkb_groups_for(items ? items : 1, v->local[0],
                                   caps->max_group_count[0] < MAX_GROUPS ? caps->max_group_count[0] : MAX_GROUPS);
    pass = vkb_plan_dispatch(p, v->kernel, v->local, groups);
    vkb_pass_bind(pass, 2, b);
    switch (kind) {
    case WIDTH:
    case OFFSET:
    case STRIDE:
    case LAYOUT: {
        mem_push push = {(uint32_t)n, kind == OFFSET || kind == STRIDE ? (uint32_t)knob : 0};
        vkb_pass_push(pass, &push, sizeof push);
        if (kind == WIDTH) {
            pass->spec[0] = (uint32_t)knob / 4;
            pass->nspec = 1;
        } else if (kind == LAYOUT) {
            pass->nspec = v->nspec;
            memcpy(pass->spec, v->spec, sizeof v->spec);
        }
        break;
    }
    case SHARED:
    case BROADCAST: {
        mem_push_shared push = {(uint32_t)n, SHARED_ITERS, 0, 0, SHARED_OFFSET_MASK};
        shared_mode(v, knob, &push.mul, &push.mod);
        vkb_pass_push(pass, &push, sizeof push);
        pass->shared_bytes = MEM_SHARED_WORDS * 4;
        break;
    }
    case UNIFORM: {
        mem_push_uniform push = {(uint32_t)n, SHARED_ITERS, v->param & UN_DIVERGENT ? 1 : 0, UNIFORM_TRIP_MASK};
        vkb_pass_push(pass, &push, sizeof push);
        break;
    }
    }
    return VKB_PLAN_OK;
}

/* The API copy: as many words as the kernels copy (aos_soa: 5 per record, the records' mean). */
static uint64_t copy_io(const vkb_case *vc, const void **src, void **dst)
{
    const mem_case *c = vc->data;
    if (src)
        *src = c ? c->src : NULL;
    if (dst)
        *dst = c ? c->dst : NULL;
    return 4 * (uint64_t)vc->shape.d[0] * (kind_of(vc) == LAYOUT ? 5 : 1);
}

/* ---- work: useful bytes ---- */

static double work(const vkb_variant *v, const vkb_case *vc)
{
    const mem_case *c = vc->data;
    switch (c->kind) {
    case STRIDE: return 4.0 * (double)(c->n + stride_threads(c->n));
    case LAYOUT: return 8.0 * (double)c->n * v->spec[0]; /* FIELDS read and written */
    case SHARED:
    case BROADCAST:
    case UNIFORM: return 4.0 * (double)c->n * SHARED_ITERS * MEM_UNROLL;
    default: return 8.0 * (double)c->n;
    }
}

/* ---- checks ---- */

/* The sum of thread t's loads in the shared and uniform kernels: from word BASE, moved each trip by (trip << SHIFT)
 * & MASK, MEM_UNROLL loads 32 words apart (uint32 arithmetic wraps as on the device). */
static uint32_t trip_sum(const uint32_t *words, uint32_t base, unsigned shift, uint32_t mask)
{
    uint32_t acc = 0;
    for (uint32_t it = 0; it < SHARED_ITERS; it++) {
        uint32_t a = base + ((it << shift) & mask);
        for (uint32_t u = 0; u < MEM_UNROLL; u++)
            acc += words[a + 32 * u];
    }
    return acc;
}

/* memory.stride's reference, thread T's sum REF[T] of elements T, T + threads, ... (each at KNOB words), for
 * a chunk of STRIDE_CHUNK threads on the host's cores (wrapping sums: the same in any order). */
#define STRIDE_CHUNK 4096u
typedef struct stride_run {
    const mem_case *c;
    uint32_t *ref;
    uint64_t threads;
} stride_run;

static void stride_chunk(void *ctx, int64_t chunk)
{
    const stride_run *run = ctx;
    uint64_t t0 = (uint64_t)chunk * STRIDE_CHUNK, t1 = vkb_task_end(chunk, STRIDE_CHUNK, run->threads);
    for (uint64_t base = 0; base + t0 < run->c->n; base += run->threads) /* one element per thread a trip */
        for (uint64_t t = t0; t < t1 && base + t < run->c->n; t++)
            run->ref[t] += run->c->src[(base + t) * run->c->knob];
}

static void check(const vkb_variant *v, const vkb_case *vc, const vkb_plan *p, vkb_check *res)
{
    const mem_case *c = vc->data;
    uint32_t *ref;
    (void)p;
    vkb_check_init(res, "exact");
    if (c->kind == WIDTH) {
        vkb_check_words(res, c->dst, c->src, c->n);
    } else if (c->kind == OFFSET) {
        vkb_check_words(res, c->dst, c->src + c->knob, c->n);
    } else if (c->kind == LAYOUT) {
        vkb_check_words(res, c->dst, c->src, layout_words(v, c->n));
    } else if (c->kind == STRIDE) {
        uint64_t threads = stride_threads(c->n);
        snprintf(res->method, sizeof res->method, "exact (uint32 sums of %u strided words)", STRIDE_PER_THREAD);
        stride_run run = {c, vkb_calloc(threads, 4), threads};
        ref = run.ref;
        vkb_parallel_run(vkb_tasks_of(threads, STRIDE_CHUNK), stride_chunk, &run);
        vkb_check_words(res, c->dst, ref, threads);
        free(ref);
    } else {
        uint32_t local[LOCAL], mul, mod;
        snprintf(res->method, sizeof res->method, "exact (uint32 sums of %u %s loads)", SHARED_ITERS * MEM_UNROLL,
                 c->kind == UNIFORM ? "table" : "shared");
        shared_mode(v, c->knob, &mul, &mod);
        for (uint32_t t = 0; t < LOCAL; t++) /* mem_uniform(_storage): MUL 0 (same) or 1 (divergent) */
            local[t] =
                c->kind == UNIFORM
                    ? trip_sum(c->src, (t * (v->param & UN_DIVERGENT ? 1 : 0)) & MEM_UNIFORM_SPREAD,
                               MEM_UNIFORM_TRIP_SHIFT, UNIFORM_TRIP_MASK)
                    : trip_sum(c->src, ((t % mod) * mul) & MEM_SHARED_SPAN, MEM_SHARED_TRIP_SHIFT, SHARED_OFFSET_MASK);
        ref = vkb_alloc(4 * c->n);
        for (uint64_t i = 0; i < c->n; i++)
            ref[i] = local[i % LOCAL];
        vkb_check_words(res, c->dst, ref, c->n);
        free(ref);
    }
    vkb_check_finish(res);
}

/* ---- predictions: the memory performance guide's rules (memory_model.c) ---- */

/* What the access generator sees: the variant and the shape. */
typedef struct pattern {
    const vkb_variant *v;
    const mem_case *c;
} pattern;

/* Access J of thread I of the global kernels (loads, then stores): vkb_memory_model_access. */
static int global_access(const void *ctx, int j, uint64_t i, unsigned *word, uint64_t *addr, int *active)
{
    const pattern *pt = ctx;
    const vkb_variant *v = pt->v;
    uint64_t n = pt->c->n, k = pt->c->knob;
    switch (pt->c->kind) {
    case WIDTH:
        *word = (unsigned)k;
        *addr = i * k;
        *active = i < n / (k / 4);
        return j < 2;
    case OFFSET:
        *word = 4;
        *addr = 4 * (i + (j == 0 ? k : 0));
        *active = i < n;
        return j < 2;
    case STRIDE:
        *word = 4;
        *addr = 4 * i * k;
        *active = i < n;
        return j < 1; /* the partial sums are 1/64 of the traffic: left out */
    case LAYOUT: {
        unsigned fields = (unsigned)v->spec[0], rec = v->nspec == 2 ? v->spec[1] : fields;
        unsigned per = v->nspec == 1 ? fields : rec % 4 == 0 ? rec / 4 : fields; /* accesses each way */
        int jj = j % (int)per;
        *active = i < n;
        if (v->nspec == 1) {
            *word = 4;
            *addr = 4 * ((uint64_t)jj * n + i);
        } else if (rec % 4 == 0) {
            *word = 16;
            *addr = 16 * (i * (rec / 4) + (uint64_t)jj);
        } else {
            *word = 4;
            *addr = 4 * (i * rec + (uint64_t)jj);
        }
        return j < (int)(2 * per);
    }
    }
    return 0;
}

static double predict(const vkb_variant *v, const vkb_case *vc, const vkb_caps *caps)
{
    const mem_case *c = vc->data;
    uint32_t mul, mod;
    unsigned lanes = caps->subgroup_size && caps->subgroup_size < 32 ? caps->subgroup_size : 32;
    if (!v->kernel)
        return NAN;
    if (c->kind == UNIFORM) {
        /* the memory performance guide's rule: a subgroup's distinct uniform (constant) addresses are served one
         * at a time, so distinct words per invocation cost the subgroup size (at most 128 distinct here: t & 127);
         * a storage buffer serves 32 consecutive words as one line, like one word: no slowdown */
        unsigned distinct = caps->subgroup_size < MEM_UNIFORM_SPREAD + 1 ? caps->subgroup_size : MEM_UNIFORM_SPREAD + 1;
        return v->param == (UN_CONSTANT | UN_DIVERGENT) && distinct ? 1.0 / distinct : 1.0;
    }
    if (c->kind == SHARED || c->kind == BROADCAST) {
        shared_mode(v, c->knob, &mul, &mod);
        return 1.0 / vkb_memory_model_shared_degree(mul, mod, lanes);
    }
    {
        pattern pt = {v, c};
        double e = vkb_memory_model_efficiency(global_access, &pt, 64);
        if (c->kind == LAYOUT && v->nspec == 2 && v->spec[1] % 4 == 0)
            e *= (double)v->spec[0] / v->spec[1]; /* the padding is moved, not useful */
        return e;
    }
}

/* ---- the families ---- */

#define CREATE(name, kind)                                                                                             \
    static void *name(const vkb_shape *s, uint64_t seed, char *why, size_t len)                                        \
    {                                                                                                                  \
        return case_create(kind, s, seed, why, len);                                                                   \
    }
CREATE(width_create, WIDTH)
CREATE(offset_create, OFFSET)
CREATE(stride_create, STRIDE)
CREATE(layout_create, LAYOUT)
CREATE(shared_create, SHARED)
CREATE(broadcast_create, BROADCAST)
CREATE(uniform_create, UNIFORM)

/* memory.NAME, built from PART's rows, shapes and case; every part shares the plan, work, check and prediction
 * above. The size flags follow the summary, and what each counts (vkb_family.units) follows them. */
#define FAMILY(name, part, summary, flags, ...)                                                                        \
    const vkb_family vkb_family_memory_##name = {"memory." #name,                                                      \
                                                 summary,                                                              \
                                                 {flags},                                                              \
                                                 (int)VKB_COUNT(((const char *[]){flags})),                            \
                                                 "GB/s",                                                               \
                                                 part##_variants,                                                      \
                                                 (int)VKB_COUNT(part##_variants),                                      \
                                                 part##_defaults,                                                      \
                                                 part##_battery,                                                       \
                                                 part##_create,                                                        \
                                                 free,                                                                 \
                                                 plan,                                                                 \
                                                 work,                                                                 \
                                                 check,                                                                \
                                                 predict,                                                              \
                                                 copy_io,                                                              \
                                                 .units = {__VA_ARGS__},                                               \
                                                 .suite_shapes = part##_suite};
#define PAIR(a, b) a, b

FAMILY(width, width, "4-, 8- and 16-byte loads (useful bytes; predicted by the coalescing rule)", PAIR("n", "width"),
       "4-byte words", "bytes per load")
FAMILY(offset, offset, "loads misaligned by --offset words (useful bytes; predicted by the coalescing rule)",
       PAIR("n", "offset"), "4-byte words", "4-byte words")
FAMILY(stride, stride, "thread i reads word i * --stride (useful bytes; predicted by the coalescing rule)",
       PAIR("n", "stride"), "4-byte words", "4-byte words")
FAMILY(aos_soa, layout,
       "records of 12 and 20 bytes as structures or arrays (useful bytes, n records; the coalescing rule)", "n",
       "records")
FAMILY(shared_stride, shared,
       "shared[t * --stride]: the bank-conflict rule, degree gcd(s, 32 banks) (GB/s = 4 x loads/ns)",
       PAIR("n", "stride"), "threads", "4-byte words")
FAMILY(shared_broadcast, broadcast,
       "one shared word read by a whole subgroup: a broadcast, no bank conflict (GB/s = "
       "4 x loads/ns; n threads)",
       "n", "threads")
FAMILY(uniform, uniform,
       "the broadcast rule: constant memory is fast when a subgroup reads one address (GB/s = 4 x "
       "loads/ns)",
       "n", "threads")
