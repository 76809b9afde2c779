/* check.h - validating outputs against double-precision references with tolerances derived from
 * the arithmetic (Higham's gamma_n), exact compares, and Freivalds' check for large products. */
#ifndef VKB_CHECK_H
#define VKB_CHECK_H

#include <stddef.h>
#include <stdint.h>

typedef struct vkb_check {
    int pass;
    uint64_t checked;      /* elements compared */
    uint64_t bad;          /* elements beyond their bound (NaN counts) */
    uint64_t first_bad;    /* index of the first bad element */
    double worst_ratio;    /* max over elements of |out - ref| / bound (exact: 0 or inf) */
    double max_error;      /* |out - ref| at the worst element */
    double tolerance;      /* the bound at the worst element */
    char method[96];       /* how it was checked: "exact", "gamma(K)*sum|a||b|", "Freivalds x8 + 256 entries" */
    /* the first wrong element, for the report: its row and column (-1 when the check has none: a 1-D
     * output, or a Freivalds line that failed before its element was found), expected and actual value */
    int64_t bad_row, bad_col;
    double bad_expected, bad_actual;
    uint64_t cols;         /* set by a 2-D check after init: bad_row/bad_col are derived from the index */
    char reason[160];      /* a failure beyond the values: guard bands, poison, timer, determinism */
} vkb_check;

/* Unit roundoff of fp32 (2^-24) and fp16 (2^-11). */
#define VKB_U_F32 0x1.0p-24
#define VKB_U_F16 0x1.0p-11

/* gamma_n = n u / (1 - n u): bound on the relative error of n roundings (Higham, ASNA 3.1). */
double vkb_gamma(double n, double u);
/* Bound for a sum of N terms added in a balanced tree: gamma(ceil(log2 N)) * sum|x|; serial: gamma(N-1). */
double vkb_bound_tree_sum(uint64_t n, double sum_abs, double u);
double vkb_bound_serial_sum(uint64_t n, double sum_abs, double u);
/* Bound for a dot product of length K in any order: gamma(K) * sum|a_i b_i|. */
double vkb_bound_dot(uint64_t k, double sum_abs_products, double u);

void vkb_check_init(vkb_check *r, const char *method);
/* Account one element: OUT against REF with absolute BOUND (0 demands equality; NaN always fails). */
void vkb_check_value(vkb_check *r, uint64_t index, double out, double ref, double bound);
/* Compare N 32-bit words exactly (copies, transposes, integer sums). */
void vkb_check_words(vkb_check *r, const uint32_t *out, const uint32_t *ref, uint64_t n);
/* Set r->pass from the counts; call once after the last element. */
void vkb_check_finish(vkb_check *r);

/* Freivalds' check of C = A B (row-major fp32, M x K times K x N) in double: ROUNDS random +-1 vectors x,
 * each row of C x compared with A (B x) against gamma_K(U) (|A| (|B| 1)). Accumulates into R. */
void vkb_check_freivalds(vkb_check *r, int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                         const float *c, int rounds, uint64_t seed, double u);

/* The check of a large product C = A B (docs/verification.md): every element finite; Freivalds' check
 * by rows and by columns (ROUNDS random +-1 vectors each way) against a statistical model of fp32
 * rounding (VKB_PRODUCT_SIGMAS standard deviations); and exact reference rows and columns that cover
 * every position class of 16- and 128-wide tiles and the last (edge) row and column, against the
 * rigorous gamma_K bound. U: unit roundoff of the accumulation; TRUNCATING: it truncates (tensor cores),
 * whose biased errors the model accounts for. Fails any single element off by 1% of rms(C) at 4096^3. */
#define VKB_PRODUCT_SIGMAS 8.0
#define VKB_PRODUCT_ROUNDS 4
#define VKB_TENSOR_K_STEP 16.0 /* products per truncation of a tensor-core instruction (HMMA.16816) */
void vkb_check_product(vkb_check *r, int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                       const float *c, double u, int truncating, uint64_t seed);
/* Row I of the model tolerance of Freivalds' row check of vkb_check_product (for tests and docs):
 * SIGMAS sqrt(sum_j Var e_ij). */
double vkb_product_row_tolerance(int64_t n, int64_t k, double sum_t, double sum_c2, double u, int truncating);

/* Guard bands around device buffers: VKB_GUARD_BYTES of VKB_GUARD_WORD before and after each buffer's
 * range (after: from the 4-byte-rounded end). */
#define VKB_GUARD_BYTES 4096u
#define VKB_GUARD_WORD 0x6A09E667u
/* The guard word of the N-th buffer a backend creates (VKB_GUARD_WORD for N = 0): buffers differ, so a
 * kernel copying one buffer's band into another's is seen. */
uint32_t vkb_guard_word(uint32_t n);
/* Translate a band of VKB_GUARD_BYTES filled with WORD into one filled with VKB_GUARD_WORD (bytes that
 * differ keep differing). */
void vkb_guard_normalize(void *band, uint32_t word);
/* Scan the guard bytes BEFORE and AFTER (VKB_GUARD_BYTES each) of buffer INDEX (ROLE "output", "input",
 * "scratch"); returns how many bytes differ from the pattern, and when any, writes to MSG e.g.
 * "wrote 4 bytes after the end of output 0, at +0..+3". */
uint64_t vkb_guard_scan(const uint8_t *before, const uint8_t *after, int index, const char *role, char *msg,
                        size_t len);

/* Fault injection, to prove the checks (tests): VKB_FAULT_INJECT=NAME or NAME:VALUE. 1 when the
 * environment names NAME (VALUE, when not NULL, set from the number after the colon, else -1). Names:
 * no-dispatch, skip-pass:K, no-poison, oob-write, drop-element, second-run-differs, timer-zero,
 * timer-reversed, timer-early, product-element, product-tile, product-nan (docs/verification.md). */
int vkb_fault_arg(const char *name, long *value);
#define vkb_fault(name) vkb_fault_arg(name, NULL)

/* fp32 -> fp16 bits, round to nearest even (NaN stays NaN, overflow to infinity); and back, exactly. */
uint16_t vkb_half_from_float(float f);
float vkb_half_to_float(uint16_t h);

#endif
