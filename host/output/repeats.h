/* repeats.h - the N runs of a case under --repeat folded into the one row a table shows: the median of the
 * runs' medians and the spread between the runs (the JSON and CSV keep every run). */
#ifndef VKB_REPEATS_H
#define VKB_REPEATS_H

#include "result.h"

/* A case's runs as one row. R.repeat is -1 (folded); R's statistics: median, q1 and q3 the medians of the
 * runs' own, min and max over all, reps all the runs' repetitions, settled when every run settled; metric
 * work / that median, fraction the median of the runs' fractions (each against its own round's ceiling).
 * A failed run makes the row that run. */
typedef struct vkb_folded {
    vkb_result r;  /* first: a table holding &r finds the spread again */
    double spread; /* (slowest - fastest run median) / the median of the medians; NAN below 2 timed runs */
} vkb_folded;

typedef struct vkb_repeats {
    struct vkb_repeat_case *cases;
    int n, cap;
} vkb_repeats;

/* Fold the N RUNS of one case into OUT. */
void vkb_repeats_fold(const vkb_result *const *runs, int n, vkb_folded *out);
/* Collect R, one run of its case (R->repeats runs in all); returns the folded row when R completes the case
 * (it lives until vkb_repeats_free), else NULL. */
const vkb_folded *vkb_repeats_add(vkb_repeats *rs, const vkb_result *r);
/* A case not complete yet (a run stopped early), folded from the runs it has; NULL when there is none left. */
const vkb_folded *vkb_repeats_incomplete(vkb_repeats *rs);
void vkb_repeats_free(vkb_repeats *rs);

#endif
