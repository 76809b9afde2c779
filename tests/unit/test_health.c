/* test_health.c - the health check's rule for one row's speed (host/app/health.c): inside its bound, a warning,
 * or out of service. The whole battery's verdicts run on a device in tests/cli/health_test.py. */
#include "health.h"
#include "unit.h"

/* The bound: 6 noise widths (the row's and the GPU's shared noise together) and at least 20% of the median. */
static void bound(void)
{
    ASSERT(vkb_health_row_speed(100, 100, 1, 0) == 0);
    ASSERT(vkb_health_row_speed(80.5, 100, 1, 0) == 0); /* 20% is the floor where the noise is small */
    ASSERT(vkb_health_row_speed(79.5, 100, 1, 0) == 1);
    ASSERT(vkb_health_row_speed(71, 100, 3, 4) == 0); /* 6 x 5 = 30: wider than the floor */
    ASSERT(vkb_health_row_speed(69, 100, 3, 4) == 1);
    ASSERT(vkb_health_row_speed(1e9, 100, 1, 0) == 0); /* faster is never slow */
}

/* A row alone takes the GPU out only below half its median: the H100's pinned host copy read 0.54x and 0.65x of
 * its baseline in 2 of 10 healthy runs (docs/tooling.md); a link at half speed or worse is a sick node. */
static void out_of_service_below_half(void)
{
    ASSERT(vkb_health_row_speed(54, 100, 0.5, 0) == 1);
    ASSERT(vkb_health_row_speed(65, 100, 0.5, 0) == 1);
    ASSERT(vkb_health_row_speed(49.9, 100, 0.5, 0) == 2);
    ASSERT(vkb_health_row_speed(0, 100, 0.5, 0) == 2);
}

UNIT_TESTS({"bound", bound}, {"out_of_service_below_half", out_of_service_below_half})
