/* fam_transpose.c - the transpose family (seed 001, memory rules of seed 002): a rows x cols fp32
 * matrix into its cols x rows transpose, checked bit for bit, beside a tile-shaped copy and the API's
 * own copy (vkCmdCopyBuffer / cudaMemcpy device-to-device) as the ceiling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "util.h"

/* What a row's output is: the transpose, or (the copy references) the input in its own layout. */
enum { OUT_TRANSPOSED = 0, OUT_COPIED = 1 };

typedef struct transpose_case {
    uint64_t rows, cols;
    float *src;  /* rows x cols, row-major */
    float *dst;  /* download target: cols x rows (copies: rows x cols) */
    float *ref;  /* the transpose, cols x rows */
} transpose_case;

/* Spec constants, by shader (ids 3, 4, ...):
 *   transpose_direct {TILE, ROWS, MODE}                local {TILE, ROWS}
 *   transpose_tiled  {TILE, ROWS, PAD, SWIZZLE, MODE}  local {TILE, ROWS}
 *   transpose_vec4   {TILE, ROWS, PAD}                 local {TILE / 4, ROWS}
 * MODE 0 copies, 1 transposes. ROWS = local_size_y, also a constant so the CUDA twin unrolls as the
 * Vulkan compiler does. */
static const vkb_variant variants[] = {
    /* name kernel local spec nspec param needs flags note */
    {"copy", "transpose_direct", {32, 8, 1}, {32, 8, 0}, 3, OUT_COPIED, 0, 0,
     "tile-shaped copy, 32x8 threads, 4 elements each: the kernel ceiling transposes are held to"},
    {"copy_shared", "transpose_tiled", {32, 8, 1}, {32, 8, 0, 0, 0}, 5, OUT_COPIED, 0, 0,
     "copy through a 32x32 shared tile and a barrier: what the tile itself costs"},
    {"naive", "transpose_direct", {32, 8, 1}, {32, 8, 1}, 3, OUT_TRANSPOSED, 0, 0,
     "coalesced reads, writes strided by rows: a sector per element written"},
    {"coalesced", "transpose_tiled", {32, 8, 1}, {32, 8, 0, 0, 1}, 5, OUT_TRANSPOSED, 0, 0,
     "32x32 shared tile: both global sides coalesced, the column read is a 32-way bank conflict"},
    {"padded", "transpose_tiled", {32, 8, 1}, {32, 8, 1, 0, 1}, 5, OUT_TRANSPOSED, 0, 0,
     "tile [32][33]: a padding word per row puts a tile column in 32 banks, no conflicts"},
    {"swizzled", "transpose_tiled", {32, 8, 1}, {32, 8, 0, 1, 1}, 5, OUT_TRANSPOSED, 0, 0,
     "tile [32][32], element (i,j) at column j^i: conflict-free like padded, no padding words"},
    {"padded_rows4", "transpose_tiled", {32, 4, 1}, {32, 4, 1, 0, 1}, 5, OUT_TRANSPOSED, 0, 0,
     "padded with 32x4 threads: 8 elements per thread, twice the loads in flight per thread"},
    {"padded_rows16", "transpose_tiled", {32, 16, 1}, {32, 16, 1, 0, 1}, 5, OUT_TRANSPOSED, 0, 0,
     "padded with 32x16 threads: 2 elements per thread, twice the threads per tile"},
    {"tile64", "transpose_tiled", {64, 8, 1}, {64, 8, 1, 0, 1}, 5, OUT_TRANSPOSED, 0, 0,
     "padded 64x64 tile, 64x8 threads: 8 elements per thread, a quarter of the barriers per byte"},
    {"vec4", "transpose_vec4", {8, 8, 1}, {32, 8, 1}, 3, OUT_TRANSPOSED, 0, 0,
     "padded 32x32 tile with 16-byte global loads and stores, 8x8 threads: a quarter of the memory "
     "instructions"},
    {"vec4_tile64", "transpose_vec4", {16, 16, 1}, {64, 16, 1}, 3, OUT_TRANSPOSED, 0, 0,
     "vec4 on a 64x64 tile, 16x16 threads: 256-byte row segments and 4x the bytes per barrier; "
     "2-way bank conflicts (16 threads per row span 64 words)"},
    VKB_API_COPY_ROW("vkCmdCopyBuffer / cudaMemcpy device-to-device of the matrix: the ceiling"),
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
        {1, 1},    {1, 1000},  {1000, 1},  {2, 3},     {31, 33},  {32, 32},   {33, 31},   {17, 1000},
        {1000, 17}, {36, 68},  {37, 68},   {36, 69},   {100, 4},  {4, 100},   {257, 129}, {96, 160},
        {1, 65535 * 32 + 5},
    };
    int count = 0;
    for (size_t i = 0; i < VKB_COUNT(s) && count < max; i++)
        out[count++] = (vkb_shape){{s[i][0], s[i][1]}};
    return count;
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
    for (uint64_t i = 0; i < n; i++) {
        float v;
        do /* random, never zero */
            v = (float)vkb_rng_uniform(&rng, -1, 1);
        while (v == 0);
        c->src[i] = v;
    }
    /* the reference, in 32 x 32 blocks so large matrices stay in the host's cache */
    for (uint64_t r0 = 0; r0 < rows; r0 += 32)
        for (uint64_t c0 = 0; c0 < cols; c0 += 32)
            for (uint64_t r = r0; r < r0 + 32 && r < rows; r++)
                for (uint64_t k = c0; k < c0 + 32 && k < cols; k++)
                    c->ref[k * rows + r] = c->src[r * cols + k];
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

/* The plan: a transpose (or copy) of the shape's rows x cols, every constant checked before use. */
static int plan(const vkb_variant *v, const vkb_case *vc, const vkb_caps *caps, vkb_plan *p, char *why, size_t len)
{
    const transpose_case *c = vc->data;
    uint64_t rows = (uint64_t)vc->shape.d[0], cols = (uint64_t)vc->shape.d[1], bytes, tiles_x, tiles_y;
    uint32_t tile = v->spec[0], rows_per_pass = v->spec[1], groups[3];
    int vec4 = v->kernel && strcmp(v->kernel, "transpose_vec4") == 0;
    int direct = v->kernel && strcmp(v->kernel, "transpose_direct") == 0;
    uint32_t mode = direct ? v->spec[2] : vec4 ? 1 : v->spec[4], pad = direct ? 0 : v->spec[2];
    vkb_pass *pass;
    int b[2];

    if (rows > UINT32_MAX || cols > UINT32_MAX || rows * cols > UINT32_MAX)
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE, "%llux%llu is more than 2^32 - 1 elements (the kernels "
                             "index with 32 bits); try a smaller size", (unsigned long long)rows,
                             (unsigned long long)cols);
    bytes = rows * cols * sizeof(float);
    b[0] = vkb_plan_buffer_add(p, bytes, VKB_BUF_INPUT, c ? c->src : NULL);
    b[1] = vkb_plan_buffer_add(p, bytes, VKB_BUF_OUTPUT, c ? c->dst : NULL);
    /* a row's geometry: local {TILE (vec4: TILE / 4), ROWS}, ROWS divides TILE, TILE a power of two (the
     * swizzle XORs within it), MODE what the row computes (its check follows it) */
    if (tile == 0 || rows_per_pass == 0 || (tile & (tile - 1)) != 0 || tile % rows_per_pass != 0 ||
        (vec4 && tile < 4))
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST, "TILE=%u, ROWS=%u: TILE is a power of two (vec4: at "
                             "least 4) and ROWS a divisor of it, both at least 1", tile, rows_per_pass);
    if (v->local[1] != rows_per_pass || v->local[0] * (vec4 ? 4 : 1) != tile || v->local[2] != 1)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST, "a %ux%ux%u workgroup for TILE=%u, ROWS=%u: %s's "
                             "workgroup is %s x ROWS; set 0=%u,1=%u with them", v->local[0], v->local[1],
                             v->local[2], tile, rows_per_pass, v->kernel, vec4 ? "TILE/4" : "TILE",
                             vec4 ? tile / 4 : tile, rows_per_pass);
    if (mode != (uint32_t)(v->param == OUT_TRANSPOSED) || (!direct && !vec4 && v->spec[3] > 1))
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST, "MODE is what the row computes (%s: %u) and SWIZZLE "
                             "0 or 1; tune TILE, ROWS and PAD", v->name, v->param == OUT_TRANSPOSED);
    if (pad > 64)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST, "PAD=%u: at most 64 words of padding per tile row",
                             pad);
    /* one workgroup per tile; past the workgroup-count limit the kernels stride over tiles */
    tiles_x = (cols + tile - 1) / tile;
    tiles_y = (rows + tile - 1) / tile;
    groups[0] = tiles_x > caps->max_group_count[0] ? caps->max_group_count[0] : (uint32_t)tiles_x;
    groups[1] = tiles_y > caps->max_group_count[1] ? caps->max_group_count[1] : (uint32_t)tiles_y;
    groups[2] = 1;
    pass = vkb_plan_dispatch(p, v->kernel, v->local, groups);
    vkb_pass_bind(pass, 2, b);
    memcpy(pass->spec, v->spec, sizeof pass->spec);
    pass->nspec = v->nspec;
    if (!direct) /* tile * (tile + pad) floats; a power-of-two TILE past 2^15 is past any device anyway */
        pass->shared_bytes = tile > 1u << 15 ? UINT32_MAX : tile * (tile + pad) * (uint32_t)sizeof(float);
    pass->push[0] = (uint32_t)rows;
    pass->push[1] = (uint32_t)cols;
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
    vkb_check_init(res, v->param == OUT_COPIED ? "exact (copy of the input)" : "exact (CPU transpose)");
    vkb_check_words(res, (const uint32_t *)c->dst, (const uint32_t *)(v->param == OUT_COPIED ? c->src : c->ref),
                    c->rows * c->cols);
    vkb_check_finish(res);
}

const vkb_family vkb_family_transpose = {
    "transpose", "out-of-place fp32 matrix transpose, rows x cols into cols x rows", {"rows", "cols"}, 2, "GB/s",
    variants, (int)VKB_COUNT(variants),
    default_shapes, battery, case_create, case_destroy, plan, work, check, NULL, copy_io,
};
