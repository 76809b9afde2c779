/* test_parallel.c - the worker pool runs every task once; large copies and fills are whole and exact at sizes
 * around and between the per-task span, on any thread count. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "unit.h"

#include <time.h>

static void count_task(void *ctx, int64_t t)
{
    ((int *)ctx)[t]++;
}

static void every_task_once(void)
{
    for (int threads = 1; threads <= 5; threads += 2) {
        char n[8];
        int runs[1000] = {0};
        snprintf(n, sizeof n, "%d", threads);
        setenv("VKB_THREADS", n, 1);
        ASSERT(vkb_threads() == threads);
        vkb_parallel_run(1000, count_task, runs);
        for (int i = 0; i < 1000; i++)
            ASSERT(runs[i] == 1);
        vkb_parallel_run(0, count_task, runs); /* no tasks: nothing runs */
        ASSERT(runs[0] == 1);
    }
}

static void copies_and_fills(void)
{
    /* below, at and above the sizes where the work is split, and not multiples of the split */
    static const size_t sizes[] = {0, 1, 4095, (8u << 20) - 1, 8u << 20, (8u << 20) + 1, (21u << 20) + 7};
    unsigned char *src = malloc((21u << 20) + 8), *dst = malloc((21u << 20) + 9);
    ASSERT(src && dst);
    for (size_t i = 0; i < (21u << 20) + 8; i++)
        src[i] = (unsigned char)(i * 2654435761u >> 13);
    setenv("VKB_THREADS", "3", 1);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        memset(dst, 0x5A, n + 1);
        vkb_parallel_copy(dst, src, n);
        ASSERT(memcmp(dst, src, n) == 0);
        ASSERT(dst[n] == 0x5A); /* not a byte beyond */
        vkb_parallel_set(dst, 0xA5, n);
        for (size_t i = 0; i < n; i++)
            if (dst[i] != 0xA5) {
                ASSERT(dst[i] == 0xA5);
                break;
            }
        ASSERT(dst[n] == 0x5A);
    }
    free(src);
    free(dst);
}

/* Tasks that sleep a millisecond and count how many run at once. */
static atomic_int running, most;

static void busy_task(void *ctx, int64_t t)
{
    struct timespec ms = {0, 1000000};
    int now = atomic_fetch_add(&running, 1) + 1, seen = atomic_load(&most);
    (void)ctx;
    (void)t;
    while (now > seen && !atomic_compare_exchange_weak(&most, &seen, now))
        ;
    nanosleep(&ms, NULL);
    atomic_fetch_sub(&running, 1);
}

static void *caller(void *arg)
{
    vkb_parallel_run(64, busy_task, arg);
    return NULL;
}

/* --device LIST: four device threads call the pool at once; after vkb_parallel_share(4) no more than
 * VKB_THREADS tasks ever run together (each call alone would start VKB_THREADS - 1 helpers: 4 x 6 = 24 threads),
 * and every task still runs once. */
static void shared_pool(void)
{
    pthread_t th[4];
    setenv("VKB_THREADS", "6", 1);
    vkb_parallel_share(4);
    for (int i = 0; i < 4; i++)
        ASSERT(pthread_create(&th[i], NULL, caller, NULL) == 0);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    ASSERT(atomic_load(&most) <= 6);
    ASSERT(atomic_load(&most) >= 2); /* the callers did overlap (64 ms of sleeps each): the bound was tested */
    ASSERT(atomic_load(&running) == 0);
}

UNIT_TESTS({"every_task_once", every_task_once}, {"copies_and_fills", copies_and_fills}, {"shared_pool", shared_pool})
