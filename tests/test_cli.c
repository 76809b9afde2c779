/* test_cli.c - command-line parsing: commands, size lists, ranges, bad input. */
#include "cli.h"
#include "unit.h"

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
    ASSERT(vkb_cli_parse_list("256:8192:x2", &l, err, sizeof err) == 0);
    ASSERT(l.n == 6 && l.v[0] == 256 && l.v[5] == 8192);
    ASSERT(vkb_cli_parse_list("100:350:+100", &l, err, sizeof err) == 0);
    ASSERT(l.n == 3 && l.v[2] == 300);
    ASSERT(vkb_cli_parse_list("1M,4K,3", &l, err, sizeof err) == 0);
    ASSERT(l.n == 3 && l.v[0] == 1048576 && l.v[1] == 4096 && l.v[2] == 3);
    ASSERT(vkb_cli_parse_list("1e6", &l, err, sizeof err) == 0 && l.v[0] == 1000000);
}

static void bad_sizes(void)
{
    vkb_list l;
    char err[256];
    ASSERT(vkb_cli_parse_list("0", &l, err, sizeof err) < 0 && strstr(err, "at least 1"));
    ASSERT(vkb_cli_parse_list("-5", &l, err, sizeof err) < 0);
    ASSERT(vkb_cli_parse_list("12abc", &l, err, sizeof err) < 0 && strstr(err, "not a size"));
    ASSERT(vkb_cli_parse_list("1.5", &l, err, sizeof err) < 0);
    ASSERT(vkb_cli_parse_list("8:4:x2", &l, err, sizeof err) < 0);
    ASSERT(vkb_cli_parse_list("4:8:x1", &l, err, sizeof err) < 0);
    ASSERT(vkb_cli_parse_list("4:8", &l, err, sizeof err) < 0 && strstr(err, "step"));
    ASSERT(vkb_cli_parse_list("1:100000:+1", &l, err, sizeof err) < 0 && strstr(err, "too many"));
    /* huge but well-formed: parsed (the device check turns it into exit 4 later) */
    ASSERT(vkb_cli_parse_list("1e15", &l, err, sizeof err) == 0 && l.v[0] > (1ll << 49));
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
    const char *ok[] = {"vkbench", "run", "matmul", "--spec", "BM=64,TN=4,0=128", "--spec", "OPT=0x7"};
    const char *bad[][4] = {{"vkbench", "run", "matmul", "--spec=BM"},      {"vkbench", "run", "matmul", "--spec=BM=x"},
                            {"vkbench", "run", "matmul", "--spec=B-M=1"},  {"vkbench", "run", "matmul", "--spec=BM=-1"},
                            {"vkbench", "run", "matmul", "--spec=BM=4294967296"}, {"vkbench", "run", "matmul", "--spec==3"}};
    ASSERT(parse(&a, err, 7, ok) == 0 && a.nspec == 4);
    ASSERT(strcmp(a.spec[0].name, "BM") == 0 && a.spec[0].value == 64);
    ASSERT(strcmp(a.spec[1].name, "TN") == 0 && a.spec[1].value == 4);
    ASSERT(strcmp(a.spec[2].name, "0") == 0 && a.spec[2].value == 128);
    ASSERT(strcmp(a.spec[3].name, "OPT") == 0 && a.spec[3].value == 7);
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

int main(int argc, char **argv)
{
    static const unit_test tests[] = {{"run_with_sizes", run_with_sizes}, {"options_anywhere", options_anywhere},
                                      {"ranges", ranges}, {"bad_sizes", bad_sizes}, {"bad_flags", bad_flags},
                                      {"variant_filter", variant_filter}, {"spec_constants", spec_constants}};
    return unit_main(argc, argv, tests, (int)(sizeof tests / sizeof *tests));
}
