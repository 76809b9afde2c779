/* bounds.c - error bounds derived from the arithmetic: gamma_n, sums, dot products, the fp16 accumulator. */
#include "bounds.h"

#include <math.h>

double vkb_gamma(double n, double u)
{
    double nu = n * u;
    return nu < 1.0 ? nu / (1.0 - nu) : INFINITY;
}

double vkb_bound_tree_sum(uint64_t n, double sum_abs, double u)
{
    double depth = n > 1 ? ceil(log2((double)n)) : 0.0;
    return vkb_gamma(depth, u) * sum_abs;
}

double vkb_bound_serial_sum(uint64_t n, double sum_abs, double u)
{
    return vkb_gamma(n > 1 ? (double)(n - 1) : 0.0, u) * sum_abs;
}

double vkb_bound_dot(uint64_t k, double sum_abs_products, double u)
{
    return vkb_gamma((double)k, u) * sum_abs_products;
}

void vkb_bound_acc16_step(double s, double *g, double *e)
{
    *e = *e * (1 + VKB_ACC16_U) + VKB_ACC16_U * fabs(s) + VKB_ACC16_U_IN * (*g + fabs(s));
    *g = 0;
}
