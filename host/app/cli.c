/* cli.c - the command line: getopt_long parsing into plain data, no side effects (unit-tested). */
#include "cli.h"
#include "command_options.h"
#include "families.h"
#include "number.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The family table the size flags come from (vkb_cli_use_families), and the flags: the known names, then the
 * table's other dim names, made once. */
static const vkb_family *const *table = vkb_families;
static int ntable = -1; /* -1: vkb_family_count, read at run time */
static const char *dim_names[VKB_DIM_MAX] = {"n", "m", "k", "rows", "cols", "stride", "offset", "width", "size"};
static int ndim_names = -1;
static int nscoped_flags = -1;

void vkb_cli_use_families(const vkb_family *const *families, int count)
{
    table = families;
    ntable = count;
    ndim_names = nscoped_flags = -1; /* both made again from the new table */
}

static int table_count(void)
{
    return ntable < 0 ? vkb_family_count : ntable;
}

static int dim_find(const char *name)
{
    for (int d = 0; d < ndim_names; d++)
        if (strcmp(dim_names[d], name) == 0)
            return d;
    return -1;
}

static void dims_build(void)
{
    if (ndim_names >= 0)
        return;
    ndim_names = VKB_DIM_KNOWN;
    for (int i = 0; i < table_count(); i++)
        for (int k = 0; k < table[i]->ndims; k++) {
            if (dim_find(table[i]->dims[k]) >= 0)
                continue;
            if (ndim_names == VKB_DIM_MAX) { /* a programmer's invariant: the families outgrew the array */
                fprintf(stderr, "vkbench: internal error: more than %d size flag names\n", VKB_DIM_MAX);
                abort();
            }
            dim_names[ndim_names++] = table[i]->dims[k];
        }
}

int vkb_cli_dim_count(void)
{
    dims_build();
    return ndim_names;
}

const char *vkb_cli_dim_name(int d)
{
    dims_build();
    return d >= 0 && d < ndim_names ? dim_names[d] : "?";
}

int vkb_cli_dim_of(const char *name)
{
    dims_build();
    return dim_find(name);
}

#define VALUE_MAX (1ll << 50) /* far beyond any device; larger is a typo, not a size */

static void vkb_cli_usage(FILE *out)
{
    fputs("usage: vkbench [COMMAND] [OPTIONS]\n"
          "\n"
          "Commands:\n"
          "  (none)               the default suite: every family on the default device\n"
          "  devices              list Vulkan devices and what they offer\n"
          "  list                 list families and their variants\n"
          "  run FAMILY...        run, validate and time variants of the families\n"
          "  validate [FAMILY...] conformance: every variant at awkward shapes, no timing\n"
          "  health               a node's GPU health check: every GPU at once, a fixed validated battery,\n"
          "                       a verdict per GPU (exit codes below)\n"
          "  peaks                every number type's validated peak and the memory bandwidth, one line\n"
          "                       each (the peak family's rows and copy's best row beside the API copy)\n"
          "\n",
          out);
    fputs("Options:\n"
          "  --variant LIST       variants to run: NAME,... or FAMILY/NAME,... or all (default)\n"
          "  --device D           Vulkan device index or name substring (default: first GPU, else CPU)\n"
          "                       all, or a list 0,2,5: every chosen device at the same time\n"
          "  --backend B          vulkan, cuda or all (default: vulkan, plus cuda where it is available\n"
          "                       for the default suite)\n"
          "  --n LIST --m LIST --k LIST --rows LIST --cols LIST --size LIST\n"
          "  --stride LIST --offset LIST --width LIST (the memory family's sweeps)\n"
          "                       problem sizes: 4096, 1M (2^20), 2^28, 1,31,33, 256:8192:x2, 0:1000:+100\n"
          "  --reps N             timed repetitions (default: until the median settles, within a budget)\n"
          "  --repeat N           run each case N times in one process, in rounds (every variant once per\n"
          "                       round), checked once, timed N times: the spread between runs\n"
          "  --warmup-ms MS       warm-up before timing each variant (default 200 on a GPU)\n"
          "  --budget-ms MS       time budget per variant for the timed repetitions (default 1000)\n"
          "  --cold               evict the cache before each repetition (default: hot)\n"
          "  --validation[=core]  enable VK_LAYER_KHRONOS_validation (with synchronization validation\n"
          "                       unless =core); any message fails the run\n"
          "  --json PATH|-        write results as JSON (- for stdout; the table then goes to stderr)\n"
          "  --csv PATH           write results as CSV\n"
          "  --db PATH|default    keep results in a SQLite results store, each as it finishes (run,\n"
          "                       validate, health); default: $VKB_DB, else\n"
          "                       ${XDG_DATA_HOME:-~/.local/share}/vkbench/results.db\n",
          out);
    fputs("  --seed N             input seed (default 1)\n"
          "  --spec NAME=V,...    set specialization constants of the variants' shaders (tile shapes:\n"
          "                       BM=64,TN=4...; a number names a SpecId); variants whose shader lacks one\n"
          "                       are skipped, CUDA twins run only where compiled for those values\n"
          "  --dry-run            print the work plan and check every case against the device's limits,\n"
          "                       then stop before running anything\n"
          "  --wide               let tables exceed 100 columns\n"
          "  --subgroup-size N    build every kernel with subgroup size N (VK_EXT_subgroup_size_control or\n"
          "                       Vulkan 1.3; a power of two the device offers, else exit 4); rows say @sgN,\n"
          "                       results record it; a variant that cannot use N is skipped with the reason\n"
          "  --robustness R       default (the driver's own storage/uniform buffer bounds checks) or disabled\n"
          "                       (VK_EXT_pipeline_robustness: every Vulkan pipeline built without them;\n"
          "                       a device without it is exit 4); rows say @nobc, results record it\n"
          "  --sass DIR           write the GPU machine code of each pipeline into DIR (NVIDIA: the driver's\n"
          "                       code, disassembled with nvdisasm; CUDA twins from cuobjdump) and count\n"
          "                       its instruction classes (-v, JSON); other drivers say it is not available\n"
          "  --expect N|MODEL:N,...  health: the GPUs the node must have, in all or by model name substring\n"
          "  --baseline FILE      health: judge speed against FILE's medians (tools/fleet.py\n"
          "                       --write-baseline); without it speed is reported, not judged\n"
          "  --allow-cpu          health: count CPU implementations (lavapipe) as GPUs\n"
          "  --config FILE        health: read FILE for its settings (default /etc/vkbench/health.conf,\n"
          "                       where present; options given here win)\n"
          "  --prom PATH          health: the verdict as Prometheus metrics (node_exporter's textfile\n"
          "                       collector), written whole\n"
          "  -v, --verbose        pipeline statistics and detail on stderr\n"
          "  -q, --quiet          no progress on stderr\n"
          "  -h, --help           this text (`vkbench run --help`: the families and their size flags)\n"
          "  --version            the version\n"
          "\n"
          "Exit codes: 0 all validated; 1 a validation failed or a timed row is SUSPECT; 2 usage error; 3 no\n"
          "Vulkan loader, driver or device; 4 out of memory or a size beyond the device's or the kernel's\n"
          "limits; 5 another API error; 6 a result file, the results store or stdout could not be written;\n"
          "128 + the signal that stopped the run (129 SIGHUP, 130 SIGINT, 141 SIGPIPE, 143 SIGTERM).\n",
          out);
    fputs("health: 0 keep the node; 1 take it out of service; 7 could not judge; 2 usage error.\n", out);
}

void vkb_cli_run_usage(FILE *out)
{
    fputs("usage: vkbench run FAMILY... [OPTIONS]\n"
          "\n"
          "Validates, then times, the selected variants of each FAMILY at each size (the cartesian product of\n"
          "the size lists; a family's defaults where none is given). Options: see `vkbench --help`.\n"
          "\n"
          "Families, the size flags each takes and, below, what each counts (--size sets each of n, m, k, rows\n"
          "and cols that is not given). A flag sizes every selected family that takes it, and in a run it must\n"
          "count the same thing in each (else exit 2); --FAMILY.FLAG sizes one family only: --copy.n 1M\n"
          "--transpose.size 8192. A size a family cannot take skips it, with the reason, when the flag sizes\n"
          "other families too.\n",
          out);
    for (int i = 0; i < table_count(); i++) {
        const vkb_family *f = table[i];
        char flags[80], units[160];
        size_t used = 0, uused = 0;
        flags[0] = units[0] = 0;
        for (int d = 0; d < f->ndims && used < sizeof flags; d++)
            used += (size_t)snprintf(flags + used, sizeof flags - used, "%s--%s", d ? " " : "", f->dims[d]);
        /* dims that count the same thing share one entry: "--rows, --cols: matrix side" */
        for (int d = 0; d < f->ndims && uused < sizeof units; d++) {
            int last = d + 1 == f->ndims || !f->units[d] || !f->units[d + 1] || strcmp(f->units[d], f->units[d + 1]);
            uused +=
                (size_t)snprintf(units + uused, sizeof units - uused, "--%s%s%s%s", f->dims[d], last ? ": " : ", ",
                                 last ? (f->units[d] ? f->units[d] : "?") : "", last && d + 1 < f->ndims ? "; " : "");
        }
        fprintf(out, "  %-24s %-22s %s\n  %-24s (%s)\n", f->name, flags, f->summary, "", units);
    }
    fputs("\n"
          "Sizes: 4096, 1M (2^20), 2^28, 1e6, lists 1,31,33, ranges 256:8192:x2 or 0:1000:+100; every item\n"
          "is a whole number, at least 1 (--offset: at least 0).\n"
          "`vkbench run memory` runs every memory.* family; `vkbench list` shows the variants.\n",
          out);
}

/* Sizes above VALUE_MAX are held as VALUE_MAX + 1, which no device can hold: the device and kernel
 * checks then refuse them (exit 4) without a product of sizes overflowing on the way. */
static int64_t clamp_value(uint64_t v)
{
    return v > (uint64_t)VALUE_MAX ? VALUE_MAX + 1 : (int64_t)v;
}

/* Whether S is only decimal digits (and not empty). */
static int all_digits(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

/* One size: digits with an optional K, M or G suffix (exact), 2^E, or a decimal such as 1e6 or 2.5e3
 * that is a whole number. At least MIN (0 or 1). */
static int parse_value(const char *s, int64_t min, int64_t *out, char *err, size_t len)
{
    size_t n = strlen(s);
    if (n == 0) {
        snprintf(err, len, "an empty size (a stray comma or colon?)");
        return -1;
    }
    if (s[0] == '-') {
        snprintf(err, len, "size '%.40s' is negative: sizes are at least %lld", s, (long long)min);
        return -1;
    }
    if (s[0] == '2' && s[1] == '^') {
        unsigned long e;
        if (!all_digits(s + 2, n - 2)) {
            snprintf(err, len, "bad power '%.40s' (use 2^0, 2^1, ...)", s);
            return -1;
        }
        e = n > 5 ? 63 : strtoul(s + 2, NULL, 10);
        *out = e > 62 ? VALUE_MAX + 1 : clamp_value(1ull << e);
    } else if (all_digits(s, n) || (all_digits(s, n - 1) && strchr("KkMG", s[n - 1]))) {
        unsigned shift = 0;
        unsigned long long v;
        char *end;
        switch (s[n - 1]) {
        case 'K':
        case 'k': shift = 10; break;
        case 'M': shift = 20; break;
        case 'G': shift = 30; break;
        }
        errno = 0;
        v = strtoull(s, &end, 10);
        *out = errno == ERANGE || v > (uint64_t)VALUE_MAX >> shift ? VALUE_MAX + 1 : (int64_t)(v << shift);
    } else {
        /* a decimal by the one rule (number.h): no signs, spaces, hex, inf or nan; past double's range it is
         * beyond any device, as a long run of digits is */
        double v;
        if (vkb_number_decimal(s, &v)) {
            snprintf(err, len, "'%.40s' is not a size (4096, 1M, 2^28, 1e6)", s);
            return -1;
        }
        if (v != floor(v)) {
            snprintf(err, len, "size '%.40s' is not a whole number", s);
            return -1;
        }
        *out = v > (double)VALUE_MAX ? VALUE_MAX + 1 : (int64_t)v; /* whole and below 2^53: exact */
    }
    if (*out < min) {
        snprintf(err, len, "size '%.40s' must be at least %lld", s, (long long)min);
        return -1;
    }
    return 0;
}

static int push(vkb_list *l, int64_t v, char *err, size_t len)
{
    if (l->n >= VKB_LIST_MAX) {
        snprintf(err, len, "too many sizes (at most %d)", VKB_LIST_MAX);
        return -1;
    }
    l->v[l->n++] = v;
    return 0;
}

/* LO:HI:xF or LO:HI:+S (ITEM is one comma-separated item, modified). */
static int parse_range(char *item, int64_t min, vkb_list *out, char *err, size_t len)
{
    char *c1 = strchr(item, ':'), *c2 = strchr(c1 + 1, ':');
    int64_t lo, hi, step;
    int mul;
    if (!c2) {
        snprintf(err, len, "range '%.60s' needs a step: LO:HI:xF or LO:HI:+S", item);
        return -1;
    }
    *c1 = *c2 = 0;
    if (parse_value(item, min, &lo, err, len) || parse_value(c1 + 1, min, &hi, err, len))
        return -1;
    mul = c2[1] == 'x' || c2[1] == '*';
    if ((!mul && c2[1] != '+') || parse_value(c2 + 2, 1, &step, err, len)) {
        snprintf(err, len, "bad range step '%.40s' (use xF or +S)", c2 + 1);
        return -1;
    }
    if (hi < lo || (mul && (step < 2 || lo == 0))) {
        snprintf(err, len, "empty or endless range %.40s:%.40s:%.40s", item, c1 + 1, c2 + 1);
        return -1;
    }
    for (int64_t v = lo;;) {
        if (push(out, v, err, len))
            return -1;
        if (mul ? v > hi / step : v > hi - step) /* the next one passes HI (without overflowing) */
            return 0;
        v = mul ? v * step : v + step;
    }
}

int vkb_cli_parse_list(const char *text, int64_t min, vkb_list *out, char *err, size_t len)
{
    char buf[512];
    const char *item = text;
    out->n = 0;
    if (*text == 0) {
        snprintf(err, len, "an empty size list");
        return -1;
    }
    for (;;) {
        size_t n = strcspn(item, ",");
        if (n >= sizeof buf) {
            snprintf(err, len, "a size item longer than %zu characters", sizeof buf - 1);
            return -1;
        }
        if (n == 0) {
            snprintf(err, len, "an empty item in the list '%.60s' (a stray comma?)", text);
            return -1;
        }
        memcpy(buf, item, n);
        buf[n] = 0;
        if (strchr(buf, ':')) {
            if (parse_range(buf, min, out, err, len))
                return -1;
        } else {
            int64_t v;
            if (parse_value(buf, min, &v, err, len) || push(out, v, err, len))
                return -1;
        }
        if (item[n] == 0)
            return 0;
        item += n + 1;
    }
}

int vkb_cli_variant_selected(const char *sel, const char *family, const char *name)
{
    char buf[1024], *save = NULL, *item;
    if (!sel || strcmp(sel, "all") == 0)
        return 1;
    snprintf(buf, sizeof buf, "%s", sel);
    for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *slash = strchr(item, '/');
        if (slash) {
            *slash = 0;
            if (strcmp(item, family) == 0 && (strcmp(slash + 1, name) == 0 || strcmp(slash + 1, "all") == 0))
                return 1;
        } else if (strcmp(item, name) == 0) {
            return 1;
        }
    }
    return 0;
}

enum {
    OPT_VARIANT = 256,
    OPT_DEVICE,
    OPT_BACKEND,
    OPT_JSON,
    OPT_CSV,
    OPT_DB,
    OPT_REPS,
    OPT_COLD,
    OPT_VALIDATION,
    OPT_WARMUP,
    OPT_BUDGET,
    OPT_SEED,
    OPT_SPEC,
    OPT_VERSION,
    OPT_WIDE,
    OPT_SASS,
    OPT_DRY_RUN,
    OPT_SUBGROUP_SIZE,
    OPT_DIM /* + the size flag (vkb_cli_dim_name) */
};

enum {
    OPT_REPEAT = 512,
    OPT_ROBUSTNESS,
    OPT_EXPECT,
    OPT_BASELINE,
    OPT_ALLOW_CPU,
    OPT_PROM,
    OPT_CONFIG
};                          /* apart from the list above, whose last entry opens the size flags' range */
enum { OPT_SCOPED = 1024 }; /* + the index of a --FAMILY.FLAG in scoped_flags */

#define SCOPED_FLAGS_MAX 256

/* --FAMILY.FLAG for each family's size flags (and --FAMILY.size where it has an extent), made once from the family
 * table: getopt_long then parses them as it does every other option. */
static struct {
    char name[64];
    const char *family;
    int dim;
} scoped_flags[SCOPED_FLAGS_MAX];

static void scoped_add(const char *family, int dim)
{
    if (nscoped_flags >= SCOPED_FLAGS_MAX) { /* a programmer's invariant: the table outgrew the array */
        fprintf(stderr, "vkbench: internal error: more than %d --FAMILY.FLAG options\n", SCOPED_FLAGS_MAX);
        abort();
    }
    snprintf(scoped_flags[nscoped_flags].name, sizeof scoped_flags[nscoped_flags].name, "%s.%s", family,
             vkb_cli_dim_name(dim));
    scoped_flags[nscoped_flags].family = family;
    scoped_flags[nscoped_flags++].dim = dim;
}

static void scoped_build(void)
{
    if (nscoped_flags >= 0)
        return;
    nscoped_flags = 0;
    for (int i = 0; i < table_count(); i++) {
        const vkb_family *f = table[i];
        int extent = 0;
        for (int k = 0; k < f->ndims; k++) {
            int d = vkb_cli_dim_of(f->dims[k]); /* every name of the table is a flag */
            scoped_add(f->name, d);
            extent |= vkb_cli_dim_is_extent(d);
        }
        if (extent)
            scoped_add(f->name, VKB_DIM_SIZE);
    }
}

int vkb_cli_dim_is_extent(int d)
{
    return d == VKB_DIM_N || d == VKB_DIM_M || d == VKB_DIM_K || d == VKB_DIM_ROWS || d == VKB_DIM_COLS;
}

const vkb_list *vkb_cli_scoped(const vkb_args *a, const char *family, int dim)
{
    for (int i = 0; i < a->nscoped; i++)
        if (a->scoped[i].dim == dim && strcmp(a->scoped[i].family, family) == 0)
            return &a->scoped[i].list;
    return NULL;
}

/* A size list for flag D (plain: FAMILY NULL) into A, and the first size beyond any device remembered as typed. */
static int store_sizes(vkb_args *a, const char *family, int d, const char *text, char *err, size_t len)
{
    char sub[200], flag[80];
    vkb_list *l = &a->dims[d];
    snprintf(flag, sizeof flag, "%s%s%s", family ? family : "", family ? "." : "", vkb_cli_dim_name(d));
    if (family) {
        int i = 0;
        while (i < a->nscoped && (a->scoped[i].dim != d || strcmp(a->scoped[i].family, family) != 0))
            i++;
        if (i == VKB_SCOPED_MAX) {
            snprintf(err, len, "--%s: at most %d --FAMILY.FLAG sizes", flag, VKB_SCOPED_MAX);
            return -1;
        }
        a->nscoped += i == a->nscoped;
        a->scoped[i].family = family;
        a->scoped[i].dim = d;
        l = &a->scoped[i].list;
    }
    if (vkb_cli_parse_list(text, d == VKB_DIM_OFFSET ? 0 : 1, l, sub, sizeof sub)) {
        snprintf(err, len, "--%s: %s", flag, sub);
        return -1;
    }
    for (int i = 0; i < l->n && !a->beyond[0]; i++)
        if (l->v[i] > VALUE_MAX) /* said as typed, not as the number it is held as */
            snprintf(a->beyond, sizeof a->beyond, "--%.50s %.60s", flag, text);
    return 0;
}

/* A number (milliseconds) from LO to HI: a decimal by the one rule (number.h). */
static int parse_number(const char *flag, const char *s, double lo, double hi, double *out, char *err, size_t len)
{
    double v;
    if (vkb_number_decimal(s, &v) || !(v >= lo && v <= hi)) {
        snprintf(err, len, "--%s wants a number from %g to %g, not '%.40s'", flag, lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

/* A whole number from LO to HI, exactly (decimal digits only: no rounding through a double; number.h). */
static int parse_whole(const char *flag, const char *s, uint64_t lo, uint64_t hi, uint64_t *out, char *err, size_t len)
{
    uint64_t v;
    if (vkb_number_whole(s, &v) || v < lo || v > hi) {
        snprintf(err, len, "--%s wants a whole number from %llu to %llu, not '%.40s'", flag, (unsigned long long)lo,
                 (unsigned long long)hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

/* --variant NAME,... or FAMILY/NAME,...: no empty item (the names are checked against the families later). */
static int check_variants(const char *text, char *err, size_t len)
{
    const char *item = text;
    if (strlen(text) > 1000) {
        snprintf(err, len, "--variant: a list longer than 1000 characters");
        return -1;
    }
    for (;;) {
        size_t n = strcspn(item, ",");
        const char *slash = memchr(item, '/', n);
        if (n == 0 || (slash && (slash == item || slash == item + n - 1))) {
            snprintf(err, len, "--variant wants NAME,... or FAMILY/NAME,..., not '%.60s' (an empty name)", text);
            return -1;
        }
        if (item[n] == 0)
            return 0;
        item += n + 1;
    }
}

/* --spec NAME=VALUE,...: a constant's name (letters, digits, _) or SpecId, and a 32-bit unsigned value. */
static int parse_spec(const char *text, vkb_args *a, char *err, size_t len)
{
    const char *p = text;
    if (*p == 0) {
        snprintf(err, len, "--spec wants NAME=VALUE,..., not an empty list");
        return -1;
    }
    while (*p) {
        size_t name_len = strcspn(p, "=,");
        char *end;
        unsigned long long value;
        vkb_spec_value *sv;
        if (p[name_len] != '=' || name_len == 0 || name_len >= sizeof sv->name) {
            snprintf(err, len, "--spec wants NAME=VALUE,..., not '%s'", text);
            return -1;
        }
        for (size_t i = 0; i < name_len; i++)
            if (!isalnum((unsigned char)p[i]) && p[i] != '_') {
                snprintf(err, len, "--spec: '%.*s' is not a constant's name", (int)name_len, p);
                return -1;
            }
        if (a->nspec >= (int)(sizeof a->spec / sizeof *a->spec)) {
            snprintf(err, len, "--spec: at most %d constants", (int)(sizeof a->spec / sizeof *a->spec));
            return -1;
        }
        for (int i = 0; i < a->nspec; i++)
            if (strlen(a->spec[i].name) == name_len && strncmp(a->spec[i].name, p, name_len) == 0) {
                snprintf(err, len, "--spec: %.*s is given twice", (int)name_len, p);
                return -1;
            }
        /* decimal digits only: "020" is 20 (not octal), "0x10", " 16", "+16" are refused */
        errno = 0;
        value = isdigit((unsigned char)p[name_len + 1]) ? strtoull(p + name_len + 1, &end, 10) : 0;
        if (!isdigit((unsigned char)p[name_len + 1]) || (*end && *end != ',') || errno || value > UINT32_MAX) {
            snprintf(err, len, "--spec: the value of %.*s is not a 32-bit unsigned decimal integer", (int)name_len, p);
            return -1;
        }
        sv = &a->spec[a->nspec++];
        memcpy(sv->name, p, name_len);
        sv->name[name_len] = 0;
        sv->value = (uint32_t)value;
        p = *end ? end + 1 : end;
        if (*end && *p == 0) {
            snprintf(err, len, "--spec wants NAME=VALUE,..., not '%.60s' (a stray comma)", text);
            return -1;
        }
    }
    return 0;
}

int vkb_cli_parse(int argc, char **argv, vkb_args *a, char *err, size_t len)
{
    static const char *commands[] = {"run", "validate", "devices", "list", "health", "peaks"};
    static const struct option fixed[] = {{"variant", required_argument, 0, OPT_VARIANT},
                                          {"device", required_argument, 0, OPT_DEVICE},
                                          {"backend", required_argument, 0, OPT_BACKEND},
                                          {"json", required_argument, 0, OPT_JSON},
                                          {"csv", required_argument, 0, OPT_CSV},
                                          {"db", required_argument, 0, OPT_DB},
                                          {"reps", required_argument, 0, OPT_REPS},
                                          {"cold", no_argument, 0, OPT_COLD},
                                          {"validation", optional_argument, 0, OPT_VALIDATION},
                                          {"warmup-ms", required_argument, 0, OPT_WARMUP},
                                          {"budget-ms", required_argument, 0, OPT_BUDGET},
                                          {"seed", required_argument, 0, OPT_SEED},
                                          {"version", no_argument, 0, OPT_VERSION},
                                          {"spec", required_argument, 0, OPT_SPEC},
                                          {"sass", required_argument, 0, OPT_SASS},
                                          {"wide", no_argument, 0, OPT_WIDE},
                                          {"dry-run", no_argument, 0, OPT_DRY_RUN},
                                          {"repeat", required_argument, 0, OPT_REPEAT},
                                          {"subgroup-size", required_argument, 0, OPT_SUBGROUP_SIZE},
                                          {"robustness", required_argument, 0, OPT_ROBUSTNESS},
                                          {"expect", required_argument, 0, OPT_EXPECT},
                                          {"baseline", required_argument, 0, OPT_BASELINE},
                                          {"allow-cpu", no_argument, 0, OPT_ALLOW_CPU},
                                          {"prom", required_argument, 0, OPT_PROM},
                                          {"config", required_argument, 0, OPT_CONFIG},
                                          {"verbose", no_argument, 0, 'v'},
                                          {"quiet", no_argument, 0, 'q'},
                                          {"help", no_argument, 0, 'h'},
                                          {"n", required_argument, 0, OPT_DIM + VKB_DIM_N},
                                          {"m", required_argument, 0, OPT_DIM + VKB_DIM_M},
                                          {"k", required_argument, 0, OPT_DIM + VKB_DIM_K},
                                          {"rows", required_argument, 0, OPT_DIM + VKB_DIM_ROWS},
                                          {"cols", required_argument, 0, OPT_DIM + VKB_DIM_COLS},
                                          {"size", required_argument, 0, OPT_DIM + VKB_DIM_SIZE},
                                          {"stride", required_argument, 0, OPT_DIM + VKB_DIM_STRIDE},
                                          {"offset", required_argument, 0, OPT_DIM + VKB_DIM_OFFSET},
                                          {"width", required_argument, 0, OPT_DIM + VKB_DIM_WIDTH}};
    enum { NFIXED = sizeof fixed / sizeof *fixed };
    static struct option opts[NFIXED + VKB_DIM_MAX - VKB_DIM_KNOWN + SCOPED_FLAGS_MAX + 1];
    int c, nopts = NFIXED, at;
    uint64_t whole;
    vkb_given_options given = 0; /* the options a command may refuse (command_options.c) */

    scoped_build();
    memcpy(opts, fixed, sizeof fixed);
    for (int d = VKB_DIM_KNOWN; d < vkb_cli_dim_count(); d++) { /* the names only families declare */
        for (int i = 0; i < NFIXED; i++)
            if (strcmp(fixed[i].name, vkb_cli_dim_name(d)) == 0) { /* a programmer's invariant, as above */
                fprintf(stderr, "vkbench: internal error: a family's size flag --%s is an option of its own\n",
                        fixed[i].name);
                abort();
            }
        opts[nopts++] = (struct option){vkb_cli_dim_name(d), required_argument, 0, OPT_DIM + d};
    }
    for (int i = 0; i < nscoped_flags; i++)
        opts[nopts++] = (struct option){scoped_flags[i].name, required_argument, 0, OPT_SCOPED + i};
    opts[nopts] = (struct option){0};

    memset(a, 0, sizeof *a);
    a->command = "suite";
    a->warmup_ms = a->budget_ms = -1;
    a->seed = 1;
    optind = 0; /* reset getopt: the tests parse many command lines in one process */
    opterr = 0;
    while ((at = -1, c = getopt_long(argc, argv, "+:vqh", opts, &at)) != -1 || optind < argc) {
        if (c == -1) {
            /* a positional argument: the command, then families; options may follow ("+" stops
             * getopt at each positional, so that "run copy --n 4" parses in order) */
            const char *word = argv[optind++];
            int is_command = 0;
            for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
                is_command |= strcmp(word, commands[i]) == 0;
            if (strcmp(a->command, "suite") == 0 && a->nfamilies == 0 && is_command) {
                a->command = word;
            } else if (strcmp(a->command, "run") == 0 || strcmp(a->command, "validate") == 0) {
                if (a->nfamilies >= (int)(sizeof a->families / sizeof *a->families)) {
                    snprintf(err, len, "too many families");
                    return -1;
                }
                a->families[a->nfamilies++] = word;
            } else {
                snprintf(err, len, "unexpected argument '%s'%s", word,
                         strcmp(a->command, "suite") == 0   ? " (commands: run, validate, devices, list, health, peaks)"
                         : strcmp(a->command, "peaks") == 0 ? " (peaks runs the peak and copy families' own rows)"
                                                            : "");
                return -1;
            }
            continue;
        }
        if (at >= 0 && c != '?' && c != ':')
            vkb_options_note(&given, opts[at].name, 0);
        switch (c) {
        case 'h':
            if (strcmp(a->command, "run") == 0)
                vkb_cli_run_usage(stdout);
            else
                vkb_cli_usage(stdout);
            return 1;
        case OPT_VERSION: return 1;
        case 'v': a->verbose = 1; break;
        case 'q': a->quiet = 1; break;
        case OPT_VARIANT:
            if (check_variants(optarg, err, len))
                return -1;
            a->variants = optarg;
            break;
        case OPT_DEVICE:
            if (optarg[strspn(optarg, " \t")] == 0) { /* a blank name held every device with a space in its name */
                snprintf(err, len, "--device wants an index or a name, not %s%s%s", *optarg ? "'" : "an empty string",
                         optarg, *optarg ? "'" : "");
                return -1;
            }
            a->device = optarg;
            break;
        case OPT_BACKEND:
            if (strcmp(optarg, "vulkan") && strcmp(optarg, "cuda") && strcmp(optarg, "all")) {
                snprintf(err, len, "--backend wants vulkan, cuda or all, not '%s'", optarg);
                return -1;
            }
            a->backend = optarg;
            break;
        case OPT_JSON:
        case OPT_CSV:
            if (*optarg == 0) {
                snprintf(err, len, "--%s wants a path, not an empty string", c == OPT_JSON ? "json" : "csv");
                return -1;
            }
            if (*(c == OPT_JSON ? &a->json_path : &a->csv_path)) {
                snprintf(err, len, "--%s is given twice: one file each", c == OPT_JSON ? "json" : "csv");
                return -1;
            }
            *(c == OPT_JSON ? &a->json_path : &a->csv_path) = optarg;
            break;
        case OPT_DB:
            if (*optarg == 0 || a->db_path) {
                snprintf(err, len, "%s",
                         *optarg ? "--db is given twice: one store" : "--db wants a path, not an empty string");
                return -1;
            }
            a->db_path = optarg;
            break;
        case OPT_COLD: a->cold = 1; break;
        case OPT_WIDE: a->wide = 1; break;
        case OPT_DRY_RUN: a->dry_run = 1; break;
        case OPT_VALIDATION:
            if (optarg && strcmp(optarg, "core") && strcmp(optarg, "sync")) {
                snprintf(err, len, "--validation takes =core or =sync, not '%s'", optarg);
                return -1;
            }
            a->validation = optarg && strcmp(optarg, "core") == 0 ? 1 : 2;
            break;
        case OPT_REPS:
            if (parse_whole("reps", optarg, 1, 1000000, &whole, err, len))
                return -1;
            a->reps = (int)whole;
            break;
        case OPT_REPEAT:
            if (parse_whole("repeat", optarg, 1, VKB_MAX_REPEAT, &whole, err, len))
                return -1;
            a->repeat = (int)whole;
            break;
        case OPT_WARMUP:
            if (parse_number("warmup-ms", optarg, 0, 6e5, &a->warmup_ms, err, len))
                return -1;
            break;
        case OPT_BUDGET:
            if (parse_number("budget-ms", optarg, 0, 6e5, &a->budget_ms, err, len))
                return -1;
            break;
        case OPT_SEED:
            if (parse_whole("seed", optarg, 0, UINT64_MAX, &a->seed, err, len))
                return -1;
            break;
        case OPT_SPEC:
            if (parse_spec(optarg, a, err, len))
                return -1;
            break;
        case OPT_SASS: a->sass_dir = optarg; break;
        case OPT_SUBGROUP_SIZE: /* Vulkan: a power of two (VUID-...-requiredSubgroupSize-02760); 128 is the most any has */
            if (parse_whole("subgroup-size", optarg, 1, 128, &whole, err, len) || (whole & (whole - 1)) != 0) {
                snprintf(err, len, "--subgroup-size wants a power of two from 1 to 128, not '%.40s'", optarg);
                return -1;
            }
            a->subgroup_size = (uint32_t)whole;
            break;
        case OPT_ROBUSTNESS:
            if (strcmp(optarg, "default") && strcmp(optarg, "disabled")) {
                snprintf(err, len, "--robustness wants default or disabled, not '%.40s'", optarg);
                return -1;
            }
            a->robustness_off = strcmp(optarg, "disabled") == 0;
            vkb_options_note(&given, "robustness", !a->robustness_off); /* default asks for nothing */
            break;
        case OPT_EXPECT:
            if (*optarg == 0) {
                snprintf(err, len, "--expect wants N or MODEL:N,..., not an empty string");
                return -1;
            }
            a->expect = optarg;
            break;
        case OPT_BASELINE: a->baseline_path = optarg; break;
        case OPT_ALLOW_CPU: a->allow_cpu = 1; break;
        case OPT_PROM:
        case OPT_CONFIG:
            if (*optarg == 0) {
                snprintf(err, len, "--%s wants a path, not an empty string", c == OPT_PROM ? "prom" : "config");
                return -1;
            }
            *(c == OPT_PROM ? &a->prom_path : &a->config_path) = optarg;
            break;
        case ':': snprintf(err, len, "%s needs a value", argv[optind - 1]); return -1;
        case '?': snprintf(err, len, "unknown option '%s'", argv[optind - 1]); return -1;
        default:
            if (c >= OPT_DIM && c < OPT_DIM + vkb_cli_dim_count()) {
                if (store_sizes(a, NULL, c - OPT_DIM, optarg, err, len))
                    return -1;
                break;
            }
            if (c >= OPT_SCOPED && c < OPT_SCOPED + nscoped_flags) {
                if (store_sizes(a, scoped_flags[c - OPT_SCOPED].family, scoped_flags[c - OPT_SCOPED].dim, optarg, err,
                                len))
                    return -1;
                break;
            }
            snprintf(err, len, "unknown option");
            return -1;
        }
    }
    if (vkb_options_refused(a->command, given, err, len)) /* an option the command would drop is refused */
        return -1;
    if (vkb_options_sizes(a->command)) {
        /* devices, list and health size nothing (health's battery is fixed), peaks its own: a size would be
         * ignored */
        int d = 0;
        while (d < vkb_cli_dim_count() && !a->dims[d].n)
            d++;
        if (d < vkb_cli_dim_count() || a->nscoped) {
            int plain = d < vkb_cli_dim_count();
            snprintf(err, len, "--%s%s%s sets a size, and %s %s: it goes with run, validate or the default suite",
                     plain ? "" : a->scoped[0].family, plain ? "" : ".", vkb_cli_dim_name(plain ? d : a->scoped[0].dim),
                     a->command, vkb_options_sizes(a->command));
            return -1;
        }
    }
    if (strcmp(a->command, "peaks") == 0) {
        a->families[0] = "peak";
        a->families[1] = "copy";
        a->nfamilies = 2;
    }
    if (strcmp(a->command, "run") == 0 && a->nfamilies == 0) {
        snprintf(err, len, "run needs a FAMILY (see `vkbench list`)");
        return -1;
    }
    return 0;
}
