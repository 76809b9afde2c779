/* timing.c - warm-up until the clocks settle, then repetitions until the median settles. */
#include "timing.h"

#include <math.h>
#include <stdlib.h>

#include "util.h"

#define MIN_SAMPLES 10
#define MAX_SAMPLES 20000
#define SETTLE_FRACTION 0.005   /* median moved < 0.5% after a batch: more samples change nothing */
#define WARMUP_SETTLE 0.02      /* two warm-up batches within 2%: the clocks have ramped */
#define BATCH_TARGET_NS 2e6     /* aim each batch at ~2 ms of device time */

void vkb_timing_defaults(vkb_timing *t, const vkb_caps *caps)
{
    t->reps = 0;
    t->cold = 0;
    t->warmup_ms = caps->is_cpu ? 20 : 200;
    /* seen on the H100: the first timed run of a process measured half the bandwidth of later ones */
    t->first_warmup_ms = caps->is_cpu ? 20 : 1000;
    t->budget_ms = caps->is_cpu ? 300 : 1000;
}

int vkb_timing_settled(const double *samples, int prev_n, int n)
{
    double a, b;
    if (n < MIN_SAMPLES || prev_n < 1)
        return 0;
    a = vkb_median(samples, prev_n);
    b = vkb_median(samples, n);
    return fabs(b - a) <= SETTLE_FRACTION * b;
}

static int batch_for(double median_ns)
{
    double reps = median_ns > 0 ? BATCH_TARGET_NS / median_ns : 32;
    return reps < 1 ? 1 : reps > 32 ? 32 : (int)reps;
}

int vkb_timing_measure(vkb_backend *b, void *prepared, vkb_buffer *const *bufs, const vkb_timing *t, vkb_stats *st)
{
    static int first_in_process = 1;
    double warm[32], prev = 0, start = vkb_now_ns();
    double warm_ns = 1e6 * (first_in_process ? t->first_warmup_ms : t->warmup_ms);
    double *s;
    int n = 0, batch = 1, settled = t->reps > 0;
    first_in_process = 0;

    /* warm-up: until WARMUP is spent and two batch medians agree (or 3x WARMUP has passed) */
    for (;;) {
        double now, med;
        b->execute(b, prepared, bufs, batch, t->cold, warm);
        med = vkb_median(warm, batch);
        now = vkb_now_ns() - start;
        if (now >= 3 * warm_ns || (now >= warm_ns && fabs(med - prev) <= WARMUP_SETTLE * med))
            break;
        prev = med;
        batch = batch_for(med);
    }

    if (t->reps > 0) {
        s = vkb_alloc((size_t)t->reps * sizeof *s);
        b->execute(b, prepared, bufs, t->reps, t->cold, s);
        n = t->reps;
    } else {
        int cap = MAX_SAMPLES, prev_n = 0;
        s = vkb_alloc((size_t)cap * sizeof *s);
        start = vkb_now_ns();
        for (;;) {
            int m = n + batch > cap ? cap - n : batch;
            b->execute(b, prepared, bufs, m, t->cold, s + n);
            n += m;
            if (n >= cap || vkb_now_ns() - start >= 1e6 * t->budget_ms)
                break;
            if (n >= MIN_SAMPLES && n >= 2 * prev_n) {
                /* judge the median each time the sample count doubles */
                if ((settled = vkb_timing_settled(s, prev_n, n)))
                    break;
                prev_n = n;
            } else if (prev_n == 0 && n >= MIN_SAMPLES / 2) {
                prev_n = n;
            }
            batch = batch_for(vkb_median(s, n));
        }
    }
    vkb_stats_compute(s, n, st);
    st->settled = settled;
    free(s);
    return n;
}
