/* reduce.c - the reduce family: the sum of n floats or n ints, the reduction ladder (and the classic
 * CUDA reduction steps) from the naive kernel to subgroup operations, beside CUB and the API copy. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "inputs.h"
#include "reduce/rows.h"
#include "util.h"

/* Grid rules of the reduction ladder's in-thread reduce ("control the global thread count" or "the workgroup
 * count"). REDUCE_FIXED_THREADS is about one full wave of an H100 (132 SMs x 2048 threads): raise it
 * for a GPU with more resident threads. REDUCE_GROUPS_PER_CU x 256 threads fills an SM of 2048;
 * REDUCE_DEFAULT_CUS stands in when the device does not say (lavapipe, most non-NVIDIA/AMD drivers). */
#define REDUCE_FIXED_THREADS (1u << 18)
#define REDUCE_GROUPS_PER_CU 8u
#define REDUCE_DEFAULT_CUS 16u
/* Later passes: each thread of a 256-wide workgroup adds up to this many partial sums first. */
#define REDUCE_PARTIALS_LOCAL 256u
#define REDUCE_PARTIALS_PER 16u
/* The shaders index with 32-bit unsigned integers and add a grid's thread count to an index. */
#define REDUCE_MAX_N ((1ull << 31) - 1)

/* The row's param: element type, how pass 1 loads (and so sizes its grid), and its workgroup tree. */
enum {
    P_I32 = 1 << 0,       /* int32 wrapping sum (exact compare); else float32 */
    LOAD_BLOCK1 = 0 << 1, /* one element per thread, a block of L per workgroup */
    LOAD_BLOCK2 = 1 << 1, /* two elements L apart per thread, a block of 2L */
    LOAD_GRID = 2 << 1,   /* grid-stride loop over elements */
    LOAD_LOCAL = 3 << 1,  /* per * L contiguous elements per workgroup, workgroup-stride loop */
    LOAD_VEC4 = 4 << 1,   /* grid-stride loop over vec4s, the n % 4 tail as scalars */
    LOAD_MASK = 7 << 1,
    GRID_THREADS = 1 << 4,  /* a fixed number of threads (REDUCE_FIXED_THREADS) */
    GRID_CUS = 2 << 4,      /* a multiple of the compute-unit count */
    TREE_BARRIER = 0 << 6,  /* barrier after every step down to one sum */
    TREE_TAIL = 1 << 6,     /* barrier steps down to a subgroup's worth, then subgroupAdd */
    TREE_SUBGROUP = 2 << 6, /* subgroupAdd, one shared slot per subgroup, subgroupAdd */
    TREE_MASK = 3 << 6,
    COMBINE_ATOMIC = 1 << 8, /* workgroups atomicAdd into the zeroed result: no later passes */
    COMBINE_LAST = 1 << 9    /* the last workgroup to arrive adds the partials (binding 2), counted in binding 3 */
};

/* COMBINE_LAST's arrival count: an input, so it starts at 0 (outputs and scratch are poisoned), and the kernel
 * sets it back to 0 at the end of every dispatch, so timed repetitions need no clearing command. Its own object:
 * the runner shares an input among the rows of a shape by its host address, and this one is written (the float
 * and int lastblock rows of a shape share it: a kernel that left it nonzero fails the row after it too). */
static const uint32_t arrived_zero = 0;

typedef struct reduce_case {
    uint64_t n;
    float *f;       /* float inputs: +-k/16, k uniform in 1..16 (every partial sum exact, see check) */
    uint32_t *i;    /* int inputs: any 32-bit value, so a lost or doubled element shows */
    double sum_f;   /* reference: exact (the inputs are sixteenths) */
    double abs_f;   /* sum of |x|: the float bound's scale */
    uint32_t sum_i; /* wrapping 32-bit sum: exact */
    uint32_t out;   /* the downloaded result */
    uint32_t *copy; /* api_copy's destination */
} reduce_case;

#define SUB VKB_NEED_SUBGROUP_BASIC | VKB_NEED_SUBGROUP_ARITH
/* The rows of host/families/reduce/rows.h, each twice: NAME sums float32, NAME_i32 int32 (wrapping), each with its
 * shader compiled for that type; the int row needs no float atomics and is deterministic. */
#define ROW(name, algo, param, needs, flags, note)                                                                     \
    {#name, "reduce_" #algo "_f32", {256, 1, 1}, {0}, 0, (param), (needs), (flags), note},                             \
        {#name "_i32",                                                                                                 \
         "reduce_" #algo "_i32",                                                                                       \
         {256, 1, 1},                                                                                                  \
         {0},                                                                                                          \
         0,                                                                                                            \
         (param) | P_I32,                                                                                              \
         (needs) & ~VKB_NEED_ATOMIC_FLOAT,                                                                             \
         (flags) & ~VKB_VAR_NONDETERMINISTIC,                                                                          \
         "int32, wrapping: " note},

static const vkb_variant variants[] = {
    /* ceilings first: the runner takes a backend's first ceiling row as that backend's reference */
    {"cub_sum",
     NULL,
     {1, 1, 1},
     {0},
     0,
     0,
     0,
     VKB_VAR_CEILING | VKB_VAR_CUDA_ONLY,
     "cub::DeviceReduce::Sum of the float input, temp storage allocated once and kept: the CUDA ceiling"},
    VKB_API_COPY_ROW("vkCmdCopyBuffer / cudaMemcpy of the n*4 input bytes; work = read + write (2*n*4), so it "
                     "is the device's copy bandwidth, not a read-only ceiling"),
    VKB_STREAM_COPY_ROW,
    REDUCE_ROWS(ROW)};

static int default_shapes(const vkb_caps *caps, vkb_shape *out, int max)
{
    (void)max;
    /* GPU: 1 GiB of floats, far past any L2; CPU implementation: 1 MiB (its barriers are slow) */
    out[0] = (vkb_shape){{caps->is_cpu ? 1 << 18 : 1 << 28}};
    return 1;
}

static int battery(vkb_shape *out, int max)
{
    /* 1..3, the workgroup size 256 and first_add's block 512 either side, odd middling, over a million */
    static const int64_t n[] = {1, 2, 3, 255, 256, 257, 511, 513, 4099, 1000003};
    int count = 0;
    for (size_t k = 0; k < VKB_COUNT(n) && count < max; k++)
        out[count++] = (vkb_shape){{n[k]}};
    return count;
}

/* One chunk's share of the references: integers, so any grouping gives the same sums. */
typedef struct chunk_sums {
    int64_t sixteenths, abs_sixteenths;
    uint32_t sum_i;
} chunk_sums;

typedef struct reduce_fill {
    reduce_case *c;
    chunk_sums *sums; /* one slot per chunk */
} reduce_fill;

/* One chunk of both inputs and its slot of the reference sums. */
static void fill_chunk(void *ctx, vkb_rng *rng, uint64_t chunk, uint64_t first, uint64_t end)
{
    const reduce_fill *rf = ctx;
    reduce_case *c = rf->c;
    chunk_sums sums = {0, 0, 0};
    for (uint64_t k = first; k < end; k++) {
        uint64_t bits = vkb_rng_u64(rng);
        /* +-1/16 .. +-16/16: every partial sum is a whole number of sixteenths, summed exactly as integers
         * (a double sum of them would be exact as well, below 2^53 / 16 elements; integers are faster) */
        int64_t x = (int64_t)(1 + (bits >> 60)) * ((bits >> 59) & 1 ? -1 : 1);
        c->f[k] = (float)x / 16.0f;
        sums.sixteenths += x;
        sums.abs_sixteenths += x < 0 ? -x : x;
        c->i[k] = (uint32_t)(vkb_rng_u64(rng) >> 32);
        sums.sum_i += c->i[k];
    }
    rf->sums[chunk] = sums;
}

static void *case_create(const vkb_shape *s, uint64_t seed, char *why, size_t len)
{
    reduce_case *c;
    reduce_fill rf;
    vkb_rng rng;
    uint64_t chunks;
    int64_t sixteenths = 0, abs_sixteenths = 0;
    uint32_t sum_i = 0;
    (void)why;
    (void)len;
    c = vkb_calloc(1, sizeof *c);
    c->n = (uint64_t)s->d[0]; /* at most REDUCE_MAX_N: plan() refuses more before any case is made */
    vkb_host_reserve(3 * c->n * sizeof(float), "reduce inputs");
    c->f = vkb_alloc(c->n * sizeof(float));
    c->i = vkb_alloc(c->n * sizeof(uint32_t));
    c->copy = vkb_alloc(c->n * sizeof(float));
    chunks = vkb_input_chunks(c->n);
    rf.c = c;
    rf.sums = vkb_calloc(chunks ? chunks : 1, sizeof *rf.sums);
    vkb_rng_seed(&rng, seed);
    vkb_input_fill(&rng, c->n, 2, fill_chunk, &rf); /* two draws per element: the float, then the int */
    for (uint64_t k = 0; k < chunks; k++) {         /* in chunk order */
        sixteenths += rf.sums[k].sixteenths;
        abs_sixteenths += rf.sums[k].abs_sixteenths;
        sum_i += rf.sums[k].sum_i;
    }
    free(rf.sums);
    c->sum_f = (double)sixteenths / 16.0; /* exact: |sum| <= 2^31 x 16 sixteenths */
    c->abs_f = (double)abs_sixteenths / 16.0;
    c->sum_i = sum_i;
    return c;
}

static void case_destroy(void *data)
{
    reduce_case *c = data;
    free(c->f);
    free(c->i);
    free(c->copy);
    free(c);
}

static uint64_t div_up(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}
static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}
static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static uint64_t log2_u64(uint64_t x)
{
    uint64_t r = 0;
    while ((1ull << r) < x)
        r++;
    return r;
}

/* Workgroups of size L for ITEMS items under the row's grid rule, at most one per L items. */
static uint32_t grid_groups(unsigned param, uint64_t items, uint32_t L, const vkb_caps *caps)
{
    uint64_t want =
        (param & GRID_THREADS)
            ? REDUCE_FIXED_THREADS / L
            : (uint64_t)(caps->compute_units ? caps->compute_units : REDUCE_DEFAULT_CUS) * REDUCE_GROUPS_PER_CU;
    uint64_t g = min_u64(want, div_up(items ? items : 1, L));
    return (uint32_t)min_u64(g, caps->max_group_count[0]);
}

/* Roundings an element meets in the workgroup tree of L sums on subgroups of SG. A subgroupAdd of k
 * values is counted as k - 1: its order is the implementation's, and a chain is the worst order. */
static uint64_t tree_depth(unsigned tree, uint64_t L, uint64_t sg)
{
    uint64_t left = min_u64(L, sg), slots = div_up(L, sg);
    switch (tree & TREE_MASK) {
    case TREE_TAIL: return log2_u64(L / left) + (left - 1);
    case TREE_SUBGROUP: return (left - 1) + (div_up(slots, sg) - 1) + (min_u64(slots, sg) - 1);
    default: return log2_u64(L);
    }
}

/* Passes after the first: reduce M partial sums in buffer FROM until one is left in OUT. Returns the
 * roundings they add. */
static uint64_t plan_partials(vkb_plan *p, const char *kernel, uint64_t m, int from, int out, int scratch)
{
    static const uint32_t local[3] = {REDUCE_PARTIALS_LOCAL, 1, 1};
    uint64_t depth = 0;
    while (m > 1) {
        uint64_t per = min_u64(REDUCE_PARTIALS_PER, div_up(m, REDUCE_PARTIALS_LOCAL));
        uint32_t groups[3] = {(uint32_t)div_up(m, per * REDUCE_PARTIALS_LOCAL), 1, 1};
        int to = groups[0] == 1 ? out : scratch;
        vkb_pass *pass = vkb_plan_dispatch(p, kernel, local, groups);
        reduce_push push;
        int b[2] = {from, to};
        vkb_pass_bind(pass, 2, b);
        push.n = (uint32_t)m;
        push.per = (uint32_t)per;
        vkb_pass_push(pass, &push, sizeof push);
        pass->shared_bytes = REDUCE_PARTIALS_LOCAL * 4;
        depth += (per - 1) + log2_u64(REDUCE_PARTIALS_LOCAL);
        m = groups[0];
        scratch = from; /* ping-pong: the buffer just read is free again */
        from = to;
    }
    return depth;
}

static int plan(const vkb_variant *v, const vkb_case *vc, const vkb_caps *caps, vkb_plan *p, char *why, size_t len)
{
    reduce_case *c = vc->data;
    int i32 = v->param & P_I32;
    uint64_t n = (uint64_t)vc->shape.d[0], m, chain, threads;
    uint32_t L = v->local[0], groups[3] = {1, 1, 1}, per = 0;
    void *result = c ? &c->out : NULL;
    reduce_push push = {(uint32_t)n, 0};
    int src, out, s1, s2, b[4];
    vkb_pass *pass;

    if (n > REDUCE_MAX_N)
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,
                             "n=%llu: at most 2^31 - 1 (the shaders index with 32-bit "
                             "unsigned integers); try a smaller n",
                             (unsigned long long)n);
    if ((L & (L - 1)) != 0 || L > REDUCE_MAX_LOCAL || v->local[1] != 1 || v->local[2] != 1)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "a %ux%ux%u workgroup: the trees halve a 1-D workgroup, "
                             "so its width (0=) is a power of two up to 1024",
                             L, v->local[1], v->local[2]);
    src = vkb_plan_buffer_add(p, n * sizeof(float), VKB_BUF_INPUT,
                              !c    ? NULL
                              : i32 ? (const void *)c->i
                                    : (const void *)c->f);
    if (!v->kernel) { /* cub_sum */
        out = vkb_plan_buffer_add(p, sizeof(uint32_t), VKB_BUF_OUTPUT, result);
        pass = vkb_plan_library(p, "cub_sum");
        b[0] = src;
        b[1] = out;
        vkb_pass_bind(pass, 2, b);
        vkb_pass_push(pass, &push, sizeof push);
        /* CUB's order is its own: each thread's serial share assumes at least 128 threads per SM
         * in its first pass; 64 covers its block and grid trees */
        p->check_depth = div_up(n, (uint64_t)(caps->compute_units ? caps->compute_units : 1) * 128) + 64;
        if (p->check_depth > n)
            p->check_depth = n;
        snprintf(p->check_order, sizeof p->check_order, "CUB, assumed >= 128 threads/SM");
        return VKB_PLAN_OK;
    }

    /* pass 1: the variant's kernel writes m partial sums, each serial over `chain` elements per thread */
    switch (v->param & LOAD_MASK) {
    case LOAD_BLOCK1:
    case LOAD_BLOCK2: {
        uint64_t block = (v->param & LOAD_MASK) == LOAD_BLOCK2 ? 2ull * L : L;
        m = div_up(n, block);
        groups[0] = (uint32_t)min_u64(m, caps->max_group_count[0]); /* past the limit, workgroups loop */
        chain = block / L;
        break;
    }
    case LOAD_LOCAL:
        threads = (uint64_t)grid_groups(v->param, n, L, caps) * L;
        per = (uint32_t)div_up(n, threads);
        m = groups[0] = (uint32_t)div_up(n, (uint64_t)per * L);
        chain = per;
        break;
    case LOAD_VEC4:
        /* COMBINE_LAST: at most a workgroup per 4 L vectors (vec4_load's four loads a trip), since every workgroup
         * more puts a partial and a device-scope atomic on the last one's path; a single workgroup skips both.
         * At large n the compute-unit rule caps the grid either way. */
        groups[0] = grid_groups(v->param, div_up(n, (v->param & COMBINE_LAST) ? 16 : 4), L, caps);
        m = groups[0];
        /* four running sums of vec4 lanes, added pairwise (2), plus the tail's elements: one, or up to 3 where the
         * grid has fewer than 3 threads (--spec 0=1) */
        chain = div_up(n / 4, (uint64_t)groups[0] * L) + 2 + max_u64(1, div_up(n & 3, (uint64_t)groups[0] * L));
        break;
    default: /* LOAD_GRID */
        groups[0] = grid_groups(v->param, n, L, caps);
        m = groups[0];
        chain = div_up(n, (uint64_t)groups[0] * L);
        break;
    }
    out = vkb_plan_buffer_add(p, sizeof(uint32_t), VKB_BUF_OUTPUT, result);
    if (v->param & COMBINE_ATOMIC) {
        static const uint32_t zero = 0; /* 0.0f and 0 */
        vkb_plan_copy(p, vkb_plan_buffer_add(p, sizeof zero, VKB_BUF_INPUT, &zero), out, sizeof zero);
        m = 1; /* the kernel's m workgroups all add into out */
    }
    s1 = m > 1 || (v->param & COMBINE_LAST) ? vkb_plan_buffer_add(p, m * sizeof(float), VKB_BUF_SCRATCH, NULL) : out;
    b[0] = src;
    b[1] = s1;
    if (v->param & COMBINE_LAST) { /* the result, the partials, the arrival count */
        b[1] = out;
        b[2] = s1;
        b[3] = vkb_plan_buffer_add(p, sizeof arrived_zero, VKB_BUF_INPUT, &arrived_zero);
    }
    pass = vkb_plan_dispatch(p, v->kernel, v->local, groups);
    memcpy(pass->spec, v->spec, sizeof pass->spec); /* --spec (LOADS of the vec4 loaders) */
    pass->nspec = v->nspec;
    vkb_pass_bind(pass, (v->param & COMBINE_LAST) ? 4 : 2, b);
    push.per = per;
    vkb_pass_push(pass, &push, sizeof push);
    pass->shared_bytes = L * 4 + ((v->param & COMBINE_LAST) ? 4 : 0); /* sh[L] (and `last`) */

    /* the bound's depth: the first element of a thread's chain meets chain - 1 roundings (0 + x is
     * exact), then the tree, at the worst subgroup size the device may pick */
    for (uint64_t sg = caps->subgroup_min ? caps->subgroup_min : 1; sg <= (caps->subgroup_max ? caps->subgroup_max : 1);
         sg *= 2) {
        uint64_t d = tree_depth(v->param, L, sg);
        if (d > p->check_depth)
            p->check_depth = d;
    }
    p->check_depth += chain - 1;
    if (v->param & COMBINE_ATOMIC)
        p->check_depth += groups[0] - 1; /* the atomics' order is the hardware's: a chain at worst */
    if (v->param & COMBINE_LAST) {
        /* the last workgroup's sum_partials: div_up(m, L) partials per thread, then the tree of L; no more passes */
        p->check_depth += (div_up(m, L) - 1) + log2_u64(L);
        snprintf(p->check_order, sizeof p->check_order, "1 pass: tree, last workgroup's tree");
        return VKB_PLAN_OK;
    }

    /* passes 2 (and 3): the partial sums, in a fixed order: the same bits every run */
    s2 = div_up(m, REDUCE_PARTIALS_PER * REDUCE_PARTIALS_LOCAL) > 1
             ? vkb_plan_buffer_add(p, div_up(m, REDUCE_PARTIALS_PER * REDUCE_PARTIALS_LOCAL) * sizeof(float),
                                   VKB_BUF_SCRATCH, NULL)
             : out;
    p->check_depth += plan_partials(p, i32 ? "reduce_partials_i32" : "reduce_partials_f32", m, s1, out, s2);
    if (v->param & COMBINE_ATOMIC)
        snprintf(p->check_order, sizeof p->check_order, "tree, then atomics");
    else
        snprintf(p->check_order, sizeof p->check_order, "%d-pass tree", p->npass);
    return VKB_PLAN_OK;
}

static uint64_t copy_io(const vkb_case *vc, const void **src, void **dst)
{
    reduce_case *c = vc->data;
    if (src)
        *src = c ? c->f : NULL;
    if (dst)
        *dst = c ? c->copy : NULL;
    return (uint64_t)vc->shape.d[0] * sizeof(float);
}

static double work(const vkb_variant *v, const vkb_case *vc)
{
    (void)v;
    return (double)vc->shape.d[0] * sizeof(float);
}

static void check(const vkb_variant *v, const vkb_case *vc, const vkb_plan *p, vkb_check *res)
{
    reduce_case *c = vc->data;
    char method[96];
    float out;
    if (v->param & P_I32) {
        vkb_check_init(res, "exact (wrapping int32 sum)");
        vkb_check_words(res, &c->out, &c->sum_i, 1);
    } else {
        /* inputs +-k/16 with |x| <= 1: a partial sum below 2^20 in magnitude has at most 24 significant
         * bits, so every fp32 addition is exact in any order, and the sum equals the reference exactly;
         * a partial sum of m <= 2^31 such terms (a subset the kernel chose without looking at the values)
         * passes 2^20 with probability below 2 exp(-2^40 / 2^32) (Hoeffding): a dropped or duplicated
         * element (|x| >= 1/16) fails at any n (docs/verification.md). gamma(depth) sum|x| stays in the
         * method as the rigorous bound of other inputs. */
        snprintf(method, sizeof method, "exact: k/16 inputs (gamma(%llu)*sum|x| = %.2g), %.40s",
                 (unsigned long long)p->check_depth, vkb_gamma((double)p->check_depth, VKB_U_F32) * c->abs_f,
                 p->check_order);
        vkb_check_init(res, method);
        memcpy(&out, &c->out, sizeof out);
        vkb_check_value(res, 0, out, c->sum_f, 0.0);
    }
    vkb_check_finish(res);
}

const vkb_family vkb_family_reduce = {
    "reduce",
    "sum of n floats or ints: the classic reduction ladder, naive to subgroup",
    {"n"},
    1,
    "GB/s",
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
    copy_io,
    .units = {"4-byte words"},
};
