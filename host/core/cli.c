/* cli.c - the command line: getopt_long parsing into plain data, no side effects (unit-tested). */
#include "cli.h"
#include "family.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const vkb_dim_flags[VKB_DIM_COUNT] = {"n", "m", "k", "rows", "cols", "stride", "offset", "width", "size"};

#define VALUE_MAX (1ll << 50) /* far beyond any device; larger is a typo, not a size */

void vkb_cli_usage(FILE *out)
{
    fputs("usage: vkbench [COMMAND] [OPTIONS]\n"
          "\n"
          "Commands:\n"
          "  (none)               the default suite: every family on the default device\n"
          "  devices              list Vulkan devices and what they offer\n"
          "  list                 list families and their variants\n"
          "  run FAMILY...        run, validate and time variants of the families\n"
          "  validate [FAMILY...] conformance: every variant at awkward shapes, no timing\n"
          "\n"
          "Options:\n"
          "  --variant LIST       variants to run: NAME,... or FAMILY/NAME,... or all (default)\n"
          "  --device D           Vulkan device index or name substring (default: first GPU, else CPU)\n"
          "  --backend B          vulkan, cuda or all (default: vulkan, plus cuda where it is available\n"
          "                       for the default suite)\n"
          "  --n LIST --m LIST --k LIST --rows LIST --cols LIST --size LIST\n"
          "  --stride LIST --offset LIST --width LIST (the memory family's sweeps)\n"
          "                       problem sizes: 4096, 1M (2^20), 2^28, 1,31,33, 256:8192:x2, 0:1000:+100\n"
          "  --reps N             timed repetitions (default: until the median settles, within a budget)\n"
          "  --warmup-ms MS       warm-up before timing each variant (default 200 on a GPU)\n"
          "  --budget-ms MS       time budget per variant for the timed repetitions (default 1000)\n"
          "  --cold               evict the cache before each repetition (default: hot)\n"
          "  --validation[=core]  enable VK_LAYER_KHRONOS_validation (with synchronization validation\n"
          "                       unless =core); any message fails the run\n"
          "  --json PATH|-        write results as JSON (- for stdout; the table then goes to stderr)\n"
          "  --csv PATH           write results as CSV\n"
          "  --seed N             input seed (default 1)\n"
          "  --spec NAME=V,...    set specialization constants of the variants' shaders (tile shapes:\n"
          "                       BM=64,TN=4...; a number names a SpecId); variants whose shader lacks one\n"
          "                       are skipped, CUDA twins run only where compiled for those values\n"
          "  --dry-run            print the work plan and check every case against the device's limits,\n"
          "                       then stop before running anything\n"
          "  --wide               let tables exceed 100 columns\n"
          "  -v, --verbose        pipeline statistics and detail on stderr\n"
          "  -q, --quiet          no progress on stderr\n"
          "  -h, --help           this text (`vkbench run --help`: the families and their size flags)\n"
          "  --version            the version\n"
          "\n"
          "Exit codes: 0 all validated; 1 a validation failed; 2 usage error; 3 no Vulkan loader, driver or\n"
          "device; 4 out of memory or a size beyond the device's or the kernel's limits; 5 another API\n"
          "error; 6 a result file could not be written.\n",
          out);
}

void vkb_cli_run_usage(FILE *out)
{
    fputs("usage: vkbench run FAMILY... [OPTIONS]\n"
          "\n"
          "Validates, then times, the selected variants of each FAMILY at each size (the cartesian product of\n"
          "the size lists; a family's defaults where none is given). Options: see `vkbench --help`.\n"
          "\n"
          "Families and the size flags each takes (--size sets every one of them not given):\n",
          out);
    for (int i = 0; i < vkb_family_count; i++) {
        const vkb_family *f = vkb_families[i];
        char flags[80];
        size_t used = 0;
        flags[0] = 0;
        for (int d = 0; d < f->ndims && used < sizeof flags; d++)
            used += (size_t)snprintf(flags + used, sizeof flags - used, "%s--%s", d ? " " : "", f->dims[d]);
        fprintf(out, "  %-24s %-22s %s\n", f->name, flags, f->summary);
    }
    fputs("\n"
          "Sizes: 4096, 1M (2^20), 2^28, 1e6, lists 1,31,33, ranges 256:8192:x2 or 0:1000:+100; every item\n"
          "is a whole number, at least 1 (--offset: at least 0).\n"
          "`vkbench run memory` runs every memory.* family; `vkbench list` shows the variants.\n",
          out);
}

static int parse_value(const char *s, int64_t *out, char *err, size_t len)
{
    char *end;
    double v;
    errno = 0;
    if (*s == 0) {
        snprintf(err, len, "empty size");
        return -1;
    }
    if (strncmp(s, "2^", 2) == 0) {
        long e = strtol(s + 2, &end, 10);
        if (*end || e < 0 || e > 62) {
            snprintf(err, len, "bad power '%s' (use 2^0 .. 2^62)", s);
            return -1;
        }
        v = ldexp(1.0, (int)e);
    } else {
        v = strtod(s, &end);
        if (end == s || errno) {
            snprintf(err, len, "'%s' is not a size", s);
            return -1;
        }
        if (*end == 'K' || *end == 'k')
            v *= 1024.0, end++;
        else if (*end == 'M')
            v *= 1048576.0, end++;
        else if (*end == 'G')
            v *= 1073741824.0, end++;
        if (*end) {
            snprintf(err, len, "'%s' is not a size", s);
            return -1;
        }
    }
    if (!(v >= 1)) {
        snprintf(err, len, "size '%s' must be at least 1", s);
        return -1;
    }
    if (v != floor(v)) {
        snprintf(err, len, "size '%s' is not a whole number", s);
        return -1;
    }
    if (v > (double)VALUE_MAX) {
        /* still a usage-level parse, but the message says what to do */
        *out = VALUE_MAX + 1;
        return 0;
    }
    *out = (int64_t)v;
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

int vkb_cli_parse_list(const char *text, vkb_list *out, char *err, size_t len)
{
    char buf[512], *save = NULL, *item;
    out->n = 0;
    if (strlen(text) >= sizeof buf) {
        snprintf(err, len, "size list too long");
        return -1;
    }
    strcpy(buf, text);
    for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *c1 = strchr(item, ':');
        int64_t lo, hi, step;
        if (!c1) {
            if (parse_value(item, &lo, err, len) || push(out, lo, err, len))
                return -1;
            continue;
        }
        {
            char *c2 = strchr(c1 + 1, ':');
            int mul;
            *c1 = 0;
            if (!c2) {
                snprintf(err, len, "range '%s:%s' needs a step: LO:HI:xF or LO:HI:+S", item, c1 + 1);
                return -1;
            }
            *c2 = 0;
            if (parse_value(item, &lo, err, len) || parse_value(c1 + 1, &hi, err, len))
                return -1;
            mul = c2[1] == 'x' || c2[1] == '*';
            if ((!mul && c2[1] != '+') || parse_value(c2 + 2, &step, err, len)) {
                snprintf(err, len, "bad range step '%s' (use xF or +S)", c2 + 1);
                return -1;
            }
            if (hi < lo || (mul && step < 2)) {
                snprintf(err, len, "empty or endless range %s:%s:%s", item, c1 + 1, c2 + 1);
                return -1;
            }
            for (int64_t v = lo; v <= hi; v = mul ? v * step : v + step)
                if (push(out, v, err, len))
                    return -1;
        }
    }
    if (out->n == 0) {
        snprintf(err, len, "empty size list");
        return -1;
    }
    return 0;
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
    OPT_VARIANT = 256, OPT_DEVICE, OPT_BACKEND, OPT_JSON, OPT_CSV, OPT_REPS, OPT_COLD, OPT_VALIDATION,
    OPT_WARMUP, OPT_BUDGET, OPT_SEED, OPT_SPEC, OPT_VERSION, OPT_WIDE, OPT_DRY_RUN, OPT_DIM /* + VKB_DIM_* */
};

static int parse_number(const char *flag, const char *s, double lo, double hi, double *out, char *err, size_t len)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= lo && v <= hi)) {
        snprintf(err, len, "--%s wants a number from %g to %g, not '%s'", flag, lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

/* --spec NAME=VALUE,...: a constant's name (letters, digits, _) or SpecId, and a 32-bit unsigned value. */
static int parse_spec(const char *text, vkb_args *a, char *err, size_t len)
{
    const char *p = text;
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
        errno = 0;
        value = strtoull(p + name_len + 1, &end, 0);
        if (end == p + name_len + 1 || (*end && *end != ',') || errno || value > UINT32_MAX ||
            p[name_len + 1] == '-') {
            snprintf(err, len, "--spec: the value of %.*s is not a 32-bit unsigned integer", (int)name_len, p);
            return -1;
        }
        sv = &a->spec[a->nspec++];
        memcpy(sv->name, p, name_len);
        sv->name[name_len] = 0;
        sv->value = (uint32_t)value;
        p = *end ? end + 1 : end;
    }
    return 0;
}

int vkb_cli_parse(int argc, char **argv, vkb_args *a, char *err, size_t len)
{
    static const char *commands[] = {"run", "validate", "devices", "list"};
    struct option opts[] = {
        {"variant", required_argument, 0, OPT_VARIANT}, {"device", required_argument, 0, OPT_DEVICE},
        {"backend", required_argument, 0, OPT_BACKEND}, {"json", required_argument, 0, OPT_JSON},
        {"csv", required_argument, 0, OPT_CSV},         {"reps", required_argument, 0, OPT_REPS},
        {"cold", no_argument, 0, OPT_COLD},             {"validation", optional_argument, 0, OPT_VALIDATION},
        {"warmup-ms", required_argument, 0, OPT_WARMUP}, {"budget-ms", required_argument, 0, OPT_BUDGET},
        {"seed", required_argument, 0, OPT_SEED},       {"version", no_argument, 0, OPT_VERSION},
        {"spec", required_argument, 0, OPT_SPEC},       {"wide", no_argument, 0, OPT_WIDE},
        {"dry-run", no_argument, 0, OPT_DRY_RUN},
        {"verbose", no_argument, 0, 'v'},               {"quiet", no_argument, 0, 'q'},
        {"help", no_argument, 0, 'h'},
        {"n", required_argument, 0, OPT_DIM + VKB_DIM_N},       {"m", required_argument, 0, OPT_DIM + VKB_DIM_M},
        {"k", required_argument, 0, OPT_DIM + VKB_DIM_K},       {"rows", required_argument, 0, OPT_DIM + VKB_DIM_ROWS},
        {"cols", required_argument, 0, OPT_DIM + VKB_DIM_COLS}, {"size", required_argument, 0, OPT_DIM + VKB_DIM_SIZE},
        {"stride", required_argument, 0, OPT_DIM + VKB_DIM_STRIDE},
        {"offset", required_argument, 0, OPT_DIM + VKB_DIM_OFFSET},
        {"width", required_argument, 0, OPT_DIM + VKB_DIM_WIDTH},
        {0, 0, 0, 0}};
    int c;
    double num;

    memset(a, 0, sizeof *a);
    a->command = "suite";
    a->warmup_ms = a->budget_ms = -1;
    a->seed = 1;
    optind = 0; /* reset getopt: the tests parse many command lines in one process */
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+:vqh", opts, NULL)) != -1 || optind < argc) {
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
                         strcmp(a->command, "suite") == 0 ? " (commands: run, validate, devices, list)" : "");
                return -1;
            }
            continue;
        }
        switch (c) {
        case 'h':
            if (strcmp(a->command, "run") == 0)
                vkb_cli_run_usage(stdout);
            else
                vkb_cli_usage(stdout);
            return 1;
        case OPT_VERSION:
            return 1;
        case 'v': a->verbose = 1; break;
        case 'q': a->quiet = 1; break;
        case OPT_VARIANT: a->variants = optarg; break;
        case OPT_DEVICE: a->device = optarg; break;
        case OPT_BACKEND:
            if (strcmp(optarg, "vulkan") && strcmp(optarg, "cuda") && strcmp(optarg, "all")) {
                snprintf(err, len, "--backend wants vulkan, cuda or all, not '%s'", optarg);
                return -1;
            }
            a->backend = optarg;
            break;
        case OPT_JSON: a->json_path = optarg; break;
        case OPT_CSV: a->csv_path = optarg; break;
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
            if (parse_number("reps", optarg, 1, 1e6, &num, err, len))
                return -1;
            a->reps = (int)num;
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
            if (parse_number("seed", optarg, 0, 1.8e19, &num, err, len))
                return -1;
            a->seed = (uint64_t)num;
            break;
        case OPT_SPEC:
            if (parse_spec(optarg, a, err, len))
                return -1;
            break;
        case ':':
            snprintf(err, len, "%s needs a value", argv[optind - 1]);
            return -1;
        case '?':
            snprintf(err, len, "unknown option '%s'", argv[optind - 1]);
            return -1;
        default:
            if (c >= OPT_DIM && c < OPT_DIM + VKB_DIM_COUNT) {
                char sub[200];
                if (vkb_cli_parse_list(optarg, &a->dims[c - OPT_DIM], sub, sizeof sub)) {
                    snprintf(err, len, "--%s: %s", vkb_dim_flags[c - OPT_DIM], sub);
                    return -1;
                }
                break;
            }
            snprintf(err, len, "unknown option");
            return -1;
        }
    }
    if (strcmp(a->command, "run") == 0 && a->nfamilies == 0) {
        snprintf(err, len, "run needs a FAMILY (see `vkbench list`)");
        return -1;
    }
    return 0;
}
