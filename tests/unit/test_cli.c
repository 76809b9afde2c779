/* test_cli.c - command-line parsing: commands, size lists, ranges, bad input. */
#include "cli.h"
#include "families.h"
#include "unit.h"

#include <stdint.h>

static int parse(vkb_args *a, char *err, int argc, const char **argv)
{
    return vkb_cli_parse(argc, (char **)argv, a, err, 256);
}

static void run_with_sizes(void)
{
    vkb_args a;
    char err[256];
    const char *argv[] = {"vkbench", "run", "transpose", "--rows", "31,33", "--cols", "2^10", "--reps", "5", "--cold"};
    ASSERT(parse(&a, err, 10, argv) == 0);
    ASSERT(strcmp(a.command, "run") == 0 && a.nfamilies == 1 && strcmp(a.families[0], "transpose") == 0);
    ASSERT(a.dims[VKB_DIM_ROWS].n == 2 && a.dims[VKB_DIM_ROWS].v[1] == 33);
    ASSERT(a.dims[VKB_DIM_COLS].n == 1 && a.dims[VKB_DIM_COLS].v[0] == 1024);
    ASSERT(a.reps == 5 && a.cold == 1);
}

static void options_anywhere(void)
{
    vkb_args a;
    char err[256];
    const char *argv[] = {"vkbench", "--device", "1", "validate", "copy", "--validation=core", "reduce"};
    ASSERT(parse(&a, err, 7, argv) == 0);
    ASSERT(strcmp(a.command, "validate") == 0 && a.nfamilies == 2 && a.validation == 1);
    ASSERT(strcmp(a.device, "1") == 0);
}

static void ranges(void)
{
    vkb_list l;
    char err[256];
    ASSERT(vkb_cli_parse_list("256:8192:x2", 1, &l, err, sizeof err) == 0);
    ASSERT(l.n == 6 && l.v[0] == 256 && l.v[5] == 8192);
    ASSERT(vkb_cli_parse_list("100:350:+100", 1, &l, err, sizeof err) == 0);
    ASSERT(l.n == 3 && l.v[2] == 300);
    ASSERT(vkb_cli_parse_list("1M,4K,3", 1, &l, err, sizeof err) == 0);
    ASSERT(l.n == 3 && l.v[0] == 1048576 && l.v[1] == 4096 && l.v[2] == 3);
    ASSERT(vkb_cli_parse_list("1e6", 1, &l, err, sizeof err) == 0 && l.v[0] == 1000000);
}

static void bad_sizes(void)
{
    vkb_list l;
    char err[256];
    ASSERT(vkb_cli_parse_list("0", 1, &l, err, sizeof err) < 0 && strstr(err, "at least 1"));
    ASSERT(vkb_cli_parse_list("-5", 1, &l, err, sizeof err) < 0);
    ASSERT(vkb_cli_parse_list("12abc", 1, &l, err, sizeof err) < 0 && strstr(err, "not a size"));
    ASSERT(vkb_cli_parse_list("1.5", 1, &l, err, sizeof err) < 0);
    ASSERT(vkb_cli_parse_list("8:4:x2", 1, &l, err, sizeof err) < 0);
    ASSERT(vkb_cli_parse_list("4:8:x1", 1, &l, err, sizeof err) < 0);
    ASSERT(vkb_cli_parse_list("4:8", 1, &l, err, sizeof err) < 0 && strstr(err, "step"));
    ASSERT(vkb_cli_parse_list("1:100000:+1", 1, &l, err, sizeof err) < 0 && strstr(err, "too many"));
    /* huge but well-formed: parsed (the device check turns it into exit 4 later) */
    ASSERT(vkb_cli_parse_list("1e15", 1, &l, err, sizeof err) == 0 && l.v[0] > (1ll << 49));
}

static void bad_flags(void)
{
    vkb_args a;
    char err[256];
    const char *unknown[] = {"vkbench", "run", "copy", "--frobnicate"};
    const char *backend[] = {"vkbench", "run", "copy", "--backend", "metal"};
    const char *noarg[] = {"vkbench", "run", "copy", "--n"};
    const char *nofam[] = {"vkbench", "run"};
    const char *reps[] = {"vkbench", "run", "copy", "--reps", "0"};
    const char *stray[] = {"vkbench", "copy"};
    ASSERT(parse(&a, err, 4, unknown) < 0 && strstr(err, "--frobnicate"));
    ASSERT(parse(&a, err, 5, backend) < 0 && strstr(err, "metal"));
    ASSERT(parse(&a, err, 4, noarg) < 0 && strstr(err, "needs a value"));
    ASSERT(parse(&a, err, 2, nofam) < 0 && strstr(err, "FAMILY"));
    ASSERT(parse(&a, err, 5, reps) < 0);
    ASSERT(parse(&a, err, 2, stray) < 0 && strstr(err, "copy"));
}

static void spec_constants(void)
{
    vkb_args a;
    char err[256];
    const char *ok[] = {"vkbench", "run", "matmul", "--spec", "BM=64,TN=4,0=128", "--spec", "OPT=010"};
    const char *bad[][4] = {{"vkbench", "run", "matmul", "--spec=BM"},
                            {"vkbench", "run", "matmul", "--spec=BM=x"},
                            {"vkbench", "run", "matmul", "--spec=B-M=1"},
                            {"vkbench", "run", "matmul", "--spec=BM=-1"},
                            {"vkbench", "run", "matmul", "--spec=BM=4294967296"},
                            {"vkbench", "run", "matmul", "--spec==3"},
                            {"vkbench", "run", "matmul", "--spec=BM=0x10"},
                            {"vkbench", "run", "matmul", "--spec=BM= 16"},
                            {"vkbench", "run", "matmul", "--spec=BM=+16"},
                            {"vkbench", "run", "matmul", "--spec=BM=8,BM=4"}};
    ASSERT(parse(&a, err, 7, ok) == 0 && a.nspec == 4);
    ASSERT(strcmp(a.spec[0].name, "BM") == 0 && a.spec[0].value == 64);
    ASSERT(strcmp(a.spec[1].name, "TN") == 0 && a.spec[1].value == 4);
    ASSERT(strcmp(a.spec[2].name, "0") == 0 && a.spec[2].value == 128);
    ASSERT(strcmp(a.spec[3].name, "OPT") == 0 && a.spec[3].value == 10); /* decimal, not octal */
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ASSERT(parse(&a, err, 4, bad[i]) < 0 && strstr(err, "--spec"));
}

static void variant_filter(void)
{
    ASSERT(vkb_cli_variant_selected(NULL, "transpose", "padded"));
    ASSERT(vkb_cli_variant_selected("all", "transpose", "padded"));
    ASSERT(vkb_cli_variant_selected("naive,padded", "transpose", "padded"));
    ASSERT(!vkb_cli_variant_selected("naive", "transpose", "padded"));
    ASSERT(vkb_cli_variant_selected("transpose/padded", "transpose", "padded"));
    ASSERT(!vkb_cli_variant_selected("reduce/padded", "transpose", "padded"));
    ASSERT(vkb_cli_variant_selected("transpose/all", "transpose", "naive"));
}

/* every item is checked: an empty item, a stray comma or colon is an error, never dropped */
static void list_syntax(void)
{
    vkb_list l;
    char err[256];
    static const char *bad[] = {"1M,",    "1,,2", ",1",  ",",    "",     "1:8:", "1::x2", ":8:x2", "1:8:x", "1:8:+",
                                "1:8:/2", " 4",   "4 ",  "+4",   "0x10", "inf",  "nan",   "1e",    "1e+",   ".",
                                "1.2.3",  "2^",   "2^x", "2^-1", "4KK",  "K",    "1.5K",  "1e6,,"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = 0;
        ASSERT(vkb_cli_parse_list(bad[i], 1, &l, err, sizeof err) < 0 && err[0] && !strchr(err, '\n'));
    }
    ASSERT(vkb_cli_parse_list("1,,2", 1, &l, err, sizeof err) < 0 && strstr(err, "empty item"));
    ASSERT(vkb_cli_parse_list("2.5e3,5.,1E2", 1, &l, err, sizeof err) == 0 && l.n == 3 && l.v[0] == 2500 &&
           l.v[1] == 5 && l.v[2] == 100);
}

/* sizes are exact integers (no rounding through a double); beyond 2^50 they are held as 2^50 + 1 so the
 * device check refuses them (exit 4) and no product of sizes overflows */
static void exact_sizes(void)
{
    vkb_list l;
    char err[256];
    const int64_t beyond = (1ll << 50) + 1;
    ASSERT(vkb_cli_parse_list("1125899906842623,2^50,1048575K", 1, &l, err, sizeof err) == 0);
    ASSERT(l.v[0] == (1ll << 50) - 1 && l.v[1] == 1ll << 50 && l.v[2] == 1048575ll * 1024);
    ASSERT(vkb_cli_parse_list("1125899906842625,2^51,2^64,2^99999,99999999999999999999999,1e400,1073741825M", 1, &l,
                              err, sizeof err) == 0);
    ASSERT(l.n == 7);
    for (int i = 0; i < l.n; i++)
        ASSERT(l.v[i] == beyond);
    /* a range that would overflow int64 while stepping stops at HI */
    ASSERT(vkb_cli_parse_list("1:2^62:x2^40", 1, &l, err, sizeof err) == 0 && l.n == 2 && l.v[1] == 1ll << 40);
    ASSERT(vkb_cli_parse_list("1:2^62:+2^62", 1, &l, err, sizeof err) == 0 && l.n == 1);
}

/* --offset starts at 0 (the aligned baseline); every other size at 1 */
static void offset_zero(void)
{
    vkb_args a;
    vkb_list l;
    char err[256];
    const char *ok[] = {"vkbench", "run", "memory.offset", "--offset", "0,1,0:64:+32"};
    const char *n0[] = {"vkbench", "run", "memory.offset", "--n", "0"};
    const char *s0[] = {"vkbench", "run", "memory.stride", "--stride", "0"};
    ASSERT(parse(&a, err, 5, ok) == 0 && a.dims[VKB_DIM_OFFSET].n == 5 && a.dims[VKB_DIM_OFFSET].v[0] == 0 &&
           a.dims[VKB_DIM_OFFSET].v[4] == 64);
    ASSERT(parse(&a, err, 5, n0) < 0 && strstr(err, "--n") && strstr(err, "at least 1"));
    ASSERT(parse(&a, err, 5, s0) < 0 && strstr(err, "--stride") && strstr(err, "at least 1"));
    ASSERT(vkb_cli_parse_list("0:8:x2", 0, &l, err, sizeof err) < 0 && strstr(err, "endless"));
    ASSERT(vkb_cli_parse_list("-0", 0, &l, err, sizeof err) < 0 && strstr(err, "negative"));
}

/* --seed takes every uint64 exactly; --reps a whole number */
static void whole_numbers(void)
{
    vkb_args a;
    char err[256];
    const char *max[] = {"vkbench", "run", "copy", "--seed", "18446744073709551615"};
    const char *odd[] = {"vkbench", "run", "copy", "--seed", "9007199254740993", "--reps", "1000000"};
    const char *zero[] = {"vkbench", "run", "copy", "--seed", "0"};
    static const char *bad_seed[] = {
        "18446744073709551616", "99999999999999999999999", "1.5", "-1", "1e3", "", " 1", "0x10", "nan"};
    static const char *bad_reps[] = {"1.5", "0", "1000001", "-1", "", "1e3", "2147483648", "nan", "inf"};
    ASSERT(parse(&a, err, 5, max) == 0 && a.seed == UINT64_MAX);
    ASSERT(parse(&a, err, 7, odd) == 0 && a.seed == 9007199254740993ull && a.reps == 1000000); /* 2^53 + 1 */
    ASSERT(parse(&a, err, 5, zero) == 0 && a.seed == 0);
    for (size_t i = 0; i < sizeof bad_seed / sizeof *bad_seed; i++) {
        const char *argv[] = {"vkbench", "run", "copy", "--seed", bad_seed[i]};
        ASSERT(parse(&a, err, 5, argv) < 0 && strstr(err, "--seed wants a whole number"));
    }
    for (size_t i = 0; i < sizeof bad_reps / sizeof *bad_reps; i++) {
        const char *argv[] = {"vkbench", "run", "copy", "--reps", bad_reps[i]};
        ASSERT(parse(&a, err, 5, argv) < 0 && strstr(err, "--reps wants a whole number"));
    }
}

/* empty values and empty list items are refused in every list-valued option */
static void empty_values(void)
{
    vkb_args a;
    char err[256];
    static const char *bad[][2] = {
        {"--variant", ""},      {"--variant", ",,"}, {"--variant", "vec4,"}, {"--variant", "copy/"},
        {"--variant", "/vec4"}, {"--spec", ""},      {"--spec", "BM=64,"},   {"--spec", "BM=64,,BN=64"},
        {"--device", ""},       {"--json", ""},      {"--csv", ""},          {"--warmup-ms", "nan"},
        {"--budget-ms", "inf"}, {"--budget-ms", ""}, {"--warmup-ms", "-1"}};
    const char *ok[] = {"vkbench", "run",       "copy",        "--variant", "copy/vec4,vec4",
                        "--wide",  "--dry-run", "--budget-ms", ".5"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *argv[] = {"vkbench", "run", "copy", bad[i][0], bad[i][1]};
        err[0] = 0;
        ASSERT(parse(&a, err, 5, argv) < 0 && strstr(err, bad[i][0]));
    }
    ASSERT(parse(&a, err, 9, ok) == 0 && a.wide && a.dry_run && a.budget_ms == 0.5);
    ASSERT(strcmp(a.variants, "copy/vec4,vec4") == 0);
}

/* --robustness: default (no struct, the driver's behaviour) unless disabled is asked; anything else is exit 2 */
static void robustness_values(void)
{
    vkb_args a;
    char err[256];
    const char *none[] = {"vkbench", "run", "copy"}, *off[] = {"vkbench", "run", "copy", "--robustness", "disabled"},
               *dflt[] = {"vkbench", "run", "copy", "--robustness=default"};
    static const char *bad[] = {"", "off", "Disabled", "disabled ", "none", "0"};
    ASSERT(parse(&a, err, 3, none) == 0 && !a.robustness_off);
    ASSERT(parse(&a, err, 5, off) == 0 && a.robustness_off);
    ASSERT(parse(&a, err, 4, dflt) == 0 && !a.robustness_off);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *argv[] = {"vkbench", "run", "copy", "--robustness", bad[i]};
        err[0] = 0;
        ASSERT(parse(&a, err, 5, argv) < 0 && strstr(err, "--robustness wants default or disabled"));
    }
}

/* run --help lists every family with its own size flags, from the family table */
static void run_help(void)
{
    vkb_args a;
    char err[256], text[8192];
    const char *argv[] = {"vkbench", "run", "--help"};
    FILE *f = tmpfile();
    size_t n;
    ASSERT(f);
    if (!f)
        return;
    vkb_cli_run_usage(f);
    rewind(f);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    ASSERT(strstr(text, "usage: vkbench run"));
    for (int i = 0; i < vkb_family_count; i++) {
        char line[200] = "", units[200] = "", start[80];
        const char *at, *eol, *eol2;
        snprintf(start, sizeof start, "\n  %s ", vkb_families[i]->name); /* a family's line, not a mention */
        at = strstr(text, start);
        eol = at ? strchr(at + 1, '\n') : NULL;
        eol2 = eol ? strchr(eol + 1, '\n') : NULL;
        ASSERT(at && eol && eol2);
        if (!at || !eol || !eol2)
            continue;
        snprintf(line, sizeof line, "%.*s", (int)(eol - at), at);
        snprintf(units, sizeof units, "%.*s", (int)(eol2 - eol), eol); /* the next line: what each flag counts */
        for (int d = 0; d < vkb_families[i]->ndims; d++) {
            char flag[40];
            snprintf(flag, sizeof flag, "--%s", vkb_families[i]->dims[d]);
            ASSERT(strstr(line, flag));
            ASSERT(strstr(units, flag));
            ASSERT(vkb_families[i]->units[d] && strstr(units, vkb_families[i]->units[d]));
        }
    }
    ASSERT(parse(&a, err, 3, argv) == 1); /* prints the text, exit 0 */
}

/* A family whose dim name no built-in family has: its flag, plain and scoped, parses like any other, and
 * without it in the table the name is no option at all. */
static void new_dimension_flag(void)
{
    static const vkb_family deep = {.name = "deep", .dims = {"n", "depth"}, .ndims = 2};
    static const vkb_family *const table[] = {&deep};
    const char *scoped[] = {"vkbench", "run", "deep", "--deep.depth", "7"};
    const char *plain[] = {"vkbench", "run", "deep", "--depth", "3,5"};
    const char *listing[] = {"vkbench", "list", "--depth", "3"};
    vkb_args a;
    char err[256];
    int d;
    ASSERT(vkb_cli_dim_of("depth") < 0);
    vkb_cli_use_families(table, 1);
    d = vkb_cli_dim_of("depth");
    ASSERT(d >= VKB_DIM_KNOWN && d < vkb_cli_dim_count() && strcmp(vkb_cli_dim_name(d), "depth") == 0);
    ASSERT(vkb_cli_dim_of("n") == VKB_DIM_N); /* the known names keep their places */
    ASSERT(parse(&a, err, 5, scoped) == 0);
    ASSERT(a.nscoped == 1 && a.scoped[0].dim == d && strcmp(a.scoped[0].family, "deep") == 0);
    ASSERT(a.scoped[0].list.n == 1 && a.scoped[0].list.v[0] == 7);
    ASSERT(vkb_cli_scoped(&a, "deep", d) && vkb_cli_scoped(&a, "deep", d)->v[0] == 7);
    ASSERT(parse(&a, err, 5, plain) == 0);
    ASSERT(d >= 0 && a.dims[d].n == 2 && a.dims[d].v[1] == 5 && a.nscoped == 0);
    ASSERT(parse(&a, err, 4, listing) < 0 && strstr(err, "--depth sets a size"));
    vkb_cli_use_families(vkb_families, vkb_family_count);
    ASSERT(vkb_cli_dim_of("depth") < 0);
    ASSERT(parse(&a, err, 5, scoped) < 0 && strstr(err, "unknown option '--deep.depth'"));
    ASSERT(parse(&a, err, 5, plain) < 0 && strstr(err, "unknown option '--depth'"));
}

UNIT_TESTS({"run_with_sizes", run_with_sizes}, {"options_anywhere", options_anywhere}, {"ranges", ranges},
           {"bad_sizes", bad_sizes}, {"bad_flags", bad_flags}, {"variant_filter", variant_filter},
           {"spec_constants", spec_constants}, {"list_syntax", list_syntax}, {"exact_sizes", exact_sizes},
           {"offset_zero", offset_zero}, {"whole_numbers", whole_numbers}, {"empty_values", empty_values},
           {"run_help", run_help}, {"robustness_values", robustness_values}, {"new_dimension_flag", new_dimension_flag})
