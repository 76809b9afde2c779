/* test_stats.c - summary statistics and the timing stop rule. */
#include <math.h>

#include "stats.h"
#include "timing.h"
#include "unit.h"

static void odd_count(void)
{
    double x[] = {5, 1, 4, 2, 3};
    vkb_stats s;
    vkb_stats_compute(x, 5, &s);
    ASSERT(s.n == 5 && s.min == 1 && s.max == 5 && s.median == 3 && s.mean == 3);
    ASSERT(fabs(s.stddev - sqrt(2.5)) < 1e-12);
    ASSERT(x[0] == 5); /* input untouched */
}

static void even_count(void)
{
    double x[] = {4, 1, 3, 2};
    vkb_stats s;
    vkb_stats_compute(x, 4, &s);
    ASSERT(s.median == 2.5 && s.min == 1 && s.max == 4);
    ASSERT(vkb_median(x, 4) == 2.5);
}

static void single_and_empty(void)
{
    double x[] = {7};
    vkb_stats s;
    vkb_stats_compute(x, 1, &s);
    ASSERT(s.median == 7 && s.stddev == 0);
    vkb_stats_compute(x, 0, &s);
    ASSERT(s.n == 0 && s.median == 0);
}

static void quartiles(void)
{
    double x[] = {9, 1, 5, 3, 7}, y[] = {10, 40, 20, 30}, one[] = {7};
    vkb_stats s;
    vkb_stats_compute(x, 5, &s); /* sorted 1 3 5 7 9: q1 at position 1, q3 at 3 */
    ASSERT(s.q1 == 3 && s.q3 == 7 && fabs(vkb_stats_iqr_ratio(&s) - 0.8) < 1e-12);
    vkb_stats_compute(y, 4, &s); /* sorted 10 20 30 40: positions 0.75 and 2.25 */
    ASSERT(fabs(s.q1 - 17.5) < 1e-12 && fabs(s.q3 - 32.5) < 1e-12);
    vkb_stats_compute(one, 1, &s);
    ASSERT(s.q1 == 7 && s.q3 == 7 && vkb_stats_iqr_ratio(&s) == 0);
}

static void settle_rule(void)
{
    double flat[40], drift[40];
    for (int i = 0; i < 40; i++) {
        flat[i] = 100 + (i % 3);
        drift[i] = 100 + 10 * i; /* still ramping: the median keeps moving */
    }
    ASSERT(vkb_timing_settled(flat, 20, 40));
    ASSERT(!vkb_timing_settled(drift, 20, 40));
    ASSERT(!vkb_timing_settled(flat, 2, 4)); /* too few samples to judge */
}

/* The rule at its edges: medians 0.49% and 0.51% apart, and 0.501% of the newer one (0.5% would take the
 * older: 0.50% is within 0.5% of the newer median, not of the older), upward and downward; the median, not
 * the mean (one outlier moves the mean 10%); and no verdict below 10 samples or without an earlier median. */
static void settle_edges(void)
{
    double x[40];
    struct {
        double newer;
        int settled;
    } cases[] = {{100.49, 1}, {100.52, 0}, {100.501, 1}, {99.51, 1}, {99.49, 0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        /* the first 10 at 100, the next 10 at v: the median of 20 is (100 + v) / 2 */
        for (int i = 0; i < 20; i++)
            x[i] = i < 10 ? 100 : 2 * cases[c].newer - 100;
        ASSERT(vkb_timing_settled(x, 10, 20) == cases[c].settled);
    }
    for (int i = 0; i < 40; i++)
        x[i] = 100 + (i % 2) * 0.1;
    x[25] = 4100; /* the mean of 40 moves by 100: the median does not */
    ASSERT(vkb_timing_settled(x, 20, 40));
    ASSERT(vkb_timing_settled(x, 5, 10) && !vkb_timing_settled(x, 5, 9) && !vkb_timing_settled(x, 0, 20));
}

UNIT_TESTS({"odd_count", odd_count}, {"even_count", even_count}, {"single_and_empty", single_and_empty},
           {"settle_rule", settle_rule}, {"settle_edges", settle_edges}, {"quartiles", quartiles})
