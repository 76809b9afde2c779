/* select.c - the command line to a selection: families, variants, and shapes from size flags, defaults or battery. */
#include "select.h"
#include "families.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv.h"
#include "util.h"

const vkb_family *vkb_family_find(const char *name)
{
    for (int i = 0; i < vkb_family_count; i++)
        if (strcmp(vkb_families[i]->name, name) == 0)
            return vkb_families[i];
    return NULL;
}

static int fail(char *err, size_t len, const char *fmt, ...) VKB_PRINTF(3, 4);
static int fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* Dims --size sets: extents, not the parameters (stride, offset, width) a family sweeps apart. */
static int is_extent(int d)
{
    return vkb_cli_dim_is_extent(d);
}

/* Whether F has a dim set by the size flag D (vkb_cli_dim_name); --size counts for families with an extent dim. */
static int vkb_selection_takes(const vkb_family *f, int d)
{
    for (int k = 0; k < f->ndims; k++) {
        int own = vkb_cli_dim_of(f->dims[k]);
        if (own == d || (d == VKB_DIM_SIZE && is_extent(own)))
            return 1;
    }
    return 0;
}

/* The sizes flag D gives F: its own --FAMILY.FLAG list, else the plain flag's; NULL where neither is given. */
static const vkb_list *sizes_for(const vkb_args *a, const vkb_family *f, int d)
{
    const vkb_list *own = vkb_cli_scoped(a, f->name, d);
    return own ? own : a->dims[d].n ? &a->dims[d] : NULL;
}

static int family_given(const vkb_args *a, const vkb_family *f)
{
    for (int k = 0; k < f->ndims; k++) {
        int d = vkb_cli_dim_of(f->dims[k]);
        if (sizes_for(a, f, d) || (is_extent(d) && sizes_for(a, f, VKB_DIM_SIZE)))
            return 1;
    }
    return 0;
}

/* Whether the plain flag D (--n, --size: no family prefix) sets F's dim K: its own flag without --F.FLAG; --size an
 * extent without a list of its own (its flag or --F.FLAG) and without --F.size. */
static int plain_flag_sets_dim(const vkb_args *a, const vkb_family *f, int d, int k)
{
    int own = vkb_cli_dim_of(f->dims[k]);
    if (d != VKB_DIM_SIZE)
        return own == d && !vkb_cli_scoped(a, f->name, d);
    return is_extent(own) && !sizes_for(a, f, own) && !vkb_cli_scoped(a, f->name, VKB_DIM_SIZE);
}

/* What the plain flag D sets in F, in F's words (vkb_family.units: "matrix side", "threads and loop trips"), into
 * BUF; NULL where it sets nothing there. */
static const char *plain_flag_sets(const vkb_args *a, const vkb_family *f, int d, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int k = 0; k < f->ndims; k++) {
        const char *unit = f->units[k] ? f->units[k] : "?";
        int again = 0;
        if (!plain_flag_sets_dim(a, f, d, k))
            continue;
        for (int j = 0; j < k; j++) /* each unit once: --size on matmul sets three matrix sides */
            again |= plain_flag_sets_dim(a, f, d, j) && f->units[j] && strcmp(f->units[j], unit) == 0;
        if (!again && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " and " : "", unit);
    }
    return buf[0] ? buf : NULL;
}

static void add_family(vkb_selection *s, const vkb_family *f)
{
    for (int i = 0; i < s->nfams; i++)
        if (s->fam[i].family == f)
            return; /* named twice (`run memory memory.width`): runs once */
    memset(&s->fam[s->nfams], 0, sizeof s->fam[s->nfams]);
    s->fam[s->nfams++].family = f;
}

/* The edit distance (insertions, deletions, substitutions; case ignored) between A and B, capped at 99. */
static int edit_distance(const char *a, const char *b)
{
    int row[64], n = (int)strlen(b);
    if (n >= 64 || strlen(a) >= 64)
        return 99;
    for (int j = 0; j <= n; j++)
        row[j] = j;
    for (int i = 1; a[i - 1]; i++) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= n; j++) {
            int up = row[j], cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int best = diag + cost;
            best = up + 1 < best ? up + 1 : best;
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            row[j] = best;
            diag = up;
        }
    }
    return row[n] < 99 ? row[n] : 99;
}

/* A mistyped NAME's likely meaning: CANDIDATE kept in *BEST when it is nearer than any before, and near enough
 * to be a typo (at most 2 edits, and fewer than a third of the name's length rounded up). */
static void nearest(const char *name, const char *candidate, const char **best, int *best_d)
{
    int d = edit_distance(name, candidate), limit = ((int)strlen(name) + 2) / 3;
    if (d <= 2 && d <= limit && d < *best_d)
        *best = candidate, *best_d = d;
}

static const char *family_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < vkb_family_count && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", vkb_families[i]->name);
    return buf;
}

/* Every name in --variant must name a variant of one of the selected families. */
static int check_variant_names(const char *sel, const vkb_selection *s, char *err, size_t len)
{
    size_t n;
    char *buf, *save = NULL, *item;
    int rc = 0;
    if (!sel || strcmp(sel, "all") == 0)
        return 0;
    n = strlen(sel);
    if (n == 0 || sel[0] == ',' || sel[n - 1] == ',' || strstr(sel, ",,"))
        return fail(err, len, "--variant wants NAME,... or FAMILY/NAME,..., not '%.60s' (an empty name)", sel);
    buf = vkb_alloc(n + 1);
    memcpy(buf, sel, n + 1);
    for (item = strtok_r(buf, ",", &save); item && !rc; item = strtok_r(NULL, ",", &save)) {
        int found = 0, best_d = 99;
        char valid[800] = "", hint[120] = "";
        const char *slash = strrchr(item, '/'), *best = NULL;
        size_t used = 0;
        for (int i = 0; i < s->nfams; i++) {
            const vkb_family *f = s->fam[i].family;
            for (int v = 0; v < f->nvariants; v++) {
                found |= vkb_cli_variant_selected(item, f->name, f->variants[v].name);
                nearest(slash ? slash + 1 : item, f->variants[v].name, &best, &best_d);
                if (used < sizeof valid)
                    used += (size_t)snprintf(valid + used, sizeof valid - used, "%s%s", used ? ", " : "",
                                             f->variants[v].name);
            }
        }
        if (best)
            snprintf(hint, sizeof hint, " (did you mean %.*s%s?)", slash ? (int)(slash - item + 1) : 0, item, best);
        if (!found)
            rc = fail(err, len, "unknown variant '%.60s'%s; variants: %s", item, hint, valid);
    }
    free(buf);
    return rc;
}

/* A size flag no selected family takes is an error; one that some take is ignored by the others. A plain flag
 * (no family prefix) that sets nothing (every family that takes it has its own list) is an error, and in a run
 * (not validate, whose sizes are shapes to check) the families it sets must count the same thing with it: a
 * copy of 8192 words beside an 8192x8192 transpose, or 1M dispatches beside 1M bytes, is no one request.
 * --FAMILY.FLAG must name a selected family. */
static int check_flags(const vkb_args *a, const vkb_selection *s, char *err, size_t len)
{
    for (int i = 0; i < a->nscoped; i++) {
        int selected = 0;
        for (int k = 0; k < s->nfams; k++)
            selected |= strcmp(s->fam[k].family->name, a->scoped[i].family) == 0;
        if (!selected)
            return fail(err, len, "--%s.%s: %s is not selected (`vkbench run %s ...`)", a->scoped[i].family,
                        vkb_cli_dim_name(a->scoped[i].dim), a->scoped[i].family, a->scoped[i].family);
    }
    for (int d = 0; d < vkb_cli_dim_count(); d++) {
        int taken = 0, first = -1, second = -1;
        char takes[400] = "", unit[2][120];
        size_t used = 0;
        if (!a->dims[d].n)
            continue;
        for (int i = 0; i < s->nfams; i++)
            taken |= vkb_selection_takes(s->fam[i].family, d);
        for (int i = 0; i < s->nfams && taken && second < 0; i++) {
            const char *u = plain_flag_sets(a, s->fam[i].family, d, unit[first >= 0], sizeof unit[0]);
            if (u && first < 0)
                first = i;
            else if (u && strcmp(unit[0], u) != 0 && strcmp(a->command, "validate") != 0)
                second = i;
        }
        if (taken && first < 0)
            return fail(err, len, "--%s sets nothing: every family that takes it has its own sizes for it",
                        vkb_cli_dim_name(d));
        if (second >= 0)
            return fail(err, len, "--%s counts %s for %s but %s for %s: give each its own (--%s.%s, --%s.%s)",
                        vkb_cli_dim_name(d), unit[0], s->fam[first].family->name, unit[1], s->fam[second].family->name,
                        s->fam[first].family->name, vkb_cli_dim_name(d), s->fam[second].family->name,
                        vkb_cli_dim_name(d));
        if (taken)
            continue;
        if (s->nfams == 1)
            return fail(err, len, "%s takes no --%s", s->fam[0].family->name, vkb_cli_dim_name(d));
        for (int i = 0; i < s->nfams && used < sizeof takes; i++) {
            const vkb_family *f = s->fam[i].family;
            used += (size_t)snprintf(takes + used, sizeof takes - used, "%s%s:", i ? "; " : "", f->name);
            for (int k = 0; k < f->ndims && used < sizeof takes; k++)
                used += (size_t)snprintf(takes + used, sizeof takes - used, " --%s", f->dims[k]);
        }
        return fail(err, len, "no selected family takes --%s (%s)", vkb_cli_dim_name(d), takes);
    }
    return 0;
}

/* A family the command line names (or every family of a group it names) that --variant leaves with nothing to
 * run is a mistake, not a filter: `run transpose reduce --variant naive` would drop reduce without a word. */
static int check_named_not_empty(const vkb_args *a, const vkb_selection *s, char *err, size_t len)
{
    for (int i = 0; i < a->nfamilies; i++) {
        const char *name = a->families[i];
        size_t n = strlen(name);
        int exact = vkb_family_find(name) != NULL, any = 0;
        for (int k = 0; k < s->nfams && !any; k++) {
            const vkb_selected_family *sf = &s->fam[k];
            if (exact ? strcmp(sf->family->name, name) != 0
                      : strncmp(sf->family->name, name, n) != 0 || sf->family->name[n] != '.')
                continue;
            for (int v = 0; v < sf->family->nvariants; v++)
                any |= sf->selected[v];
        }
        if (!any)
            return fail(err, len,
                        "--variant %.60s leaves %s%.60s with nothing to run; `vkbench list` names its "
                        "variants",
                        a->variants ? a->variants : "all", exact ? "" : "the group ", name);
    }
    return 0;
}

/* Each --spec constant, by name or SpecId number, must be one that some selected kernel's shader has (a number
 * none has would be ignored by the driver); a constant that only some lack skips those rows at run time, with the
 * reason. */
static int check_spec_names(const vkb_args *a, const vkb_selection *s, char *err, size_t len)
{
    for (int i = 0; i < a->nspec; i++) {
        const char *name = a->spec[i].name;
        char have[300] = "";
        size_t used = 0;
        int found = 0, number = name[strspn(name, "0123456789")] == 0;
        uint64_t ids = 0; /* the SpecIds there are, for the message about a number */
        for (int k = 0; k < s->nfams && !found; k++)
            for (int v = 0; v < s->fam[k].family->nvariants && !found; v++) {
                const vkb_variant *var = &s->fam[k].family->variants[v];
                const vkb_spirv *spv = var->kernel ? vkb_spirv_find(var->kernel) : NULL;
                vkb_spirv_constant c[VKB_MAX_SPEC + 3];
                int nc;
                if (!s->fam[k].selected[v] || (var->flags & VKB_VAR_CEILING) || !spv)
                    continue;
                found = vkb_spirv_spec_lookup(spv, name) >= 0;
                nc = vkb_spirv_spec_constants(spv, c, (int)VKB_COUNT(c));
                for (int j = 0; j < nc; j++) { /* the names there are, once each, for the message */
                    ids |= c[j].id < 64 ? 1ull << c[j].id : 0;
                    if (c[j].name[0] && !strstr(have, c[j].name) && used < sizeof have)
                        used += (size_t)snprintf(have + used, sizeof have - used, "%s%s", used ? " " : "", c[j].name);
                }
            }
        if (!found && number) {
            used = 0;
            for (int id = 0; id < 64 && used < sizeof have; id++)
                if (ids >> id & 1)
                    used += (size_t)snprintf(have + used, sizeof have - used, "%s%d", used ? " " : "SpecIds ", id);
            return fail(err, len,
                        "--spec: no selected variant's shader has a constant of SpecId %.30s; theirs: %s, each "
                        "variant's in `vkbench list --verbose`",
                        name, used ? have : "none");
        }
        if (!found)
            return fail(err, len,
                        "--spec: no selected variant's shader has a constant %s; theirs: %s, each variant's "
                        "in `vkbench list --verbose`",
                        name, have[0] ? have : "none");
    }
    return 0;
}

/* The fallback ceilings the selected rows name in families not selected (matmul's fp32 rows: peak/fma_f32), each
 * family put first, with only those rows, at its default shape: every row has a ceiling whatever --variant
 * selects (`run matmul --variant dbuf,warptile` printed `ceil% (none)`), as the API copy runs with any row. */
static void add_fallbacks(vkb_selection *s)
{
    int n = s->nfams;
    for (int i = 0; i < n; i++) {
        const vkb_family *f = s->fam[i].family;
        for (int v = 0; v < f->nvariants; v++) {
            const char *fb = f->variants[v].fallback, *slash = fb ? strchr(fb, '/') : NULL;
            char name[64];
            const vkb_family *g;
            const vkb_variant *row;
            int at = -1;
            if (!s->fam[i].selected[v] || !slash || (size_t)(slash - fb) >= sizeof name)
                continue;
            snprintf(name, sizeof name, "%.*s", (int)(slash - fb), fb);
            if (!(g = vkb_family_find(name)) || !(row = vkb_variant_find(g, slash + 1)))
                continue;
            for (int k = 0; k < s->nfams; k++)
                if (s->fam[k].family == g)
                    at = k;
            if (at >= 0 && !s->fam[at].implicit)
                continue; /* asked for: its own selection stands (the family order puts it first) */
            if (at < 0) { /* first in the run: the fallback is measured before the rows judged against it */
                memmove(&s->fam[1], &s->fam[0], (size_t)s->nfams * sizeof *s->fam);
                memset(&s->fam[0], 0, sizeof s->fam[0]);
                s->fam[0].family = g;
                s->fam[0].implicit = 1;
                s->fam[0].selected = vkb_calloc((size_t)g->nvariants + 1, 1);
                s->nfams++, n++, i++;
                at = 0;
            }
            s->fam[at].selected[row - g->variants] = 1;
        }
    }
}

int vkb_selection_families(const vkb_args *a, vkb_selection *s, char *err, size_t len)
{
    char names[400];
    int kept = 0;
    memset(s, 0, sizeof *s);
    /* each family at most once: the list is never longer than the table */
    s->fam = vkb_calloc((size_t)vkb_family_count + 1, sizeof *s->fam);
    for (int i = 0; i < vkb_family_count && a->nfamilies == 0; i++)
        add_family(s, vkb_families[i]);
    for (int i = 0; i < a->nfamilies; i++) {
        const vkb_family *f = vkb_family_find(a->families[i]);
        size_t n = strlen(a->families[i]);
        int found = f != NULL;
        if (f)
            add_family(s, f);
        /* a group: NAME selects every family named NAME.PART */
        for (int k = 0; !f && k < vkb_family_count; k++)
            if (strncmp(vkb_families[k]->name, a->families[i], n) == 0 && vkb_families[k]->name[n] == '.') {
                add_family(s, vkb_families[k]);
                found = 1;
            }
        if (!found) {
            const char *best = NULL;
            int best_d = 99;
            char hint[120] = "";
            for (int k = 0; k < vkb_family_count; k++)
                nearest(a->families[i], vkb_families[k]->name, &best, &best_d);
            if (best)
                snprintf(hint, sizeof hint, " (did you mean %s?)", best);
            return fail(err, len, "unknown family '%.60s'%s; families: %s", a->families[i], hint,
                        family_names(names, sizeof names));
        }
    }
    if (check_variant_names(a->variants, s, err, len) || check_flags(a, s, err, len))
        return -1;
    for (int i = 0; i < s->nfams; i++) {
        vkb_selected_family *sf = &s->fam[i];
        const vkb_family *f = sf->family;
        sf->selected = vkb_calloc((size_t)f->nvariants + 1, 1);
        for (int v = 0; v < f->nvariants; v++)
            sf->selected[v] =
                (unsigned char)(vkb_cli_variant_selected(a->variants, f->name, f->variants[v].name) &&
                                !(strcmp(a->command, "suite") == 0 && (f->variants[v].flags & VKB_VAR_NOT_IN_SUITE)));
    }
    if (check_named_not_empty(a, s, err, len))
        return -1;
    for (int i = 0; i < s->nfams; i++) {
        vkb_selected_family *sf = &s->fam[i];
        int any = 0;
        for (int v = 0; v < sf->family->nvariants; v++)
            any |= sf->selected[v];
        if (any)
            s->fam[kept++] = *sf;
        else
            free(sf->selected);
    }
    s->nfams = kept;
    /* a family that a plain flag sizes together with others skips a size it cannot take (the others still run);
     * one sized alone, or by --FAMILY.FLAG, was asked for that size: beyond it the run ends (exit 4) */
    for (int d = 0; d < vkb_cli_dim_count(); d++) {
        int reached = 0;
        char unit[120];
        for (int i = 0; i < s->nfams && a->dims[d].n; i++)
            reached += plain_flag_sets(a, s->fam[i].family, d, unit, sizeof unit) != NULL;
        for (int i = 0; i < s->nfams && reached > 1; i++)
            s->fam[i].shared_sizes |= plain_flag_sets(a, s->fam[i].family, d, unit, sizeof unit) != NULL;
    }
    if (strcmp(a->command, "validate") != 0 && !a->nspec) /* --spec would set the fallback's constants too */
        add_fallbacks(s);
    return check_spec_names(a, s, err, len);
}

/* Shapes from the size flags F takes: the --size values (one axis shared by every extent dim without its
 * own flag) times each explicit per-dim list; the other dims from the first default shape. */
static int shapes_from_flags(const vkb_family *f, const vkb_args *a, const vkb_shape *defaults, vkb_shape *out, int max,
                             char *err, size_t len)
{
    const vkb_list *axis[VKB_MAX_DIMS + 1];
    int naxes = 0, dim_axis[VKB_MAX_DIMS], idx[VKB_MAX_DIMS + 1] = {0}, n = 0, size_axis = -1;
    for (int k = 0; k < f->ndims; k++) {
        int d = vkb_cli_dim_of(f->dims[k]);
        dim_axis[k] = -1;
        if (d >= 0 && sizes_for(a, f, d)) {
            axis[naxes] = sizes_for(a, f, d);
            dim_axis[k] = naxes++;
        } else if (d >= 0 && is_extent(d) && sizes_for(a, f, VKB_DIM_SIZE)) {
            if (size_axis < 0) {
                axis[naxes] = sizes_for(a, f, VKB_DIM_SIZE);
                size_axis = naxes++;
            }
            dim_axis[k] = size_axis;
        }
    }
    for (;;) {
        int x;
        if (n == max)
            return fail(err, len, "%s: more than %d shapes; give fewer sizes", f->name, max);
        memset(&out[n], 0, sizeof out[n]);
        for (int k = 0; k < f->ndims; k++)
            out[n].d[k] = dim_axis[k] < 0 ? defaults->d[k] : axis[dim_axis[k]]->v[idx[dim_axis[k]]];
        n++;
        for (x = naxes - 1; x >= 0; x--) {
            if (++idx[x] < axis[x]->n)
                break;
            idx[x] = 0;
        }
        if (x < 0)
            return n;
    }
}

/* Bytes a rate family's shape streams through memory one way: its extents as 4-byte elements. */
static double shape_bytes(const vkb_family *f, const vkb_shape *s)
{
    double elements = 1;
    for (int d = 0; d < f->ndims; d++)
        elements *= s->d[d] > 0 ? (double)s->d[d] : 1;
    return 4 * elements;
}

/* The bytes a default suite's shape moves on CAPS to measure memory, not cache: twice the device's last-level
 * cache (from the driver or the cache probe), 256 MiB where it is unknown; 0 on a CPU implementation. */
static double suite_past(const vkb_caps *caps)
{
    if (caps->is_cpu)
        return 0;
    return caps->cache_bytes ? 2.0 * (double)caps->cache_bytes : 256.0 * (1 << 20);
}

/* The default suite's shape of F among its N DEFAULTS: the first, except for a bandwidth family on a GPU
 * (GB/s per row: copy, transpose, reduce), whose first shape that streams past the last-level cache (suite_past)
 * so that its rows measure memory, not cache (an H100's 1024x1024 transpose read 95 to 129% of its ceiling from
 * L2); the largest where none does. */
static int suite_shape(const vkb_family *f, const vkb_caps *caps, const vkb_shape *defaults, int n)
{
    if (caps->is_cpu || f->time_unit_ns > 0 || strcmp(f->metric, "GB/s") != 0)
        return 0;
    for (int i = 0; i < n; i++)
        if (shape_bytes(f, &defaults[i]) >= suite_past(caps))
            return i;
    return n - 1;
}

/* The shapes F runs: from the size flags F takes, when A gives any; else `validate` the battery, the default
 * suite the family's own points (suite_shapes) or one default shape (suite_shape), `run` the defaults. --size
 * sets every extent dim (n, m, k, rows, cols) to the same value: square and cubic shapes; a cartesian product
 * comes only from explicit per-dim lists (--rows with --cols, --m/--n/--k). Dims without a flag keep the first
 * default shape's value. Returns the count (<= MAX), or -1 with ERR. */
static int vkb_selection_shapes_for(const vkb_family *f, const vkb_args *a, const vkb_caps *caps, vkb_shape *out,
                                    int max, char *err, size_t len)
{
    static vkb_shape defaults[VKB_MAX_SHAPES];
    int n;
    if (!family_given(a, f)) {
        if (strcmp(a->command, "validate") == 0)
            return f->battery(out, max);
        if (strcmp(a->command, "suite") == 0 && f->suite_shapes)
            return f->suite_shapes(caps, suite_past(caps), out, max);
        n = f->default_shapes(caps, out, max);
        if ((strcmp(a->command, "suite") == 0 || strcmp(a->command, "peaks") == 0) && n > 1) {
            out[0] = out[suite_shape(f, caps, out, n)];
            return 1;
        }
        return n;
    }
    if (f->default_shapes(caps, defaults, VKB_MAX_SHAPES) < 1)
        return fail(err, len, "%s has no default shape", f->name);
    return shapes_from_flags(f, a, &defaults[0], out, max, err, len);
}

int vkb_selection_shapes(const vkb_args *a, const vkb_caps *caps, vkb_selection *s, char *err, size_t len)
{
    for (int i = 0; i < s->nfams; i++) {
        vkb_selected_family *sf = &s->fam[i];
        vkb_shape *tmp = vkb_alloc(VKB_MAX_SHAPES * sizeof *tmp);
        int n = sf->implicit ? (sf->family->default_shapes(caps, tmp, VKB_MAX_SHAPES) > 0)
                             : vkb_selection_shapes_for(sf->family, a, caps, tmp, VKB_MAX_SHAPES, err, len);
        if (n < 0) {
            free(tmp);
            return -1;
        }
        free(sf->shapes);
        sf->shapes = tmp;
        sf->nshapes = n;
    }
    return 0;
}
