/* stats.c - summary statistics of timing samples. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double sorted_median(const double *s, int n)
{
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* The P quantile of sorted S: linear between the order statistics at (n - 1) p (Hyndman and Fan's type 7,
 * numpy's default), so q1 and q3 of a few samples stay inside [min, max]. */
static double sorted_quantile(const double *s, int n, double p)
{
    double pos = (n - 1) * p;
    int lo = (int)pos;
    return lo + 1 < n ? s[lo] + (pos - lo) * (s[lo + 1] - s[lo]) : s[n - 1];
}

double vkb_stats_iqr_ratio(const vkb_stats *s)
{
    return s->median > 0 ? (s->q3 - s->q1) / s->median : 0.0;
}

double vkb_median(const double *x, int n)
{
    double *s, m;
    if (n <= 0)
        return 0;
    s = vkb_alloc((size_t)n * sizeof *s);
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    m = sorted_median(s, n);
    free(s);
    return m;
}

void vkb_stats_compute(const double *x, int n, vkb_stats *out)
{
    double *s, sum = 0, var = 0;
    memset(out, 0, sizeof *out);
    if (n <= 0)
        return;
    s = vkb_alloc((size_t)n * sizeof *s);
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    for (int i = 0; i < n; i++)
        sum += s[i];
    out->n = n;
    out->min = s[0];
    out->max = s[n - 1];
    out->median = sorted_median(s, n);
    out->q1 = sorted_quantile(s, n, 0.25);
    out->q3 = sorted_quantile(s, n, 0.75);
    out->mean = sum / n;
    for (int i = 0; i < n; i++)
        var += (s[i] - out->mean) * (s[i] - out->mean);
    out->stddev = n > 1 ? sqrt(var / (n - 1)) : 0.0;
    free(s);
}
