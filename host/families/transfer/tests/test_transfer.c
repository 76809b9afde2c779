/* test_transfer.c - the transfer family's two-way plans: which queue each direction is given, what
 * lavapipe (one queue family) cannot show by running them, and shader_both's geometry at a GPU's sizes. */
#include "families.h"
#include "select.h"
#include "test_caps.h"
#include "unit.h"
#include "util.h"

/* The plan of transfer/VARIANT at BYTES on a GPU-like device, into P. */
static int plan_at(const char *variant, int64_t bytes, vkb_plan *p)
{
    const vkb_family *f = vkb_family_find("transfer");
    vkb_case c = {f, {{bytes}}, NULL};
    vkb_caps caps = test_caps_gpu("test device", 16);
    char why[200];
    *p = (vkb_plan){0};
    return vkb_family_plan(f, vkb_variant_find(f, variant), &c, &caps, p, why, sizeof why);
}

/* ... at 4 KiB */
static int plan_of(const char *variant, vkb_plan *p)
{
    return plan_at(variant, 4096, p);
}

/* Two copies, one each way; host-timed; every buffer shared between the queues' families (the callers say which
 * queues). */
static void assert_two_way(const vkb_plan *p)
{
    ASSERT(p->npass == 2 && p->pass[0].kind == VKB_PASS_COPY && p->pass[1].kind == VKB_PASS_COPY);
    ASSERT(p->host_timed);
    ASSERT(p->buf[p->pass[0].bind[0]].flags & VKB_BUF_HOST_STAGING); /* up from staging */
    ASSERT(p->buf[p->pass[1].bind[1]].flags & VKB_BUF_HOST_STAGING); /* down into staging */
    for (int i = 0; i < p->nbuf; i++)
        ASSERT(p->buf[i].flags & VKB_BUF_TWO_QUEUES);
}

/* staging_both: the upload on the compute queue (0), the download on the transfer queue (1) */
static void both_compute_and_transfer(void)
{
    vkb_plan p;
    ASSERT(plan_of("staging_both", &p) == VKB_PLAN_OK);
    assert_two_way(&p);
    ASSERT(p.pass[0].queue == 0 && p.pass[1].queue == 1);
}

/* staging_both_dma: both directions on the transfer-only family, its queues 0 and 1 (vkb_pass.queue 1 and 2),
 * none on the compute queue */
static void both_on_two_transfer_queues(void)
{
    vkb_plan p;
    ASSERT(plan_of("staging_both_dma", &p) == VKB_PLAN_OK);
    assert_two_way(&p);
    ASSERT(p.pass[0].queue == 1 && p.pass[1].queue == 2);
}

/* staging_both_1q: both directions on the transfer-only family's first queue (vkb_pass.queue 1), recorded into
 * one command buffer there, none on the compute queue */
static void both_on_one_transfer_queue(void)
{
    vkb_plan p;
    ASSERT(plan_of("staging_both_1q", &p) == VKB_PLAN_OK);
    assert_two_way(&p);
    ASSERT(p.pass[0].queue == 1 && p.pass[1].queue == 1);
}

/* shader_both: one dispatch on the compute queue, device-timed, binding 0 (host-visible) up to 1 (device) and 2
 * (device) down to 3 (host-visible); an even number of workgroups, one half each way (the shader takes the
 * parity of a workgroup's id as its direction), a thread for every vec4 or, past the grid limit, as many as it allows
 * (the kernel loops) */
static void shader_both_one_dispatch(void)
{
    static const int64_t sizes[] = {4, 4100, 1 << 20, 1ll << 30}; /* 1 GiB: 2^18 groups a way, past 65535 */
    for (size_t k = 0; k < VKB_COUNT(sizes); k++) {
        vkb_plan p;
        const vkb_pass *d = &p.pass[0];
        uint64_t bytes = (uint64_t)sizes[k], half;
        ASSERT(plan_at("shader_both", sizes[k], &p) == VKB_PLAN_OK);
        ASSERT(p.npass == 1 && d->kind == VKB_PASS_DISPATCH && d->nbind == 4 && d->queue == 0 && !p.host_timed);
        ASSERT(d->push[0] == bytes / 4);
        ASSERT(d->groups[0] % 2 == 0 && d->groups[0] <= 65535 && d->groups[1] == 1 && d->groups[2] == 1);
        half = (uint64_t)d->groups[0] / 2 * d->local[0];     /* threads each way */
        ASSERT(half >= bytes / 16 || d->groups[0] == 65534); /* the n % 4 tail: threads 0-2 */
        ASSERT(p.buf[d->bind[0]].role == VKB_BUF_INPUT && p.buf[d->bind[0]].flags == VKB_BUF_HOST_STAGING);
        ASSERT(p.buf[d->bind[1]].role == VKB_BUF_OUTPUT && p.buf[d->bind[1]].flags == 0);
        ASSERT(p.buf[d->bind[2]].role == VKB_BUF_INPUT && p.buf[d->bind[2]].flags == 0);
        ASSERT(p.buf[d->bind[3]].role == VKB_BUF_OUTPUT && p.buf[d->bind[3]].flags == VKB_BUF_HOST_STAGING);
        for (int i = 0; i < 4; i++)
            ASSERT(p.buf[d->bind[i]].bytes == bytes);
    }
}

UNIT_TESTS({"both_compute_and_transfer", both_compute_and_transfer},
           {"both_on_two_transfer_queues", both_on_two_transfer_queues},
           {"both_on_one_transfer_queue", both_on_one_transfer_queue},
           {"shader_both_one_dispatch", shader_both_one_dispatch})
