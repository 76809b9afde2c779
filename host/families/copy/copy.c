/* copy.c - the copy family: n floats from one buffer to another, checked byte for byte, beside
 * the API's own copy (vkCmdCopyBuffer / cudaMemcpy device-to-device) as the ceiling. */
#include <stdlib.h>

#include "family.h"
#include "inputs.h"
#include "util.h"

typedef struct copy_case {
    uint64_t n;
    float *src, *dst;
} copy_case;

static const vkb_variant variants[] = {
    /* name       kernel       local      spec  nspec param needs flags  note */
    {"vec4",
     "mem_width",
     {256, 1, 1},
     {4},
     1,
     0,
     0,
     VKB_VAR_SHADER_COPY,
     "16-byte loads and stores, one vec4 per thread, grid-stride past the workgroup-count limit (memory.width's "
     "kernel at WORDS=4)"},
    VKB_API_COPY_ROW("vkCmdCopyBuffer / cudaMemcpy device-to-device: with stream_copy, the ceiling"),
    VKB_STREAM_COPY_ROW,
};

static int default_shapes(const vkb_caps *caps, vkb_shape *out, int max)
{
    (void)max;
    /* GPU: 1 GiB each way, far past any L2; CPU implementation: 16 MiB */
    out[0] = (vkb_shape){{caps->is_cpu ? 1 << 22 : 1 << 28}};
    return 1;
}

static int battery(vkb_shape *out, int max)
{
    static const int64_t n[] = {1, 2, 3, 4, 5, 255, 256, 257, 1023, 1025, 4099, 1000003};
    int count = 0;
    for (size_t i = 0; i < VKB_COUNT(n) && count < max; i++)
        out[count++] = (vkb_shape){{n[i]}};
    return count;
}

/* One chunk of the source: uniform in [-1, 1). */
static void fill_src(void *ctx, vkb_rng *rng, uint64_t chunk, uint64_t first, uint64_t end)
{
    copy_case *c = ctx;
    (void)chunk;
    for (uint64_t i = first; i < end; i++)
        c->src[i] = (float)vkb_rng_uniform(rng, -1, 1);
}

static void *case_create(const vkb_shape *s, uint64_t seed, char *why, size_t len)
{
    uint64_t n = (uint64_t)s->d[0];
    copy_case *c;
    vkb_rng rng;
    (void)why;
    (void)len;
    vkb_host_reserve(2 * n * sizeof(float), "copy");
    /* one block, freed by free(): the case, src, then dst, last so that a write past it leaves the block */
    c = vkb_alloc(sizeof *c + 2 * n * sizeof(float));
    c->n = n;
    c->src = (float *)(c + 1);
    c->dst = c->src + n;
    vkb_rng_seed(&rng, seed);
    vkb_input_fill(&rng, n, 1, fill_src, c);
    return c;
}

static int plan(const vkb_variant *v, const vkb_case *vc, const vkb_caps *caps, vkb_plan *p, char *why, size_t len)
{
    const copy_case *c = vc->data;
    uint64_t n = (uint64_t)vc->shape.d[0];
    uint32_t groups[3];
    vkb_pass *pass;
    int b[2];
    if (n > UINT32_MAX)
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,
                             "n=%llu: at most 2^32 - 1 floats (the kernel indexes "
                             "with 32 bits); try a smaller size",
                             (unsigned long long)n);
    if (v->spec[0] != 4)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "WORDS=%u: copy/vec4 copies vec4s (WORDS=4); "
                             "memory.width sweeps the width",
                             v->spec[0]);
    b[0] = vkb_plan_buffer_add(p, n * sizeof(float), VKB_BUF_INPUT, c ? c->src : NULL);
    b[1] = vkb_plan_buffer_add(p, n * sizeof(float), VKB_BUF_OUTPUT, c ? c->dst : NULL);
    groups[0] = vkb_groups_for((n + 3) / 4, v->local[0], caps->max_group_count[0]);
    groups[1] = groups[2] = 1;
    pass = vkb_plan_dispatch(p, v->kernel, v->local, groups);
    vkb_pass_bind(pass, 2, b);
    pass->spec[0] = v->spec[0];
    pass->nspec = v->nspec;
    pass->push[0] = (uint32_t)n;
    return VKB_PLAN_OK;
}

static uint64_t copy_io(const vkb_case *vc, const void **src, void **dst)
{
    const copy_case *c = vc->data;
    if (src)
        *src = c ? c->src : NULL;
    if (dst)
        *dst = c ? c->dst : NULL;
    return (uint64_t)vc->shape.d[0] * sizeof(float);
}

static double work(const vkb_variant *v, const vkb_case *vc)
{
    (void)v;
    return 2.0 * (double)vc->shape.d[0] * sizeof(float); /* read + write */
}

static void check(const vkb_variant *v, const vkb_case *vc, const vkb_plan *p, vkb_check *res)
{
    copy_case *c = vc->data;
    (void)v;
    (void)p;
    vkb_check_init(res, "exact");
    vkb_check_words(res, (const uint32_t *)c->dst, (const uint32_t *)c->src, c->n);
    vkb_check_finish(res);
}

const vkb_family vkb_family_copy = {
    "copy",
    "buffer copy, the bandwidth reference",
    {"n"},
    1,
    "GB/s",
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
    copy_io,
    .units = {"4-byte words"},
};
