/* fake_cuda_module.c - a stand-in libvkbench_cuda.so whose "device memory" is host memory, so that the CUDA
 * backend's side of copy and compare (host/backends/cuda.c: the ranges, not the guard bands; the
 * short-buffer refusal; the ABI check; the guard bands) is tested where there is no GPU (test_cuda_compare.c). It
 * follows cuda_module.h's contract on the host and runs one kernel, fake_store: every output of its plan written
 * whole, from the pointer the backend passes, as a kernel stores its output. VKB_FAKE_CUDA_STALE set: it reports
 * the ABI before the current one, as a module left from an older build would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cuda/cuda_module.h"

static const char no_kernels[] = "the fake CUDA module runs no kernels";

static int fake_open(const uint8_t *uuid, vkb_caps *caps, char *why, size_t len)
{
    (void)uuid, (void)why, (void)len;
    memset(caps, 0, sizeof *caps);
    snprintf(caps->name, sizeof caps->name, "fake CUDA device (host memory)");
    caps->max_buffer_bytes = caps->device_memory_bytes = 1ull << 30;
    caps->copy_engines = 2; /* `vkbench devices` prints it (tests/CMakeLists.txt) */
    return 0;
}

/* Whether PLAN is one dispatch of fake_store, the one kernel this module runs. */
static int fake_store_plan(const vkb_plan *plan)
{
    return plan->npass == 1 && plan->pass[0].kind == VKB_PASS_DISPATCH && plan->pass[0].kernel &&
           strcmp(plan->pass[0].kernel, "fake_store") == 0;
}

static int fake_supports(const vkb_plan *plan, char *why, size_t len)
{
    if (fake_store_plan(plan))
        return 0;
    snprintf(why, len, "%s", no_kernels);
    return 1;
}

static int fake_alloc(void **ptr, uint64_t bytes, char *why, size_t len)
{
    *ptr = malloc(bytes);
    if (!*ptr)
        snprintf(why, len, "out of host memory");
    return !*ptr;
}

static void fake_release(void *ptr)
{
    free(ptr);
}

/* upload and download: both sides are host memory */
static int fake_transfer(void *dst, const void *src, uint64_t bytes, char *why, size_t len)
{
    (void)why, (void)len;
    memcpy(dst, src, bytes);
    return 0;
}

static int fake_fill(void *dst, uint32_t word, uint64_t bytes, char *why, size_t len)
{
    (void)why, (void)len;
    for (uint64_t i = 0; i < bytes / 4; i++)
        ((uint32_t *)dst)[i] = word;
    return 0;
}

static int fake_copy(void *dst, const void *src, uint64_t bytes, char *why, size_t len)
{
    return fake_transfer(dst, src, (bytes + 3) & ~3ull, why, len);
}

static int fake_compare(const void *a, const void *other, uint32_t word, uint64_t bytes, uint64_t *count,
                        uint64_t *first, char *why, size_t len)
{
    const uint32_t *x = a, *y = other;
    (void)why, (void)len;
    *count = 0;
    *first = UINT64_MAX;
    for (uint64_t i = 0; i < (bytes + 3) / 4; i++)
        if (x[i] != (y ? y[i] : word) && (*count)++ == 0)
            *first = i;
    return 0;
}

static int fake_execute(const vkb_plan *plan, void *const *bufs, int reps, int cold, double *ns, char *why, size_t len)
{
    (void)reps, (void)cold, (void)ns;
    if (!fake_store_plan(plan)) {
        snprintf(why, len, "%s", no_kernels);
        return 1;
    }
    for (int i = 0; i < plan->nbuf; i++)
        if (plan->buf[i].role == VKB_BUF_OUTPUT)
            memset(bufs[i], 0x5c, (size_t)plan->buf[i].bytes);
    return 0;
}

static void fake_close(void)
{
}

static vkb_cuda_module fake = {VKB_CUDA_ABI, sizeof(vkb_plan), sizeof(vkb_caps), fake_open,     fake_supports,
                               fake_alloc,   fake_release,     fake_transfer,    fake_transfer, fake_fill,
                               fake_copy,    fake_compare,     fake_execute,     fake_close};

const vkb_cuda_module *vkb_cuda_module_get(void);

const vkb_cuda_module *vkb_cuda_module_get(void)
{
    fake.abi = getenv("VKB_FAKE_CUDA_STALE") ? VKB_CUDA_ABI - 1 : VKB_CUDA_ABI;
    return &fake;
}
