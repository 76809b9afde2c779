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
    vkb_stats_compute(x, 5, &s);  /* sorted 1 3 5 7 9: q1 at position 1, q3 at 3 */
    ASSERT(s.q1 == 3 && s.q3 == 7 && fabs(vkb_stats_iqr_ratio(&s) - 0.8) < 1e-12);
    vkb_stats_compute(y, 4, &s);  /* sorted 10 20 30 40: positions 0.75 and 2.25 */
    ASSERT(fabs(s.q1 - 17.5) < 1e-12 && fabs(s.q3 - 32.5) < 1e-12);
    vkb_stats_compute(one, 1, &s);
    ASSERT(s.q1 == 7 && s.q3 == 7 && vkb_stats_iqr_ratio(&s) == 0);
}

static void settle_rule(void)
{
    double flat[40], drift[40];
    for (int i = 0; i < 40; i++) {
        flat[i] = 100 + (i % 3);
        drift[i] = 100 + 10 * i;  /* still ramping: the median keeps moving */
    }
    ASSERT(vkb_timing_settled(flat, 20, 40));
    ASSERT(!vkb_timing_settled(drift, 20, 40));
    ASSERT(!vkb_timing_settled(flat, 2, 4)); /* too few samples to judge */
}

int main(int argc, char **argv)
{
    static const unit_test tests[] = {
        {"odd_count", odd_count}, {"even_count", even_count}, {"single_and_empty", single_and_empty},
        {"settle_rule", settle_rule}, {"quartiles", quartiles}};
    return unit_main(argc, argv, tests, (int)(sizeof tests / sizeof *tests));
}
