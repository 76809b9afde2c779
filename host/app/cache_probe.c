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
#include "fault.h"
#include "runner.h"
#include "select.h"
#include "signals.h"
#include "util.h"

#define TAIL 0.2      /* DRAM's level: latency rising less than this in log-log (15% per doubling: TLB reach) */
#define SPAN 1.3      /* slopes over at least this factor of footprint: a fine sweep's neighbours are noise */
#define RISE 1.15     /* the last rise climbs at least this much ... */
#define DRAM_GAP 1.25 /* ... from a level at least this far below DRAM's (the largest footprint's) */
#define STEEPER 2.0   /* and is this many times steeper than the tail after it */
#define NEAR 1.03     /* the cache ends where the rise comes this close to DRAM's level */
#define TAIL_SPAN 4.0 /* DRAM's level: the tail's line over this factor of footprint from its start */
#define NEAR_KNEE 1.5 /* the cross-check's steepest part: within this factor of footprint below the knee */
#define AGREE 1.35    /* the two rules of the rise's end agree within this factor, or it has no clear end */
#define AGAIN 1.1     /* the two sweeps' knees agree within this factor, or there is no clear knee */
#define MAX_POINTS 128
/* The probe's version: a file written by another (another knee rule) is measured again. */
#define PROBE_VERSION 5
#ifndef PROBE_WARMUP_MS
#define PROBE_WARMUP_MS 200
#endif
#define CACHE_MAX_BYTES (1ull << 36) /* 64 GiB: no last-level cache is near it; a larger value is no size */
#define CACHE_MIN_BYTES 1024ull
#define CACHE_FILE_MAX (1 << 14) /* a file of ours is under 8 KiB; a larger one is not read */

/* Y cleaned of noise in place: the median of each point and its neighbours (one stray point goes; a monotone
 * curve is unchanged), then the closest non-decreasing curve (pooled neighbours: a footprint's latency never
 * falls with more footprint, so a dip is noise) */
static void smooth(double *y, int n)
{
    double m[MAX_POINTS], sum[MAX_POINTS];
    int count[MAX_POINTS], blocks = 0, at = 0;
    for (int i = 0; i < n; i++) {
        double a = y[i > 0 ? i - 1 : i], b = y[i], c = y[i + 1 < n ? i + 1 : i];
        m[i] = a > b ? (b > c ? b : a > c ? c : a) : (a > c ? a : b > c ? c : b);
    }
    for (int i = 0; i < n; i++) {
        sum[blocks] = m[i];
        count[blocks++] = 1;
        while (blocks > 1 && sum[blocks - 2] / count[blocks - 2] > sum[blocks - 1] / count[blocks - 1]) {
            sum[blocks - 2] += sum[blocks - 1];
            count[blocks - 2] += count[blocks - 1];
            blocks--;
        }
    }
    for (int k = 0; k < blocks; k++)
        for (int j = 0; j < count[k]; j++)
            y[at++] = sum[k] / count[k];
}

/* The slope in log-log from point I to the nearest point at least SPAN of footprint away in direction DIR
 * (+1, -1) among the N points, or to the farthest point that way */
static double slope(const double *x, const double *y, int n, int i, int dir)
{
    int j = i + dir;
    while (j + dir >= 0 && j + dir < n && fabs(x[j] - x[i]) < log(SPAN))
        j += dir;
    return (y[j] - y[i]) / (x[j] - x[i]);
}

/* The least-squares line through points FROM .. (the last within TAIL_SPAN of FROM's footprint, at least one
 * more) below N: its slope *S through (*MX, *MY) */
static void line_fit(const double *x, const double *y, int from, int n, double *s, double *mx, double *my)
{
    double sxx = 0, sxy = 0;
    int to = from + 1, m;
    while (to + 1 < n && x[to + 1] - x[from] <= log(TAIL_SPAN))
        to++;
    m = to - from + 1;
    *mx = *my = 0;
    for (int i = from; i <= to; i++) {
        *mx += x[i] / m;
        *my += y[i] / m;
    }
    for (int i = from; i <= to; i++) {
        sxx += (x[i] - *mx) * (x[i] - *mx);
        sxy += (x[i] - *mx) * (y[i] - *my);
    }
    *s = sxx > 0 ? sxy / sxx : 0;
}

uint64_t vkb_cache_knee(const double *bytes, const double *ns, int n, vkb_cache_rise *rise)
{
    double x[MAX_POINTS], y[MAX_POINTS], s1 = 0, s2, ts, tx, ty, knee, cross;
    int t, r, c, k = -1;
    if (rise)
        rise->lo = rise->hi = 0;
    if (n < 4 || n > MAX_POINTS)
        return 0;
    for (int i = 0; i < n; i++) {
        if (!(ns[i] > 0) || !(bytes[i] > 0) || (i && bytes[i] <= bytes[i - 1]))
            return 0;
        x[i] = log(bytes[i]);
        y[i] = log(ns[i]);
    }
    smooth(y, n);
    /* DRAM's level: the tail, where the latency rises slower than TAIL (the TLB's reach, not a cache's edge) */
    for (t = n - 1; t > 0 && slope(x, y, n, t, -1) < TAIL; t--)
        ;
    if (t >= n - 1)
        return 0; /* the sweep ends on a rise: DRAM is not reached */
    /* the last rise to it, back to the level before (the whole cache, or a split L2's far partition: the H100's
     * near partition overflows first, and that earlier rise is not the cache's end) */
    for (r = t; r > 0 && slope(x, y, n, r, -1) >= TAIL; r--)
        ;
    if (r == t || y[t] - y[r] < log(RISE) || y[n - 1] - y[r] < log(DRAM_GAP))
        return 0;
    for (int i = r; i < t; i++) { /* its steepest part, between neighbours (smoothed: a stray point is gone) */
        double s = (y[i + 1] - y[i]) / (x[i + 1] - x[i]);
        if (k < 0 || s > s1) {
            k = i;
            s1 = s;
        }
    }
    s2 = slope(x, y, n, t, 1);
    if (s1 < STEEPER * (s2 > 0.05 ? s2 : 0.05))
        return 0; /* a steady climb: no edge to read a size off */
    /* the cache ends where the rise comes within NEAR of DRAM's level: the tail's line (least squares over
     * TAIL_SPAN of footprint from its start, extended back), crossed between the last point clearly below it and
     * the next. A crossing, not a slope: the H100's gradual rise with 1% noise on every point reads within 15% of
     * 50 MiB in 155 of 200 draws and never beyond 20% (with the check below; vkb.unit.cache_probe.noisy_h100),
     * where the steepest part's line alone read 126, and 40 beyond 20% */
    line_fit(x, y, t, n, &ts, &tx, &ty);
    ts = ts > 0 ? ts : 0;
    for (c = t - 1; c > r && y[c] >= ty + ts * (x[c] - tx) - log(NEAR); c--)
        ;
    {
        double d0 = ty + ts * (x[c] - tx) - y[c], d1 = ty + ts * (x[c + 1] - tx) - y[c + 1];
        double f = d0 > d1 ? (d0 - log(NEAR)) / (d0 - d1) : 1;
        f = f < 0 ? 0 : f > 1 ? 1 : f;
        knee = x[c] + f * (x[c + 1] - x[c]);
    }
    /* cross-checked by the asymptotes' rule (the steepest part's line meets the tail's): far apart, the rise has
     * no clear end (noise made a step of a slope, or the tail of a rise) and a size read off it would be a guess */
    /* the steepest part is looked for again within NEAR_KNEE of footprint below the knee: a split L2's first rise
     * (the near partition's, the H100's at 21-30 MiB) is the steeper, and its line meets DRAM's far before the
     * whole cache ends (its 50 MiB read "no clear end") */
    for (int i = k + 1; i < t; i++) {
        double s = (y[i + 1] - y[i]) / (x[i + 1] - x[i]);
        if (x[i] >= knee - log(NEAR_KNEE) && (x[k] < knee - log(NEAR_KNEE) || s > s1)) {
            k = i;
            s1 = s;
        }
    }
    cross = (y[t] - y[k] + s1 * x[k] - s2 * x[t]) / (s1 - s2);
    cross = cross > x[t] ? x[t] : cross < x[k] ? x[k] : cross;
    if (fabs(knee - cross) > log(AGREE))
        return 0;
    if (rise) {
        rise->lo = bytes[r];
        rise->hi = bytes[t];
    }
    return (uint64_t)exp(knee);
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
    return used < len && used < VKB_CACHE_PATH_MAX ? 0 : -1; /* cut short: no file, never a prefix of it */
}

/* TEXT (CAP bytes) from PATH, a regular file only: never a FIFO (no hang), a device or a link (O_NOFOLLOW).
 * The bytes read, or -1 when there is no such file or it is too large to be ours. */
static ssize_t read_small_file(const char *path, char *text, size_t cap)
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
    return got;
}

/* The value of the top-level key KEY of the JSON object TEXT (after its colon, blanks skipped), or NULL: a key
 * inside a nested object or array, or inside a string, is not it. *TIMES: how many times the key is there. */
static const char *top_value(const char *text, const char *key, int *times)
{
    size_t klen = strlen(key);
    int depth = 0;
    const char *first = NULL;
    *times = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '"') {
            const char *start = ++p;
            while (*p && *p != '"')
                p += p[0] == '\\' && p[1] ? 2 : 1;
            if (!*p)
                return NULL;
            if (depth == 1 && (size_t)(p - start) == klen && strncmp(start, key, klen) == 0) {
                const char *q = p + 1 + strspn(p + 1, " \t\r\n");
                if (*q == ':' && (*times)++ == 0)
                    first = q + 1 + strspn(q + 1, " \t\r\n");
            }
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if (*p == '}' || *p == ']') {
            depth--;
        }
    }
    return first;
}

#define JSON_DEPTH 16 /* the file nests two deep (points: [[bytes, ns], ...]); deeper is no file of ours */

static const char *json_blanks(const char *p)
{
    return p + strspn(p, " \t\r\n");
}

/* A JSON string (RFC 8259) at P: past its closing quote, or NULL (unterminated, a raw control character, a bad
 * escape) */
static const char *json_string_end(const char *p)
{
    if (*p++ != '"')
        return NULL;
    for (;;) {
        unsigned char c = (unsigned char)*p++;
        if (c == '"')
            return p;
        if (c < 0x20)
            return NULL; /* the text's end (NUL) or a raw control character */
        if (c == '\\') {
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
                        return NULL;
                p += 5;
            } else if (*p && strchr("\"\\/bfnrt", *p)) {
                p++;
            } else {
                return NULL;
            }
        }
    }
}

/* A JSON number at P (no leading zeros, no '+', no hex): past it, or NULL */
static const char *json_number_end(const char *p)
{
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        p += strspn(p, "0123456789");
    else
        return NULL;
    if (*p == '.') {
        size_t d = strspn(++p, "0123456789");
        if (!d)
            return NULL;
        p += d;
    }
    if (*p == 'e' || *p == 'E') {
        size_t d;
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(d = strspn(p, "0123456789")))
            return NULL;
        p += d;
    }
    return p;
}

/* One JSON value at P, blanks before it skipped: past it, or NULL where it is not one (nested past DEPTH) */
static const char *json_value_end(const char *p, int depth)
{
    p = json_blanks(p);
    if (*p == '"')
        return json_string_end(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        if (depth >= JSON_DEPTH)
            return NULL;
        p = json_blanks(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (close == '}') {
                if (!(p = json_string_end(json_blanks(p))))
                    return NULL;
                p = json_blanks(p);
                if (*p++ != ':')
                    return NULL;
            }
            if (!(p = json_value_end(p, depth + 1)))
                return NULL;
            p = json_blanks(p);
            if (*p == close)
                return p + 1;
            if (*p++ != ',')
                return NULL;
        }
    }
    if (strncmp(p, "true", 4) == 0 || strncmp(p, "null", 4) == 0)
        return p + 4;
    if (strncmp(p, "false", 5) == 0)
        return p + 5;
    return json_number_end(p);
}

/* 1 when TEXT (LEN bytes) is one JSON object and nothing else but blanks: not cut short, not two documents, no
 * trailing bytes, no NUL inside */
static int json_one_object(const char *text, size_t len)
{
    const char *p = json_blanks(text), *end;
    if (strlen(text) != len || *p != '{' || !(end = json_value_end(p, 0)))
        return 0;
    return *json_blanks(end) == 0;
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

/* What TEXT (LEN bytes, the file at PATH) keeps for the driver DRIVER (JSON-escaped): 1 with *BYTES (0: no clear
 * knee), else 0 */
static int read_kept(const char *text, size_t len, const char *path, const char *driver, uint64_t *bytes)
{
    const char *v, *d;
    uint64_t version;
    int nv, nd, nb;
    /* one JSON document or nothing: a file cut short, two objects or bytes after it are refused whole (a reader
     * that picks keys out of a broken file would trust half of one) */
    if (!json_one_object(text, len)) {
        vkb_warn("the cache probe's file %s is not one JSON object (cut short, two documents or bytes after it): "
                 "not used",
                 path);
        return 0;
    }
    /* this probe's, for this driver: another probe's rule or another driver is measured again */
    d = top_value(text, "driver", &nd);
    v = top_value(text, "cache_bytes", &nb);
    if (!json_uint(top_value(text, "probe_version", &nv), &version) || version != PROBE_VERSION || !d || *d != '"' ||
        strncmp(d + 1, driver, strlen(driver)) != 0 || d[1 + strlen(driver)] != '"' || !v)
        return 0;
    if (nv > 1 || nd > 1 || nb > 1) {
        vkb_warn("the cache probe's file %s names a key twice: not used", path);
        return 0;
    }
    if (strncmp(v, "null", 4) == 0 && v[4] && strchr(" \t\r\n,}", v[4]))
        return 1; /* measured: no clear knee */
    return json_uint(v, bytes) && *bytes >= CACHE_MIN_BYTES && *bytes <= CACHE_MAX_BYTES;
}

int vkb_cache_read(const vkb_caps *caps, uint64_t *size)
{
    char path[VKB_CACHE_PATH_MAX], driver[1600];
    int found;
    uint64_t bytes = 0;
    *size = 0;
    if (vkb_cache_path(caps, path, sizeof path))
        return 0;
    {
        char *text = vkb_alloc(CACHE_FILE_MAX); /* on the heap: the caller may be a device thread */
        ssize_t len = read_small_file(path, text, CACHE_FILE_MAX);
        json_escape(caps->driver, driver, sizeof driver);
        found = len >= 0 && read_kept(text, (size_t)len, path, driver, &bytes);
        free(text);
    }
    *size = found ? bytes : 0;
    return found;
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
        return -1; /* a link, a FIFO, a folder: someone else's, left as it is */
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
    fprintf(f, "{\"probe_version\": %d, \"device\": \"%s\", \"driver\": \"%s\", \"cache_bytes\": ", PROBE_VERSION, name,
            driver);
    if (size)
        fprintf(f, "%llu", (unsigned long long)size);
    else
        fputs("null", f);
    fprintf(f, ",\n \"how\": \"vkbench cache.chase: the knee of ns per load over footprints (null: no clear "
               "knee); points: [bytes, ns], each sweep in order of footprint, the second after the first\",\n "
               "\"points\": [");
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
    /* the arguments and the runner on the heap (80 KB): a device thread's stack is what ulimit -s gives */
    vkb_args *a = vkb_calloc(1, sizeof *a);
    vkb_runner *r = vkb_calloc(1, sizeof *r);
    vkb_selection sel;
    vkb_run_plan plan;
    vkb_run_settings set;
    char err[400];
    memset(&set, 0, sizeof set);
    a->command = "run";
    a->families[a->nfamilies++] = "cache.chase";
    a->seed = 1;
    a->dims[VKB_DIM_N].n = n;
    memcpy(a->dims[VKB_DIM_N].v, f, (size_t)n * sizeof *f);
    if (vkb_selection_families(a, &sel, err, sizeof err) || vkb_selection_shapes(a, &vk->caps, &sel, err, sizeof err))
        vkb_die(VKB_EXIT_API, "the cache probe: %s", err);
    r->backends[0] = r->all[0] = vk;
    r->nbackends = r->nall = 1;
    vkb_timing_defaults(&r->timing[0], &vk->caps);
    /* a GPU's points 50 ms each: at 20 the H100's far-partition plateau read 230-290 ns point to point, a rise
     * that was noise (2026-11-27); a CPU implementation's chase is slow enough per run to settle in 20. A GPU's
     * point warms up PROBE_WARMUP_MS first: after 2 ms the H200's chase read 10-15% under `run`'s from 64 MiB
     * on and climbed to 3x DRAM's latency past 200 MiB, so no end of the rise showed (2026-12-01) */
    r->timing[0].warmup_ms = vk->caps.is_cpu ? 2 : PROBE_WARMUP_MS;
    r->timing[0].budget_ms = vk->caps.is_cpu ? 20 : 50;
    r->timed = 1;
    r->seed = 1;
    set.command = "probe";
    set.timed = 1;
    vkb_runner_plan(r, &sel, &plan);
    vkb_runner_run(r, &sel, &set, &plan);
    for (int i = 0; i < n; i++)
        ns[i] = i < r->results.n && r->results.r[i].status == VKB_RES_OK ? r->results.r[i].metric : 0;
    vkb_runner_free(r);
    vkb_selection_free(&sel);
    free(r);
    free(a);
}

/* The fault chase-curve:K (tests): a device whose chase reads K's curve, run through the probe's rule instead of
 * cache.chase's timings (none run). 1: a split L2, a near partition to 2 MiB, the whole cache to 8 MiB, DRAM with
 * a slow TLB climb after; 2: the same with +-3% noise on every point; 3: a steady climb of 10% per doubling, no
 * cache edge; 4: curve 1 in the first sweep, its footprints 1.5x in the second (two sweeps that disagree, as a
 * loaded host's can); 5: the H100's chase as measured (cache.chase at steps of 9/8, 2026-11-27: a near partition's
 * rise at 21-30 MiB, the far partition's plateau, DRAM past 55 MiB; its L2 is 50 MiB), swept to 512 MiB as on a
 * GPU. ns per load at footprint BYTES in sweep SWEEP (0, 1), interpolated in log-log. */
static double fake_chase(long kind, double bytes, int sweep)
{
    static const double h100[][2] = {
        {1024, 24.4},       {2048, 24.6},       {4096, 25.1},       {8192, 26.1},       {16384, 28.1},
        {32768, 32.0},      {65536, 39.8},      {131072, 55.0},     {262144, 126.4},    {524288, 149.8},
        {1048576, 150.0},   {2097152, 150.0},   {4194304, 150.1},   {8388608, 150.5},   {9437184, 150.8},
        {10616832, 151.4},  {11943936, 151.7},  {13436928, 152.2},  {15116288, 152.4},  {17006592, 152.7},
        {19131392, 153.0},  {21523456, 156.7},  {24213504, 165.7},  {27240448, 194.4},  {30645248, 241.8},
        {34476032, 267.5},  {38785024, 276.2},  {43633664, 281.1},  {49087488, 325.5},  {55223296, 336.7},
        {62126080, 342.7},  {69892096, 346.4},  {78628864, 348.5},  {88457216, 350.6},  {99514368, 352.1},
        {111953920, 352.7}, {125947904, 354.8}, {141691904, 355.6}, {159403008, 355.6}, {179328000, 355.7},
        {201744384, 356.7}, {226962432, 356.1}, {255332352, 355.8}};
    static const double split[][2] = {
        /* {bytes, ns} */
        {1024, 20},     {262144, 40},           {1 << 20, 100}, {2 << 20, 101}, {2.5 * (1 << 20), 158},
        {8 << 20, 165}, {8.5 * (1 << 20), 280}, {64 << 20, 300}};
    const double(*curve)[2] = kind == 5 ? h100 : split;
    const int n = kind == 5 ? (int)VKB_COUNT(h100) : (int)VKB_COUNT(split);
    double ns = curve[n - 1][1];
    uint64_t h = (uint64_t)bytes * 0x9E3779B97F4A7C15ull; /* noise fixed per footprint: the test repeats */
    if (kind == 3)
        return 100 * pow(1.1, log2(bytes / 1024));
    if (kind == 4 && sweep == 1)
        bytes /= 1.5;
    for (int i = 1; i < n; i++)
        if (bytes <= curve[i][0]) {
            double t = bytes <= curve[i - 1][0] ? 0 : log(bytes / curve[i - 1][0]) / log(curve[i][0] / curve[i - 1][0]);
            ns = exp(log(curve[i - 1][1]) + t * log(curve[i][1] / curve[i - 1][1]));
            break;
        }
    return kind == 2 ? ns * (1 + 0.03 * ((double)(h >> 11) / (double)(1ull << 53) * 2 - 1)) : ns;
}

/* F's chase points into NS (or the fault chase-curve's, for sweep SWEEP), merged into the sweep FB/NSALL (N points,
 * ascending): new footprints only */
static void measure_into(vkb_backend *vk, int64_t *f, int m, double *fb, double *nsall, int *n, int sweep)
{
    double ns[64];
    long kind;
    if (vkb_fault_arg("chase-curve", &kind))
        for (int j = 0; j < m; j++)
            ns[j] = fake_chase(kind, (double)f[j], sweep);
    else
        chase_points(vk, f, m, ns);
    for (int j = 0; j < m; j++) { /* insertion in order of footprint */
        int at = *n;
        while (at > 0 && fb[at - 1] > (double)f[j])
            at--;
        if (at > 0 && fb[at - 1] == (double)f[j])
            continue;
        memmove(fb + at + 1, fb + at, (size_t)(*n - at) * sizeof *fb);
        memmove(nsall + at + 1, nsall + at, (size_t)(*n - at) * sizeof *nsall);
        fb[at] = (double)f[j];
        nsall[at] = ns[j];
        (*n)++;
    }
}

/* One sweep (SWEEP: 0, 1) of VK up to LAST bytes into FB/NS (*N points): powers of two from 1 KiB, then 7 points
 * across the last rise they show, evenly in log of footprint; its knee (0: none clear). -v prints its curve. */
static uint64_t sweep_once(vkb_backend *vk, int64_t last, double *fb, double *ns, int *n, int sweep)
{
    int64_t f[64];
    int m = 0;
    uint64_t size;
    vkb_cache_rise rise;
    *n = 0;
    /* powers of two to 4 MiB, then four points an octave: the H100's L2 ends in a rise from its far partition's
     * plateau (34-44 MiB) to DRAM (50-60 MiB) that powers of two step over, and the knee was read off the near
     * partition's rise (31 MiB) */
    for (int64_t b = 1024; b < (4 << 20) && b <= last; b *= 2)
        f[m++] = b;
    for (int q = 0; m < 56 && (int64_t)((4 << 20) * pow(2, q / 4.0)) <= last; q++)
        f[m++] = ((int64_t)((4 << 20) * pow(2, q / 4.0)) + 63) / 64 * 64;
    measure_into(vk, f, m, fb, ns, n, sweep);
    size = vkb_cache_knee(fb, ns, *n, &rise);
    if (size && !vkb_stop_signal()) {
        uint64_t coarse = size;
        for (int j = 0; j < 7; j++)
            f[j] = ((int64_t)(rise.lo * pow(rise.hi / rise.lo, (j + 1) / 8.0)) + 63) / 64 * 64;
        measure_into(vk, f, 7, fb, ns, n, sweep);
        size = vkb_cache_knee(fb, ns, *n, NULL);
        if (size && ((double)size < rise.lo || (double)size > rise.hi)) {
            vkb_note("the cache probe's knee moved from %llu KiB to %llu KiB with finer points, out of the rise "
                     "(%.0f to %.0f KiB): no clear knee",
                     (unsigned long long)(coarse >> 10), (unsigned long long)(size >> 10), rise.lo / 1024,
                     rise.hi / 1024);
            size = 0;
        }
    }
    if (vkb_verbose) { /* the curve the size was read off (also in the file) */
        char line[64 * 32];
        size_t used = 0;
        for (int i = 0; i < *n && used < sizeof line; i++)
            used += (size_t)snprintf(line + used, sizeof line - used, "%s%.0f:%.4g", i ? " " : "", fb[i] / 1024, ns[i]);
        vkb_note("the cache probe's curve, sweep %d (KiB:ns per load): %s; knee %llu KiB", sweep + 1, line,
                 (unsigned long long)(size >> 10));
    }
    return size;
}

/* The last-level cache of VK where neither the driver nor CUDA reports it: kept from an earlier run
 * (cache_probe.h's file), else measured now with cache.chase, twice (sweep_once), and kept. A knee the second sweep
 * does not find within AGAIN of the first's is no clear knee: a loaded host's chase can show a step in one sweep
 * that the other does not. VKB_CACHE_PROBE=0 skips it, =refresh measures again. */
void vkb_cache_measure(vkb_backend *vk)
{
    const char *env = getenv("VKB_CACHE_PROBE");
    double ns[2 * 64], fb[2 * 64];
    int n = 0, n2 = 0, refresh = env && strcmp(env, "refresh") == 0;
    long kind = 0;
    /* a CPU implementation's chase to 64 MiB (its runs are slow); the H100's faked curve (no chase runs) as a GPU's */
    int64_t last = vk->caps.is_cpu && !(vkb_fault_arg("chase-curve", &kind) && kind == 5) ? 64ll << 20 : 512ll << 20;
    uint64_t size, again = 0;
    char path[VKB_CACHE_PATH_MAX] = "";
    if ((vk->caps.cache_bytes && !refresh) || (env && strcmp(env, "0") == 0))
        return;
    if (!refresh && vkb_cache_read(&vk->caps, &size)) {
        vk->caps.cache_bytes = size; /* 0: measured before, no clear knee: fits stays unknown */
        vk->caps.cache_measured = size != 0;
        return;
    }
    vkb_cache_path(&vk->caps, path, sizeof path);
    vkb_note("measuring the last-level cache of %s with cache.chase, once (kept in %s; VKB_CACHE_PROBE=refresh "
             "measures again, =0 skips it)",
             vk->caps.name,
             path[0] ? path : "no file: HOME or XDG_CACHE_HOME, an absolute path under 1024 bytes, has none");
    size = sweep_once(vk, last, fb, ns, &n, 0);
    if (size && !vkb_stop_signal()) { /* the second sweep's points after the first's: the file keeps both */
        again = sweep_once(vk, last, fb + n, ns + n, &n2, 1);
        if (!again || fabs(log((double)again / (double)size)) > log(AGAIN)) {
            vkb_note("the cache probe's two sweeps read %llu and %llu KiB: no clear knee",
                     (unsigned long long)(size >> 10), (unsigned long long)(again >> 10));
            size = 0;
        } else {
            size = (uint64_t)sqrt((double)size * (double)again);
        }
        n += n2;
    }
    /* a probe stopped by a signal, or with a point that failed, measured nothing: never kept */
    for (int i = 0; i < n; i++)
        if (!(ns[i] > 0) || vkb_stop_signal()) {
            vkb_note("the cache probe did not finish: nothing kept, fits stays unknown");
            return;
        }
    if (!size)
        vkb_note("the cache probe found no clear step up to DRAM's latency below %lld MiB: fits stays unknown "
                 "(kept as unknown)",
                 (long long)(last >> 20));
    else if (vk->caps.cache_bytes) /* CUDA said: its word stands, the measurement is kept beside it */
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
