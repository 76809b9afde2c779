/* transpose.c - the transpose family (the efficient matrix transpose study, the memory performance guide's
 * rules): a rows x cols fp32 matrix into its cols x rows transpose, checked bit for bit, beside a tile-shaped copy
 * and the API's own copy (vkCmdCopyBuffer / cudaMemcpy device-to-device) as the ceiling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "inputs.h"
#include "parallel.h"
#include "transpose/rows.h"
#include "util.h"

typedef struct transpose_case {
    uint64_t rows, cols;
    float *src; /* rows x cols, row-major */
    float *dst; /* download target: cols x rows (copies: rows x cols) */
    float *ref; /* the transpose, cols x rows */
} transpose_case;

/* The rows of host/families/transpose/rows.h: spec = {TILE, ROWS, PAD, SWIZZLE, MODE, TILES_PER_GROUP, DEPTH},
 * param = MODE, the workgroup computed from TILE and ROWS (never stated beside them), and the copies flagged as
 * shader copies (a bound the run's bandwidths are judged against beside the API's copy). */
#define HOST_ROW(name, shader, tile, rows, pad, swizzle, mode, per_group, depth, note)                                 \
    {#name,                                                                                                            \
     #shader,                                                                                                          \
     {(tile) / TRANSPOSE_LANES_##shader, rows, 1},                                                                     \
     {tile, rows, pad, swizzle, mode, per_group, depth},                                                               \
     TRANSPOSE_NSPEC,                                                                                                  \
     mode,                                                                                                             \
     0,                                                                                                                \
     (mode) == TRANSPOSE_COPY ? VKB_VAR_SHADER_COPY : 0,                                                               \
     note},
static const vkb_variant variants[] = {
    TRANSPOSE_ROWS(HOST_ROW)
        VKB_API_COPY_ROW("vkCmdCopyBuffer / cudaMemcpy device-to-device of the matrix: with stream_copy, the ceiling"),
    VKB_STREAM_COPY_ROW,
};

static int default_shapes(const vkb_caps *caps, vkb_shape *out, int max)
{
    (void)max;
    if (caps->is_cpu) { /* a CPU implementation: small, and one of them rectangular */
        out[0] = (vkb_shape){{256, 256}};
        out[1] = (vkb_shape){{600, 1000}};
    } else { /* 4 MiB each way: L2-resident on a large GPU; 256 MiB each way: DRAM */
        out[0] = (vkb_shape){{1024, 1024}};
        out[1] = (vkb_shape){{8192, 8192}};
    }
    return 2;
}

static int battery(vkb_shape *out, int max)
{
    /* 1 x 1, vectors both ways, around the tile edge, rectangular, unaligned for 16-byte accesses on
     * one side or both, and 65536 tiles in a row (one past lavapipe's 65535 workgroups: the
     * grid strides) */
    static const int64_t s[][2] = {
        {1, 1},   {1, 1000}, {1000, 1}, {2, 3},   {31, 33}, {32, 32},   {33, 31},  {17, 1000},          {1000, 17},
        {36, 68}, {37, 68},  {36, 69},  {100, 4}, {4, 100}, {257, 129}, {96, 160}, {1, 65535 * 32 + 5},
    };
    int count = 0;
    for (size_t i = 0; i < VKB_COUNT(s) && count < max; i++)
        out[count++] = (vkb_shape){{s[i][0], s[i][1]}};
    return count;
}

/* One chunk of the source: uniform in [-1, 1), never zero. */
static void fill_src(void *ctx, vkb_rng *rng, uint64_t chunk, uint64_t first, uint64_t end)
{
    transpose_case *c = ctx;
    (void)chunk;
    for (uint64_t i = first; i < end; i++) {
        float v;
        do /* random, never zero (a redraw: at most once in 2^53, and only shifts this chunk's later values) */
            v = (float)vkb_rng_uniform(rng, -1, 1);
        while (v == 0);
        c->src[i] = v;
    }
}

#define REF_BAND 32 /* the reference's block edge: 32 x 32 blocks stay in the host's cache */

/* Source columns [REF_BAND x BAND, + REF_BAND) into the reference, block by block: the band's rows of the
 * reference are contiguous, so each task writes (and first touches) memory of its own. */
static void transpose_band(void *ctx, int64_t band)
{
    transpose_case *c = ctx;
    uint64_t c0 = (uint64_t)band * REF_BAND, rows = c->rows, cols = c->cols;
    for (uint64_t r0 = 0; r0 < rows; r0 += REF_BAND)
        for (uint64_t r = r0; r < r0 + REF_BAND && r < rows; r++)
            for (uint64_t k = c0; k < c0 + REF_BAND && k < cols; k++)
                c->ref[k * rows + r] = c->src[r * cols + k];
}

static void *case_create(const vkb_shape *s, uint64_t seed, char *why, size_t len)
{
    transpose_case *c;
    uint64_t n, rows = (uint64_t)s->d[0], cols = (uint64_t)s->d[1];
    vkb_rng rng;
    (void)why;
    (void)len;
    n = rows * cols; /* below 2^32: plan() refuses larger shapes before any case is made */
    vkb_host_reserve(3 * n * sizeof(float), "transpose");
    c = vkb_calloc(1, sizeof *c);
    c->rows = rows;
    c->cols = cols;
    c->src = vkb_alloc(n * sizeof(float));
    c->dst = vkb_alloc(n * sizeof(float));
    c->ref = vkb_alloc(n * sizeof(float));
    vkb_rng_seed(&rng, seed);
    vkb_input_fill(&rng, n, 1, fill_src, c);
    /* the reference, each band of source columns a task */
    vkb_parallel_run((int64_t)((cols + REF_BAND - 1) / REF_BAND), transpose_band, c);
    return c;
}

static void case_destroy(void *data)
{
    transpose_case *c = data;
    free(c->src);
    free(c->dst);
    free(c->ref);
    free(c);
}

/* The plan: a transpose (or copy) of the shape's rows x cols, every constant checked before use. The
 * workgroup follows TILE and ROWS (--spec TILE=64 retiles the row); setting it apart (0=, 1=) is refused. */
static int plan(const vkb_variant *v, const vkb_case *vc, const vkb_caps *caps, vkb_plan *p, char *why, size_t len)
{
    extern const vkb_family vkb_family_transpose;
    const vkb_variant *row = vkb_variant_find(&vkb_family_transpose, v->name); /* before --spec */
    const transpose_case *c = vc->data;
    uint64_t rows = (uint64_t)vc->shape.d[0], cols = (uint64_t)vc->shape.d[1], bytes, tiles_x, tiles_y;
    uint32_t tile = v->spec[0], rows_per_pass = v->spec[1], pad = v->spec[2], swizzle = v->spec[3];
    uint32_t per_group = v->spec[5], depth = v->spec[6];
    uint32_t lanes, local[3], groups[3];
    int direct = strcmp(v->kernel, "transpose_direct") == 0;
    struct transpose_push push;
    vkb_pass *pass;
    int b[2];

    if (!row)
        row = v;
    lanes = row->spec[0] / row->local[0];
    if (rows > UINT32_MAX || cols > UINT32_MAX || rows * cols > UINT32_MAX)
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,
                             "%llux%llu is more than 2^32 - 1 elements (the kernels "
                             "index with 32 bits); try a smaller size",
                             (unsigned long long)rows, (unsigned long long)cols);
    bytes = rows * cols * sizeof(float);
    b[0] = vkb_plan_buffer_add(p, bytes, VKB_BUF_INPUT, c ? c->src : NULL);
    b[1] = vkb_plan_buffer_add(p, bytes, VKB_BUF_OUTPUT, c ? c->dst : NULL);
    /* TILE a power of two (the swizzle XORs within it) of at least LANES, ROWS a divisor of it */
    if (tile < lanes || (tile & (tile - 1)) != 0 || rows_per_pass == 0 || tile % rows_per_pass != 0)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "TILE=%u, ROWS=%u: TILE is a power of two of at least "
                             "%u and ROWS a divisor of it",
                             tile, rows_per_pass, lanes);
    if (memcmp(v->local, row->local, sizeof v->local) != 0)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "%s's workgroup is TILE/%u x ROWS: set TILE and ROWS, "
                             "not 0=, 1=, 2=",
                             v->kernel, lanes);
    if (v->spec[4] != (uint32_t)v->param || swizzle > 1 || (direct && (pad || swizzle)) || (lanes > 1 && swizzle) ||
        pad > 64)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "MODE is what the row computes (%s: %u); SWIZZLE is 0 "
                             "or 1 (transpose_tiled), PAD at most 64 (not transpose_direct)",
                             v->name, v->param);
    if (per_group == 0 || (direct && per_group != 1))
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             per_group == 0 ? "TILES_PER_GROUP=%u: at least 1"
                                            : "TILES_PER_GROUP=%u: 1 for transpose_direct (no shared tile to overlap)",
                             per_group);
    /* each slot is a tile's share per invocation in registers (vec4_tile64: 16 words): 8 is half of 255 */
    if (depth == 0 || depth > 8 || (direct && depth != 1))
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             direct ? "DEPTH=%u: 1 for transpose_direct (no tile "
                                      "loop to run ahead)"
                                    : "DEPTH=%u: 1 to 8 (tiles of loads in flight per workgroup)",
                             depth);
    local[0] = tile / lanes;
    local[1] = rows_per_pass;
    local[2] = 1;
    /* one workgroup per tile (a 2-D grid), or per TILES_PER_GROUP tiles (1-D); past the workgroup-count limit
     * the kernels stride over the tiles */
    tiles_x = (cols + tile - 1) / tile;
    tiles_y = (rows + tile - 1) / tile;
    if (per_group == 1) {
        groups[0] = tiles_x > caps->max_group_count[0] ? caps->max_group_count[0] : (uint32_t)tiles_x;
        groups[1] = tiles_y > caps->max_group_count[1] ? caps->max_group_count[1] : (uint32_t)tiles_y;
    } else {
        uint64_t n = (tiles_x * tiles_y + per_group - 1) / per_group;
        groups[0] = n > caps->max_group_count[0] ? caps->max_group_count[0] : (uint32_t)n;
        groups[1] = 1;
    }
    groups[2] = 1;
    pass = vkb_plan_dispatch(p, v->kernel, local, groups);
    vkb_pass_bind(pass, 2, b);
    memcpy(pass->spec, v->spec, sizeof pass->spec);
    pass->nspec = TRANSPOSE_NSPEC;
    if (!direct) /* tile * (tile + pad) floats; a power-of-two TILE past 2^15 is past any device anyway */
        pass->shared_bytes = tile > 1u << 15 ? UINT32_MAX : tile * (tile + pad) * (uint32_t)sizeof(float);
    push.rows = (uint32_t)rows;
    push.cols = (uint32_t)cols;
    vkb_pass_push(pass, &push, sizeof push);
    return VKB_PLAN_OK;
}

static uint64_t copy_io(const vkb_case *vc, const void **src, void **dst)
{
    const transpose_case *c = vc->data;
    if (src)
        *src = c ? c->src : NULL;
    if (dst)
        *dst = c ? c->dst : NULL;
    return (uint64_t)vc->shape.d[0] * (uint64_t)vc->shape.d[1] * sizeof(float);
}

static double work(const vkb_variant *v, const vkb_case *vc)
{
    const transpose_case *c = vc->data;
    (void)v;
    return 2.0 * (double)c->rows * (double)c->cols * sizeof(float); /* read + write */
}

static void check(const vkb_variant *v, const vkb_case *vc, const vkb_plan *p, vkb_check *res)
{
    const transpose_case *c = vc->data;
    (void)p;
    int copied = v->param == (int)TRANSPOSE_COPY;
    vkb_check_init(res, copied ? "exact (copy of the input)" : "exact (CPU transpose)");
    vkb_check_words(res, (const uint32_t *)c->dst, (const uint32_t *)(copied ? c->src : c->ref), c->rows * c->cols);
    vkb_check_finish(res);
}

const vkb_family vkb_family_transpose = {
    "transpose",
    "out-of-place fp32 matrix transpose, rows x cols into cols x rows",
    {"rows", "cols"},
    2,
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
    .units = {"matrix side", "matrix side"},
};
