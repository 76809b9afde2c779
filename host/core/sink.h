/* sink.h - where results go: the runner emits events, each output (table, JSON, CSV, progress, ...)
 * is a sink that receives them in order and streams what it can (nvbench's printers, fanned out). */
#ifndef VKB_SINK_H
#define VKB_SINK_H

#include <stdint.h>

#include "backend.h"
#include "family.h"
#include "result.h"

/* How the run measures: recorded in the JSON and shown where it matters. */
typedef struct vkb_run_settings {
    const char *command;      /* "run", "validate", "suite" */
    const char *command_line; /* argv joined by spaces, whole (not cut) */
    uint64_t seed;
    int timed;        /* 0 for validate */
    int cold;         /* --cold: caches flushed before each repetition */
    double warmup_ms; /* per variant (the first of the process warms longer) */
    double first_warmup_ms;
    double budget_ms;       /* per variant */
    int reps;               /* fixed repetitions, 0: until the median settles */
    const char *spec;       /* --spec text, NULL when none */
    int paired;             /* two backends side by side */
    int repeat;             /* --repeat N: each case's results come N times (vkb_result.repeat); 0: once */
    uint32_t subgroup_size; /* --subgroup-size, 0 when not given: rows are named NAME@sgN */
    int robustness_off;     /* --robustness disabled: Vulkan rows are named NAME@nobc */
} vkb_run_settings;

/* The work list, known before the first case runs. */
typedef struct vkb_run_plan {
    int cases; /* (family, shape, row, backend) tuples, ceilings included */
    int families;
    int shapes;   /* summed over the families: each runs its own shapes */
    int variants; /* summed over the families */
    int backends;
    double estimate_s; /* rough wall-time estimate; <= 0 when unknown */
    double check_s;    /* the part of it the families' CPU checks take (vkb_family_check_cost; preflight) */
    int beyond;        /* kernel cases a size shared by several families puts beyond their own family's
                                   or device's limits: each skips, with the reason (vkb_runner_preflight) */
} vkb_run_plan;

typedef struct vkb_sink vkb_sink;
struct vkb_sink {
    /* Once, before any work: devices, settings and the work list. */
    void (*begin)(vkb_sink *s, const vkb_run_settings *set, vkb_backend *const *backends, int nbackends,
                  const vkb_run_plan *plan);
    /* A family starts / ends (tables print their header / legend). May be NULL. */
    void (*family_begin)(vkb_sink *s, const vkb_family *f);
    void (*family_end)(vkb_sink *s, const vkb_family *f);
    /* One final result (its ceiling already attached); RES lives until end(). */
    void (*result)(vkb_sink *s, const vkb_result *res);
    /* Once, after all work or when the run stops early (INTERRUPTED): flush and close. Returns 0, or an exit
     * code with its one-line message already printed (a result file that could not be written). */
    int (*end)(vkb_sink *s, int interrupted);
    /* Release what the sink holds besides its memory (vkb_sink_destroy frees that). May be NULL. */
    void (*destroy)(vkb_sink *s);
    void *impl;
    /* B's warm-up probes measured again after the work (caps.recheck_*, clocks_moved), before end(); B may be gone
     * by end() (a device of several). May be NULL. */
    void (*recheck)(vkb_sink *s, const vkb_backend *b);
};

#endif
