/* parallel.c - a fixed set of tasks run on the host's cores (parallel.h). */
#include "parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int vkb_threads(void)
{
    const char *env = getenv("VKB_THREADS");
    long n = env && *env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > VKB_MAX_THREADS ? VKB_MAX_THREADS : (int)n;
}

void vkb_parallel_run(int64_t count, vkb_task_fn fn, void *ctx)
{
    pthread_t th[VKB_MAX_THREADS];
    int n = vkb_threads(), started = 0;
    pool p = {fn, ctx, count, 0};
    if (n > count)
        n = (int)count;
    for (int i = 1; i < n; i++)
        started += pthread_create(&th[started], NULL, pool_worker, &p) == 0;
    pool_worker(&p);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
}

typedef struct span_job {
    char *dst;
    const char *src;   /* NULL: set to BYTE */
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
        span_do(j, 0, j->bytes);   /* a task or two: not worth a thread */
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
