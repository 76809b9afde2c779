/* cache_probe.c - the last-level cache size from cache.chase's latencies (run through a runner of its own), and the
 * file that keeps it per device. */
#include "cache_probe.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "runner.h"
#include "select.h"
#include "signals.h"
#include "util.h"

#define RISE 1.15      /* a latency this much above the point before is a step, not noise */
#define DRAM_GAP 1.5   /* a cache's latency is at least this far below DRAM's */
#define FLAT 1.05      /* points this close over SPAN of footprint are a plateau (a split L2's far partition) */
#define SPAN 1.5
#define STEEPER 2.0    /* a knee's rise to DRAM is this many times steeper than its plateau */
#define RISE_SPAN 8.0  /* past a knee, the latency reaches DRAM's level within this factor of footprint */
/* The probe's version: a file written by another (another knee rule) is measured again. */
#define PROBE_VERSION 2
#define CACHE_MAX_BYTES (1ull << 36)   /* 64 GiB: no last-level cache is near it; a larger value is no size */
#define CACHE_MIN_BYTES 1024ull

/* The footprint where the latency crosses HALF for good after point I (one noisy point is not the knee),
 * interpolated in logarithms of footprint and latency; 0 when it never does. */
static uint64_t crossing(const double *bytes, const double *ns, int n, int i, double half)
{
    double t;
    int k;
    for (k = i + 1; k < n && !(ns[k] >= half && (k + 1 == n || ns[k + 1] >= half)); k++)
        ;
    if (k >= n)
        return 0;
    t = ns[k] > ns[k - 1] ? (log(half) - log(ns[k - 1])) / (log(ns[k]) - log(ns[k - 1])) : 1;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return (uint64_t)exp(log(bytes[k - 1]) + t * (log(bytes[k]) - log(bytes[k - 1])));
}

/* The last point of a plateau after footprint FROM, clearly below DRAM: a run of points within FLAT of its
 * first over at least SPAN of footprint (a split L2's far partition, whose loads cross the chip); -1: none. */
static int later_plateau(const double *bytes, const double *ns, int n, double from, double dram)
{
    int found = -1;
    for (int a = 0; a < n; a++) {
        int b = a;
        if (bytes[a] <= from || ns[a] * RISE >= dram)
            continue;
        while (b + 1 < n && ns[b + 1] <= ns[a] * FLAT && ns[b + 1] * FLAT >= ns[a])
            b++;
        if (b > a && bytes[b] >= bytes[a] * SPAN)
            found = b;
    }
    return found;
}

uint64_t vkb_cache_knee(const double *bytes, const double *ns, int n)
{
    double dram, plateau;
    uint64_t knee;
    int i, k, d;
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
    /* a clear knee: the rise from the plateau to DRAM's level is at least STEEPER times the plateau's own slope
     * (over the last two doublings up to it), in logarithms; a steady rise (TLB reach, no cache edge) has none */
    for (k = i; k >= 0 && bytes[k] > bytes[i] / 4; k--)
        ;
    for (d = i + 1; d < n - 1 && ns[d] * RISE < dram; d++)
        ;
    if (k >= 0 && log(ns[i] / ns[k]) / log(bytes[i] / bytes[k]) * STEEPER >
                  log(dram / ns[i]) / log(bytes[d] / bytes[i]))
        return 0;
    plateau = ns[i];
    /* where half the way to DRAM is covered (geometric mean: latencies span factors) */
    knee = crossing(bytes, ns, n, i, sqrt(plateau * dram));
    /* a split L2 (the H100's two partitions): a second plateau past that knee, still clearly below DRAM, is the
     * far partition, and the cache ends where its rise to DRAM is half done */
    if (knee && (k = later_plateau(bytes, ns, n, (double)knee, dram)) >= 0)
        knee = crossing(bytes, ns, n, k, sqrt(ns[k] * dram));
    /* a clear knee: the latency reaches DRAM's level (within RISE of it) within RISE_SPAN of footprint past it;
     * a steady rise (TLB reach, no cache edge) has none, and a size read off it would be a guess */
    for (k = 0; knee && k < n && (bytes[k] <= (double)knee || ns[k] * RISE < dram); k++)
        ;
    if (knee && (k >= n || bytes[k] > (double)knee * RISE_SPAN))
        return 0;
    return knee;
}

int vkb_cache_path(const vkb_caps *caps, char *path, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    size_t used;
    /* the XDG rule: a relative XDG_CACHE_HOME is ignored (it would write into the current folder) */
    if (xdg && xdg[0] == '/')
        used = (size_t)snprintf(path, len, "%s/vkbench/", xdg);
    else if (home && home[0] == '/')
        used = (size_t)snprintf(path, len, "%s/.cache/vkbench/", home);
    else
        return -1;
    for (int i = 0; i < 16 && used < len; i++)
        used += (size_t)snprintf(path + used, len - used, "%02x", caps->uuid[i]);
    if (used < len)
        used += (size_t)snprintf(path + used, len - used, ".json");
    return used < len && used < VKB_CACHE_PATH_MAX ? 0 : -1;   /* cut short: no file, never a prefix of it */
}

/* TEXT (CAP bytes) from PATH, a regular file only: never a FIFO (no hang), a device or a link (O_NOFOLLOW).
 * 0, or -1 when there is no such file or it is too large to be ours. */
static int read_small_file(const char *path, char *text, size_t cap)
{
    struct stat st;
    ssize_t got;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size >= (off_t)cap ||
        (got = read(fd, text, cap - 1)) < 0) {
        close(fd);
        return -1;
    }
    close(fd);
    text[got] = 0;
    return 0;
}

/* The value of the top-level key KEY of the JSON object TEXT (after its colon, blanks skipped), or NULL: a key
 * inside a nested object or array, or inside a string, is not it. */
static const char *top_value(const char *text, const char *key)
{
    size_t klen = strlen(key);
    int depth = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '"') {
            const char *start = ++p;
            while (*p && *p != '"')
                p += p[0] == '\\' && p[1] ? 2 : 1;
            if (!*p)
                return NULL;
            if (depth == 1 && (size_t)(p - start) == klen && strncmp(start, key, klen) == 0) {
                const char *q = p + 1 + strspn(p + 1, " \t\r\n");
                if (*q == ':')
                    return q + 1 + strspn(q + 1, " \t\r\n");
            }
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if (*p == '}' || *p == ']') {
            depth--;
        }
    }
    return NULL;
}

/* A plain decimal integer at P ending at a JSON delimiter into *V: 1, else 0 ("-1", "4.9e6", "1e9", 21 digits) */
static int json_uint(const char *p, uint64_t *v)
{
    size_t digits = p ? strspn(p, "0123456789") : 0;
    if (digits == 0 || digits > 19 || !strchr(" \t\r\n,}", p[digits]) || !p[digits])
        return 0;
    *v = strtoull(p, NULL, 10);
    return 1;
}

/* S as a JSON string's contents into OUT (quotes, backslashes and control characters escaped) */
static void json_escape(const char *s, char *out, size_t len)
{
    size_t used = 0;
    for (; *s && used + 7 < len; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            used += (size_t)snprintf(out + used, len - used, "\\%c", c);
        else if (c < 0x20)
            used += (size_t)snprintf(out + used, len - used, "\\u%04x", c);
        else
            out[used++] = (char)c;
    }
    out[used] = 0;
}

int vkb_cache_read(const vkb_caps *caps, uint64_t *size)
{
    char path[VKB_CACHE_PATH_MAX], text[1 << 14], driver[1600];
    const char *v, *d;
    uint64_t version, bytes = 0;
    *size = 0;
    if (vkb_cache_path(caps, path, sizeof path) || read_small_file(path, text, sizeof text))
        return 0;
    /* this probe's, for this driver: another probe's rule or another driver is measured again */
    json_escape(caps->driver, driver, sizeof driver);
    if (!json_uint(top_value(text, "probe_version"), &version) || version != PROBE_VERSION ||
        !(d = top_value(text, "driver")) || *d != '"' || strncmp(d + 1, driver, strlen(driver)) != 0 ||
        d[1 + strlen(driver)] != '"' || !(v = top_value(text, "cache_bytes")))
        return 0;
    if (strncmp(v, "null", 4) == 0 && v[4] && strchr(" \t\r\n,}", v[4]))
        return 1;   /* measured: no clear knee */
    if (!json_uint(v, &bytes) || bytes < CACHE_MIN_BYTES || bytes > CACHE_MAX_BYTES)
        return 0;
    *size = bytes;
    return 1;
}

uint64_t vkb_cache_load(const vkb_caps *caps)
{
    uint64_t size;
    vkb_cache_read(caps, &size);
    return size;
}

/* mkdir of PATH's folder (vkbench/) and of the one above ($XDG_CACHE_HOME or $HOME/.cache: the XDG rule
 * makes a missing cache home, 0700), no deeper (a long XDG_CACHE_HOME made a folder per component); where the
 * folder above that does not exist there is no file */
static void make_dirs(char *path)
{
    char *file = strrchr(path, '/'), *dir;
    *file = 0;
    dir = strrchr(path, '/');
    *dir = 0;
    mkdir(path, 0700);
    *dir = '/';
    mkdir(path, 0700);
    *file = '/';
}

int vkb_cache_save(const vkb_caps *caps, uint64_t size, const double *bytes, const double *ns, int n)
{
    char path[VKB_CACHE_PATH_MAX], tmp[VKB_CACHE_PATH_MAX + 32], name[600], driver[1600];
    struct stat st;
    FILE *f;
    int fd, ok;
    if (vkb_cache_path(caps, path, sizeof path))
        return -1;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return -1;   /* a link, a FIFO, a folder: someone else's, left as it is */
    make_dirs(path);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0)
        return -1;
    if (!(f = fdopen(fd, "w"))) {
        close(fd);
        remove(tmp);
        return -1;
    }
    json_escape(caps->name, name, sizeof name);
    json_escape(caps->driver, driver, sizeof driver);
    fprintf(f, "{\"probe_version\": %d, \"device\": \"%s\", \"driver\": \"%s\", \"cache_bytes\": ", PROBE_VERSION,
            name, driver);
    if (size)
        fprintf(f, "%llu", (unsigned long long)size);
    else
        fputs("null", f);
    fprintf(f, ",\n \"how\": \"vkbench cache.chase: the knee of ns per load over footprints (null: no clear "
            "knee)\",\n \"points\": [");
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
    char path[VKB_CACHE_PATH_MAX] = "";
    if ((vk->caps.cache_bytes && !refresh) || (env && strcmp(env, "0") == 0))
        return;
    if (!refresh && vkb_cache_read(&vk->caps, &size)) {
        vk->caps.cache_bytes = size;   /* 0: measured before, no clear knee: fits stays unknown */
        vk->caps.cache_measured = size != 0;
        return;
    }
    vkb_cache_path(&vk->caps, path, sizeof path);
    vkb_note("measuring the last-level cache of %s with cache.chase, once (kept in %s; VKB_CACHE_PROBE=refresh "
             "measures again, =0 skips it)", vk->caps.name,
             path[0] ? path : "no file: HOME or XDG_CACHE_HOME, an absolute path under 1024 bytes, has none");
    for (int64_t b = 1024; b <= last; b *= 2)
        f[n++] = b;
    chase_points(vk, f, n, ns);
    for (int i = 0; i < n; i++)
        fb[i] = (double)f[i];
    size = vkb_cache_knee(fb, ns, n);
    if (size && !vkb_stop_signal()) {   /* 7 more points around the knee (5/8 to 11/8 of it), merged in order */
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
    /* a probe stopped by a signal, or with a point that failed, measured nothing: never kept */
    for (int i = 0; i < n; i++)
        if (!(ns[i] > 0) || vkb_stop_signal()) {
            vkb_note("the cache probe did not finish: nothing kept, fits stays unknown");
            return;
        }
    if (!size)
        vkb_note("the cache probe found no clear step up to DRAM's latency below %lld MiB: fits stays unknown "
                 "(kept as unknown)", (long long)(last >> 20));
    else if (vk->caps.cache_bytes)   /* CUDA said: its word stands, the measurement is kept beside it */
        vkb_note("the cache probe measured %llu KiB; CUDA reports %llu KiB (used for fits)",
                 (unsigned long long)(size >> 10), (unsigned long long)(vk->caps.cache_bytes >> 10));
    else
        vkb_note("the cache probe measured a last-level cache of %llu KiB", (unsigned long long)(size >> 10));
    if (!vk->caps.cache_bytes && size) {
        vk->caps.cache_bytes = size;
        vk->caps.cache_measured = 1;
    }
    if (path[0] && vkb_cache_save(&vk->caps, size, fb, ns, n))
        vkb_note("the cache probe's result could not be kept in %s (not a plain file, or not writable)", path);
}
