/* backend_vulkan.c - the Vulkan backend: plans become pipelines and command buffers, timed with
 * GPU timestamps (timestampValidBits and timestampPeriod honoured). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "buffers.h"
#include "fault.h"
#include "parallel.h"
#include "pipelines.h"
#include "subgroup_size.h"
#include "timing.h"
#include "vk.h"
#include "verify_compare.h"
#include "vulkan.h"

#define REPS_PER_SUBMIT 32             /* timestamp pairs per command buffer */
#define EVICT_MIN_BYTES (256ull << 20) /* --cold: written between repetitions; larger than any GPU's L2 of today */

typedef struct vk_prepared {
    vkb_plan plan;
    vkb_vk_pipeline pipe[VKB_MAX_PASSES];
    VkCommandBuffer host_timed; /* a host-timed plan's passes on the compute queue, recorded once (submit to
                                     fence); none where all its device passes are on the transfer queues */
    VkCommandBuffer side[2];    /* ... its copies on transfer queue 0 and 1 (vkb_pass.queue 1, 2), beside it */
} vk_prepared;

typedef struct vk_backend {
    vkb_vk *vk;
    VkQueryPool queries;
    VkQueryPool pass_queries; /* what VKB_PASS_TIMESTAMP passes write (VKB_TIMESTAMP_REPEAT_MAX) */
    struct vkb_buffer *evict;
    vk_prepared *compare;       /* verify_compare's pipeline, made at its first use */
    struct vkb_buffer *verdict; /* ... and its verdict (struct verify_compare_verdict) */
} vk_backend;

/* A failed device does nothing: each entry point below returns at once once its error is recorded (backend.h) */
#define FAILED(b) vkb_backend_failed(b)

static void *vk_prepare(vkb_backend *b, const vkb_plan *plan, char *why, size_t len)
{
    vk_backend *impl = b->impl;
    vk_prepared *p;
    if (FAILED(b)) {
        snprintf(why, len, "%s", b->error.message);
        return NULL;
    }
    p = vkb_calloc(1, sizeof *p);
    p->plan = *plan;
    for (int i = 0; i < plan->nbuf; i++)
        if (vkb_vk_placement_check(impl->vk, plan->buf[i].bytes, plan->buf[i].flags, why, len)) {
            b->unprepare(b, p);
            return NULL;
        }
    for (int i = 0; i < plan->npass; i++) {
        const vkb_pass *pass = &plan->pass[i];
        if (pass->kind == VKB_PASS_LIBRARY) {
            snprintf(why, len, "%s is a CUDA library call", pass->kernel);
            b->unprepare(b, p);
            return NULL;
        }
        if (pass->queue && (impl->vk->xfer_family == UINT32_MAX || pass->kind != VKB_PASS_COPY || !plan->host_timed ||
                            (uint32_t)pass->queue > impl->vk->xfer_count)) {
            if (impl->vk->xfer_family == UINT32_MAX)
                snprintf(why, len, "no transfer-only queue family on this device");
            else if (pass->kind != VKB_PASS_COPY || !plan->host_timed)
                snprintf(why, len, "only a host-timed plan's copies go to the transfer queues");
            else
                snprintf(why, len,
                         "the transfer-only queue family %u has %u queue%s: a copy on transfer queue %d "
                         "needs %d",
                         impl->vk->xfer_family, impl->vk->xfer_count, impl->vk->xfer_count == 1 ? "" : "s",
                         pass->queue - 1, pass->queue);
            b->unprepare(b, p);
            return NULL;
        }
        if ((pass->kind == VKB_PASS_TIMESTAMP && !impl->pass_queries) ||
            (pass->kind == VKB_PASS_COPY && pass->nbind == 2 &&
             (plan->buf[pass->bind[0]].flags | plan->buf[pass->bind[1]].flags) & VKB_BUF_HOST_PAGEABLE)) {
            snprintf(why, len,
                     pass->kind == VKB_PASS_TIMESTAMP ? "no timestamps on the compute queue"
                                                      : "vkCmdCopyBuffer cannot reach pageable host memory");
            b->unprepare(b, p);
            return NULL;
        }
        if (pass->kind == VKB_PASS_DISPATCH) {
            int rc =
                vkb_vk_pipeline_create(impl->vk, pass, vkb_pass_uniform_bindings(plan, pass), &p->pipe[i], why, len);
            if (rc < 0)
                vkb_backend_fail(&b->error, VKB_EXIT_API, "%s", why);
            if (rc) {
                b->unprepare(b, p);
                return NULL;
            }
        }
    }
    return p;
}

/* The distinct pipelines of a run, built once each on worker threads into the context's pipeline cache,
 * then dropped: the driver's compiler is single-threaded per pipeline, and a cold H100 spent 7.4 s of the
 * default suite compiling matmul's pipelines one after another. */
typedef struct precompile_job {
    vkb_vk *vk;
    const vkb_pass **pass;
    unsigned *uniform;
    int n;
} precompile_job;

static int same_pipeline(const vkb_pass *a, unsigned ua, const vkb_pass *b, unsigned ub)
{
    return ua == ub && a->nbind == b->nbind && a->nspec == b->nspec && strcmp(a->kernel, b->kernel) == 0 &&
           memcmp(a->local, b->local, sizeof a->local) == 0 &&
           memcmp(a->spec, b->spec, (size_t)a->nspec * sizeof a->spec[0]) == 0;
}

static void precompile_one(void *ctx, int64_t t)
{
    precompile_job *j = ctx;
    vkb_vk_pipeline pipe;
    char why[200];
    /* a pipeline that cannot be built is said by prepare() on its row */
    if (vkb_vk_pipeline_create(j->vk, j->pass[t], j->uniform[t], &pipe, why, sizeof why) == 0)
        vkb_vk_pipeline_destroy(j->vk, &pipe);
}

static void vk_precompile(vkb_backend *b, const vkb_plan *plans, int n)
{
    precompile_job j = {((vk_backend *)b->impl)->vk, NULL, NULL, 0};
    int cap = 0;
    double t0 = vkb_now_ns();
    const char *env = getenv("VKB_PRECOMPILE"); /* 0: never, 1: on a CPU implementation too (tests) */
    /* --sass reads each pipeline's own cache (pipelines.c): nothing to share. A CPU implementation's cache
     * (lavapipe's) keeps no compiled code: building ahead doubled its suite's pipeline time (0.37 -> 0.79 s) */
    if (FAILED(b) || vkb_mc_enabled() || (env && strcmp(env, "0") == 0) ||
        (b->caps.is_cpu && !(env && strcmp(env, "1") == 0)))
        return;
    for (int p = 0; p < n; p++)
        for (int i = 0; i < plans[p].npass; i++) {
            const vkb_pass *pass = &plans[p].pass[i];
            unsigned uniform = vkb_pass_uniform_bindings(&plans[p], pass);
            int seen = 0;
            if (pass->kind != VKB_PASS_DISPATCH)
                continue;
            for (int k = 0; k < j.n && !seen; k++)
                seen = same_pipeline(j.pass[k], j.uniform[k], pass, uniform);
            if (seen)
                continue;
            if (j.n == cap) { /* a few hundred at most: vkb_alloc's out-of-host-memory line if not */
                const vkb_pass **pass = j.pass;
                unsigned *uniform = j.uniform;
                cap = cap ? 2 * cap : 64;
                j.pass = vkb_calloc((size_t)cap, sizeof *j.pass);
                j.uniform = vkb_calloc((size_t)cap, sizeof *j.uniform);
                if (j.n) {
                    memcpy(j.pass, pass, (size_t)j.n * sizeof *j.pass);
                    memcpy(j.uniform, uniform, (size_t)j.n * sizeof *j.uniform);
                }
                free(pass);
                free(uniform);
            }
            j.pass[j.n] = pass;
            j.uniform[j.n++] = uniform;
        }
    vkb_parallel_run(j.n, precompile_one, &j);
    if (vkb_verbose)
        vkb_note("-v: %d pipelines built ahead on %d threads in %.2f s", j.n, vkb_threads(), (vkb_now_ns() - t0) / 1e9);
    free(j.pass);
    free(j.uniform);
}

static int vk_statistics(vkb_backend *b, void *prepared, vkb_pipeline_stats *out, int max)
{
    vk_prepared *p = prepared;
    int count = 0;
    if (FAILED(b))
        return 0;
    for (int i = 0; i < p->plan.npass && count < max; i++)
        if (p->plan.pass[i].kind == VKB_PASS_DISPATCH)
            count += vkb_vk_pipeline_statistics(((vk_backend *)b->impl)->vk, &p->pipe[i], p->plan.pass[i].kernel,
                                                out + count, max - count);
    return count;
}

static void vk_unprepare(vkb_backend *b, void *prepared)
{
    vk_backend *impl = b->impl;
    vk_prepared *p = prepared;
    if (!p || b->error.busy) /* the device may still run it: left as it is */
        return;
    for (int i = 0; i < VKB_MAX_PASSES; i++)
        vkb_vk_pipeline_destroy(impl->vk, &p->pipe[i]);
    if (p->host_timed)
        vkFreeCommandBuffers(impl->vk->device, impl->vk->pool, 1, &p->host_timed);
    for (int q = 0; q < 2; q++)
        if (p->side[q])
            vkFreeCommandBuffers(impl->vk->device, impl->vk->xfer_pool, 1, &p->side[q]);
    free(p);
}

static vkb_buffer *vk_buffer_create(vkb_backend *b, uint64_t bytes, unsigned flags)
{
    return FAILED(b) ? NULL : vkb_vk_buffer_create(((vk_backend *)b->impl)->vk, bytes, flags);
}

static void vk_buffer_destroy(vkb_backend *b, vkb_buffer *buf)
{
    if (b->error.busy) /* the device may still run work on it: left as it is */
        return;
    vkb_vk_buffer_destroy(((vk_backend *)b->impl)->vk, buf);
}

static void vk_upload(vkb_backend *b, vkb_buffer *buf, const void *src, uint64_t bytes)
{
    if (!FAILED(b))
        vkb_vk_buffer_upload(((vk_backend *)b->impl)->vk, buf, src, bytes);
}

static void vk_download(vkb_backend *b, vkb_buffer *buf, void *dst, uint64_t bytes)
{
    if (!FAILED(b))
        vkb_vk_buffer_download(((vk_backend *)b->impl)->vk, buf, dst, bytes);
}

static void vk_poison(vkb_backend *b, vkb_buffer *buf, uint64_t bytes)
{
    (void)bytes;
    if (!FAILED(b))
        vkb_vk_buffer_fill(((vk_backend *)b->impl)->vk, buf, VKB_POISON);
}

static void vk_guards(vkb_backend *b, vkb_buffer *buf, void *before, void *after)
{
    if (!FAILED(b))
        vkb_vk_buffer_read_guards(((vk_backend *)b->impl)->vk, buf, before, after);
}

typedef struct record_job {
    vk_backend *impl;
    vk_prepared *prep;
    vkb_buffer *const *bufs;
    int reps, cold, timed;
    int early_end;                       /* VKB_FAULT_INJECT=timer-early: the end timestamp written before the work, */
    VkPipelineStageFlagBits early_stage; /* at this stage (vk_execute says why) */
} record_job;

/* Whether INDEX is the plan's first output. */
static int first_output(const vkb_plan *plan, int index)
{
    int first = -1;
    for (int i = 0; i < plan->nbuf && first < 0; i++)
        if (plan->buf[i].role == VKB_BUF_OUTPUT)
            first = i;
    return index == first;
}

/* VKB_FAULT_INJECT=oob-write: the first output is bound 16 bytes late (an allowed offset alignment), so
 * the kernel writes its last 16 bytes past the end, into the guard band, inside its descriptor's range;
 * oob-write-past: the same, past the range too (fault_range_cut) (tests); else 0. */
static uint64_t fault_shift(const vkb_plan *plan, int index)
{
    return first_output(plan, index) && (vkb_fault("oob-write") || vkb_fault("oob-write-past")) ? 16 : 0;
}

/* VKB_FAULT_INJECT=oob-write-past: the first output's descriptor range 16 bytes short of what the kernel
 * writes, so its last four words are stores past the range (what a kernel's off-by-4 edge guard does): a
 * driver with robust buffer access drops them (the row fails by value), one without lets them land in the
 * guard band (tests); else 0. */
static uint64_t fault_range_cut(const vkb_plan *plan, int index)
{
    return first_output(plan, index) && vkb_fault("oob-write-past") ? 16 : 0;
}

/* VKB_FAULT_INJECT=transfer-byte: a word in the middle of each copy's destination overwritten after the copy, as
 * a byte changed in flight would be (tests). */
static void fault_transfer_byte(VkCommandBuffer cmd, struct vkb_buffer *dst, uint64_t bytes)
{
    uint32_t word = 0x5A5A5A5Au;
    vkb_vk_barrier(cmd);
    vkCmdUpdateBuffer(cmd, dst->buffer, dst->offset + (bytes / 2 & ~3ull), 4, &word);
}

static void record_passes(VkCommandBuffer cmd, vk_backend *impl, vk_prepared *p, vkb_buffer *const *bufs)
{
    for (int i = 0; i < p->plan.npass; i++) {
        const vkb_pass *pass = &p->plan.pass[i];
        uint32_t repeat = pass->repeat ? pass->repeat : 1;
        vkb_vk_pipeline *pipe = &p->pipe[i];
        if (pass->queue) /* a transfer queue's: record_side */
            continue;
        if (i > 0)
            vkb_vk_barrier(cmd);
        if (pass->kind == VKB_PASS_COPY) {
            VkBufferCopy region = {bufs[pass->bind[0]]->offset,
                                   bufs[pass->bind[1]]->offset + fault_shift(&p->plan, pass->bind[1]),
                                   pass->copy_bytes};
            vkCmdCopyBuffer(cmd, bufs[pass->bind[0]]->buffer, bufs[pass->bind[1]]->buffer, 1, &region);
            if (vkb_fault("transfer-byte") && pass->copy_bytes >= 4)
                fault_transfer_byte(cmd, bufs[pass->bind[1]], pass->copy_bytes);
            continue;
        }
        if (pass->kind == VKB_PASS_TIMESTAMP) {
            for (uint32_t k = 0; k < repeat; k++)
                vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, impl->pass_queries, k);
            continue;
        }
        if (pass->kind != VKB_PASS_DISPATCH)
            continue;
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe->pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe->layout, 0, 1, &pipe->set, 0, NULL);
        vkCmdPushConstants(cmd, pipe->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, VKB_PUSH_WORDS * 4, pass->push);
        for (uint32_t k = 0; k < repeat; k++) {
            if (k > 0 && !pass->no_barrier)
                vkb_vk_barrier(cmd);
            vkCmdDispatch(cmd, pass->groups[0], pass->groups[1], pass->groups[2]);
        }
    }
}

/* Before a repetition: the queries its timestamp passes write, reset (outside the timed pair). */
static void reset_pass_queries(VkCommandBuffer cmd, vk_backend *impl, const vkb_plan *plan)
{
    for (int i = 0; i < plan->npass; i++)
        if (plan->pass[i].kind == VKB_PASS_TIMESTAMP)
            vkCmdResetQueryPool(cmd, impl->pass_queries, 0, plan->pass[i].repeat ? plan->pass[i].repeat : 1);
}

/* After the work: device writes made visible to the host, which reads mapped buffers directly. */
static void barrier_to_host(VkCommandBuffer cmd)
{
    VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

static void record_reps(vkb_vk *vk, VkCommandBuffer cmd, void *user)
{
    record_job *j = user;
    (void)vk;
    if (j->timed)
        vkCmdResetQueryPool(cmd, j->impl->queries, 0, 2u * (uint32_t)j->reps);
    vkb_vk_barrier(cmd);
    for (int r = 0; r < j->reps; r++) {
        if (j->cold) {
            vkCmdFillBuffer(cmd, j->impl->evict->buffer, 0, VK_WHOLE_SIZE, (uint32_t)r);
            vkb_vk_barrier(cmd);
        }
        reset_pass_queries(cmd, j->impl, &j->prep->plan);
        /* BOTTOM_OF_PIPE: written once everything before has finished, so the pair brackets exactly
         * this repetition's passes (the barrier above keeps them from overlapping earlier work) */
        if (j->timed)
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, j->impl->queries, 2u * (uint32_t)r);
        if (j->timed && j->early_end)
            vkCmdWriteTimestamp(cmd, j->early_stage, j->impl->queries, 2u * (uint32_t)r + 1);
        record_passes(cmd, j->impl, j->prep, j->bufs);
        if (j->timed && !j->early_end)
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, j->impl->queries, 2u * (uint32_t)r + 1);
        vkb_vk_barrier(cmd);
    }
    barrier_to_host(cmd);
}

/* The copies of QUEUE (1 or 2) into that transfer queue's command buffer: only transfer stages there. */
static void record_side(VkCommandBuffer cmd, const vkb_plan *plan, vkb_buffer *const *bufs, int queue)
{
    VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_READ_BIT;
    for (int i = 0; i < plan->npass; i++) {
        const vkb_pass *pass = &plan->pass[i];
        struct vkb_buffer *src = bufs[pass->bind[0]], *dst = bufs[pass->bind[1]];
        VkBufferCopy region = {src->offset, dst->offset, pass->copy_bytes};
        uint32_t word = 0x5A5A5A5Au;
        if (pass->queue != queue)
            continue;
        vkCmdCopyBuffer(cmd, src->buffer, dst->buffer, 1, &region);
        if (vkb_fault("transfer-byte") && pass->copy_bytes >= 4) {
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0,
                                 NULL, 0, NULL);
            vkCmdUpdateBuffer(cmd, dst->buffer, dst->offset + (pass->copy_bytes / 2 & ~3ull), 4, &word);
        }
    }
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* Until FENCE is signalled, asking in a loop (no sleep, no interrupt to wake the thread: host_spin); 0 or -1. */
static int spin_fence(vkb_vk *vk, VkFence fence)
{
    VkResult r;
    while ((r = vkGetFenceStatus(vk->device, fence)) == VK_NOT_READY)
        ;
    return VKB_OK(vk, r) ? 0 : -1;
}

/* One repetition of a host-timed plan: host copies, or its command buffers (recorded once) from submission to
 * their fences, one submission per queue and nothing between them (the transfer queues' submitted first, so that
 * they start no later than the compute queue's).
 * Returns the nanoseconds on the host's clock: a spinning plan's fence reset falls after the clock stops, as
 * CUDA's synchronize has nothing to reset; a blocking one's inside (the row as it was first measured). -1: failed.
 * The blocking waits are whole (UINT64_MAX): a host-timed plan is a copy or a dispatch of microseconds. */
static double host_timed_rep(vk_backend *impl, vk_prepared *p, vkb_buffer *const *bufs)
{
    vkb_vk *vk = impl->vk;
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    double t0 = vkb_now_ns(), ns;
    for (int i = 0; i < p->plan.npass; i++)
        if (p->plan.pass[i].kind == VKB_PASS_HOST_COPY) {
            const vkb_pass *pass = &p->plan.pass[i];
            struct vkb_buffer *dst = bufs[pass->bind[1]];
            vkb_vk_buffer_host_copy(bufs[pass->bind[0]], dst, fault_shift(&p->plan, pass->bind[1]), pass->copy_bytes);
            if (vkb_fault("transfer-byte") && pass->copy_bytes >= 4)
                dst->map[dst->offset + pass->copy_bytes / 2] ^= 0x5A;
        }
    if (!p->host_timed && !p->side[0] && !p->side[1])
        return vkb_now_ns() - t0;
    si.commandBufferCount = 1;
    for (int q = 0; q < 2; q++)
        if (p->side[q]) {
            si.pCommandBuffers = &p->side[q];
            VKB_TRY(vk, vkQueueSubmit(vk->xfer_queue[q], 1, &si, vk->xfer_fence[q]));
        }
    if (p->host_timed) {
        si.pCommandBuffers = &p->host_timed;
        VKB_TRY(vk, vkQueueSubmit(vk->queue, 1, &si, vk->fence));
    }
    if (p->plan.host_spin) {
        if (p->host_timed && spin_fence(vk, vk->fence))
            return -1;
        for (int q = 0; q < 2; q++)
            if (p->side[q] && spin_fence(vk, vk->xfer_fence[q]))
                return -1;
        ns = vkb_now_ns() - t0;
        if (p->host_timed)
            VKB_TRY(vk, vkResetFences(vk->device, 1, &vk->fence));
        for (int q = 0; q < 2; q++)
            if (p->side[q])
                VKB_TRY(vk, vkResetFences(vk->device, 1, &vk->xfer_fence[q]));
        return ns;
    }
    if (p->host_timed) {
        VKB_TRY(vk, vkWaitForFences(vk->device, 1, &vk->fence, VK_TRUE, UINT64_MAX));
        VKB_TRY(vk, vkResetFences(vk->device, 1, &vk->fence));
    }
    for (int q = 0; q < 2; q++)
        if (p->side[q]) {
            VKB_TRY(vk, vkWaitForFences(vk->device, 1, &vk->xfer_fence[q], VK_TRUE, UINT64_MAX));
            VKB_TRY(vk, vkResetFences(vk->device, 1, &vk->xfer_fence[q]));
        }
    return vkb_now_ns() - t0;
}

/* Record a host-timed plan's device passes once, into a command buffer of its own, to be submitted as it is;
 * 0 or -1. */
static int record_host_timed(vk_backend *impl, vk_prepared *p, vkb_buffer *const *bufs)
{
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    int compute_passes = 0; /* device passes on the compute queue */
    for (int i = 0; i < p->plan.npass; i++)
        compute_passes += p->plan.pass[i].kind != VKB_PASS_HOST_COPY && !p->plan.pass[i].queue;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    for (int q = 0; q < 2; q++)
        for (int i = 0; i < p->plan.npass; i++)
            if (p->plan.pass[i].queue == q + 1) {
                if (!p->side[q]) {
                    cai.commandPool = impl->vk->xfer_pool;
                    VKB_TRY(impl->vk, vkAllocateCommandBuffers(impl->vk->device, &cai, &p->side[q]));
                }
                VKB_TRY(impl->vk, vkResetCommandBuffer(p->side[q], 0));
                VKB_TRY(impl->vk, vkBeginCommandBuffer(p->side[q], &bi));
                record_side(p->side[q], &p->plan, bufs, q + 1);
                VKB_TRY(impl->vk, vkEndCommandBuffer(p->side[q]));
                break;
            }
    if (!compute_passes)
        return 0;
    if (!p->host_timed) {
        cai.commandPool = impl->vk->pool;
        VKB_TRY(impl->vk, vkAllocateCommandBuffers(impl->vk->device, &cai, &p->host_timed));
    }
    VKB_TRY(impl->vk, vkResetCommandBuffer(p->host_timed, 0));
    VKB_TRY(impl->vk, vkBeginCommandBuffer(p->host_timed, &bi));
    vkb_vk_barrier(p->host_timed);
    reset_pass_queries(p->host_timed, impl, &p->plan);
    record_passes(p->host_timed, impl, p, bufs);
    vkb_vk_barrier(p->host_timed);
    barrier_to_host(p->host_timed);
    VKB_TRY(impl->vk, vkEndCommandBuffer(p->host_timed));
    return 0;
}

static void bind_buffers(vkb_vk *vk, vk_prepared *p, vkb_buffer *const *bufs)
{
    for (int i = 0; i < p->plan.npass; i++) {
        const vkb_pass *pass = &p->plan.pass[i];
        VkDescriptorBufferInfo info[VKB_MAX_BUFFERS];
        VkWriteDescriptorSet w[VKB_MAX_BUFFERS];
        unsigned uniform = vkb_pass_uniform_bindings(&p->plan, pass);
        if (pass->kind != VKB_PASS_DISPATCH)
            continue;
        for (int k = 0; k < pass->nbind; k++) {
            /* the range only, between its guard bands (16-byte rounded: kernels may read vec4s) */
            info[k] = (VkDescriptorBufferInfo){
                bufs[pass->bind[k]]->buffer, bufs[pass->bind[k]]->offset + fault_shift(&p->plan, pass->bind[k]),
                ((bufs[pass->bind[k]]->bytes + 15) & ~15ull) - fault_range_cut(&p->plan, pass->bind[k])};
            w[k] = (VkWriteDescriptorSet){VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            w[k].dstSet = p->pipe[i].set;
            w[k].dstBinding = (uint32_t)k;
            w[k].descriptorCount = 1;
            w[k].descriptorType =
                (uniform >> k) & 1u ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            w[k].pBufferInfo = &info[k];
        }
        vkUpdateDescriptorSets(vk->device, (uint32_t)pass->nbind, w, 0, NULL);
    }
}

/* 0, or -1 when the eviction buffer cannot be made */
static int ensure_evict(vk_backend *impl)
{
    uint64_t bytes = impl->vk->caps->cache_bytes * 4;
    if (impl->evict)
        return 0;
    if (bytes < EVICT_MIN_BYTES)
        bytes = EVICT_MIN_BYTES;
    if (bytes > impl->vk->caps->max_buffer_bytes)
        bytes = impl->vk->caps->max_buffer_bytes & ~3ull;
    impl->evict = vkb_vk_buffer_create(impl->vk, bytes, 0);
    return impl->evict ? 0 : -1;
}

static void vk_execute(vkb_backend *b, void *prepared, vkb_buffer *const *bufs, int reps, int cold, double *ns)
{
    vk_backend *impl = b->impl;
    vkb_vk *vk = impl->vk;
    /* timer-early on a CPU implementation: its timestamps are host-clock readings its worker threads take
     * when the commands before them are flushed, so a BOTTOM_OF_PIPE end would span one flush, as long as the
     * scheduler makes it (milliseconds on a loaded machine: the fault then measured an honest-looking 0.1% of
     * the host's time and went uncaught); at TOP_OF_PIPE nothing is flushed between the pair, which is read
     * back to back, well under a microsecond at any load. A GPU keeps BOTTOM_OF_PIPE for both stamps */
    record_job j = {impl,
                    prepared,
                    bufs,
                    0,
                    cold,
                    0,
                    vkb_fault("timer-early"),
                    b->caps.is_cpu ? VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT};
    int zero = vkb_fault("timer-zero"), reversed = vkb_fault("timer-reversed");
    if (FAILED(b) || (cold && ensure_evict(impl)))
        return;
    bind_buffers(vk, prepared, bufs);
    if (((vk_prepared *)prepared)->plan.host_timed) {
        /* the host's clock around each repetition (--cold does not apply: the host's copies and one submission) */
        if (record_host_timed(impl, prepared, bufs))
            return;
        for (int r = 0; r < reps; r++) {
            double rep_ns = host_timed_rep(impl, prepared, bufs);
            if (rep_ns < 0)
                return;
            if (ns)
                ns[r] = rep_ns;
        }
        return;
    }
    if (!ns) {
        j.reps = reps;
        (void)vkb_vk_submit_wait(vk, record_reps, &j);
        return;
    }
    if (!b->caps.timestamps) {
        /* no timestamps on this queue: host clock around each submission (includes submit overhead) */
        j.reps = 1;
        for (int r = 0; r < reps; r++) {
            double t0 = vkb_now_ns();
            if (vkb_vk_submit_wait(vk, record_reps, &j))
                return;
            ns[r] = vkb_now_ns() - t0;
        }
        return;
    }
    j.timed = 1;
    for (int done = 0; done < reps; done += j.reps) {
        uint64_t ts[2 * REPS_PER_SUBMIT];
        double sum = 0;
        uint64_t mask = impl->vk->timestamp_bits >= 64 ? ~0ull : (1ull << impl->vk->timestamp_bits) - 1;
        j.reps = reps - done < REPS_PER_SUBMIT ? reps - done : REPS_PER_SUBMIT;
        if (vkb_vk_submit_wait(vk, record_reps, &j) ||
            !VKB_OK(vk, vkGetQueryPoolResults(vk->device, impl->queries, 0, 2u * (uint32_t)j.reps, sizeof ts, ts,
                                              sizeof ts[0], VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT)))
            return;
        for (int r = 0; r < j.reps; r++) {
            uint64_t start = ts[2 * r + reversed] & mask, end = ts[2 * r + 1 - reversed] & mask;
            uint64_t ticks = (end - start) & mask; /* wraps within valid bits */
            ns[done + r] = (double)ticks * vk->timestamp_period_ns;
            if (mask == ~0ull && end < start) /* 64 valid bits never wrap: out of order, say so */
                ns[done + r] = -(double)(start - end) * vk->timestamp_period_ns;
            if (zero)
                ns[done + r] = 0;
            sum += ns[done + r];
        }
        vkb_timing_span(sum, (double)(((ts[2 * j.reps - 1] & mask) - (ts[0] & mask)) & mask) * vk->timestamp_period_ns);
    }
}

static void vk_copy(vkb_backend *b, vkb_buffer *src, vkb_buffer *dst, uint64_t bytes)
{
    if (!FAILED(b))
        vkb_vk_buffer_copy(((vk_backend *)b->impl)->vk, src, dst, (bytes + 3) & ~3ull);
}

typedef struct compare_job {
    vk_backend *impl;
    vkb_buffer *bufs[3];
} compare_job;

static void record_compare(vkb_vk *vk, VkCommandBuffer cmd, void *user)
{
    compare_job *j = user;
    struct vkb_buffer *v = j->impl->verdict;
    (void)vk;
    vkCmdFillBuffer(cmd, v->buffer, v->offset, 4, 0);
    vkCmdFillBuffer(cmd, v->buffer, v->offset + 4, 4, 0xFFFFFFFFu);
    vkb_vk_barrier(cmd);
    record_passes(cmd, j->impl, j->impl->compare, j->bufs);
    vkb_vk_barrier(cmd);
}

/* The compare pipeline: a one-pass plan of verify_compare over bindings {a, other, verdict}; 0, or -1 failed. */
static int compare_ready(vkb_backend *b)
{
    static const uint32_t local[3] = {VERIFY_COMPARE_LOCAL, 1, 1}, groups[3] = {1, 1, 1};
    static const int bind[3] = {0, 1, 2};
    vk_backend *impl = b->impl;
    vkb_plan plan;
    char why[200];
    if (impl->compare)
        return 0;
    vkb_mc_set_label("runner", "verify_compare"); /* --sass: not under the variant that asked first */
    memset(&plan, 0, sizeof plan);
    for (int i = 0; i < 3; i++)
        vkb_plan_buffer_add(&plan, 8, VKB_BUF_SCRATCH, NULL);
    vkb_pass_bind(vkb_plan_dispatch(&plan, "verify_compare", local, groups), 3, bind);
    { /* the runner's own shader, not a kernel measured: at the device's subgroup size, whatever was asked */
        uint32_t asked = impl->vk->required_subgroup_size;
        impl->vk->required_subgroup_size = 0;
        impl->compare = vk_prepare(b, &plan, why, sizeof why);
        impl->vk->required_subgroup_size = asked;
    }
    if (!impl->compare)
        return vkb_backend_fail(&b->error, VKB_EXIT_API, "the runner's compare shader: %s", why);
    impl->verdict = vkb_vk_buffer_create(impl->vk, sizeof(struct verify_compare_verdict), 0);
    return impl->verdict ? 0 : -1;
}

static int64_t vk_compare(vkb_backend *b, vkb_buffer *a, vkb_buffer *other, uint32_t word, uint64_t bytes,
                          uint64_t *first)
{
    vk_backend *impl = b->impl;
    uint64_t words = (bytes + 3) / 4;
    struct verify_compare_push push = {(uint32_t)words, other == NULL, word};
    struct verify_compare_verdict verdict;
    compare_job j = {impl, {a, other ? other : a, NULL}};
    vkb_pass *pass;
    /* a 32-bit index, and one binding of the whole range; pageable host memory the device cannot reach */
    if (FAILED(b) || !a->buffer || (other && !other->buffer) || words > 0x7FFFFFFFu ||
        bytes > b->caps.max_buffer_bytes || (other && other->bytes < bytes))
        return -1;
    if (!words)
        return 0;
    if (compare_ready(b))
        return -1;
    j.bufs[2] = impl->verdict;
    pass = &impl->compare->plan.pass[0];
    pass->groups[0] = vkb_groups_for(words, VERIFY_COMPARE_LOCAL, b->caps.max_group_count[0]);
    vkb_pass_push(pass, &push, sizeof push);
    /* the plan's buffers say only how many there are; the ranges bound are those of A and OTHER */
    bind_buffers(impl->vk, impl->compare, j.bufs);
    vkb_vk_submit_wait(impl->vk, record_compare, &j);
    vkb_vk_buffer_download(impl->vk, impl->verdict, &verdict, sizeof verdict);
    if (FAILED(b))
        return -1;
    if (verdict.differing)
        *first = verdict.first;
    return verdict.differing;
}

static const char *vk_describe(vkb_backend *b, vkb_buffer *buf, char *text, size_t len)
{
    if (FAILED(b) || !buf) /* a buffer the failed device could not make */
        return NULL;
    return vkb_vk_buffer_describe(((vk_backend *)b->impl)->vk, buf, text, len);
}

/* Which queue each copy pass of PREPARED is submitted to: the queue family (its flags and queue count) and the
 * queue's index in it. Vulkan names no engine: a transfer-only family is the one the driver maps to DMA engines. */
static const char *vk_describe_queues(vkb_backend *b, void *prepared, char *text, size_t len)
{
    vkb_vk *vk = ((vk_backend *)b->impl)->vk;
    const vk_prepared *p = prepared;
    VkQueueFamilyProperties q[16];
    uint32_t nq = 16;
    size_t used = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(vk->phys, &nq, q);
    text[0] = 0;
    for (int i = 0; i < p->plan.npass && used < len; i++) {
        const vkb_pass *pass = &p->plan.pass[i];
        uint32_t family = pass->queue ? vk->xfer_family : vk->queue_family, index = pass->queue ? pass->queue - 1 : 0;
        VkQueueFlags f = family < nq ? q[family].queueFlags : 0;
        if (pass->kind != VKB_PASS_COPY)
            continue;
        used += (size_t)snprintf(text + used, len - used, "%spass %d copy: queue family %u (%s%s, %u queue%s) queue %u",
                                 used ? "; " : "", i, family,
                                 f & VK_QUEUE_GRAPHICS_BIT  ? "graphics compute "
                                 : f & VK_QUEUE_COMPUTE_BIT ? "compute "
                                                            : "",
                                 "transfer", family < nq ? q[family].queueCount : 0,
                                 family < nq && q[family].queueCount == 1 ? "" : "s", index);
    }
    return text[0] ? text : NULL;
}

static void vk_destroy(vkb_backend *b)
{
    vk_backend *impl = b->impl;
    vkb_vk_buffer_destroy(impl->vk, impl->verdict);
    vk_unprepare(b, impl->compare);
    vkb_vk_buffer_destroy(impl->vk, impl->evict);
    vkb_vk_staging_release(impl->vk);
    if (impl->queries)
        vkDestroyQueryPool(impl->vk->device, impl->queries, NULL);
    if (impl->pass_queries)
        vkDestroyQueryPool(impl->vk->device, impl->pass_queries, NULL);
    vkb_vk_destroy(impl->vk);
    free(impl);
    free(b);
}

vkb_backend *vkb_vulkan_open(const char *select, int validation, int robustness_off, vkb_backend_error *error)
{
    vkb_backend *b = vkb_calloc(1, sizeof *b);
    vk_backend *impl = vkb_calloc(1, sizeof *impl);
    VkQueryPoolCreateInfo qci = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};

    b->impl = impl;
    impl->vk = vkb_vk_create(select, validation, robustness_off, &b->caps, &b->error);
    if (impl->vk && impl->vk->caps->timestamps) {
        qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qci.queryCount = 2 * REPS_PER_SUBMIT;
        if (VKB_OK(impl->vk, vkCreateQueryPool(impl->vk->device, &qci, NULL, &impl->queries))) {
            qci.queryCount = VKB_TIMESTAMP_REPEAT_MAX;
            VKB_OK(impl->vk, vkCreateQueryPool(impl->vk->device, &qci, NULL, &impl->pass_queries));
        }
    }
    if (!impl->vk || FAILED(b)) {
        *error = b->error;
        if (impl->vk)
            vk_destroy(b);
        else {
            free(impl);
            free(b);
        }
        return NULL;
    }
    b->name = "vulkan";
    b->prepare = vk_prepare;
    b->unprepare = vk_unprepare;
    b->precompile = vk_precompile;
    b->statistics = vk_statistics;
    b->buffer_create = vk_buffer_create;
    b->buffer_destroy = vk_buffer_destroy;
    b->upload = vk_upload;
    b->download = vk_download;
    b->poison = vk_poison;
    b->guards = vk_guards;
    b->copy = vk_copy;
    b->compare = vk_compare;
    b->execute = vk_execute;
    b->describe = vk_describe;
    b->describe_queues = vk_describe_queues;
    b->destroy = vk_destroy;
    return b;
}

int vkb_vulkan_require_subgroup_size(vkb_backend *b, uint32_t size, char *why, size_t len)
{
    return vkb_vk_subgroup_size_require(((vk_backend *)b->impl)->vk, size, why, len);
}
