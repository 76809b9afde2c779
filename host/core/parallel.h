/* parallel.h - a fixed set of tasks run on the host's cores: the product check, seeded inputs, pipeline
 * compilation. Each task writes only its own results, so the outcome does not depend on how many threads
 * run them or in what order. */
#ifndef VKB_PARALLEL_H
#define VKB_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

#define VKB_MAX_THREADS 32

/* Threads to use: VKB_THREADS, else the host's online cores, at most VKB_MAX_THREADS. */
int vkb_threads(void);

typedef void (*vkb_task_fn)(void *ctx, int64_t task);

/* Fixed tasks of PER items each over COUNT items, the last one partial: how many there are, and where task T's
 * items end (they are T x PER .. end - 1). */
static inline int64_t vkb_tasks_of(uint64_t count, uint64_t per)
{
    return (int64_t)((count + per - 1) / per);
}

static inline uint64_t vkb_task_end(int64_t t, uint64_t per, uint64_t count)
{
    uint64_t end = ((uint64_t)t + 1) * per;
    return end < count ? end : count;
}

/* CALLERS threads will call vkb_parallel_run at the same time (one per device of --device LIST): from now on
 * the helper threads all calls start together stay within vkb_threads() - CALLERS (each caller works too), so
 * the host's cores are not oversubscribed. Without this call each call may start vkb_threads() - 1 helpers. */
void vkb_parallel_share(int callers);

/* Run FN(CTX, t) for t = 0..COUNT-1 on up to vkb_threads() threads (the caller among them); returns when
 * all have finished. A thread that cannot start leaves its tasks to the others. */
void vkb_parallel_run(int64_t count, vkb_task_fn fn, void *ctx);

/* memcpy and memset of large ranges on those threads: one thread's copy moves a third to a half of what the
 * memory can (a 1 GiB staged upload or output fill took 0.1-0.3 s on the H100 host); small ranges stay on the
 * caller's thread. */
void vkb_parallel_copy(void *dst, const void *src, size_t bytes);
void vkb_parallel_set(void *dst, int byte, size_t bytes);

#endif
