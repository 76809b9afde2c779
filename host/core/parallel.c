/* parallel.c - a fixed set of tasks run on the host's cores (parallel.h). */
#include "parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

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
