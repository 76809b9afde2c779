/* family.h - a kernel family is a table of variants plus what is common to them: shapes, inputs,
 * the plan that turns a variant row into dispatches, the work model and the CPU check. */
#ifndef VKB_FAMILY_H
#define VKB_FAMILY_H

#include <stddef.h>
#include <stdint.h>

#include "caps.h"
#include "check.h"
#include "plan.h"

#define VKB_MAX_DIMS 4

/* A problem size: dims named by the family (copy: n; transpose: rows, cols; matmul: m, n, k). */
typedef struct vkb_shape {
    int64_t d[VKB_MAX_DIMS];
} vkb_shape;

/* Row flags. */
enum {
    VKB_VAR_CEILING = 1u << 0, /* a vendor/API reference, not a kernel of ours */
    VKB_VAR_VULKAN_ONLY = 1u << 1,
    VKB_VAR_CUDA_ONLY = 1u << 2,
    VKB_VAR_NONDETERMINISTIC = 1u << 3, /* float atomics: bits may differ run to run */
    VKB_VAR_API_COPY = 1u << 4,         /* the API's own copy of the family's input, planned, counted and checked
                                          by vkb_family_plan/_work/_check from the family's copy_io */
    VKB_VAR_NOT_IN_SUITE = 1u << 5,     /* left out of the default suite (which keeps the rows others need) */
    VKB_VAR_SHADER_COPY = 1u << 6,      /* a kernel that moves its input unchanged: with the API's copies, a bound
                                          the bandwidths of its shape are judged against (the SUSPECT rule) */
    VKB_VAR_STREAM_COPY = 1u << 7,      /* a shader stream copy of the family's input (copy_io's bytes, the copy
                                          family's vec4 kernel), planned, counted and checked by vkb_family_* */
    VKB_VAR_INTEGER_OPS = 1u << 8       /* its work counts integer operations: GOP/s where the family's metric is
                                          GFLOP/s (vkb_variant_unit), the family's bounds as they are */
};

/* The API-copy ceiling row (vkCmdCopyBuffer / cudaMemcpy device-to-device): one line in a family's table. */
#define VKB_API_COPY_ROW(note)                                                                                         \
    {                                                                                                                  \
        "api_copy", NULL, {1, 1, 1}, {0}, 0, 0, 0, VKB_VAR_CEILING | VKB_VAR_API_COPY, note                            \
    }

/* The shader stream-copy ceiling row: the copy family's vec4 kernel (memory.width's mem_width at WORDS=4) on the
 * API copy's bytes. Beside VKB_API_COPY_ROW, the ceiling of a shape is the faster of the two: an API copy can be
 * far below what the memory streams (vkCmdCopyBuffer on NVIDIA's driver 580: 28% of a shader copy). */
#define VKB_STREAM_COPY_ROW                                                                                            \
    {                                                                                                                  \
        "stream_copy", "mem_width", {256, 1, 1}, {4}, 1, 0, 0,                                                         \
            VKB_VAR_CEILING | VKB_VAR_STREAM_COPY | VKB_VAR_SHADER_COPY,                                               \
            "the copy family's vec4 kernel on the API copy's bytes: with api_copy, the ceiling (the faster of the "    \
            "two)"                                                                                                     \
    }

/* One row of a family's table. A new variant is a shader (and CUDA twin) plus a row. */
typedef struct vkb_variant {
    const char *name;            /* CLI and JSON name: family/name */
    const char *kernel;          /* shader = CUDA twin name; NULL for API and library rows */
    uint32_t local[3];           /* workgroup size (spec constants 0..2) */
    uint32_t spec[VKB_MAX_SPEC]; /* the family's named spec constants (ids 3...) */
    int nspec;
    int param;            /* a family-specific knob (elements per thread, ...) */
    unsigned needs;       /* VKB_NEED_* */
    unsigned flags;       /* VKB_VAR_* */
    const char *note;     /* one line for `vkbench list`: what it changes and why */
    const char *ceiling;  /* the ceiling row to compare with, or rows by preference "a|b" (the first measured at
                               the shape); NULL: the fastest ceiling row of the family */
    const char *fallback; /* "family/variant": a row of another family whose rate is the ceiling where no ceiling
                               row of the own family ran (no vendor library); the fastest such result of the run */
    int plan_kind;        /* which of the family's plans the row takes (a value of the family's own enum, declared
                               with its rows); 0 where the family has one plan */
} vkb_variant;

/* Inputs and references for one shape, shared by every variant and backend that runs it. */
typedef struct vkb_case {
    const struct vkb_family *family;
    vkb_shape shape;
    void *data; /* family-owned */
} vkb_case;

/* What one case's CPU check costs the host, in multiply-adds of double sums (the run's estimate): MACS its own pass
 * over its outputs; REF_MACS a reference it shares with every case of its shape that names the same REF (1 to 31;
 * 0: none), made once for all of them. */
typedef struct vkb_check_cost {
    double macs;
    double ref_macs;
    int ref;
} vkb_check_cost;

typedef struct vkb_family {
    const char *name;
    const char *summary;
    const char *dims[VKB_MAX_DIMS]; /* CLI flags (--n, --rows, ...), in shape order */
    int ndims;
    const char *metric; /* "GB/s" or "GFLOP/s": work / time */
    const vkb_variant *variants;
    int nvariants;

    /* Shapes for `run` when the command line gives none; returns the count (<= MAX). */
    int (*default_shapes)(const vkb_caps *caps, vkb_shape *out, int max);
    /* The awkward shapes `validate` runs; returns the count. */
    int (*battery)(vkb_shape *out, int max);
    /* Inputs for SHAPE from SEED; NULL with WHY when the shape is invalid for this family. */
    void *(*case_create)(const vkb_shape *shape, uint64_t seed, char *why, size_t len);
    void (*case_destroy)(void *data);
    /* The plan for V on CAPS: a VKB_PLAN_* outcome, with WHY unless VKB_PLAN_OK. Checks every constant and
     * size before using it; no side effects, and works with c->data NULL (sizes from c->shape, host
     * pointers NULL): the runner plans every case before it makes inputs. Called through vkb_family_plan. */
    int (*plan)(const vkb_variant *v, const vkb_case *c, const vkb_caps *caps, vkb_plan *plan, char *why, size_t len);
    /* Bytes (GB/s) or flops (GFLOP/s) one run of V does. */
    double (*work)(const vkb_variant *v, const vkb_case *c);
    /* Check the outputs of PLAN (downloaded into the output buffers' host pointers). */
    void (*check)(const vkb_variant *v, const vkb_case *c, const vkb_plan *plan, vkb_check *res);
    /* Optional: the fraction of the ceiling a rule predicts for V (the table and JSON show it beside the
     * measured one); NAN where the rule says nothing. */
    double (*predict)(const vkb_variant *v, const vkb_case *c, const vkb_caps *caps);
    /* For a VKB_VAR_API_COPY row: the bytes the API copies (the family's input as its kernels read it), and
     * the host memory to copy from and download into (NULL when c->data is NULL). */
    uint64_t (*copy_io)(const vkb_case *c, const void **src, void **dst);
    /* 0: the metric is a rate, work / time (GB/s, GFLOP/s). Else the metric is a time per unit of work in units
     * of this many ns (1e3: µs per dispatch; 1: ns per load): median / work / time_unit_ns, lower is better */
    double time_unit_ns;
    /* Optional: the rate (the metric's unit) V can reach on CAPS in theory, shown beside the measured one, 0
     * where unknown; *BOUND the rate nothing can exceed there (a measurement above it is suspect), 0 where
     * unknown. A family with this hook is judged by its own bounds only. */
    double (*theoretical)(const vkb_variant *v, const vkb_caps *caps, double *bound);
    /* What each of dims counts, in words (`vkbench run --help` shows it): "4-byte elements", "bytes", "matrix
     * side". A flag without a family prefix that sizes several families must count the same thing in each (a
     * copy of 8192 elements beside an 8192x8192 transpose is no comparison), so equal words mean equal units. */
    const char *units[VKB_MAX_DIMS];
    /* Optional: the default suite's points, the few shapes that show the family's rule (memory.stride: strides
     * 1, 2, 4, 8 and 32), into OUT; returns the count (<= MAX). PAST is the working set (bytes read and written)
     * a shape needs on CAPS to measure memory rather than cache: twice the last-level cache, 256 MiB where it is
     * unknown, 0 on a CPU implementation (whose shapes are sized for time). NULL: the suite runs one default
     * shape, the first past the cache on a GPU. */
    int (*suite_shapes)(const vkb_caps *caps, double past, vkb_shape *out, int max);
    /* Optional: what checking V at SHAPE costs the host (vkb_check_cost), from the sizes alone; without it the
     * estimate counts a family's checks in its per-byte host work only. */
    void (*check_cost)(const vkb_variant *v, const vkb_shape *shape, vkb_check_cost *cost);
} vkb_family;

const vkb_variant *vkb_variant_find(const vkb_family *f, const char *name);
/* The plan for V at C on CAPS (the family's plan, or the API copy), with the checks every plan gets: a
 * workgroup of at least 1x1x1, no buffer of 0 bytes. A VKB_PLAN_* outcome, with WHY unless VKB_PLAN_OK.
 * The device's limits are checked apart, by vkb_plan_check_limits (device_limits.h). */
int vkb_family_plan(const vkb_family *f, const vkb_variant *v, const vkb_case *c, const vkb_caps *caps, vkb_plan *p,
                    char *why, size_t len);
/* Bytes or flops of one run of V (the family's work, or the API copy's read + write). */
double vkb_family_work(const vkb_family *f, const vkb_variant *v, const vkb_case *c);
/* What checking V at SHAPE costs the host (the family's check_cost; nothing without one, or for the API copy). */
void vkb_family_check_cost(const vkb_family *f, const vkb_variant *v, const vkb_shape *shape, vkb_check_cost *cost);
/* Check the downloaded outputs of PLAN (the family's check, or the API copy's exact compare). */
void vkb_family_check(const vkb_family *f, const vkb_variant *v, const vkb_case *c, const vkb_plan *p, vkb_check *res);
/* The unit of V's metric, the one name every output prints: the family's metric, or "GOP/s" for a
 * VKB_VAR_INTEGER_OPS row of a GFLOP/s family (an integer multiply-add is no floating-point operation). */
const char *vkb_variant_unit(const vkb_family *f, const vkb_variant *v);
/* The units of F's rows: its metric, then each other unit a row reports ("GFLOP/s, GOP/s"), into BUF. */
const char *vkb_family_units(const vkb_family *f, char *buf, size_t len);
/* "4096x4096", "n=1000" style text for a shape. */
const char *vkb_shape_text(const vkb_family *f, const vkb_shape *s, char *buf, size_t len);

#endif
