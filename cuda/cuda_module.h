/* cuda_module.h - the C interface between vkbench and its run-time loaded CUDA module
 * (libvkbench_cuda.so). The module is loaded with dlopen so that vkbench starts where CUDA is absent. */
#ifndef VKB_CUDA_MODULE_H
#define VKB_CUDA_MODULE_H

#include <stddef.h>
#include <stdint.h>

#include "../host/core/caps.h"
#include "../host/core/plan.h"

/* 7: vkb_caps.clocks_held; 6: vkb_caps.copy_engines (it may fit the old size: the size check alone would not see it);
 * 5: pinned host memory (alloc_host), host-timed plans, host copies, timestamp passes, repeats;
 * 4: copy and compare; 3: the layout sizes; 2: vkb_plan_buffer.flags, vkb_caps.max_uniform_bytes */
#define VKB_CUDA_ABI 7
#define VKB_CUDA_ENTRY "vkb_cuda_module_get"

/* Every function returns 0 on success, or a nonzero code with one line of text in WHY. */
typedef struct vkb_cuda_module {
    int abi;
    /* the sizes of the structures both sides share, as the module was compiled: a layout that changed without
     * a new ABI number (VKB_MAX_SPEC, a new field) is refused too, instead of read as garbage */
    size_t plan_bytes, caps_bytes;
    /* Open the GPU whose UUID is UUID (NULL: device 0); fill CAPS. */
    int (*open)(const uint8_t *uuid, vkb_caps *caps, char *why, size_t len);
    /* Whether the module has a kernel or library op for every pass of PLAN. */
    int (*supports)(const vkb_plan *plan, char *why, size_t len);
    int (*alloc)(void **ptr, uint64_t bytes, char *why, size_t len);
    void (*release)(void *ptr);
    int (*upload)(void *dst, const void *src, uint64_t bytes, char *why, size_t len);
    int (*download)(void *dst, const void *src, uint64_t bytes, char *why, size_t len);
    int (*fill)(void *dst, uint32_t word, uint64_t bytes, char *why, size_t len);
    /* Copy BYTES, rounded up to whole words, from SRC to DST on the device; returns when the copy is done. */
    int (*copy)(void *dst, const void *src, uint64_t bytes, char *why, size_t len);
    /* Compare the first BYTES at A, rounded up to whole words, bit for bit with those at OTHER, or with the word
     * WORD where OTHER is NULL, on the device: COUNT gets how many 4-byte words differ, FIRST the index of the
     * first of them (UINT64_MAX when none). */
    int (*compare)(const void *a, const void *other, uint32_t word, uint64_t bytes, uint64_t *count, uint64_t *first,
                   char *why, size_t len);
    /* Run PLAN REPS times on BUFS; each repetition timed with CUDA events into NS (when not NULL).
     * COLD: a buffer larger than the L2 is written before each repetition, outside the events. */
    int (*execute)(const vkb_plan *plan, void *const *bufs, int reps, int cold, double *ns, char *why, size_t len);
    void (*close)(void);
    /* Pinned host memory (cudaMallocHost), which the device reaches over the bus: VKB_BUF_HOST_STAGING. */
    int (*alloc_host)(void **ptr, uint64_t bytes, char *why, size_t len);
    void (*release_host)(void *ptr);
} vkb_cuda_module;

typedef const vkb_cuda_module *(*vkb_cuda_module_get_fn)(void);

#endif
