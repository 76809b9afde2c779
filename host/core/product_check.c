/* product_check.c - the check of a large product C = A B (docs/verification.md): what it needs from A and B
 * (built once per case), the pass over C, and its statistical model of the rounding (threaded). */
#include "product_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "parallel.h"
#include "util.h"

/* Statistical model of the rounding error of one element C_ij = sum_p t_p (t_p = a_ip b_pj), summed in
 * any order (serial is the model's worst): e = sum_p d_p s_p + sum_p d'_p t_p with independent |d| <= u
 * and s_p the partial sums. With the t_p of mean mu = C/K and second moment T/K,
 * E e^2 <= u^2 [((K+1)/2 + 1) T + (K+1)(2K+1)/(6K) C^2]. Truncating accumulation (tensor cores) adds
 * the bias -u/2 sign(s)|s| of every truncation; the tensor cores truncate once per instruction of
 * VKB_TENSOR_K_STEP products (HMMA.16816 on the H100 and A100): (u/2)^2 E(sum_q s_q)^2 over K/S steps
 * <= u^2 (K^2/(12 S^2) T + K^2/(16 S^2) C^2).
 * An fp16 accumulator (VKB_ACC_F16) adds Q = ceil(K/S) exact groups of products and rounds (or truncates:
 * u = VKB_ACC16_U covers both) only then: u^2 [(Q+1)/2 T + (Q+1)(2Q+1)/(6Q) C^2] for the rounding, the
 * truncation's bias u^2 (Q^2/12 T + Q^2/16 C^2), and the sums inside the instruction (error below
 * VKB_ACC16_U_IN (g_q + |s_q|) per group) at most 2 U_IN^2 (K T + Q E sum_q s_q^2). A library's fp16
 * accumulation of unknown grouping (VKB_ACC_F16_EACH) is taken as Q = K groups of one product.
 * Summed over a line with independent +-1 weights, Var = sum_j E e_ij^2; SUM_T = sum_j T_ij and
 * SUM_C2 = sum_j C_ij^2 make it. The tolerance is VKB_PRODUCT_SIGMAS standard deviations (Hoeffding:
 * a clean line exceeds it with probability below 2 exp(-32) = 2.5e-14). */
double vkb_product_row_tolerance(int64_t n, int64_t k, double sum_t, double sum_c2, double u, int mode)
{
    double kk = (double)k, var;
    (void)n;
    if (mode == VKB_ACC_F16 || mode == VKB_ACC_F16_EACH) { /* Q groups: of 16 products, or of one */
        double q = mode == VKB_ACC_F16 ? ceil(kk / VKB_TENSOR_K_STEP) : kk;
        double rnd = (q + 1) / 2 * sum_t + (q + 1) * (2 * q + 1) / (6 * q) * sum_c2;
        double in = VKB_ACC16_U_IN / u;
        return VKB_PRODUCT_SIGMAS * u *
               sqrt(rnd + q * q / 12.0 * sum_t + q * q / 16.0 * sum_c2 + 2 * in * in * (kk * sum_t + q * rnd));
    }
    var = ((kk + 1) / 2 + 1) * sum_t + (kk + 1) * (2 * kk + 1) / (6 * kk) * sum_c2;
    if (mode == VKB_ACC_TRUNCATE)
        var += kk * kk / (12.0 * VKB_TENSOR_K_STEP * VKB_TENSOR_K_STEP) * sum_t +
               kk * kk / (16.0 * VKB_TENSOR_K_STEP * VKB_TENSOR_K_STEP) * sum_c2;
    return VKB_PRODUCT_SIGMAS * u * sqrt(var);
}

/* ---- what the check of C = A B needs from A and B alone (built once per case) ---- */

struct vkb_product_ref {
    int64_t m, n, k, nbc, nbr; /* column blocks of the rows, row blocks of the columns */
    const float *a, *b;
    double *x, *y;           /* rounds x N and rounds x M random signs */
    double *vx, *vsq, *vabs; /* per p: B's row p against x by column block; sum b^2, sum |b| by block */
    double *wx, *wsq, *wabs; /* per p: A's column p against y by row block; sum a^2, sum |a| by block */
    double *row;             /* per row i and column block: R references, sum T, rigorous sum */
    double *col;             /* per column j and row block: the same */
    int nlr, nlc;
    int64_t lr[17], lc[17]; /* the exact lines */
    double *lrow, *lcol;    /* exact values, sum |a b| and the fp16-accumulation bound: 3 per element */
};

enum { R = VKB_PRODUCT_ROUNDS, BW = VKB_PRODUCT_BLOCK, L = VKB_PRODUCT_ROUNDS + 2, CHUNK = 64 };

/* The passes over A, B and C below, also compiled for AVX2 and picked when the program loads where the CPU
 * has it: twice SSE2's doubles a vector (with the row groups below, the 4096^3 reference 1.5x faster on one
 * core here). The same bits: the vectors run across independent sums (no sum is reordered) and AVX2 brings
 * no FMA to contract into. */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__GLIBC__) /* ifunc: glibc picks the clone */
#define WIDE_PASS __attribute__((target_clones("avx2", "default")))
#else
#define WIDE_PASS
#endif

static double rademacher(vkb_rng *rng)
{
    return (vkb_rng_u64(rng) >> 63) ? 1.0 : -1.0;
}

/* Lines checked exactly: 16 consecutive position classes of a 16-wide tile spread over 128-wide tiles
 * (t * 129), and the last line (the edge tile); deduplicated, ascending. */
static int exact_lines(int64_t size, int64_t *out)
{
    int count = 0;
    for (int t = 0; t <= 16; t++) {
        int64_t v = t < 16 ? (int64_t)t * 129 % size : size - 1;
        int dup = 0;
        for (int q = 0; q < count; q++)
            dup |= out[q] == v;
        if (!dup)
            out[count++] = v;
    }
    return count;
}

/* Task: rows P of B (a chunk) against every round's x, by column block, and their sums of squares and |b|. */
WIDE_PASS static void ref_b_rows(void *ctx, int64_t t)
{
    vkb_product_ref *f = ctx;
    for (int64_t p = t * CHUNK; p < f->k && p < (t + 1) * CHUNK; p++) {
        const float *b = f->b + p * f->n;
        for (int64_t cb = 0; cb < f->nbc; cb++) {
            double s[R] = {0}, sq = 0, ab = 0;
            for (int64_t j = cb * BW; j < f->n && j < (cb + 1) * BW; j++) {
                double v = b[j];
                for (int r = 0; r < R; r++)
                    s[r] += v * f->x[r * f->n + j];
                sq += v * v;
                ab += fabs(v);
            }
            for (int r = 0; r < R; r++)
                f->vx[(p * f->nbc + cb) * R + r] = s[r];
            f->vsq[p * f->nbc + cb] = sq;
            f->vabs[p * f->nbc + cb] = ab;
        }
    }
}

/* Rows a pass takes at once (of A in ref_a_block and ref_exact_cols, of B in ref_b_cols): what one row reads
 * (B x by block, B's exact columns) or updates stays in L1 for the next, a quarter of the traffic to L2.
 * Every sum still adds its terms in the same order: the same bits. */
enum { GROUP = 4 };

/* Task: row block T of A: each row's references A (B x) by column block with its model and rigorous sums,
 * and the block's columns of A against y (for the column side), gathered in W (K x (R + 2)) first. */
WIDE_PASS static void ref_a_block(void *ctx, int64_t t)
{
    vkb_product_ref *f = ctx;
    int64_t nx = f->nbc * R, per = nx + 2 * f->nbc, end = f->m < (t + 1) * BW ? f->m : (t + 1) * BW;
    double *acc = vkb_alloc((size_t)(GROUP * per) * sizeof *acc);
    double *w = vkb_calloc((size_t)(f->k * L), sizeof *w);
    for (int64_t i0 = t * BW; i0 < end; i0 += GROUP) {
        int ng = end - i0 < GROUP ? (int)(end - i0) : GROUP;
        double y[GROUP][R];
        for (int g = 0; g < ng; g++)
            for (int r = 0; r < R; r++)
                y[g][r] = f->y[r * f->m + i0 + g];
        memset(acc, 0, (size_t)(ng * per) * sizeof *acc);
        for (int64_t p = 0; p < f->k; p++) {
            const double *vx = f->vx + p * nx, *vsq = f->vsq + p * f->nbc, *vab = f->vabs + p * f->nbc;
            double *wp = w + p * L;
            for (int g = 0; g < ng; g++) { /* the rows in order: W's sums over them too */
                double v = f->a[(i0 + g) * f->k + p], v2 = v * v, va = fabs(v);
                double *ag = acc + g * per, *asq = ag + nx, *aab = asq + f->nbc;
                for (int64_t c = 0; c < nx; c++)
                    ag[c] += v * vx[c];
                for (int64_t cb = 0; cb < f->nbc; cb++) {
                    asq[cb] += v2 * vsq[cb];
                    aab[cb] += va * vab[cb];
                }
                for (int r = 0; r < R; r++)
                    wp[r] += v * y[g][r];
                wp[R] += v2;
                wp[R + 1] += va;
            }
        }
        for (int g = 0; g < ng; g++)
            for (int64_t cb = 0; cb < f->nbc; cb++) {
                const double *ag = acc + g * per;
                double *o = f->row + ((i0 + g) * f->nbc + cb) * L;
                for (int r = 0; r < R; r++)
                    o[r] = ag[cb * R + r];
                o[R] = ag[nx + cb];
                o[R + 1] = ag[nx + f->nbc + cb];
            }
    }
    for (int64_t p = 0; p < f->k; p++) {
        for (int r = 0; r < R; r++)
            f->wx[(p * f->nbr + t) * R + r] = w[p * L + r];
        f->wsq[p * f->nbr + t] = w[p * L + R];
        f->wabs[p * f->nbr + t] = w[p * L + R + 1];
    }
    free(acc);
    free(w);
}

/* Task: a chunk of columns of B against every round's y^T A, by row block, with the model and rigorous sums. */
WIDE_PASS static void ref_b_cols(void *ctx, int64_t t)
{
    vkb_product_ref *f = ctx;
    int64_t j0 = t * CHUNK, nj = f->n - j0 < CHUNK ? f->n - j0 : CHUNK, nx = f->nbr * R;
    double *acc = vkb_calloc((size_t)((nx + 2 * f->nbr) * CHUNK), sizeof *acc);
    double *asq = acc + nx * CHUNK, *aab = asq + f->nbr * CHUNK, b2[GROUP][CHUNK], ba[GROUP][CHUNK];
    for (int64_t p0 = 0; p0 < f->k; p0 += GROUP) {
        int np = f->k - p0 < GROUP ? (int)(f->k - p0) : GROUP;
        const float *b = f->b + p0 * f->n + j0; /* row p0 + q at b + q n */
        for (int q = 0; q < np; q++)
            for (int64_t jj = 0; jj < nj; jj++) {
                b2[q][jj] = (double)b[q * f->n + jj] * b[q * f->n + jj];
                ba[q][jj] = fabs(b[q * f->n + jj]);
            }
        for (int64_t c = 0; c < nx; c++)
            for (int q = 0; q < np; q++) { /* the rows in order: each sum over p as before */
                double w = f->wx[(p0 + q) * nx + c];
                for (int64_t jj = 0; jj < nj; jj++)
                    acc[c * CHUNK + jj] += w * b[q * f->n + jj];
            }
        for (int64_t rb = 0; rb < f->nbr; rb++)
            for (int q = 0; q < np; q++) {
                double wq = f->wsq[(p0 + q) * f->nbr + rb], wa = f->wabs[(p0 + q) * f->nbr + rb];
                for (int64_t jj = 0; jj < nj; jj++) {
                    asq[rb * CHUNK + jj] += wq * b2[q][jj];
                    aab[rb * CHUNK + jj] += wa * ba[q][jj];
                }
            }
    }
    for (int64_t jj = 0; jj < nj; jj++)
        for (int64_t rb = 0; rb < f->nbr; rb++) {
            double *o = f->col + ((j0 + jj) * f->nbr + rb) * L;
            for (int r = 0; r < R; r++)
                o[r] = acc[(rb * R + r) * CHUNK + jj];
            o[R] = asq[rb * CHUNK + jj];
            o[R + 1] = aab[rb * CHUNK + jj];
        }
    free(acc);
}

/* Task: a chunk of columns of the exact rows: value, sum |a b| and the fp16-accumulation bound; every
 * line at once, so that B is read once. */
WIDE_PASS static void ref_exact_rows(void *ctx, int64_t t)
{
    vkb_product_ref *f = ctx;
    int64_t j0 = t * CHUNK, nj = f->n - j0 < CHUNK ? f->n - j0 : CHUNK;
    int nl = f->nlr;
    double *s = vkb_calloc((size_t)(4 * nl * CHUNK), sizeof *s), *sa = s + nl * CHUNK, *g = sa + nl * CHUNK;
    double *e = g + nl * CHUNK;
    for (int64_t p = 0; p < f->k; p++) {
        const float *b = f->b + p * f->n + j0;
        for (int q = 0; q < nl; q++) {
            double v = f->a[f->lr[q] * f->k + p], *sq = s + q * CHUNK, *gq = g + q * CHUNK;
            for (int64_t jj = 0; jj < nj; jj++) {
                double x = v * b[jj];
                sq[jj] += x;
                gq[jj] += fabs(x);
            }
        }
        if (vkb_acc16_group_ends(p, f->k, (int64_t)VKB_TENSOR_K_STEP))
            for (int64_t c = 0; c < nl * CHUNK; c++) {
                sa[c] += g[c];
                vkb_bound_acc16_step(s[c], &g[c], &e[c]);
            }
    }
    for (int q = 0; q < nl; q++)
        for (int64_t jj = 0; jj < nj; jj++) {
            double *o = f->lrow + (q * f->n + j0 + jj) * 3;
            o[0] = s[q * CHUNK + jj];
            o[1] = sa[q * CHUNK + jj];
            o[2] = e[q * CHUNK + jj];
        }
    free(s);
}

/* Element (I, J) of A B in double, its sum |a b| and its fp16-accumulation bound; B's column J in BCOL. */
static void exact_element(int64_t k, const float *arow, const double *bcol, double *o)
{
    double s = 0, sa = 0, g = 0, e = 0;
    for (int64_t p = 0; p < k; p++) {
        double x = (double)arow[p] * bcol[p];
        s += x;
        g += fabs(x);
        if (vkb_acc16_group_ends(p, k, (int64_t)VKB_TENSOR_K_STEP)) {
            sa += g;
            vkb_bound_acc16_step(s, &g, &e);
        }
    }
    o[0] = s;
    o[1] = sa;
    o[2] = e;
}

/* Task: a chunk of rows of the exact columns, every line at once (BT: the lines' columns of B, K x lines). */
WIDE_PASS static void ref_exact_cols(void *ctx, int64_t t)
{
    vkb_product_ref *f = ctx;
    int nl = f->nlc;
    int64_t end = f->m < (t + 1) * CHUNK ? f->m : (t + 1) * CHUNK;
    double *bt = vkb_alloc((size_t)(f->k * nl) * sizeof *bt), s[GROUP][17], sa[GROUP][17], g[GROUP][17], e[GROUP][17];
    for (int64_t p = 0; p < f->k; p++)
        for (int q = 0; q < nl; q++)
            bt[p * nl + q] = f->b[p * f->n + f->lc[q]];
    for (int64_t i0 = t * CHUNK; i0 < end; i0 += GROUP) { /* GROUP rows a pass over BT */
        int ng = end - i0 < GROUP ? (int)(end - i0) : GROUP;
        memset(s, 0, sizeof s);
        memset(sa, 0, sizeof sa);
        memset(g, 0, sizeof g);
        memset(e, 0, sizeof e);
        for (int64_t p = 0; p < f->k; p++) {
            int ends = vkb_acc16_group_ends(p, f->k, (int64_t)VKB_TENSOR_K_STEP);
            for (int r = 0; r < ng; r++) {
                double v = f->a[(i0 + r) * f->k + p];
                for (int q = 0; q < nl; q++) {
                    double x = v * bt[p * nl + q];
                    s[r][q] += x;
                    g[r][q] += fabs(x);
                }
                for (int q = 0; ends && q < nl; q++) {
                    sa[r][q] += g[r][q];
                    vkb_bound_acc16_step(s[r][q], &g[r][q], &e[r][q]);
                }
            }
        }
        for (int r = 0; r < ng; r++)
            for (int q = 0; q < nl; q++) {
                double *o = f->lcol + (q * f->m + i0 + r) * 3;
                o[0] = s[r][q];
                o[1] = sa[r][q];
                o[2] = e[r][q];
            }
    }
    free(bt);
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

vkb_product_ref *vkb_product_ref_create(int64_t m, int64_t n, int64_t k, const float *a, const float *b, uint64_t seed)
{
    vkb_product_ref *f = vkb_calloc(1, sizeof *f);
    vkb_rng rng;
    f->m = m, f->n = n, f->k = k, f->a = a, f->b = b;
    f->nbc = ceil_div(n, BW);
    f->nbr = ceil_div(m, BW);
    f->x = vkb_alloc((size_t)(R * n) * sizeof *f->x);
    f->y = vkb_alloc((size_t)(R * m) * sizeof *f->y);
    vkb_rng_seed(&rng, seed);
    for (int r = 0; r < R; r++) {
        for (int64_t j = 0; j < n; j++)
            f->x[r * n + j] = rademacher(&rng);
        for (int64_t i = 0; i < m; i++)
            f->y[r * m + i] = rademacher(&rng);
    }
    f->vx = vkb_alloc((size_t)(k * f->nbc * R) * sizeof *f->vx);
    f->vsq = vkb_alloc((size_t)(k * f->nbc) * sizeof *f->vsq);
    f->vabs = vkb_alloc((size_t)(k * f->nbc) * sizeof *f->vabs);
    f->wx = vkb_calloc((size_t)(k * f->nbr * R), sizeof *f->wx);
    f->wsq = vkb_calloc((size_t)(k * f->nbr), sizeof *f->wsq);
    f->wabs = vkb_calloc((size_t)(k * f->nbr), sizeof *f->wabs);
    f->row = vkb_alloc((size_t)(m * f->nbc * L) * sizeof *f->row);
    f->col = vkb_alloc((size_t)(n * f->nbr * L) * sizeof *f->col);
    f->nlr = exact_lines(m, f->lr);
    f->nlc = exact_lines(n, f->lc);
    f->lrow = vkb_alloc((size_t)(f->nlr * n * 3) * sizeof *f->lrow);
    f->lcol = vkb_alloc((size_t)(f->nlc * m * 3) * sizeof *f->lcol);
    vkb_parallel_run(ceil_div(k, CHUNK), ref_b_rows, f);
    vkb_parallel_run(f->nbr, ref_a_block, f);
    vkb_parallel_run(ceil_div(n, CHUNK), ref_b_cols, f);
    vkb_parallel_run(ceil_div(n, CHUNK), ref_exact_rows, f);
    vkb_parallel_run(ceil_div(m, CHUNK), ref_exact_cols, f);
    return f;
}

double vkb_product_ref_macs(int64_t m, int64_t n, int64_t k)
{
    int64_t lines[17];
    double mk = (double)m * (double)k, kn = (double)k * (double)n;
    /* ref_b_rows and ref_a_block, ref_b_cols (its sums of squares and |b| included), the exact rows and columns */
    return (R + 2) * (kn + mk * (double)(ceil_div(n, BW) + 1)) + kn * ((R + 2) * (double)ceil_div(m, BW) + 2) +
           2.0 * (exact_lines(m, lines) * kn + exact_lines(n, lines) * mk);
}

double vkb_product_check_macs(int64_t m, int64_t n, int64_t k)
{
    (void)k;
    return (2 * R + 4) * (double)m * (double)n; /* c_block: C x and y^T C by round, sum C^2 and sum |C| both ways */
}

void vkb_product_ref_destroy(vkb_product_ref *f)
{
    if (!f)
        return;
    free(f->x);
    free(f->y);
    free(f->vx);
    free(f->vsq);
    free(f->vabs);
    free(f->wx);
    free(f->wsq);
    free(f->wabs);
    free(f->row);
    free(f->col);
    free(f->lrow);
    free(f->lcol);
    free(f);
}

/* ---- the per-variant pass over C ---- */

typedef struct c_pass {
    const vkb_product_ref *f;
    const float *c;
    double *row;         /* per row and column block: R residual sums C x, sum C^2, sum |C| */
    double *col;         /* per column and row block: R sums y^T C, sum C^2, sum |C| */
    uint64_t *nonfinite; /* per row block: the count, and the first index (UINT64_MAX: none) */
} c_pass;

/* Task: row block T of C, its rows by column block and its columns (the row block is a column's block),
 * the columns' sums gathered in COL (N x L, this task's own: no cache line shared with another thread). */
WIDE_PASS static void c_block(void *ctx, int64_t t)
{
    c_pass *cp = ctx;
    const vkb_product_ref *f = cp->f;
    int64_t n = f->n;
    double *col = vkb_calloc((size_t)(n * L), sizeof *col);
    uint64_t bad = 0, first = UINT64_MAX;
    for (int64_t i = t * BW; i < f->m && i < (t + 1) * BW; i++) {
        const float *c = cp->c + i * n;
        double y[R];
        for (int r = 0; r < R; r++)
            y[r] = f->y[r * f->m + i];
        for (int64_t cb = 0; cb < f->nbc; cb++) {
            double s[R] = {0}, sq = 0, ab = 0, *o = cp->row + (i * f->nbc + cb) * L;
            for (int64_t j = cb * BW; j < n && j < (cb + 1) * BW; j++) {
                double v = c[j], *cl = col + j * L;
                if (!isfinite(v) && bad++ == 0)
                    first = (uint64_t)(i * n + j);
                for (int r = 0; r < R; r++) {
                    s[r] += v * f->x[r * n + j];
                    cl[r] += v * y[r];
                }
                sq += v * v;
                ab += fabs(v);
                cl[R] += v * v;
                cl[R + 1] += fabs(v);
            }
            for (int r = 0; r < R; r++)
                o[r] = s[r];
            o[R] = sq;
            o[R + 1] = ab;
        }
    }
    for (int64_t j = 0; j < n; j++)
        memcpy(cp->col + (j * f->nbr + t) * L, col + j * L, L * sizeof *col);
    cp->nonfinite[2 * t] = bad;
    cp->nonfinite[2 * t + 1] = first;
    free(col);
}

static void mark_bad(vkb_check *r, uint64_t index, int64_t row, int64_t col, double out, double ref)
{
    r->checked++;
    if (r->bad++ == 0)
        vkb_check_first_bad(r, index, row, col, out, ref);
    r->worst_ratio = INFINITY;
    r->max_error = fabs(out - ref);
    r->tolerance = 0;
}

/* A Freivalds line (a block of row I or of column J) against its tolerance; INDEX: its first element. */
static int line_check(vkb_check *r, uint64_t index, int64_t row, int64_t col, double out, double ref, double tol)
{
    uint64_t bad = r->bad;
    uint64_t cols = r->cols;
    r->cols = 0;
    vkb_check_value(r, index, out, ref, tol);
    r->cols = cols;
    if (r->bad > bad && r->bad == 1) {
        r->bad_row = row;
        r->bad_col = col;
    }
    return r->bad > bad;
}

/* The R residuals of one block line: reference sums REF (R, sum T, rigorous sum), C's sums OUT, over W
 * elements of K products each. Returns 1 when a round failed; *WIDEST: the rigorous bound / tolerance. */
static int block_lines(vkb_check *r, uint64_t index, int64_t row, int64_t col, const double *ref, const double *out,
                       int64_t w, int64_t k, double u, int mode, double *widest)
{
    /* + the double sums' own rounding: (w + K + 2) products and sums of terms at most sum|C| + rigorous */
    double tol = vkb_product_row_tolerance(w, k, ref[R], out[R], u, mode) +
                 vkb_gamma((double)(w + k + 2), 0x1.0p-53) * (out[R + 1] + ref[R + 1]);
    double rig = 2 * vkb_gamma((double)k, mode >= VKB_ACC_F16 ? VKB_ACC16_U : u) * ref[R + 1];
    int fail = 0;
    if (rig / tol > *widest)
        *widest = rig / tol;
    for (int q = 0; q < R; q++)
        fail |= line_check(r, index, row, col, out[q], ref[q], tol);
    return fail;
}

/* VKB_FAULT_INJECT=product-element|product-tile|product-nan: a copy of C with one element off by 1% of
 * rms(C), one 16x16 tile (the middle one) off by 1%, or one NaN, to prove the check on a device's own
 * product (tools/gpu.sh validate); NULL without the fault. */
static float *planted_product(int64_t m, int64_t n, const float *c)
{
    int element = vkb_fault("product-element"), tile = vkb_fault("product-tile"), nan = vkb_fault("product-nan");
    int64_t i0 = m / 2 / 16 * 16, j0 = n / 2 / 16 * 16;
    double s = 0, d;
    float *copy;
    if (!element && !tile && !nan)
        return NULL;
    copy = vkb_alloc((size_t)(m * n) * sizeof *copy);
    memcpy(copy, c, (size_t)(m * n) * sizeof *copy);
    for (int64_t e = 0; e < m * n; e++)
        s += (double)c[e] * c[e];
    d = 0.01 * sqrt(s / (double)(m * n));
    for (int64_t i = i0; i < i0 + (tile ? 16 : 1) && i < m; i++)
        for (int64_t j = j0; j < j0 + (tile ? 16 : 1) && j < n; j++)
            copy[i * n + j] = nan ? NAN : (float)(copy[i * n + j] + d);
    fprintf(stderr, "vkbench: fault injected: C(%lld, %lld)%s %s\n", (long long)i0, (long long)j0,
            tile ? " and its 16x16 tile" : "", nan ? "set to NaN" : "off by 1% of rms(C)");
    return copy;
}

/* An exact element against its rigorous bound: gamma_K(u) sum|a b|, or the fp16 accumulator's recurrence. */
static void exact_value(vkb_check *r, uint64_t index, double out, const double *o, int64_t k, double u, int mode)
{
    /* fp16 accumulation by 16: the recurrence over the partial sums; else (a rounding per product, in any
     * order) gamma_K sum |a b| with the accumulator's unit U */
    double bound = mode == VKB_ACC_F16 ? o[2] : vkb_bound_dot((uint64_t)k, o[1], u);
    vkb_check_value(r, index, out, o[0], bound + 0x1.0p-50 * o[1]); /* + the double sum's own rounding */
}

void vkb_product_check(vkb_check *r, const vkb_product_ref *f, const float *c, double u, int mode)
{
    int64_t m = f->m, n = f->n, k = f->k, row_fail = -1, col_fail = -1;
    float *planted = planted_product(m, n, c);
    c_pass cp = {f, planted ? planted : c, vkb_alloc((size_t)(m * f->nbc * L) * sizeof(double)),
                 vkb_alloc((size_t)(n * f->nbr * L) * sizeof(double)),
                 vkb_alloc((size_t)(2 * f->nbr) * sizeof(uint64_t))};
    uint64_t nonfinite = 0;
    double widest = 0;
    c = cp.c;

    vkb_parallel_run(f->nbr, c_block, &cp);
    r->cols = (uint64_t)n;
    /* 1. every element finite: NaN (poison) and Inf fail here, whatever the lines below see */
    for (int64_t t = 0; t < f->nbr; t++) {
        uint64_t count = cp.nonfinite[2 * t], first = cp.nonfinite[2 * t + 1];
        if (count) {
            int64_t i = (int64_t)first / n, j = (int64_t)first % n;
            double ref = 0;
            for (int64_t p = 0; p < k && r->bad == 0; p++) /* the first one's value, for the message */
                ref += (double)f->a[i * k + p] * f->b[p * n + j];
            mark_bad(r, first, i, j, c[first], ref);
            r->checked += count - 1;
            r->bad += count - 1;
            nonfinite += count;
        }
    }
    /* 2. Freivalds by row blocks (C x against A (B x)) and column blocks (y^T C against (y^T A) B) */
    for (int64_t i = 0; i < m; i++)
        for (int64_t cb = 0; cb < f->nbc; cb++) {
            int64_t w = n - cb * BW < BW ? n - cb * BW : BW;
            if (block_lines(r, (uint64_t)(i * n + cb * BW), i, -1, f->row + (i * f->nbc + cb) * L,
                            cp.row + (i * f->nbc + cb) * L, w, k, u, mode, &widest) &&
                row_fail < 0)
                row_fail = i;
        }
    for (int64_t j = 0; j < n; j++)
        for (int64_t rb = 0; rb < f->nbr; rb++) {
            int64_t w = m - rb * BW < BW ? m - rb * BW : BW;
            if (block_lines(r, (uint64_t)(rb * BW * n + j), -1, j, f->col + (j * f->nbr + rb) * L,
                            cp.col + (j * f->nbr + rb) * L, w, k, u, mode, &widest) &&
                col_fail < 0)
                col_fail = j;
        }
    /* 3. exact rows and columns, every element against the rigorous bound */
    for (int q = 0; q < f->nlr; q++)
        for (int64_t j = 0; j < n; j++)
            exact_value(r, (uint64_t)(f->lr[q] * n + j), c[f->lr[q] * n + j], f->lrow + (q * n + j) * 3, k, u, mode);
    for (int q = 0; q < f->nlc; q++)
        for (int64_t i = 0; i < m; i++)
            exact_value(r, (uint64_t)(i * n + f->lc[q]), c[i * n + f->lc[q]], f->lcol + (q * m + i) * 3, k, u, mode);
    /* 4. a failed row and a failed column name the element where they cross, when it is wrong: beyond its
     *    own model tolerance (the lines failed, so the model's tolerance, not the rigorous bound, judges) */
    if (!nonfinite && row_fail >= 0 && col_fail >= 0 && (r->bad_row < 0 || r->bad_col < 0)) {
        double o[3], st = 0, *bcol = vkb_alloc((size_t)k * sizeof *bcol), out = c[row_fail * n + col_fail];
        for (int64_t p = 0; p < k; p++) {
            double t = (double)f->a[row_fail * k + p] * f->b[p * n + col_fail];
            bcol[p] = f->b[p * n + col_fail];
            st += t * t;
        }
        exact_element(k, f->a + row_fail * k, bcol, o);
        if (!(fabs(out - o[0]) <= vkb_product_row_tolerance(1, k, st, o[0] * o[0], u, mode) + 0x1.0p-50 * o[1]))
            vkb_check_first_bad(r, (uint64_t)(row_fail * n + col_fail), row_fail, col_fail, out, o[0]);
        free(bcol);
    }
    snprintf(r->method, sizeof r->method,
             "Freivalds x%d, %d-blocks, %.0f sigma%s (rigorous %.0fx wider) + "
             "exact lines",
             R, BW, VKB_PRODUCT_SIGMAS,
             mode == VKB_ACC_F16        ? ", fp16 acc"
             : mode == VKB_ACC_F16_EACH ? ", fp16 acc each"
                                        : "",
             widest);
    free(cp.row);
    free(cp.col);
    free(cp.nonfinite);
    free(planted);
}

void vkb_check_product(vkb_check *r, int64_t m, int64_t n, int64_t k, const float *a, const float *b, const float *c,
                       double u, int mode, uint64_t seed)
{
    vkb_product_ref *f = vkb_product_ref_create(m, n, k, a, b, seed);
    vkb_product_check(r, f, c, u, mode);
    vkb_product_ref_destroy(f);
}
