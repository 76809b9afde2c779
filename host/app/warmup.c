/* warmup.c - clocks up before the first timed case. A GPU idle before a run starts at a low clock and raises
 * it under load over a fraction of a second: on the H200 without the CUDA module (whose start-up happened to
 * warm it) the first family's copy read 1711 GB/s against 4281 in the same binary with CUDA, with a spread of
 * under 1% (docs/performance/copy.md), and nothing said so. The per-case warm-up (--warmup-ms) is far shorter
 * than the ramp; this one waits until the rate stops rising, whatever the vendor. */
#include "warmup.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "runner.h"
#include "select.h"
#include "stats.h"
#include "util.h"

#define WINDOW_NS 50e6 /* one window: about 50 ms of back-to-back runs */
#define SETTLED 0.02   /* two consecutive windows within 2%: the clock has stopped rising */
#define MIN_WINDOWS 3
#define WINDOW_REPS_MAX 4096         /* repetitions in one window, at most */
#define LIMIT_NS 3e9                 /* both probes together, at most */
#define COPY_BYTES (256ull << 20)    /* well past any last-level cache: the memory's own rate */
#define COPY_BYTES_CPU (16ull << 20) /* VKB_WARMUP=1 on a CPU implementation (tests): milliseconds a window */
#define MOVED 0.05        /* the end's rate this far from the warm-up's last: the clocks moved during the run */
#define RECHECK_NS 0.75e9 /* the end's re-measure, each probe, at most (past its first MIN_WINDOWS) */

/* Faults warm-climb and warm-fall, per probe: the windows so far in the process, so that the end's re-measure
 * goes on climbing as if by CLIMB_RUN windows during the run (5x), and the first window's time, from which
 * warm-climb derives every later one: a planted clock that a loaded CPU's noise can neither settle nor hide */
typedef struct planted_clock {
    int windows;
    double first_ns;
} planted_clock;
static planted_clock planted[2];
#define CLIMB_RUN 10

/* One probe: ROW of FAMILY planned at its shape, its buffers made (contents do not matter to a rate). */
typedef struct probe {
    const vkb_family *f;
    const vkb_variant *v;
    vkb_case c;
    vkb_plan plan;
    void *prep;
    vkb_buffer *bufs[VKB_MAX_BUFFERS];
    double work;
} probe;

static int probe_open(vkb_backend *b, probe *p, const char *family, const char *row, const vkb_shape *shape)
{
    char why[300];
    memset(p, 0, sizeof *p);
    p->f = vkb_family_find(family);
    p->v = p->f ? vkb_variant_find(p->f, row) : NULL;
    if (!p->v)
        return 0;
    p->c = (vkb_case){p->f, *shape, NULL}; /* planned without inputs: sizes only */
    if (vkb_family_plan(p->f, p->v, &p->c, &b->caps, &p->plan, why, sizeof why) != VKB_PLAN_OK)
        return 0;
    p->prep = b->prepare(b, &p->plan, why, sizeof why);
    if (!p->prep)
        return 0;
    for (int i = 0; i < p->plan.nbuf; i++)
        p->bufs[i] = b->buffer_create(b, p->plan.buf[i].bytes, p->plan.buf[i].flags);
    p->work = vkb_family_work(p->f, p->v, &p->c);
    return p->work > 0;
}

static void probe_close(vkb_backend *b, probe *p)
{
    for (int i = 0; i < p->plan.nbuf; i++)
        if (p->bufs[i])
            b->buffer_destroy(b, p->bufs[i]);
    if (p->prep)
        b->unprepare(b, p->prep);
}

/* Windows of P until two agree within SETTLED (1) or the time runs out (0); its first and last rates (work per
 * ns: GB/s, GFLOP/s) into FIRST and LAST. CLOCK: the planted faults' state of this probe. */
static int probe_settle(vkb_backend *b, probe *p, double deadline, double *first, double *last, planted_clock *clock)
{
    double prev = 0, *ns = vkb_alloc(WINDOW_REPS_MAX * sizeof *ns); /* 32 KB: not on a device thread's stack */
    int reps = 1, settled = -1;
    for (int w = 0; settled < 0; w++) {
        double rate, median;
        b->execute(b, p->prep, p->bufs, reps, 0, ns);
        if (vkb_backend_failed(b)) {
            settled = 0; /* the caller ends the run with the device's error */
            break;
        }
        median = vkb_median(ns, reps);
        if (!(median > 0)) {
            settled = 0;
            break;
        }
        rate = p->work / median;
        if (!(clock->first_ns > 0))
            clock->first_ns = median;
        if (vkb_fault("warm-climb")) /* a clock that never stops rising (tests): 18% more each window, the run's
                                          end included (a device that speeds up during the run) */
            rate = p->work / (clock->first_ns * pow(0.85, ++clock->windows));
        else if (vkb_fault("warm-fall") && clock->windows >= CLIMB_RUN) /* throttling (tests): the run's end
                                                                  re-measure 10x slower, beyond a loaded CPU's noise */
            rate /= 10;
        if (w == 0)
            *first = rate;
        *last = rate;
        if (w + 1 >= MIN_WINDOWS && prev > 0 && rate <= prev * (1 + SETTLED) && rate >= prev * (1 - SETTLED))
            settled = 1;
        else if (w + 1 >= MIN_WINDOWS && vkb_now_ns() > deadline)
            settled = 0; /* the last of at least MIN_WINDOWS: a first window of one repetition is no rate */
        prev = rate;
        reps = median < WINDOW_NS ? (int)(WINDOW_NS / median) + 1 : 1;
        if (reps > WINDOW_REPS_MAX)
            reps = WINDOW_REPS_MAX;
    }
    free(ns);
    return settled;
}

void vkb_warmup(vkb_backend *b)
{
    const char *off = getenv("VKB_WARMUP");
    double start = vkb_now_ns(), deadline = start + LIMIT_NS;
    vkb_shape copy_shape = {{(int64_t)((b->caps.is_cpu ? COPY_BYTES_CPU : COPY_BYTES) / 4)}}, fma_shape;
    const vkb_family *peak = vkb_family_find("peak");
    probe mem, fma;
    int settled = 1;
    if ((off && strcmp(off, "0") == 0) || (b->caps.is_cpu && !(off && strcmp(off, "1") == 0)) || b->caps.warm_s > 0 ||
        !peak)
        return;
    if (peak->default_shapes(&b->caps, &fma_shape, 1) < 1)
        return;
    if (probe_open(b, &mem, "copy", "vec4", &copy_shape))
        settled &= probe_settle(b, &mem, deadline, &b->caps.warm_mem_first, &b->caps.warm_mem_last, &planted[0]);
    probe_close(b, &mem);
    if (probe_open(b, &fma, "peak", "fma_f32", &fma_shape))
        settled &= probe_settle(b, &fma, deadline, &b->caps.warm_fma_first, &b->caps.warm_fma_last, &planted[1]);
    probe_close(b, &fma);
    b->caps.warm_s = (vkb_now_ns() - start) * 1e-9;
    b->caps.warm_settled = settled;
    if (!settled)
        vkb_warn("%s: the clocks were still rising after %.1f s of warm-up (copy %.0f -> %.0f GB/s, fma %.0f -> %.0f "
                 "GFLOP/s): the first rows may read low",
                 b->caps.name, b->caps.warm_s, b->caps.warm_mem_first, b->caps.warm_mem_last, b->caps.warm_fma_first,
                 b->caps.warm_fma_last);
    else if (vkb_verbose)
        vkb_note("%s: clocks warm after %.2f s: copy %.0f -> %.0f GB/s, fma %.0f -> %.0f GFLOP/s", b->caps.name,
                 b->caps.warm_s, b->caps.warm_mem_first, b->caps.warm_mem_last, b->caps.warm_fma_first,
                 b->caps.warm_fma_last);
}

/* One probe of ROW (FAMILY at SHAPE) on B again, settled within DEADLINE: its last rate, 0 where it did not run */
static double probe_again(vkb_backend *b, const char *family, const char *row, const vkb_shape *shape, double deadline,
                          planted_clock *clock)
{
    probe p;
    double first = 0, last = 0;
    clock->windows += CLIMB_RUN;
    if (probe_open(b, &p, family, row, shape))
        probe_settle(b, &p, deadline, &first, &last, clock);
    probe_close(b, &p);
    return last;
}

/* Whether END is more than MOVED away from FIRST (both measured) */
static int moved(double first, double end)
{
    return first > 0 && end > 0 && fabs(end / first - 1) > MOVED;
}

/* B's rows in R of UNIT (GB/s for the memory probe; GFLOP/s, GOP/s for the FMA one): their count, the first few
 * named into TEXT */
static int rows_of_unit(const vkb_runner *r, const vkb_backend *b, int memory, char *text, size_t len)
{
    int count = 0;
    size_t used = 0;
    text[0] = 0;
    for (int i = 0; i < r->results.n; i++) {
        const vkb_result *res = &r->results.r[i];
        const char *unit = res->family ? vkb_variant_unit(res->family, res->variant) : "";
        if (!res->timed || strcmp(res->backend, b->name) != 0 ||
            (memory ? strcmp(unit, "GB/s") != 0 : strcmp(unit, "GFLOP/s") != 0 && strcmp(unit, "GOP/s") != 0))
            continue;
        if (count++ < 4 && used < len)
            used += (size_t)snprintf(text + used, len - used, "%s%s/%s", count > 1 ? ", " : "", res->family->name,
                                     res->variant->name);
    }
    if (count > 4 && used < len)
        snprintf(text + used, len - used, ", ...");
    return count;
}

void vkb_warmup_recheck(const vkb_runner *r)
{
    for (int i = 0; i < r->nall; i++) {
        vkb_backend *b = r->all[i];
        vkb_caps *c = &b->caps;
        vkb_shape copy_shape = {{(int64_t)((c->is_cpu ? COPY_BYTES_CPU : COPY_BYTES) / 4)}}, fma_shape;
        const vkb_family *peak = vkb_family_find("peak");
        if (!(c->warm_s > 0) || !peak || peak->default_shapes(c, &fma_shape, 1) < 1)
            continue; /* no warm-up ran here (a CPU implementation, VKB_WARMUP=0): nothing to compare with */
        c->recheck_mem = probe_again(b, "copy", "vec4", &copy_shape, vkb_now_ns() + RECHECK_NS, &planted[0]);
        c->recheck_fma = probe_again(b, "peak", "fma_f32", &fma_shape, vkb_now_ns() + RECHECK_NS, &planted[1]);
        for (int memory = 1; memory >= 0; memory--) {
            double first = memory ? c->warm_mem_last : c->warm_fma_last, end = memory ? c->recheck_mem : c->recheck_fma;
            char rows[200];
            int n;
            if (!moved(first, end))
                continue;
            c->clocks_moved = 1;
            n = rows_of_unit(r, b, memory, rows, sizeof rows);
            vkb_warn("%s: the clocks moved during the run: %s read %.4g %s after the warm-up and %.4g at the end "
                     "(%+.0f%%): %d %s row%s measured between may be off (%s)",
                     c->name, memory ? "copy/vec4" : "peak/fma_f32", first, memory ? "GB/s" : "GFLOP/s", end,
                     100 * (end / first - 1), n, memory ? "GB/s" : "GFLOP/s and GOP/s", n == 1 ? "" : "s",
                     n ? rows : "none");
        }
    }
}
