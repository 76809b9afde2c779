/* stats.h - summary statistics of timing samples. */
#ifndef VKB_STATS_H
#define VKB_STATS_H

typedef struct vkb_stats {
    int n;
    double min, median, mean, stddev, max;
} vkb_stats;

/* Summarise N samples (the array is not modified). N = 0 gives all zeros. */
void vkb_stats_compute(const double *x, int n, vkb_stats *out);
/* Median of N samples (the array is not modified). */
double vkb_median(const double *x, int n);

#endif
