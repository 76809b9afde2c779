/* devices.c - every run's devices: one host thread per device, each running the runner on its own backends; the
 * shared sinks get one whole result at a time behind one lock. With several devices each device's table is printed
 * a family at a time under the device's name; one device's streams as it runs. */
#include "devices.h"

#include <ctype.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "outfile.h"
#include "parallel.h"
#include "same_gpu.h"
#include "sinks.h"
#include "vulkan.h"

int vkb_devices_several(const char *text)
{
    return text && (strcmp(text, "all") == 0 || strchr(text, ','));
}

/* Whether device I, picked by ITEM (its text, LEN bytes) after OUT[0..N-1], may join them: 1; 0 when an earlier
 * device of the same item is the same GPU (AGAIN says which); -(exit code) with WHY when an earlier item named it
 * or its GPU. */
static int pick_one(const char *text, const vkb_caps *caps, const int *out, int n, int from, int i, char *why,
                    size_t len, char *again, size_t again_len)
{
    for (int j = 0; j < n; j++) {
        if (out[j] == i) {
            snprintf(why, len, "--device '%s' names device %d (%s) twice", text, i, caps[i].name);
            return -VKB_EXIT_USAGE;
        }
        if (!vkb_same_gpu(&caps[out[j]], &caps[i]))
            continue;
        if (j >= from) { /* "all" or one name: its GPU's first listing stands for it */
            vkb_same_gpu_say(caps, i, out[j], again, again_len);
            return 0;
        }
        snprintf(why, len, "--device '%s' names one GPU twice: ", text);
        vkb_same_gpu_say(caps, i, out[j], why + strlen(why), len - strlen(why));
        return -VKB_EXIT_USAGE;
    }
    return 1;
}

int vkb_devices_pick(const char *text, const vkb_caps *caps, int have, int *out, char *why, size_t len, char *again,
                     size_t again_len)
{
    const char *p = text;
    int n = 0;
    again[0] = 0;
    if (have > VKB_MAX_DEVICES)
        have = VKB_MAX_DEVICES;
    for (;;) {
        size_t next = strcspn(p, ","), ilen = next;
        const char *item = p;
        int from = n, digits, rc;
        while (ilen && isspace((unsigned char)*item)) /* "0, 1": the spaces around an item are no part of it */
            item++, ilen--;
        while (ilen && isspace((unsigned char)item[ilen - 1]))
            ilen--;
        digits = ilen && strspn(item, "0123456789") >= ilen;
        if (ilen == 0) {
            snprintf(why, len, "--device '%s': an empty item (see vkbench --help)", text);
            return -VKB_EXIT_USAGE;
        }
        if (digits) {
            /* read whole, by digits: an index too large for any integer is named as typed, never wrapped */
            int idx = 0;
            for (size_t i = 0; i < ilen && idx <= have; i++)
                idx = idx * 10 + (item[i] - '0');
            if (idx >= have) {
                snprintf(why, len, "no Vulkan device %.*s: there %s %d (0..%d); see `vkbench devices`", (int)ilen, item,
                         have == 1 ? "is" : "are", have, have - 1);
                return -VKB_EXIT_NO_DEVICE;
            }
            if ((rc = pick_one(text, caps, out, n, n, idx, why, len, again, again_len)) < 0)
                return rc;
            out[n++] = idx;
        } else {
            int all = ilen == 3 && strncmp(item, "all", 3) == 0, matched = 0;
            for (int i = 0; i < have; i++) {
                if (!all && !vkb_holds_nocase(caps[i].name, item, ilen))
                    continue;
                matched = 1;
                if ((rc = pick_one(text, caps, out, n, from, i, why, len, again, again_len)) < 0)
                    return rc;
                if (rc)
                    out[n++] = i;
            }
            if (!matched && !all) {
                snprintf(why, len, "no Vulkan device named like '%.*s'; see `vkbench devices`", (int)ilen, item);
                return -VKB_EXIT_NO_DEVICE;
            }
        }
        if (!p[next])
            return n;
        p += next + 1;
    }
}

int vkb_devices_parse(const char *text, int *out)
{
    static vkb_caps caps[VKB_MAX_DEVICES]; /* 170 KB: not on the stack */
    static char why[1200], again[2000];
    vkb_backend_error error = {0};
    int have = vkb_vulkan_devices(caps, VKB_MAX_DEVICES, &error), n;
    if (have < 0)
        vkb_die((vkb_exit)error.code, "%s", error.message);
    n = vkb_devices_pick(text, caps, have, out, why, sizeof why, again, sizeof again);
    if (n < 0)
        vkb_die((vkb_exit)-n, "%s", why);
    vkb_same_gpu_warn(again);
    return n;
}

/* What the device threads share. */
static struct {
    pthread_mutex_t lock; /* recursive: a fatal error inside a sink call may end the sinks at exit */
    pthread_cond_t changed;
    int turn;               /* the device whose setup runs now */
    int ready;              /* devices set up */
    int go;                 /* 1: run; -1: stop after setup */
    int finished, ndevices; /* devices done with their work, of how many */
    const vkb_devices_hooks *hooks;
    int running; /* the shared sinks have begun and not ended: an exit must end them */
    int busy;    /* a device was left running work (backend.h: error.busy) */
} g = {.changed = PTHREAD_COND_INITIALIZER};

/* The shared sinks seen from one device's runner: whole results, one at a time, each given to every shared sink
 * under one hold of the lock, so that every output (JSON, CSV, the store) holds the devices' results in one order;
 * begin and end are the caller's. */
typedef struct shared_proxy {
    vkb_sink base;
    vkb_sink *const *inner;
    int n;
} shared_proxy;

static void proxy_result(vkb_sink *s, const vkb_result *res)
{
    shared_proxy *p = s->impl;
    pthread_mutex_lock(&g.lock);
    for (int i = 0; i < p->n; i++)
        if (p->inner[i]->result)
            p->inner[i]->result(p->inner[i], res); /* a file error inside the sink ends the process (outfile.c) */
    pthread_mutex_unlock(&g.lock);
}

static void proxy_recheck(vkb_sink *s, const vkb_backend *b)
{
    shared_proxy *p = s->impl;
    pthread_mutex_lock(&g.lock);
    for (int i = 0; i < p->n; i++)
        if (p->inner[i]->recheck)
            p->inner[i]->recheck(p->inner[i], b);
    pthread_mutex_unlock(&g.lock);
}

static vkb_sink *proxy_create(vkb_sink *const *inner, int n)
{
    shared_proxy *p = vkb_calloc(1, sizeof *p);
    p->inner = inner;
    p->n = n;
    p->base.result = proxy_result;
    p->base.recheck = proxy_recheck;
    p->base.impl = p;
    return &p->base;
}

/* A device's own table: written into a temporary file and printed to the shared output a family at a time,
 * under a line naming the device, so that eight GPUs' tables do not interleave row by row. */
typedef struct device_table {
    vkb_sink base;
    vkb_sink *inner;
    FILE *buf, *out;
    const vkb_device_run *d;
} device_table;

static void table_flush(device_table *t)
{
    char chunk[8192];
    size_t n;
    const vkb_backend *b = t->d->runner.all[0];
    if (fflush(t->buf) || ftell(t->buf) <= 0)
        return;
    rewind(t->buf);
    pthread_mutex_lock(&g.lock);
    vkb_progress_pause(t->out);
    fprintf(t->out, "-- device %d: %s (%s) on %s\n", t->d->index, b ? b->caps.name : "?", b ? b->caps.driver : "?",
            vkb_host_name());
    while ((n = fread(chunk, 1, sizeof chunk, t->buf)) > 0)
        fwrite(chunk, 1, n, t->out);
    fflush(t->out);
    vkb_progress_resume();
    pthread_mutex_unlock(&g.lock);
    rewind(t->buf);
    if (ftruncate(fileno(t->buf), 0) != 0)
        vkb_die(VKB_EXIT_OUTPUT, "cannot reuse a temporary file for the device's table");
}

static void table_begin(vkb_sink *s, const vkb_run_settings *set, vkb_backend *const *backends, int nbackends,
                        const vkb_run_plan *plan)
{
    device_table *t = s->impl;
    if (t->inner->begin)
        t->inner->begin(t->inner, set, backends, nbackends, plan);
}

static void table_family_begin(vkb_sink *s, const vkb_family *f)
{
    device_table *t = s->impl;
    if (t->inner->family_begin)
        t->inner->family_begin(t->inner, f);
}

static void table_family_end(vkb_sink *s, const vkb_family *f)
{
    device_table *t = s->impl;
    if (t->inner->family_end)
        t->inner->family_end(t->inner, f);
    table_flush(t);
}

static void table_result(vkb_sink *s, const vkb_result *res)
{
    device_table *t = s->impl;
    t->inner->result(t->inner, res);
}

static int table_end(vkb_sink *s, int interrupted)
{
    device_table *t = s->impl;
    int rc = t->inner->end ? t->inner->end(t->inner, interrupted) : 0;
    table_flush(t);
    return rc;
}

static void table_destroy(vkb_sink *s)
{
    device_table *t = s->impl;
    vkb_sink_destroy(t->inner);
    fclose(t->buf);
}

static vkb_sink *device_table_create(const vkb_device_run *d, const vkb_devices_hooks *h)
{
    device_table *t = vkb_calloc(1, sizeof *t);
    t->buf = tmpfile();
    if (!t->buf)
        vkb_die(VKB_EXIT_OUTPUT, "cannot make a temporary file for the tables of several devices");
    t->inner = h->table(t->buf);
    t->out = h->out;
    t->d = d;
    t->base.begin = table_begin;
    t->base.family_begin = table_family_begin;
    t->base.family_end = table_family_end;
    t->base.result = table_result;
    t->base.end = table_end;
    t->base.destroy = table_destroy;
    t->base.impl = t;
    return &t->base;
}

static void run_device(vkb_device_run *d);

static void *device_thread(void *arg)
{
    vkb_device_run *d = arg;
    pthread_mutex_lock(&g.lock);
    while (g.turn != d->slot)
        pthread_cond_wait(&g.changed, &g.lock);
    pthread_mutex_unlock(&g.lock);
    g.hooks->setup(d); /* serial: volk, the CUDA module and the messages of a bad request, one device at a time */
    pthread_mutex_lock(&g.lock);
    g.turn++;
    g.ready++;
    pthread_cond_broadcast(&g.changed);
    while (!g.go)
        pthread_cond_wait(&g.changed, &g.lock);
    pthread_mutex_unlock(&g.lock);
    if (g.go > 0)
        run_device(d);
    /* the backends end on the thread that used them (what a backend keeps per thread, staging memory, with
     * them), once every device has finished: the shared sinks look up a result's device among all backends
     * until the last result is in. A failed or still busy device's state is not to be trusted: left as it is */
    pthread_mutex_lock(&g.lock);
    g.finished++;
    pthread_cond_broadcast(&g.changed);
    while (g.finished < g.ndevices)
        pthread_cond_wait(&g.changed, &g.lock);
    pthread_mutex_unlock(&g.lock);
    for (int b = 0; b < d->runner.nall && !d->error; b++)
        d->runner.all[b]->destroy(d->runner.all[b]);
    vkb_runner_thread_done();
    return NULL;
}

/* The device's runner on its thread. A device that fails (lost, out of memory, a hang caught by a timeout) or
 * does not answer a stop in time ends its part there (runner.c); what it holds is left as it is: a lost device
 * cannot be trusted to free it, a busy one may still use it. */
static void run_device(vkb_device_run *d)
{
    if (g.hooks->several)
        snprintf(d->prefix, sizeof d->prefix, "device %d (%.200s): ", d->index, d->runner.all[0]->caps.name);
    d->runner.several = g.hooks->several;
    d->runner.sinks = d->sinks;
    d->runner.nsinks = d->nsinks;
    d->runner.ended = vkb_outfile_report;
    d->rc = vkb_runner_run(&d->runner, &d->sel, &d->set, &d->plan);
    d->error = vkb_runner_device_error(&d->runner);
    if (d->error)
        vkb_leave_failed_state();
    if (d->error && !d->error->stopped && g.hooks->several)
        vkb_error("%s%s", d->prefix, d->error->message); /* now: the other devices may run for minutes */
}

int vkb_devices_busy(void)
{
    return g.busy;
}

/* A fatal error during a run of several devices (any thread's) still closes the shared result files, marked
 * interrupted. */
static void end_at_exit(void)
{
    pthread_mutex_lock(&g.lock);
    if (g.running) {
        g.running = 0;
        for (int i = 0; i < g.hooks->nshared; i++)
            if (g.hooks->shared[i]->end)
                g.hooks->shared[i]->end(g.hooks->shared[i], 1);
    }
    pthread_mutex_unlock(&g.lock);
}

int vkb_devices_run(vkb_device_run *runs, int n, const vkb_devices_hooks *hooks)
{
    pthread_t th[VKB_MAX_DEVICES];
    vkb_backend **all = vkb_calloc((size_t)n * 2, sizeof *all);
    vkb_run_plan total = {0};
    vkb_run_settings set;
    int nall = 0, rc = 0, interrupted = 0;

    pthread_mutexattr_t recursive;
    pthread_mutexattr_init(&recursive);
    pthread_mutexattr_settype(&recursive, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&g.lock, &recursive);
    if (n > 1)
        vkb_vulkan_several(); /* one device keeps direct pointers into its driver (dispatch latency rows) */
    g.hooks = hooks;
    g.ndevices = n;
    for (int i = 0; i < n; i++) {
        vkb_device_run *d = &runs[i];
        d->slot = i;
        if (d->index >= 0) {
            snprintf(d->index_text, sizeof d->index_text, "%d", d->index);
            d->select = d->index_text;
        }
        /* one device's table streams; several devices' are printed a family at a time under each one's name */
        d->sinks[d->nsinks++] = hooks->several ? device_table_create(d, hooks) : hooks->table(hooks->out);
        if (hooks->nshared)
            d->sinks[d->nsinks++] = proxy_create(hooks->shared, hooks->nshared);
        if (pthread_create(&th[i], NULL, device_thread, d) != 0)
            vkb_die(VKB_EXIT_RESOURCE, "cannot start a thread for device %d", d->index);
    }
    pthread_mutex_lock(&g.lock);
    while (g.ready < n)
        pthread_cond_wait(&g.changed, &g.lock);
    if (hooks->dry_run) {
        g.go = -1;
        pthread_cond_broadcast(&g.changed);
        pthread_mutex_unlock(&g.lock);
        for (int i = 0; i < n; i++)
            pthread_join(th[i], NULL);
        free(all);
        return 0;
    }
    /* the shared sinks begin once, with every device's backends and the whole work */
    set = runs[0].set;
    for (int i = 0; i < n; i++) {
        const vkb_runner *r = &runs[i].runner;
        for (int b = 0; b < r->nall; b++)
            all[nall++] = r->all[b];
        total.cases += runs[i].plan.cases;
        total.families = runs[i].plan.families; /* one selection, run on each device */
        total.shapes += runs[i].plan.shapes;
        total.variants += runs[i].plan.variants;
        total.backends += runs[i].plan.backends;
        if (runs[i].plan.estimate_s > total.estimate_s) {
            total.estimate_s = runs[i].plan.estimate_s; /* they run at the same time */
            total.check_s = runs[i].plan.check_s;
        }
        set.paired |= runs[i].set.paired;
    }
    for (int s = 0; s < hooks->nshared; s++)
        if (hooks->shared[s]->begin)
            hooks->shared[s]->begin(hooks->shared[s], &set, all, nall, &total);
    g.running = 1;
    atexit(end_at_exit);
    vkb_parallel_share(n); /* n device threads work; the helpers of all of them stay within the cores */
    g.go = 1;
    pthread_cond_broadcast(&g.changed);
    pthread_mutex_unlock(&g.lock);

    for (int i = 0; i < n; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_lock(&g.lock);
    g.running = 0;
    for (int i = 0; i < n; i++) {
        const vkb_backend_error *e = runs[i].error;
        g.busy |= e && e->busy;
        interrupted |= runs[i].runner.interrupted || runs[i].runner.done < runs[i].runner.nwork || e;
        if (e && !e->stopped) { /* the files name the first failed device's error */
            char msg[sizeof runs[i].prefix + sizeof e->message];
            snprintf(msg, sizeof msg, "%s%s", runs[i].prefix, e->message);
            vkb_fatal_message_keep(msg);
        }
    }
    for (int s = 0; s < hooks->nshared; s++) {
        int code = hooks->shared[s]->end ? hooks->shared[s]->end(hooks->shared[s], interrupted != 0) : 0;
        if (code && !rc)
            rc = code;
    }
    pthread_mutex_unlock(&g.lock);
    vkb_outfile_report(); /* a result file that could not be written: its line (exit 6 alone says nothing) */
    for (int i = 0; i < n && !rc; i++)
        if (runs[i].rc)
            rc = runs[i].rc; /* a per-device sink's failure, the device's error, or the signal */
    if (!hooks->several && runs[0].error && !runs[0].error->stopped)
        vkb_error("%s", runs[0].error->message); /* the last line, after every file has ended */
    free(all);                                   /* the shared sinks were given it, and have ended */
    return rc;
}
