/* test_transfer.c - the transfer family's two-queue plans (issue 38): which queue each direction is given, what
 * lavapipe (one queue family) cannot show by running them. */
#include "families.h"
#include "select.h"
#include "test_caps.h"
#include "unit.h"

/* The plan of transfer/VARIANT at 4 KiB on a GPU-like device, into P. */
static int plan_of(const char *variant, vkb_plan *p)
{
    const vkb_family *f = vkb_family_find("transfer");
    vkb_case c = {f, {{4096}}, NULL};
    vkb_caps caps = test_caps_gpu("test device", 16);
    char why[200];
    *p = (vkb_plan){0};
    return vkb_family_plan(f, vkb_variant_find(f, variant), &c, &caps, p, why, sizeof why);
}

/* Two copies, one each way, on different queues; host-timed; every buffer shared between the queues' families. */
static void assert_two_way(const vkb_plan *p)
{
    ASSERT(p->npass == 2 && p->pass[0].kind == VKB_PASS_COPY && p->pass[1].kind == VKB_PASS_COPY);
    ASSERT(p->pass[0].queue != p->pass[1].queue);
    ASSERT(p->host_timed);
    ASSERT(p->buf[p->pass[0].bind[0]].flags & VKB_BUF_HOST_STAGING);   /* up from staging */
    ASSERT(p->buf[p->pass[1].bind[1]].flags & VKB_BUF_HOST_STAGING);   /* down into staging */
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

UNIT_TESTS({"both_compute_and_transfer", both_compute_and_transfer},
           {"both_on_two_transfer_queues", both_on_two_transfer_queues})
