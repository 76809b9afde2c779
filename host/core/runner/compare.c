/* compare.c - the runner's cross-backend compare: one variant's outputs through the second API against the
 * first API's, word by word on the worker threads. */
#include "runner_parts.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_limits.h"
#include "fault.h"
#include "parallel.h"
#include "signals.h"
#include "spirv.h"
#include "util.h"
#include "verify.h"

/* One span of words of a cross-backend compare (a task on the worker threads: fixed spans, merged in
 * order, so the counts and the first element named do not depend on the thread count). */
#define COMPARE_SPAN_WORDS ((uint64_t)1 << 20)

typedef struct compare_span {
    uint64_t differing, beyond, first_beyond; /* first_beyond: the lowest index beyond the tolerance */
    double max_diff;
} compare_span;

typedef struct compare_job {
    const uint32_t *a, *b; /* the first backend's words, this one's */
    uint64_t words;
    double tol;
    int exact;
    compare_span *span;
} compare_job;

static float float_of_word(uint32_t w)
{
    float f;
    memcpy(&f, &w, 4);
    return f;
}

/* How far apart two output words are: outputs are fp32 or int32 words; for floats the difference says how
 * far apart they are (a NaN: infinitely) */
static double word_diff(uint32_t a, uint32_t b)
{
    float fa = float_of_word(a), fb = float_of_word(b);
    return fa != fa || fb != fb ? INFINITY : fabs((double)fa - fb);
}

static void compare_span_task(void *ctx, int64_t t)
{
    const compare_job *j = ctx;
    compare_span *sp = &j->span[t];
    uint64_t end = vkb_task_end(t, COMPARE_SPAN_WORDS, j->words);
    for (uint64_t w = (uint64_t)t * COMPARE_SPAN_WORDS; w < end; w++) {
        double diff;
        if (j->a[w] == j->b[w])
            continue;
        sp->differing++;
        diff = word_diff(j->a[w], j->b[w]);
        if (diff > sp->max_diff)
            sp->max_diff = diff;
        if (!j->exact && diff <= j->tol)
            continue;
        if (sp->beyond++ == 0)
            sp->first_beyond = w;
    }
}

/* Compare RES's outputs with those the first backend gave: differing bits are counted; beyond the two
 * checks' largest bounds summed (any differing bit when both checks were exact: every bound 0) the row
 * fails, and the first such element is named. Both outputs passed their checks, each element within its
 * own bound of the same reference, so no two differ by more than their two bounds there; the outputs carry
 * no bound per element, and the largest is the one that holds at every element. Not the worst element's
 * bound (`tolerance`): where bounds differ from element to element (a product's gamma_K sum|a||b|, an fp16
 * accumulator's recurrence, a Freivalds line's model) it may be far below another element's, and two
 * correct outputs would fail there (docs/verification.md, "The cross-backend compare"). */
void vkb_compare_outputs(vkb_result *res, const vkb_plan *plan, const saved_outputs *saved)
{
    double tol = saved->max_bound + res->check.max_bound;
    int exact = !(saved->max_bound > 0) && !(res->check.max_bound > 0);
    uint64_t beyond = 0;
    res->cross = 1;
    res->cross_backend = saved->backend;
    for (int i = 0; i < plan->nbuf; i++) {
        compare_job j = {saved->data[i], plan->buf[i].host, 0, tol, exact, NULL};
        int64_t nspan;
        if (plan->buf[i].role != VKB_BUF_OUTPUT || !saved->bytes[i] || !plan->buf[i].host)
            continue;
        j.words = (saved->bytes[i] < plan->buf[i].bytes ? saved->bytes[i] : plan->buf[i].bytes) / 4;
        nspan = vkb_tasks_of(j.words, COMPARE_SPAN_WORDS);
        j.span = vkb_calloc((size_t)nspan + 1, sizeof *j.span);
        vkb_parallel_run(nspan, compare_span_task, &j);
        for (int64_t t = 0; t < nspan; t++) {
            const compare_span *sp = &j.span[t];
            uint64_t w = sp->first_beyond;
            res->cross_differing += sp->differing;
            if (sp->max_diff > res->cross_max_diff)
                res->cross_max_diff = sp->max_diff;
            if (sp->beyond && beyond == 0) {
                uint32_t a = j.a[w], b = j.b[w];
                float fa = float_of_word(a), fb = float_of_word(b);
                /* words that are not normal floats (exponent bits 0) are read as the int32 they likely are */
                int ints = exact && ((a & 0x7F800000u) == 0 || (b & 0x7F800000u) == 0);
                res->cross_index = w;
                res->cross_buffer = i;
                res->cross_this = ints ? (double)(int32_t)b : fb;
                res->cross_other = ints ? (double)(int32_t)a : fa;
                if (exact)
                    snprintf(res->check.method, sizeof res->check.method, "differs from %s at [%llu]: 0x%08x vs 0x%08x",
                             saved->backend, (unsigned long long)w, b, a);
                else
                    snprintf(res->check.method, sizeof res->check.method,
                             "differs from %s at [%llu]: %.9g vs %.9g "
                             "(> %.2g)",
                             saved->backend, (unsigned long long)w, (double)fb, (double)fa, tol);
                res->check.first_bad = w;
            }
            beyond += sp->beyond;
        }
        free(j.span);
    }
    if (beyond) {
        res->cross_fail = 1;
        res->status = VKB_RES_FAIL;
        res->check.pass = 0;
        res->check.bad = beyond;
    }
}

void vkb_compare_save(saved_outputs *saved, const vkb_plan *plan, const vkb_result *res)
{
    for (int i = 0; i < VKB_MAX_BUFFERS; i++) {
        saved->bytes[i] = 0;
        if (i >= plan->nbuf || plan->buf[i].role != VKB_BUF_OUTPUT || !plan->buf[i].host)
            continue;
        if (plan->buf[i].bytes > saved->cap[i]) {
            free(saved->data[i]);
            saved->data[i] = vkb_alloc(plan->buf[i].bytes);
            saved->cap[i] = plan->buf[i].bytes;
        }
        vkb_parallel_copy(saved->data[i], plan->buf[i].host, plan->buf[i].bytes);
        saved->bytes[i] = plan->buf[i].bytes;
    }
    saved->max_bound = res->check.max_bound;
    saved->backend = res->backend;
    saved->valid = 1;
}

/* Forget the saved outputs; their memory stays for the next variant. */
void vkb_compare_forget(saved_outputs *saved)
{
    memset(saved->bytes, 0, sizeof saved->bytes);
    saved->valid = 0;
}

void vkb_compare_free(saved_outputs *saved)
{
    for (int i = 0; i < VKB_MAX_BUFFERS; i++)
        free(saved->data[i]);
    memset(saved, 0, sizeof *saved);
}
