/* timing.h - how long to warm up and how many repetitions to time: the policy, for any backend. */
#ifndef VKB_TIMING_H
#define VKB_TIMING_H

#include "backend.h"
#include "stats.h"

typedef struct vkb_timing {
    int reps;               /* fixed count; 0 = until the median settles or the budget is spent */
    int cold;               /* evict caches before each repetition */
    double warmup_ms;       /* wall time spent warming up each variant */
    double first_warmup_ms; /* the first variant of a process warms up longer: clocks ramp */
    double budget_ms;       /* wall time for the timed repetitions of one variant */
    int cpu_share;          /* a CPU implementation's repetitions scaled by the share of the CPUs the process had
                           * around them: what other processes took is not the device's slowness (health) */
} vkb_timing;

/* Defaults for a device: short on a CPU implementation, longer on a GPU whose clocks ramp up. */
void vkb_timing_defaults(vkb_timing *t, const vkb_caps *caps);

/* Warm up, then time repetitions of PREPARED on BUFS. Fills ST (nanoseconds) and returns the sample count. */
int vkb_timing_measure(vkb_backend *b, void *prepared, vkb_buffer *const *bufs, const vkb_timing *t, vkb_stats *st);

/* 1 with the reason in WHY when the last vkb_timing_measure found its timer insane: a repetition of zero
 * or negative time (timestamps out of order), a batch longer on the device than on the host's clock
 * around the same submission, or device time a vanishing fraction of the host's (an end timestamp
 * written before the work); else 0. */
int vkb_timing_error(char *why, size_t len);

/* Host time the last vkb_timing_measure spent warming up (ns; -v says where the time went). */
double vkb_timing_warmup_ns(void);
/* Whether the last vkb_timing_measure stopped early because a signal asked the run to stop (signals.h). */
int vkb_timing_cut_short(void);

/* Backends with timestamps report, for each timed submission, the sum of its repetitions' times and the
 * span from the first start to the last end (ns): repetitions separated by one barrier cover most of
 * their span; a small fraction means the end timestamps came before the work. */
void vkb_timing_span(double measured_ns, double span_ns);

/* The stopping rule, separate for testing: has the median of the first N samples moved less than
 * SETTLE_FRACTION from the median of the first PREV_N? */
int vkb_timing_settled(const double *samples, int prev_n, int n);

/* The warm-up of a case after its GPU was idle IDLE_NS since the thread's last timed run: at least as long as
 * the idle time, up to FIRST_NS (the first warm-up's length); WARM_NS as it is on a CPU implementation, at 0
 * (--warmup-ms 0) or after a shorter idle time. */
double vkb_timing_warmup_after_idle(double warm_ns, double idle_ns, double first_ns, int is_cpu);

#endif
