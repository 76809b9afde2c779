/* timing.c - warm-up until the clocks settle, then repetitions until the median settles. */
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "signals.h"
#include "fault.h"
#include "util.h"

#define MIN_SAMPLES 10
#define MAX_SAMPLES 20000
#define SETTLE_FRACTION 0.005 /* median moved < 0.5% after a batch: more samples change nothing */
#define WARMUP_SETTLE 0.02    /* two warm-up batches within 2%: the clocks have ramped */
#define BATCH_TARGET_NS 2e6   /* aim each batch at ~2 ms of device time */
#define HOST_SLACK 1.02       /* device time of a batch <= host time around it x this + HOST_MARGIN_NS: */
#define HOST_MARGIN_NS 2e5    /* the two clocks' rates and the timestamp period's rounding differ a little */
#define EARLY_FRACTION 1e-4   /* device time below this fraction of the host's: the work was not inside */
#define EARLY_FRACTION_CPU                                                                                             \
    1e-3                      /* the same on a CPU implementation, where the span rule is not judged: honest
                                 * runs measured 0.12-0.99 of the host's time on lavapipe, an end written
                                 * before the work 2.3e-4 (copy of 2^24 floats) */
#define EARLY_MIN_HOST_NS 1e7 /* judged only over 10 ms of host time: submission overhead is noise */
/* On a CPU implementation the host's time is the smaller of the wall clock and the process's CPU time over the
 * batches: the device's work is this process's threads, and other processes (load) stretch the wall clock without
 * limit (a 4 KB api_copy of 39 us waited 53 ms for the scheduler beside two busy loops: 0.07%, failed) but not the
 * CPU time the work cost; the wall clock bounds the CPU time of other devices' threads (--device LIST) */

#define STOP_CHECK_REPS 64 /* fixed repetitions are run in batches this long: a signal is seen between them */
#define SPAN_FRACTION 0.02 /* repetitions covering less of their submission's span: the work was outside */

static _Thread_local char timer_error[200]; /* thread-local: each device of --device LIST times on its own thread */
static _Thread_local double span_measured_ns, span_ns;
static _Thread_local double warmup_spent_ns; /* the last vkb_timing_measure's warm-up, host time */
static _Thread_local double last_busy_ns;    /* when this thread's last timed run ended (0: none yet) */
static _Thread_local int cut_short;          /* the last vkb_timing_measure stopped early for a signal */

int vkb_timing_cut_short(void)
{
    return cut_short;
}

void vkb_timing_span(double measured_ns, double span)
{
    span_measured_ns += measured_ns;
    span_ns += span;
}

int vkb_timing_error(char *why, size_t len)
{
    if (!timer_error[0])
        return 0;
    snprintf(why, len, "%s", timer_error);
    return 1;
}

/* VKB_FAULT_INJECT=slow-device:I[:K]: device I does each timed repetition's work K times (K 2 to 16, default 2), a
 * GPU at 1/K of its speed (stuck clocks, a degraded link): real device work between real timestamps and inside
 * the host's clock, so every timer rule still applies and nothing downstream is told. The repetitions B does
 * beyond each timed one: K - 1, or 0 without the fault. */
static int slow_device_extra(const vkb_backend *b)
{
    long sick = -1, v = vkb_fault_second(2);
    if (!vkb_fault_arg("slow-device", &sick) || sick != b->caps.index)
        return 0;
    return v < 2 ? 1 : v > 16 ? 15 : (int)v - 1;
}

/* VKB_FAULT_INJECT=slower:I:PCT: device I's timed repetitions report PCT percent more time (1 to 1000), a GPU
 * slower by a fraction (15%: the throttled GPU), which slow-device's whole multiples cannot plant. The
 * host waits out the added time before it reads its clock, so the batch stays inside the host's time and every
 * timer rule still applies. The fraction of time added: PCT / 100, or 0 without the fault. */
static double slower_fraction(const vkb_backend *b)
{
    long sick = -1, pct = vkb_fault_second(0);
    if (!vkb_fault_arg("slower", &sick) || sick != b->caps.index)
        return 0;
    return (pct < 1 ? 1 : pct > 1000 ? 1000 : pct) / 100.0;
}

/* slower's batch: each of the REPS times in NS made FRACTION longer, the host waiting (asleep: a loaded host's
 * clock still moves) for the time added; the host time since T0 after the wait. */
static double stretch_batch(double *ns, int reps, double fraction, double t0)
{
    double added = 0, deadline, left;
    for (int r = 0; r < reps; r++) {
        added += ns[r] * fraction;
        ns[r] *= 1 + fraction;
    }
    deadline = vkb_now_ns() + added;
    while ((left = deadline - vkb_now_ns()) > 0) {
        struct timespec ts = {(time_t)(left / 1e9), (long)fmod(left, 1e9)};
        nanosleep(&ts, NULL);
    }
    return vkb_now_ns() - t0;
}

static double process_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* vkb_timing's cpu_share: each of the REPS times in NS scaled by the share of the machine's CPUs this process had
 * over the HOST_NS in which it spent CPU_NS, at most 1. A CPU implementation's time is the host's, and other
 * processes stretch it: on the shared 2-core machine lavapipe's speed over the health battery moved by 15% between
 * runs, the CPU time its work cost much less (docs/tooling.md). */
static void scale_to_cpu_share(double *ns, int reps, double cpu_ns, double host_ns)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    double share = host_ns > 0 ? cpu_ns / (host_ns * (double)(ncpu > 0 ? ncpu : 1)) : 1;
    if (!(share > 0 && share < 1))
        return; /* the whole machine, or no CPU time seen: as measured */
    for (int r = 0; r < reps; r++)
        ns[r] *= share;
}

/* Execute REPS timed repetitions into NS, checking each against zero and the batch against the host's
 * clock around it; the totals accumulate into DEVICE_NS (the batch's median repetition times REPS: the
 * early-end rule below must not be fooled by one repetition the scheduler stretched, a worker thread of a
 * CPU implementation preempted between two timestamps) and HOST_NS. */
static void timed_batch(vkb_backend *b, void *prepared, vkb_buffer *const *bufs, int reps, const vkb_timing *t,
                        double *ns, double *device_ns, double *host_ns, double *cpu_ns)
{
    double t0 = vkb_now_ns(), host, busy, sum = 0, cpu0 = process_cpu_ns(), cpu;
    int extra = slow_device_extra(b), cold = t->cold;
    double slower = slower_fraction(b);
    double *more = extra ? vkb_alloc((size_t)extra * (size_t)reps * sizeof *more) : NULL;
    span_measured_ns = span_ns = 0;
    if (more)
        b->execute(b, prepared, bufs, extra * reps, cold, more);
    b->execute(b, prepared, bufs, reps, cold, ns);
    host = busy = vkb_now_ns() - t0;
    if (vkb_backend_failed(b)) { /* the device failed: no time measured (the runner fails the case) */
        for (int r = 0; r < reps; r++)
            ns[r] = 0;
        free(more);
        return;
    }
    cpu = process_cpu_ns() - cpu0; /* before slower's stretch: its wait is the device's, not another process's */
    if (slower > 0)
        host = stretch_batch(ns, reps, slower, t0);
    for (int r = 0; more && r < reps; r++)
        for (int k = 0; k < extra; k++)
            ns[r] += more[extra * r + k];
    free(more);
    for (int r = 0; r < reps; r++) {
        if (!(ns[r] > 0) && !timer_error[0])
            snprintf(timer_error, sizeof timer_error,
                     "timer: a repetition measured %.4g ns (zero or negative: timestamps out of order)", ns[r]);
        sum += ns[r];
    }
    if (sum > host * HOST_SLACK + HOST_MARGIN_NS && !timer_error[0])
        snprintf(timer_error, sizeof timer_error,
                 "timer: %d repetitions measured %.4g ms on the device, but only %.4g ms passed on the host "
                 "around them",
                 reps, sum * 1e-6, host * 1e-6);
    /* --cold writes a large buffer between repetitions: the span is then mostly that. A CPU implementation's
     * timestamps are the host's clock, and its span holds whatever the scheduler did between repetitions
     * (a loaded machine stretches it without limit): there the host-time rule below judges early ends */
    if (!cold && !b->caps.is_cpu && span_ns > 0 && span_measured_ns < SPAN_FRACTION * span_ns && !timer_error[0])
        snprintf(timer_error, sizeof timer_error,
                 "timer: %d repetitions cover %.3g%% of the device time from the first start to the last end "
                 "(end timestamps before the work?)",
                 reps, 100 * span_measured_ns / span_ns);
    *device_ns += vkb_median(ns, reps) * reps;
    *host_ns += host;
    *cpu_ns += cpu;
    if (t->cpu_share && b->caps.is_cpu) /* after the timer's rules, which judge the times as measured */
        scale_to_cpu_share(ns, reps, cpu, busy);
}

void vkb_timing_defaults(vkb_timing *t, const vkb_caps *caps)
{
    t->reps = 0;
    t->cold = 0;
    t->cpu_share = 0;
    /* a CPU implementation has no clocks to ramp, and the checked run just before has warmed its caches
     * (a checked run longer than the warm-up replaces it): a few ms let the scheduler settle */
    t->warmup_ms = caps->is_cpu ? 5 : 200;
    /* seen on the H100: the first timed run of a process measured half the bandwidth of later ones */
    t->first_warmup_ms = caps->is_cpu ? 5 : 1000;
    t->budget_ms = caps->is_cpu ? 300 : 1000;
}

/* A GPU left idle since its last timed run (the host making inputs, checking 1 GiB of outputs) has lowered
 * its clocks, and a warm-up of a few ms ends while they still rise: without a CUDA context holding them up,
 * the H200's copy read 1724 GB/s after the suite's 10 ms warm-up and 4281 with the clocks up. */
double vkb_timing_warmup_after_idle(double warm_ns, double idle_ns, double first_ns, int is_cpu)
{
    if (is_cpu || warm_ns <= 0 || idle_ns <= warm_ns)
        return warm_ns;
    return idle_ns < first_ns ? idle_ns : first_ns > warm_ns ? first_ns : warm_ns;
}

double vkb_timing_warmup_ns(void)
{
    return warmup_spent_ns;
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
    static _Thread_local int first_in_process = 1; /* per device thread: each GPU ramps its own clocks */
    double warm[32], prev = 0, start = vkb_now_ns();
    /* the process's first case warms up in full, unless the device's clock warm-up (host/app/warmup.c) settled
     * and its clocks stay up between runs: then that warm-up was this one, and the second cost a second */
    int first = first_in_process && !(b->caps.warm_s > 0 && b->caps.warm_settled && b->caps.clocks_held);
    double warm_ns = 1e6 * (first ? t->first_warmup_ms : t->warmup_ms), idle_ns = start - last_busy_ns;
    double *s, device_ns = 0, host_ns = 0, cpu_ns = 0, judged_ns;
    int n = 0, batch = 1, settled = t->reps > 0;
    first_in_process = 0;
    if (last_busy_ns > 0 && !b->caps.clocks_held)
        warm_ns = vkb_timing_warmup_after_idle(warm_ns, idle_ns, 1e6 * t->first_warmup_ms, b->caps.is_cpu);
    timer_error[0] = 0;
    cut_short = 0;

    /* warm-up: until WARMUP is spent and two batch medians agree (or 3x WARMUP has passed); none at 0. A CPU
     * implementation has no clocks to ramp, and on a shared machine two batches rarely agree within 2%: there
     * WARMUP alone ends it (waiting for agreement cost a third of the lavapipe suite's timing) */
    while (warm_ns > 0 && !(cut_short = vkb_stop_signal() != 0) && !vkb_backend_failed(b)) {
        double now, med;
        timed_batch(b, prepared, bufs, batch, t, warm, &device_ns, &host_ns, &cpu_ns);
        med = vkb_median(warm, batch);
        now = vkb_now_ns() - start;
        if (now >= 3 * warm_ns || (now >= warm_ns && (b->caps.is_cpu || fabs(med - prev) <= WARMUP_SETTLE * med)))
            break;
        prev = med;
        batch = batch_for(med);
    }
    warmup_spent_ns = vkb_now_ns() - start;

    if (t->reps > 0) {
        s = vkb_alloc((size_t)t->reps * sizeof *s);
        for (; n < t->reps && !(cut_short |= vkb_stop_signal() != 0) && !vkb_backend_failed(b); n += batch) {
            batch = t->reps - n < STOP_CHECK_REPS ? t->reps - n : STOP_CHECK_REPS;
            timed_batch(b, prepared, bufs, batch, t, s + n, &device_ns, &host_ns, &cpu_ns);
        }
    } else {
        int cap = MAX_SAMPLES, prev_n = 0;
        s = vkb_alloc((size_t)cap * sizeof *s);
        start = vkb_now_ns();
        for (;;) {
            int m = n + batch > cap ? cap - n : batch;
            timed_batch(b, prepared, bufs, m, t, s + n, &device_ns, &host_ns, &cpu_ns);
            n += m;
            if (n >= cap || vkb_now_ns() - start >= 1e6 * t->budget_ms || (cut_short = vkb_stop_signal() != 0) ||
                vkb_backend_failed(b))
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
    judged_ns = b->caps.is_cpu && cpu_ns < host_ns ? cpu_ns : host_ns;
    if (!timer_error[0] && judged_ns > EARLY_MIN_HOST_NS &&
        device_ns < (b->caps.is_cpu ? EARLY_FRACTION_CPU : EARLY_FRACTION) * judged_ns)
        snprintf(timer_error, sizeof timer_error,
                 "timer: the device measured %.3g%% of the host's time around the same submissions (%s: an end "
                 "timestamp before the work?)",
                 100 * device_ns / judged_ns, judged_ns < host_ns ? "the process's CPU time" : "its clock");
    vkb_stats_compute(s, n, st);
    st->settled = settled;
    free(s);
    last_busy_ns = vkb_now_ns();
    return n;
}
