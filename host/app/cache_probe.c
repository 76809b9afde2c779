/* cache_probe.c - the last-level cache size from cache.chase's latencies (run through a runner of its own), and the
 * file that keeps it per device. */
#include "cache_probe.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "runner.h"
#include "select.h"
#include "util.h"

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

/* cache.chase on VK at the N footprints F, briefly, through a runner of its own: ns per load into NS (0 where a
 * point failed). */
static void chase_points(vkb_backend *vk, const int64_t *f, int n, double *ns)
{
    vkb_args a;
    vkb_selection sel;
    vkb_run_plan plan;
    vkb_run_settings set;
    vkb_runner r;
    char err[400];
    memset(&a, 0, sizeof a);
    memset(&r, 0, sizeof r);
    memset(&set, 0, sizeof set);
    a.command = "run";
    a.families[a.nfamilies++] = "cache.chase";
    a.seed = 1;
    a.dims[VKB_DIM_N].n = n;
    memcpy(a.dims[VKB_DIM_N].v, f, (size_t)n * sizeof *f);
    if (vkb_selection_families(&a, &sel, err, sizeof err) || vkb_selection_shapes(&a, &vk->caps, &sel, err, sizeof err))
        vkb_die(VKB_EXIT_API, "the cache probe: %s", err);
    r.backends[0] = r.all[0] = vk;
    r.nbackends = r.nall = 1;
    vkb_timing_defaults(&r.timing[0], &vk->caps);
    r.timing[0].warmup_ms = 2;
    r.timing[0].budget_ms = 20;
    r.timed = 1;
    r.seed = 1;
    set.command = "probe";
    set.timed = 1;
    vkb_runner_plan(&r, &sel, &plan);
    vkb_runner_run(&r, &sel, &set, &plan);
    for (int i = 0; i < n; i++)
        ns[i] = i < r.results.n && r.results.r[i].status == VKB_RES_OK ? r.results.r[i].metric : 0;
    vkb_runner_free(&r);
    vkb_selection_free(&sel);
}

/* The last-level cache of VK where neither the driver nor CUDA reports it: kept from an earlier run
 * (cache_probe.h's file), else measured now with cache.chase (powers of two from 1 KiB, then 7 points around the
 * knee found) and kept. VKB_CACHE_PROBE=0 skips it, =refresh measures again. */
void vkb_cache_measure(vkb_backend *vk)
{
    const char *env = getenv("VKB_CACHE_PROBE");
    int64_t f[64];
    double ns[64], fb[64];
    int n = 0, refresh = env && strcmp(env, "refresh") == 0;
    int64_t last = vk->caps.is_cpu ? 64ll << 20 : 512ll << 20;
    uint64_t size;
    char path[4096] = "";
    if ((vk->caps.cache_bytes && !refresh) || (env && strcmp(env, "0") == 0))
        return;
    if (!refresh && (size = vkb_cache_load(&vk->caps))) {
        vk->caps.cache_bytes = size;
        vk->caps.cache_measured = 1;
        return;
    }
    vkb_cache_path(&vk->caps, path, sizeof path);
    vkb_note("measuring the last-level cache of %s with cache.chase, once (kept in %s; VKB_CACHE_PROBE=refresh "
             "measures again, =0 skips it)", vk->caps.name, path[0] ? path : "no file: set HOME or XDG_CACHE_HOME");
    for (int64_t b = 1024; b <= last; b *= 2)
        f[n++] = b;
    chase_points(vk, f, n, ns);
    for (int i = 0; i < n; i++)
        fb[i] = (double)f[i];
    size = vkb_cache_knee(fb, ns, n);
    if (size) {   /* 7 more points around the knee (5/8 to 11/8 of it), merged in order */
        int64_t g[7];
        double gns[7];
        for (int j = 0; j < 7; j++)
            g[j] = ((int64_t)size * (5 + j) / 8 + 63) / 64 * 64;
        chase_points(vk, g, 7, gns);
        for (int j = 0; j < 7; j++) {   /* insertion in order of footprint */
            int at = n;
            while (at > 0 && f[at - 1] > g[j]) {
                f[at] = f[at - 1];
                ns[at] = ns[at - 1];
                at--;
            }
            f[at] = g[j];
            ns[at] = gns[j];
            n++;
        }
        for (int i = 0; i < n; i++)
            fb[i] = (double)f[i];
        size = vkb_cache_knee(fb, ns, n);
    }
    if (!size) {
        vkb_note("the cache probe found no step up to DRAM's latency below %lld MiB: fits stays unknown",
                 (long long)(last >> 20));
        return;
    }
    if (vk->caps.cache_bytes)   /* CUDA said: its word stands, the measurement is kept beside it */
        vkb_note("the cache probe measured %llu KiB; CUDA reports %llu KiB (used for fits)",
                 (unsigned long long)(size >> 10), (unsigned long long)(vk->caps.cache_bytes >> 10));
    else
        vkb_note("the cache probe measured a last-level cache of %llu KiB", (unsigned long long)(size >> 10));
    if (!vk->caps.cache_bytes) {
        vk->caps.cache_bytes = size;
        vk->caps.cache_measured = 1;
    }
    if (vkb_cache_save(&vk->caps, size, fb, ns, n))
        vkb_note("the cache probe's result (%llu KiB) could not be kept in %s", (unsigned long long)(size >> 10), path);
}
