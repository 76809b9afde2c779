/* peak_rates.h - the theoretical rate of each peak row where the device's numbers are known (NVIDIA, through
 * the CUDA module: SM count, clock, compute capability). */
#ifndef VKB_PEAK_RATES_H
#define VKB_PEAK_RATES_H

#include "caps.h"

/* Giga-operations per second TYPE (PEAK_T_*, OPS operations per lane-step) can reach on CAPS: SMs x clock x
 * the architecture's results per clock per SM; 0 where one of them is unknown. *BOUND: the rate nothing can
 * exceed (the theoretical one, or the issue limit where the table claims none), 0 where unknown. */
double vkb_peak_theoretical(int type, int ops, const vkb_caps *caps, double *bound);

/* The tensor cores' dense rate (INT8: the 8-bit integer one) on CAPS in operations per ns, the cooperative-matrix
 * rows' theoretical rate and bound; 0 where unknown. */
double vkb_peak_tensor_rate(int int8, const vkb_caps *caps);

#endif
