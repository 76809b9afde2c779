/* runner_parts.h - what the runner's files (this folder: runner.c, work_list.c, preflight.c, execute.c, compare.c,
 * judge.c) share: the state of the shape being worked on and the functions each offers the others. Private to the
 * folder, which no layer's include path names. */
#ifndef VKB_RUNNER_PARTS_H
#define VKB_RUNNER_PARTS_H

#include "runner.h"

/* Outputs of the first backend that ran a variant, to compare the second one with. */
typedef struct saved_outputs {
    void *data[VKB_MAX_BUFFERS];
    uint64_t bytes[VKB_MAX_BUFFERS];
    uint64_t cap[VKB_MAX_BUFFERS]; /* kept from variant to variant: fresh memory costs a page fault per 4 KiB */
    double max_bound;              /* the first backend's check's largest bound (0: exact) */
    const char *backend;
    int valid;
} saved_outputs;

/* A device buffer holding an input of the current shape, shared by the variants that plan the same host
 * data (same pointer, size and flags) on the same backend; freed when the shape ends. */
typedef struct cached_input {
    int backend;
    const void *host;
    uint64_t bytes;
    unsigned flags;
    vkb_buffer *buf;
} cached_input;

/* What the run holds for the shape being worked on. */
typedef struct shape_state {
    int fam, shape;   /* -1: none */
    int lenient;      /* the family's sizes are shared with others (vkb_selected_family.shared_sizes) */
    char beyond[200]; /* a shape no kernel takes (no inputs, c.data NULL): why, each of its cases' skip */
    vkb_case c;
    int first_result; /* results of this shape start here (its ceilings first) */
    cached_input *inputs;
    int ninputs, cap;
    saved_outputs saved; /* the current variant's outputs on its first backend */
    int saved_variant;
    vkb_runner_clock clock; /* the run's clock when the shape began (-v: where the shape's time went) */
} shape_state;

/* runner.c */
/* RES as a row that failed with ERROR, untimed: one device's run ended there ("error: ERROR"), or, with SEVERAL
 * (one device of several), its device failed ("device failed: ERROR": the case in progress and every case not
 * run). The one place a failed row is written. */
void vkb_runner_fail_row(vkb_result *res, const char *error, int several);

/* preflight.c */
int vkb_preflight_apply_spec(const vkb_runner *r, const vkb_variant *v, vkb_variant *tuned, vkb_result *res);
/* The plan of V at C on CAPS within the device's limits: VKB_PLAN_OK, or VKB_PLAN_SKIP with WHY; a bad request
 * (VKB_PLAN_BAD_REQUEST) or one beyond the kernel or the device (VKB_PLAN_TOO_LARGE) with WHY naming the family,
 * row, shape and device, which ends the run (vkb_preflight_plan_exit: 2 or 4). LENIENT (a size shared with other
 * families, vkb_selected_family.shared_sizes): one beyond the kernel or the device is a skip of this case only. */
int vkb_preflight_plan(const vkb_family *f, const vkb_variant *v, const vkb_case *c, const vkb_caps *caps, int lenient,
                       vkb_plan *plan, char *why, size_t len);
/* The exit code of a vkb_preflight_plan CODE that ends the run (2 or 4), else 0. */
int vkb_preflight_plan_exit(int code);
/* Whether the shape whose first work item is W has a kernel to run: 0, with WHY, where a shared size is beyond
 * every kernel case of it (vkb_selected_family.shared_sizes); else 1. */
int vkb_preflight_shape_runs(const vkb_runner *r, const vkb_selection *sel, int w, char *why, size_t len);
void vkb_preflight_precompile(vkb_runner *r, const vkb_selection *sel);

/* compare.c */
void vkb_compare_outputs(vkb_result *res, const vkb_plan *plan, const saved_outputs *saved);
void vkb_compare_save(saved_outputs *saved, const vkb_plan *plan, const vkb_result *res);
void vkb_compare_forget(saved_outputs *saved);
void vkb_compare_free(saved_outputs *saved);

/* judge.c */
void vkb_judge_metric(const vkb_runner *r, const shape_state *st, vkb_result *res, const vkb_caps *caps);
void vkb_judge_ceiling(vkb_runner *r, const shape_state *st, vkb_result *res);

/* execute.c */
/* Free what the calling thread kept for reuse (the read-back buffer). */
void vkb_execute_thread_done(void);
void vkb_execute_case(vkb_runner *r, shape_state *st, int bi, const vkb_family *f, const vkb_variant *v,
                      vkb_result *res);

#endif
