/* cuda.c - the CUDA backend: loads libvkbench_cuda.so at run time (dlopen) and forwards to it. */
#define _GNU_SOURCE
#include "cuda.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../cuda/cuda_module.h"
#include "backend.h"
#include "fault.h"
#include "guard.h"
#include "util.h"

struct vkb_buffer {
    void *ptr;  /* the range: VKB_GUARD_BYTES into the allocation, between two guard bands */
    void *base; /* the allocation */
    uint64_t bytes;
    uint32_t guard; /* its guard word (guard.h: vkb_guard_word) */
    unsigned flags; /* VKB_BUF_*: host placements are read and written by the host */
};

#define HOST_PLACED(buf) ((buf)->flags & (VKB_BUF_HOST_STAGING | VKB_BUF_HOST_PAGEABLE))

static const vkb_cuda_module *mod;
static _Thread_local char why_buf[256]; /* per device thread (--device LIST) */
static char module_path[4096];          /* for --sass: cuobjdump reads the kernels' machine code from it */

/* A module call that failed (non-zero) records its line as the backend's error (backend.h); 1 then, else 0. After
 * the first error every call of the backend returns at once (FAILED). */
#define CU_FAILS(b, call) ((call) ? (vkb_backend_fail(&(b)->error, VKB_EXIT_API, "cuda: %s", why_buf), 1) : 0)
#define FAILED(b) vkb_backend_failed(b)

static void *cu_prepare(vkb_backend *b, const vkb_plan *plan, char *why, size_t len)
{
    vkb_plan *copy;
    if (FAILED(b)) {
        snprintf(why, len, "%s", b->error.message);
        return NULL;
    }
    for (int i = 0; i < plan->nbuf; i++)
        if (plan->buf[i].flags & VKB_BUF_DEVICE_MAPPED) {
            snprintf(why, len, "CUDA maps no device memory into the host here (Vulkan's resizable-BAR rows)");
            return NULL;
        }
    if (mod->supports(plan, why, len))
        return NULL;
    copy = vkb_alloc(sizeof *copy);
    *copy = *plan;
    return copy;
}

/* With --sass, each dispatch pass's kernel as cuobjdump shows it (no driver statistics otherwise). */
static int cu_statistics(vkb_backend *b, void *prepared, vkb_pipeline_stats *out, int max)
{
    const vkb_plan *plan = prepared;
    int count = 0;
    (void)b;
    if (!vkb_mc_enabled())
        return 0;
    for (int i = 0; i < plan->npass && count < max; i++) {
        if (plan->pass[i].kind != VKB_PASS_DISPATCH)
            continue;
        memset(&out[count], 0, sizeof out[count]);
        out[count].kernel = plan->pass[i].kernel;
        snprintf(out[count].executable, sizeof out[count].executable, "SASS");
        vkb_mc_cuda(module_path, &plan->pass[i], &out[count].mc);
        count += out[count].mc.valid;
    }
    return count;
}

static void cu_unprepare(vkb_backend *b, void *prepared)
{
    (void)b;
    free(prepared);
}

static void cu_buffer_destroy(vkb_backend *b, vkb_buffer *buf)
{
    (void)b;
    if (!buf)
        return;
    if (buf->flags & VKB_BUF_HOST_PAGEABLE)
        free(buf->base);
    else if (buf->flags & VKB_BUF_HOST_STAGING)
        mod->release_host(buf->base);
    else
        mod->release(buf->base);
    free(buf);
}

/* A uniform buffer (VKB_BUF_UNIFORM) is device memory too: the kernel's upload hook copies it to
 * __constant__ memory before the timed runs (cuda/kernels.h). */
static vkb_buffer *cu_buffer_create(vkb_backend *b, uint64_t bytes, unsigned flags)
{
    vkb_buffer *buf;
    if (FAILED(b))
        return NULL;
    buf = vkb_calloc(1, sizeof *buf);
    /* round up to 16 bytes as the Vulkan side does, for float4 views; guard bands around (cudaMalloc
     * aligns to 256, and 4096 keeps the range aligned) */
    uint64_t total = VKB_GUARD_BYTES + ((bytes + 15) & ~15ull) + VKB_GUARD_BYTES;
    buf->flags = flags;
    if (flags & VKB_BUF_HOST_PAGEABLE) {
        if (posix_memalign(&buf->base, 4096, (size_t)total) != 0) {
            vkb_backend_fail(&b->error, VKB_EXIT_RESOURCE,
                             "out of host memory allocating a pageable buffer; try a "
                             "smaller size");
            free(buf);
            return NULL;
        }
    } else if ((flags & VKB_BUF_HOST_STAGING) ? mod->alloc_host(&buf->base, total, why_buf, sizeof why_buf)
                                              : mod->alloc(&buf->base, total, why_buf, sizeof why_buf)) {
        vkb_backend_fail(&b->error, VKB_EXIT_RESOURCE, "cuda: %s; try a smaller size", why_buf);
        free(buf);
        return NULL;
    }
    static _Thread_local uint32_t serial;
    buf->guard = vkb_guard_word(serial++);
    if (HOST_PLACED(buf))
        for (uint64_t i = 0; i < total / 4; i++)
            ((uint32_t *)buf->base)[i] = buf->guard;
    else if (CU_FAILS(b, mod->fill(buf->base, buf->guard, total, why_buf, sizeof why_buf))) {
        cu_buffer_destroy(b, buf);
        return NULL;
    }
    buf->ptr = (char *)buf->base + VKB_GUARD_BYTES;
    buf->bytes = bytes;
    return buf;
}

static void cu_upload(vkb_backend *b, vkb_buffer *buf, const void *src, uint64_t bytes)
{
    if (FAILED(b))
        return;
    if (HOST_PLACED(buf))
        memcpy(buf->ptr, src, (size_t)bytes);
    else
        CU_FAILS(b, mod->upload(buf->ptr, src, bytes, why_buf, sizeof why_buf));
}

static void cu_download(vkb_backend *b, vkb_buffer *buf, void *dst, uint64_t bytes)
{
    if (FAILED(b))
        return;
    if (HOST_PLACED(buf))
        memcpy(dst, buf->ptr, (size_t)bytes);
    else
        CU_FAILS(b, mod->download(dst, buf->ptr, bytes, why_buf, sizeof why_buf));
}

static void cu_poison(vkb_backend *b, vkb_buffer *buf, uint64_t bytes)
{
    if (FAILED(b))
        return;
    if (HOST_PLACED(buf))
        for (uint64_t i = 0; i < (bytes + 3) / 4; i++)
            ((uint32_t *)buf->ptr)[i] = VKB_POISON;
    else
        CU_FAILS(b, mod->fill(buf->ptr, VKB_POISON, (bytes + 3) & ~3ull, why_buf, sizeof why_buf));
}

static void cu_copy(vkb_backend *b, vkb_buffer *src, vkb_buffer *dst, uint64_t bytes)
{
    if (FAILED(b))
        return;
    if (HOST_PLACED(src) && HOST_PLACED(dst))
        memcpy(dst->ptr, src->ptr, (size_t)((bytes + 3) & ~3ull));
    else
        CU_FAILS(b, mod->copy(dst->ptr, src->ptr, bytes, why_buf, sizeof why_buf));
}

/* The ranges only (ptr), not the guard bands around them: those differ from buffer to buffer. */
static int64_t cu_compare(vkb_backend *b, vkb_buffer *a, vkb_buffer *other, uint32_t word, uint64_t bytes,
                          uint64_t *first)
{
    uint64_t count = 0, at = 0;
    if (FAILED(b) || a->bytes < bytes || (other && other->bytes < bytes) || HOST_PLACED(a) ||
        (other && HOST_PLACED(other)))
        return -1; /* host memory: the runner compares on the host */
    if (CU_FAILS(b, mod->compare(a->ptr, other ? other->ptr : NULL, word, bytes, &count, &at, why_buf, sizeof why_buf)))
        return -1;
    if (count)
        *first = at;
    return (int64_t)count;
}

static void cu_guards(vkb_backend *b, vkb_buffer *buf, void *before, void *after)
{
    if (FAILED(b))
        return;
    if (HOST_PLACED(buf)) {
        memcpy(before, buf->base, VKB_GUARD_BYTES);
        memcpy(after, (char *)buf->ptr + ((buf->bytes + 3) & ~3ull), VKB_GUARD_BYTES);
    } else if (CU_FAILS(b, mod->download(before, buf->base, VKB_GUARD_BYTES, why_buf, sizeof why_buf)) ||
               CU_FAILS(b, mod->download(after, (char *)buf->ptr + ((buf->bytes + 3) & ~3ull), VKB_GUARD_BYTES, why_buf,
                                         sizeof why_buf))) {
        return;
    }
    vkb_guard_normalize(before, buf->guard);
    vkb_guard_normalize(after, buf->guard);
}

static void cu_execute(vkb_backend *b, void *prepared, vkb_buffer *const *bufs, int reps, int cold, double *ns)
{
    void *ptrs[VKB_MAX_BUFFERS] = {0};
    const vkb_plan *plan = prepared;
    if (FAILED(b))
        return;
    /* oob-write-past: Vulkan's stores past a descriptor's range; CUDA has no range to cut short, so its kernel's
     * last 16 bytes go past the output's end as they do where no robust access drops them: into the band */
    int shifted = !vkb_fault("oob-write") && !vkb_fault("oob-write-past");
    for (int i = 0; i < plan->nbuf; i++) {
        ptrs[i] = bufs[i]->ptr;
        if (!shifted && plan->buf[i].role == VKB_BUF_OUTPUT) { /* the fault: 16 bytes late, past the end */
            ptrs[i] = (char *)ptrs[i] + 16;
            shifted = 1;
        }
    }
    CU_FAILS(b, mod->execute(plan, ptrs, reps, cold, ns, why_buf, sizeof why_buf));
}

static const char *cu_describe(vkb_backend *b, vkb_buffer *buf, char *text, size_t len)
{
    if (FAILED(b) || !buf) /* a buffer the failed device could not make */
        return NULL;
    snprintf(text, len, "%s",
             buf->flags & VKB_BUF_HOST_PAGEABLE  ? "malloc (pageable host memory)"
             : buf->flags & VKB_BUF_HOST_STAGING ? "cudaMallocHost (pinned host memory)"
                                                 : "cudaMalloc (device memory)");
    return text;
}

static void cu_destroy(vkb_backend *b)
{
    mod->close();
    free(b);
}

/* The module sits beside the executable. */
static void *load_module(char *why, size_t len)
{
    char path[sizeof module_path];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 64);
    void *h;
    if (n <= 0) {
        snprintf(why, len, "cannot locate the vkbench executable");
        return NULL;
    }
    path[n] = 0;
    strcpy(strrchr(path, '/') + 1, "libvkbench_cuda.so");
    if (access(path, R_OK) != 0) {
        snprintf(why, len, "vkbench was built without CUDA (no %s)", path);
        return NULL;
    }
    snprintf(module_path, sizeof module_path, "%s", path);
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        snprintf(why, len, "cannot load the CUDA module: %s", dlerror());
    return h;
}

vkb_backend *vkb_cuda_open(const vkb_caps *match, char *why, size_t len)
{
    static void *handle;
    vkb_backend *b;
    vkb_cuda_module_get_fn get = NULL;

    if (!handle && !(handle = load_module(why, len)))
        return NULL;
    {
        void *sym = dlsym(handle, VKB_CUDA_ENTRY);
        memcpy(&get, &sym, sizeof get); /* POSIX: dlsym's object pointer holds a function pointer */
    }
    mod = get ? get() : NULL;
    if (!mod || mod->abi != VKB_CUDA_ABI || mod->plan_bytes != sizeof(vkb_plan) ||
        mod->caps_bytes != sizeof(vkb_caps)) {
        snprintf(why, len, "the CUDA module %s does not match this vkbench (rebuild both)", module_path);
        return NULL;
    }
    b = vkb_calloc(1, sizeof *b);
    if (mod->open(match ? match->uuid : NULL, &b->caps, why, len)) {
        free(b);
        return NULL;
    }
    b->name = "cuda";
    b->caps.vendor_id = 0x10DE; /* CUDA runs on NVIDIA's GPUs only; it gives no PCI device ID */
    snprintf(b->caps.vendor, sizeof b->caps.vendor, "%s", vkb_caps_vendor_name(b->caps.vendor_id));
    b->prepare = cu_prepare;
    b->unprepare = cu_unprepare;
    b->statistics = cu_statistics;
    b->buffer_create = cu_buffer_create;
    b->buffer_destroy = cu_buffer_destroy;
    b->upload = cu_upload;
    b->download = cu_download;
    b->poison = cu_poison;
    b->copy = cu_copy;
    b->compare = cu_compare;
    b->guards = cu_guards;
    b->execute = cu_execute;
    b->describe = cu_describe;
    b->destroy = cu_destroy;
    return b;
}
