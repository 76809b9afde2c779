/* test_inputs.c - seeded inputs made in fixed chunks (inputs.h): the values of one sequential generator,
 * byte-identical inputs and references for any thread count in every family, distinct seeds and chunks. */
#include <stdlib.h>
#include <string.h>

#include "families.h"
#include "inputs.h"
#include "select.h"
#include "test_caps.h"
#include "unit.h"

/* A shape spanning several chunks, the last one partial, for each family (memory words are filled in pairs). */
static const struct {
    const char *family;
    vkb_shape shape;
} shapes[] = {
    {"copy", {{3 * VKB_INPUT_CHUNK + 5}}},
    {"transpose", {{301, 700}}},
    {"memory.width", {{300001, 16}}},
    {"memory.offset", {{300001, 3}}},
    {"memory.stride", {{20000, 33}}},
    {"memory.aos_soa", {{50001}}},
    {"memory.shared_stride", {{1000, 3}}},
    {"memory.shared_broadcast", {{1000}}},
    {"memory.uniform", {{1000}}},
    {"matmul", {{300, 260, 500}}},
    {"reduce", {{3 * VKB_INPUT_CHUNK + 7}}},
    {"transfer", {{4 * (3 * VKB_INPUT_CHUNK + 5)}}},
    {"latency", {{0}}}, /* no inputs: a counter that starts at the poison */
    {"cache.chase", {{64 * 3001}}},
    {"cache.read", {{4 * (3 * VKB_INPUT_CHUNK + 16)}}},
    {"peak", {{300, 2}}}, /* seeded per slot, not in chunks: the same on any thread count by construction */
};

/* F's shape above, or, for a family this table does not know (a new folder), the largest of its battery: the
 * battery reaches past a chunk boundary where its inputs are made in chunks. */
static const vkb_shape *shape_of(const vkb_family *f)
{
    static _Thread_local vkb_shape largest;
    vkb_shape battery[64];
    double most = -1;
    int n;
    for (size_t i = 0; i < VKB_COUNT(shapes); i++)
        if (strcmp(shapes[i].family, f->name) == 0)
            return &shapes[i].shape;
    n = f->battery ? f->battery(battery, (int)VKB_COUNT(battery)) : 0;
    ASSERT(n > 0);
    for (int i = 0; i < n; i++) {
        double size = 1;
        for (int d = 0; d < VKB_MAX_DIMS && battery[i].d[d]; d++)
            size *= (double)battery[i].d[d];
        if (size > most) {
            most = size;
            largest = battery[i];
        }
    }
    return &largest;
}

static void set_threads(const char *n)
{
    setenv("VKB_THREADS", n, 1);
}

/* ---- the chunked fill itself ---- */

typedef struct record {
    uint64_t *draws; /* two per element */
    int *calls;      /* per chunk */
} record;

static void record_draws(void *ctx, vkb_rng *rng, uint64_t chunk, uint64_t first, uint64_t end)
{
    record *r = ctx;
    for (uint64_t i = first; i < end; i++) {
        r->draws[2 * i] = vkb_rng_u64(rng);
        r->draws[2 * i + 1] = vkb_rng_u64(rng);
    }
    r->calls[chunk]++;
}

/* Every chunk runs once, and the draws are those of one generator from the start, on 3 threads. */
static void fill_matches_loop(void)
{
    uint64_t n = 3 * VKB_INPUT_CHUNK + 11, chunks = vkb_input_chunks(n);
    record r = {calloc(2 * n, sizeof(uint64_t)), calloc(chunks, sizeof(int))};
    vkb_rng start, one;
    ASSERT(chunks == 4);
    set_threads("3");
    vkb_rng_seed(&start, 12345);
    vkb_input_fill(&start, n, 2, record_draws, &r);
    one = start;
    for (uint64_t i = 0; i < 2 * n; i++)
        if (r.draws[i] != vkb_rng_u64(&one)) {
            ASSERT(!"draw differs from the sequential generator");
            break;
        }
    for (uint64_t k = 0; k < chunks; k++)
        ASSERT(r.calls[k] == 1);
    free(r.draws);
    free(r.calls);
}

/* ---- the families ---- */

/* A case of F at its shape from SEED on THREADS threads. */
static vkb_case make_case(const vkb_family *f, uint64_t seed, const char *threads)
{
    vkb_case c = {f, *shape_of(f), NULL};
    char why[200];
    set_threads(threads);
    c.data = f->case_create(&c.shape, seed, why, sizeof why);
    ASSERT(c.data != NULL);
    return c;
}

/* Bytes in which the input buffers of every row that plans differ between cases A and B (0: identical);
 * the input bytes compared go to *COMPARED. */
static uint64_t inputs_differ(const vkb_case *a, const vkb_case *b, uint64_t *compared)
{
    vkb_caps caps = test_caps_gpu("test device", 16);
    const vkb_family *f = a->family;
    uint64_t differ = 0;
    *compared = 0;
    for (int vi = 0; vi < f->nvariants; vi++) {
        vkb_plan pa, pb;
        char why[200];
        if (vkb_family_plan(f, &f->variants[vi], a, &caps, &pa, why, sizeof why) != VKB_PLAN_OK ||
            vkb_family_plan(f, &f->variants[vi], b, &caps, &pb, why, sizeof why) != VKB_PLAN_OK)
            continue;
        ASSERT(pa.nbuf == pb.nbuf);
        for (int i = 0; i < pa.nbuf && i < pb.nbuf; i++) {
            const unsigned char *x = pa.buf[i].host, *y = pb.buf[i].host;
            if (pa.buf[i].role != VKB_BUF_INPUT || !x || !y || x == y) /* x == y: a static constant */
                continue;
            for (uint64_t k = 0; k < pa.buf[i].bytes; k++)
                differ += x[k] != y[k];
            *compared += pa.buf[i].bytes;
        }
    }
    return differ;
}

/* Every family's inputs on 1 and on 3 threads are byte for byte the same; every family has a shape here
 * and inputs to compare. */
static void threads_identical(void)
{
    for (int fi = 0; fi < vkb_family_count; fi++) {
        const vkb_family *f = vkb_families[fi];
        vkb_case one, three;
        uint64_t compared;
        if (!shape_of(f)) {
            fprintf(stderr, "%s: no shape in test_inputs.c\n", f->name);
            ASSERT(shape_of(f) != NULL);
            continue;
        }
        if (shape_of(f)->d[0] == 0)
            continue; /* a family without inputs */
        one = make_case(f, 7, "1");
        three = make_case(f, 7, "3");
        if (inputs_differ(&one, &three, &compared) != 0)
            fprintf(stderr, "%s: inputs differ between 1 and 3 threads\n", f->name);
        ASSERT(inputs_differ(&one, &three, &compared) == 0);
        ASSERT(compared > 0);
        f->case_destroy(one.data);
        f->case_destroy(three.data);
    }
}

/* Two seeds give different inputs in every family (more than half the bytes differ: not a shifted copy of
 * the first chunk). */
static void seeds_differ(void)
{
    for (int fi = 0; fi < vkb_family_count; fi++) {
        const vkb_family *f = vkb_families[fi];
        vkb_case a, b;
        uint64_t compared, differ;
        if (!shape_of(f) || shape_of(f)->d[0] == 0)
            continue; /* threads_identical reports it; a family without inputs */
        a = make_case(f, 7, "3");
        b = make_case(f, 8, "3");
        differ = inputs_differ(&a, &b, &compared);
        if (differ * 2 <= compared)
            fprintf(stderr, "%s: seeds 7 and 8 differ in %llu of %llu bytes\n", f->name, (unsigned long long)differ,
                    (unsigned long long)compared);
        ASSERT(differ * 2 > compared);
        f->case_destroy(a.data);
        f->case_destroy(b.data);
    }
}

/* The first input buffer of some row of F's case C that spans two chunks of 4-byte elements. */
static const float *two_chunk_input(const vkb_case *c)
{
    vkb_caps caps = test_caps_gpu("test device", 16);
    for (int vi = 0; vi < c->family->nvariants; vi++) {
        vkb_plan p;
        char why[200];
        if (vkb_family_plan(c->family, &c->family->variants[vi], c, &caps, &p, why, sizeof why) != VKB_PLAN_OK)
            continue;
        for (int i = 0; i < p.nbuf; i++)
            if (p.buf[i].role == VKB_BUF_INPUT && p.buf[i].host && p.buf[i].bytes >= 2 * 4 * VKB_INPUT_CHUNK)
                return p.buf[i].host;
    }
    return NULL;
}

/* Chunks are different streams: chunk 1 of an input is not chunk 0 again (copy, reduce, transpose). */
static void chunks_differ(void)
{
    static const char *const names[] = {"copy", "reduce", "transpose"};
    for (size_t i = 0; i < VKB_COUNT(names); i++) {
        const vkb_family *f = vkb_family_find(names[i]);
        vkb_case c = make_case(f, 7, "3");
        const float *in = two_chunk_input(&c);
        ASSERT(in != NULL);
        if (in) {
            uint64_t same = 0;
            for (uint64_t k = 0; k < VKB_INPUT_CHUNK; k++)
                same += in[k] == in[VKB_INPUT_CHUNK + k];
            ASSERT(same < VKB_INPUT_CHUNK / 4); /* reduce's sixteenths agree 1 time in 32 */
        }
        f->case_destroy(c.data);
    }
}

/* ---- references made with the inputs ---- */

/* The plan of family/variant at C, its input and output buffers. */
static int plan_io(const vkb_case *c, const char *variant, vkb_plan *p, const void **in, void **out)
{
    vkb_caps caps = test_caps_gpu("test device", 16);
    char why[200];
    *in = *out = NULL;
    if (vkb_family_plan(c->family, vkb_variant_find(c->family, variant), c, &caps, p, why, sizeof why) != VKB_PLAN_OK)
        return 0;
    for (int i = 0; i < p->nbuf; i++) {
        if (p->buf[i].role == VKB_BUF_INPUT && !*in)
            *in = p->buf[i].host;
        if (p->buf[i].role == VKB_BUF_OUTPUT && !*out)
            *out = (void *)p->buf[i].host;
    }
    return *in && *out;
}

/* Whether VARIANT's check passes at C, its output set by SET from the input (and OFF added to it). */
static int check_with(const vkb_case *c, const char *variant, void (*set)(const vkb_case *, const void *, void *, int),
                      int off)
{
    vkb_plan p;
    const void *in;
    void *out;
    vkb_check res;
    if (!plan_io(c, variant, &p, &in, &out)) {
        ASSERT(!"no input or output buffer");
        return 0;
    }
    set(c, in, out, off);
    vkb_family_check(c->family, vkb_variant_find(c->family, variant), c, &p, &res);
    return res.pass;
}

static void sum_floats(const vkb_case *c, const void *in, void *out, int off)
{
    const float *x = in;
    double s = off / 16.0;
    float f;
    for (int64_t k = 0; k < c->shape.d[0]; k++)
        s += x[k];
    f = (float)s; /* exact: sixteenths, well below 2^20 */
    memcpy(out, &f, sizeof f);
}

static void sum_ints(const vkb_case *c, const void *in, void *out, int off)
{
    const uint32_t *x = in;
    uint32_t s = (uint32_t)off;
    for (int64_t k = 0; k < c->shape.d[0]; k++)
        s += x[k];
    memcpy(out, &s, sizeof s);
}

static void transpose_of(const vkb_case *c, const void *in, void *out, int off)
{
    const float *x = in;
    float *y = out;
    int64_t rows = c->shape.d[0], cols = c->shape.d[1];
    for (int64_t r = 0; r < rows; r++)
        for (int64_t k = 0; k < cols; k++)
            y[k * rows + r] = x[r * cols + k];
    y[rows * cols / 2] += (float)off;
}

/* The references made with the inputs on 3 threads (reduce's per-chunk sums, the transpose in bands) are
 * those of the inputs: a right answer passes, one off by a sixteenth (or one) fails. */
static void references(void)
{
    vkb_case r = make_case(vkb_family_find("reduce"), 7, "3"), t = make_case(vkb_family_find("transpose"), 7, "3");
    ASSERT(check_with(&r, "interleaved_divergent", sum_floats, 0));
    ASSERT(!check_with(&r, "interleaved_divergent", sum_floats, 1));
    ASSERT(check_with(&r, "interleaved_divergent_i32", sum_ints, 0));
    ASSERT(!check_with(&r, "interleaved_divergent_i32", sum_ints, 1));
    ASSERT(check_with(&t, "naive", transpose_of, 0));
    ASSERT(!check_with(&t, "naive", transpose_of, 1));
    r.family->case_destroy(r.data);
    t.family->case_destroy(t.data);
}

UNIT_TESTS({"fill_matches_loop", fill_matches_loop}, {"threads_identical", threads_identical},
           {"seeds_differ", seeds_differ}, {"chunks_differ", chunks_differ}, {"references", references})
