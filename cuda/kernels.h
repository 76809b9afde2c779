/* kernels.h - how a CUDA twin registers: a row per (kernel name, template arguments). The host's plan
 * names the kernel and carries its specialization constants; the module finds the row whose name and
 * arguments match, so a twin instantiated for other constants is reported, not silently substituted. */
#ifndef VKB_CUDA_KERNELS_H
#define VKB_CUDA_KERNELS_H

#include <cuda_runtime.h>
#include <string.h>

#include "cuda_module.h"

/* Launch one pass: ARGS are the device pointers in binding order. */
typedef cudaError_t (*vkb_cuda_launcher)(const vkb_pass *pass, void *const *args, cudaStream_t stream);

/* Copy binding BINDING of PASS, a buffer the plan flags VKB_BUF_UNIFORM (SRC on the device, BYTES long), to
 * the kernel's __constant__ table, on STREAM; cudaErrorInvalidValue when it does not fit. The module calls it
 * for each uniform binding once per execute, before the timed repetitions (so the copy is never timed, and a
 * plan runs a given kernel with one table). */
typedef cudaError_t (*vkb_cuda_uniform_upload)(const vkb_pass *pass, int binding, const void *src, uint64_t bytes,
                                               cudaStream_t stream);

typedef struct vkb_cuda_kernel {
    const char *name; /* = the shader name (or a library op: cub_sum, cublas_sgemm...) */
    int nspec;        /* how many of pass->spec must equal spec[] (the template arguments) */
    unsigned spec[VKB_MAX_SPEC];
    vkb_cuda_launcher launch;
    vkb_cuda_uniform_upload upload; /* kernels that read a uniform binding from __constant__ memory; else NULL */
} vkb_cuda_kernel;

/* Each cuda/<family>.cu defines vkb_cuda_kernels_<family>[], ended by a row with name NULL. */
extern "C" const vkb_cuda_kernel *const vkb_cuda_tables[];

/* Grid and block of a pass. */
static inline dim3 vkb_grid(const vkb_pass *p)
{
    return dim3(p->groups[0], p->groups[1], p->groups[2]);
}
static inline dim3 vkb_block(const vkb_pass *p)
{
    return dim3(p->local[0], p->local[1], p->local[2]);
}

/* The push constants as the kernel's by-value parameter (same 32 bytes the Vulkan shader gets). */
struct vkb_push {
    unsigned u[VKB_PUSH_WORDS];
};
static inline vkb_push vkb_push_of(const vkb_pass *p)
{
    vkb_push v;
    for (int i = 0; i < VKB_PUSH_WORDS; i++)
        v.u[i] = p->push[i];
    return v;
}

/* The launcher of a kernel K(const In *src, Out *dst, push) that reads binding 0 and writes binding 1 with
 * the pass's grid and block, no dynamic shared memory: what most twins need. In a table row:
 * vkb_launch_io<float, float, copy_vec4>. */
template <typename In, typename Out, void (*K)(const In *, Out *, vkb_push)>
cudaError_t vkb_launch_io(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    K<<<vkb_grid(p), vkb_block(p), 0, s>>>((const In *)a[0], (Out *)a[1], vkb_push_of(p));
    return cudaGetLastError();
}

/* The push constants of a pass as a family's struct P (shaders/<family>/<family>.h). */
template <typename P> static inline P vkb_push_as(const vkb_pass *p)
{
    P push;
    static_assert(sizeof(P) <= sizeof p->push, "push constants past VKB_PUSH_WORDS");
    memcpy(&push, p->push, sizeof push);
    return push;
}

/* The launcher of a kernel K(const In *src, Out *dst, P push) whose push constants are a family's struct P
 * (shaders/<family>/<family>.h, the one the shader declares): vkb_launch_push<float, float, transpose_push,
 * transpose_tiled<32, 8, 1, 0, 1>>. */
template <typename In, typename Out, typename P, void (*K)(const In *, Out *, P)>
cudaError_t vkb_launch_push(const vkb_pass *p, void *const *a, cudaStream_t s)
{
    K<<<vkb_grid(p), vkb_block(p), 0, s>>>((const In *)a[0], (Out *)a[1], vkb_push_as<P>(p));
    return cudaGetLastError();
}

#endif
