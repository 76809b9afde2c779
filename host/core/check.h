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
/* Compare N 32-bit words exactly (copies, transposes, integer sums); past VKB_CHECK_CHUNK words in chunks of
 * that many on the host's cores, merged as below. */
void vkb_check_words(vkb_check *r, const uint32_t *out, const uint32_t *ref, uint64_t n);
#define VKB_CHECK_CHUNK (1u << 18)   /* words per chunk: a constant, so the chunks never depend on the threads */

/* Element checks on the host's cores (parallel.h): FN accounts chunk T's elements, in their order, into PART
 * with vkb_check_part_value; chunk T's elements all come after chunk T-1's, and the chunks depend on the
 * sizes alone. The parts are merged in chunk order, so the counts, the first bad element (the lowest index)
 * and the worst element are exactly those of vkb_check_value over every element in order, for any
 * VKB_THREADS. */
typedef struct vkb_check_part vkb_check_part;
typedef void (*vkb_check_chunk_fn)(void *ctx, vkb_check_part *part, int64_t chunk);
void vkb_check_chunks(vkb_check *r, int64_t chunks, vkb_check_chunk_fn fn, void *ctx);
/* vkb_check_value into a chunk's part (R's cols place the first bad element). */
void vkb_check_part_value(vkb_check_part *part, uint64_t index, double out, double ref, double bound);
/* Set r->pass from the counts; call once after the last element. */
void vkb_check_finish(vkb_check *r);

/* Freivalds' check of C = A B (row-major fp32, M x K times K x N) in double: ROUNDS random +-1 vectors x,
 * each row of C x compared with A (B x) against gamma_K(U) (|A| (|B| 1)). Accumulates into R. */
void vkb_check_freivalds(vkb_check *r, int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                         const float *c, int rounds, uint64_t seed, double u);

/* The check of a large product C = A B (docs/verification.md): every element finite; Freivalds' check
 * on blocks of VKB_PRODUCT_BLOCK elements of every row and every column (ROUNDS random +-1 vectors each
 * way) against a statistical model of the accumulation's rounding (VKB_PRODUCT_SIGMAS standard
 * deviations); and exact reference rows and columns that cover every position class of 16- and 128-wide
 * tiles and the last (edge) row and column, against the rigorous bound. U: unit roundoff of the
 * accumulation; MODE: how it accumulates (VKB_ACC_*). Fails any single element off by 1% of rms(C) at
 * 4096^3 and 8192^3 (fp32, and fp16 inputs with truncating fp32 accumulation). */
#define VKB_PRODUCT_SIGMAS 8.0
#define VKB_PRODUCT_ROUNDS 4
#define VKB_PRODUCT_BLOCK 256   /* elements per Freivalds sum: fewer make a tighter tolerance, cost M N K / it */
#define VKB_TENSOR_K_STEP 16.0 /* products per truncation of a tensor-core instruction (HMMA.16816) */
enum {
    VKB_ACC_ROUND = 0,    /* round to nearest after every product (fp32 FMA) */
    VKB_ACC_TRUNCATE = 1, /* tensor cores, fp32 accumulators: also truncate once per VKB_TENSOR_K_STEP */
    VKB_ACC_F16 = 2,      /* tensor cores, fp16 accumulators: exact products, one rounding per 16 (U: VKB_ACC16_U) */
    VKB_ACC_F16_EACH = 3  /* a library's fp16 accumulation, grouping unknown: a rounding after every product */
};
/* The fp16 accumulator's rounding (truncation's unit: it covers round to nearest's 2^-11 too) and the
 * sum of one instruction's 16 exact products inside it (at least fp32's precision, truncated). */
#define VKB_ACC16_U 0x1.0p-10
#define VKB_ACC16_U_IN 0x1.0p-22
/* The rigorous bound on an fp16-accumulated element, one group of 16 products at a time: with S the exact
 * partial sum after the group and *G the group's sum of |a b| (reset here), *E = *E (1 + u) + u |S| +
 * U_IN (*G + |S|). */
void vkb_bound_acc16_step(double s, double *g, double *e);
/* Whether product P of K ends a group of PER that an fp16 accumulator rounds after (PER 16: one HMMA). */
static inline int vkb_acc16_group_ends(int64_t p, int64_t k, int64_t per)
{
    return (p + 1) % per == 0 || p == k - 1;
}

/* What the product check needs from A and B alone (random vectors, references, model sums, exact lines):
 * built once per case (on vkb_threads() threads, parallel.h), shared by every variant checked on it. It
 * keeps A and B (M x K, K x N, row-major), which must outlive it. */
typedef struct vkb_product_ref vkb_product_ref;
vkb_product_ref *vkb_product_ref_create(int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                                        uint64_t seed);
void vkb_product_ref_destroy(vkb_product_ref *ref);
/* Check C against REF (accumulates into R). */
void vkb_product_check(vkb_check *r, const vkb_product_ref *ref, const float *c, double u, int mode);
/* Both in one call (the tests). */
void vkb_check_product(vkb_check *r, int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                       const float *c, double u, int mode, uint64_t seed);
/* The model tolerance of one Freivalds sum of vkb_check_product over N elements of K products (for tests
 * and docs): SIGMAS sqrt(sum_j Var e_ij), SUM_T = sum_j sum_p (a_ip b_pj)^2, SUM_C2 = sum_j C_ij^2. */
double vkb_product_row_tolerance(int64_t n, int64_t k, double sum_t, double sum_c2, double u, int mode);

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
/* VKB_FAULT_INJECT unset, or a fault of the known list (skip-pass:K with K decimal): 0; else -1 with WHY. */
int vkb_fault_check(char *why, size_t len);
#define vkb_fault(name) vkb_fault_arg(name, NULL)

/* fp32 -> fp16 bits, round to nearest even (NaN stays NaN, overflow to infinity); and back, exactly. */
uint16_t vkb_half_from_float(float f);
float vkb_half_to_float(uint16_t h);
/* COUNT fp16 values (bits H) as floats, exactly, in a new array (rounded up to 16 bytes). */
float *vkb_floats_of_halves(const uint16_t *h, int64_t count);

#endif
