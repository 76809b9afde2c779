/* matrix.c - `validate` results: the failed cases (every case, passed and skipped too, with -v), a count per
 * family, and at the end a summary and the skips by reason, one line per reason (a capability misread shows
 * up as a pile of one reason). A passing run of 2306 cases is a few dozen lines, its failures never buried. */
#include "sinks.h"

#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "identity.h"
#include "util.h"

typedef struct reason_count {
    const char *reason; /* a result's skip_reason: results live until end() */
    int count;
} reason_count;

typedef struct matrix_sink {
    vkb_sink base;
    FILE *out;
    int width;
    int name_w, shape_w, started, header; /* started: the family's title printed; header: its columns */
    int sg_w;                             /* "@sgN" (--subgroup-size), "@nobc" (--robustness disabled), else 0 */
    int oks, fails, skips;                /* this family */
    int total_oks, total_fails, total_skips;
    reason_count *reasons;
    int nreasons, cap;
    vkb_backend *const *backends; /* the devices under test: named first, per family and at the end */
    int nbackends;
} matrix_sink;

static void count_reason(matrix_sink *m, const char *reason)
{
    for (int i = 0; i < m->nreasons; i++)
        if (strcmp(m->reasons[i].reason, reason) == 0) {
            m->reasons[i].count++;
            return;
        }
    if (m->nreasons == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 16;
        m->reasons = realloc(m->reasons, (size_t)m->cap * sizeof *m->reasons);
        if (!m->reasons)
            vkb_die(VKB_EXIT_RESOURCE, "out of host memory");
    }
    m->reasons[m->nreasons].reason = reason;
    m->reasons[m->nreasons++].count = 1;
}

static void matrix_begin(vkb_sink *s, const vkb_run_settings *set, vkb_backend *const *backends, int nbackends,
                         const vkb_run_plan *plan)
{
    matrix_sink *m = s->impl;
    char sg[16];
    m->sg_w = set->subgroup_size ? snprintf(sg, sizeof sg, "@sg%u", set->subgroup_size) : 0;
    m->sg_w += set->robustness_off ? (int)strlen(VKB_NOBC_MARK) : 0;
    (void)plan;
    m->backends = backends;
    m->nbackends = nbackends;
    vkb_progress_pause(m->out);
    vkb_identity_print(m->out, "", backends, nbackends, m->width);
    fflush(m->out);
    vkb_progress_resume();
}

/* The device names of the run, each once: "llvmpipe (LLVM 15.0.6, 256 bits)". */
static const char *device_names(const matrix_sink *m, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < m->nbackends && used < len; i++)
        if (i == 0 || strcmp(m->backends[i]->caps.name, m->backends[i - 1]->caps.name) != 0)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " and " : "", m->backends[i]->caps.name);
    return buf;
}

static void matrix_family_begin(vkb_sink *s, const vkb_family *f)
{
    matrix_sink *m = s->impl;
    int natural = 12, fixed;
    m->shape_w = f->ndims == 1 ? 9 : f->ndims == 2 ? 11 : 14;
    for (int v = 0; v < f->nvariants; v++) {
        int n = (int)strlen(f->variants[v].name) + m->sg_w;
        natural = n > natural ? n : natural;
    }
    /* backend 8, shape, result 7, max error 10, tolerance 11, and 24 for the method */
    fixed = 8 + m->shape_w + 1 + 7 + 10 + 11 + 24;
    m->name_w = m->width > 0 && natural + 1 + fixed > m->width ? m->width - 1 - fixed : natural;
    if (m->name_w < 12)
        m->name_w = 12;
    m->oks = m->fails = m->skips = 0;
    m->started = m->header = 0;
}

static void matrix_result(vkb_sink *s, const vkb_result *r)
{
    matrix_sink *m = s->impl;
    char name[200], fitted[200], shape[64], text[600];
    int col = m->name_w + 1 + 8 + m->shape_w + 1 + 7;
    if (!m->name_w)
        matrix_family_begin(s, r->family);
    vkb_progress_pause(m->out);
    if (!m->started) { /* the family's title, always: a saved log says what ran where */
        char names[600], title[800];
        snprintf(title, sizeof title, "== validate %s on %s", r->family->name, device_names(m, names, sizeof names));
        fputc('\n', m->out);
        vkb_fmt_wrap(m->out, 0, 3, title, m->width);
        m->started = 1;
    }
    if (!vkb_verbose && r->status != VKB_RES_FAIL) { /* counted; shown with -v */
        if (r->status == VKB_RES_SKIP) {
            m->skips++;
            count_reason(m, r->skip_reason);
        } else {
            m->oks++;
        }
        vkb_progress_resume();
        return;
    }
    if (!m->header) { /* the columns, over the first row shown */
        vkb_fmt_cell(m->out, "variant", m->name_w, 1);
        vkb_fmt_cell(m->out, "backend", 7, 1);
        vkb_fmt_cell(m->out, "shape", m->shape_w, 1);
        vkb_fmt_cell(m->out, "result", 6, 1);
        fprintf(m->out, "%9s %9s  %s\n", "max error", "tolerance", "check");
        m->header = 1;
    }
    vkb_fmt_fit(vkb_fmt_name(r, NULL, name, sizeof name), m->name_w, fitted, sizeof fitted);
    vkb_fmt_cell(m->out, fitted, m->name_w, 1);
    vkb_fmt_cell(m->out, r->backend, 7, 1);
    vkb_fmt_cell(m->out, vkb_fmt_shape(r, shape, sizeof shape), m->shape_w, 1);
    if (r->status == VKB_RES_SKIP) {
        m->skips++;
        count_reason(m, r->skip_reason);
        vkb_fmt_cell(m->out, "skip", 6, 1);
        vkb_fmt_wrap(m->out, col, col + 2, r->skip_reason, m->width);
    } else {
        vkb_fmt_cell(m->out, r->status == VKB_RES_OK ? "ok" : "FAIL", 6, 1);
        fprintf(m->out, "%9.3g %9.3g  ", r->check.max_error, r->check.tolerance);
        vkb_fmt_fit(r->check.method, m->width > 0 ? m->width - col - 21 : 0, text, sizeof text);
        fprintf(m->out, "%s\n", text);
        if (r->status == VKB_RES_FAIL) {
            m->fails++;
            fputs("    FAIL: ", m->out);
            vkb_fmt_wrap(m->out, 10, 6, vkb_fmt_failure(r, text, sizeof text), m->width);
        } else {
            m->oks++;
        }
    }
    fflush(m->out);
    vkb_progress_resume();
}

static void matrix_family_end(vkb_sink *s, const vkb_family *f)
{
    matrix_sink *m = s->impl;
    if (!m->oks && !m->fails && !m->skips)
        return;
    vkb_progress_pause(m->out);
    fprintf(m->out, "%s: %d passed, %d failed, %d skipped\n", f->name, m->oks, m->fails, m->skips);
    m->total_oks += m->oks;
    m->total_fails += m->fails;
    m->total_skips += m->skips;
    m->started = m->header = 0;
    fflush(m->out);
    vkb_progress_resume();
}

static int by_count(const void *a, const void *b)
{
    const reason_count *x = a, *y = b;
    return y->count != x->count ? y->count - x->count : strcmp(x->reason, y->reason);
}

static int matrix_end(vkb_sink *s, int interrupted)
{
    matrix_sink *m = s->impl;
    char line[1400], device[1200];
    vkb_progress_pause(m->out);
    snprintf(line, sizeof line, "validate: %d passed, %d failed, %d skipped on %s%s", m->total_oks, m->total_fails,
             m->total_skips, vkb_identity_short(m->backends, m->nbackends, device, sizeof device),
             interrupted ? " (stopped early)" : "");
    fputc('\n', m->out);
    vkb_fmt_wrap(m->out, 0, 4, line, m->width);
    if (m->nreasons) {
        qsort(m->reasons, (size_t)m->nreasons, sizeof *m->reasons, by_count);
        fprintf(m->out, "skips by reason:\n");
        for (int i = 0; i < m->nreasons; i++) {
            snprintf(line, sizeof line, "%5d  ", m->reasons[i].count);
            fputs(line, m->out);
            vkb_fmt_wrap(m->out, 7, 9, m->reasons[i].reason, m->width);
        }
    }
    fflush(m->out);
    return VKB_EXIT_OK;
}

static void matrix_destroy(vkb_sink *s)
{
    matrix_sink *m = s->impl;
    vkb_identity_set_table(NULL);
    free(m->reasons);
}

vkb_sink *vkb_sink_matrix_create(FILE *out, int width)
{
    matrix_sink *m = vkb_calloc(1, sizeof *m);
    m->out = out;
    m->width = width;
    vkb_identity_set_table(out);
    m->base.begin = matrix_begin;
    m->base.family_begin = matrix_family_begin;
    m->base.family_end = matrix_family_end;
    m->base.result = matrix_result;
    m->base.end = matrix_end;
    m->base.destroy = matrix_destroy;
    m->base.impl = m;
    return &m->base;
}
