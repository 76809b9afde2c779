/* family.c - looking up families and variants; what every plan gets (the API copy, the generic checks);
 * shape text. */
#include "family.h"

#include <stdio.h>
#include <string.h>

const vkb_variant *vkb_variant_find(const vkb_family *f, const char *name)
{
    for (int i = 0; i < f->nvariants; i++)
        if (strcmp(f->variants[i].name, name) == 0)
            return &f->variants[i];
    return NULL;
}

const char *vkb_variant_unit(const vkb_family *f, const vkb_variant *v)
{
    return v && (v->flags & VKB_VAR_INTEGER_OPS) && strcmp(f->metric, "GFLOP/s") == 0 ? "GOP/s" : f->metric;
}

const char *vkb_family_units(const vkb_family *f, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%s", f->metric);
    for (int v = 0; v < f->nvariants; v++) {
        const char *unit = vkb_variant_unit(f, &f->variants[v]);
        int seen = strcmp(unit, f->metric) == 0;
        for (int w = 0; w < v && !seen; w++)
            seen = strcmp(unit, vkb_variant_unit(f, &f->variants[w])) == 0;
        if (!seen && used < len)
            used += (size_t)snprintf(buf + used, len - used, ", %s", unit);
    }
    return buf;
}

const char *vkb_shape_text(const vkb_family *f, const vkb_shape *s, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    if (f->ndims == 1) {
        snprintf(buf, len, "%s=%lld", f->dims[0], (long long)s->d[0]);
        return buf;
    }
    for (int i = 0; i < f->ndims && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", i ? "x" : "", (long long)s->d[i]);
    return buf;
}

/* The stream copy: copy_io's bytes as floats through the copy family's kernel (host/families/copy/copy.c's plan) */
static int plan_stream_copy(const vkb_family *f, const vkb_variant *v, const vkb_case *c, const vkb_caps *caps,
                            vkb_plan *p, char *why, size_t len)
{
    const void *src = NULL;
    void *dst = NULL;
    uint64_t bytes = f->copy_io(c, &src, &dst), words = bytes / 4;
    uint32_t groups[3] = {0, 1, 1};
    int b[2];
    vkb_pass *pass;
    if (bytes % 4 || words > UINT32_MAX)
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,
                             "%llu bytes: the stream copy moves whole floats, at "
                             "most 2^32 - 1 (the kernel indexes with 32 bits)",
                             (unsigned long long)bytes);
    b[0] = vkb_plan_buffer_add(p, bytes, VKB_BUF_INPUT, src);
    b[1] = vkb_plan_buffer_add(p, bytes, VKB_BUF_OUTPUT, dst);
    groups[0] = vkb_groups_for((words + 3) / 4, v->local[0], caps->max_group_count[0]);
    pass = vkb_plan_dispatch(p, v->kernel, v->local, groups);
    vkb_pass_bind(pass, 2, b);
    pass->spec[0] = v->spec[0];
    pass->nspec = v->nspec;
    pass->push[0] = (uint32_t)words;
    return VKB_PLAN_OK;
}

int vkb_family_plan(const vkb_family *f, const vkb_variant *v, const vkb_case *c, const vkb_caps *caps, vkb_plan *p,
                    char *why, size_t len)
{
    int code;
    memset(p, 0, sizeof *p);
    why[0] = 0;
    if (!v->local[0] || !v->local[1] || !v->local[2])
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "a %ux%ux%u workgroup; each of its sizes (--spec 0=, "
                             "1=, 2=) is at least 1",
                             v->local[0], v->local[1], v->local[2]);
    if (v->flags & VKB_VAR_API_COPY) {
        const void *src = NULL;
        void *dst = NULL;
        uint64_t bytes = f->copy_io(c, &src, &dst);
        int s = vkb_plan_buffer_add(p, bytes, VKB_BUF_INPUT, src);
        int d = vkb_plan_buffer_add(p, bytes, VKB_BUF_OUTPUT, dst);
        if (s >= 0 && d >= 0)
            vkb_plan_copy(p, s, d, bytes);
        code = VKB_PLAN_OK;
    } else if (v->flags & VKB_VAR_STREAM_COPY) {
        code = plan_stream_copy(f, v, c, caps, p, why, len);
    } else {
        code = f->plan(v, c, caps, p, why, len);
    }
    if (code != VKB_PLAN_OK)
        return code;
    if (p->refused)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST,
                             "the shape and constants give an empty buffer; "
                             "use sizes and constants of at least 1");
    return VKB_PLAN_OK;
}

double vkb_family_work(const vkb_family *f, const vkb_variant *v, const vkb_case *c)
{
    if (v->flags & (VKB_VAR_API_COPY | VKB_VAR_STREAM_COPY))
        return 2.0 * (double)f->copy_io(c, NULL, NULL); /* read + write */
    return f->work(v, c);
}

void vkb_family_check_cost(const vkb_family *f, const vkb_variant *v, const vkb_shape *shape, vkb_check_cost *cost)
{
    memset(cost, 0, sizeof *cost);
    if (f->check_cost && !(v->flags & (VKB_VAR_API_COPY | VKB_VAR_STREAM_COPY)))
        f->check_cost(v, shape, cost);
}

void vkb_family_check(const vkb_family *f, const vkb_variant *v, const vkb_case *c, const vkb_plan *p, vkb_check *res)
{
    if (v->flags & (VKB_VAR_API_COPY | VKB_VAR_STREAM_COPY)) {
        vkb_check_init(res, "exact copy of the input");
        vkb_check_words(res, p->buf[1].host, p->buf[0].host, p->buf[0].bytes / 4);
        vkb_check_finish(res);
        return;
    }
    f->check(v, c, p, res);
}
