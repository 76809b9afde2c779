/* stats.h - summary statistics of timing samples. */
#ifndef VKB_STATS_H
#define VKB_STATS_H

typedef struct vkb_stats {
    int n;
    double min, q1, median, q3, max, mean, stddev; /* quartiles interpolated linearly between order statistics */
    int settled; /* set by timing: the median settled before the budget ran out (1 too when --reps fixed n) */
} vkb_stats;

/* Repetitions a statistic needs to mean anything: below them the outputs show `-` (table) or null (JSON) */
#define VKB_STATS_MIN_STDDEV 2
#define VKB_STATS_MIN_QUARTILES 3 /* q1, q3 and the IQR spread */

/* Summarise N samples (the array is not modified). N = 0 gives all zeros. */
void vkb_stats_compute(const double *x, int n, vkb_stats *out);
/* The robust spread: (q3 - q1) / median; 0 when the median is 0. */
double vkb_stats_iqr_ratio(const vkb_stats *s);
/* Median of N samples (the array is not modified). */
double vkb_median(const double *x, int n);

#endif
