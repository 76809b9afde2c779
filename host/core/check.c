/* check.c - the accounting of element checks (counts, first bad element, worst ratio), and the checks
 * on the host's cores: chunks merged in order. */
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "util.h"

void vkb_check_init(vkb_check *r, const char *method)
{
    memset(r, 0, sizeof *r);
    r->bad_row = r->bad_col = -1;
    snprintf(r->method, sizeof r->method, "%s", method);
}

void vkb_check_first_bad(vkb_check *r, uint64_t index, int64_t row, int64_t col, double out, double ref)
{
    r->first_bad = index;
    r->bad_row = row;
    r->bad_col = col;
    r->bad_expected = ref;
    r->bad_actual = out;
}

static void index_place(const vkb_check *r, uint64_t index, int64_t *row, int64_t *col)
{
    *row = r->cols ? (int64_t)(index / r->cols) : -1;
    *col = r->cols ? (int64_t)(index % r->cols) : -1;
}

/* Count one element of R (the first bad one remembered, the largest bound kept); returns |OUT - REF| / BOUND
 * (infinite past a zero bound or for a NaN; NaN itself for an infinite error within an infinite bound) and the
 * error in *ERR. */
static double account(vkb_check *r, uint64_t index, double out, double ref, double bound, double *err)
{
    *err = fabs(out - ref);
    r->checked++;
    if (bound > r->max_bound)
        r->max_bound = bound;
    if (!(*err <= bound)) { /* NaN (an unwritten, poisoned element) lands here too */
        if (r->bad++ == 0) {
            int64_t row, col;
            index_place(r, index, &row, &col);
            vkb_check_first_bad(r, index, row, col, out, ref);
        }
        return bound > 0 && *err == *err ? *err / bound : INFINITY;
    }
    return bound > 0 ? *err / bound : 0.0;
}

static void set_worst(vkb_check *r, double ratio, double err, double bound)
{
    r->worst_ratio = ratio;
    r->max_error = err;
    r->tolerance = bound;
}

void vkb_check_value(vkb_check *r, uint64_t index, double out, double ref, double bound)
{
    double err, ratio = account(r, index, out, ref, bound, &err);
    if (ratio > r->worst_ratio || r->checked == 1)
        set_worst(r, ratio, err, bound);
}

/* Words BEGIN..END-1 of OUT and REF, exactly. */
static void words_range(vkb_check *r, const uint32_t *out, const uint32_t *ref, uint64_t begin, uint64_t end)
{
    for (uint64_t i = begin; i < end; i++) {
        r->checked++;
        if (out[i] != ref[i]) {
            if (r->bad++ == 0) {
                int64_t row, col;
                index_place(r, i, &row, &col);
                vkb_check_first_bad(r, i, row, col, (double)out[i], (double)ref[i]);
            }
            r->worst_ratio = INFINITY;
            r->max_error = INFINITY;
        }
    }
}

/* ---- element checks on the host's cores: chunks merged in order ---- */

/* A chunk's own check. Its worst element is kept both ways the merge may need it: LEAD_*, the chunk's first
 * element (vkb_check_value makes a check's first element its worst until a larger ratio comes), and c's
 * worst_*, the first element of the chunk's largest ratio (a NaN ratio never wins, as in vkb_check_value
 * after the first element; nor does 0, which never beats a check's worst). */
struct vkb_check_part {
    vkb_check c;
    double lead_ratio, lead_error, lead_tolerance;
};

void vkb_check_part_value(vkb_check_part *p, uint64_t index, double out, double ref, double bound)
{
    double err, ratio = account(&p->c, index, out, ref, bound, &err);
    if (p->c.checked == 1) {
        p->lead_ratio = ratio;
        p->lead_error = err;
        p->lead_tolerance = bound;
    }
    if (ratio > p->c.worst_ratio)
        set_worst(&p->c, ratio, err, bound);
}

/* Counts, the first bad element and the largest bound of PART after R's. */
static void merge_counts(vkb_check *r, const vkb_check *part)
{
    if (part->bad && !r->bad)
        vkb_check_first_bad(r, part->first_bad, part->bad_row, part->bad_col, part->bad_actual, part->bad_expected);
    r->checked += part->checked;
    r->bad += part->bad;
    if (part->max_bound > r->max_bound)
        r->max_bound = part->max_bound;
}

/* What vkb_check_value would have left after R's elements and then the part's: a check that begins with
 * the part takes its lead; the part's largest ratio replaces R's worst only when larger (a NaN worst stays). */
static void merge_values(vkb_check *r, const vkb_check_part *p)
{
    if (!p->c.checked)
        return;
    if (!r->checked)
        set_worst(r, p->lead_ratio, p->lead_error, p->lead_tolerance);
    if (p->c.worst_ratio > r->worst_ratio)
        set_worst(r, p->c.worst_ratio, p->c.max_error, p->c.tolerance);
    merge_counts(r, &p->c);
}

/* What words_range would have left: any differing word makes the worst ratio and error infinite. */
static void merge_words(vkb_check *r, const vkb_check_part *p)
{
    if (p->c.bad) {
        r->worst_ratio = INFINITY;
        r->max_error = INFINITY;
    }
    merge_counts(r, &p->c);
}

typedef struct chunk_run {
    vkb_check_part *parts;
    vkb_check_chunk_fn fn;
    void *ctx;
} chunk_run;

static void chunk_task(void *ctx, int64_t t)
{
    chunk_run *run = ctx;
    run->fn(run->ctx, &run->parts[t], t);
}

/* Chunks 0..COUNT-1 of FN on the host's cores, each into its own part, merged into R in chunk order. */
static void run_chunks(vkb_check *r, int64_t count, vkb_check_chunk_fn fn, void *ctx,
                       void (*merge)(vkb_check *, const vkb_check_part *))
{
    chunk_run run = {vkb_alloc((size_t)count * sizeof *run.parts), fn, ctx};
    for (int64_t t = 0; t < count; t++) {
        vkb_check_part *p = &run.parts[t];
        memset(p, 0, sizeof *p);
        p->c.bad_row = p->c.bad_col = -1;
        p->c.cols = r->cols; /* a 2-D check places its first bad element */
    }
    vkb_parallel_run(count, chunk_task, &run);
    for (int64_t t = 0; t < count; t++)
        merge(r, &run.parts[t]);
    free(run.parts);
}

void vkb_check_chunks(vkb_check *r, int64_t chunks, vkb_check_chunk_fn fn, void *ctx)
{
    run_chunks(r, chunks, fn, ctx, merge_values);
}

typedef struct words_run {
    const uint32_t *out, *ref;
    uint64_t n;
} words_run;

static void words_chunk(void *ctx, vkb_check_part *part, int64_t t)
{
    const words_run *w = ctx;
    words_range(&part->c, w->out, w->ref, (uint64_t)t * VKB_CHECK_CHUNK, vkb_task_end(t, VKB_CHECK_CHUNK, w->n));
}

void vkb_check_words(vkb_check *r, const uint32_t *out, const uint32_t *ref, uint64_t n)
{
    words_run w = {out, ref, n};
    if (n <= VKB_CHECK_CHUNK) { /* one chunk: no threads to start */
        words_range(r, out, ref, 0, n);
        return;
    }
    run_chunks(r, vkb_tasks_of(n, VKB_CHECK_CHUNK), words_chunk, &w, merge_words);
}

void vkb_check_finish(vkb_check *r)
{
    r->pass = r->checked > 0 && r->bad == 0;
}
