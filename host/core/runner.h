/* runner.h - the only code that runs a variant: inputs, poison, dispatch, check, time. */
#ifndef VKB_RUNNER_H
#define VKB_RUNNER_H

#include "backend.h"
#include "family.h"
#include "result.h"
#include "timing.h"

typedef struct vkb_runner {
    vkb_backend *backends[2];   /* the backends asked for */
    int nbackends;
    vkb_backend *all[2];        /* every backend open: ceilings may come from one not asked for */
    int nall;
    int timed;                  /* 0 for `validate`: check only */
    vkb_timing timing[2];       /* per entry of all[] */
    uint64_t seed;
    vkb_results results;
    const vkb_spec_value *spec; /* --spec: constants set in every selected kernel's shader */
    int nspec;
    /* called after each result (JSON streaming, progress) */
    void (*on_result)(struct vkb_runner *r, const vkb_result *res, void *user);
    void *user;
    int progress_total, progress_done;
} vkb_runner;

/* Run the selected variants (SELECTED[i] for family->variants[i]) of F at SHAPE on every backend,
 * plus the family's ceilings when timing; append results. */
void vkb_runner_family_shape(vkb_runner *r, const vkb_family *f, const int *selected, const vkb_shape *shape);

#endif
