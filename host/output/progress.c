/* progress.c - progress on stderr: the plan first, then a bar with the case and the time left on a
 * terminal, one plain line per result otherwise. The total comes from the plan, so it is exact. */
#include "sinks.h"

#include <stdio.h>
#include <unistd.h>

#include "format.h"
#include "identity.h"
#include "util.h"

typedef struct progress_sink {
    vkb_sink base;
    int total, done, tty;
    double start_ns;
    char bar[320]; /* the bar as last drawn */
    int drawn;     /* it is on the screen now */
} progress_sink;

/* The bar on the terminal, if any: a table printing to the same terminal takes it down and puts it back. */
static progress_sink *shown;

void vkb_progress_pause(FILE *out)
{
    if (shown && shown->drawn && isatty(fileno(out))) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        shown->drawn = 0;
    }
}

void vkb_progress_resume(void)
{
    if (shown && !shown->drawn && shown->bar[0]) {
        fputs(shown->bar, stderr);
        fflush(stderr);
        shown->drawn = 1;
    }
}

static void progress_begin(vkb_sink *s, const vkb_run_settings *set, vkb_backend *const *backends, int nbackends,
                           const vkb_run_plan *plan)
{
    progress_sink *p = s->impl;
    (void)set;
    p->total = plan ? plan->cases : 0;
    /* the device before the first result, unless the table names it on this same terminal or file */
    if (!vkb_identity_on_table(stderr))
        vkb_identity_print(stderr, "vkbench: ", backends, nbackends, 0);
    p->start_ns = vkb_now_ns();
    if (plan && plan->cases > 0) {
        char text[160];
        fprintf(stderr, "vkbench: %s\n", vkb_plan_text(plan, text, sizeof text));
    }
}

const char *vkb_plan_text(const vkb_run_plan *plan, char *buf, size_t len)
{
    /* no "x" between the counts: each family runs its own variants at its own shapes, so shapes x variants is
     * not the number of cases ("16 shapes x 106 variants x 1 backend = 106 cases" would be false) */
    int used = snprintf(buf, len, "%d case%s (%d famil%s: %d shape%s and %d variant%s in all; %d backend%s)",
                        plan->cases, plan->cases == 1 ? "" : "s", plan->families, plan->families == 1 ? "y" : "ies",
                        plan->shapes, plan->shapes == 1 ? "" : "s", plan->variants, plan->variants == 1 ? "" : "s",
                        plan->backends, plan->backends == 1 ? "" : "s");
    if (used >= 0 && (size_t)used < len) {
        if (plan->estimate_s >= 1)
            snprintf(buf + used, len - (size_t)used, ", about %.0f s", plan->estimate_s);
        else if (plan->estimate_s > 0)
            snprintf(buf + used, len - (size_t)used, ", under a second");
    }
    return buf;
}

static void progress_result(vkb_sink *s, const vkb_result *r)
{
    progress_sink *p = s->impl;
    char shape[64], bar[21];
    int total, fill;
    double left;
    p->done++;
    total = p->total > p->done ? p->total : p->done;
    left = (vkb_now_ns() - p->start_ns) / p->done * (total - p->done) / 1e9;
    vkb_fmt_shape(r, shape, sizeof shape);
    if (p->tty) {
        fill = 20 * p->done / total;
        for (int i = 0; i < 20; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[20] = 0;
        snprintf(p->bar, sizeof p->bar, "\r\033[K[%s] %d/%d %s/%s %s %s, %.0f s left", bar, p->done, total,
                 r->family->name, r->variant->name, r->backend, shape, left);
        fputs(p->bar, stderr);
        p->drawn = 1;
        shown = p;
    } else {
        char run[48] = "";
        if (r->repeats > 1)
            snprintf(run, sizeof run, " (run %d of %d)", r->repeat + 1, r->repeats);
        fprintf(stderr, "vkbench: [%d/%d] %s/%s %s %s %s%s\n", p->done, total, r->family->name, r->variant->name,
                r->backend, shape,
                r->status == VKB_RES_OK     ? "ok"
                : r->status == VKB_RES_FAIL ? "FAIL"
                                            : "skip",
                run);
    }
    fflush(stderr);
}

static int progress_end(vkb_sink *s, int interrupted)
{
    progress_sink *p = s->impl;
    if (p->tty && p->drawn)
        fputs("\r\033[K", stderr);
    p->drawn = 0;
    if (shown == p)
        shown = NULL;
    if (interrupted)
        fprintf(stderr, "vkbench: stopped after %d of %d cases\n", p->done, p->total);
    fflush(stderr);
    return VKB_EXIT_OK;
}

vkb_sink *vkb_sink_progress_create(void)
{
    progress_sink *p = vkb_calloc(1, sizeof *p);
    p->tty = isatty(2);
    p->base.begin = progress_begin;
    p->base.result = progress_result;
    p->base.end = progress_end;
    p->base.impl = p;
    return &p->base;
}
