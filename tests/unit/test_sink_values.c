/* test_sink_values.c - the values the result files carry: one fabricated result with a distinct value in every
 * field, written by the JSON and the CSV sinks, and every numeric field read back and compared with the
 * result (and settings, plan, device) it came from. test_sinks.c checks the files' form. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "families.h"
#include "listing.h"
#include "sinks.h"
#include "unit.h"
#include "util.h"

static double predicts(const vkb_variant *v, const vkb_case *c, const vkb_caps *caps)
{
    (void)v, (void)c, (void)caps;
    return 0.625;
}

static const vkb_variant variants[] = {{.name = "api_copy", .flags = VKB_VAR_CEILING}, {.name = "tiled"}};
static const vkb_family family = {.name = "matmul.fake",
                                  .dims = {"m", "n", "k"},
                                  .ndims = 3,
                                  .metric = "GFLOP/s",
                                  .variants = variants,
                                  .nvariants = 2,
                                  .predict = predicts};
static vkb_backend vulkan_backend = {.name = "vulkan"}, cuda_backend = {.name = "cuda"};
static vkb_result ceiling, result;

static const vkb_run_settings settings = {.command = "run",
                                          .command_line = "vkbench run matmul.fake",
                                          .seed = 1234567891011ull,
                                          .timed = 1,
                                          .warmup_ms = 21.5,
                                          .first_warmup_ms = 47.25,
                                          .budget_ms = 313.5,
                                          .reps = 9,
                                          .spec = "BM=64",
                                          .robustness_off = 1};
static const vkb_run_plan plan = {.cases = 11, .shapes = 3, .variants = 5, .backends = 2, .estimate_s = 42.75};

/* Every field distinct from every other (and from its neighbours' likely mix-ups). */
static void fabricate(void)
{
    vkb_caps *c = &vulkan_backend.caps;
    snprintf(c->name, sizeof c->name, "Fake GPU");
    c->subgroup_size = 32, c->subgroup_min = 16, c->subgroup_max = 64, c->max_shared_bytes = 49152;
    c->max_uniform_bytes = 65536, c->device_memory_bytes = 80ull << 30, c->cache_bytes = 52428800;
    c->compute_units = 132;
    snprintf(cuda_backend.caps.name, sizeof cuda_backend.caps.name, "Other GPU");
    memset(&ceiling, 0, sizeof ceiling);
    ceiling.family = &family, ceiling.variant = &variants[0], ceiling.backend = "cuda";
    ceiling.metric = 987.5;
    memset(&result, 0, sizeof result);
    result.family = &family, result.variant = &variants[1], result.backend = "vulkan";
    result.shape.d[0] = 257, result.shape.d[1] = 1031, result.shape.d[2] = 65;
    result.status = VKB_RES_FAIL;
    result.robustness = VKB_ROBUSTNESS_DISABLED;
    result.timed = 1;
    result.time_ns = (vkb_stats){.n = 7,
                                 .min = 1.1e6,
                                 .q1 = 1.3e6,
                                 .median = 1.7e6,
                                 .q3 = 1.9e6,
                                 .max = 2.3e6,
                                 .mean = 1.75e6,
                                 .stddev = 0.29e6,
                                 .settled = 1};
    result.work = 34439110.0;
    result.metric = 20.25;
    result.ceiling = &ceiling;
    result.fraction = 0.0205;
    result.predicted = 0.0375;
    result.cache_fits = 0;
    result.working_set_bytes = 2222223;
    result.check = (vkb_check){.bad = 3,
                               .checked = 264967,
                               .first_bad = 4130,
                               .worst_ratio = 17.5,
                               .max_error = 0.0078125,
                               .tolerance = 0.000446,
                               .max_bound = 0.0234375,
                               .bad_row = 4,
                               .bad_col = 6,
                               .bad_expected = 1.5625,
                               .bad_actual = -2.75,
                               .cols = 1031};
    snprintf(result.check.method, sizeof result.check.method, "exact");
    result.cross = 1, result.cross_differing = 12, result.cross_max_diff = 0.3125, result.cross_fail = 1;
    result.cross_index = 99, result.cross_buffer = 2, result.cross_this = 6.5, result.cross_other = -7.25;
    result.cross_backend = "cuda";
    vkb_result_value(&result, "theoretical", 51234.5, "GFLOP/s", "a rate from the data sheet");
    vkb_result_value(&result, "issue_bound", 61875.25, "GFLOP/s", "an issue limit");
    vkb_result_value(&result, "theoretical", 52468.75, "GFLOP/s", "a rate from the data sheet"); /* replaced */
    vkb_result_value(&result, "nothing", NAN, "GB/s", "not finite: not kept");
    result.npipelines = 1;
    result.pipelines[0].kernel = "matmul_tiled";
    snprintf(result.pipelines[0].executable, sizeof result.pipelines[0].executable, "CS");
    result.pipelines[0].nstat = 2;
    snprintf(result.pipelines[0].stat[0].name, 48, "registers");
    result.pipelines[0].stat[0].value = 72;
    snprintf(result.pipelines[0].stat[1].name, 48, "shared_bytes");
    result.pipelines[0].stat[1].value = 8704;
    result.pipelines[0].mc.valid = 1; /* --sass: each class its own count, 1000 + 7 k */
    snprintf(result.pipelines[0].mc.source, sizeof result.pipelines[0].mc.source, "nvdisasm");
    for (int k = 0; k < VKB_MC_NCLASS; k++)
        result.pipelines[0].mc.count[k] = 1000u + 7u * (unsigned)k;
}

static char *write_with(vkb_sink *s, const char *path)
{
    vkb_backend *backends[] = {&vulkan_backend, &cuda_backend};
    static char buf[65536];
    FILE *f;
    size_t n;
    s->begin(s, &settings, backends, 2, &plan);
    s->result(s, &result);
    ASSERT(s->end(s, 0) == VKB_EXIT_OK);
    vkb_sink_destroy(s);
    f = fopen(path, "r");
    n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[n] = 0;
    if (f)
        fclose(f);
    unlink(path);
    return buf;
}

/* The number after the keys KEYS (a NULL-ended path, each searched after the one before) in TEXT; NAN when
 * a key is missing or the value is not a number. */
static double json_at(const char *text, const char *const *keys)
{
    const char *p = text;
    char quoted[64], *end;
    double v;
    for (; *keys; keys++) {
        snprintf(quoted, sizeof quoted, "\"%s\":", *keys);
        p = strstr(p, quoted);
        if (!p)
            return NAN;
        p += strlen(quoted);
    }
    v = strtod(p, &end);
    return end == p ? NAN : v;
}
#define JSON(text, ...) json_at(text, (const char *const[]){__VA_ARGS__, NULL})

/* Equal to within the printed precision: %.10g in JSON, %.6g in CSV. */
static int near(double got, double want, double rel)
{
    return fabs(got - want) <= rel * fabs(want);
}

static void json_values(void)
{
    char *t;
    const vkb_result *r = &result;
    const double e = 1e-9;
    fabricate();
    t = write_with(vkb_sink_json_create("values.json"), "values.json");
    /* the header: settings, plan, device */
    ASSERT(JSON(t, "settings", "seed") == 1234567891011.0);
    ASSERT(JSON(t, "settings", "warmup_ms") == 21.5 && JSON(t, "settings", "first_warmup_ms") == 47.25);
    ASSERT(JSON(t, "settings", "budget_ms") == 313.5 && JSON(t, "settings", "reps") == 9);
    ASSERT(JSON(t, "plan", "cases") == 11 && JSON(t, "plan", "shapes") == 3 && JSON(t, "plan", "variants") == 5);
    ASSERT(JSON(t, "plan", "backends") == 2 && JSON(t, "plan", "estimate_s") == 42.75);
    ASSERT(JSON(t, "devices", "subgroup_size") == 32 && JSON(t, "devices", "subgroup_size_min") == 16);
    ASSERT(JSON(t, "devices", "subgroup_size_max") == 64 && JSON(t, "devices", "shared_memory_bytes") == 49152);
    ASSERT(JSON(t, "devices", "uniform_buffer_bytes") == 65536);
    ASSERT(JSON(t, "devices", "device_memory_bytes") == (double)(80ull << 30));
    ASSERT(JSON(t, "devices", "cache_bytes") == 52428800 && JSON(t, "devices", "compute_units") == 132);
    /* the result */
    ASSERT(JSON(t, "results", "shape", "m") == 257 && JSON(t, "results", "shape", "n") == 1031);
    ASSERT(JSON(t, "results", "shape", "k") == 65);
    ASSERT(JSON(t, "results", "reps") == 7);
    ASSERT(near(JSON(t, "results", "time_ms", "min"), r->time_ns.min / 1e6, e));
    ASSERT(near(JSON(t, "results", "time_ms", "q1"), r->time_ns.q1 / 1e6, e));
    ASSERT(near(JSON(t, "results", "time_ms", "median"), r->time_ns.median / 1e6, e));
    ASSERT(near(JSON(t, "results", "time_ms", "q3"), r->time_ns.q3 / 1e6, e));
    ASSERT(near(JSON(t, "results", "time_ms", "max"), r->time_ns.max / 1e6, e));
    ASSERT(near(JSON(t, "results", "time_ms", "mean"), r->time_ns.mean / 1e6, e));
    ASSERT(near(JSON(t, "results", "time_ms", "stddev"), r->time_ns.stddev / 1e6, e));
    ASSERT(near(JSON(t, "results", "time_ms", "iqr_over_median"), (1.9 - 1.3) / 1.7, e));
    ASSERT(JSON(t, "results", "metric", "value") == 20.25);
    ASSERT(JSON(t, "results", "metric", "ceiling") == 987.5);
    ASSERT(near(JSON(t, "results", "metric", "fraction"), 0.0205, e));
    ASSERT(near(JSON(t, "results", "predicted"), 0.0375, e));
    ASSERT(JSON(t, "results", "work") == 34439110.0);
    ASSERT(JSON(t, "results", "working_set_bytes") == 2222223);
    ASSERT(JSON(t, "results", "max_error") == 0.0078125);
    ASSERT(near(JSON(t, "results", "tolerance"), 0.000446, e));
    ASSERT(JSON(t, "results", "check", "checked") == 264967 && JSON(t, "results", "check", "wrong") == 3);
    ASSERT(JSON(t, "results", "first_wrong", "index") == 4130);
    ASSERT(JSON(t, "results", "first_wrong", "row") == 4 && JSON(t, "results", "first_wrong", "col") == 6);
    ASSERT(JSON(t, "results", "first_wrong", "expected") == 1.5625);
    ASSERT(JSON(t, "results", "first_wrong", "actual") == -2.75);
    ASSERT(JSON(t, "results", "error_over_tolerance") == 17.5);
    ASSERT(JSON(t, "results", "check", "max_bound") == 0.0234375);
    ASSERT(JSON(t, "results", "pipelines", "registers") == 72);
    ASSERT(JSON(t, "results", "pipelines", "shared_bytes") == 8704);
    for (int k = 0; k < VKB_MC_NCLASS; k++)
        ASSERT(JSON(t, "results", "pipelines", "machine_code", vkb_mc_class_names[k]) == 1000 + 7 * k);
    ASSERT(JSON(t, "results", "cross_backend", "differing_elements") == 12);
    ASSERT(JSON(t, "results", "cross_backend", "max_abs_diff") == 0.3125);
    ASSERT(JSON(t, "results", "first_beyond", "output") == 2 && JSON(t, "results", "first_beyond", "index") == 99);
    ASSERT(JSON(t, "results", "first_beyond", "here") == 6.5);
    ASSERT(JSON(t, "results", "first_beyond", "there") == -7.25);
    ASSERT(strstr(t, "\"ceiling_variant\": \"api_copy\"") && strstr(t, "\"ceiling_backend\": \"cuda\""));
    ASSERT(strstr(t, "\"settled\": true") && strstr(t, "\"fits_in_cache\": false"));
    /* the named values, each whole and in order, the replaced one once, the non-finite one not at all */
    { /* the named values, each whole and in order, the replaced one once, the non-finite one not at all */
        const char *v = strstr(t, "\"values\": [");
        const char *want[] = {"\"tag\": \"theoretical\"",
                              "\"value\": 52468.75",
                              "\"unit\": \"GFLOP/s\"",
                              "\"source\": \"a rate from the data sheet\"",
                              "\"tag\": \"issue_bound\"",
                              "\"value\": 61875.25",
                              "\"unit\": \"GFLOP/s\"",
                              "\"source\": \"an issue limit\"",
                              "]"};
        for (size_t i = 0; i < sizeof want / sizeof *want && v; i++)
            v = strstr(v + 1, want[i]);
        ASSERT(v != NULL && v < strstr(t, "\"work\""));
    }
    ASSERT(strstr(t, "51234.5") == NULL && strstr(t, "\"nothing\"") == NULL);
    { /* --robustness: in the settings and on the result, each after its own key */
        const char *set = strstr(t, "\"settings\""), *res = strstr(t, "\"results\"");
        const char *in_set = set ? strstr(set, "\"robustness\": \"disabled\"") : NULL;
        ASSERT(set && res && in_set && in_set < res && strstr(res, "\"robustness\": \"disabled\""));
    }
    if (unit_failures)
        fputs(t, stderr);
}

/* The text of KEY's value in flat object OBJECT of TEXT (up to its closing brace), into OUT; "" when the object
 * or the key is missing: a field left out of its object is not found in the next one. */
static const char *object_field(const char *text, const char *object, const char *key, char *out, size_t len)
{
    char quoted[64];
    const char *o, *end, *k;
    snprintf(quoted, sizeof quoted, "\"%s\": {", object);
    o = strstr(text, quoted);
    end = o ? strchr(o, '}') : NULL;
    snprintf(quoted, sizeof quoted, "\"%s\": ", key);
    k = o ? strstr(o, quoted) : NULL;
    if (!k || k > end)
        return strcpy(out, "");
    k += strlen(quoted);
    snprintf(out, len, "%.*s", (int)strcspn(k, ",\n}"), k);
    return out;
}
#define FIELD_IS(text, object, key, want) (strcmp(object_field(text, object, key, (char[64]){0}, 64), want) == 0)

/* A failure at the first element is reported at 0, not left out or written null: the check's own
 * place (index 0, row 0, col 0 of a 2-D output, found by vkb_check_words) and the cross-backend element
 * (output 0, index 0) reach the JSON as zeros; a 1-D check's row and col are null. */
static void json_zero_location(void)
{
    uint32_t ref[4] = {5, 6, 7, 8}, out[4] = {0, 6, 7, 9};
    char *t;
    fabricate();
    vkb_check_init(&result.check, "exact");
    result.check.cols = 2; /* a 2x2 output: element 0 is row 0, col 0 */
    vkb_check_words(&result.check, out, ref, 4);
    vkb_check_finish(&result.check);
    result.cross_index = 0, result.cross_buffer = 0, result.cross_this = 0, result.cross_other = 5;
    t = write_with(vkb_sink_json_create("zero.json"), "zero.json");
    ASSERT(FIELD_IS(t, "check", "checked", "4") && FIELD_IS(t, "check", "wrong", "2"));
    ASSERT(FIELD_IS(t, "first_wrong", "index", "0"));
    ASSERT(FIELD_IS(t, "first_wrong", "row", "0") && FIELD_IS(t, "first_wrong", "col", "0"));
    ASSERT(FIELD_IS(t, "first_wrong", "expected", "5") && FIELD_IS(t, "first_wrong", "actual", "0"));
    ASSERT(FIELD_IS(t, "first_beyond", "output", "0") && FIELD_IS(t, "first_beyond", "index", "0"));
    ASSERT(FIELD_IS(t, "first_beyond", "here", "0") && FIELD_IS(t, "first_beyond", "there", "5"));
    if (unit_failures)
        fputs(t, stderr);
    /* the same failure in a 1-D output: no row or column to name */
    vkb_check_init(&result.check, "exact");
    vkb_check_words(&result.check, out, ref, 4);
    vkb_check_finish(&result.check);
    t = write_with(vkb_sink_json_create("zero.json"), "zero.json");
    ASSERT(FIELD_IS(t, "first_wrong", "index", "0"));
    ASSERT(FIELD_IS(t, "first_wrong", "row", "null") && FIELD_IS(t, "first_wrong", "col", "null"));
}

/* Field I (0-based) of the CSV line LINE, into OUT (no quoted fields in this fixture). */
static const char *csv_field(const char *line, int i, char *out, size_t len)
{
    const char *p = line;
    size_t n;
    for (; i > 0 && p; i--)
        p = strpbrk(p, ",\n") && *strpbrk(p, ",\n") == ',' ? strchr(p, ',') + 1 : NULL;
    if (!p)
        return "";
    n = strcspn(p, ",\n");
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), p);
    return out;
}

/* The value in column NAME of the CSV's first row; NAN when empty or missing. */
static double csv_at(const char *text, const char *name)
{
    char field[128];
    const char *row = strchr(text, '\n');
    for (int i = 0; row; i++) {
        csv_field(text, i, field, sizeof field);
        if (!field[0])
            return NAN;
        if (strcmp(field, name) == 0) {
            char *end;
            double v = strtod(csv_field(row + 1, i, field, sizeof field), &end);
            return end == field ? NAN : v;
        }
    }
    return NAN;
}

static void csv_values(void)
{
    char *t;
    const vkb_result *r = &result;
    const double e = 1e-5;
    fabricate();
    t = write_with(vkb_sink_csv_create("values.csv"), "values.csv");
    ASSERT(csv_at(t, "reps") == 7);
    ASSERT(near(csv_at(t, "min_ms"), r->time_ns.min / 1e6, e));
    ASSERT(near(csv_at(t, "q1_ms"), r->time_ns.q1 / 1e6, e));
    ASSERT(near(csv_at(t, "median_ms"), r->time_ns.median / 1e6, e));
    ASSERT(near(csv_at(t, "q3_ms"), r->time_ns.q3 / 1e6, e));
    ASSERT(near(csv_at(t, "max_ms"), r->time_ns.max / 1e6, e));
    ASSERT(near(csv_at(t, "mean_ms"), r->time_ns.mean / 1e6, e));
    ASSERT(near(csv_at(t, "stddev_ms"), r->time_ns.stddev / 1e6, e));
    ASSERT(near(csv_at(t, "iqr_over_median"), (1.9 - 1.3) / 1.7, e));
    ASSERT(csv_at(t, "metric") == 20.25);
    ASSERT(csv_at(t, "ceiling") == 987.5);
    ASSERT(near(csv_at(t, "fraction"), 0.0205, e));
    ASSERT(near(csv_at(t, "predicted"), 0.0375, e));
    ASSERT(csv_at(t, "max_error") == 0.0078125);
    ASSERT(near(csv_at(t, "tolerance"), 0.000446, e));
    ASSERT(strstr(t, ",257x1031x65,") || strstr(t, ",257 x 1031 x 65,"));
    ASSERT(strstr(t, ",api_copy,cuda,"));
    ASSERT(strstr(t, ",robustness,values\n")); /* the last columns, header and row */
    ASSERT(strstr(t, ",disabled,theoretical=52468.8 GFLOP/s; issue_bound=61875.2 GFLOP/s\n"));
    if (unit_failures)
        fputs(t, stderr);
}

/* The text in column NAME of the CSV's first row, into OUT ("" when missing). */
static const char *csv_text_at(const char *text, const char *name, char *out, size_t len)
{
    char field[128];
    const char *row = strchr(text, '\n');
    out[0] = 0;
    for (int i = 0; row && csv_field(text, i, field, sizeof field)[0]; i++)
        if (strcmp(field, name) == 0)
            return csv_field(row + 1, i, out, len);
    return out;
}

/* The string of the result's "metric": {"name": ...} in the JSON TEXT, into OUT ("" when missing). */
static const char *json_metric_name(const char *text, char *out, size_t len)
{
    const char *p = strstr(text, "\"metric\": {");
    out[0] = 0;
    p = p ? strstr(p, "\"name\": \"") : NULL;
    if (p) {
        p += strlen("\"name\": \"");
        snprintf(out, len, "%.*s", (int)strcspn(p, "\""), p);
    }
    return out;
}

/* The peak family's integer rows (VKB_VAR_INTEGER_OPS in host/families/peak/rows.h) count
 * integer operations, so the JSON, the CSV, the table and `vkbench list` say GOP/s; its float rows GFLOP/s. */
static void integer_units(void)
{
    static const struct {
        const char *variant, *unit;
    } rows[] = {
        {"fma_f32", "GFLOP/s"}, {"fma_f16x2", "GFLOP/s"}, {"coopmat_f16_f32", "GFLOP/s"}, {"mad_i32", "GOP/s"},
        {"mad_i16", "GOP/s"},   {"dot_u8x4", "GOP/s"},    {"coopmat_s8_s32", "GOP/s"},    {"coopmat_u8_u32", "GOP/s"},
    };
    const vkb_family *peak = NULL;
    char got[64], line[256], *t;
    FILE *f;
    for (int i = 0; i < vkb_family_count; i++)
        peak = strcmp(vkb_families[i]->name, "peak") == 0 ? vkb_families[i] : peak;
    ASSERT(peak != NULL);
    if (!peak)
        return;
    for (size_t i = 0; i < VKB_COUNT(rows); i++) {
        const vkb_variant *v = vkb_variant_find(peak, rows[i].variant);
        ASSERT(v != NULL);
        if (!v)
            continue;
        fabricate();
        result.family = peak, result.variant = v, result.ceiling = NULL, result.status = VKB_RES_OK;
        t = write_with(vkb_sink_json_create("units.json"), "units.json");
        ASSERT(strcmp(json_metric_name(t, got, sizeof got), rows[i].unit) == 0);
        ASSERT(strstr(t, "\"better\": \"higher\""));
        t = write_with(vkb_sink_csv_create("units.csv"), "units.csv");
        ASSERT(strcmp(csv_text_at(t, "metric_name", got, sizeof got), rows[i].unit) == 0);
        /* the table names the unit above the row: its rate column's header */
        f = tmpfile();
        ASSERT(f != NULL);
        if (f) {
            vkb_sink *s = vkb_sink_table_create(f, 0);
            vkb_backend *backends[] = {&vulkan_backend};
            int header = 0;
            s->begin(s, &settings, backends, 1, &plan);
            s->family_begin(s, peak);
            s->result(s, &result);
            s->family_end(s, peak);
            s->end(s, 0);
            vkb_sink_destroy(s);
            rewind(f);
            while (fgets(line, sizeof line, f))
                header |= strncmp(line, "variant ", 8) == 0 && strstr(line, rows[i].unit) &&
                          (strcmp(rows[i].unit, "GOP/s") == 0) == (strstr(line, "GFLOP/s") == NULL);
            fclose(f);
            ASSERT(header);
        }
        if (unit_failures)
            fprintf(stderr, "%s: %s\n", rows[i].variant, got);
    }
    /* `vkbench list`: the family's units, and the integer rows marked */
    f = tmpfile();
    ASSERT(f != NULL);
    if (f) {
        int family = 0, marked = 0, unmarked = 0;
        vkb_list_families(f, 0);
        rewind(f);
        while (fgets(line, sizeof line, f)) {
            family |= strncmp(line, "peak: ", 6) == 0 && strstr(line, "[GFLOP/s, GOP/s;");
            marked += strstr(line, " mad_i32 ") && strstr(line, "(GOP/s)");
            marked += strstr(line, " coopmat_u8_u32 ") && strstr(line, "(GOP/s)");
            unmarked += strstr(line, " fma_f32 ") && !strstr(line, "(GOP/s)");
        }
        fclose(f);
        ASSERT(family && marked == 2 && unmarked == 1);
    }
}

/* "fastest in this family" weighs rates of one unit: peak's float row before a larger integer rate. */
static void fastest_of_one_unit(void)
{
    const vkb_family *peak = NULL;
    vkb_result fma, mad;
    char line[256];
    int fastest = 0;
    FILE *f = tmpfile();
    for (int i = 0; i < vkb_family_count; i++)
        peak = strcmp(vkb_families[i]->name, "peak") == 0 ? vkb_families[i] : peak;
    ASSERT(peak && f);
    if (!peak || !f)
        return;
    fabricate();
    result.family = peak, result.ceiling = NULL, result.status = VKB_RES_OK;
    fma = mad = result;
    fma.variant = vkb_variant_find(peak, "fma_f32"), fma.metric = 100;
    mad.variant = vkb_variant_find(peak, "mad_i32"), mad.metric = 400;
    {
        vkb_sink *s = vkb_sink_table_create(f, 0);
        vkb_backend *backends[] = {&vulkan_backend};
        s->begin(s, &settings, backends, 1, &plan);
        s->family_begin(s, peak);
        s->result(s, &mad);
        s->result(s, &fma);
        s->family_end(s, peak);
        s->end(s, 0);
        vkb_sink_destroy(s);
    }
    rewind(f);
    while (fgets(line, sizeof line, f))
        fastest |= strstr(line, "fastest in this family: fma_f32") && strstr(line, "100 ± 21 GFLOP/s");
    fclose(f);
    ASSERT(fastest);
}

/* "fastest in this family" carries its interval: the metric at the quartile times (1.3 and 1.9 ms about a median
 * of 1.7: 89.5 to 130.8 GFLOP/s, half of it 21); with fewer than 3 runs (no quartiles), the value alone. */
static void fastest_interval(void)
{
    const vkb_family *peak = NULL;
    char line[256];
    for (int i = 0; i < vkb_family_count; i++)
        peak = strcmp(vkb_families[i]->name, "peak") == 0 ? vkb_families[i] : peak;
    ASSERT(peak);
    if (!peak)
        return;
    for (int n = 7; n >= 2; n -= 5) {
        FILE *f = tmpfile();
        int found = 0;
        vkb_sink *s = vkb_sink_table_create(f, 0);
        vkb_backend *backends[] = {&vulkan_backend};
        fabricate();
        result.family = peak, result.ceiling = NULL, result.status = VKB_RES_OK;
        result.variant = vkb_variant_find(peak, "fma_f32"), result.metric = 100, result.time_ns.n = n;
        s->begin(s, &settings, backends, 1, &plan);
        s->family_begin(s, peak);
        s->result(s, &result);
        s->family_end(s, peak);
        s->end(s, 0);
        vkb_sink_destroy(s);
        rewind(f);
        while (fgets(line, sizeof line, f))
            found |=
                strstr(line, n == 7 ? "fastest in this family: fma_f32@nobc (vulkan) 257x1031, 100 ± 21 GFLOP/s"
                                    : "fastest in this family: fma_f32@nobc (vulkan) 257x1031, 100 GFLOP/s (") != NULL;
        fclose(f);
        ASSERT(found);
    }
}

UNIT_TESTS({"json_values", json_values}, {"json_zero_location", json_zero_location}, {"csv_values", csv_values},
           {"integer_units", integer_units}, {"fastest_of_one_unit", fastest_of_one_unit},
           {"fastest_interval", fastest_interval})
