/* check.c - derived tolerances, element checks and Freivalds' check. */
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

double vkb_gamma(double n, double u)
{
    double nu = n * u;
    return nu < 1.0 ? nu / (1.0 - nu) : INFINITY;
}

double vkb_bound_tree_sum(uint64_t n, double sum_abs, double u)
{
    double depth = n > 1 ? ceil(log2((double)n)) : 0.0;
    return vkb_gamma(depth, u) * sum_abs;
}

double vkb_bound_serial_sum(uint64_t n, double sum_abs, double u)
{
    return vkb_gamma(n > 1 ? (double)(n - 1) : 0.0, u) * sum_abs;
}

double vkb_bound_dot(uint64_t k, double sum_abs_products, double u)
{
    return vkb_gamma((double)k, u) * sum_abs_products;
}

void vkb_check_init(vkb_check *r, const char *method)
{
    memset(r, 0, sizeof *r);
    r->bad_row = r->bad_col = -1;
    snprintf(r->method, sizeof r->method, "%s", method);
}

/* Remember the first wrong element (or line) for the report. */
static void first_bad(vkb_check *r, uint64_t index, int64_t row, int64_t col, double out, double ref)
{
    r->first_bad = index;
    r->bad_row = row;
    r->bad_col = col;
    r->bad_expected = ref;
    r->bad_actual = out;
}

static void index_place(const vkb_check *r, uint64_t index, int64_t *row, int64_t *col)
{
    *row = r->cols ? (int64_t)(index / r->cols) : -1;
    *col = r->cols ? (int64_t)(index % r->cols) : -1;
}

void vkb_check_value(vkb_check *r, uint64_t index, double out, double ref, double bound)
{
    double err = fabs(out - ref);
    double ratio;
    r->checked++;
    if (!(err <= bound)) {   /* NaN (an unwritten, poisoned element) lands here too */
        if (r->bad++ == 0) {
            int64_t row, col;
            index_place(r, index, &row, &col);
            first_bad(r, index, row, col, out, ref);
        }
        ratio = INFINITY;
        if (bound > 0 && err == err)
            ratio = err / bound;
    } else {
        ratio = bound > 0 ? err / bound : 0.0;
    }
    if (ratio > r->worst_ratio || r->checked == 1) {
        r->worst_ratio = ratio;
        r->max_error = err;
        r->tolerance = bound;
    }
}

void vkb_check_words(vkb_check *r, const uint32_t *out, const uint32_t *ref, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        r->checked++;
        if (out[i] != ref[i]) {
            if (r->bad++ == 0) {
                int64_t row, col;
                index_place(r, i, &row, &col);
                first_bad(r, i, row, col, (double)out[i], (double)ref[i]);
            }
            r->worst_ratio = INFINITY;
            r->max_error = INFINITY;
        }
    }
}

void vkb_check_finish(vkb_check *r)
{
    r->pass = r->checked > 0 && r->bad == 0;
}

void vkb_check_freivalds(vkb_check *r, int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                         const float *c, int rounds, uint64_t seed, double u)
{
    double *x = vkb_alloc((size_t)n * sizeof *x);
    double *bx = vkb_alloc((size_t)k * sizeof *bx);
    double *babs = vkb_alloc((size_t)k * sizeof *babs);
    double g = vkb_gamma((double)k, u);
    vkb_rng rng;
    vkb_rng_seed(&rng, seed);

    /* |B| 1: the row sums of |B|, shared by every round. */
    for (int64_t p = 0; p < k; p++) {
        double s = 0;
        for (int64_t j = 0; j < n; j++)
            s += fabs((double)b[p * n + j]);
        babs[p] = s;
    }
    for (int round = 0; round < rounds; round++) {
        for (int64_t j = 0; j < n; j++)
            x[j] = (vkb_rng_u64(&rng) >> 63) ? 1.0 : -1.0;
        for (int64_t p = 0; p < k; p++) {
            double s = 0;
            for (int64_t j = 0; j < n; j++)
                s += (double)b[p * n + j] * x[j];
            bx[p] = s;
        }
        for (int64_t i = 0; i < m; i++) {
            double abx = 0, aabs = 0, cx = 0;
            for (int64_t p = 0; p < k; p++) {
                abx += (double)a[i * k + p] * bx[p];
                aabs += fabs((double)a[i * k + p]) * babs[p];
            }
            for (int64_t j = 0; j < n; j++)
                cx += (double)c[i * n + j] * x[j];
            /* each C_ij is off by at most g (|A||B|)_ij; with |x_j| = 1 row i of C x is off by at most
             * g (|A| |B| 1)_i, plus the double rounding of these sums (tiny, covered by the 2x). */
            vkb_check_value(r, (uint64_t)i, cx, abx, 2.0 * g * aabs + 1e-300);
        }
    }
    free(x);
    free(bx);
    free(babs);
}

/* Statistical model of the rounding error of one element C_ij = sum_p t_p (t_p = a_ip b_pj), summed in
 * any order (serial is the model's worst): e = sum_p d_p s_p + sum_p d'_p t_p with independent |d| <= u
 * and s_p the partial sums. With the t_p of mean mu = C/K and second moment T/K,
 * E e^2 <= u^2 [((K+1)/2 + 1) T + (K+1)(2K+1)/(6K) C^2]. Truncating accumulation (tensor cores) adds
 * the bias -u/2 sign(s)|s| of every truncation; the tensor cores truncate once per instruction of
 * VKB_TENSOR_K_STEP products (HMMA.16816 on the H100 and A100): (u/2)^2 E(sum_q s_q)^2 over K/S steps
 * <= u^2 (K^2/(12 S^2) T + K^2/(16 S^2) C^2).
 * Summed over a row with independent +-1 weights, Var = sum_j E e_ij^2; SUM_T = sum_j T_ij and
 * SUM_C2 = sum_j C_ij^2 make it. The tolerance is VKB_PRODUCT_SIGMAS standard deviations (Hoeffding:
 * a clean row exceeds it with probability below 2 exp(-32) = 2.5e-14). */
double vkb_product_row_tolerance(int64_t n, int64_t k, double sum_t, double sum_c2, double u, int truncating)
{
    double kk = (double)k;
    double var = ((kk + 1) / 2 + 1) * sum_t + (kk + 1) * (2 * kk + 1) / (6 * kk) * sum_c2;
    (void)n;
    if (truncating)
        var += kk * kk / (12.0 * VKB_TENSOR_K_STEP * VKB_TENSOR_K_STEP) * sum_t +
               kk * kk / (16.0 * VKB_TENSOR_K_STEP * VKB_TENSOR_K_STEP) * sum_c2;
    return VKB_PRODUCT_SIGMAS * u * sqrt(var);
}

static void mark_bad(vkb_check *r, uint64_t index, int64_t row, int64_t col, double out, double ref)
{
    r->checked++;
    if (r->bad++ == 0)
        first_bad(r, index, row, col, out, ref);
    r->worst_ratio = INFINITY;
    r->max_error = fabs(out - ref);
    r->tolerance = 0;
}

/* A Freivalds line (row I or column J) against its tolerance; its index is the line's first element. */
static int line_check(vkb_check *r, int64_t n, int64_t row, int64_t col, double out, double ref, double tol)
{
    uint64_t bad = r->bad;
    uint64_t cols = r->cols;
    r->cols = 0;
    vkb_check_value(r, (uint64_t)(row >= 0 ? row * n : col), out, ref, tol);
    r->cols = cols;
    if (r->bad > bad && r->bad == 1) {
        r->bad_row = row;
        r->bad_col = col;
    }
    return r->bad > bad;
}

static double rademacher(vkb_rng *rng)
{
    return (vkb_rng_u64(rng) >> 63) ? 1.0 : -1.0;
}

/* Element (I, J) of A B in double, and its rigorous bound gamma_K(U) sum|a b|; B's column J in BCOL. */
static void exact_element(int64_t k, const float *arow, const double *bcol, double u, double *ref, double *bound)
{
    double s = 0, sa = 0;
    for (int64_t p = 0; p < k; p++) {
        double t = (double)arow[p] * bcol[p];
        s += t;
        sa += fabs(t);
    }
    *ref = s;
    *bound = vkb_bound_dot((uint64_t)k, sa, u) + 0x1.0p-50 * sa; /* + the double sum's own rounding */
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

/* VKB_FAULT_INJECT=product-element|product-tile|product-nan: a copy of C with one element off by 1% of
 * rms(C), one 16x16 tile (the middle one) off by 1%, or one NaN, to prove the check on a device's own
 * product (tools/gpu-validate.sh); NULL without the fault. */
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

void vkb_check_product(vkb_check *r, int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                       const float *c, double u, int truncating, uint64_t seed)
{
    float *planted = planted_product(m, n, c);
    int64_t big = m > n ? m : n, lines[17], nl, row_fail = -1, col_fail = -1;
    double *x = vkb_alloc((size_t)big * sizeof *x), *v = vkb_alloc((size_t)k * sizeof *v);
    double *asq = vkb_calloc((size_t)k, sizeof *asq), *bsq = vkb_calloc((size_t)k, sizeof *bsq);
    double *babs = vkb_calloc((size_t)k, sizeof *babs), *acol = vkb_calloc((size_t)k, sizeof *acol);
    double *line = vkb_alloc((size_t)big * sizeof *line), *bcol = vkb_alloc((size_t)k * sizeof *bcol);
    double *tol_row = vkb_alloc((size_t)m * sizeof *tol_row), *tol_col = vkb_alloc((size_t)n * sizeof *tol_col);
    double widest = 0;
    uint64_t nonfinite = 0;
    vkb_rng rng;
    char method[96];
    if (planted)
        c = planted;

    r->cols = (uint64_t)n;
    /* 1. every element finite: NaN (poison) and Inf fail here, whatever the lines below see */
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
            if (!isfinite(c[i * n + j])) {
                mark_bad(r, (uint64_t)(i * n + j), i, j, c[i * n + j], NAN);
                nonfinite++;
            }

    /* 2. the model's tolerances per row and column, and the rigorous row bound for comparison */
    for (int64_t p = 0; p < k; p++)
        for (int64_t j = 0; j < n; j++) {
            double t = b[p * n + j];
            bsq[p] += t * t;
            babs[p] += fabs(t);
        }
    for (int64_t i = 0; i < m; i++)
        for (int64_t p = 0; p < k; p++) {
            double t = a[i * k + p];
            asq[p] += t * t;
        }
    for (int64_t i = 0; i < m; i++) {
        double st = 0, sc = 0, rig = 0, sabs = 0;
        for (int64_t p = 0; p < k; p++) {
            double t = a[i * k + p];
            st += t * t * bsq[p];
            rig += fabs(t) * babs[p];
        }
        for (int64_t j = 0; j < n; j++) {
            sc += (double)c[i * n + j] * c[i * n + j];
            sabs += fabs(c[i * n + j]);
        }
        tol_row[i] = vkb_product_row_tolerance(n, k, st, sc, u, truncating) + 0x1.0p-45 * (sabs + rig);
        rig = vkb_gamma((double)k, u) * rig;
        if (rig / tol_row[i] > widest)
            widest = rig / tol_row[i];
    }
    for (int64_t j = 0; j < n; j++) {
        double st = 0, sc = 0, sabs = 0;
        for (int64_t p = 0; p < k; p++)
            st += asq[p] * (double)b[p * n + j] * b[p * n + j];
        for (int64_t i = 0; i < m; i++) {
            sc += (double)c[i * n + j] * c[i * n + j];
            sabs += fabs(c[i * n + j]);
        }
        tol_col[j] = vkb_product_row_tolerance(m, k, st, sc, u, truncating) + 0x1.0p-45 * sabs * (double)k;
    }

    /* 3. Freivalds by rows: C x against A (B x); by columns: y^T C against (y^T A) B */
    vkb_rng_seed(&rng, seed);
    for (int round = 0; round < VKB_PRODUCT_ROUNDS; round++) {
        for (int64_t j = 0; j < n; j++)
            x[j] = rademacher(&rng);
        for (int64_t p = 0; p < k; p++) {
            double s = 0;
            for (int64_t j = 0; j < n; j++)
                s += (double)b[p * n + j] * x[j];
            v[p] = s;
        }
        for (int64_t i = 0; i < m; i++) {
            double abx = 0, cx = 0;
            for (int64_t p = 0; p < k; p++)
                abx += (double)a[i * k + p] * v[p];
            for (int64_t j = 0; j < n; j++)
                cx += (double)c[i * n + j] * x[j];
            if (line_check(r, n, i, -1, cx, abx, tol_row[i]) && row_fail < 0)
                row_fail = i;
        }
        for (int64_t i = 0; i < m; i++)
            x[i] = rademacher(&rng);
        memset(v, 0, (size_t)k * sizeof *v);
        memset(line, 0, (size_t)n * sizeof *line);
        for (int64_t i = 0; i < m; i++)
            for (int64_t p = 0; p < k; p++)
                v[p] += x[i] * a[i * k + p];
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++)
                line[j] += x[i] * c[i * n + j];
        for (int64_t j = 0; j < n; j++) {
            double yab = 0;
            for (int64_t p = 0; p < k; p++)
                yab += v[p] * b[p * n + j];
            if (line_check(r, n, -1, j, line[j], yab, tol_col[j]) && col_fail < 0)
                col_fail = j;
        }
    }

    /* 4. exact rows and columns, every element against the rigorous bound */
    nl = exact_lines(m, lines);
    for (int q = 0; q < nl; q++) {
        int64_t i = lines[q];
        memset(line, 0, (size_t)n * sizeof *line);
        memset(x, 0, (size_t)n * sizeof *x);
        for (int64_t p = 0; p < k; p++) {
            double t = a[i * k + p];
            for (int64_t j = 0; j < n; j++) {
                line[j] += t * b[p * n + j];
                x[j] += fabs(t * b[p * n + j]);
            }
        }
        for (int64_t j = 0; j < n; j++)
            vkb_check_value(r, (uint64_t)(i * n + j), c[i * n + j], line[j],
                            vkb_bound_dot((uint64_t)k, x[j], u) + 0x1.0p-50 * x[j]);
    }
    nl = exact_lines(n, lines);
    for (int q = 0; q < nl; q++) {
        int64_t j = lines[q];
        for (int64_t p = 0; p < k; p++)
            bcol[p] = b[p * n + j];
        for (int64_t i = 0; i < m; i++) {
            double ref, bound;
            exact_element(k, a + i * k, bcol, u, &ref, &bound);
            vkb_check_value(r, (uint64_t)(i * n + j), c[i * n + j], ref, bound);
        }
    }

    /* 5. a failed row and a failed column name the element where they cross, when it is wrong */
    if (!nonfinite && row_fail >= 0 && col_fail >= 0 && (r->bad_row < 0 || r->bad_col < 0)) {
        double ref, bound, out = c[row_fail * n + col_fail];
        for (int64_t p = 0; p < k; p++)
            bcol[p] = b[p * n + col_fail];
        exact_element(k, a + row_fail * k, bcol, u, &ref, &bound);
        if (!(fabs(out - ref) <= bound))
            first_bad(r, (uint64_t)(row_fail * n + col_fail), row_fail, col_fail, out, ref);
    }
    snprintf(method, sizeof method, "Freivalds rows+cols x%d at %.0f sigma (rigorous bound %.0fx wider) + exact lines",
             VKB_PRODUCT_ROUNDS, VKB_PRODUCT_SIGMAS, widest);
    snprintf(r->method, sizeof r->method, "%s", method);
    free(x);
    free(v);
    free(asq);
    free(bsq);
    free(babs);
    free(acol);
    free(line);
    free(bcol);
    free(tol_row);
    free(tol_col);
    free(planted);
}

uint32_t vkb_guard_word(uint32_t n)
{
    return VKB_GUARD_WORD ^ (n * 0x9E3779B8u);   /* an even multiplier: the low bit stays 1, never 0 */
}

void vkb_guard_normalize(void *band, uint32_t word)
{
    uint32_t *w = band;
    for (uint32_t i = 0; i < VKB_GUARD_BYTES / 4; i++)
        w[i] ^= word ^ VKB_GUARD_WORD;
}

uint64_t vkb_guard_scan(const uint8_t *before, const uint8_t *after, int index, const char *role, char *msg,
                        size_t len)
{
    uint8_t pattern[4];
    uint32_t word = VKB_GUARD_WORD;
    uint64_t nb = 0, na = 0;
    int64_t b_lo = 0, b_hi = 0, a_lo = 0, a_hi = 0;
    size_t used = 0;
    memcpy(pattern, &word, 4);
    for (uint32_t o = 0; o < VKB_GUARD_BYTES; o++) {
        if (before[o] != pattern[o & 3]) {
            int64_t d = (int64_t)o - VKB_GUARD_BYTES;   /* -1 is the byte just before the start */
            if (nb++ == 0)
                b_lo = d;
            b_hi = d;
        }
        if (after[o] != pattern[o & 3]) {
            if (na++ == 0)
                a_lo = o;
            a_hi = o;
        }
    }
    if (len)
        msg[0] = 0;
    if (na)
        used += (size_t)snprintf(msg, len, "wrote %llu byte%s after the end of %s %d, at +%lld..+%lld",
                                 (unsigned long long)na, na == 1 ? "" : "s", role, index, (long long)a_lo,
                                 (long long)a_hi);
    if (nb && used < len)
        snprintf(msg + used, len - used, "%swrote %llu byte%s before the start of %s %d, at %lld..%lld",
                 na ? "; " : "", (unsigned long long)nb, nb == 1 ? "" : "s", role, index, (long long)b_lo,
                 (long long)b_hi);
    return na + nb;
}

uint16_t vkb_half_from_float(float f)
{
    uint32_t x, absx, sign, h, rem;
    memcpy(&x, &f, 4);
    sign = (x >> 16) & 0x8000u;
    absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u)
        return (uint16_t)(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0));
    if (absx >= 0x477ff000u)   /* 65520 and up round to infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (absx < 0x38800000u) {  /* below 2^-14: a subnormal half, exactly round(|f| 2^24) */
        float af;
        memcpy(&af, &absx, 4);
        return (uint16_t)(sign | (uint32_t)lrintf(af * 16777216.0f));
    }
    h = ((((absx >> 23) - 127u + 15u)) << 10) | ((absx & 0x7fffffu) >> 13);
    rem = absx & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        h++;   /* a carry into the exponent is still the right result */
    return (uint16_t)(sign | h);
}

float vkb_half_to_float(uint16_t h)
{
    uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    float v = e == 0 ? ldexpf((float)m, -24)
            : e == 31 ? (m ? NAN : INFINITY)
                      : ldexpf((float)(m | 0x400u), (int)e - 25);
    return h & 0x8000u ? -v : v;
}

int vkb_fault_arg(const char *name, long *value)
{
    const char *f = getenv("VKB_FAULT_INJECT");
    size_t len = strlen(name);
    if (!f || strncmp(f, name, len) != 0 || (f[len] && f[len] != ':'))
        return 0;
    if (value)
        *value = f[len] == ':' ? strtol(f + len + 1, NULL, 10) : -1;
    return 1;
}
