/* backend.h - the interface both APIs implement: buffers, transfers, and timed execution of a plan. The core
 * drives it; host/backends/ implements it (vulkan.h, cuda.h open one). */
#ifndef VKB_BACKEND_H
#define VKB_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "caps.h"
#include "machine_code.h"
#include "plan.h"

typedef struct vkb_buffer vkb_buffer; /* opaque; each backend defines it */

#define VKB_MAX_STATS 16

/* What the driver says one compiled pipeline (one executable of it) uses: registers, shared memory,
 * spills... named and valued as the driver reports them (VK_KHR_pipeline_executable_properties). */
typedef struct vkb_pipeline_stats {
    const char *kernel;  /* the pass's shader */
    char executable[32]; /* the driver's name of the executable, e.g. "CS" */
    int nstat;
    struct {
        char name[48];
        double value; /* booleans as 0 / 1 */
    } stat[VKB_MAX_STATS];
    vkb_mc_summary mc; /* --sass: the machine code by instruction class (mc.valid 0: not read) */
} vkb_pipeline_stats;
typedef struct vkb_backend vkb_backend;

/* What ended a backend's device: lost, out of memory, hung, or a stop signal it did not answer in time. A backend
 * never ends the process: a call that fails records its first error here and returns (a buffer NULL, a count -1,
 * nothing done), and every later call of that backend does nothing. The runner reads it after each call whose
 * result it needs (vkb_backend_failed), the application decides what the error ends. */
typedef struct vkb_backend_error {
    int code;          /* the exit class (vkb_exit: 3 no device, 4 resource, 5 API) or 128 + the signal; 0: none */
    int stopped;       /* a stop signal, not a fault, ended the device's work (code 128 + the signal) */
    int busy;          /* the device may still run work on its resources (hung, or a stop past the device's
                        * timeout): nothing it holds may be freed, by vkbench or at its exit */
    char message[400]; /* one line, without "vkbench: error: " */
} vkb_backend_error;

/* Record the first error in E (CODE, a printf message) and return -1; a later one is dropped (the first one
 * explains the rest). */
int vkb_backend_fail(vkb_backend_error *e, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* E as a stop: the signal SIG (signals.h) ended the device's work while WHILE_DOING (the device idle again, or
 * with E->busy set by the caller, still running past its timeout); returns -1. */
int vkb_backend_stopped(vkb_backend_error *e, int sig, const char *while_doing);

struct vkb_backend {
    const char *name; /* "vulkan" or "cuda": the JSON `backend` field */
    vkb_caps caps;
    void *impl;
    vkb_backend_error error; /* the first error of its device (code 0: none) */

    /* Make the plan runnable (pipelines, kernel lookup). Returns NULL and writes WHY when this backend
     * cannot run it (no such CUDA twin, a limit exceeded): the caller skips the variant. */
    void *(*prepare)(vkb_backend *b, const vkb_plan *plan, char *why, size_t len);
    void (*unprepare)(vkb_backend *b, void *prepared);
    /* Build ahead, on the host's cores, what prepare() will need for the N PLANS (whose buffers may have no
     * host data), so that prepare() then finds it built. May be NULL. */
    void (*precompile)(vkb_backend *b, const vkb_plan *plans, int n);
    /* The driver's statistics of the prepared plan's pipelines, up to MAX; returns how many (0 when the
     * driver reports none). May be NULL. */
    int (*statistics)(vkb_backend *b, void *prepared, vkb_pipeline_stats *out, int max);
    /* Device buffer of BYTES with FLAGS (VKB_BUF_*, from the plan buffer); NULL when memory runs out (error:
     * VKB_EXIT_RESOURCE, "...; try a smaller size"). */
    vkb_buffer *(*buffer_create)(vkb_backend *b, uint64_t bytes, unsigned flags);
    void (*buffer_destroy)(vkb_backend *b, vkb_buffer *buf);
    void (*upload)(vkb_backend *b, vkb_buffer *buf, const void *src, uint64_t bytes);
    void (*download)(vkb_backend *b, vkb_buffer *buf, void *dst, uint64_t bytes);
    /* Fill with the poison word VKB_POISON so that unwritten outputs fail the check. */
    void (*poison)(vkb_backend *b, vkb_buffer *buf, uint64_t bytes);
    /* Copy BYTES (rounded up to whole words) from SRC to DST on the device. May be NULL. */
    void (*copy)(vkb_backend *b, vkb_buffer *src, vkb_buffer *dst, uint64_t bytes);
    /* Compare the first BYTES (rounded up to whole words) of A on the device, bit for bit, with those of OTHER,
     * or with the word WORD where OTHER is NULL: returns how many 4-byte words differ (0: none) and, when some
     * do, the index of the first in FIRST; -1 when it cannot (too large for one binding, or OTHER shorter than
     * BYTES). May be NULL: the runner then reads the buffers back and compares them on the host. */
    int64_t (*compare)(vkb_backend *b, vkb_buffer *a, vkb_buffer *other, uint32_t word, uint64_t bytes,
                       uint64_t *first);
    /* Read the guard bands around BUF (VKB_GUARD_BYTES each, guard.h) into BEFORE and AFTER. */
    void (*guards)(vkb_backend *b, vkb_buffer *buf, void *before, void *after);
    /* Run the plan REPS times, each repetition timed on the device (GPU timestamps / CUDA events,
     * kernel time between two full barriers) into NS[r] when NS is not NULL. With COLD, a buffer larger
     * than the last-level cache is written before each repetition, outside the timed region. */
    void (*execute)(vkb_backend *b, void *prepared, vkb_buffer *const *bufs, int reps, int cold, double *ns);
    /* Which memory BUF lives in, in words ("heap 1 (251 GiB) type 2: host-visible coherent cached"), into
     * TEXT; NULL when the backend cannot say. May be NULL. */
    const char *(*describe)(vkb_backend *b, vkb_buffer *buf, char *text, size_t len);
    /* Which queue (stream) each copy pass of PREPARED goes to, in words ("pass 0 copy: queue family 1 (transfer,
     * 2 queues) queue 0; ..."), into TEXT; NULL when the backend cannot say. May be NULL. */
    const char *(*describe_queues)(vkb_backend *b, void *prepared, char *text, size_t len);
    /* Free everything; B itself too. */
    void (*destroy)(vkb_backend *b);
};

/* Whether B's device has failed (B->error says how): its calls do nothing any more. */
static inline int vkb_backend_failed(const vkb_backend *b)
{
    return b->error.code != 0;
}

/* Most repeats of a VKB_PASS_TIMESTAMP pass (each writes a query of its own). */
#define VKB_TIMESTAMP_REPEAT_MAX 4096

/* A quiet NaN as float, and a large value as int: no correct output equals it. */
#define VKB_POISON 0x7FC0DEADu

#endif
