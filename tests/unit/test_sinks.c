/* test_sinks.c - the outputs fed fabricated results (no GPU, no timing): tables fit 100 columns and
 * explain their markers, JSON and CSV are whole and parseable, result files are never half written. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

#include "../../host/core/runner/runner_parts.h" /* vkb_compare_outputs: the runner folder's own header */
#include "identity.h"
#include "repeats.h"
#include "sinks.h"
#include "unit.h"
#include "util.h"

static double never_predicts(const vkb_variant *v, const vkb_case *c, const vkb_caps *caps)
{
    (void)v, (void)c, (void)caps;
    return NAN;
}

static const vkb_variant variants[] = {
    {.name = "api_copy", .flags = VKB_VAR_CEILING, .note = "the API's copy"},
    {.name = "a_variant_whose_name_is_far_longer_than_any_column_should_be", .note = "long"},
    {.name = "vec4", .note = "16-byte loads"},
    {.name = "subgroup", .note = "needs subgroup arithmetic"},
    {.name = "broken", .note = "fails its check"},
    {.name = "cublas", .flags = VKB_VAR_CEILING | VKB_VAR_CUDA_ONLY, .note = "vendor ceiling"},
};

static const vkb_family family = {.name = "memory.fake",
                                  .summary = "a fabricated family with a summary long enough to need wrapping when the "
                                             "table is fitted to one hundred columns of a terminal",
                                  .dims = {"n"},
                                  .ndims = 1,
                                  .metric = "GB/s",
                                  .variants = variants,
                                  .nvariants = 6,
                                  .predict = never_predicts};

static vkb_backend vulkan_backend = {.name = "vulkan"}, cuda_backend = {.name = "cuda"};

static vkb_result results[12];
static int nresults;

static vkb_result *add(const char *backend, int variant, vkb_status status)
{
    vkb_result *r = &results[nresults++];
    memset(r, 0, sizeof *r);
    r->family = &family;
    r->variant = &variants[variant];
    r->backend = backend;
    r->robustness = strcmp(backend, "vulkan") == 0 ? VKB_ROBUSTNESS_DEFAULT : VKB_ROBUSTNESS_NONE; /* as the runner */
    r->shape.d[0] = 16777216;
    r->status = status;
    r->predicted = NAN;
    r->cache_fits = 1;
    r->check.bad_row = r->check.bad_col = -1;
    snprintf(r->check.method, sizeof r->check.method, "exact");
    return r;
}

static void timed(vkb_result *r, double median_ns, double metric, int settled)
{
    double x[] = {0.9 * median_ns, median_ns, median_ns, 1.1 * median_ns, 2 * median_ns};
    r->timed = 1;
    vkb_stats_compute(x, 5, &r->time_ns);
    r->time_ns.settled = settled;
    r->metric = metric;
}

/* One of each kind of row a table can show, for BACKEND; ceilings first, as the runner sends them. */
static void fabricate(const char *backend)
{
    vkb_result *ceil = add(backend, 0, VKB_RES_OK), *r;
    timed(ceil, 2e6, 100.0, 1);
    r = add(backend, 1, VKB_RES_OK); /* unsettled, far from its prediction, unknown cache fit */
    timed(r, 4e6, 50.0, 0);
    r->ceiling = ceil, r->fraction = 0.5, r->predicted = 0.9, r->cache_fits = -1;
    r = add(backend, 2, VKB_RES_OK); /* above its ceiling, suspect, with --spec constants */
    timed(r, 1.6e6, 125.0, 1);
    r->ceiling = ceil, r->fraction = 1.25, r->predicted = 1.2, r->suspect = 1;
    snprintf(r->suspect_reason, sizeof r->suspect_reason, "above 1.25x the fastest copy of the run (100 GB/s)");
    snprintf(r->constants, sizeof r->constants, "BM=64,BN=\"64\"");
    r = add(backend, 3, VKB_RES_SKIP);
    snprintf(r->skip_reason, sizeof r->skip_reason, "needs subgroup arithmetic, which the device lacks");
    r = add(backend, 4, VKB_RES_FAIL);
    r->check.bad = 3, r->check.checked = 100, r->check.first_bad = 17, r->check.cols = 5;
    r->check.bad_row = 3, r->check.bad_col = 2, r->check.bad_expected = 1.5, r->check.bad_actual = -2;
    r->check.max_error = 0.5, r->check.tolerance = 1e-6;
}

static const vkb_run_settings run_settings = {.command = "run",
                                              .command_line = "vkbench run memory.fake \xff",
                                              .seed = 18446744073709551615ull,
                                              .timed = 1,
                                              .warmup_ms = 20,
                                              .first_warmup_ms = 20,
                                              .budget_ms = 300,
                                              .spec = "BM=64"};
static const vkb_run_plan run_plan = {.cases = 10, .families = 1, .shapes = 1, .variants = 5, .backends = 2};

/* Feed every fabricated result to S as the runner would; returns end()'s exit code. */
static int feed(vkb_sink *s, const vkb_run_settings *set, int interrupt_after)
{
    vkb_backend *backends[] = {&vulkan_backend, &cuda_backend};
    int rc;
    s->begin(s, set, backends, 2, &run_plan);
    if (s->family_begin)
        s->family_begin(s, &family);
    for (int i = 0; i < nresults && i != interrupt_after; i++)
        s->result(s, &results[i]);
    if (s->family_end && interrupt_after < 0)
        s->family_end(s, &family);
    rc = s->end(s, interrupt_after >= 0);
    vkb_sink_destroy(s);
    return rc;
}

static char *slurp(FILE *f)
{
    static char buf[65536];
    size_t n;
    fflush(f);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    return buf;
}

static int widest_line(const char *s)
{
    int widest = 0, cols = 0;
    for (; *s; s++) {
        if (*s == '\n') {
            widest = cols > widest ? cols : widest;
            cols = 0;
        } else {
            cols += ((unsigned char)*s & 0xc0) != 0x80;
        }
    }
    return widest;
}

static void setup(int paired)
{
    nresults = 0;
    snprintf(vulkan_backend.caps.name, sizeof vulkan_backend.caps.name, "llvmpipe \xc3\x28 (LLVM 15)");
    snprintf(cuda_backend.caps.name, sizeof cuda_backend.caps.name, "NVIDIA H100");
    snprintf(vulkan_backend.caps.driver, sizeof vulkan_backend.caps.driver, "Mesa 22.3.6");
    snprintf(vulkan_backend.caps.type, sizeof vulkan_backend.caps.type, "cpu");
    snprintf(vulkan_backend.caps.vendor, sizeof vulkan_backend.caps.vendor, "Mesa");
    vulkan_backend.caps.vendor_id = 0x10005;
    vulkan_backend.caps.is_cpu = 1;
    snprintf(cuda_backend.caps.driver, sizeof cuda_backend.caps.driver, "CUDA driver 13.0");
    snprintf(cuda_backend.caps.type, sizeof cuda_backend.caps.type, "discrete");
    fabricate("vulkan");
    if (paired)
        fabricate("cuda");
}

static char *table_text(int paired, int width)
{
    FILE *f = tmpfile();
    vkb_run_settings set = run_settings;
    set.paired = paired;
    setup(paired);
    ASSERT(feed(vkb_sink_table_create(f, width), &set, -1) == VKB_EXIT_OK);
    return slurp(f);
}

static void table_fits(void)
{
    char *out;
    unsetenv("COLUMNS");
    ASSERT(vkb_table_width(0) == 100 && vkb_table_width(1) == 0);
    out = table_text(0, vkb_table_width(0));
    fputs(out, stdout);
    ASSERT(widest_line(out) <= 100);
    ASSERT(strstr(out, "a_variant_whose_name") != NULL); /* cut to fit, never dropped */
    setenv("COLUMNS", "80", 1);
    ASSERT(vkb_table_width(0) == 80);
    ASSERT(widest_line(table_text(0, vkb_table_width(0))) <= 80);
    unsetenv("COLUMNS");
    /* --wide: the whole name */
    ASSERT(strstr(table_text(0, 0), variants[1].name) != NULL);
}

/* Whether a marker of the table (! ~ #) stands glued to a number or a percent sign ("27!", "0.424~", "33.3%!"). */
static int glued(const char *out)
{
    for (const char *p = out + 1; *p; p++)
        if (strchr("!~#", *p) && (isdigit((unsigned char)p[-1]) || p[-1] == '%'))
            return 1;
    return 0;
}

/* Each marker a space apart from its number, "!" a spread's only ("#": the rule differs), and under a family of
 * several sizes the legend's key to a shape's numbers, from the family's own size flags. */
static void table_markers(void)
{
    static const vkb_family two = {.name = "memory.two",
                                   .summary = "a family of two sizes",
                                   .dims = {"n", "stride"},
                                   .ndims = 2,
                                   .metric = "GB/s",
                                   .variants = variants,
                                   .nvariants = 6,
                                   .predict = never_predicts};
    char *out = table_text(0, 0);
    const char *row = strstr(out, "\na_variant_whose");
    ASSERT(!glued(out));
    /* unsettled, half the ceiling, 90% predicted: far from it */
    ASSERT(row && strstr(row, " 50.0 ~ ") && strstr(row, " 50.0% a ") && strstr(row, " 90.0% # ") &&
           strstr(row, " 90.0% # ") < strchr(row + 1, '\n'));
    ASSERT(strstr(out, "# = DIFFERS") && strstr(out, "! = DIFFERS") == NULL && strstr(out, "shape of") == NULL);
    ASSERT(!glued(table_text(1, 0)));
    for (int cube = 0; cube < 2; cube++) {
        FILE *f = tmpfile();
        setup(0);
        for (int i = 0; i < nresults; i++)
            results[i].family = &two, results[i].shape.d[1] = cube ? results[i].shape.d[0] : 4;
        ASSERT(feed(vkb_sink_table_create(f, 0), &run_settings, -1) == VKB_EXIT_OK);
        out = slurp(f);
        ASSERT(strstr(out, "\nlegend:\n  ") && strstr(out, cube ? "16777216^2" : "16777216x4"));
        ASSERT(strstr(out, cube ? "  shape of memory.two: n x stride (--n, --stride); N^2: each of them N\n"
                                : "  shape of memory.two: n x stride (--n, --stride)\n"));
    }
}

static void table_legend(void)
{
    char *out = table_text(0, 0); /* unwrapped, so that each sentence is found whole */
    ASSERT(strstr(out, "# = DIFFERS: measured more than 25% away") != NULL && strstr(out, "! = DIFFERS") == NULL);
    ASSERT(strstr(out, "the coalescing rule") != NULL);
    ASSERT(strstr(out, "fits ?: Vulkan alone cannot tell the cache size") != NULL);
    ASSERT(strstr(out, "~: the median had not settled") != NULL && strstr(out, "time budget ran out"));
    ASSERT(strstr(out, "ceil% over 100: the kernel beat the ceiling row") != NULL);
    ASSERT(strstr(out, "SUSPECT") != NULL && strstr(out, "above 1.25x the fastest copy") != NULL);
    ASSERT(strstr(out, "FAIL: 3 of 100 wrong, first at row 3, column 2") != NULL && strstr(out, "1.5, got -2"));
    /* a skip is folded: one line per reason under the table, naming its rows' variants */
    ASSERT(strstr(out, "skipped (1 row: subgroup): needs subgroup arithmetic") != NULL);
    ASSERT(strstr(out, "\nsubgroup ") == NULL);
    ASSERT(strstr(out, "a = api_copy (vulkan)") != NULL);
    ASSERT(strstr(out, "seed 00") == NULL);
    /* markers that did not appear are not explained */
    ASSERT(strstr(out, "(none):") == NULL && strstr(out, "ok*") == NULL);
    /* a row without a ceiling, where the family's ceiling needs CUDA and there is none */
    setup(0);
    results[1].ceiling = NULL;
    {
        FILE *f = tmpfile();
        vkb_backend *only[] = {&vulkan_backend};
        vkb_sink *s = vkb_sink_table_create(f, 0);
        s->begin(s, &run_settings, only, 1, &run_plan);
        s->family_begin(s, &family);
        for (int i = 0; i < nresults; i++)
            s->result(s, &results[i]);
        s->family_end(s, &family);
        s->end(s, 0);
        vkb_sink_destroy(s);
        out = slurp(f);
        ASSERT(strstr(out, "(none): no ceiling ran: cublas needs CUDA") != NULL);
    }
}

/* Without this: legends repeated under every table (120 of 287 lines of a suite), no line answered "which is
 * fastest", heap detail under transfer by default. Two tables of one run: each legend line once, after the
 * last table; a "fastest in this family" line under each (never the SUSPECT row); memory notes only with -v. */
static const char *two_tables(void)
{
    FILE *f = tmpfile();
    vkb_backend *backends[] = {&vulkan_backend, &cuda_backend};
    vkb_sink *s = vkb_sink_table_create(f, 0);
    setup(0);
    snprintf(results[1].memory, sizeof results[1].memory, "heap 0 device-local 80 GiB");
    vkb_result_value(&results[1], "a_bound", 2048.5, "GB/s", "a fact no sink knows");
    s->begin(s, &run_settings, backends, 2, &run_plan);
    for (int table = 0; table < 2; table++) {
        s->family_begin(s, &family);
        for (int i = 0; i < nresults; i++)
            s->result(s, &results[i]);
        s->family_end(s, &family);
    }
    s->end(s, 0);
    vkb_sink_destroy(s);
    return slurp(f);
}

static void legend_once(void)
{
    const char *out = two_tables(), *legend, *p;
    int count = 0;
    fputs(out, stdout);
    for (p = out; (p = strstr(p, "IQR%: spread")) != NULL; p++)
        count++;
    ASSERT(count == 1);
    legend = strstr(out, "\nlegend:\n");
    ASSERT(legend != NULL && strstr(legend, "~: the median had not settled") != NULL);
    ASSERT(strstr(legend, "== memory.fake") == NULL); /* after the last table */
    count = 0;
    for (p = out; (p = strstr(p, "fastest in this family: ")) != NULL; p++)
        count++;
    ASSERT(count == 2);
    ASSERT(strstr(out, "fastest in this family: a_variant_whose_name_is_far_longer_than_any_column_should_be "
                       "(vulkan) 16777216, 50 ± 2.3 GB/s, 50.0% of ceiling a") != NULL);
    ASSERT(strstr(out, "fastest in this family: vec4") == NULL); /* SUSPECT: never the answer */
    ASSERT(strstr(out, "ceilings: a = api_copy (vulkan)") != NULL);
    ASSERT(strstr(out, "heap 0 device-local") == NULL); /* heap detail: -v only */
    ASSERT(strstr(out, "a_bound") == NULL);             /* named values too */
    vkb_verbose = 1;
    out = two_tables();
    vkb_verbose = 0;
    ASSERT(strstr(out, "heap 0 device-local 80 GiB") != NULL);
    ASSERT(strstr(out, "a_bound ") && strstr(out, ": 2048.5 GB/s (a fact no sink knows)")); /* as it is */
}

/* "fits L2" only where a footprint means something: a GB/s row says it, a GFLOP/s or µs row does not. */
static void fits_where_it_matters(void)
{
    vkb_family timed_family = family;
    const char *out = table_text(0, 0);
    ASSERT(strstr(out, " L2   ok") != NULL);
    timed_family.metric = "us";
    timed_family.time_unit_ns = 1e3;
    for (int i = 0; i < nresults; i++)
        results[i].family = &timed_family;
    {
        FILE *f = tmpfile();
        vkb_backend *backends[] = {&vulkan_backend, &cuda_backend};
        vkb_sink *s = vkb_sink_table_create(f, 0);
        s->begin(s, &run_settings, backends, 2, &run_plan);
        s->family_begin(s, &timed_family);
        for (int i = 0; i < nresults; i++)
            s->result(s, &results[i]);
        s->family_end(s, &timed_family);
        s->end(s, 0);
        vkb_sink_destroy(s);
        out = slurp(f);
    }
    fputs(out, stdout);
    ASSERT(strstr(out, " L2 ") == NULL && strstr(out, "fits ?:") == NULL);
}

/* The plan line's counts do not pretend to multiply (not "16 shapes x 106 variants x 1 backend = 106 cases") */
static void plan_line(void)
{
    char text[200];
    vkb_run_plan plan = {.cases = 106, .families = 16, .shapes = 16, .variants = 106, .backends = 1, .estimate_s = 40};
    ASSERT(strcmp(vkb_plan_text(&plan, text, sizeof text),
                  "106 cases (16 families: 16 shapes and 106 variants in all; 1 backend), about 40 s") == 0);
    plan = (vkb_run_plan){.cases = 1, .families = 1, .shapes = 1, .variants = 1, .backends = 2, .estimate_s = 0.5};
    ASSERT(strcmp(vkb_plan_text(&plan, text, sizeof text),
                  "1 case (1 family: 1 shape and 1 variant in all; 2 backends), under a second") == 0);
    ASSERT(strstr(text, " x ") == NULL);
}

static void paired_fits(void)
{
    char *out = table_text(1, 100);
    fputs(out, stdout);
    ASSERT(widest_line(out) <= 100);
    /* one line per (variant, shape): vec4 appears once, with both APIs' numbers and their ratio */
    ASSERT(strstr(out, "\nvec4[") != NULL && strstr(strstr(out, "\nvec4[") + 1, "\nvec4[") == NULL);
    ASSERT(strstr(out, "1.000") != NULL);
    ASSERT(strstr(out, "b =") && strstr(out, "api_copy (cuda)"));
    ASSERT(strstr(out, "n/a:") == NULL); /* every row ran through both APIs */
}

/* --backend all: outputs that disagree beyond both checks' largest bounds fail the row, and the table says where */
static void cross_failure(void)
{
    FILE *f = tmpfile();
    vkb_run_settings set = run_settings;
    char *out;
    set.paired = 1;
    setup(1);
    results[7].status = VKB_RES_FAIL; /* cuda's vec4 */
    results[7].cross = 1, results[7].cross_fail = 1, results[7].cross_differing = 9;
    results[7].check.bad = 4, results[7].cross_index = 12, results[7].cross_buffer = 0;
    results[7].cross_this = 1.5, results[7].cross_other = 2.5, results[7].cross_backend = "vulkan";
    ASSERT(feed(vkb_sink_table_create(f, 0), &set, -1) == VKB_EXIT_OK);
    out = slurp(f);
    ASSERT(strstr(out, "SUSPECT|FAIL") != NULL);
    /* a row through one API only: its word alone, and the legend says why the other side is empty */
    results[nresults] = results[5];
    results[nresults].variant = &variants[5];
    nresults++;
    f = tmpfile();
    ASSERT(feed(vkb_sink_table_create(f, 0), &set, -1) == VKB_EXIT_OK);
    out = slurp(f);
    ASSERT(strstr(out, "\ncublas") != NULL && strstr(out, "-|ok") == NULL);
    ASSERT(strstr(out, "n/a: the row runs through one API only") != NULL);
    ASSERT(strstr(out,
                  "cuda FAIL: 4 elements differ from vulkan beyond the two checks' largest bounds summed, first at "
                  "element 12 of output 0: 1.5 here, 2.5 there") != NULL);
}

static void matrix_skips(void)
{
    FILE *f = tmpfile();
    vkb_run_settings set = run_settings;
    char *out;
    set.timed = 0;
    setup(1);
    for (int i = 0; i < nresults; i++)
        results[i].timed = 0;
    ASSERT(feed(vkb_sink_matrix_create(f, 100), &set, -1) == VKB_EXIT_OK);
    out = slurp(f);
    fputs(out, stdout);
    ASSERT(widest_line(out) <= 100);
    ASSERT(strstr(out, "validate: 6 passed, 2 failed, 2 skipped") != NULL);
    ASSERT(strstr(out, "skips by reason:\n    2  needs subgroup arithmetic") != NULL);
    /* by default the failures alone, then the counts (not 2306 lines of ok on an H100); -v every case */
    ASSERT(strstr(out, "FAIL: 3 of 100 wrong") != NULL && strstr(out, "  ok  ") == NULL);
    ASSERT(strstr(out, "  skip  ") == NULL && strstr(out, "== validate memory.fake on ") != NULL);
    vkb_verbose = 1;
    setup(1);
    for (int i = 0; i < nresults; i++)
        results[i].timed = 0;
    f = tmpfile();
    ASSERT(feed(vkb_sink_matrix_create(f, 100), &set, -1) == VKB_EXIT_OK);
    vkb_verbose = 0;
    out = slurp(f);
    ASSERT(strstr(out, "  ok  ") != NULL && strstr(out, "  skip  ") != NULL);
    ASSERT(strstr(out, "validate: 6 passed, 2 failed, 2 skipped") != NULL);
}

static char tmpdir[64];

static char *path_in(const char *name)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
    return buf;
}

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/vkb_sinks_XXXXXX");
    ASSERT(mkdtemp(tmpdir) != NULL);
}

/* How many files the test directory holds (temporary files left behind show here). */
static int files_in_dir(void)
{
    DIR *d = opendir(tmpdir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static char *read_text(const char *path)
{
    static char buf[65536];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[n] = 0;
    if (f)
        fclose(f);
    return buf;
}

/* unit_arg(0): where to leave a JSON file for check_json.py (ctest runs it next); else a temporary file. */
static const char *json_out;

static void json_stream(void)
{
    const char *path;
    char *text;
    if (!json_out)
        make_tmpdir();
    path = json_out ? json_out : path_in("run.json");
    setup(1);
    ASSERT(feed(vkb_sink_json_create(path), &run_settings, -1) == VKB_EXIT_OK);
    text = read_text(path);
    ASSERT(strstr(text, "\"schema_version\": \"2.4.0\"") != NULL);
    ASSERT(strstr(text, "\"seed\": 18446744073709551615") != NULL);
    ASSERT(strstr(text, "\"device\": \"llvmpipe \\ufffd( (LLVM 15)\"") != NULL); /* invalid byte replaced */
    ASSERT(strstr(text, "\"command\": \"vkbench run memory.fake \\ufffd\"") != NULL);
    ASSERT(strstr(text, "\"q1\": ") && strstr(text, "\"iqr_over_median\": ") && strstr(text, "\"settled\": false"));
    ASSERT(strstr(text, "\"interrupted\": false\n}\n") != NULL);
    if (!json_out) {
        ASSERT(files_in_dir() == 1);
        unlink(path);
        rmdir(tmpdir);
    }
}

static void json_interrupted(void)
{
    char *text;
    make_tmpdir();
    setup(0);
    ASSERT(feed(vkb_sink_json_create(path_in("cut.json")), &run_settings, 2) == VKB_EXIT_OK);
    text = read_text(path_in("cut.json"));
    ASSERT(strstr(text, "\"interrupted\": true\n}\n") != NULL);
    ASSERT(strstr(text, "a_variant_whose") != NULL && strstr(text, "\"vec4\"") == NULL);
    unlink(path_in("cut.json"));
    rmdir(tmpdir);
}

/* --backend all: the two outcomes of the cross-backend compare (host/core/runner/compare.c) of two fake outputs of
 * eight floats, each API's checked within 0.25 of the reference. CUDA's 0.5 from Vulkan's at element 5, within the
 * largest bounds summed, passes: "ok*" in the table with its legend, "fail": false in the JSON. 0.75 there, with
 * element 2 0.25 apart before it, fails: FAIL, the first element beyond named (5, not the first differing, 2) under
 * the row and in the JSON, "fail": true. */
static void cross_outcomes(void)
{
    vkb_run_settings set = run_settings;
    set.paired = 1;
    for (int beyond = 0; beyond < 2; beyond++) {
        float vk[8], cu[8];
        saved_outputs saved;
        vkb_plan plan;
        vkb_result *r;
        FILE *f = tmpfile();
        char *out, *row, *end, *status;
        const char *word;
        for (int i = 0; i < 8; i++)
            vk[i] = cu[i] = (float)i + 1;
        cu[5] += beyond ? 0.75f : 0.5f;
        if (beyond)
            cu[2] += 0.25f;
        memset(&saved, 0, sizeof saved);
        saved.data[0] = vk, saved.bytes[0] = sizeof vk, saved.max_bound = 0.25, saved.backend = "vulkan";
        saved.valid = 1;
        memset(&plan, 0, sizeof plan);
        vkb_plan_buffer_add(&plan, sizeof cu, VKB_BUF_OUTPUT, cu);
        setup(1);
        results[2].suspect = results[7].suspect = 0; /* vec4 on both APIs: the compare's word alone */
        r = &results[7];                             /* CUDA's vec4, compared with Vulkan's */
        r->check.pass = 1, r->check.tolerance = r->check.max_bound = 0.25;
        vkb_compare_outputs(r, &plan, &saved);
        ASSERT(r->cross && r->cross_differing == (beyond ? 2u : 1u) && r->cross_fail == beyond);
        ASSERT(r->status == (beyond ? VKB_RES_FAIL : VKB_RES_OK) && r->cross_max_diff == (beyond ? 0.75 : 0.5));
        if (beyond)
            ASSERT(r->cross_index == 5 && r->check.bad == 1 && r->cross_this == 6.75 && r->cross_other == 6.0 &&
                   strcmp(r->check.method, "differs from vulkan at [5]: 6.75 vs 6 (> 0.5)") == 0);
        ASSERT(feed(vkb_sink_table_create(f, 0), &set, -1) == VKB_EXIT_OK);
        out = slurp(f);
        row = strstr(out, "\nvec4[");
        end = row ? strchr(row + 1, '\n') : NULL;
        word = beyond ? " ok|FAIL" : " ok|ok*"; /* the row's last column */
        ASSERT(row && end && end - row > (ptrdiff_t)strlen(word) &&
               strncmp(end - strlen(word), word, strlen(word)) == 0);
        ASSERT((strstr(out, "ok*: within tolerance, but some elements differ bitwise between the APIs") != NULL) ==
               !beyond);
        ASSERT(
            (strstr(out,
                    "cuda FAIL: 1 element differs from vulkan beyond the two checks' largest bounds summed, first at "
                    "element 5 of output 0: 6.75 here, 6 there") != NULL) == beyond);
        make_tmpdir();
        ASSERT(feed(vkb_sink_json_create(path_in("cross.json")), &set, -1) == VKB_EXIT_OK);
        out = read_text(path_in("cross.json"));
        row = strstr(out, "\"cross_backend\": {");
        ASSERT(row && !strstr(row + 1, "\"cross_backend\": {")); /* CUDA's vec4 alone was compared */
        status = NULL;
        for (char *q = out; row && (q = strstr(q, "\"status\": ")) && q < row; q++)
            status = q; /* the compared result's own */
        word = beyond ? "\"status\": \"fail\"," : "\"status\": \"ok\",";
        ASSERT(status && strncmp(status, word, strlen(word)) == 0);
        if (row && beyond)
            ASSERT(strstr(row, "\"differing_elements\": 2,") && strstr(row, "\"fail\": true,") &&
                   strstr(row, "\"index\": 5,"));
        else if (row)
            ASSERT(strstr(row, "\"differing_elements\": 1,") && strstr(row, "\"fail\": false,") &&
                   strstr(row, "\"first_beyond\": null"));
        unlink(path_in("cross.json"));
        rmdir(tmpdir);
    }
}

/* A check that judges elements 0-6 of eight against BOUNDS (element 7 not one by one, as a large product's
 * elements off its exact lines are not). */
static void sampled_check(vkb_check *r, const float *out, const float *ref, const double *bounds)
{
    vkb_check_init(r, "sampled");
    for (int i = 0; i < 7; i++)
        vkb_check_value(r, (uint64_t)i, out[i], ref[i], bounds[i]);
    vkb_check_finish(r);
}

/* CU_RES's output CU (BYTES) compared with VK_RES's VK through the runner's own save and compare, as --backend all
 * does: Vulkan's first */
static void compare_pair(vkb_result *vk_res, void *vk, vkb_result *cu_res, void *cu, size_t bytes)
{
    saved_outputs saved;
    vkb_plan vk_plan, cu_plan;
    vk_res->backend = "vulkan", cu_res->backend = "cuda";
    memset(&vk_plan, 0, sizeof vk_plan);
    memset(&cu_plan, 0, sizeof cu_plan);
    vkb_plan_buffer_add(&vk_plan, bytes, VKB_BUF_OUTPUT, vk);
    vkb_plan_buffer_add(&cu_plan, bytes, VKB_BUF_OUTPUT, cu);
    memset(&saved, 0, sizeof saved);
    vkb_compare_save(&saved, &vk_plan, vk_res);
    vkb_compare_outputs(cu_res, &cu_plan, &saved);
    vkb_compare_free(&saved);
}

/* --backend all where the bounds differ from element to element (host/core/runner/compare.c): each API's
 * output of eight floats checked against bounds of 1/64, 1 at element 5. Both pass, their worst element 1
 * (1/128 off either way: the checks' tolerance is 1/64, their largest bound 1); they are 0.75 apart at
 * element 5, within its bounds summed but 24x the worst elements' bounds summed, and 2 apart at element 7,
 * the largest bounds summed exactly: ok*, no FAIL of a correct row. 2.25 apart at element 7: FAIL, element 7
 * named. */
static void cross_per_element_bounds(void)
{
    static const double bounds[7] = {0x1p-6, 0x1p-6, 0x1p-6, 0x1p-6, 0x1p-6, 1.0, 0x1p-6};
    for (int beyond = 0; beyond < 2; beyond++) {
        float ref[8], vk[8], cu[8];
        vkb_result vk_res, cu_res;
        for (int i = 0; i < 8; i++)
            ref[i] = vk[i] = cu[i] = (float)i + 1;
        vk[1] += 0x1p-7f, cu[1] -= 0x1p-7f;
        vk[5] += 0.375f, cu[5] -= 0.375f;
        cu[7] += beyond ? 2.25f : 2.0f;
        memset(&vk_res, 0, sizeof vk_res);
        memset(&cu_res, 0, sizeof cu_res);
        sampled_check(&vk_res.check, vk, ref, bounds);
        sampled_check(&cu_res.check, cu, ref, bounds);
        ASSERT(vk_res.check.pass && cu_res.check.pass);
        ASSERT(vk_res.check.tolerance == 0x1p-6 && cu_res.check.tolerance == 0x1p-6);
        ASSERT(vk_res.check.max_bound == 1.0 && cu_res.check.max_bound == 1.0);
        compare_pair(&vk_res, vk, &cu_res, cu, sizeof vk);
        ASSERT(cu_res.cross && cu_res.cross_differing == 3 && cu_res.cross_max_diff == (beyond ? 2.25 : 2.0));
        ASSERT(cu_res.cross_fail == beyond && cu_res.status == (beyond ? VKB_RES_FAIL : VKB_RES_OK));
        if (beyond)
            ASSERT(cu_res.cross_index == 7 && cu_res.check.bad == 1 && cu_res.cross_this == 10.25 &&
                   cu_res.cross_other == 8.0 &&
                   strcmp(cu_res.check.method, "differs from vulkan at [7]: 10.25 vs 8 (> 2)") == 0);
    }
}

/* Two exact checks (every bound 0): any differing bit fails the compare, even words equal as floats (the int32
 * INT_MIN beside 0 reads as -0.0 beside +0.0); a compare that took them as floats with a tolerance of 0 passes it */
static void cross_exact_bits(void)
{
    uint32_t vk[4] = {7, 1, 0, 3}, cu[4] = {7, 1, 0x80000000u, 3};
    vkb_result vk_res, cu_res;
    memset(&vk_res, 0, sizeof vk_res);
    memset(&cu_res, 0, sizeof cu_res);
    vk_res.check.pass = cu_res.check.pass = 1; /* both exact: tolerance and max_bound 0 */
    compare_pair(&vk_res, vk, &cu_res, cu, sizeof vk);
    ASSERT(cu_res.cross && cu_res.cross_differing == 1 && cu_res.cross_fail && cu_res.status == VKB_RES_FAIL);
    ASSERT(cu_res.cross_index == 2);
}

/* A spread above 10% is marked where it happens, and the legend says what it means; below, nothing */
static void noisy_rows(void)
{
    char *out, *row;
    double quiet[] = {1.0e6, 1.02e6, 1.03e6, 1.04e6, 1.05e6}, busy[] = {1.0e6, 1.2e6, 1.3e6, 1.6e6, 3e6};
    setup(0);
    nresults = 3;
    vkb_stats_compute(quiet, 5, &results[0].time_ns); /* IQR 2%: the ceiling */
    vkb_stats_compute(busy, 5, &results[1].time_ns);  /* IQR 31% */
    vkb_stats_compute(quiet, 5, &results[2].time_ns);
    results[0].time_ns.settled = results[1].time_ns.settled = results[2].time_ns.settled = 1;
    results[2].suspect = 0;
    {
        FILE *f = tmpfile();
        vkb_run_settings set = run_settings;
        ASSERT(feed(vkb_sink_table_create(f, 0), &set, -1) == VKB_EXIT_OK);
        out = slurp(f);
    }
    row = strstr(out, "\na_variant_whose");
    ASSERT(row && strstr(row, " 31 ! ") && strstr(row, " 31 ! ") < strchr(row + 1, '\n'));
    row = strstr(out, "\napi_copy");
    ASSERT(row && strstr(row, " 1.9 ") && !memchr(row, '!', (size_t)(strchr(row + 1, '\n') - row)));
    ASSERT(strstr(out, "IQR% !: a spread above 10%: the repetitions disagree, so the machine was busy or the clock "
                       "unstable") != NULL);
    /* quiet rows only: no marker, no legend line */
    setup(0);
    nresults = 1;
    vkb_stats_compute(quiet, 5, &results[0].time_ns);
    {
        FILE *f = tmpfile();
        ASSERT(feed(vkb_sink_table_create(f, 0), &run_settings, -1) == VKB_EXIT_OK);
        out = slurp(f);
    }
    ASSERT(strstr(out, "IQR% !") == NULL && strstr(out, "machine was busy") == NULL);
}

/* --robustness disabled: Vulkan rows named NAME@nobc (a row of both APIs by its Vulkan side), the legend says what
 * it means; CUDA-only rows and a default run carry no marker and no legend line */
static void nobc_rows(void)
{
    char *out;
    vkb_run_settings set = run_settings;
    set.paired = 1;
    set.robustness_off = 1;
    setup(1);
    for (int i = 0; i < nresults; i++)
        if (strcmp(results[i].backend, "vulkan") == 0)
            results[i].robustness = VKB_ROBUSTNESS_DISABLED;
    {
        FILE *f = tmpfile();
        ASSERT(feed(vkb_sink_table_create(f, 0), &set, -1) == VKB_EXIT_OK);
        out = slurp(f);
    }
    ASSERT(strstr(out, "\napi_copy@nobc ") != NULL);
    ASSERT(strstr(out, "@nobc: Vulkan pipelines built without the driver's bounds checks on buffer accesses "
                       "(--robustness disabled); CUDA rows are unaffected") != NULL);
    out = table_text(1, 0);
    ASSERT(strstr(out, "@nobc") == NULL);
}

/* --repeat 3: the table shows a case's three runs as one row (median of the medians, the spread between the
 * runs, marked past 10%), the JSON and CSV keep each run with its number */
static void repeat_rows(void)
{
    double x[3][3] = {{1.0e6, 1.0e6, 1.0e6}, {1.3e6, 1.3e6, 1.3e6}, {1.1e6, 1.1e6, 1.1e6}};
    vkb_run_settings set = run_settings;
    FILE *f = tmpfile();
    char *out, *row;
    set.repeat = 3;
    nresults = 0;
    setup(0);
    nresults = 0;
    for (int k = 0; k < 3; k++) { /* in rounds, as the runner sends them: ceiling, kernel; three times */
        vkb_result *ceil = add("vulkan", 0, VKB_RES_OK), *r = add("vulkan", 2, VKB_RES_OK);
        timed(ceil, 1e6, 100.0, 1);
        vkb_stats_compute(x[k], 3, &r->time_ns);
        r->timed = 1, r->time_ns.settled = 1, r->work = 1e6, r->metric = 1e6 / x[k][0];
        r->ceiling = ceil, r->fraction = r->metric / 100.0;
        ceil->repeats = r->repeats = 3;
        ceil->repeat = r->repeat = k;
    }
    ASSERT(feed(vkb_sink_table_create(f, 0), &set, -1) == VKB_EXIT_OK);
    out = slurp(f);
    ASSERT(strstr(out, "IQR%  run%") != NULL);
    row = strstr(out, "\nvec4 ");
    ASSERT(row && !strstr(row + 1, "\nvec4 ")); /* one row for the three runs */
    /* median of 1.0, 1.3, 1.1 ms: 1.1 ms; 9 repetitions; runs (1.3 - 1.0) / 1.1 = 27% apart */
    ASSERT(row && strstr(row, "1.100ms     9   0.0  27 !     0.909") != NULL);
    ASSERT(strstr(out, "--repeat 3: a row is the case's 3 runs") && strstr(out, "! above 10%: the runs disagree"));
    ASSERT(strstr(out, "run: 2 passed, 0 failed, 0 skipped") != NULL); /* rows, not runs */
    make_tmpdir();
    ASSERT(feed(vkb_sink_json_create(path_in("rep.json")), &set, -1) == VKB_EXIT_OK);
    out = read_text(path_in("rep.json"));
    ASSERT(strstr(out, "\"paired\": false,\n    \"repeat\": 3,") != NULL);
    row = strstr(out, "\"variant\": \"vec4\"");
    for (int k = 0; k < 3; k++) {
        char want[32];
        snprintf(want, sizeof want, "\"repeat\": %d,", k);
        ASSERT(row && strstr(row, want));
        row = row ? strstr(row + 1, "\"variant\": \"vec4\"") : NULL;
    }
    ASSERT(feed(vkb_sink_csv_create(path_in("rep.csv")), &set, -1) == VKB_EXIT_OK);
    out = read_text(path_in("rep.csv"));
    /* the repeat column follows suspect and suspect_reason (fleet's device columns after it) */
    ASSERT(strstr(out, ",suspect,suspect_reason,repeat,subgroup_size,") && strstr(out, ",false,,0,") &&
           strstr(out, ",false,,2,"));
    unlink(path_in("rep.json"));
    unlink(path_in("rep.csv"));
    rmdir(tmpdir);
    /* stopped in round 1: the cases are shown from the runs they have (vec4: one, so no spread) */
    f = tmpfile();
    ASSERT(feed(vkb_sink_table_create(f, 0), &set, 3) == VKB_EXIT_OK);
    out = slurp(f);
    row = strstr(out, "\nvec4 ");
    ASSERT(row && strstr(row, "1.000ms     3   0.0     -") && strstr(out, "\napi_copy "));
    ASSERT(strstr(out, "run: 2 passed, 0 failed, 0 skipped on ") && strstr(out, "(stopped early)\n"));
    /* both APIs: one line per case, with the larger of their spreads between runs (CUDA's runs agree) */
    set.paired = 1;
    for (int k = 0; k < 3; k++) {
        vkb_result *r = add("cuda", 2, VKB_RES_OK);
        vkb_stats_compute(x[0], 3, &r->time_ns);
        r->timed = 1, r->time_ns.settled = 1, r->work = 1e6, r->metric = 1.0;
        r->repeats = 3, r->repeat = k;
    }
    f = tmpfile();
    ASSERT(feed(vkb_sink_table_create(f, 0), &set, -1) == VKB_EXIT_OK);
    out = slurp(f);
    row = strstr(out, "\nvec4 ");
    ASSERT(row && !strstr(row + 1, "\nvec4 ") && strstr(row, "0.909  0.91% a         1") && strstr(row, "  27 ! ") &&
           strstr(row, "  27 ! ") < strchr(row + 1, '\n'));
    /* without --repeat: no run% column, no repeat field */
    ASSERT(strstr(table_text(0, 0), "run%") == NULL);
}

/* N timed runs of one case (vec4 on Vulkan, 1 ms each, settled), the runs in RUNS and pointers to them in P. */
static void repeat_case(vkb_result *runs, const vkb_result **p, int n)
{
    double x[3] = {1.0e6, 1.0e6, 1.0e6};
    memset(runs, 0, (size_t)n * sizeof *runs);
    for (int k = 0; k < n; k++) {
        runs[k].family = &family, runs[k].variant = &variants[2], runs[k].backend = "vulkan";
        runs[k].status = VKB_RES_OK;
        runs[k].timed = 1;
        runs[k].work = 1e6;
        runs[k].repeats = n, runs[k].repeat = k;
        vkb_stats_compute(x, 3, &runs[k].time_ns);
        runs[k].time_ns.settled = 1;
        runs[k].check.bad_row = runs[k].check.bad_col = -1;
        if (p)
            p[k] = &runs[k];
    }
}

/* --repeat rounds that disagree on a flag fold into a row that keeps it, whichever round raised it
 * (the first, a middle or the last): one SUSPECT round makes the row suspect, with that round's reason; one
 * failed round makes the row that failed round. */
static void repeat_flags_disagree(void)
{
    enum { N = 3 };
    for (int odd = 0; odd < N; odd++) {
        vkb_result runs[N];
        const vkb_result *p[N];
        vkb_folded f;
        repeat_case(runs, p, N);
        runs[odd].suspect = 1;
        snprintf(runs[odd].suspect_reason, sizeof runs[odd].suspect_reason, "round %d above the bound", odd);
        vkb_repeats_fold(p, N, &f);
        ASSERT(f.r.status == VKB_RES_OK && f.r.suspect == 1);
        ASSERT(strcmp(f.r.suspect_reason, odd == 0   ? "round 0 above the bound"
                                          : odd == 1 ? "round 1 above the bound"
                                                     : "round 2 above the bound") == 0);
        runs[odd].suspect = 0;
        runs[odd].status = VKB_RES_FAIL;
        runs[odd].timed = 0;
        runs[odd].check.bad = 7;
        vkb_repeats_fold(p, N, &f);
        ASSERT(f.r.status == VKB_RES_FAIL && f.r.check.bad == 7 && f.r.repeat == -1);
        /* the same through the collector the table uses: the row comes with the last round */
        {
            vkb_repeats rs = {0};
            const vkb_folded *row = NULL;
            for (int k = 0; k < N; k++) {
                const vkb_folded *got = vkb_repeats_add(&rs, &runs[k]);
                ASSERT((got != NULL) == (k == N - 1));
                row = got ? got : row;
            }
            ASSERT(row && row->r.status == VKB_RES_FAIL && row->r.check.bad == 7);
            vkb_repeats_free(&rs);
        }
    }
}

/* --repeat rounds that disagree on "settled": the row is settled only if every round settled, so one round
 * unsettled (the first, a middle or the last) marks the row "~" and the legend explains it; every round settled, no
 * "~". Rounds are built in memory and fed to the fold and to the table, as the runner sends them. */
static void repeat_settled_disagree(void)
{
    enum { N = 3 };
    vkb_run_settings set = run_settings;
    set.repeat = N;
    for (int odd = -1; odd < N; odd++) {
        const vkb_result *p[N];
        vkb_folded f;
        FILE *out = tmpfile();
        char *text, *row, *end;
        setup(0);
        nresults = 0;
        repeat_case(results, p, N);
        nresults = N;
        if (odd >= 0)
            results[odd].time_ns.settled = 0;
        vkb_repeats_fold(p, N, &f);
        ASSERT(f.r.status == VKB_RES_OK && f.r.time_ns.settled == (odd < 0));
        ASSERT(feed(vkb_sink_table_create(out, 0), &set, -1) == VKB_EXIT_OK);
        text = slurp(out);
        row = strstr(text, "\nvec4 ");
        end = row ? strchr(row + 1, '\n') : NULL;
        ASSERT(row && end && !strstr(end, "\nvec4 ")); /* one row for the rounds */
        if (row && end) {
            char *mark = strstr(row, " ~ ");
            ASSERT((mark != NULL && mark < end) == (odd >= 0));
            ASSERT(strstr(row, " ok") && strstr(row, " ok") < end);
        }
        ASSERT((strstr(text, "~: the median had not settled") != NULL) == (odd >= 0));
    }
}

/* The device under test is named first and in the closing line of the table and the matrix, on stderr by the
 * progress when the table goes elsewhere, and with its vendor and kind in the JSON */
static void device_named(void)
{
    FILE *f = tmpfile();
    char *out, *last;
    vkb_run_settings set = run_settings;
    out = table_text(0, 0);
    ASSERT(strncmp(out,
                   "device: vulkan: llvmpipe \xc3\x28 (LLVM 15); vendor Mesa; driver Mesa 22.3.6; Vulkan ; a "
                   "CPU implementation (lavapipe): no GPU is being tested\ndevice: cuda: NVIDIA H100; vendor ID 0x0; "
                   "driver CUDA driver 13.0; compute capability ; a discrete GPU\n\n== ",
                   230) == 0);
    last = strrchr(out, '\n');
    while (last > out && last[-1] != '\n')
        last--;
    ASSERT(strcmp(last, "run: 2 passed, 1 failed, 1 skipped, 1 suspect on llvmpipe \xc3\x28 (LLVM 15), driver Mesa "
                        "22.3.6, CPU implementation; NVIDIA H100, driver CUDA driver 13.0, discrete GPU\n") == 0);
    /* one GPU through both APIs: named once, with each API's driver */
    snprintf(vulkan_backend.caps.name, sizeof vulkan_backend.caps.name, "NVIDIA H100");
    vulkan_backend.caps.is_cpu = 0;
    snprintf(vulkan_backend.caps.type, sizeof vulkan_backend.caps.type, "discrete");
    {
        vkb_backend *both[] = {&vulkan_backend, &cuda_backend};
        char buf[400];
        ASSERT(strcmp(vkb_identity_short(both, 2, buf, sizeof buf), "NVIDIA H100 (vulkan: driver Mesa 22.3.6; cuda: "
                                                                    "driver CUDA driver 13.0), discrete GPU") == 0);
    }
    /* the matrix: first line, each family's heading, the closing line */
    set.timed = 0;
    setup(0);
    ASSERT(feed(vkb_sink_matrix_create(f, 0), &set, -1) == VKB_EXIT_OK);
    out = slurp(f);
    ASSERT(strncmp(out, "device: vulkan: llvmpipe", 24) == 0);
    ASSERT(strstr(out, "\n== validate memory.fake on llvmpipe \xc3\x28 (LLVM 15) and NVIDIA H100\n") != NULL);
    ASSERT(strstr(out, "\nvalidate: 3 passed, 1 failed, 1 skipped on llvmpipe \xc3\x28 (LLVM 15), driver Mesa 22.3.6, "
                       "CPU implementation; NVIDIA H100") != NULL);
    /* the JSON's devices */
    make_tmpdir();
    setup(0);
    ASSERT(feed(vkb_sink_json_create(path_in("d.json")), &run_settings, -1) == VKB_EXIT_OK);
    out = read_text(path_in("d.json"));
    ASSERT(strstr(out, "\"vendor\": \"Mesa\",\n      \"vendor_id\": 65541,\n      \"device_id\": 0,\n      "
                       "\"cpu_implementation\": true,") != NULL);
    ASSERT(strstr(out, "\"vendor\": null,\n      \"vendor_id\": 0,\n      \"device_id\": null,\n      "
                       "\"cpu_implementation\": false,") != NULL); /* CUDA: no device ID */
    unlink(path_in("d.json"));
    rmdir(tmpdir);
}

/* Statistics fewer repetitions cannot give are null in the JSON and empty in the CSV, never 0 */
static void single_rep_nulls(void)
{
    char *text, *row;
    double one = 2e6, two[] = {2e6, 3e6};
    make_tmpdir();
    setup(0);
    nresults = 3; /* the ceiling, one row of 1 repetition, one of 2 */
    vkb_stats_compute(&one, 1, &results[1].time_ns);
    vkb_stats_compute(two, 2, &results[2].time_ns);
    results[1].time_ns.settled = results[2].time_ns.settled = 1;
    ASSERT(feed(vkb_sink_json_create(path_in("one.json")), &run_settings, -1) == VKB_EXIT_OK);
    text = read_text(path_in("one.json"));
    row = strstr(text, "\"a_variant_whose");
    ASSERT(row && strstr(row, "\"q1\": null,\n        \"median\": 2,\n        \"q3\": null,") &&
           strstr(row, "\"stddev\": null,\n        \"iqr_over_median\": null\n"));
    row = strstr(text, "\"vec4\"");
    ASSERT(row && strstr(row, "\"q1\": null") && strstr(row, "\"iqr_over_median\": null") &&
           strstr(row, "\"stddev\": 0.7071"));
    row = strstr(text, "\"api_copy\""); /* five repetitions: every statistic */
    ASSERT(row && strstr(row, "\"q1\": 2,") && strstr(row, "\"iqr_over_median\": 0.1") &&
           strstr(row, "\"iqr_over_median\": 0.1") < strstr(row, "\"a_variant_whose"));
    setup(0);
    nresults = 2;
    vkb_stats_compute(&one, 1, &results[1].time_ns);
    ASSERT(feed(vkb_sink_csv_create(path_in("one.csv")), &run_settings, -1) == VKB_EXIT_OK);
    text = read_text(path_in("one.csv"));
    ASSERT(strstr(text, ",1,false,2,,2,,2,2,,,GB/s,") != NULL); /* reps 1: q1, q3, stddev, IQR empty */
    unlink(path_in("one.json"));
    unlink(path_in("one.csv"));
    rmdir(tmpdir);
}

/* A CSV of a run stopped early ends with a comment line saying so; a whole run's does not */
static void csv_interrupted(void)
{
    char *text;
    make_tmpdir();
    setup(0);
    ASSERT(feed(vkb_sink_csv_create(path_in("cut.csv")), &run_settings, 2) == VKB_EXIT_OK);
    text = read_text(path_in("cut.csv"));
    ASSERT(strlen(text) > 29 && strcmp(text + strlen(text) - 29, "stopped before its last case\n") == 0);
    ASSERT(strstr(text, "\n# interrupted: ") != NULL);
    setup(0);
    ASSERT(feed(vkb_sink_csv_create(path_in("whole.csv")), &run_settings, -1) == VKB_EXIT_OK);
    ASSERT(strstr(read_text(path_in("whole.csv")), "# interrupted") == NULL);
    unlink(path_in("cut.csv"));
    unlink(path_in("whole.csv"));
    rmdir(tmpdir);
}

/* Count CSV fields of one line, quotes respected. */
static int csv_fields(const char *line)
{
    int n = 1, quoted = 0;
    for (; *line && (*line != '\n' || quoted); line++) {
        if (*line == '"')
            quoted = !quoted;
        else if (*line == ',' && !quoted)
            n++;
    }
    return n;
}

static void csv_rows(void)
{
    char *text, *line;
    int lines = 0, header;
    make_tmpdir();
    setup(0);
    ASSERT(feed(vkb_sink_csv_create(path_in("r.csv")), &run_settings, -1) == VKB_EXIT_OK);
    text = read_text(path_in("r.csv"));
    header = csv_fields(text);
    ASSERT(header == 39); /* 30, repeat, subgroup_size, then the device's index, UUID, PCI address, driver and host
                               (where each device is), robustness, and the named values */
    ASSERT(strstr(text, "device,shape,constants,status,skip_reason,reps,settled") != NULL);
    ASSERT(strstr(text, "predicted") && strstr(text, "iqr_over_median"));
    for (line = text; *line; line = strchr(line, '\n') + 1) {
        ASSERT(csv_fields(line) == header);
        lines++;
    }
    ASSERT(lines == 1 + nresults);
    ASSERT(strstr(text, ",\"BM=64,BN=\"\"64\"\"\",") != NULL);         /* a comma and quotes inside a field */
    ASSERT(strstr(text, ",needs subgroup arithmetic, which") == NULL); /* quoted: it has a comma */
    ASSERT(strstr(text, "llvmpipe \xef\xbf\xbd(") != NULL);
    unlink(path_in("r.csv"));
    rmdir(tmpdir);
}

/* Run FN in a child; returns its exit status (or 128 + signal). */
static int in_child(void (*fn)(void))
{
    int status;
    pid_t pid = fork();
    if (pid == 0) {
        fn();
        exit(0);
    }
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void create_missing_dir(void)
{
    vkb_sink_json_create("/nonexistent-vkb-dir/out.json");
}
static void create_dir_target(void)
{
    vkb_sink_csv_create(tmpdir);
}
static void die_mid_run(void)
{
    vkb_sink *s = vkb_sink_json_create(path_in("mid.json"));
    (void)s;
    vkb_die(VKB_EXIT_RESOURCE, "out of device memory (test)");
}

/* Writes beyond 2 KiB fail (EFBIG): a full disk, for any user, root included. */
static void full_disk(void)
{
    struct rlimit lim = {2048, 2048};
    signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &lim);
    setup(1);
    exit(feed(vkb_sink_json_create(path_in("good.json")), &run_settings, -1));
}

static void full_disk_csv(void)
{
    struct rlimit lim = {200, 200};
    signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &lim);
    setup(1);
    exit(feed(vkb_sink_csv_create(path_in("good.csv")), &run_settings, -1));
}

static void file_safety(void)
{
    struct stat st;
    make_tmpdir();
    /* a bad path fails at creation, before any work, with exit 6 */
    ASSERT(in_child(create_missing_dir) == VKB_EXIT_OUTPUT);
    ASSERT(in_child(create_dir_target) == VKB_EXIT_OUTPUT);
    /* /dev/full: every write fails; end() says so with exit 6, and the device stays a device */
    if (stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode)) {
        setup(0);
        ASSERT(feed(vkb_sink_json_create("/dev/full"), &run_settings, -1) == VKB_EXIT_OUTPUT);
        setup(0);
        ASSERT(feed(vkb_sink_csv_create("/dev/full"), &run_settings, -1) == VKB_EXIT_OUTPUT);
        ASSERT(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode));
    } else {
        printf("/dev/full is not the full device here: that part not tested\n");
    }
    /* a full disk midway: exit 6, the last good file kept, no temporary file left */
    write_text(path_in("good.json"), "GOOD");
    write_text(path_in("good.csv"), "GOOD");
    ASSERT(in_child(full_disk) == VKB_EXIT_OUTPUT);
    ASSERT(in_child(full_disk_csv) == VKB_EXIT_OUTPUT);
    ASSERT(strcmp(read_text(path_in("good.json")), "GOOD") == 0);
    ASSERT(strcmp(read_text(path_in("good.csv")), "GOOD") == 0);
    ASSERT(files_in_dir() == 2);
    /* a run that dies midway leaves no temporary file */
    ASSERT(in_child(die_mid_run) == VKB_EXIT_RESOURCE);
    ASSERT(files_in_dir() == 2);
    /* a read-only directory (root may write anyway: then there is nothing to test) */
    if (geteuid() != 0) {
        chmod(tmpdir, 0500);
        ASSERT(in_child(create_dir_target) == VKB_EXIT_OUTPUT);
        chmod(tmpdir, 0700);
    }
    unlink(path_in("good.json"));
    unlink(path_in("good.csv"));
    rmdir(tmpdir);
}

static void concurrent_runs(void)
{
    vkb_sink *a, *b;
    make_tmpdir();
    setup(0);
    /* two runs writing the same file hold two temporary files, and each result is whole */
    a = vkb_sink_json_create(path_in("same.json"));
    b = vkb_sink_json_create(path_in("same.json"));
    ASSERT(files_in_dir() == 2);
    ASSERT(feed(a, &run_settings, -1) == VKB_EXIT_OK);
    ASSERT(feed(b, &run_settings, -1) == VKB_EXIT_OK);
    ASSERT(files_in_dir() == 1);
    ASSERT(strstr(read_text(path_in("same.json")), "\"interrupted\": false\n}\n") != NULL);
    /* a long path: no fixed buffer to overflow */
    {
        char name[300];
        memset(name, 'x', 250);
        snprintf(name + 250, sizeof name - 250, ".json");
        setup(0);
        ASSERT(feed(vkb_sink_json_create(path_in(name)), &run_settings, -1) == VKB_EXIT_OK);
        ASSERT(files_in_dir() == 2);
        unlink(path_in(name));
    }
    unlink(path_in("same.json"));
    rmdir(tmpdir);
}

static void progress_lines(void)
{
    FILE *f = tmpfile();
    int saved = dup(2);
    char *out;
    dup2(fileno(f), 2);
    setup(1);
    feed(vkb_sink_progress_create(), &run_settings, -1);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    out = slurp(f);
    ASSERT(strstr(out, "10 cases (1 family: 1 shape and 5 variants in all; 2 backends)") != NULL);
    /* no table on this file: the progress names the devices first */
    ASSERT(strncmp(out, "vkbench: device: vulkan: llvmpipe", 33) == 0 &&
           strstr(out, "\nvkbench: device: cuda: NVIDIA"));
    ASSERT(strstr(out, "[10/10] memory.fake/broken cuda 16777216 FAIL") != NULL);
    ASSERT(strstr(out, "[11/") == NULL);
}

/* json_stream FILE: leave the document in FILE */
static int out_arg(void)
{
    json_out = unit_arg(0);
    return 0;
}

/* A time per operation (latency, cache.chase): the fastest row is the one of fewest microseconds, not the most;
 * a SUSPECT row, faster still, is never the answer. Without ceilings the metric alone decides. */
static void fastest_lower_is_better(void)
{
    vkb_family timed_family = family;
    FILE *f = tmpfile();
    vkb_backend *backends[] = {&vulkan_backend, &cuda_backend};
    vkb_sink *s = vkb_sink_table_create(f, 0);
    const char *out;
    timed_family.metric = "us";
    timed_family.time_unit_ns = 1e3;
    setup(0);
    nresults = 0;
    timed(add("vulkan", 1, VKB_RES_OK), 5e3, 5.0, 1);
    timed(add("vulkan", 2, VKB_RES_OK), 2e3, 2.0, 1); /* the fastest */
    timed(add("vulkan", 4, VKB_RES_OK), 9e3, 9.0, 1);
    timed(add("vulkan", 3, VKB_RES_OK), 1e3, 1.0, 1);
    results[3].suspect = 1;
    snprintf(results[3].suspect_reason, sizeof results[3].suspect_reason, "faster than its timer can tell");
    for (int i = 0; i < nresults; i++)
        results[i].family = &timed_family;
    s->begin(s, &run_settings, backends, 2, &run_plan);
    s->family_begin(s, &timed_family);
    for (int i = 0; i < nresults; i++)
        s->result(s, &results[i]);
    s->family_end(s, &timed_family);
    s->end(s, 0);
    vkb_sink_destroy(s);
    out = slurp(f);
    fputs(out, stdout);
    ASSERT(strstr(out, "fastest in this family: vec4 (vulkan) 16777216, 2 ± 0.1 us (no ceiling ran)") != NULL);
}

UNIT_TESTS_SETUP(out_arg, {"table_fits", table_fits}, {"table_legend", table_legend}, {"table_markers", table_markers},
                 {"legend_once", legend_once}, {"fits_where_it_matters", fits_where_it_matters},
                 {"plan_line", plan_line}, {"paired_fits", paired_fits}, {"matrix_skips", matrix_skips},
                 {"cross_failure", cross_failure}, {"json_stream", json_stream}, {"json_interrupted", json_interrupted},
                 {"csv_rows", csv_rows}, {"file_safety", file_safety}, {"concurrent_runs", concurrent_runs},
                 {"progress_lines", progress_lines}, {"single_rep_nulls", single_rep_nulls},
                 {"csv_interrupted", csv_interrupted}, {"device_named", device_named}, {"noisy_rows", noisy_rows},
                 {"repeat_rows", repeat_rows}, {"repeat_flags_disagree", repeat_flags_disagree},
                 {"repeat_settled_disagree", repeat_settled_disagree}, {"nobc_rows", nobc_rows},
                 {"fastest_lower_is_better", fastest_lower_is_better}, {"cross_outcomes", cross_outcomes},
                 {"cross_per_element_bounds", cross_per_element_bounds}, {"cross_exact_bits", cross_exact_bits})
