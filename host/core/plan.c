/* plan.c - building plans: buffers and passes. */
#include "plan.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int vkb_plan_buffer_add(vkb_plan *p, uint64_t bytes, vkb_buffer_role role, const void *host)
{
    assert(p->nbuf < VKB_MAX_BUFFERS);
    if (bytes == 0) {
        p->refused = 1;
        return -1;
    }
    p->buf[p->nbuf].bytes = bytes;
    p->buf[p->nbuf].role = role;
    p->buf[p->nbuf].host = host;
    p->buf[p->nbuf].flags = 0;
    return p->nbuf++;
}

static vkb_pass *pass_add(vkb_plan *p, vkb_pass_kind kind, const char *kernel)
{
    vkb_pass *pass;
    assert(p->npass < VKB_MAX_PASSES);
    pass = &p->pass[p->npass++];
    memset(pass, 0, sizeof *pass);
    pass->kind = kind;
    pass->kernel = kernel;
    pass->local[0] = pass->local[1] = pass->local[2] = 1;
    pass->groups[0] = pass->groups[1] = pass->groups[2] = 1;
    return pass;
}

vkb_pass *vkb_plan_dispatch(vkb_plan *p, const char *kernel, const uint32_t local[3], const uint32_t groups[3])
{
    vkb_pass *pass = pass_add(p, VKB_PASS_DISPATCH, kernel);
    memcpy(pass->local, local, sizeof pass->local);
    memcpy(pass->groups, groups, sizeof pass->groups);
    return pass;
}

vkb_pass *vkb_plan_copy(vkb_plan *p, int src, int dst, uint64_t bytes)
{
    vkb_pass *pass = pass_add(p, VKB_PASS_COPY, "copy");
    int b[2] = {src, dst};
    vkb_pass_bind(pass, 2, b);
    pass->copy_bytes = bytes;
    return pass;
}

vkb_pass *vkb_plan_host_copy(vkb_plan *p, int src, int dst, uint64_t bytes)
{
    vkb_pass *pass = vkb_plan_copy(p, src, dst, bytes);
    pass->kind = VKB_PASS_HOST_COPY;
    pass->kernel = "host_copy";
    p->host_timed = 1;
    return pass;
}

vkb_pass *vkb_plan_timestamps(vkb_plan *p, uint32_t n)
{
    vkb_pass *pass = pass_add(p, VKB_PASS_TIMESTAMP, "timestamp");
    pass->repeat = n;
    return pass;
}

vkb_pass *vkb_plan_library(vkb_plan *p, const char *op)
{
    return pass_add(p, VKB_PASS_LIBRARY, op);
}

void vkb_pass_push(vkb_pass *pass, const void *push, size_t bytes)
{
    assert(bytes <= sizeof pass->push);
    memcpy(pass->push, push, bytes);
}

void vkb_pass_bind(vkb_pass *pass, int nbind, const int *bufs)
{
    assert(nbind <= VKB_MAX_BUFFERS);
    memcpy(pass->bind, bufs, (size_t)nbind * sizeof *bufs);
    pass->nbind = nbind;
}

uint32_t vkb_groups_for(uint64_t n, uint32_t size, uint32_t limit)
{
    uint64_t g = size ? n / size + (n % size != 0) : 0;
    if (g == 0)
        g = 1;
    return g > limit ? limit : (uint32_t)g;
}

uint64_t vkb_plan_bytes(const vkb_plan *p)
{
    uint64_t total = 0;
    for (int i = 0; i < p->nbuf; i++)
        total += p->buf[i].bytes;
    return total;
}

int vkb_plan_fail(char *why, size_t len, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return code;
}

uint64_t vkb_mul_sat(uint64_t a, uint64_t b)
{
    return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}
