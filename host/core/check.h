/* check.h - validating outputs: each element against its reference and bound (bounds.h), or exactly, counted
 * with the first bad element and the worst; on the host's cores in chunks that merge to the same verdict. */
#ifndef VKB_CHECK_H
#define VKB_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "bounds.h"

typedef struct vkb_check {
    int pass;
    uint64_t checked;   /* elements compared */
    uint64_t bad;       /* elements beyond their bound (NaN counts) */
    uint64_t first_bad; /* index of the first bad element */
    double worst_ratio; /* max over elements of |out - ref| / bound (exact: 0 or inf) */
    double max_error;   /* |out - ref| at the worst element */
    double tolerance;   /* the bound at the worst element */
    double max_bound;   /* the largest bound over the elements judged (0: every one exact; the cross-backend
                         * compare's, as the worst element's bound need not be the largest) */
    char method[96];    /* how it was checked: "exact", "gamma(K)*sum|a||b|", "Freivalds x8 + 256 entries" */
    /* the first wrong element, for the report: its row and column (-1 when the check has none: a 1-D
     * output, or a Freivalds line that failed before its element was found), expected and actual value */
    int64_t bad_row, bad_col;
    double bad_expected, bad_actual;
    uint64_t cols;    /* set by a 2-D check after init: bad_row/bad_col are derived from the index */
    char reason[160]; /* a failure beyond the values: guard bands, poison, timer, determinism */
} vkb_check;

void vkb_check_init(vkb_check *r, const char *method);
/* Account one element: OUT against REF with absolute BOUND (0 demands equality; NaN always fails). */
void vkb_check_value(vkb_check *r, uint64_t index, double out, double ref, double bound);
/* Compare N 32-bit words exactly (copies, transposes, integer sums); past VKB_CHECK_CHUNK words in chunks of
 * that many on the host's cores, merged as below. */
void vkb_check_words(vkb_check *r, const uint32_t *out, const uint32_t *ref, uint64_t n);
#define VKB_CHECK_CHUNK (1u << 18) /* words per chunk: a constant, so the chunks never depend on the threads */

/* Element checks on the host's cores (parallel.h): FN accounts chunk T's elements, in their order, into PART
 * with vkb_check_part_value; chunk T's elements all come after chunk T-1's, and the chunks depend on the
 * sizes alone. The parts are merged in chunk order, so the counts, the first bad element (the lowest index),
 * the worst element and the largest bound are exactly those of vkb_check_value over every element in order,
 * for any VKB_THREADS. */
typedef struct vkb_check_part vkb_check_part;
typedef void (*vkb_check_chunk_fn)(void *ctx, vkb_check_part *part, int64_t chunk);
void vkb_check_chunks(vkb_check *r, int64_t chunks, vkb_check_chunk_fn fn, void *ctx);
/* vkb_check_value into a chunk's part (R's cols place the first bad element). */
void vkb_check_part_value(vkb_check_part *part, uint64_t index, double out, double ref, double bound);
/* Set r->pass from the counts; call once after the last element. */
void vkb_check_finish(vkb_check *r);
/* Record the first wrong element (or line: ROW or COL -1) for the report; the counts are the caller's. */
void vkb_check_first_bad(vkb_check *r, uint64_t index, int64_t row, int64_t col, double out, double ref);

#endif
