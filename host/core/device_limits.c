/* device_limits.c - a plan against a device's limits: workgroup size and count, shared memory, buffer range,
 * uniform buffer size, device memory. The families state what their kernels need; only this checks it. */
#include "device_limits.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

/* NEED and HAVE as text into N and H; exact byte counts where the rounded ones read alike ("needs a 128 MiB
 * buffer; the largest allows is 128 MiB" for a buffer 4 bytes too large). */
static void need_have_text(uint64_t need, uint64_t have, char *n, char *h, size_t len)
{
    vkb_fmt_bytes(need, n, len);
    vkb_fmt_bytes(have, h, len);
    if (strcmp(n, h) == 0) {
        snprintf(n, len, "%llu-byte", (unsigned long long)need);
        snprintf(h, len, "%llu bytes", (unsigned long long)have);
    }
}

int vkb_plan_check_limits(const vkb_plan *p, const vkb_caps *caps, char *why, size_t len)
{
    char need[32], have[32];
    uint64_t total = 0;
    for (int i = 0; i < p->nbuf; i++) {
        uint64_t bytes = p->buf[i].bytes;
        total += bytes;
        if (bytes > caps->max_buffer_bytes) {
            need_have_text(bytes, caps->max_buffer_bytes, need, have, sizeof need);
            return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,
                                 "needs a %s buffer; the largest %s allows is %s; "
                                 "try a smaller size",
                                 need, caps->name, have);
        }
        if ((p->buf[i].flags & VKB_BUF_UNIFORM) && bytes > caps->max_uniform_bytes) {
            need_have_text(bytes, caps->max_uniform_bytes, need, have, sizeof need);
            return vkb_plan_fail(why, len, VKB_PLAN_SKIP, "needs a %s uniform buffer; %s allows %s", need, caps->name,
                                 have);
        }
    }
    if (caps->device_memory_bytes && total > caps->device_memory_bytes / 10 * 9)
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,
                             "needs %s of device memory; %s has %s; try a smaller "
                             "size",
                             vkb_fmt_bytes(total, need, sizeof need), caps->name,
                             vkb_fmt_bytes(caps->device_memory_bytes, have, sizeof have));
    for (int i = 0; i < p->npass; i++) {
        const vkb_pass *s = &p->pass[i];
        uint64_t invocations = (uint64_t)s->local[0] * s->local[1] * s->local[2];
        if (s->kind != VKB_PASS_DISPATCH)
            continue;
        if (invocations > caps->max_workgroup_invocations || s->local[0] > caps->max_workgroup_size[0] ||
            s->local[1] > caps->max_workgroup_size[1] || s->local[2] > caps->max_workgroup_size[2])
            return vkb_plan_fail(why, len, VKB_PLAN_SKIP,
                                 "%s: a %ux%ux%u workgroup is beyond the device's "
                                 "%ux%ux%u and %u invocations",
                                 s->kernel, s->local[0], s->local[1], s->local[2], caps->max_workgroup_size[0],
                                 caps->max_workgroup_size[1], caps->max_workgroup_size[2],
                                 caps->max_workgroup_invocations);
        if (s->shared_bytes > caps->max_shared_bytes)
            return vkb_plan_fail(why, len, VKB_PLAN_SKIP,
                                 "%s: needs %u bytes of shared memory per workgroup; "
                                 "the device has %u",
                                 s->kernel, s->shared_bytes, caps->max_shared_bytes);
        for (int d = 0; d < 3; d++)
            if (s->groups[d] > caps->max_group_count[d])
                return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,
                                     "%s: %u workgroups in dimension %d, beyond "
                                     "the device's %u; try a smaller size",
                                     s->kernel, s->groups[d], d, caps->max_group_count[d]);
    }
    return VKB_PLAN_OK;
}
