/* test_cache_probe.c - the last-level cache's knee from synthetic chase latencies (host/app/cache_probe.c). */
#include "cache_probe.h"
#include "unit.h"

#define MIB (1024.0 * 1024.0)

/* L1 to 256 KiB, L2 (40-42 ns, the plateau's last point 42) to 48 MiB, DRAM (120 ns) beyond: half way (71 ns)
 * between 48 and 64 MiB, at 48 (64/48)^(ln(71/42) / ln(100/42)) = 57.1 MiB */
static void two_levels(void)
{
    double b[] = {1024, 65536, 1 * MIB, 8 * MIB, 32 * MIB, 48 * MIB, 64 * MIB, 128 * MIB, 256 * MIB};
    double ns[] = {10, 10, 40, 40, 41, 42, 100, 118, 120};
    uint64_t k = vkb_cache_knee(b, ns, 9);
    ASSERT(k > 57.0 * MIB && k < 57.3 * MIB);
}

/* a noisy point on the rise (79 at 7.5 MiB, 48 after it) is neither the plateau nor the knee: the walk down by
 * halves ends at 1 MiB (30 ns); half way to 150 ns (67.1) between 8 MiB (48) and 16 MiB (126), the first crossing
 * that lasts: 8 * 2^(ln(67.1/48) / ln(126/48)) = 10.2 MiB */
static void noisy_rise(void)
{
    double b[] = {1 * MIB, 4 * MIB, 6 * MIB, 7 * MIB, 7.5 * MIB, 8 * MIB, 16 * MIB, 64 * MIB};
    double ns[] = {30, 32, 34, 35, 79, 48, 126, 150};
    uint64_t k = vkb_cache_knee(b, ns, 8);
    ASSERT(k > 10.1 * MIB && k < 10.3 * MIB);
}

/* the H100's chase through Vulkan (docs/performance.md): L2 plateau 147.6 ns, DRAM 345 ns; half way (225.7 ns)
 * between 16 MiB (173.4) and 32 MiB (236.0): 16 * 2^(ln(225.7/173.4) / ln(236/173.4)) = 28.6 MiB */
static void h100(void)
{
    double b[] = {1024, 65536, 262144, 1 * MIB, 4 * MIB, 8 * MIB, 16 * MIB, 32 * MIB, 64 * MIB, 128 * MIB,
                  256 * MIB, 512 * MIB};
    double ns[] = {24.4, 39.7, 124.4, 147.6, 147.5, 147.7, 173.4, 236.0, 299.9, 338.6, 345.6, 345.0};
    uint64_t k = vkb_cache_knee(b, ns, 12);
    ASSERT(k > 28 * MIB && k < 29.5 * MIB);
}

/* a flat curve, or too few points: no knee */
/* the H100's probe through Vulkan (docs/performance.md): powers of two, then 7 points around a first knee; the
 * last point clearly in a cache (37.1 MiB, 229 ns) is on the rise, and the walk down by halves finds the plateau
 * at 16 MiB (173.8 ns); half way to 346.5 ns (245.4) between 41.7 MiB (239.6) and 46.4 MiB (259.7): 43.0 MiB */
static void h100_probe(void)
{
    double b[] = {1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576, 2097152, 4194304,
                  8388608, 16777216, 24302720, 29163264, 33554432, 34023808, 38884288, 43744832, 48605376, 53465920,
                  67108864, 134217728, 268435456, 536870912};
    double ns[] = {24.34, 24.58, 25.05, 25.99, 27.91, 31.7, 39.28, 55.48, 125.6, 148.9, 148.9, 148.9, 148.9, 170.3,
                   173.8, 194.8, 214.8, 233.7, 232.2, 229.2, 239.6, 259.7, 273.4, 294, 325, 339.6, 346.5};
    uint64_t k = vkb_cache_knee(b, ns, 27);
    ASSERT(k > 42.9 * MIB && k < 43.2 * MIB);
}

static void no_step(void)
{
    double b[] = {1024, 2048, 4096, 8192};
    double ns[] = {10, 10.5, 10.2, 10.4};
    ASSERT(vkb_cache_knee(b, ns, 4) == 0);
    ASSERT(vkb_cache_knee(b, ns, 2) == 0);
}

UNIT_TESTS({"two_levels", two_levels}, {"noisy_rise", noisy_rise}, {"h100", h100}, {"h100_probe", h100_probe},
           {"no_step", no_step})
