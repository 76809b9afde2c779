/* matmul_s8_check.c - the exact check of the int8 rows (see matmul_s8_check.h): every element at small shapes,
 * above them integer Freivalds and exact lines against a reference made once per case, on the host's cores. */
#include "matmul_s8_check.h"

#include <stdlib.h>

#include "matmul_tc.h"
#include "parallel.h"
#include "util.h"

/* Two vectors each way, four exact lines each way (the first, the last, two random), tasks of 256 rows. */
enum { ROUNDS = 2, LINES = 4, BLOCK = 256 };

/* Every sum is taken modulo 2^64 (unsigned): the references stay far below 2^63 (entries of x below 2^15:
 * |A B x| < K 2^7 N 2^7 2^15), and a C of any bits (the poison) gives the same wrapped sum in any order, so the
 * verdict does not depend on the tasks. */
struct vkb_mm_s8_ref {
    int64_t m, n, k;
    const int8_t *a, *b;
    uint64_t *xr, *xc;         /* ROUNDS x N: the row checks' vectors; ROUNDS x M: the column checks' */
    uint64_t *want_r, *want_c; /* ROUNDS x M: A (B x); ROUNDS x N: (x^T A) B */
    int64_t lr[LINES], lc[LINES];
    uint64_t *line_r, *line_c; /* LINES x N: rows LR of A B; LINES x M: columns LC */
};

/* splitmix64: the Freivalds vectors' entries and the random lines */
static uint64_t s8_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void draw(uint64_t *x, int64_t len, uint64_t *state)
{
    for (int64_t i = 0; i < len; i++)
        x[i] = (uint64_t)((int64_t)(s8_next(state) % 65535u) - 32767);
}

static int64_t blocks(int64_t rows)
{
    return vkb_tasks_of((uint64_t)rows, BLOCK);
}

/* What a pass over a matrix of ROWS rows shares: the reference, per-task sums (PART: PER values per task) and
 * the lines' columns of B (BT: K x LINES). */
typedef struct s8_pass {
    vkb_mm_s8_ref *f;
    const int32_t *c;
    uint64_t *part, *bt, *ya, *yb, *got;
    int64_t per;
} s8_pass;

/* Task: row block T of A: y^T A by block into PART (ROUNDS x K), and the exact columns' elements of its rows. */
static void a_columns(void *ctx, int64_t t)
{
    s8_pass *sp = ctx;
    vkb_mm_s8_ref *f = sp->f;
    uint64_t *ya = sp->part + t * sp->per;
    for (int64_t i = t * BLOCK; i < (int64_t)vkb_task_end(t, BLOCK, (uint64_t)f->m); i++) {
        const int8_t *a = f->a + i * f->k;
        uint64_t s[LINES] = {0};
        for (int r = 0; r < ROUNDS; r++)
            for (int64_t p = 0; p < f->k; p++)
                ya[r * f->k + p] += f->xc[r * f->m + i] * (uint64_t)(int64_t)a[p];
        for (int64_t p = 0; p < f->k; p++)
            for (int l = 0; l < LINES; l++)
                s[l] += (uint64_t)(int64_t)a[p] * sp->bt[p * LINES + l];
        for (int l = 0; l < LINES; l++)
            f->line_c[l * f->m + i] = s[l];
    }
}

/* Task: row block T of B: B x (its own rows), and by block into PART (ROUNDS + LINES) x N: (y^T A) B and the
 * exact rows. */
static void b_rows(void *ctx, int64_t t)
{
    s8_pass *sp = ctx;
    vkb_mm_s8_ref *f = sp->f;
    uint64_t *wc = sp->part + t * sp->per, *lr = wc + ROUNDS * f->n;
    for (int64_t p = t * BLOCK; p < (int64_t)vkb_task_end(t, BLOCK, (uint64_t)f->k); p++) {
        const int8_t *b = f->b + p * f->n;
        for (int r = 0; r < ROUNDS; r++) {
            uint64_t s = 0, y = sp->ya[r * f->k + p];
            const uint64_t *x = f->xr + r * f->n;
            uint64_t *w = wc + r * f->n;
            for (int64_t j = 0; j < f->n; j++) {
                s += (uint64_t)(int64_t)b[j] * x[j];
                w[j] += y * (uint64_t)(int64_t)b[j];
            }
            sp->yb[r * f->k + p] = s;
        }
        for (int l = 0; l < LINES; l++) {
            uint64_t v = (uint64_t)(int64_t)f->a[f->lr[l] * f->k + p], *o = lr + l * f->n;
            for (int64_t j = 0; j < f->n; j++)
                o[j] += v * (uint64_t)(int64_t)b[j];
        }
    }
}

/* Task: row block T of A against B x: A (B x). */
static void a_rows(void *ctx, int64_t t)
{
    s8_pass *sp = ctx;
    vkb_mm_s8_ref *f = sp->f;
    for (int64_t i = t * BLOCK; i < (int64_t)vkb_task_end(t, BLOCK, (uint64_t)f->m); i++)
        for (int r = 0; r < ROUNDS; r++) {
            const uint64_t *y = sp->yb + r * f->k;
            const int8_t *a = f->a + i * f->k;
            uint64_t s = 0;
            for (int64_t p = 0; p < f->k; p++)
                s += (uint64_t)(int64_t)a[p] * y[p];
            f->want_r[r * f->m + i] = s;
        }
}

/* OUT[0..LEN) = the sum over TASKS parts of PER values each, LEN from each part's start (wrapping: exact). */
static void merge(uint64_t *out, const uint64_t *part, int64_t tasks, int64_t per, int64_t len)
{
    for (int64_t e = 0; e < len; e++)
        out[e] = 0;
    for (int64_t t = 0; t < tasks; t++)
        for (int64_t e = 0; e < len; e++)
            out[e] += part[t * per + e];
}

vkb_mm_s8_ref *vkb_mm_s8_ref_create(int64_t m, int64_t n, int64_t k, const int8_t *a8, const int8_t *b8, uint64_t seed)
{
    vkb_mm_s8_ref *f = vkb_calloc(1, sizeof *f);
    uint64_t state = seed;
    s8_pass sp = {f, NULL, NULL, NULL, NULL, NULL, NULL, 0};
    f->m = m, f->n = n, f->k = k, f->a = a8, f->b = b8;
    f->xr = vkb_alloc((size_t)(ROUNDS * n) * sizeof *f->xr);
    f->xc = vkb_alloc((size_t)(ROUNDS * m) * sizeof *f->xc);
    f->want_r = vkb_alloc((size_t)(ROUNDS * m) * sizeof *f->want_r);
    f->want_c = vkb_alloc((size_t)(ROUNDS * n) * sizeof *f->want_c);
    f->line_r = vkb_alloc((size_t)(LINES * n) * sizeof *f->line_r);
    f->line_c = vkb_alloc((size_t)(LINES * m) * sizeof *f->line_c);
    /* the vectors in the order the rounds take them (rows, then columns, per round), then the random lines */
    for (int r = 0; r < ROUNDS; r++) {
        draw(f->xr + r * n, n, &state);
        draw(f->xc + r * m, m, &state);
    }
    for (int l = 0; l < LINES; l++) {
        f->lr[l] = l == 0 ? 0 : l == 1 ? m - 1 : (int64_t)(s8_next(&state) % (uint64_t)m);
        f->lc[l] = l == 0 ? 0 : l == 1 ? n - 1 : (int64_t)(s8_next(&state) % (uint64_t)n);
    }
    /* A's pass: x^T A by block, and the exact columns (B's columns LC gathered first) */
    sp.bt = vkb_alloc((size_t)(k * LINES) * sizeof *sp.bt);
    for (int64_t p = 0; p < k; p++)
        for (int l = 0; l < LINES; l++)
            sp.bt[p * LINES + l] = (uint64_t)(int64_t)b8[p * n + f->lc[l]];
    sp.per = ROUNDS * k;
    sp.part = vkb_calloc((size_t)(blocks(m) * sp.per), sizeof *sp.part);
    vkb_parallel_run(blocks(m), a_columns, &sp);
    sp.ya = vkb_alloc((size_t)(ROUNDS * k) * sizeof *sp.ya);
    merge(sp.ya, sp.part, blocks(m), sp.per, sp.per);
    free(sp.part);
    /* B's pass: B x, (x^T A) B and the exact rows by block */
    sp.per = (ROUNDS + LINES) * n;
    sp.part = vkb_calloc((size_t)(blocks(k) * sp.per), sizeof *sp.part);
    sp.yb = vkb_alloc((size_t)(ROUNDS * k) * sizeof *sp.yb);
    vkb_parallel_run(blocks(k), b_rows, &sp);
    merge(f->want_c, sp.part, blocks(k), sp.per, ROUNDS * n);
    merge(f->line_r, sp.part + ROUNDS * n, blocks(k), sp.per, LINES * n);
    /* A's second pass: A (B x) */
    vkb_parallel_run(blocks(m), a_rows, &sp);
    free(sp.part);
    free(sp.bt);
    free(sp.ya);
    free(sp.yb);
    return f;
}

void vkb_mm_s8_ref_destroy(vkb_mm_s8_ref *f)
{
    if (!f)
        return;
    free(f->xr);
    free(f->xc);
    free(f->want_r);
    free(f->want_c);
    free(f->line_r);
    free(f->line_c);
    free(f);
}

/* Task: row block T of C: C x (its own rows) and x^T C by block into PART (ROUNDS x N). */
static void c_rows(void *ctx, int64_t t)
{
    s8_pass *sp = ctx;
    const vkb_mm_s8_ref *f = sp->f;
    uint64_t *gc = sp->part + t * sp->per;
    for (int64_t i = t * BLOCK; i < (int64_t)vkb_task_end(t, BLOCK, (uint64_t)f->m); i++) {
        const int32_t *c = sp->c + i * f->n;
        for (int r = 0; r < ROUNDS; r++) {
            const uint64_t *x = f->xr + r * f->n;
            uint64_t s = 0, y = f->xc[r * f->m + i], *g = gc + r * f->n;
            for (int64_t j = 0; j < f->n; j++) {
                uint64_t v = (uint64_t)(int64_t)c[j];
                s += v * x[j];
                g[j] += y * v;
            }
            sp->got[r * f->m + i] = s;
        }
    }
}

/* LEN sums GOT against WANT, in order: by rows (line I is row I) or by columns (COLS). */
static void compare_lines(vkb_check *res, const uint64_t *got, const uint64_t *want, int64_t len, int cols)
{
    for (int64_t i = 0; i < len; i++) {
        res->checked++;
        if (got[i] != want[i]) {
            if (!res->bad)
                vkb_check_first_bad(res, 0, cols ? -1 : i, cols ? i : -1, (double)(int64_t)got[i],
                                    (double)(int64_t)want[i]);
            res->bad++;
        }
    }
}

void vkb_mm_s8_check(vkb_check *res, const vkb_mm_s8_ref *f, const int32_t *c32)
{
    int64_t m = f->m, n = f->n;
    s8_pass sp = {(vkb_mm_s8_ref *)f, c32, NULL, NULL, NULL, NULL, NULL, ROUNDS * n};
    uint64_t *got_c = vkb_alloc((size_t)(ROUNDS * n) * sizeof *got_c);
    sp.part = vkb_calloc((size_t)(blocks(m) * sp.per), sizeof *sp.part);
    sp.got = vkb_alloc((size_t)(ROUNDS * m) * sizeof *sp.got);
    vkb_parallel_run(blocks(m), c_rows, &sp);
    merge(got_c, sp.part, blocks(m), sp.per, sp.per);
    vkb_check_init(res, "exact: integer Freivalds x2 by rows and columns + 8 lines");
    res->cols = (uint64_t)n;
    for (int r = 0; r < ROUNDS; r++) {
        compare_lines(res, sp.got + r * m, f->want_r + r * m, m, 0);
        compare_lines(res, got_c + r * n, f->want_c + r * n, n, 1);
    }
    for (int l = 0; l < LINES; l++) { /* the lines, row then column, every element exactly */
        for (int64_t j = 0; j < n; j++)
            vkb_check_value(res, (uint64_t)(f->lr[l] * n + j), (double)c32[f->lr[l] * n + j],
                            (double)(int64_t)f->line_r[l * n + j], 0);
        for (int64_t i = 0; i < m; i++)
            vkb_check_value(res, (uint64_t)(i * n + f->lc[l]), (double)c32[i * n + f->lc[l]],
                            (double)(int64_t)f->line_c[l * m + i], 0);
    }
    free(sp.part);
    free(sp.got);
    free(got_c);
}

/* The element-wise check: row I of C against the exact dot products (int64), the rows of chunk T. */
typedef struct s8_run {
    int64_t m, n, k, rows;
    const int8_t *a, *b;
    const int32_t *c;
} s8_run;

static void s8_rows(void *ctx, vkb_check_part *part, int64_t t)
{
    const s8_run *run = ctx;
    int64_t *s = vkb_alloc((size_t)run->n * sizeof *s);
    for (int64_t i = t * run->rows; i < (int64_t)vkb_task_end(t, (uint64_t)run->rows, (uint64_t)run->m); i++) {
        for (int64_t j = 0; j < run->n; j++)
            s[j] = 0;
        for (int64_t p = 0; p < run->k; p++) {
            int64_t ai = run->a[i * run->k + p];
            const int8_t *bp = run->b + p * run->n;
            for (int64_t j = 0; j < run->n; j++)
                s[j] += ai * bp[j];
        }
        for (int64_t j = 0; j < run->n; j++)
            vkb_check_part_value(part, (uint64_t)(i * run->n + j), (double)run->c[i * run->n + j], (double)s[j], 0);
    }
    free(s);
}

void vkb_mm_tc_check_s8(int64_t m, int64_t n, int64_t k, const int8_t *a8, const int8_t *b8, const int32_t *c32,
                        uint64_t seed, const vkb_mm_s8_ref *ref, vkb_check *res)
{
    if ((uint64_t)m * (uint64_t)n * (uint64_t)k <= VKB_MM_FULL_CHECK_MACS) {
        s8_run run = {m, n, k, vkb_mm_rows_per_chunk(n, k), a8, b8, c32};
        vkb_check_init(res, "exact, every element (int64 reference)");
        res->cols = (uint64_t)n;
        vkb_check_chunks(res, vkb_tasks_of((uint64_t)m, (uint64_t)run.rows), s8_rows, &run);
    } else {
        vkb_mm_s8_ref *own = ref ? NULL : vkb_mm_s8_ref_create(m, n, k, a8, b8, seed);
        vkb_mm_s8_check(res, ref ? ref : own, c32);
        vkb_mm_s8_ref_destroy(own);
    }
    vkb_check_finish(res);
}

double vkb_mm_s8_ref_macs(int64_t m, int64_t n, int64_t k)
{
    /* A: x^T A and the exact columns, then A (B x); B: B x, (x^T A) B and the exact rows */
    return (double)k * ((double)m * (2 * ROUNDS + LINES) + (double)n * (2 * ROUNDS + LINES));
}

double vkb_mm_s8_check_macs(int64_t m, int64_t n, int64_t k)
{
    (void)k;
    return 2.0 * ROUNDS * (double)m * (double)n; /* C x and x^T C */
}
