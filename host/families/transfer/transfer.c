/* transfer.c - the transfer family: bytes between host and device memory (GB/s), each transfer checked byte for
 * byte against its seeded source: through a host-visible staging buffer and the API's copy (vkCmdCopyBuffer /
 * cudaMemcpy from pinned memory), through a device-local heap the host maps (resizable BAR), a shader reading or
 * writing host-visible memory, and the host's own memcpy as the reference. The plan says where each buffer lives
 * (VKB_BUF_HOST_*, VKB_BUF_DEVICE_MAPPED) and how the bytes move; the backends do the rest. */
#include <stdio.h>
#include <stdlib.h>

#include "family.h"
#include "inputs.h"
#include "transfer/transfer.h"
#include "util.h"

/* How a row moves its bytes: BY_BOTH uploads (src -> dst) on the compute queue while it downloads (src -> dst2)
 * on the transfer queue (CUDA: a second stream), the staging buffers host-visible (pinned); BY_BOTH_DMA the same
 * with each direction on a queue of the transfer-only family (queues 1 and 2: a DMA engine each where the driver
 * gives each queue its own, as CUDA's two streams get two copy engines); BY_BOTH_1Q both copies in one command
 * buffer on the family's first queue (the driver may spread them over its engines); BY_SHADER_BOTH both
 * directions in one dispatch (transfer_both: half of its workgroups each way) */
enum { BY_COPY, BY_HOST, BY_SHADER, BY_BOTH, BY_BOTH_DMA, BY_BOTH_1Q, BY_SHADER_BOTH };

/* The queue (vkb_pass.queue) of the upload and of the download of each way of copying both at once */
static const int both_queues[][2] = {[BY_BOTH] = {0, 1}, [BY_BOTH_DMA] = {1, 2}, [BY_BOTH_1Q] = {1, 1}};

/* Row knobs packed in vkb_variant.spec: {how, source placement, destination placement}; the one-way shader rows
 * run memory.width's mem_width at WORDS=4 (the copy family's kernel), whose constant is spec[0] of the pass. */
#define TRANSFER(how, src, dst) {how, src, dst}, 3
#define STAGING VKB_BUF_HOST_STAGING
#define PAGEABLE VKB_BUF_HOST_PAGEABLE
#define MAPPED VKB_BUF_DEVICE_MAPPED
#define H2D_CEILING "cuda_pinned_h2d|memcpy"
#define BOTH_CEILING "cuda_pinned_both|memcpy"
#define D2H_CEILING "cuda_pinned_d2h|memcpy"
#define VK VKB_VAR_VULKAN_ONLY
#define CU VKB_VAR_CUDA_ONLY
#define CEIL VKB_VAR_CEILING

static const vkb_variant variants[] = {
    /* name, kernel, local, {how, src, dst}, nspec, param, needs, flags, note, ceiling */
    {"memcpy",
     NULL,
     {1, 1, 1},
     TRANSFER(BY_HOST, PAGEABLE, PAGEABLE),
     0,
     0,
     CEIL | VK,
     "host to host: memcpy between two malloc buffers on the host's worker threads (VKB_THREADS), host-timed: "
     "the reference where CUDA is absent",
     NULL},
    {"cuda_pinned_h2d",
     NULL,
     {1, 1, 1},
     TRANSFER(BY_COPY, STAGING, 0),
     0,
     0,
     CEIL | CU,
     "cudaMemcpyAsync host to device from pinned memory (cudaMallocHost): the ceiling on NVIDIA",
     NULL},
    {"cuda_pinned_d2h",
     NULL,
     {1, 1, 1},
     TRANSFER(BY_COPY, 0, STAGING),
     0,
     0,
     CEIL | CU,
     "cudaMemcpyAsync device to host into pinned memory: the ceiling on NVIDIA",
     NULL},
    {"cuda_pageable_h2d",
     NULL,
     {1, 1, 1},
     TRANSFER(BY_COPY, PAGEABLE, 0),
     0,
     0,
     CEIL | CU,
     "cudaMemcpy host to device from malloc memory (the driver stages it), host-timed",
     NULL},
    {"cuda_pageable_d2h",
     NULL,
     {1, 1, 1},
     TRANSFER(BY_COPY, 0, PAGEABLE),
     0,
     0,
     CEIL | CU,
     "cudaMemcpy device to host into malloc memory (the driver stages it), host-timed",
     NULL},
    {"cuda_pinned_both",
     NULL,
     {1, 1, 1},
     TRANSFER(BY_BOTH, STAGING, STAGING),
     0,
     0,
     CEIL | CU,
     "cudaMemcpyAsync up from pinned memory on one stream while another copies down into pinned memory, "
     "host-timed: both directions of the link at once (GB/s of both)",
     NULL},
    {"staging_h2d",
     NULL,
     {1, 1, 1},
     TRANSFER(BY_COPY, STAGING, 0),
     0,
     0,
     VK,
     "vkCmdCopyBuffer from a host-visible staging buffer (system memory) to device-local memory: the usual "
     "upload",
     H2D_CEILING},
    {"staging_d2h",
     NULL,
     {1, 1, 1},
     TRANSFER(BY_COPY, 0, STAGING),
     0,
     0,
     VK,
     "vkCmdCopyBuffer from device-local memory to a host-visible staging buffer: the usual read-back",
     D2H_CEILING},
    {"staging_both",
     NULL,
     {1, 1, 1},
     TRANSFER(BY_BOTH, STAGING, STAGING),
     0,
     0,
     VK,
     "staging_h2d on the compute queue while staging_d2h runs on a transfer-only queue, host-timed from the "
     "submissions to both fences (GB/s of both); skipped where the device has no transfer-only queue",
     BOTH_CEILING},
    {"staging_both_dma",
     NULL,
     {1, 1, 1},
     TRANSFER(BY_BOTH_DMA, STAGING, STAGING),
     0,
     0,
     VK,
     "staging_both with the upload on the transfer-only family's first queue and the download on its second: one "
     "submission per queue, nothing between them, host-timed from the submissions to both fences (GB/s of both; "
     "JSON `queues` names them); skipped where that family has fewer than two queues",
     BOTH_CEILING},
    {"staging_both_1q",
     NULL,
     {1, 1, 1},
     TRANSFER(BY_BOTH_1Q, STAGING, STAGING),
     0,
     0,
     VK,
     "staging_both_dma with both copies in one command buffer on the transfer-only family's first queue, nothing "
     "between them (the driver may spread them over its copy engines), host-timed from the submission to its "
     "fence (GB/s of both); skipped where the device has no transfer-only queue",
     BOTH_CEILING},
    {"bar_h2d",
     NULL,
     {1, 1, 1},
     TRANSFER(BY_HOST, PAGEABLE, MAPPED),
     0,
     0,
     VK,
     "the host writes device-local memory through its mapping (resizable BAR: a device-local host-visible "
     "heap), memcpy on the worker threads, host-timed",
     H2D_CEILING},
    {"bar_d2h",
     NULL,
     {1, 1, 1},
     TRANSFER(BY_HOST, MAPPED, PAGEABLE),
     0,
     0,
     VK,
     "the host reads device-local memory through its mapping (uncached: slow on most GPUs), host-timed",
     D2H_CEILING},
    {"shader_h2d",
     "mem_width",
     {256, 1, 1},
     TRANSFER(BY_SHADER, STAGING, 0),
     0,
     0,
     0,
     "a compute shader (CUDA: a kernel) copies from host-visible (pinned) memory to device memory: reads over "
     "the bus",
     H2D_CEILING},
    {"shader_d2h",
     "mem_width",
     {256, 1, 1},
     TRANSFER(BY_SHADER, 0, STAGING),
     0,
     0,
     0,
     "a compute shader copies from device memory into host-visible (pinned) memory: writes over the bus",
     D2H_CEILING},
    {"shader_both",
     "transfer_both",
     {256, 1, 1},
     TRANSFER(BY_SHADER_BOTH, STAGING, STAGING),
     0,
     0,
     0,
     "shader_h2d and shader_d2h in one dispatch, alternate workgroups each way: both directions of the link at "
     "once through the SMs, no copy engine (GB/s of both)",
     BOTH_CEILING},
};

typedef struct transfer_case {
    uint64_t bytes;
    uint32_t *src, *dst, *dst2; /* dst2: the download of BY_BOTH */
} transfer_case;

static int default_shapes(const vkb_caps *caps, vkb_shape *out, int max)
{
    (void)max;
    /* a DRAM-sized transfer: 64 MiB on a GPU (past an H100's 50 MiB L2: a transfer the cache cannot serve; within
     * 1% of 256 MiB and 1 GiB there, and bar_d2h's 0.8 GB/s keeps it from the default suite's budget at 1 GiB),
     * 16 MiB on a CPU implementation */
    out[0] = (vkb_shape){{caps->is_cpu ? 16ll << 20 : 64ll << 20}};
    return 1;
}

static int battery(vkb_shape *out, int max)
{
    static const int64_t n[] = {4, 12, 4096, 4100, 65540, 1 << 20};
    int count = 0;
    for (size_t i = 0; i < VKB_COUNT(n) && count < max; i++)
        out[count++] = (vkb_shape){{n[i]}};
    return count;
}

static void fill_src(void *ctx, vkb_rng *rng, uint64_t chunk, uint64_t first, uint64_t end)
{
    transfer_case *c = ctx;
    (void)chunk;
    for (uint64_t i = first; i < end; i++)
        c->src[i] = (uint32_t)vkb_rng_u64(rng);
}

static void *case_create(const vkb_shape *s, uint64_t seed, char *why, size_t len)
{
    uint64_t bytes = (uint64_t)s->d[0], words = bytes / 4;
    transfer_case *c;
    vkb_rng rng;
    if (bytes % 4) {
        snprintf(why, len, "n=%llu bytes: transfers are whole 4-byte words", (unsigned long long)bytes);
        return NULL;
    }
    vkb_host_reserve(3 * bytes, "transfer");
    c = vkb_alloc(sizeof *c + 3 * bytes);
    c->bytes = bytes;
    c->src = (uint32_t *)(c + 1);
    c->dst = c->src + words;
    c->dst2 = c->dst + words;
    vkb_rng_seed(&rng, seed);
    vkb_input_fill(&rng, words, 1, fill_src, c);
    return c;
}

static int plan(const vkb_variant *v, const vkb_case *vc, const vkb_caps *caps, vkb_plan *p, char *why, size_t len)
{
    const transfer_case *c = vc->data;
    uint64_t bytes = (uint64_t)vc->shape.d[0];
    int b[2];
    if (bytes % 4)
        return vkb_plan_fail(why, len, VKB_PLAN_BAD_REQUEST, "n=%llu bytes: transfers are whole 4-byte words",
                             (unsigned long long)bytes);
    if ((v->spec[0] == BY_SHADER || v->spec[0] == BY_SHADER_BOTH) && bytes / 4 > UINT32_MAX)
        return vkb_plan_fail(why, len, VKB_PLAN_TOO_LARGE,
                             "n=%llu bytes: the shader indexes 2^32 - 1 words at "
                             "most",
                             (unsigned long long)bytes);
    b[0] = vkb_plan_buffer_add(p, bytes, VKB_BUF_INPUT, c ? c->src : NULL);
    b[1] = vkb_plan_buffer_add(p, bytes, VKB_BUF_OUTPUT, c ? c->dst : NULL);
    if (b[0] < 0 || b[1] < 0)
        return VKB_PLAN_OK; /* refused: vkb_family_plan says why */
    p->buf[b[0]].flags = v->spec[1];
    p->buf[b[1]].flags = v->spec[2];
    if (v->spec[0] == BY_BOTH || v->spec[0] == BY_BOTH_DMA || v->spec[0] == BY_BOTH_1Q) {
        /* up: staging -> device; down: device -> staging; each on its queue of both_queues */
        int up[2] = {b[0], b[1]}, down[2];
        down[0] = vkb_plan_buffer_add(p, bytes, VKB_BUF_INPUT, c ? c->src : NULL);
        down[1] = vkb_plan_buffer_add(p, bytes, VKB_BUF_OUTPUT, c ? c->dst2 : NULL);
        p->buf[up[0]].flags = STAGING | VKB_BUF_TWO_QUEUES;
        p->buf[up[1]].flags = VKB_BUF_TWO_QUEUES;
        p->buf[down[0]].flags = VKB_BUF_TWO_QUEUES;
        p->buf[down[1]].flags = STAGING | VKB_BUF_TWO_QUEUES;
        vkb_plan_copy(p, up[0], up[1], bytes)->queue = both_queues[v->spec[0]][0];
        vkb_plan_copy(p, down[0], down[1], bytes)->queue = both_queues[v->spec[0]][1];
        p->host_timed = 1;
    } else if (v->spec[0] == BY_COPY) {
        vkb_plan_copy(p, b[0], b[1], bytes);
        p->host_timed = ((v->spec[1] | v->spec[2]) & PAGEABLE) != 0; /* the driver stages pageable memory */
    } else if (v->spec[0] == BY_HOST) {
        vkb_plan_host_copy(p, b[0], b[1], bytes);
    } else if (v->spec[0] == BY_SHADER_BOTH) {
        /* up: staging (b[0]) -> device (b[1]); down: device -> staging, from the same seeded words into dst2 */
        transfer_push push = {(uint32_t)(bytes / 4)};
        uint32_t half = vkb_groups_for(bytes / 16, v->local[0], caps->max_group_count[0] / 2);
        uint32_t groups[3] = {2 * half, 1, 1};
        int bind[4] = {b[0], b[1], vkb_plan_buffer_add(p, bytes, VKB_BUF_INPUT, c ? c->src : NULL),
                       vkb_plan_buffer_add(p, bytes, VKB_BUF_OUTPUT, c ? c->dst2 : NULL)};
        vkb_pass *pass = vkb_plan_dispatch(p, v->kernel, v->local, groups);
        p->buf[b[1]].flags = 0; /* the row's placements are each direction's host end */
        p->buf[bind[3]].flags = v->spec[2];
        vkb_pass_bind(pass, 4, bind);
        vkb_pass_push(pass, &push, sizeof push);
    } else {
        uint32_t groups[3] = {vkb_groups_for(bytes / 16, v->local[0], caps->max_group_count[0]), 1, 1};
        vkb_pass *pass = vkb_plan_dispatch(p, v->kernel, v->local, groups);
        vkb_pass_bind(pass, 2, b);
        pass->spec[0] = 4; /* mem_width's WORDS: vec4s */
        pass->nspec = 1;
        pass->push[0] = (uint32_t)(bytes / 4);
    }
    return VKB_PLAN_OK;
}

/* Whether V moves its bytes up and down at once (its download lands in dst2). */
static int both_ways(const vkb_variant *v)
{
    return v->spec[0] == BY_BOTH || v->spec[0] == BY_BOTH_DMA || v->spec[0] == BY_BOTH_1Q ||
           v->spec[0] == BY_SHADER_BOTH;
}

static double work(const vkb_variant *v, const vkb_case *vc)
{
    return (double)vc->shape.d[0] * (both_ways(v) ? 2 : 1); /* the bytes that cross */
}

static void check(const vkb_variant *v, const vkb_case *vc, const vkb_plan *p, vkb_check *res)
{
    const transfer_case *c = vc->data;
    (void)p;
    vkb_check_init(res, "exact: byte for byte");
    vkb_check_words(res, c->dst, c->src, c->bytes / 4);
    if (both_ways(v))
        vkb_check_words(res, c->dst2, c->src, c->bytes / 4);
    vkb_check_finish(res);
}

const vkb_family vkb_family_transfer = {
    "transfer",
    "host <-> device transfers: staging copies, mapped device memory, shaders over the bus",
    {"n"},
    1,
    "GB/s",
    variants,
    (int)VKB_COUNT(variants),
    default_shapes,
    battery,
    case_create,
    free,
    plan,
    work,
    check,
    NULL,
    NULL,
    0,
    .units = {"bytes"},
};
