/* inputs.c - seeded inputs generated in fixed chunks on the host's cores (inputs.h). */
#include "inputs.h"

#include "parallel.h"

typedef struct fill_job {
    vkb_rng start;
    uint64_t n;
    unsigned draws;
    vkb_fill_fn fn;
    void *ctx;
} fill_job;

uint64_t vkb_input_chunks(uint64_t n)
{
    return (uint64_t)vkb_tasks_of(n, VKB_INPUT_CHUNK);
}

/* One chunk: its generator is the start moved ahead by the draws of every element before it. */
static void fill_chunk(void *ctx, int64_t task)
{
    const fill_job *job = ctx;
    uint64_t chunk = (uint64_t)task, first = chunk * VKB_INPUT_CHUNK;
    uint64_t end = vkb_task_end(task, VKB_INPUT_CHUNK, job->n);
    vkb_rng rng = job->start;
    vkb_rng_skip(&rng, first * job->draws);
    job->fn(job->ctx, &rng, chunk, first, end);
}

void vkb_input_fill(const vkb_rng *start, uint64_t n, unsigned draws, vkb_fill_fn fn, void *ctx)
{
    fill_job job = {*start, n, draws, fn, ctx};
    vkb_parallel_run((int64_t)vkb_input_chunks(n), fill_chunk, &job);
}
