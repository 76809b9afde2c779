/* test_cache_probe.c - the last-level cache's knee from synthetic chase latencies, and the file that keeps it read
 * strictly (host/app/cache_probe.c). */
#include "cache_probe.h"
#include "unit.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1024.0 * 1024.0)
#define PRINTK(k) fprintf(stderr, "%s: %.2f MiB\n", #k, (double)(k) / MIB) /* the value, where a test fails */

/* L1 to 256 KiB, L2 (40-42 ns) to 48 MiB, DRAM (100 ns, then a TLB climb of 10% to 256 MiB) beyond: a sharp
 * step, read where the rise comes within 3% of the tail's line, just short of 64 MiB; the rise from 48 to 64 */
static void two_levels(void)
{
    double b[] = {1024, 65536, 1 * MIB, 8 * MIB, 32 * MIB, 48 * MIB, 64 * MIB, 128 * MIB, 256 * MIB};
    double ns[] = {10, 10, 40, 40, 41, 42, 100, 110, 112};
    vkb_cache_rise rise;
    uint64_t k = vkb_cache_knee(b, ns, 9, &rise);
    PRINTK(k);
    ASSERT(k > 60 * MIB && k <= 64 * MIB);
    ASSERT(rise.lo == 48 * MIB && rise.hi == 64 * MIB);
    ns[7] = 118; /* an 18% climb after the step: the rise's end is unclear (the two rules disagree): no size */
    ns[8] = 120;
    ASSERT(vkb_cache_knee(b, ns, 9, NULL) == 0);
}

/* a stray point on the L2's plateau (79 ns at 6 MiB, 35 after it) is smoothed away, not read as the rise: the knee
 * is the step from 8 MiB's plateau to DRAM */
static void noisy_rise(void)
{
    double b[] = {1 * MIB, 4 * MIB, 6 * MIB, 7 * MIB, 7.5 * MIB, 8 * MIB, 16 * MIB, 64 * MIB, 128 * MIB};
    double ns[] = {30, 32, 79, 35, 35.5, 36, 126, 150, 152};
    vkb_cache_rise rise;
    uint64_t k = vkb_cache_knee(b, ns, 9, &rise);
    PRINTK(k);
    ASSERT(k > 8 * MIB && k < 16.5 * MIB && rise.lo == 8 * MIB);
}

/* a stray point on the rise (95 ns at 52 MiB between 45 and 50) is neither the rise's end nor, smoothed, its
 * steepest part: the knee is the clean curve's within 5% */
static void stray_on_rise(void)
{
    double b[] = {8 * MIB, 32 * MIB, 48 * MIB, 50 * MIB, 52 * MIB, 54 * MIB, 56 * MIB, 64 * MIB, 128 * MIB, 256 * MIB};
    double ns[] = {40, 41, 42, 45, 47, 50, 60, 100, 105, 106};
    uint64_t clean = vkb_cache_knee(b, ns, 10, NULL), k;
    ns[4] = 95;
    k = vkb_cache_knee(b, ns, 10, NULL);
    PRINTK(clean);
    PRINTK(k);
    ASSERT(clean > 56 * MIB && k > 0.95 * (double)clean && k < 1.05 * (double)clean);
}

/* The H100's chase through Vulkan, 50 MiB of L2 in two partitions, three sweeps of different shapes
 * (docs/performance/cache.md): each reads within 15% of 50 MiB (42.5 - 57.5: 53.8, 54.1, 45.2), where the
 * half-way rule read 28.6, 43.0 and 39.5 MiB. Powers of two (docs/performance.md): L2 147.6 ns to 8 MiB, then a
 * climb through 16-64 MiB */
static void h100(void)
{
    double b[] = {1024,     65536,    262144,   1 * MIB,   4 * MIB,   8 * MIB,
                  16 * MIB, 32 * MIB, 64 * MIB, 128 * MIB, 256 * MIB, 512 * MIB};
    double ns[] = {24.4, 39.7, 124.4, 147.6, 147.5, 147.7, 173.4, 236.0, 299.9, 338.6, 345.6, 345.0};
    uint64_t k = vkb_cache_knee(b, ns, 12, NULL);
    PRINTK(k);
    ASSERT(k > 42.5 * MIB && k < 57.5 * MIB);
}

/* ... the probe's own sweep of batch b: powers of two and 7 points around an earlier knee, with a split L2's
 * far plateau (229-240 ns, 32-42 MiB) between the near partition's rise and the last one */
static void h100_probe(void)
{
    double b[] = {1024,     2048,     4096,     8192,     16384,    32768,    65536,     131072,    262144,
                  524288,   1048576,  2097152,  4194304,  8388608,  16777216, 24302720,  29163264,  33554432,
                  34023808, 38884288, 43744832, 48605376, 53465920, 67108864, 134217728, 268435456, 536870912};
    double ns[] = {24.34, 24.58, 25.05, 25.99, 27.91, 31.7,  39.28, 55.48, 125.6, 148.9, 148.9, 148.9, 148.9, 170.3,
                   173.8, 194.8, 214.8, 233.7, 232.2, 229.2, 239.6, 259.7, 273.4, 294,   325,   339.6, 346.5};
    uint64_t k = vkb_cache_knee(b, ns, 27, NULL);
    PRINTK(k);
    ASSERT(k > 42.5 * MIB && k < 57.5 * MIB);
    ns[19] = 265; /* a stray point on the far plateau (37.1 MiB), 15% high: smoothed away, the same size */
    ASSERT(vkb_cache_knee(b, ns, 27, NULL) == k);
}

/* ... and `run cache` of batch b (its table): DRAM's level (305 ns) already at 48 MiB */
static void h100_table(void)
{
    double b[] = {1024, 131072, 524288, 8 * MIB, 16 * MIB, 24 * MIB, 32 * MIB, 48 * MIB, 64 * MIB, 256 * MIB};
    double ns[] = {24.4, 55.1, 147.6, 157.3, 182.5, 208.6, 245.0, 305.3, 309.8, 352.3};
    uint64_t k = vkb_cache_knee(b, ns, 10, NULL);
    PRINTK(k);
    ASSERT(k > 42.5 * MIB && k < 57.5 * MIB);
}

/* ns per load at footprint F on the curve of N points (B, NS), interpolated in log-log */
static double curve_at(const double *b, const double *ns, int n, double f)
{
    for (int i = 1; i < n; i++)
        if (f <= b[i]) {
            double t = f <= b[i - 1] ? 0 : log(f / b[i - 1]) / log(b[i] / b[i - 1]);
            return exp(log(ns[i - 1]) + t * log(ns[i] / ns[i - 1]));
        }
    return ns[n - 1];
}

/* The H100's chase at the probe's points (powers of two to 4 MiB, then four an octave),
 * taken from a sweep at finer steps timed as `run` times (docs/results/h100-2026-11-27-s8-chase-fine.json): the
 * near partition's rise at 21-30 MiB, the far partition's plateau at 34-39 MiB, DRAM's level past 55 MiB. The
 * size is the whole L2's, 50 MiB within 15%; the near partition's edge (about 30 MiB) is the wrong answer. */
static void h100_quarter_octaves(void)
{
    static const double curve[][2] = {
        {1024, 24.4},       {2048, 24.6},       {4096, 25.1},      {8192, 26.1},       {16384, 28.1},
        {32768, 32.0},      {65536, 39.8},      {131072, 55.0},    {262144, 126.4},    {524288, 149.8},
        {1048576, 150.0},   {2097152, 150.0},   {4194304, 150.1},  {8388608, 150.5},   {9437184, 150.8},
        {11943936, 151.7},  {13436928, 152.2},  {17006592, 152.7}, {19131392, 153.0},  {24213504, 165.7},
        {27240448, 194.4},  {34476032, 267.5},  {38785024, 276.2}, {49087488, 325.5},  {55223296, 336.7},
        {69892096, 346.4},  {78628864, 348.5},  {99514368, 352.1}, {111953920, 352.7}, {141691904, 355.6},
        {159403008, 355.6}, {179328000, 355.7}, {226962432, 356.1}};
    double b[64], ns[64];
    int n = (int)(sizeof curve / sizeof *curve);
    uint64_t size;
    for (int i = 0; i < n; i++)
        b[i] = curve[i][0], ns[i] = curve[i][1];
    size = vkb_cache_knee(b, ns, n, NULL);
    fprintf(stderr, "H100 at the probe's points: %.1f MiB (its L2: 50 MiB)\n", (double)size / (1 << 20));
    ASSERT(size > 0.85 * (50 << 20) && size < 1.15 * (50 << 20));
}

/* The H200's chase as `run` times it (cache.chase --budget-ms 100; the file is
 * `git show f25329a:docs/results/h200-2026-12-01-cache.json`), through each API: 150 ns to 24 MiB, the near
 * partition's rise, the far partition's 270-280 ns at 40-48 MiB, DRAM from 64 MiB (1 and 4 MiB: the probe's own
 * points of that call). Its L2: 60 MB (57.2 MiB); Vulkan's within 15% */
static void h200_run_curve(void)
{
    static const double mib[] = {1, 4, 8, 16, 24, 28, 32, 36, 40, 44, 48, 56, 64, 80, 96, 192};
    static const double vk[] = {150.1, 150.2, 150.3, 152.6, 153.7, 176.1, 212.1, 254.3,
                                271.4, 279.2, 311.2, 327.3, 336.7, 345.1, 350.2, 358.1};
    static const double cu[] = {146.5, 146.5, 146.6, 146.3, 146.5, 155.1, 202.2, 243.7,
                                263.9, 269.8, 269.5, 291.7, 313.8, 332.4, 339.6, 347.4};
    const double l2 = 60e6;
    for (int api = 0; api < 2; api++) {
        double b[16], ns[16];
        uint64_t size;
        for (int i = 0; i < 16; i++)
            b[i] = mib[i] * MIB, ns[i] = api ? cu[i] : vk[i];
        size = vkb_cache_knee(b, ns, 16, NULL);
        fprintf(stderr, "H200 through %s: %.1f MiB (its L2: 57.2 MiB)\n", api ? "CUDA" : "Vulkan",
                (double)size / (1 << 20));
        /* the probe chases through Vulkan; CUDA's curve (for comparison) climbs on to 80 MiB and reads 71.5 */
        ASSERT(api || (size > 0.85 * l2 && size < 1.15 * l2));
    }
}

/* The probe on the H100's powers-of-two curve with 1% noise on every point, 200 seeded draws: the powers of two
 * from 1 KiB to 512 MiB, then 7 points across the rise they show, as vkb_cache_measure places them. At least 75%
 * of the draws within 15% of 50 MiB, none further than 20% (the others unknown) */
static void noisy_h100(void)
{
    static const double b[] = {1024,     65536,    262144,   1 * MIB,   4 * MIB,   8 * MIB,
                               16 * MIB, 32 * MIB, 64 * MIB, 128 * MIB, 256 * MIB, 512 * MIB};
    static const double ns[] = {24.4, 39.7, 124.4, 147.6, 147.5, 147.7, 173.4, 236.0, 299.9, 338.6, 345.6, 345.0};
    int within = 0, far = 0;
    uint32_t seed = 12345;
    for (int draw = 0; draw < 200; draw++) {
        double f[40], y[40];
        int n = 0;
        vkb_cache_rise rise;
        uint64_t k;
        for (double v = 1024; v <= 512 * MIB; v *= 2, n++)
            f[n] = v;
        for (int i = 0; i < n; i++) {
            seed = seed * 1664525u + 1013904223u; /* an LCG: the same draws on every host */
            y[i] = curve_at(b, ns, 12, f[i]) * (1 + 0.01 * ((seed >> 8) / 8388608.0 - 1));
        }
        k = vkb_cache_knee(f, y, n, &rise);
        if (k) {
            for (int j = 0; j < 7; j++) { /* merged in order; footprints already there are not repeated */
                double g = round(rise.lo * pow(rise.hi / rise.lo, (j + 1) / 8.0) / 64) * 64, v;
                int at = n;
                while (at > 0 && f[at - 1] > g)
                    at--;
                if (at > 0 && f[at - 1] == g)
                    continue;
                seed = seed * 1664525u + 1013904223u;
                v = curve_at(b, ns, 12, g) * (1 + 0.01 * ((seed >> 8) / 8388608.0 - 1));
                memmove(f + at + 1, f + at, (size_t)(n - at) * sizeof *f);
                memmove(y + at + 1, y + at, (size_t)(n - at) * sizeof *y);
                f[at] = g;
                y[at] = v;
                n++;
            }
            k = vkb_cache_knee(f, y, n, NULL);
        }
        within += k && fabs(k / (50 * MIB) - 1) <= 0.15;
        far += k && fabs(k / (50 * MIB) - 1) > 0.2;
    }
    fprintf(stderr, "within 15%%: %d of 200, beyond 20%%: %d\n", within, far);
    ASSERT(within >= 150 && far == 0);
}

/* a flat curve, or too few points: no knee */
static void no_step(void)
{
    double b[] = {1024, 2048, 4096, 8192, 16384};
    double ns[] = {10, 10.5, 10.2, 10.4, 10.3};
    ASSERT(vkb_cache_knee(b, ns, 5, NULL) == 0);
    ASSERT(vkb_cache_knee(b, ns, 3, NULL) == 0);
}

/* a sweep that ends on the rise (DRAM not reached) or whose footprints are out of order: no knee */
static void no_tail(void)
{
    double b[] = {1 * MIB, 2 * MIB, 4 * MIB, 8 * MIB, 16 * MIB, 32 * MIB};
    double ns[] = {40, 40, 40, 41, 80, 160};
    double shuffled[] = {1 * MIB, 2 * MIB, 8 * MIB, 4 * MIB, 16 * MIB, 32 * MIB};
    ASSERT(vkb_cache_knee(b, ns, 6, NULL) == 0);
    ns[5] = 82; /* flattened: a knee */
    ASSERT(vkb_cache_knee(b, ns, 6, NULL) > 8 * MIB);
    ASSERT(vkb_cache_knee(shuffled, ns, 6, NULL) == 0);
}

/* a split L2 (the H100's two partitions): the near one at 150 ns to 16 MiB, the far one at 238-242 ns to 48 MiB,
 * DRAM 330-350: the cache ends past 48 MiB (within 15% of 50 MiB), not at the near partition's edge */
static void split_knee(void)
{
    double b[] = {1 * MIB,  4 * MIB,  8 * MIB,  16 * MIB, 20 * MIB, 24 * MIB,  32 * MIB,
                  40 * MIB, 48 * MIB, 52 * MIB, 56 * MIB, 64 * MIB, 128 * MIB, 256 * MIB};
    double ns[] = {150, 150, 150, 151, 200, 238, 240, 241, 242, 300, 330, 334, 345, 350};
    vkb_cache_rise rise;
    uint64_t k = vkb_cache_knee(b, ns, 14, &rise);
    PRINTK(k);
    ASSERT(k > 48 * MIB && k < 57.5 * MIB);
    ASSERT(rise.lo == 48 * MIB); /* the last rise starts at the far partition's end */
}

/* two levels (L2 40 ns to 32 MiB, DRAM 120 ns from 64 MiB) with +-4% noise on every point: the knee of the clean
 * curve (between 32 and 64 MiB), within 15% */
static void noisy_levels(void)
{
    double b[19], ns[19], clean[19];
    static const double noise[] = {1.04, 0.97, 1.02, 0.96, 1.03, 0.98, 1.04, 0.96, 1.01, 1.04,
                                   0.97, 1.03, 0.96, 1.02, 1.04, 0.97, 1.0,  1.03, 0.99};
    uint64_t want, k;
    for (int i = 0; i < 19; i++) {
        b[i] = 1024.0 * (1 << i);
        clean[i] = b[i] <= 65536 ? 10 : b[i] <= 32 * MIB ? 40 : 120;
        ns[i] = clean[i] * noise[i];
    }
    want = vkb_cache_knee(b, clean, 19, NULL);
    k = vkb_cache_knee(b, ns, 19, NULL);
    PRINTK(want);
    PRINTK(k);
    ASSERT(want > 32 * MIB && want <= 64 * MIB);
    ASSERT(k > 0.85 * (double)want && k < 1.15 * (double)want);
}

/* a steady rise (10% per doubling, TLB reach, no cache edge), or one of 30%: no clear knee, so no size */
static void steady_rise(void)
{
    double b[19], ns[19];
    for (int i = 0; i < 19; i++) {
        b[i] = 1024.0 * (1 << i);
        ns[i] = 100 * pow(1.1, i);
    }
    ASSERT(vkb_cache_knee(b, ns, 19, NULL) == 0);
    for (int i = 0; i < 19; i++)
        ns[i] = 100 * pow(1.3, i);
    ASSERT(vkb_cache_knee(b, ns, 19, NULL) == 0);
}

/* ---- the file ---- */

static char home[256];

static void fake_caps(vkb_caps *caps)
{
    memset(caps, 0, sizeof *caps);
    snprintf(caps->name, sizeof caps->name, "fake GPU");
    snprintf(caps->driver, sizeof caps->driver, "driver \"1.0\"");
    for (int i = 0; i < 16; i++)
        caps->uuid[i] = (uint8_t)(i * 17);
}

/* a fresh XDG_CACHE_HOME with vkbench/ in it; PATH the device's file there */
static void fresh_home(vkb_caps *caps, char *path, size_t len)
{
    char cmd[300];
    snprintf(home, sizeof home, "/tmp/vkb_cache_test.%ld", (long)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s", home);
    ASSERT(system(cmd) == 0);
    ASSERT(mkdir(home, 0700) == 0);
    setenv("XDG_CACHE_HOME", home, 1);
    fake_caps(caps);
    ASSERT(vkb_cache_path(caps, path, len) == 0);
    ASSERT(strncmp(path, home, strlen(home)) == 0);
}

static void write_text(const char *path, const char *text)
{
    FILE *f;
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/vkbench", home);
    mkdir(dir, 0700);
    f = fopen(path, "w");
    ASSERT(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void clean_home(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", home);
    ASSERT(system(cmd) == 0);
    unsetenv("XDG_CACHE_HOME");
}

/* a save reads back; every file not exactly this probe's, for this driver, with a plain size, is no size */
static void file_strict(void)
{
    static const struct {
        const char *text;
        int found;
        uint64_t size;
    } cases[] = {
        {"{\"probe_version\": 5, \"driver\": \"driver \\\"1.0\\\"\", \"cache_bytes\": 52428800}", 1, 52428800},
        {"{\"probe_version\": 5, \"driver\": \"driver \\\"1.0\\\"\", \"cache_bytes\": null}", 1, 0},
        {"{\"probe_version\": 5, \"driver\": \"driver \\\"1.0\\\"\", \"cache_bytes\": -1}", 0, 0},
        {"{\"probe_version\": 5, \"driver\": \"driver \\\"1.0\\\"\", \"cache_bytes\": 18446744073709551615}", 0, 0},
        {"{\"probe_version\": 5, \"driver\": \"driver \\\"1.0\\\"\", \"cache_bytes\": 4.9e6}", 0, 0},
        {"{\"probe_version\": 5, \"driver\": \"driver \\\"1.0\\\"\", \"cache_bytes\": 99999999999999}", 0, 0},
        {"{\"probe_version\": 5, \"driver\": \"driver \\\"1.0\\\"\", \"x\": {\"cache_bytes\": 5000000}}", 0, 0},
        {"{\"probe_version\": 5, \"driver\": \"driver \\\"1.0\\\"\", \"x\": [{\"cache_bytes\": 1}], "
         "\"cache_bytes\": 5000000}",
         1, 5000000},
        {"{\"probe_version\": 3, \"driver\": \"driver \\\"1.0\\\"\", \"cache_bytes\": 5000000}", 0, 0},
        {"{\"device\": \"x\", \"driver\": \"x\", \"cache_bytes\": 5000000}", 0, 0}, /* an old file */
        {"{\"probe_version\": 5, \"driver\": \"driver 2.0\", \"cache_bytes\": 5000000}", 0, 0},
        {"{\"probe_version\": 5, \"driver\": \"driver \\\"1.0\\\"\", \"cache_bytes\": \"5000000\"}", 0, 0},
    };
    vkb_caps caps;
    char path[VKB_CACHE_PATH_MAX];
    double b[] = {1024, 2048}, ns[] = {10, 20};
    uint64_t size = 7;
    fresh_home(&caps, path, sizeof path);
    ASSERT(vkb_cache_read(&caps, &size) == 0 && size == 0); /* no file */
    ASSERT(vkb_cache_save(&caps, 50u << 20, b, ns, 2) == 0);
    ASSERT(vkb_cache_read(&caps, &size) == 1 && size == 50u << 20);
    ASSERT(vkb_cache_save(&caps, 0, b, ns, 2) == 0); /* no clear knee: kept as unknown */
    ASSERT(vkb_cache_read(&caps, &size) == 1 && size == 0);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        write_text(path, cases[i].text);
        size = 7;
        if (vkb_cache_read(&caps, &size) != cases[i].found || size != cases[i].size)
            fprintf(stderr, "case %zu: %s\n", i, cases[i].text);
        ASSERT(vkb_cache_read(&caps, &size) == cases[i].found && size == cases[i].size);
    }
    clean_home();
}

/* the file is one JSON object or nothing: a file cut short, two objects, bytes after it, a NUL inside or a key
 * named twice is refused whole (measured again), though the keys it wants are all there and well formed */
static void file_one_document(void)
{
#define GOOD "{\"probe_version\": 5, \"driver\": \"driver \\\"1.0\\\"\", \"cache_bytes\": 5000000"
    static const struct {
        const char *text;
        size_t len; /* 0: strlen */
        int found;
    } cases[] = {
        {GOOD "}\n", 0, 1},
        {GOOD ", \"points\": [[1024, 10.5], [2048, 2e1]], \"how\": \"a \\u00e9\"}", 0, 1},
        {" \t\r\n" GOOD "}\n\n", 0, 1},
        {GOOD, 0, 0},                                                      /* cut short before its closing brace */
        {GOOD ", \"points\": [[1024, 10", 0, 0},                           /* cut short inside the points */
        {GOOD ", \"how\": \"the knee", 0, 0},                              /* cut short inside a string */
        {GOOD "}{\"cache_bytes\": 1}", 0, 0},                              /* two objects */
        {GOOD "}\n" GOOD "}\n", 0, 0},                                     /* the same object twice */
        {GOOD "} x", 0, 0},                                                /* trailing garbage */
        {GOOD "},", 0, 0},                                                 /* a trailing comma */
        {GOOD ",}", 0, 0},                                                 /* a comma before the brace */
        {GOOD ", \"points\": [01]}", 0, 0},                                /* a leading zero */
        {GOOD ", \"points\": [0x10]}", 0, 0},                              /* hex */
        {GOOD ", \"how\": \"a\tb\"}", 0, 0},                               /* a raw control character in a string */
        {GOOD ", \"how\": \"\\q\"}", 0, 0},                                /* a bad escape */
        {GOOD ", \"how\": tru}", 0, 0},                                    /* a word that is not one */
        {GOOD "}\0garbage", sizeof GOOD + 8, 0},                           /* a NUL, then more bytes */
        {GOOD ", \"cache_bytes\": 6000000}", 0, 0},                        /* a key twice: which one would be meant */
        {"[" GOOD "}]", 0, 0},                                             /* an array, not an object */
        {GOOD ", \"x\": [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]}", 0, 0}, /* nested past any file of ours */
    };
#undef GOOD
    vkb_caps caps;
    char path[VKB_CACHE_PATH_MAX];
    uint64_t size;
    fresh_home(&caps, path, sizeof path);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t len = cases[i].len ? cases[i].len : strlen(cases[i].text);
        FILE *f;
        write_text(path, "");
        f = fopen(path, "wb");
        ASSERT(f != NULL && fwrite(cases[i].text, 1, len, f) == len && fclose(f) == 0);
        size = 7;
        if (vkb_cache_read(&caps, &size) != cases[i].found)
            fprintf(stderr, "case %zu: %s\n", i, cases[i].text);
        ASSERT(vkb_cache_read(&caps, &size) == cases[i].found && size == (cases[i].found ? 5000000u : 0));
    }
    clean_home();
}

/* a FIFO at the path is not read (no hang), a link is neither read nor replaced */
static void file_not_plain(void)
{
    vkb_caps caps;
    char path[VKB_CACHE_PATH_MAX], target[1100], dir[1100];
    double b[] = {1024}, ns[] = {10};
    uint64_t size = 7;
    struct stat st;
    fresh_home(&caps, path, sizeof path);
    snprintf(dir, sizeof dir, "%s/vkbench", home);
    ASSERT(mkdir(dir, 0700) == 0);
    ASSERT(mkfifo(path, 0600) == 0);
    alarm(10); /* a hang fails by SIGALRM */
    ASSERT(vkb_cache_read(&caps, &size) == 0 && size == 0);
    ASSERT(vkb_cache_save(&caps, 1u << 20, b, ns, 1) == -1);
    alarm(0);
    ASSERT(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode));
    unlink(path);
    snprintf(target, sizeof target, "%s/target.json", home);
    write_text(target, "{\"probe_version\": 5, \"driver\": \"driver \\\"1.0\\\"\", \"cache_bytes\": 5000000}");
    ASSERT(symlink(target, path) == 0);
    ASSERT(vkb_cache_read(&caps, &size) == 0 && size == 0);
    ASSERT(vkb_cache_save(&caps, 1u << 20, b, ns, 1) == -1);
    ASSERT(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
    clean_home();
}

/* a relative XDG_CACHE_HOME is ignored ($HOME's .cache instead, or no file); an over-long one is no file and
 * makes no folder */
static void file_path_rules(void)
{
    vkb_caps caps;
    char path[VKB_CACHE_PATH_MAX], *deep = malloc(4200), *old_home = getenv("HOME");
    char saved_home[512] = "", probe[300];
    double b[] = {1024}, ns[] = {10};
    struct stat st;
    if (old_home)
        snprintf(saved_home, sizeof saved_home, "%s", old_home);
    fresh_home(&caps, path, sizeof path);
    setenv("XDG_CACHE_HOME", "relative/cache", 1);
    setenv("HOME", home, 1);
    ASSERT(vkb_cache_path(&caps, path, sizeof path) == 0 && path[0] == '/' && strstr(path, "/.cache/vkbench/"));
    ASSERT(vkb_cache_save(&caps, 1u << 20, b, ns, 1) == 0); /* $HOME/.cache made, no deeper */
    snprintf(probe, sizeof probe, "%s/xdg", home);          /* a cache home not made yet is made (XDG), one level */
    setenv("XDG_CACHE_HOME", probe, 1);
    ASSERT(vkb_cache_save(&caps, 1u << 20, b, ns, 1) == 0 && vkb_cache_path(&caps, path, sizeof path) == 0 &&
           stat(path, &st) == 0);
    snprintf(probe, sizeof probe, "%s/x/y", home);
    setenv("XDG_CACHE_HOME", probe, 1);
    ASSERT(vkb_cache_save(&caps, 1u << 20, b, ns, 1) == -1);
    snprintf(probe, sizeof probe, "%s/x", home);
    ASSERT(stat(probe, &st) != 0);
    unsetenv("HOME");
    unsetenv("XDG_CACHE_HOME");
    ASSERT(vkb_cache_path(&caps, path, sizeof path) == -1);
    snprintf(deep, 4200, "%s", home);
    for (size_t at = strlen(deep); at + 3 < 4100; at += 2)
        memcpy(deep + at, "/a", 3);
    setenv("XDG_CACHE_HOME", deep, 1);
    ASSERT(vkb_cache_path(&caps, path, sizeof path) == -1);
    ASSERT(vkb_cache_save(&caps, 1u << 20, b, ns, 1) == -1);
    snprintf(probe, sizeof probe, "%s/a", home);
    ASSERT(stat(probe, &st) != 0); /* not one folder of the 2000 */
    if (saved_home[0])
        setenv("HOME", saved_home, 1);
    free(deep);
    clean_home();
}

UNIT_TESTS({"split_knee", split_knee}, {"h100_quarter_octaves", h100_quarter_octaves}, {"noisy_levels", noisy_levels},
           {"steady_rise", steady_rise}, {"file_strict", file_strict}, {"file_one_document", file_one_document},
           {"file_not_plain", file_not_plain}, {"file_path_rules", file_path_rules}, {"two_levels", two_levels},
           {"noisy_rise", noisy_rise}, {"h100", h100}, {"h100_probe", h100_probe}, {"h100_table", h100_table},
           {"no_step", no_step}, {"no_tail", no_tail}, {"stray_on_rise", stray_on_rise}, {"noisy_h100", noisy_h100},
           {"h200_run_curve", h200_run_curve})
