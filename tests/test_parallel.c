/* test_parallel.c - the worker pool runs every task once; large copies and fills are whole and exact at sizes
 * around and between the per-task span, on any thread count. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "unit.h"

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
        vkb_parallel_run(0, count_task, runs);   /* no tasks: nothing runs */
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
        ASSERT(dst[n] == 0x5A);   /* not a byte beyond */
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

int main(int argc, char **argv)
{
    static const unit_test tests[] = {
        {"every_task_once", every_task_once},
        {"copies_and_fills", copies_and_fills},
    };
    return unit_main(argc, argv, tests, (int)(sizeof tests / sizeof tests[0]));
}
