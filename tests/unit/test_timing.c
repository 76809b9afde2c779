/* test_timing.c - the timer sanity rules of vkb_timing_measure on a fake backend whose timestamps lie:
 * zero, negative (out of order), longer than the host's clock, and end stamps before the work (on a GPU,
 * and on a CPU implementation with one repetition stretched as a loaded machine's scheduler does); health's
 * scaling of a CPU implementation's times by the process's CPU share. */
#include <math.h>
#include <string.h>
#include <time.h>

#include "timing.h"
#include "unit.h"
#include "util.h"

enum {
    HONEST,
    ZERO,
    NEGATIVE,
    TOO_LONG,
    EARLY_END,
    EARLY_END_STRETCHED,
    HONEST_STRETCHED,
    DRIFT,
    OFF_CPU,
    TINY_OFF_CPU
};
static int mode;
static int drawn; /* repetitions reported so far (DRIFT: each 0.2% slower than the one before) */

static double cpu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Each repetition "takes" 1 ms: of the process's CPU time (the work of a CPU implementation: a loaded host
 * stretches the wall clock around it), or of the wall clock asleep (OFF_CPU modes); the device reports per MODE. */
static void fake_execute(vkb_backend *b, void *prepared, vkb_buffer *const *bufs, int reps, int cold, double *ns)
{
    int off = mode == OFF_CPU || mode == TINY_OFF_CPU;
    double t0 = off ? vkb_now_ns() : cpu_now_ns(), sum = 0;
    (void)b, (void)prepared, (void)bufs, (void)cold;
    while ((off ? vkb_now_ns() : cpu_now_ns()) - t0 < 1e6 * reps)
        if (off) { /* the time passes while other processes have the CPUs */
            struct timespec ms = {0, 1000000L};
            nanosleep(&ms, NULL);
        }
    for (int r = 0; ns && r < reps; r++) {
        ns[r] = mode == ZERO           ? 0
                : mode == NEGATIVE     ? -5e5
                : mode == TOO_LONG     ? 1e9
                : mode == EARLY_END    ? 1e2
                : mode == TINY_OFF_CPU ? 4e2 /* a 4 KB copy: its 0.4 us, the rest of the millisecond waiting */
                : mode == DRIFT        ? fmin(5e5 * pow(1.002, drawn++), 9.5e5)
                                       : 9e5;
        /* a worker thread preempted between two timestamps: one repetition measures 4 ms instead */
        if (mode == EARLY_END_STRETCHED || mode == HONEST_STRETCHED)
            ns[r] = r == 0 ? 4e6 : mode == EARLY_END_STRETCHED ? 1e2 : 5e5;
        sum += ns[r];
    }
    vkb_timing_span(sum, 1e6 * reps); /* first start to last end: the repetitions and the barriers between */
}

/* REPS repetitions in MODE on a GPU, or on a CPU implementation when IS_CPU (no span rule there: the
 * host-time rule judges early ends, over 10 ms of host time). */
static const char *measure_on(int m, int is_cpu, int reps)
{
    static char why[200];
    vkb_backend b;
    vkb_timing t = {0};
    vkb_stats st;
    memset(&b, 0, sizeof b);
    b.execute = fake_execute;
    b.caps.is_cpu = is_cpu;
    t.reps = reps;
    mode = m;
    vkb_timing_measure(&b, NULL, NULL, &t, &st);
    return vkb_timing_error(why, sizeof why) ? why : NULL;
}

static const char *measure(int m)
{
    return measure_on(m, 0, 5);
}

static void honest(void)
{
    ASSERT(measure(HONEST) == NULL);
}

static void zero(void)
{
    const char *why = measure(ZERO);
    ASSERT(why && strstr(why, "zero or negative"));
}

static void negative(void)
{
    const char *why = measure(NEGATIVE);
    ASSERT(why && strstr(why, "zero or negative"));
}

static void too_long(void)
{
    const char *why = measure(TOO_LONG);
    ASSERT(why && strstr(why, "passed on the host"));
}

static void early_end(void)
{
    const char *why = measure(EARLY_END);
    ASSERT(why && strstr(why, "from the first start to the last end"));
    ASSERT(measure(HONEST) == NULL); /* the error does not outlive its measurement */
}

/* vkb.verify.timer.early's rule on lavapipe, where load stretches what the scheduler touches: an early end
 * is caught even when one repetition of the batch was stretched past the rule's bound by itself (the
 * batch's median repetition is judged, not its sum), and an honest batch with the same stretch passes */
static void early_end_cpu(void)
{
    const char *why = measure_on(EARLY_END, 1, 12);
    ASSERT(why && strstr(why, "of the host's time around the same"));
    why = measure_on(EARLY_END_STRETCHED, 1, 12);
    ASSERT(why && strstr(why, "of the host's time around the same"));
    ASSERT(measure_on(HONEST_STRETCHED, 1, 12) == NULL);
    ASSERT(measure_on(HONEST, 1, 12) == NULL);
}

/* The same rule under load: on a CPU implementation a tiny honest copy (0.4 us a repetition) whose submissions
 * wait a millisecond each for CPUs other processes hold is 0.04% of the wall clock, but the process spent almost
 * no CPU time: not an early end (load must not decide a verdict); an early end with the CPU busy still is. */
static void early_end_cpu_loaded(void)
{
    ASSERT(measure_on(TINY_OFF_CPU, 1, 12) == NULL);
    ASSERT(measure_on(EARLY_END, 1, 12) != NULL);
    ASSERT(measure_on(TINY_OFF_CPU, 0, 12) != NULL); /* a GPU's timestamps are its own: the wall clock rule */
}

/* Until the median settles (no --reps): steady times settle at the first judgement (11 samples: batches of
 * 2, judged when the count has doubled since 5); times still drifting 0.2% a repetition never do (the
 * median moves over 1% each time the count doubles, though less than 0.5% from one batch to the next), and
 * the budget ends them unsettled. The verdicts rest on the times reported, not on the host's load. */
static void settle_in_measure(void)
{
    vkb_backend b;
    vkb_timing t = {0};
    vkb_stats st;
    memset(&b, 0, sizeof b);
    b.execute = fake_execute;
    t.budget_ms = 1e5; /* never reached: the times settle */
    mode = HONEST;
    ASSERT(vkb_timing_measure(&b, NULL, NULL, &t, &st) == 11 && st.settled == 1);
    t.budget_ms = 300; /* the drift never settles (however few repetitions a loaded host lets run) */
    mode = DRIFT, drawn = 0;
    ASSERT(vkb_timing_measure(&b, NULL, NULL, &t, &st) > 0 && st.settled == 0);
}

/* A GPU idle between two timed cases gets a warm-up at least as long as the idle time, up to the first
 * warm-up's length; a CPU implementation keeps its own (no clocks to raise); nothing warms at --warmup-ms 0.
 * The rule itself, then once through vkb_timing_measure: after 80 ms asleep a 1 ms warm-up lasts 80 ms or more
 * (one-sided: load only lengthens what is measured). */
static void idle_gap(void)
{
    vkb_backend b;
    vkb_timing t = {0};
    vkb_stats st;
    struct timespec nap = {0, 80 * 1000000L};
    ASSERT(vkb_timing_warmup_after_idle(1e6, 80e6, 1e9, 0) == 80e6);
    ASSERT(vkb_timing_warmup_after_idle(1e6, 5e9, 1e9, 0) == 1e9);       /* capped at the first warm-up */
    ASSERT(vkb_timing_warmup_after_idle(1e6, 5e5, 1e9, 0) == 1e6);       /* idle shorter than the warm-up */
    ASSERT(vkb_timing_warmup_after_idle(1e6, 80e6, 1e9, 1) == 1e6);      /* a CPU implementation */
    ASSERT(vkb_timing_warmup_after_idle(0, 80e6, 0, 0) == 0);            /* --warmup-ms 0 */
    ASSERT(vkb_timing_warmup_after_idle(300e6, 5e9, 200e6, 0) == 300e6); /* never shorter than asked */
    memset(&b, 0, sizeof b);
    b.execute = fake_execute;
    t.reps = 4, t.warmup_ms = 1, t.first_warmup_ms = 1000, t.budget_ms = 1e5;
    mode = HONEST;
    ASSERT(vkb_timing_measure(&b, NULL, NULL, &t, &st) == 4);
    nanosleep(&nap, NULL);
    ASSERT(vkb_timing_measure(&b, NULL, NULL, &t, &st) == 4 && vkb_timing_warmup_ns() >= 80e6);
}

/* clocks_held (a CUDA context open on the GPU): the idle spell before a case costs no warm-up of its length */
static void idle_gap_clocks_held(void)
{
    vkb_backend b;
    vkb_timing t = {0};
    vkb_stats st;
    struct timespec nap = {0, 80 * 1000000L};
    memset(&b, 0, sizeof b);
    b.execute = fake_execute;
    b.caps.clocks_held = 1;
    t.reps = 4, t.warmup_ms = 1, t.first_warmup_ms = 1, t.budget_ms = 1e5;
    mode = HONEST;
    ASSERT(vkb_timing_measure(&b, NULL, NULL, &t, &st) == 4);
    nanosleep(&nap, NULL);
    ASSERT(vkb_timing_measure(&b, NULL, NULL, &t, &st) == 4 && vkb_timing_warmup_ns() < 40e6);
}

/* cpu_share (health): a CPU implementation's repetitions scaled by the CPU share the process had around them.
 * Time spent off the CPUs (asleep here, as under another process's load) is taken out: 0.9 ms reported in each
 * 1 ms slept counts as far less; as measured without cpu_share, and on a GPU, whose time the host's load does not
 * make. One-sided: the process's own CPU time is at most its wall time on every CPU. */
static void cpu_share(void)
{
    vkb_backend b;
    vkb_timing t = {0};
    vkb_stats st;
    memset(&b, 0, sizeof b);
    b.execute = fake_execute;
    t.reps = 20;
    mode = OFF_CPU;
    b.caps.is_cpu = 1;
    vkb_timing_measure(&b, NULL, NULL, &t, &st);
    ASSERT(st.median == 9e5);
    t.cpu_share = 1;
    vkb_timing_measure(&b, NULL, NULL, &t, &st);
    ASSERT(st.median > 0 && st.median < 4.5e5);
    b.caps.is_cpu = 0;
    vkb_timing_measure(&b, NULL, NULL, &t, &st);
    ASSERT(st.median == 9e5);
}

UNIT_TESTS({"honest", honest}, {"zero", zero}, {"negative", negative}, {"too_long", too_long}, {"early_end", early_end},
           {"early_end_cpu", early_end_cpu}, {"early_end_cpu_loaded", early_end_cpu_loaded},
           {"settle_in_measure", settle_in_measure}, {"idle_gap", idle_gap},
           {"idle_gap_clocks_held", idle_gap_clocks_held}, {"cpu_share", cpu_share})
