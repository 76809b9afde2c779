/* runner.c - the run: the work list walked shape by shape (inputs made once per shape), each case executed
 * (execute.c) and judged (judge.c), every result out, final, as an event to the sinks. */
#include "runner.h"
#include "runner_parts.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_limits.h"
#include "fault.h"
#include "parallel.h"
#include "signals.h"
#include "spirv.h"
#include "util.h"
#include "verify.h"

static vkb_runner *active;                    /* the run whose sinks an early exit must still end */
static _Thread_local vkb_result *in_progress; /* the case being run: a fatal error is recorded on it */

/* Inputs of shape S of family FI (whose first work item is W), made once for all its variants and backends; none
 * where a shared size is beyond every case of the shape (each then skips, with the reason, without inputs). */
static void shape_begin(vkb_runner *r, shape_state *st, const vkb_selection *sel, int fi, int s, int w)
{
    const vkb_family *f = sel->fam[fi].family;
    char why[200] = "", text[96];
    double t0 = vkb_now_ns();
    r->clock.wall_ns = t0 - r->start_ns;
    st->clock = r->clock;
    st->fam = fi;
    st->shape = s;
    st->c = (vkb_case){f, sel->fam[fi].shapes[s], NULL};
    st->first_result = r->results.n;
    st->saved_variant = -1;
    st->lenient = sel->fam[fi].shared_sizes;
    if (st->lenient && !vkb_preflight_shape_runs(r, sel, w, st->beyond, sizeof st->beyond))
        return;
    st->c.data = f->case_create(&st->c.shape, r->seed, why, sizeof why);
    if (!st->c.data)
        vkb_die(VKB_EXIT_USAGE, "%s at %s: %s", f->name, vkb_shape_text(f, &st->c.shape, text, sizeof text), why);
    t0 = vkb_now_ns() - t0;
    r->clock.inputs_ns += t0;
}

/* -v: where the time of WHAT went: CLOCK, or its part since BEFORE. */
static void print_clock(const char *what, const vkb_runner_clock *clock, const vkb_runner_clock *before)
{
    static const vkb_runner_clock zero;
    const vkb_runner_clock *b = before ? before : &zero;
    vkb_note("time%s%s: %.2f s: inputs %.2f, pipelines %.2f, buffers and uploads %.2f, checked runs %.2f, "
             "downloads %.2f, CPU checks %.2f, determinism and cross-backend %.2f, timing %.2f (warm-up %.2f)",
             what[0] ? " of " : "", what, (clock->wall_ns - b->wall_ns) / 1e9, (clock->inputs_ns - b->inputs_ns) / 1e9,
             (clock->prepare_ns - b->prepare_ns) / 1e9, (clock->upload_ns - b->upload_ns) / 1e9,
             (clock->run_ns - b->run_ns) / 1e9, (clock->download_ns - b->download_ns) / 1e9,
             (clock->check_ns - b->check_ns) / 1e9, (clock->rerun_ns - b->rerun_ns) / 1e9,
             (clock->timing_ns - b->timing_ns) / 1e9, (clock->warmup_ns - b->warmup_ns) / 1e9);
}

static void shape_end(vkb_runner *r, shape_state *st)
{
    char text[96], what[160];
    if (st->fam < 0)
        return;
    r->clock.wall_ns = vkb_now_ns() - r->start_ns;
    if (vkb_verbose) {
        snprintf(what, sizeof what, "%s at %s", st->c.family->name,
                 vkb_shape_text(st->c.family, &st->c.shape, text, sizeof text));
        print_clock(what, &r->clock, &st->clock);
    }
    vkb_compare_forget(&st->saved);
    for (int i = 0; i < st->ninputs; i++)
        r->all[st->inputs[i].backend]->buffer_destroy(r->all[st->inputs[i].backend], st->inputs[i].buf);
    st->ninputs = 0;
    if (st->c.data)
        st->c.family->case_destroy(st->c.data);
    st->c.data = NULL;
    st->fam = -1;
}

/* Sinks get end() once: after the work, when a signal stopped it, or at exit when a fatal error ended it. */
static int end_sinks(vkb_runner *r, int interrupted)
{
    int rc = 0;
    active = NULL;
    for (int i = 0; i < r->nsinks; i++) {
        int code = r->sinks[i]->end ? r->sinks[i]->end(r->sinks[i], interrupted) : 0;
        if (code && !rc)
            rc = code;
    }
    if (r->ended)
        r->ended();
    return rc;
}

static void end_at_exit(void)
{
    if (active)
        end_sinks(active, 1);
}

/* RES, final, to every sink that takes results. */
static void result_event(vkb_runner *r, const vkb_result *res)
{
    for (int i = 0; i < r->nsinks; i++)
        if (r->sinks[i]->result)
            r->sinks[i]->result(r->sinks[i], res);
}

void vkb_runner_fail_row(vkb_result *res, const char *error, int several)
{
    const char *prefix = several ? "device failed: " : "error: ";
    res->status = VKB_RES_FAIL;
    res->timed = 0;
    res->check.pass = 0;
    res->error = error; /* the files record why */
    if (several)
        snprintf(res->check.method, sizeof res->check.method, "device failed: %.78s", error);
    else
        snprintf(res->check.method, sizeof res->check.method, "the run ended here");
    snprintf(res->check.reason, sizeof res->check.reason, "%s%.*s", prefix,
             (int)(sizeof res->check.reason - 1 - strlen(prefix)), error);
}

/* vkb_die during the run: the case in progress fails with the error (its row says it), and the files are
 * ended with what ran, the error recorded, before the error line is printed. */
static void end_on_fatal(const char *msg)
{
    vkb_runner *r = active;
    vkb_result *res = in_progress;
    if (!r)
        return;
    in_progress = NULL;
    if (res && res->family) {
        vkb_runner_fail_row(res, msg, 0);
        result_event(r, res);
    }
    end_sinks(r, 1);
}

static void family_event(vkb_runner *r, const vkb_family *f, int begin)
{
    for (int i = 0; i < r->nsinks; i++) {
        void (*fn)(vkb_sink *, const vkb_family *) = begin ? r->sinks[i]->family_begin : r->sinks[i]->family_end;
        if (fn)
            fn(r->sinks[i], f);
    }
}

const vkb_backend_error *vkb_runner_device_error(const vkb_runner *r)
{
    for (int b = 0; b < r->nall; b++)
        if (vkb_backend_failed(r->all[b]))
            return &r->all[b]->error;
    return NULL;
}

static int fail_rest(vkb_runner *r, const vkb_selection *sel, const char *reason);

/* After R's device failed with E: a stop its device did not answer ends the files as interrupted, without the
 * case in progress; an error ends them with the error recorded (one device), or after every case not run has
 * been emitted as failed with it (one device of several: the other devices' tables stay whole). Returns the
 * sinks' failure code, else E's code. */
static int device_ended(vkb_runner *r, const vkb_selection *sel, const vkb_backend_error *e)
{
    int rc;
    if (e->stopped) {
        r->results.n--;
        r->interrupted = vkb_stop_signal();
    } else {
        r->done++;
    }
    if (r->family >= 0)
        family_event(r, sel->fam[r->family].family, 0);
    r->family = -1;
    if (e->stopped || !r->several) {
        if (!e->stopped)
            vkb_fatal_message_keep(e->message); /* the files' "error" */
        rc = end_sinks(r, 1);
    } else {
        rc = fail_rest(r, sel, e->message);
    }
    return rc ? rc : e->code;
}

int vkb_runner_run(vkb_runner *r, const vkb_selection *sel, const vkb_run_settings *set, const vkb_run_plan *plan)
{
    static int registered;
    shape_state st;
    int family = -1, rc;
    const vkb_backend_error *failed = NULL;

    memset(&st, 0, sizeof st);
    st.fam = -1;
    vkb_signals_install(); /* main installed them first; a test's run installs them here */
    vkb_results_reserve(&r->results, r->nwork);
    r->family = -1;
    r->start_ns = vkb_now_ns();
    for (int i = 0; i < r->nsinks; i++)
        if (r->sinks[i]->begin)
            r->sinks[i]->begin(r->sinks[i], set, r->all, r->nall, plan);
    if (!registered && !r->several)
        registered = atexit(end_at_exit) == 0;
    if (!r->several) { /* --device LIST: a fatal error ends the process, and devices.c ends the shared files */
        active = r;
        vkb_set_fatal_hook(end_on_fatal);
    }
    /* SIGINT, SIGTERM, SIGHUP, SIGPIPE: the case under way ends (its timing within a second), is dropped
     * when its timing was cut short, and the sinks end with what ran (signals.c: a second one ends at once) */
    vkb_preflight_precompile(r, sel);
    for (int w = 0; w < r->nwork && !vkb_stop_signal(); w++) {
        const vkb_work *k = &r->work[w];
        const vkb_family *f = sel->fam[k->fam].family;
        const vkb_variant *v = &f->variants[k->variant];
        vkb_result *res;
        if (st.fam != k->fam || st.shape != k->shape)
            shape_end(r, &st);
        if (family != k->fam) {
            if (family >= 0)
                family_event(r, sel->fam[family].family, 0);
            family = r->family = k->fam;
            family_event(r, f, 1);
        }
        if (st.fam < 0)
            shape_begin(r, &st, sel, k->fam, k->shape, w);
        if (st.saved_variant != k->variant) {
            vkb_compare_forget(&st.saved);
            st.saved_variant = k->variant;
        }
        res = in_progress = vkb_results_add(&r->results);
        res->repeats = r->repeat;
        res->repeat = k->repeat;
        vkb_execute_case(r, &st, k->backend, f, v, res);
        in_progress = NULL;
        if ((failed = vkb_runner_device_error(r))) {
            /* the case failed with the error (execute.c); the shape's input buffers are the failed device's: left
             * with it, as its state is */
            if (!failed->stopped)
                result_event(r, res);
            st.ninputs = 0;
            break;
        }
        if (vkb_stop_signal() && vkb_timing_cut_short()) {
            r->results.n--; /* its timing was stopped: not a measurement */
            break;
        }
        vkb_judge_ceiling(r, &st, res);
        vkb_judge_metric(r, &st, res, &r->all[k->backend]->caps);
        r->done++;
        result_event(r, res);
    }
    shape_end(r, &st);
    vkb_compare_free(&st.saved);
    free(st.inputs);
    if (failed) {
        if (!r->several)
            vkb_set_fatal_hook(NULL);
        return device_ended(r, sel, failed);
    }
    if (family >= 0)
        family_event(r, sel->fam[family].family, 0);
    r->family = -1;
    vkb_signal_fault("signal-late"); /* tests: a signal after the last case, while the files are closed */
    r->interrupted = vkb_stop_signal();
    if (!r->several)
        vkb_set_fatal_hook(NULL);
    if (r->recheck && !r->interrupted && r->done == r->nwork) {
        r->recheck(r);
        for (int b = 0; b < r->nall; b++)
            for (int i = 0; i < r->nsinks && (r->all[b]->caps.recheck_mem > 0 || r->all[b]->caps.recheck_fma > 0); i++)
                if (r->sinks[i]->recheck)
                    r->sinks[i]->recheck(r->sinks[i], r->all[b]);
    }
    rc = end_sinks(r, r->done < r->nwork);
    if (vkb_verbose)
        print_clock("", &r->clock, NULL);
    if (rc)
        return rc;
    return r->interrupted ? 128 + r->interrupted : 0;
}

static int fail_rest(vkb_runner *r, const vkb_selection *sel, const char *reason)
{
    int rc;
    for (int w = r->done; w < r->nwork; w++) {
        const vkb_work *k = &r->work[w];
        const vkb_family *f = sel->fam[k->fam].family;
        vkb_result *res = vkb_results_add(&r->results);
        if (r->family != k->fam) {
            if (r->family >= 0)
                family_event(r, sel->fam[r->family].family, 0);
            r->family = k->fam;
            family_event(r, f, 1);
        }
        res->family = f;
        res->variant = &f->variants[k->variant];
        res->backend = r->all[k->backend]->name;
        res->device_index = r->all[k->backend]->caps.index;
        res->shape = sel->fam[k->fam].shapes[k->shape];
        res->cache_fits = -1;
        res->predicted = NAN;
        vkb_runner_fail_row(res, reason, 1);
        r->done++;
        result_event(r, res);
    }
    if (r->family >= 0)
        family_event(r, sel->fam[r->family].family, 0);
    r->family = -1;
    rc = end_sinks(r, 0);
    return rc ? rc : r->interrupted ? 128 + r->interrupted : 0;
}

void vkb_runner_thread_done(void)
{
    vkb_execute_thread_done();
}

void vkb_runner_free(vkb_runner *r)
{
    vkb_runner_thread_done();
    free(r->work);
    r->work = NULL;
    r->nwork = 0;
    vkb_results_free(&r->results);
}
