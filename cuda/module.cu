/* module.cu - libvkbench_cuda.so: device choice, memory, and CUDA-event timing of host plans. */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "kernels.h"
#include "no_device.h"
#include "verify.h"

namespace
{

/* per host thread: with --device LIST each GPU's thread opens its own device (cudaSetDevice is per thread too),
 * and every call for that GPU comes from that thread */
thread_local int device = -1;
thread_local cudaStream_t stream;
thread_local cudaStream_t second; /* the copies of queue 1 (vkb_pass.queue), beside the stream's work */
thread_local cudaEvent_t events[2 * 64];
thread_local cudaEvent_t pass_event; /* what VKB_PASS_TIMESTAMP passes record */
thread_local void *evict;
thread_local size_t evict_bytes;
thread_local vkb_cuda_verdict *verdict; /* compare's counters on the device, made at its first use */

int fail(cudaError_t e, const char *what, char *why, size_t len)
{
    if (e == cudaSuccess)
        return 0;
    snprintf(why, len, "%s: %s", what, cudaGetErrorString(e));
    cudaGetLastError(); /* clear a sticky launch error so the next call reports its own */
    return 1;
}
#define TRY(call)                                                                                                      \
    do {                                                                                                               \
        if (fail((call), #call, why, len))                                                                             \
            return 1;                                                                                                  \
    } while (0)

const vkb_cuda_kernel *find(const vkb_pass *pass)
{
    for (int t = 0; vkb_cuda_tables[t]; t++)
        for (const vkb_cuda_kernel *k = vkb_cuda_tables[t]; k->name; k++) {
            if (strcmp(k->name, pass->kernel) != 0)
                continue;
            bool same = k->nspec <= pass->nspec;
            for (int i = 0; same && i < k->nspec; i++)
                same = k->spec[i] == pass->spec[i];
            if (same)
                return k;
        }
    return nullptr;
}

int open_device(const uint8_t *uuid, vkb_caps *caps, char *why, size_t len)
{
    int n = 0, driver = 0, runtime = 0;
    cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        cudaDriverGetVersion(&driver); /* 0 where no driver library is installed at all */
        cudaRuntimeGetVersion(&runtime);
        vkb_cuda_no_device_text((int)e, n, driver, runtime, cudaGetErrorString(e), why, len);
        return 1;
    }
    device = 0;
    for (int i = 0; uuid && i < n; i++) {
        TRY(cudaGetDeviceProperties(&p, i));
        if (memcmp(p.uuid.bytes, uuid, 16) == 0)
            device = i;
    }
    TRY(cudaSetDevice(device));
    TRY(cudaGetDeviceProperties(&p, device));
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    memset(caps, 0, sizeof *caps);
    snprintf(caps->name, sizeof caps->name, "%s", p.name);
    snprintf(caps->driver, sizeof caps->driver, "CUDA driver %d.%d, runtime %d.%d (static)", driver / 1000,
             driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
    snprintf(caps->api_version, sizeof caps->api_version, "cc %d.%d", p.major, p.minor);
    snprintf(caps->type, sizeof caps->type, "%s", p.integrated ? "integrated" : "discrete");
    memcpy(caps->uuid, p.uuid.bytes, 16);
    caps->subgroup_size = caps->subgroup_min = caps->subgroup_max = (uint32_t)p.warpSize;
    caps->max_shared_bytes = (uint32_t)p.sharedMemPerBlock;
    caps->max_workgroup_invocations = (uint32_t)p.maxThreadsPerBlock;
    for (int i = 0; i < 3; i++) {
        caps->max_workgroup_size[i] = (uint32_t)p.maxThreadsDim[i];
        caps->max_group_count[i] = (uint32_t)p.maxGridSize[i];
    }
    caps->max_buffer_bytes = p.totalGlobalMem;
    caps->max_uniform_bytes = (uint32_t)p.totalConstMem;
    caps->device_memory_bytes = p.totalGlobalMem;
    caps->cache_bytes = (uint64_t)p.l2CacheSize;
    caps->compute_units = (uint32_t)p.multiProcessorCount;
    caps->copy_engines = (uint32_t)p.asyncEngineCount; /* what lets cuda_pinned_both's two streams overlap */
    { /* the peak rows' theoretical rates (host/families/peak/peak_rates.c): the highest SM clock, the architecture */
        int khz = 0;
        if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device) == cudaSuccess)
            caps->clock_mhz = (uint32_t)(khz / 1000);
        caps->sm_arch = (uint32_t)(p.major * 10 + p.minor);
    }
    caps->features = VKB_NEED_SUBGROUP_BASIC | VKB_NEED_SUBGROUP_ARITH | VKB_NEED_SUBGROUP_SHUFFLE | VKB_NEED_FLOAT16 |
                     VKB_NEED_ATOMIC_FLOAT | VKB_NEED_FLOAT64 | VKB_NEED_INT16 |
                     (p.major * 10 + p.minor >= 61 ? VKB_NEED_INT_DOT : 0) |
                     (p.major >= 7 ? VKB_NEED_COOPMAT | VKB_NEED_COOPMAT_KHR : 0);
    if (p.major >= 7) /* WMMA's fp16 fragment and the m16n8k16 pair the twins in matmul_tc.cu use */
        for (int i = 0; i < 3; i++)
            caps->coopmat_khr[i] = caps->coopmat_khr16[i] = 16u;
    if (p.major >=
        8) { /* the fragments of the peak family's twins (host/families/peak/peak_coopmat.cu): NVIDIA's Vulkan ones */
        static const unsigned types[][3] = {{VKB_CT_F16, VKB_CT_F32, 16},
                                            {VKB_CT_F16, VKB_CT_F16, 16},
                                            {VKB_CT_S8, VKB_CT_S32, 32},
                                            {VKB_CT_U8, VKB_CT_U32, 32},
                                            {VKB_CT_BF16, VKB_CT_F32, 16}};
        for (const auto &t : types)
            caps->coopmat_types[caps->ncoopmat_types++] = {16, 16, t[2], t[0], t[0], t[1], t[1], VKB_SCOPE_SUBGROUP, 0};
        caps->features |= VKB_NEED_INT8 | VKB_NEED_BFLOAT16 | VKB_NEED_BFLOAT16_COOPMAT; /* sm_80: bf16 WMMA */
    }
    caps->timestamps = 1;
    TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    TRY(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));
    for (auto &ev : events)
        TRY(cudaEventCreate(&ev));
    TRY(cudaEventCreate(&pass_event));
    return 0;
}

int supports(const vkb_plan *plan, char *why, size_t len)
{
    for (int i = 0; i < plan->npass; i++) {
        const vkb_pass *pass = &plan->pass[i];
        bool own = pass->kind == VKB_PASS_COPY || pass->kind == VKB_PASS_HOST_COPY || pass->kind == VKB_PASS_TIMESTAMP;
        const vkb_cuda_kernel *k = own ? nullptr : find(pass);
        if (k && vkb_pass_uniform_bindings(plan, pass) && !k->upload) {
            /* a uniform binding read through a global pointer would not be the twin: constant memory is */
            snprintf(why, len, "CUDA twin '%s' has no __constant__ upload for its uniform buffer", pass->kernel);
            return 1;
        }
        if (own || k)
            continue;
        int used = snprintf(why, len, "no CUDA twin '%s'", pass->kernel);
        for (int s = 0; s < pass->nspec && used > 0 && (size_t)used < len; s++)
            used += snprintf(why + used, len - (size_t)used, "%s%u", s ? "," : " for constants ", pass->spec[s]);
        return 1;
    }
    return 0;
}

int alloc(void **ptr, uint64_t bytes, char *why, size_t len)
{
    TRY(cudaMalloc(ptr, bytes));
    return 0;
}

void release(void *ptr)
{
    cudaFree(ptr);
}

int alloc_host(void **ptr, uint64_t bytes, char *why, size_t len)
{
    TRY(cudaMallocHost(ptr, bytes));
    return 0;
}

void release_host(void *ptr)
{
    cudaFreeHost(ptr);
}

/* VKB_FAULT_INJECT=transfer-byte (tests): a byte in the middle of each copy's destination changed after it. */
bool fault_transfer_byte()
{
    const char *f = getenv("VKB_FAULT_INJECT");
    return f && strcmp(f, "transfer-byte") == 0;
}

int change_byte(void *dst, uint64_t bytes, cudaStream_t s, char *why, size_t len)
{
    cudaPointerAttributes at;
    char *p = (char *)dst + bytes / 2;
    TRY(cudaPointerGetAttributes(&at, dst));
    if (at.type == cudaMemoryTypeDevice)
        TRY(cudaMemsetAsync(p, 0x5A, 1, s));
    else { /* host memory: after the copy has landed */
        TRY(cudaStreamSynchronize(s));
        *p ^= 0x5A;
    }
    return 0;
}

int upload(void *dst, const void *src, uint64_t bytes, char *why, size_t len)
{
    TRY(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
    /* a copy from pageable memory may return before its DMA lands, and the kernels run on a stream that
     * does not wait for the legacy one: wait here, so that what runs next reads what was uploaded */
    TRY(cudaStreamSynchronize(cudaStreamLegacy));
    return 0;
}

int download(void *dst, const void *src, uint64_t bytes, char *why, size_t len)
{
    TRY(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
    return 0;
}

__global__ void fill_words(uint32_t *dst, uint32_t word, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = word;
}

int fill(void *dst, uint32_t word, uint64_t bytes, char *why, size_t len)
{
    fill_words<<<1024, 256, 0, stream>>>((uint32_t *)dst, word, bytes / 4);
    TRY(cudaGetLastError());
    TRY(cudaStreamSynchronize(stream));
    return 0;
}

/* Device to device on the stream, and wait: cudaMemcpy alone would return before a device copy is done. */
int copy(void *dst, const void *src, uint64_t bytes, char *why, size_t len)
{
    TRY(cudaMemcpyAsync(dst, src, (bytes + 3) & ~3ull, cudaMemcpyDeviceToDevice, stream));
    TRY(cudaStreamSynchronize(stream));
    return 0;
}

int compare(const void *a, const void *other, uint32_t word, uint64_t bytes, uint64_t *count, uint64_t *first,
            char *why, size_t len)
{
    int sms = 0;
    vkb_cuda_verdict out;
    if (!verdict)
        TRY(cudaMalloc(&verdict, sizeof *verdict));
    TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    TRY(vkb_cuda_compare_words(a, other, word, (bytes + 3) / 4, vkb_cuda_compare_blocks(sms), verdict, &out, stream));
    *count = out.differing;
    *first = out.first;
    return 0;
}

int run_passes(const vkb_plan *plan, void *const *bufs, char *why, size_t len)
{
    for (int i = 0; i < plan->npass; i++) {
        const vkb_pass *pass = &plan->pass[i];
        void *args[VKB_MAX_BUFFERS] = {};
        for (int b = 0; b < pass->nbind; b++)
            args[b] = bufs[pass->bind[b]];
        unsigned repeat = pass->repeat ? pass->repeat : 1;
        if (pass->kind == VKB_PASS_COPY || pass->kind == VKB_PASS_HOST_COPY) {
            /* cudaMemcpyDefault: the direction from the pointers (pinned and pageable host memory, device) */
            if (pass->kind == VKB_PASS_HOST_COPY)
                memcpy(args[1], args[0], pass->copy_bytes);
            else
                TRY(cudaMemcpyAsync(args[1], args[0], pass->copy_bytes, cudaMemcpyDefault,
                                    pass->queue ? second : stream));
            if (fault_transfer_byte() && pass->copy_bytes >= 4 &&
                change_byte(args[1], pass->copy_bytes, pass->queue ? second : stream, why, len))
                return 1;
            continue;
        }
        if (pass->kind == VKB_PASS_TIMESTAMP) {
            for (unsigned k = 0; k < repeat; k++)
                TRY(cudaEventRecord(pass_event, stream));
            continue;
        }
        for (unsigned k = 0; k < repeat; k++) /* one stream: each launch after the one before */
            TRY(find(pass)->launch(pass, args, stream));
        TRY(cudaGetLastError());
    }
    return 0;
}

/* Copy every uniform binding (VKB_BUF_UNIFORM) to its kernel's __constant__ table, on the stream. */
int upload_uniforms(const vkb_plan *plan, void *const *bufs, char *why, size_t len)
{
    for (int i = 0; i < plan->npass; i++) {
        const vkb_pass *pass = &plan->pass[i];
        unsigned uniform = pass->kind == VKB_PASS_DISPATCH ? vkb_pass_uniform_bindings(plan, pass) : 0;
        for (int b = 0; b < pass->nbind; b++)
            if ((uniform >> b) & 1u)
                TRY(find(pass)->upload(pass, b, bufs[pass->bind[b]], plan->buf[pass->bind[b]].bytes, stream));
    }
    return 0;
}

int execute(const vkb_plan *plan, void *const *bufs, int reps, int cold, double *ns, char *why, size_t len)
{
    const int per_batch = (int)(sizeof events / sizeof events[0]) / 2;
    if (upload_uniforms(plan, bufs, why, len))
        return 1;
    if (plan->host_timed) { /* the host's clock: launch (or copy) to synchronize, each repetition */
        for (int r = 0; r < reps; r++) {
            auto t0 = std::chrono::steady_clock::now();
            if (run_passes(plan, bufs, why, len))
                return 1;
            TRY(cudaStreamSynchronize(stream));
            TRY(cudaStreamSynchronize(second));
            if (ns)
                ns[r] = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
        }
        return 0;
    }
    if (cold && !evict) {
        int l2 = 0;
        cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
        evict_bytes = (size_t)l2 * 4 > (256u << 20) ? (size_t)l2 * 4 : (256u << 20);
        TRY(cudaMalloc(&evict, evict_bytes));
    }
    for (int done = 0; done < reps;) {
        int n = reps - done < per_batch ? reps - done : per_batch;
        for (int r = 0; r < n; r++) {
            if (cold)
                TRY(cudaMemsetAsync(evict, r, evict_bytes, stream));
            if (ns)
                TRY(cudaEventRecord(events[2 * r], stream));
            if (run_passes(plan, bufs, why, len))
                return 1;
            if (ns)
                TRY(cudaEventRecord(events[2 * r + 1], stream));
        }
        TRY(cudaStreamSynchronize(stream));
        for (int r = 0; ns && r < n; r++) {
            float ms = 0;
            TRY(cudaEventElapsedTime(&ms, events[2 * r], events[2 * r + 1]));
            ns[done + r] = (double)ms * 1e6;
        }
        done += n;
    }
    return 0;
}

void close_device()
{
    if (evict)
        cudaFree(evict);
    evict = nullptr;
    if (verdict)
        cudaFree(verdict);
    verdict = nullptr;
    for (auto &ev : events)
        cudaEventDestroy(ev);
    cudaEventDestroy(pass_event);
    cudaStreamDestroy(second);
    cudaStreamDestroy(stream);
}

const vkb_cuda_module module = {VKB_CUDA_ABI, sizeof(vkb_plan), sizeof(vkb_caps), open_device, supports, alloc,
                                release,      upload,           download,         fill,        copy,     compare,
                                execute,      close_device,     alloc_host,       release_host};

} // namespace

extern "C" __attribute__((visibility("default"))) const vkb_cuda_module *vkb_cuda_module_get(void)
{
    return &module;
}
