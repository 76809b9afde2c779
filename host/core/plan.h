/* plan.h - one run of a variant as data: buffers and passes. Both backends execute the same plan,
 * so a Vulkan shader and its CUDA twin get the same geometry, constants and buffers by construction. */
#ifndef VKB_PLAN_H
#define VKB_PLAN_H

#include <stddef.h>
#include <stdint.h>

#define VKB_MAX_BUFFERS 6
#define VKB_MAX_PASSES 4
#define VKB_MAX_SPEC 12  /* specialization constants after the three local-size ids (coopmat_khr: 3..14) */
#define VKB_PUSH_WORDS 8 /* 32 bytes of push constants / kernel parameters */

typedef enum vkb_buffer_role {
    VKB_BUF_INPUT,  /* uploaded from host data before the run */
    VKB_BUF_OUTPUT, /* poisoned before the run, downloaded and checked after it */
    VKB_BUF_SCRATCH /* poisoned before the run, never read back */
} vkb_buffer_role;

/* Buffer flags (vkb_plan_buffer.flags); 0 is a storage buffer, bound as such in every pass. */
enum {
    /* A read-only table bound as a uniform buffer in every pass that binds it: Vulkan creates it with
     * UNIFORM_BUFFER usage and binds it with UNIFORM_BUFFER descriptors (a std140 block, at most
     * caps.max_uniform_bytes; the runner skips a larger one); the CUDA twin reads it from __constant__
     * memory, where its row's upload hook copies it before the timed runs (cuda/kernels.h). */
    VKB_BUF_UNIFORM = 1u << 0,
    /* Where a buffer lives (default: device-local memory), for the transfer family. Host memory the device
     * reaches over the bus: Vulkan host-visible coherent memory (a type that is not device-local where there
     * is one: system memory), CUDA pinned memory (cudaMallocHost); persistently mapped. */
    VKB_BUF_HOST_STAGING = 1u << 1,
    /* Ordinary host memory (aligned malloc): CUDA copies it through the driver's own staging; Vulkan only
     * reads and writes it with the host (VKB_PASS_HOST_COPY). */
    VKB_BUF_HOST_PAGEABLE = 1u << 2,
    /* Device-local memory the host maps (resizable BAR): Vulkan only, where a device-local host-visible type's
     * heap holds the buffer; the backend refuses the plan otherwise, naming the heap */
    VKB_BUF_DEVICE_MAPPED = 1u << 3,
    /* Used by passes on both queues (vkb_pass.queue): Vulkan shares it between the two queue families
     * (VK_SHARING_MODE_CONCURRENT); CUDA has no such distinction */
    VKB_BUF_TWO_QUEUES = 1u << 4
};
#define VKB_BUF_PLACEMENT (VKB_BUF_HOST_STAGING | VKB_BUF_HOST_PAGEABLE | VKB_BUF_DEVICE_MAPPED)

typedef struct vkb_plan_buffer {
    uint64_t bytes;
    vkb_buffer_role role;
    const void *host; /* inputs: the data to upload (bytes long); outputs: where to download */
    unsigned flags;   /* VKB_BUF_*: set by the family after vkb_plan_buffer_add */
} vkb_plan_buffer;

typedef enum vkb_pass_kind {
    VKB_PASS_DISPATCH,  /* a compute shader / CUDA kernel named `kernel` */
    VKB_PASS_COPY,      /* the API's own buffer copy: vkCmdCopyBuffer / cudaMemcpyAsync D2D */
    VKB_PASS_LIBRARY,   /* a vendor library call named `kernel` (CUDA only: cub_sum, cublas_sgemm, ...) */
    VKB_PASS_HOST_COPY, /* the host copies copy_bytes from bind[0] to bind[1] (host-visible or host buffers) on
                          its worker threads: a host-timed plan (vkb_plan.host_timed) of host copies only */
    VKB_PASS_TIMESTAMP  /* one timestamp written (vkCmdWriteTimestamp / cudaEventRecord): its own cost */
} vkb_pass_kind;

typedef struct vkb_pass {
    vkb_pass_kind kind;
    const char *kernel;          /* shader name = CUDA twin name, or library op */
    uint32_t local[3];           /* workgroup / block size: spec constants 0, 1, 2 */
    uint32_t groups[3];          /* workgroup count / grid */
    uint32_t spec[VKB_MAX_SPEC]; /* spec constants 3, 4, ... / template arguments */
    int nspec;
    uint32_t push[VKB_PUSH_WORDS]; /* push constants / by-value kernel parameter */
    int bind[VKB_MAX_BUFFERS];     /* plan buffer index for binding 0, 1, ... */
    int nbind;
    uint64_t copy_bytes;   /* VKB_PASS_COPY: bytes from bind[0] to bind[1] */
    uint32_t shared_bytes; /* shared memory per workgroup the kernel declares (its constants') */
    uint32_t repeat;       /* run the pass this many times back to back (0: once) */
    int no_barrier;        /* ... with no barrier between the repeats (they may overlap) */
    int queue;             /* 1, 2: a copy on the transfer-only family's first, second queue (Vulkan;
                                         CUDA: a second stream), at the same time as the passes on the others;
                                         only in a host-timed plan, whose buffers the copy binds are
                                         VKB_BUF_TWO_QUEUES */
} vkb_pass;

/* A specialization constant set from the command line (--spec NAME=VALUE): by the name the shader gives
 * it, or by its SpecId when NAME is a number. */
typedef struct vkb_spec_value {
    char name[24];
    uint32_t value;
} vkb_spec_value;

/* What a family's plan() returns. */
enum {
    VKB_PLAN_OK = 0,
    VKB_PLAN_SKIP = 1,        /* the device lacks a feature or limit: the row says `skip: WHY` */
    VKB_PLAN_BAD_REQUEST = 2, /* the user's constants or shape are inconsistent with the kernel: exit 2 */
    VKB_PLAN_TOO_LARGE = 3    /* beyond the kernel's index range or the device's limits: exit 4 */
};

typedef struct vkb_plan {
    vkb_plan_buffer buf[VKB_MAX_BUFFERS];
    int nbuf;
    vkb_pass pass[VKB_MAX_PASSES];
    int npass;
    int refused; /* a buffer of 0 bytes was asked for: the plan is a bad request */
    /* What the family's check needs from this plan, where the order of operations sets the tolerance:
     * the most roundings any output element meets, and that order in words. */
    uint64_t check_depth;
    char check_order[48];
    /* Each repetition timed on the host's clock instead of the device's: from submission to the fence (CUDA:
     * launch to synchronize), or around the host copies of a VKB_PASS_HOST_COPY plan */
    int host_timed;
    /* How a host-timed plan waits for its fence: 0 blocks in the driver (vkWaitForFences, which may sleep until an
     * interrupt wakes the thread), 1 spins on its status (vkGetFenceStatus, as CUDA's synchronize spins by default
     * on a host with more cores than GPUs) and resets it after the clock stops. CUDA always synchronizes */
    int host_spin;
    /* Bytes or flops one run does where the plan decides it (its geometry depends on the device): else 0, and
     * the family's work() says */
    double work;
} vkb_plan;

/* Append a buffer; returns its index. A buffer of 0 bytes is refused: -1, and the plan is marked refused
 * (vkb_family_plan turns that into VKB_PLAN_BAD_REQUEST), so no backend ever creates one. */
int vkb_plan_buffer_add(vkb_plan *p, uint64_t bytes, vkb_buffer_role role, const void *host);
/* Append a dispatch of KERNEL with LOCAL size and GROUPS; returns the pass to fill in further. */
vkb_pass *vkb_plan_dispatch(vkb_plan *p, const char *kernel, const uint32_t local[3], const uint32_t groups[3]);
/* Append an API buffer copy of BYTES from buffer SRC to buffer DST. */
vkb_pass *vkb_plan_copy(vkb_plan *p, int src, int dst, uint64_t bytes);
/* Append a host copy of BYTES from buffer SRC to buffer DST (the plan becomes host-timed). */
vkb_pass *vkb_plan_host_copy(vkb_plan *p, int src, int dst, uint64_t bytes);
/* Append N timestamps written back to back (their own cost: the latency family). */
vkb_pass *vkb_plan_timestamps(vkb_plan *p, uint32_t n);
/* Append a vendor-library call. */
vkb_pass *vkb_plan_library(vkb_plan *p, const char *op);
/* Set the push constants of PASS from a family's push struct (BYTES long, at most VKB_PUSH_WORDS words). */
void vkb_pass_push(vkb_pass *pass, const void *push, size_t bytes);
/* Bind plan buffers (in binding order) to a pass. */
void vkb_pass_bind(vkb_pass *pass, int nbind, const int *bufs);
/* Workgroups needed to cover N items with groups of SIZE, clamped to LIMIT (kernels then loop). */
uint32_t vkb_groups_for(uint64_t n, uint32_t size, uint32_t limit);
/* Write WHY and return CODE (a VKB_PLAN_* outcome): `return vkb_plan_fail(why, len, VKB_PLAN_SKIP, ...)`. */
int vkb_plan_fail(char *why, size_t len, int code, const char *fmt, ...);
/* A * B, or UINT64_MAX when the product does not fit in 64 bits (size checks without wrapping). */
uint64_t vkb_mul_sat(uint64_t a, uint64_t b);
/* Sum of all buffer sizes. */
uint64_t vkb_plan_bytes(const vkb_plan *p);

/* Bit K set when binding K of PASS is a buffer flagged VKB_BUF_UNIFORM (inline: the CUDA module uses it). */
static inline unsigned vkb_pass_uniform_bindings(const vkb_plan *p, const vkb_pass *pass)
{
    unsigned bits = 0;
    for (int k = 0; k < pass->nbind; k++)
        if (p->buf[pass->bind[k]].flags & VKB_BUF_UNIFORM)
            bits |= 1u << k;
    return bits;
}

#endif
