/* cache_probe.c - the last-level cache size from cache.chase's latencies, and the file that keeps it per device. */
#include "cache_probe.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RISE 1.15      /* a latency this much above the point before is a step, not noise */
#define DRAM_GAP 1.5   /* a cache's latency is at least this far below DRAM's */

uint64_t vkb_cache_knee(const double *bytes, const double *ns, int n)
{
    double dram, plateau, half, t;
    int i, k;
    if (n < 3)
        return 0;
    dram = ns[n - 1];
    /* the largest footprint clearly in a cache ... */
    for (i = n - 2; i >= 0 && !(ns[i] * DRAM_GAP <= dram); i--)
        ;
    if (i < 0)
        return 0;
    /* ... may sit on the rise (partly cached): down to the plateau, judged against the point at half the footprint
     * or below (neighbours of a fine sweep differ little even on a rise), and past noise above the point after */
    for (;;) {
        int j = i - 1;
        while (j > 0 && bytes[j] > bytes[i] / 2)
            j--;
        if (i > 0 && ns[i - 1] > ns[i])
            i--;
        else if (j >= 0 && bytes[j] <= bytes[i] / 2 && ns[j] * RISE < ns[i])
            i = j;
        else
            break;
    }
    plateau = ns[i];
    /* where half the way to DRAM is covered (geometric mean: latencies span factors), for good: the first point
     * at or above it whose next point is too (one noisy point is not the knee) */
    half = sqrt(plateau * dram);
    for (k = i + 1; k < n && !(ns[k] >= half && (k + 1 == n || ns[k + 1] >= half)); k++)
        ;
    if (k >= n)
        return 0;
    /* interpolated between the points around it, in logarithms of footprint and latency */
    t = ns[k] > ns[k - 1] ? (log(half) - log(ns[k - 1])) / (log(ns[k]) - log(ns[k - 1])) : 1;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return (uint64_t)exp(log(bytes[k - 1]) + t * (log(bytes[k]) - log(bytes[k - 1])));
}

int vkb_cache_path(const vkb_caps *caps, char *path, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    size_t used;
    if (xdg && xdg[0])
        used = (size_t)snprintf(path, len, "%s/vkbench/", xdg);
    else if (home && home[0])
        used = (size_t)snprintf(path, len, "%s/.cache/vkbench/", home);
    else
        return -1;
    for (int i = 0; i < 16 && used < len; i++)
        used += (size_t)snprintf(path + used, len - used, "%02x", caps->uuid[i]);
    if (used < len)
        snprintf(path + used, len - used, ".json");
    return 0;
}

uint64_t vkb_cache_load(const vkb_caps *caps)
{
    char path[4096], text[8192], *at;
    FILE *f;
    size_t got;
    if (vkb_cache_path(caps, path, sizeof path) || !(f = fopen(path, "r")))
        return 0;
    got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[got] = 0;
    at = strstr(text, "\"cache_bytes\":");
    return at ? strtoull(at + 14, NULL, 10) : 0;
}

/* mkdir -p of PATH's folders */
static void make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(path, 0755) != 0 && errno != EEXIST) {
                *p = '/';
                return;
            }
            *p = '/';
        }
}

int vkb_cache_save(const vkb_caps *caps, uint64_t size, const double *bytes, const double *ns, int n)
{
    char path[4096], tmp[4200];
    FILE *f;
    int ok;
    if (vkb_cache_path(caps, path, sizeof path))
        return -1;
    make_dirs(path);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    if (!(f = fopen(tmp, "w")))
        return -1;
    fprintf(f, "{\"device\": \"%s\", \"driver\": \"%s\", \"cache_bytes\": %llu,\n \"how\": \"vkbench cache.chase: the "
            "knee of ns per load over footprints\",\n \"points\": [", caps->name, caps->driver,
            (unsigned long long)size);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s[%.0f, %.4g]", i ? ", " : "", bytes[i], ns[i]);
    fprintf(f, "]}\n");
    ok = fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}
