/* parallel.c - a fixed set of tasks run on the host's cores (parallel.h). */
#include "parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"

#define BYTES_PER_TASK ((size_t)4 << 20) /* a few ms of one core: thread start-up costs ~0.1 ms */

typedef struct pool {
    vkb_task_fn fn;
    void *ctx;
    int64_t count;
    atomic_llong next;
} pool;

static void *pool_worker(void *arg)
{
    pool *p = arg;
    for (int64_t t; (t = atomic_fetch_add(&p->next, 1)) < p->count;)
        p->fn(p->ctx, t);
    return NULL;
}

/* Helper threads free to start, shared by every caller (vkb_parallel_share); -1: unlimited per call. */
static atomic_int helpers_free = -1;

void vkb_parallel_share(int callers)
{
    int helpers = vkb_threads() - callers;
    atomic_store(&helpers_free, helpers > 0 ? helpers : 0);
}

/* Up to WANT helpers from the shared count (all WANT when it is not shared). */
static int helpers_take(int want)
{
    int free_now = atomic_load(&helpers_free);
    while (free_now >= 0) {
        int take = want < free_now ? want : free_now;
        if (atomic_compare_exchange_weak(&helpers_free, &free_now, free_now - take))
            return take;
    }
    return want;
}

static void helpers_give(int n)
{
    if (atomic_load(&helpers_free) >= 0)
        atomic_fetch_add(&helpers_free, n);
}

int vkb_threads(void)
{
    double set;
    long n;
    if (vkb_env_number("VKB_THREADS", &set, NULL, 0) == 1) /* checked at the start: a malformed one never runs */
        return (int)set;
    n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > VKB_MAX_THREADS ? VKB_MAX_THREADS : (int)n;
}

void vkb_parallel_run(int64_t count, vkb_task_fn fn, void *ctx)
{
    pthread_t th[VKB_MAX_THREADS];
    int n = vkb_threads(), started = 0, helpers;
    pool p = {fn, ctx, count, 0};
    if (n > count)
        n = (int)count;
    helpers = n > 1 ? helpers_take(n - 1) : 0;
    for (int i = 0; i < helpers; i++)
        started += pthread_create(&th[started], NULL, pool_worker, &p) == 0;
    pool_worker(&p);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    helpers_give(helpers);
}

typedef struct span_job {
    char *dst;
    const char *src; /* NULL: set to BYTE */
    int byte;
    size_t bytes;
} span_job;

/* BYTES of the job from AT: copied, or set. */
static void span_do(const span_job *j, size_t at, size_t bytes)
{
    if (j->src)
        memcpy(j->dst + at, j->src + at, bytes);
    else
        memset(j->dst + at, j->byte, bytes);
}

static void span_task(void *ctx, int64_t t)
{
    const span_job *j = ctx;
    size_t at = (size_t)t * BYTES_PER_TASK;
    span_do(j, at, (size_t)vkb_task_end(t, BYTES_PER_TASK, j->bytes) - at);
}

static void span_run(span_job *j)
{
    if (j->bytes <= 2 * BYTES_PER_TASK)
        span_do(j, 0, j->bytes); /* a task or two: not worth a thread */
    else
        vkb_parallel_run(vkb_tasks_of(j->bytes, BYTES_PER_TASK), span_task, j);
}

void vkb_parallel_copy(void *dst, const void *src, size_t bytes)
{
    span_job j = {dst, src, 0, bytes};
    span_run(&j);
}

void vkb_parallel_set(void *dst, int byte, size_t bytes)
{
    span_job j = {dst, NULL, byte, bytes};
    span_run(&j);
}
