/* runner.h - the only code that runs a variant: the work list, preflight, inputs, poison, dispatch, check,
 * time; results go out as events to sinks. */
#ifndef VKB_RUNNER_H
#define VKB_RUNNER_H

#include "backend.h"
#include "family.h"
#include "result.h"
#include "selection.h"
#include "sink.h"
#include "timing.h"

/* One case of the work list: a variant of a selected family at one of its shapes on one backend. */
typedef struct vkb_work {
    int fam;     /* index into the selection */
    int shape;   /* index into its shapes */
    int variant; /* index into the family's variants */
    int backend; /* index into vkb_runner.all */
    int repeat;  /* --repeat: which round of the shape's cases (0-based) */
} vkb_work;

/* Where the run's wall time went (-v prints it; the default suite's budget is found from it). */
typedef struct vkb_runner_clock {
    double inputs_ns;   /* case_create: host inputs and references */
    double prepare_ns;  /* pipelines, kernel lookup */
    double upload_ns;   /* buffers created, inputs uploaded, outputs poisoned */
    double run_ns;      /* the poison check, the checked run */
    double download_ns; /* the checked run's outputs read back */
    double check_ns;    /* the CPU check of the outputs, guard bands */
    double rerun_ns;    /* the determinism re-run, the cross-backend compare */
    double timing_ns;   /* warm-up and timed repetitions */
    double warmup_ns;   /* ... of which the warm-up */
    double wall_ns;     /* all of it, from the first case */
} vkb_runner_clock;

typedef struct vkb_runner {
    vkb_backend *backends[2]; /* the backends asked for */
    int nbackends;
    vkb_backend *all[2]; /* every backend open: ceilings may come from one not asked for */
    int nall;
    int timed;            /* 0 for `validate`: check only */
    vkb_timing timing[2]; /* per entry of all[] */
    uint64_t seed;
    const vkb_spec_value *spec; /* --spec: constants set in every selected kernel's shader */
    int nspec;
    int repeat;             /* --repeat N: each shape's cases run N times, in rounds; 0: once */
    uint32_t subgroup_size; /* --subgroup-size: every kernel's required subgroup size; 0: the device's */
    int robustness_off;     /* --robustness disabled: the Vulkan backend builds without bounds checks */
    vkb_results results;    /* every result, in the order emitted */
    vkb_sink *const *sinks; /* where results go */
    int nsinks;

    /* filled by the runner */
    vkb_work *work; /* the work list (vkb_runner_plan) */
    int nwork;
    int done; /* cases finished */
    vkb_runner_clock clock;
    double start_ns;     /* when the run began (vkb_now_ns) */
    int interrupted;     /* the signal that stopped the run (SIGINT, SIGTERM), else 0 */
    int several;         /* one of several devices' runners (--device LIST): the caller owns the end
                                   at exit; a failed device's cases not run are emitted as failed */
    int family;          /* the family whose family_begin the sinks got last, -1 none */
    void (*ended)(void); /* called once every sink has ended (the application reports the files that
                                   failed); may be NULL */
    void (*recheck)(const struct vkb_runner *r); /* after a run that finished, before the sinks end: the
                                   application measures the warm-up's ceilings again (host/app/warmup.c), then each
                                   sink hears of each device's (sink.h's recheck); may be NULL */
} vkb_runner;

/* Enumerate the work list of SEL once, up front: per family and shape its ceilings first (when timing, on
 * every backend open), then the selected variants on the backends asked for; with R->repeat N, that round of
 * the shape's cases N times over. Fills R->work and PLAN. */
void vkb_runner_plan(vkb_runner *r, const vkb_selection *sel, vkb_run_plan *plan);
/* Plan every case (without inputs) and check it against its device's limits before anything runs: returns 0, or
 * the exit code with ERR's one line for a request no run can hold (2: a bad request; 4: beyond the kernel or the
 * device); a size shared by several families beyond one of them: that case skips, and counts in ESTIMATE's
 * beyond. ESTIMATE (may be NULL) gains the host's work on the planned bytes, and the CPU checks of the planned cases
 * (in its check_s too): each case's own, and each reference once per shape (vkb_check_cost). */
int vkb_runner_preflight(vkb_runner *r, const vkb_selection *sel, vkb_run_plan *estimate, char *err, size_t len);
/* Seconds of the host's cores for MACS multiply-adds of a CPU check (vkb_check_cost), on vkb_threads() threads: the
 * estimate's model of the checks. */
double vkb_runner_check_seconds(double macs);
/* Run the work list, emitting begin, family_begin/end, each final result and end to the sinks. SIGINT and
 * SIGTERM stop the run after the current case; a run that exits early (vkb_die: out of host memory) still ends the
 * sinks. When a backend's device fails (backend.h) the case under way fails with its error and the run ends there:
 * the files record the error, and with R->several every case not run is emitted as failed with it (the device's
 * rows stay whole beside the other devices'); a stop signal its device did not answer ends the files as
 * interrupted, without that case. Returns 0, the first non-zero code a sink's end() returned, 128 + the signal
 * that stopped the run, or the failed device's error code (its message in the backend's error). */
int vkb_runner_run(vkb_runner *r, const vkb_selection *sel, const vkb_run_settings *set, const vkb_run_plan *plan);
/* The error of R's device when one of its backends failed during vkb_runner_run (backend.h), else NULL. */
const vkb_backend_error *vkb_runner_device_error(const vkb_runner *r);
/* Free what the calling thread's runs kept for reuse (a device thread's, before it ends; vkb_runner_free does it
 * for the thread that calls it). */
void vkb_runner_thread_done(void);
/* Free the work list and the results. */
void vkb_runner_free(vkb_runner *r);

#endif
