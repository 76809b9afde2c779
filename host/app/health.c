/* health.c - `vkbench health`: every GPU of the node runs a fixed battery of validated rows at once; each GPU gets
 * a verdict (pass, warn, fail), its failing checks and the action a cluster should take. */
#include "health.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "number.h"
#include "outfile.h"
#include "same_gpu.h"
#include "sinks.h"
#include "stats.h"
#include "util.h"
#include "vulkan.h"

/* The battery, each row for a fault a node really has: a wrong result (copy, reduce and the FMA chain are each
 * checked element by element), slow memory (copy), slow compute (the fp32 FMA peak), a slow host link (staging
 * transfers both ways). Ceilings (api_copy, memcpy) come with their families: validated, reported, never judged
 * on speed (a ceiling measured a second time is no signal of the GPU's health). Default shapes only: short. */
static const char *const battery_families[] = {"copy", "peak", "transfer", "reduce"};
#define BATTERY_VARIANTS "copy/vec4,peak/fma_f32,transfer/staging_h2d,transfer/staging_d2h,reduce/subgroup"
#define BATTERY_BUDGET_MS 100
/* a node of CPU implementations alone (tests, lavapipe): their times are the host's, whose load moves them; three
 * times as many repetitions for a steadier median cost a few seconds there */
#define BATTERY_BUDGET_CPU_MS 300
#define BATTERY_WARMUP_MS 20
/* Each device's own timeout for one submission, when neither VKB_DEVICE_TIMEOUT_S nor the configuration sets
 * one: inside Slurm's 60 s HealthCheckProgram limit and NHC's 30 s, with the battery's own few seconds beside it */
#define HEALTH_DEVICE_TIMEOUT_S 20
/* Speed is judged twice. The whole GPU: the median of its rows' speed over their baseline medians, slower than 1
 * by more than NOISE_SIGMAS of that median's noise and by at least MIN_SLOWDOWN (a fleet whose noise is near zero
 * must not fail a GPU for 1%): a uniform slowdown (clocks, throttling) shows in every row at once, and the middle
 * of k rows is steadier than any one of them, and than their mean, which one row caught by load drags (lavapipe:
 * healthy runs' means 0.86 to 1.35 of the baseline, their medians 0.93 to 1.01; docs/tooling.md). One row alone
 * (a slow host link, slow memory): beyond ROW_SIGMAS of its noise and ROW_MIN_SLOWDOWN it warns; it takes the GPU
 * out only when the fastest its own run allows (its time's first quartile) over the slowest its baseline allows
 * (ROW_DRAIN_SIGMAS of the noise below the median) is still below ROW_DRAIN: evidence no noise explains (on the
 * H100 the host link's pinned copy read 0.54x and 0.65x of its baseline in 2 of 10 healthy runs). */
#define NOISE_SIGMAS 4.0
#define MIN_SLOWDOWN 0.08
#define ROW_SIGMAS 6.0
#define ROW_MIN_SLOWDOWN 0.20
#define ROW_DRAIN 0.5
#define ROW_DRAIN_SIGMAS 4.0
/* The baseline row that holds the noise of the whole GPU's median (fleet.py --write-baseline: the spread of its
 * GPUs' medians, which counts what the rows share, a loaded host or a warm room); without it, the rows' own noise
 * taken as independent, x 1.2533 (a median's standard error over a mean's, normal samples) */
#define AGGREGATE_ROW "*"
/* a configuration or baseline larger than this is not one */
#define INPUT_MAX_BYTES (16u << 20)

enum { ACT_NONE, ACT_DRAIN, ACT_RESET, ACT_SERVICE };
static const char *const action_names[] = {"none", "drain", "reset", "service"};
enum { V_PASS, V_WARN, V_FAIL };
static const char *const verdict_names[] = {"pass", "warn", "fail"};

/* The check's own set-up failed (a configuration, a baseline, the host): no verdict on the node. */
#define UNJUDGED(...) vkb_die(VKB_EXIT_UNJUDGED, "could not judge: " __VA_ARGS__)

/* Whether D's device failed mid-run (not a stop signal): lost, hung past its timeout, out of memory. */
static int failed(const vkb_device_run *d)
{
    return d->error && !d->error->stopped;
}

const char *vkb_health_uuid(const vkb_caps *c, char buf[48])
{
    const uint8_t *u = c->uuid;
    sprintf(buf, "%s%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
            c->vendor_id == 0x10de ? "GPU-" : "", u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10],
            u[11], u[12], u[13], u[14], u[15]);
    return buf;
}

const char *vkb_health_pci(const vkb_caps *c, char buf[24])
{
    unsigned domain, bus, dev, fn;
    if (!c->pci_bus[0])
        return NULL;
    if (c->vendor_id != 0x10de || sscanf(c->pci_bus, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4) {
        snprintf(buf, 24, "%s", c->pci_bus);
        return buf;
    }
    snprintf(buf, 24, "%08X:%02X:%02X.%X", domain, bus, dev, fn); /* nvmlPciInfo_t.busId, as dcgm-exporter */
    return buf;
}

static const char *pci_or_dash(const vkb_caps *c, char buf[24])
{
    const char *p = vkb_health_pci(c, buf);
    return p ? p : "-";
}

const char *vkb_health_clean(const char *text, char *out, size_t len)
{
    size_t used = 0;
    for (const char *p = text; *p;) {
        int n = vkb_utf8_sequence(p);
        if (n > 1 && used + (size_t)n < len) {
            memcpy(out + used, p, (size_t)n);
            used += (size_t)n;
            p += n;
            continue;
        }
        if (n > 1 || used + 1 >= len)
            break; /* a character LEN would cut: left out whole */
        /* an invalid byte, a control character: '?' */
        out[used++] = n == 1 && (unsigned char)*p >= 0x20 && *p != 0x7f ? *p : '?';
        p++;
    }
    out[used] = 0;
    return out;
}

int vkb_health_gpus(vkb_health *h, int allow_cpu, char *again, size_t len)
{
    int first[VKB_MAX_DEVICES], all_cpu = 1;
    size_t used = 0;
    again[0] = h->device_list[0] = 0;
    h->ngpus = 0;
    vkb_same_gpu_count(h->caps, h->ndevices, first);
    for (int i = 0; i < h->ndevices; i++) {
        if (h->caps[i].is_cpu && !allow_cpu)
            continue;        /* lavapipe is on every machine set up by tools/setup.sh: never a GPU of the node */
        if (first[i] != i) { /* one GPU, two driver manifests: judged and counted once */
            vkb_same_gpu_say(h->caps, i, first[i], again, len);
            continue;
        }
        all_cpu &= h->caps[i].is_cpu;
        h->gpus[h->ngpus++] = i;
        used += (size_t)snprintf(h->device_list + used, sizeof h->device_list - used, "%s%d", used ? "," : "", i);
    }
    return all_cpu;
}

int vkb_health_expect(const vkb_health *h, const char *text, int *total, char *why, size_t len)
{
    const char *p = text;
    int mismatch = 0;
    size_t used = 0;
    why[0] = 0;
    *total = 0;
    while (*p) {
        size_t item = strcspn(p, ","), colon = strcspn(p, ":");
        const char *num = p;
        size_t model_len = 0;
        char *end;
        long want;
        int have = 0;
        if (colon < item) {
            model_len = colon;
            num = p + colon + 1;
        }
        want = strtol(num, &end, 10);
        if (item == 0 || (colon < item && model_len == 0) || !isdigit((unsigned char)*num) || end != p + item ||
            want > VKB_MAX_DEVICES) {
            snprintf(why, len, "--expect wants N or MODEL:N,... (N from 0 to %d), not '%.60s'", VKB_MAX_DEVICES, text);
            return -1;
        }
        if (!model_len && (p != text || p[item])) {
            snprintf(why, len, "--expect '%.60s': a bare count is the whole node's, not one item of a list", text);
            return -1;
        }
        *total += (int)want;
        for (int i = 0; i < h->ngpus; i++)
            have += !model_len || vkb_holds_nocase(h->caps[h->gpus[i]].name, p, model_len);
        if (have != want) {
            used += (size_t)snprintf(why + used, used < len ? len - used : 0, "%sexpected %ld %s%.*s%s, found %d",
                                     mismatch ? "; " : "", want, model_len ? "" : "GPU", (int)model_len, p,
                                     want == 1 || !model_len ? (want == 1 ? "" : "s") : "", have);
            mismatch = 1;
        }
        p += item + (p[item] != 0);
        if (!*p && p[-1] == ',') {
            snprintf(why, len, "--expect '%.60s': a stray comma", text);
            return -1;
        }
    }
    return mismatch;
}

/* PATH (for WHAT: "--baseline", "--config") read whole into *TEXT (malloc'd, NUL-terminated; *LEN bytes): a
 * regular file only, opened without blocking (a FIFO as an input never holds the check); its identity in *ST.
 * 0, or -1 with WHY. */
static int read_input(const char *path, const char *what, char **text, size_t *len, struct stat *st, char *why,
                      size_t wlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    size_t got = 0;
    if (fd < 0) {
        snprintf(why, wlen, "%s %.200s: %s", what, path, strerror(errno));
        return -1;
    }
    if (fstat(fd, st) || !S_ISREG(st->st_mode) || st->st_size > (off_t)INPUT_MAX_BYTES) {
        snprintf(why, wlen, "%s %.200s: %s", what, path,
                 S_ISREG(st->st_mode) ? "larger than 16 MiB: not one"
                                      : "not a regular file (a FIFO, a device or a folder)");
        close(fd);
        return -1;
    }
    *text = malloc((size_t)st->st_size + 1);
    if (!*text) {
        close(fd);
        UNJUDGED("out of host memory reading %s %.200s", what, path);
    }
    while (got < (size_t)st->st_size) {
        ssize_t n = read(fd, *text + got, (size_t)st->st_size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            snprintf(why, wlen, "%s %.200s: %s", what, path, n < 0 ? strerror(errno) : "shorter than its size");
            close(fd);
            free(*text);
            return -1;
        }
        got += (size_t)n;
    }
    close(fd);
    (*text)[got] = 0;
    *len = got;
    return 0;
}

int vkb_health_number(const char *s, int zero_ok, double *out)
{
    double v;
    if (vkb_number_decimal(s, &v) || !(zero_ok ? v >= 0 : v > 0) || !(v <= VKB_HEALTH_NUMBER_MAX))
        return -1;
    *out = v;
    return 0;
}

/* Whether NAME (LEN bytes) may stand in a baseline: 0, or -1 with the reason in WHY. */
static int name_ok(const char *name, size_t len, size_t max, char *why, size_t wlen)
{
    if (!len || len >= max) {
        snprintf(why, wlen, len ? "longer than %zu bytes" : "empty", max - 1);
        return -1;
    }
    for (size_t i = 0; i < len;) {
        int n = vkb_utf8_sequence(name + i);
        if (!n || (n == 1 && ((unsigned char)name[i] < 0x20 || name[i] == 0x7f))) {
            snprintf(why, wlen, n ? "a control character (byte 0x%02x)" : "not valid UTF-8", (unsigned char)name[i]);
            return -1;
        }
        i += (size_t)n;
    }
    return 0;
}

int vkb_health_baseline_parse(const char *text, size_t len, const char *name, vkb_health_golden **out, int *nout,
                              char *why, size_t wlen)
{
    static const char header[] = "# vkbench baseline 1";
    static const char *const field_names[] = {"the model", "the driver", "the row", "the median", "the noise"};
    const size_t max[] = {VKB_HEALTH_MODEL_MAX, VKB_HEALTH_DRIVER_MAX, VKB_HEALTH_ROW_MAX};
    vkb_health_golden *g = NULL;
    int n = 0, lineno = 0;
    size_t at = 0;
    *out = NULL;
    *nout = 0;
    while (at < len) {
        const char *line = text + at, *nl = memchr(line, '\n', len - at);
        size_t ll = nl ? (size_t)(nl - line) : len - at;
        const char *field[5];
        size_t flen[5];
        char fwhy[120], num[64];
        int nf = 0;
        vkb_health_golden row;
        at += ll + (nl != NULL);
        lineno++;
        if (memchr(line, 0, ll) || memchr(line, '\r', ll)) {
            snprintf(why, wlen, "--baseline %.200s line %d: a %s: a baseline's lines hold neither", name, lineno,
                     memchr(line, 0, ll) ? "NUL byte" : "carriage return (CR)");
            goto bad;
        }
        if (lineno == 1) {
            if (ll != sizeof header - 1 || memcmp(line, header, ll)) {
                snprintf(why, wlen,
                         "--baseline %.200s: not a baseline file (its first line is not '%s'; tools/fleet.py "
                         "--write-baseline writes one)",
                         name, header);
                goto bad;
            }
            continue;
        }
        if (!ll || line[0] == '#')
            continue;
        for (const char *p = line, *end = line + ll; nf < 5; nf++) {
            const char *tab = memchr(p, '\t', (size_t)(end - p));
            field[nf] = p;
            flen[nf] = tab ? (size_t)(tab - p) : (size_t)(end - p);
            if (!tab) {
                nf++;
                break;
            }
            p = tab + 1;
            if (nf == 4) {
                nf = 6; /* a sixth field */
                break;
            }
        }
        if (nf != 5) {
            snprintf(why, wlen, "--baseline %.200s line %d: wants MODEL, DRIVER, ROW, MEDIAN, NOISE separated by tabs",
                     name, lineno);
            goto bad;
        }
        memset(&row, 0, sizeof row);
        for (int k = 0; k < 3; k++)
            if (name_ok(field[k], flen[k], max[k], fwhy, sizeof fwhy)) {
                snprintf(why, wlen, "--baseline %.200s line %d: %s is %s", name, lineno, field_names[k], fwhy);
                goto bad;
            }
        memcpy(row.model, field[0], flen[0]);
        memcpy(row.driver, field[1], flen[1]);
        memcpy(row.row, field[2], flen[2]);
        for (int k = 3; k < 5; k++) {
            snprintf(num, sizeof num, "%.*s", (int)(flen[k] < 63 ? flen[k] : 63), field[k]);
            if (flen[k] >= sizeof num || vkb_health_number(num, k == 4, k == 3 ? &row.median : &row.noise)) {
                snprintf(why, wlen,
                         "--baseline %.200s line %d: %s '%.40s' is not a decimal number %s %g (no sign, blank, hex, "
                         "inf or nan)",
                         name, lineno, field_names[k], num, k == 3 ? "above 0 and at most" : "from 0 to",
                         VKB_HEALTH_NUMBER_MAX);
                goto bad;
            }
        }
        for (int i = 0; i < n; i++)
            if (!strcmp(g[i].model, row.model) && !strcmp(g[i].driver, row.driver) && !strcmp(g[i].row, row.row)) {
                snprintf(why, wlen, "--baseline %.200s line %d: a second line for model, driver and row '%.60s'", name,
                         lineno, row.row);
                goto bad;
            }
        vkb_health_golden *grown = realloc(g, (size_t)(n + 1) * sizeof *g);
        if (!grown)
            UNJUDGED("out of host memory reading --baseline %.200s", name);
        g = grown;
        g[n++] = row;
    }
    if (!lineno) {
        snprintf(why, wlen, "--baseline %.200s: an empty file, not a baseline", name);
        goto bad;
    }
    *out = g;
    *nout = n;
    return 0;
bad:
    free(g);
    return -1;
}

/* The configuration file's settings (docs/tooling.md, "The configuration file"). */
typedef struct health_config {
    char expect[256], baseline[1024], json[1024], prom[1024];
    int allow_cpu, pci_check, timeout_s; /* -1: not set */
} health_config;

/* CONFIG's KEY = VALUE lines into C; every failure exits 7 (could not judge) naming the key and line. */
static void read_config(const char *path, int required, health_config *c, struct stat *st)
{
    static const char *const keys[] = {"expect",    "baseline",        "json", "prom", "allow_cpu",
                                       "pci_check", "device_timeout_s"};
    char *text, why[600];
    size_t len, at = 0;
    int lineno = 0, seen[VKB_COUNT(keys)] = {0};
    memset(c, 0, sizeof *c);
    c->allow_cpu = c->pci_check = c->timeout_s = -1;
    if (read_input(path, "--config", &text, &len, st, why, sizeof why)) {
        if (!required && errno == ENOENT)
            return; /* the fixed file is optional: the command line alone configures the check */
        UNJUDGED("%s", why);
    }
    while (at < len) {
        char *line = text + at, *nl = memchr(line, '\n', len - at), *eq, *key, *value, *end;
        size_t ll = nl ? (size_t)(nl - line) : len - at, k;
        at += ll + (nl != NULL);
        lineno++;
        line[ll] = 0;
        if (strlen(line) != ll)
            UNJUDGED("--config %.200s line %d: a NUL byte", path, lineno);
        while (*line == ' ' || *line == '\t')
            line++;
        for (end = line + strlen(line); end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r');)
            *--end = 0;
        if (!*line || *line == '#')
            continue;
        eq = strchr(line, '=');
        key = line;
        if (!eq)
            UNJUDGED("--config %.200s line %d: wants KEY = VALUE, not '%.60s'", path, lineno, line);
        for (end = eq; end > key && (end[-1] == ' ' || end[-1] == '\t');)
            end--;
        *end = 0;
        for (value = eq + 1; *value == ' ' || *value == '\t';)
            value++;
        for (k = 0; k < VKB_COUNT(keys) && strcmp(key, keys[k]); k++)
            ;
        if (k == VKB_COUNT(keys))
            UNJUDGED("--config %.200s line %d: unknown key '%.60s' (keys: expect, baseline, json, prom, allow_cpu, "
                     "pci_check, device_timeout_s)",
                     path, lineno, key);
        if (seen[k])
            UNJUDGED("--config %.200s line %d: %s is set twice (first on line %d)", path, lineno, key, seen[k]);
        seen[k] = lineno;
        for (const char *p = value; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                UNJUDGED("--config %.200s line %d: %s: a control character in its value", path, lineno, key);
        if (k < 4) { /* expect and the paths */
            char *dst = k == 0 ? c->expect : k == 1 ? c->baseline : k == 2 ? c->json : c->prom;
            size_t cap = k == 0 ? sizeof c->expect : sizeof c->baseline;
            int dummy;
            if (!*value || strlen(value) >= cap || (k > 0 && value[0] != '/'))
                UNJUDGED("--config %.200s line %d: %s wants %s, not '%.60s'", path, lineno, key,
                         k ? "an absolute path (slurmd's working folder is not yours)" : "N or MODEL:N,...", value);
            if (k == 0) {
                static vkb_health h0; /* its baseline table is large: not on the stack */
                h0.ngpus = 0;
                if (vkb_health_expect(&h0, value, &dummy, why, sizeof why) < 0)
                    UNJUDGED("--config %.200s line %d: expect: %s", path, lineno, why);
            }
            strcpy(dst, value);
        } else if (k < 6) {
            if (strcmp(value, "yes") && strcmp(value, "no"))
                UNJUDGED("--config %.200s line %d: %s wants yes or no, not '%.60s'", path, lineno, key, value);
            *(k == 4 ? &c->allow_cpu : &c->pci_check) = strcmp(value, "yes") == 0;
        } else {
            size_t d = strspn(value, "0123456789");
            long v = d && d == strlen(value) && d < 6 ? strtol(value, NULL, 10) : 0;
            if (v < 1 || v > 3600)
                UNJUDGED("--config %.200s line %d: %s wants a whole number of seconds from 1 to 3600, not '%.60s'",
                         path, lineno, key, value);
            c->timeout_s = (int)v;
        }
    }
    free(text);
}

static int same_file(const char *path, const struct stat *st)
{
    struct stat o;
    return path && stat(path, &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino;
}

/* The GPU vendors whose display-class devices are GPUs (a server's BMC VGA, ASPEED or Matrox, is not one). */
static int gpu_vendor(unsigned v)
{
    return v == 0x10de || v == 0x1002 || v == 0x8086;
}

int vkb_health_pci_scan(const char *root, const char *const *seen, int n, char *missing, size_t len)
{
    char dir[1024];
    DIR *d;
    struct dirent *e;
    int count = 0, unmatched = 0, anonymous = 0;
    size_t used = 0;
    missing[0] = 0;
    snprintf(dir, sizeof dir, "%s/sys/bus/pci/devices", root);
    if (!(d = opendir(dir)))
        return 0;
    for (int i = 0; i < n; i++)
        anonymous += !seen[i][0]; /* a Vulkan GPU without its PCI address stands for any one */
    while ((e = readdir(d)) != NULL) {
        char path[1400], text[32];
        unsigned cls = 0, vendor = 0;
        FILE *f;
        int found = 0;
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s/class", dir, e->d_name);
        if (!(f = fopen(path, "r")))
            continue;
        if (!fgets(text, sizeof text, f) || sscanf(text, "%x", &cls) != 1)
            cls = 0;
        fclose(f);
        snprintf(path, sizeof path, "%s/%s/vendor", dir, e->d_name);
        if (!(f = fopen(path, "r")))
            continue;
        if (!fgets(text, sizeof text, f) || sscanf(text, "%x", &vendor) != 1)
            vendor = 0;
        fclose(f);
        if (cls >> 16 != 0x03 || !gpu_vendor(vendor))
            continue;
        count++;
        for (int i = 0; i < n && !found; i++)
            found = seen[i][0] && strcasecmp(seen[i], e->d_name) == 0;
        if (!found && ++unmatched > anonymous)
            used +=
                (size_t)snprintf(missing + used, used < len ? len - used : 0, "%s%.20s", used ? ", " : "", e->d_name);
    }
    closedir(d);
    return count;
}

int vkb_health_prepare(vkb_health *h, vkb_args *a, const char *version)
{
    static health_config cfg;
    char why[600], missing[400], again[2000];
    size_t used = 0;
    int all_cpu, expect_rc = 0;
    const char *config = a->config_path ? a->config_path : VKB_HEALTH_CONFIG;
    struct stat config_st, base_st;
    vkb_backend_error error = {0};
    memset(h, 0, sizeof *h);
    vkb_die_remap(VKB_EXIT_RESOURCE, VKB_EXIT_UNJUDGED); /* out of host memory: the check's failure, not a GPU's */
    read_config(config, a->config_path != NULL, &cfg, &config_st);
    /* the command line wins over the file */
    if (!a->expect && cfg.expect[0])
        a->expect = cfg.expect;
    if (!a->baseline_path && cfg.baseline[0])
        a->baseline_path = cfg.baseline;
    if (!a->json_path && cfg.json[0])
        a->json_path = cfg.json;
    if (!a->prom_path && cfg.prom[0])
        a->prom_path = cfg.prom;
    if (!a->allow_cpu && cfg.allow_cpu > 0)
        a->allow_cpu = 1;
    h->json_path = a->json_path;
    h->prom_path = a->prom_path;
    h->version = version;
    h->dry_run = a->dry_run;
    h->expected = -1;
    h->pci_gpus = -1;
    if (a->expect && vkb_health_expect(h, a->expect, &h->expected, why, sizeof why) < 0)
        vkb_die(VKB_EXIT_USAGE, "%s", why);
    /* the outputs before anything runs: one file each, never an input, writable */
    if (h->json_path && h->prom_path && vkb_outfile_same(h->json_path, h->prom_path))
        vkb_die(VKB_EXIT_USAGE, "--json %s and --prom %s are one file: give each its own", h->json_path, h->prom_path);
    if (a->baseline_path) {
        char *text;
        size_t len;
        if (read_input(a->baseline_path, "--baseline", &text, &len, &base_st, why, sizeof why) ||
            vkb_health_baseline_parse(text, len, a->baseline_path, &h->golden, &h->ngolden, why, sizeof why))
            UNJUDGED("%s", why);
        free(text);
    }
    for (int k = 0; k < 2; k++) {
        const char *out = k ? h->prom_path : h->json_path, *opt = k ? "--prom" : "--json";
        if (!out)
            continue;
        if (a->baseline_path && same_file(out, &base_st))
            vkb_die(VKB_EXIT_USAGE, "%s %s is the --baseline file itself: give the verdict a file of its own", opt,
                    out);
        if (cfg.timeout_s != -1 || cfg.expect[0] || cfg.baseline[0] || cfg.json[0] || cfg.prom[0] ||
            cfg.allow_cpu != -1 || cfg.pci_check != -1)
            if (same_file(out, &config_st))
                vkb_die(VKB_EXIT_USAGE, "%s %s is the --config file itself: give the verdict a file of its own", opt,
                        out);
        if (!h->dry_run && vkb_outfile_check(out))
            vkb_die(VKB_EXIT_OUTPUT, "cannot write %s (%s): %s", out, opt, vkb_outfile_reason());
    }
    h->ndevices = vkb_vulkan_devices(h->caps, VKB_MAX_DEVICES, &error);
    if (h->ndevices < 0 && error.code != VKB_EXIT_NO_DEVICE)
        UNJUDGED("%s", error.message);
    if (h->ndevices < 0) /* no loader or driver: a node without a usable GPU, judged as one */
        h->ndevices = 0;
    if (h->ndevices > VKB_MAX_DEVICES)
        h->ndevices = VKB_MAX_DEVICES;
    all_cpu = vkb_health_gpus(h, a->allow_cpu, again, sizeof again);
    vkb_same_gpu_warn(again);
    if (a->expect)
        expect_rc = vkb_health_expect(h, a->expect, &h->expected, why, sizeof why);
    if (expect_rc > 0 || (!h->ngpus && !a->expect)) {
        if (!expect_rc)
            snprintf(why, sizeof why, "no GPU found");
        if (!h->ngpus && h->ndevices)
            snprintf(h->problem, sizeof h->problem,
                     "%s (%d Vulkan device%s, all CPU implementations; --allow-cpu counts them)", why, h->ndevices,
                     h->ndevices == 1 ? "" : "s");
        else if (!h->ndevices)
            snprintf(h->problem, sizeof h->problem, "%s (no Vulkan device: %.200s)", why,
                     error.message[0] ? error.message : "the loader lists none");
        else
            snprintf(h->problem, sizeof h->problem, "%s", why);
    }
    if (cfg.pci_check != 0) { /* fail closed: a GPU the bus shows and Vulkan does not is a missing GPU */
        const char *seen[VKB_MAX_DEVICES];
        const char *root = getenv("VKB_SYSFS_ROOT"); /* tests: a sysfs tree of their own */
        int n = 0, missed;
        for (int i = 0; i < h->ndevices; i++)
            if (!h->caps[i].is_cpu)
                seen[n++] = h->caps[i].pci_bus;
        h->pci_gpus = vkb_health_pci_scan(root ? root : "", seen, n, missing, sizeof missing);
        if (missing[0]) {
            missed = 1;
            for (const char *p = missing; (p = strchr(p, ',')) != NULL; p++)
                missed++;
            used = strlen(h->problem);
            snprintf(h->problem + used, sizeof h->problem - used,
                     "%s%d GPU%s on the PCI bus that Vulkan does not show (%s)", used ? "; " : "", missed,
                     missed == 1 ? "" : "s", missing);
        }
    }
    if (!getenv("VKB_DEVICE_TIMEOUT_S")) { /* one hung GPU cannot hold the verdict */
        char t[16];
        snprintf(t, sizeof t, "%d", cfg.timeout_s > 0 ? cfg.timeout_s : HEALTH_DEVICE_TIMEOUT_S);
        setenv("VKB_DEVICE_TIMEOUT_S", t, 1);
    }
    if (h->dry_run) {
        printf("health: set-up read: configuration %s%s, baseline %s (%d rows), %d GPU%s to judge\n", config,
               cfg.timeout_s != -1 || cfg.expect[0] || cfg.baseline[0] || cfg.json[0] || cfg.prom[0] ||
                       cfg.allow_cpu != -1 || cfg.pci_check != -1 || a->config_path
                   ? ""
                   : " (none there)",
               a->baseline_path ? a->baseline_path : "none", h->ngolden, h->ngpus, h->ngpus == 1 ? "" : "s");
        for (int i = 0; vkb_verbose && i < h->ngolden; i++) /* each row as read (the rule allows no tab in a name) */
            printf("baseline row\t%s\t%s\t%s\t%.17g\t%.17g\n", h->golden[i].model, h->golden[i].driver,
                   h->golden[i].row, h->golden[i].median, h->golden[i].noise);
    }
    /* the battery as a run of its own on every GPU at once */
    a->command = "run";
    a->nfamilies = 0;
    for (size_t i = 0; i < sizeof battery_families / sizeof *battery_families; i++)
        a->families[a->nfamilies++] = battery_families[i];
    a->variants = BATTERY_VARIANTS;
    a->device = h->device_list;
    if (a->budget_ms < 0)
        a->budget_ms = all_cpu ? BATTERY_BUDGET_CPU_MS : BATTERY_BUDGET_MS;
    if (a->warmup_ms < 0)
        a->warmup_ms = BATTERY_WARMUP_MS;
    a->json_path = a->csv_path = a->prom_path = NULL; /* the verdict's, written by vkb_health_judge */
    return h->ngpus ? 0 : -1;
}

/* A result's row: "family/variant", and "@cuda" after a CUDA row, since one row runs through each API (the
 * baseline, the verdict and the metrics name each once). */
static void row_key(const vkb_result *r, char *row, size_t len)
{
    int vulkan = strcmp(r->backend, "vulkan") == 0;
    snprintf(row, len, "%s/%s%s%s", r->family->name, r->variant->name, vulkan ? "" : "@", vulkan ? "" : r->backend);
}

/* The baseline row for CAPS's model and driver, or NULL. */
static const vkb_health_golden *golden_for(const vkb_health *h, const vkb_caps *c, const char *row)
{
    for (int i = 0; i < h->ngolden; i++)
        if (!strcmp(h->golden[i].model, c->name) && !strcmp(h->golden[i].driver, c->driver) &&
            !strcmp(h->golden[i].row, row))
            return &h->golden[i];
    return NULL;
}

typedef struct gpu_verdict {
    int verdict, action, judged_speed, validated;
    double speed;        /* the whole GPU's: the median of its rows' speed over their baseline medians */
    char checks[8][400]; /* "validate: copy/vec4: ..." */
    int nchecks;
} gpu_verdict;

static void add_check(gpu_verdict *v, int verdict, int action, const char *check, const char *what)
{
    if (verdict > v->verdict)
        v->verdict = verdict;
    if (action > v->action)
        v->action = action;
    if (v->nchecks < 8) /* WHAT cut to fit beside the check's name (a device's message is up to 399) */
        snprintf(v->checks[v->nchecks++], sizeof v->checks[0], "%s: %.380s", check, what);
}

int vkb_health_row_speed(double metric, double median, double noise, double shared, double quick)
{
    double slack = fmax(ROW_SIGMAS * sqrt(noise * noise + shared * shared), ROW_MIN_SLOWDOWN * median);
    double slowest = median - ROW_DRAIN_SIGMAS * sqrt(noise * noise + shared * shared);
    if (!(metric < median - slack))
        return 0;
    /* the fastest the run's quartiles allow over the slowest the baseline's noise allows, still below ROW_DRAIN */
    return slowest > 0 && metric * fmax(quick, 1) / slowest < ROW_DRAIN ? 2 : 1;
}

static void judge_gpu(const vkb_health *h, const vkb_device_run *d, gpu_verdict *v)
{
    const vkb_caps *c = &h->caps[d->index];
    const vkb_results *rs = &d->runner.results;
    const vkb_health_golden *all = golden_for(h, c, AGGREGATE_ROW);
    const vkb_result *slow[8]; /* the rows slow on their own, listed after the whole GPU's check */
    const vkb_health_golden *slow_golden[8];
    int slow_verdict[8]; /* ... and each one's vkb_health_row_speed: 1 a warning, 2 out of service */
    double logs[VKB_HEALTH_MAX_ROWS], sum_var = 0; /* the rows judged: log(speed / median); (noise / median)^2 */
    int judged = 0, nslow = 0;
    memset(v, 0, sizeof *v);
    if (failed(d)) /* lost, hung past its timeout, out of memory: the rows after it failed for that reason */
        add_check(v, V_FAIL, ACT_RESET, "device", d->error->message);
    for (int i = 0; i < rs->n; i++) {
        const vkb_result *r = &rs->r[i];
        char row[96], what[300];
        const vkb_health_golden *g;
        row_key(r, row, sizeof row);
        if (r->status == VKB_RES_FAIL && !failed(d)) {
            if (r->check.reason[0])
                snprintf(what, sizeof what, "%s: wrong result (%s)", row, r->check.reason);
            else
                snprintf(what, sizeof what, "%s: wrong result (%llu of %llu elements, the first at %llu)", row,
                         (unsigned long long)r->check.bad, (unsigned long long)r->check.checked,
                         (unsigned long long)r->check.first_bad);
            add_check(v, V_FAIL, ACT_DRAIN, "validate", what);
        }
        if (r->status != VKB_RES_OK)
            continue;
        v->validated++;
        if (r->suspect) {
            snprintf(what, sizeof what, "%s: timing not believed (%s)", row, r->suspect_reason);
            add_check(v, V_WARN, ACT_NONE, "timing", what);
        }
        if (r->variant->flags & VKB_VAR_CEILING)
            continue; /* a ceiling measured again: validated above, never judged on speed */
        if (r->timed && r->metric > 0 && (g = golden_for(h, c, row)) != NULL) {
            /* what moves the whole GPU (the aggregate row's noise) moves each row too, beside its own noise */
            double shared = all ? all->noise / all->median * g->median : 0;
            if (judged < VKB_HEALTH_MAX_ROWS) {
                logs[judged++] = log(r->metric / g->median);
                sum_var += (g->noise / g->median) * (g->noise / g->median);
            }
            /* the run's own quartiles: its time's median over its first quartile, the fastest it allows */
            double quick =
                r->time_ns.n >= VKB_STATS_MIN_QUARTILES && r->time_ns.q1 > 0 ? r->time_ns.median / r->time_ns.q1 : 1;
            int speed = vkb_health_row_speed(r->metric, g->median, g->noise, shared, quick);
            if (speed && nslow < 8) {
                slow[nslow] = r;
                slow_verdict[nslow] = speed;
                slow_golden[nslow++] = g;
            }
        }
    }
    v->judged_speed = judged > 0;
    if (judged) {
        double mid = exp(vkb_median(logs, judged)) / (all ? all->median : 1);
        double noise = all ? all->noise / all->median : 1.2533 * sqrt(sum_var) / judged;
        double bound = 1 - fmax(NOISE_SIGMAS * noise, MIN_SLOWDOWN);
        char what[300];
        v->speed = mid;
        if (mid < bound) {
            snprintf(what, sizeof what,
                     "all rows: %.2fx of the baseline (the median of %d rows; bound %.2fx, "
                     "noise %.3g)",
                     mid, judged, bound, noise);
            add_check(v, V_FAIL, ACT_DRAIN, "speed", what);
        }
    }
    for (int i = 0; i < nslow; i++) { /* after the whole GPU's line, which a drain reason carries first */
        const vkb_result *r = slow[i];
        const vkb_health_golden *g = slow_golden[i];
        char row[96], what[300];
        row_key(r, row, sizeof row);
        snprintf(what, sizeof what, "%s: %.4g %s, %.2fx of the baseline's %.4g (noise %.3g)", row, r->metric,
                 r->family->metric, r->metric / g->median, g->median, g->noise);
        if (slow_verdict[i] == 2)
            add_check(v, V_FAIL, ACT_DRAIN, "speed", what);
        else
            add_check(v, V_WARN, ACT_NONE, "speed", what);
    }
    if (!v->validated && !failed(d))
        add_check(v, V_WARN, ACT_NONE, "battery", "no battery row ran (all skipped): nothing was validated");
}

/* The host's name as the verdict carries it: valid UTF-8, control characters as '?' (vkb_health_clean). */
static const char *host_name(char *host, size_t len)
{
    char raw[1024];
    memset(raw, 0, sizeof raw);
    if (getenv("VKB_HOST") && *getenv("VKB_HOST"))
        snprintf(raw, sizeof raw, "%s", getenv("VKB_HOST")); /* Slurm tasks standing for nodes on one host */
    else
        gethostname(raw, sizeof raw - 1);
    return vkb_health_clean(raw, host, len);
}

static vkb_outfile *open_output(const char *path, const char *option)
{
    vkb_outfile *f = vkb_outfile_open(path, option);
    if (!f)
        vkb_die(VKB_EXIT_OUTPUT, "cannot write %s (%s): %s", path, option, vkb_outfile_reason());
    return f;
}

static void close_output(vkb_outfile *f)
{
    if (vkb_outfile_close(f)) {
        vkb_outfile_report();
        exit(VKB_EXIT_OUTPUT);
    }
}

/* The node's verdict of exit code CODE. */
static const char *node_verdict(int code)
{
    return code == VKB_EXIT_OK ? "keep" : code == VKB_EXIT_MISMATCH ? "take out of service" : "could not judge";
}

/* The verdicts into the store's health table, beside the battery's rows the --db sink wrote (the same columns as
 * an import of the --json verdict gives): 0, or the sink's exit code with its line printed. */
static int store_verdicts(const vkb_health *h, const vkb_device_run *runs, const gpu_verdict *v, int n, int code)
{
    static vkb_store_health rows[VKB_MAX_DEVICES];
    static const char *reasons[VKB_MAX_DEVICES][8];
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < v[i].nchecks; k++)
            reasons[i][k] = v[i].checks[k];
        rows[i] = (vkb_store_health){.gpu = runs[i].index,
                                     .verdict = verdict_names[v[i].verdict],
                                     .action = action_names[v[i].action],
                                     .reasons = reasons[i],
                                     .nreasons = v[i].nchecks,
                                     .speed_judged = v[i].judged_speed,
                                     .speed_ratio = v[i].judged_speed ? v[i].speed : NAN};
    }
    return vkb_sink_sqlite_health(h->db, node_verdict(code), rows, n);
}

static void write_json(const vkb_health *h, const vkb_device_run *runs, const gpu_verdict *v, int n, int code,
                       const char *path)
{
    vkb_outfile *f = open_output(path, "--json");
    vkb_json j;
    char host[256], uuid[48], pci[24];
    host_name(host, sizeof host);
    vkb_json_init(&j, vkb_outfile_stream(f));
    vkb_json_object_begin(&j, NULL);
    vkb_json_string(&j, "schema", "vkbench-health/1");
    vkb_json_string(&j, "hostname", host);
    vkb_json_int(&j, "time", (int64_t)time(NULL));
    vkb_json_string(&j, "verdict", node_verdict(code));
    vkb_json_int(&j, "exit", code);
    vkb_json_string(&j, "node_problem", h->problem[0] ? h->problem : NULL);
    vkb_json_int(&j, "gpus_found", h->ngpus);
    if (h->expected >= 0)
        vkb_json_int(&j, "expected_gpus", h->expected);
    else
        vkb_json_null(&j, "expected_gpus");
    if (h->pci_gpus >= 0)
        vkb_json_int(&j, "pci_gpus", h->pci_gpus);
    else
        vkb_json_null(&j, "pci_gpus");
    vkb_json_bool(&j, "baseline", h->ngolden > 0);
    vkb_json_array_begin(&j, "gpus");
    for (int i = 0; i < n; i++) {
        const vkb_caps *c = &h->caps[runs[i].index];
        const vkb_results *rs = &runs[i].runner.results;
        vkb_json_object_begin(&j, NULL);
        vkb_json_int(&j, "gpu", runs[i].index);
        vkb_json_string(&j, "uuid", vkb_health_uuid(c, uuid));
        vkb_json_string(&j, "pci_bus_id", vkb_health_pci(c, pci));
        vkb_json_string(&j, "model", c->name);
        vkb_json_string(&j, "driver", c->driver);
        vkb_json_string(&j, "verdict", verdict_names[v[i].verdict]);
        vkb_json_string(&j, "action", action_names[v[i].action]);
        vkb_json_bool(&j, "speed_judged", v[i].judged_speed);
        if (v[i].judged_speed)
            vkb_json_number(&j, "speed_ratio", v[i].speed);
        if (!v[i].judged_speed)
            vkb_json_string(&j, "speed_note", "speed reported, not judged: no baseline for this model and driver");
        vkb_json_array_begin(&j, "failing");
        for (int k = 0; k < v[i].nchecks; k++)
            vkb_json_string(&j, NULL, v[i].checks[k]);
        vkb_json_array_end(&j);
        vkb_json_array_begin(&j, "rows");
        for (int r = 0; r < rs->n; r++) {
            char row[96];
            row_key(&rs->r[r], row, sizeof row);
            vkb_json_object_begin(&j, NULL);
            vkb_json_string(&j, "row", row);
            vkb_json_string(&j, "backend", rs->r[r].backend);
            vkb_json_bool(&j, "ceiling", (rs->r[r].variant->flags & VKB_VAR_CEILING) != 0);
            vkb_json_string(&j, "status",
                            rs->r[r].status == VKB_RES_OK     ? "ok"
                            : rs->r[r].status == VKB_RES_FAIL ? "fail"
                                                              : "skip");
            if (rs->r[r].status == VKB_RES_OK && rs->r[r].timed) {
                vkb_json_number(&j, "metric", rs->r[r].metric);
                vkb_json_string(&j, "unit", vkb_variant_unit(rs->r[r].family, rs->r[r].variant));
                vkb_json_number(&j, "median_s", rs->r[r].time_ns.median * 1e-9);
            }
            vkb_json_object_end(&j);
        }
        vkb_json_array_end(&j);
        vkb_json_object_end(&j);
    }
    vkb_json_array_end(&j);
    vkb_json_object_end(&j);
    fputc('\n', vkb_outfile_stream(f));
    close_output(f);
}

/* TEXT as a Prometheus label value: valid UTF-8, control characters as '?' (vkb_health_clean), backslash and
 * double quote escaped (the exposition format). */
static void prom_label(FILE *out, const char *name, const char *text, const char *sep)
{
    char clean[512];
    fprintf(out, "%s=\"", name);
    for (const char *p = vkb_health_clean(text, clean, sizeof clean); *p; p++) {
        if (*p == '\\' || *p == '"')
            fputc('\\', out);
        if (*p == '\n')
            fputs("\\n", out);
        else
            fputc(*p, out);
    }
    fprintf(out, "\"%s", sep);
}

/* The labels of one GPU, dcgm-exporter's names and values, so that dashboards join the two on them; no
 * pci_bus_id where the driver reports none (lavapipe), never an empty one. */
static void prom_gpu_labels(FILE *out, const vkb_caps *c, int index, const char *host)
{
    char num[16], uuid[48], pci[24];
    snprintf(num, sizeof num, "%d", index);
    prom_label(out, "gpu", num, ",");
    prom_label(out, "UUID", vkb_health_uuid(c, uuid), ",");
    if (vkb_health_pci(c, pci))
        prom_label(out, "pci_bus_id", pci, ",");
    prom_label(out, "modelName", c->name, ",");
    prom_label(out, "Hostname", host, "");
}

static void prom_family(FILE *out, const char *name, const char *help)
{
    fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* The verdict as Prometheus text exposition for node_exporter's textfile collector: written whole (a temporary
 * renamed over the file), no timestamps, base units (bytes per second, FLOP per second, seconds). */
static void write_prom(const vkb_health *h, const vkb_device_run *runs, const gpu_verdict *v, int n, int code,
                       const char *path)
{
    static const char *const units[][2] = {{"GB/s", "bytes_per_second"}, {"GFLOP/s", "flops_per_second"}};
    vkb_outfile *f = open_output(path, "--prom");
    FILE *out = vkb_outfile_stream(f);
    char host[256];
    host_name(host, sizeof host);
    prom_family(out, "vkbench_build_info", "vkbench's version; always 1");
    fputs("vkbench_build_info{", out);
    prom_label(out, "version", h->version, "");
    fputs("} 1\n", out);
    prom_family(out, "vkbench_health_last_run_timestamp_seconds", "When the health check ran, Unix time");
    fputs("vkbench_health_last_run_timestamp_seconds{", out);
    prom_label(out, "Hostname", host, "");
    fprintf(out, "} %lld\n", (long long)time(NULL));
    prom_family(out, "vkbench_health_exit_code",
                "The health check's exit code: 0 keep, 1 take out of service, 7 "
                "could not judge");
    fputs("vkbench_health_exit_code{", out);
    prom_label(out, "Hostname", host, "");
    fprintf(out, "} %d\n", code);
    prom_family(out, "vkbench_health_gpus", "GPUs found on the node");
    fputs("vkbench_health_gpus{", out);
    prom_label(out, "Hostname", host, "");
    fprintf(out, "} %d\n", h->ngpus);
    if (h->expected >= 0) {
        prom_family(out, "vkbench_health_expected_gpus", "The GPUs the node must have (--expect, in all)");
        fputs("vkbench_health_expected_gpus{", out);
        prom_label(out, "Hostname", host, "");
        fprintf(out, "} %d\n", h->expected);
    }
    if (h->pci_gpus >= 0) {
        prom_family(out, "vkbench_health_pci_gpus", "Display-class GPUs the PCI bus shows");
        fputs("vkbench_health_pci_gpus{", out);
        prom_label(out, "Hostname", host, "");
        fprintf(out, "} %d\n", h->pci_gpus);
    }
    prom_family(out, "vkbench_health_gpu_action", "A GPU's action: 0 none, 1 drain, 2 reset, 3 service");
    for (int i = 0; i < n; i++) {
        fputs("vkbench_health_gpu_action{", out);
        prom_gpu_labels(out, &h->caps[runs[i].index], runs[i].index, host);
        fprintf(out, "} %d\n", v[i].action);
    }
    prom_family(out, "vkbench_health_gpu_speed_ratio",
                "A GPU's speed over its baseline: the median over its rows (only where a baseline judged it)");
    for (int i = 0; i < n; i++) {
        if (!v[i].judged_speed)
            continue;
        fputs("vkbench_health_gpu_speed_ratio{", out);
        prom_gpu_labels(out, &h->caps[runs[i].index], runs[i].index, host);
        fprintf(out, "} %.6g\n", v[i].speed);
    }
    prom_family(out, "vkbench_health_gpu_verdict", "A GPU's verdict: 0 pass, 1 warn, 2 fail");
    for (int i = 0; i < n; i++) {
        fputs("vkbench_health_gpu_verdict{", out);
        prom_gpu_labels(out, &h->caps[runs[i].index], runs[i].index, host);
        fprintf(out, "} %d\n", v[i].verdict);
    }
    prom_family(out, "vkbench_health_gpu_failing_checks", "Checks a GPU failed or warned on");
    for (int i = 0; i < n; i++) {
        fputs("vkbench_health_gpu_failing_checks{", out);
        prom_gpu_labels(out, &h->caps[runs[i].index], runs[i].index, host);
        fprintf(out, "} %d\n", v[i].nchecks);
    }
    for (size_t u = 0; u < sizeof units / sizeof *units; u++) {
        char name[96];
        snprintf(name, sizeof name, "vkbench_health_row_%s", units[u][1]);
        prom_family(out, name,
                    u == 0 ? "A battery row's rate, bytes per second (1e9 x GB/s)"
                           : "A battery row's rate, floating-point operations per second");
        for (int i = 0; i < n; i++)
            for (int r = 0; r < runs[i].runner.results.n; r++) {
                const vkb_result *res = &runs[i].runner.results.r[r];
                char row[96];
                if (res->status != VKB_RES_OK || !res->timed ||
                    strcmp(vkb_variant_unit(res->family, res->variant), units[u][0]) != 0)
                    continue;
                row_key(res, row, sizeof row);
                fprintf(out, "%s{", name);
                prom_gpu_labels(out, &h->caps[runs[i].index], runs[i].index, host);
                fputc(',', out);
                prom_label(out, "row", row, "");
                fputc(',', out); /* a row runs through each API: one series each */
                prom_label(out, "backend", res->backend, "");
                fprintf(out, "} %.9g\n", res->metric * 1e9);
            }
    }
    close_output(f);
}

int vkb_health_judge(vkb_health *h, const vkb_device_run *runs, int n, int rc)
{
    static gpu_verdict v[VKB_MAX_DEVICES];
    int code = VKB_EXIT_OK, unjudged = 0;
    char uuid[48], pci[24];
    if (rc > 128)
        return rc;    /* stopped by a signal: no verdict */
    if (h->dry_run) { /* the set-up checked; the last verdict and metrics stay as they are */
        if (h->problem[0])
            printf("health: dry run: the node would be judged on: %s\n", h->problem);
        printf("health: dry run: nothing judged, nothing written (exit 0)\n");
        return rc == VKB_EXIT_OK || rc == VKB_EXIT_MISMATCH ? VKB_EXIT_OK : rc;
    }
    if (h->problem[0]) {
        fprintf(stderr, "vkbench: node: count: %s\n", h->problem);
        code = VKB_EXIT_MISMATCH;
    }
    for (int i = 0; i < n; i++) {
        const vkb_caps *c = &h->caps[runs[i].index];
        judge_gpu(h, &runs[i], &v[i]);
        unjudged |= !v[i].validated && !failed(&runs[i]);
        if (v[i].verdict == V_FAIL) {
            code = VKB_EXIT_MISMATCH;
            for (int k = 0; k < v[i].nchecks; k++) /* the stable prefix a drain reason carries as it is */
                fprintf(stderr, "vkbench: GPU %d %s %s: %s\n", runs[i].index, vkb_health_uuid(c, uuid),
                        pci_or_dash(c, pci), v[i].checks[k]);
        }
        printf("GPU %d %s (%s) %s: %s, action %s%s\n", runs[i].index, c->name, pci_or_dash(c, pci),
               vkb_health_uuid(c, uuid), verdict_names[v[i].verdict], action_names[v[i].action],
               v[i].judged_speed ? "" : "; speed reported, not judged (no baseline)");
    }
    if (code == VKB_EXIT_OK && unjudged)
        code = VKB_EXIT_UNJUDGED;
    if (code == VKB_EXIT_OK && rc && rc != VKB_EXIT_MISMATCH)
        code = VKB_EXIT_UNJUDGED; /* the run itself failed in a way no GPU's verdict explains */
    printf("health: %s (exit %d)\n", node_verdict(code), code);
    if (h->json_path)
        write_json(h, runs, v, n, code, h->json_path);
    if (h->prom_path)
        write_prom(h, runs, v, n, code, h->prom_path);
    if (h->db && store_verdicts(h, runs, v, n, code))
        return VKB_EXIT_OUTPUT;
    return code;
}
