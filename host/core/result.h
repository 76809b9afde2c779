/* result.h - one measured (or skipped) variant on one backend at one shape. */
#ifndef VKB_RESULT_H
#define VKB_RESULT_H

#include "backend.h"
#include "check.h"
#include "family.h"
#include "stats.h"

#define VKB_MAX_REPEAT 100 /* --repeat: runs of each case (a run-to-run spread needs a few, not thousands) */

typedef enum vkb_status { VKB_RES_OK, VKB_RES_FAIL, VKB_RES_SKIP } vkb_status;
/* --robustness: how a Vulkan result's pipelines treat buffer bounds; NONE for a backend without the choice (CUDA) */
typedef enum vkb_robustness { VKB_ROBUSTNESS_NONE, VKB_ROBUSTNESS_DEFAULT, VKB_ROBUSTNESS_DISABLED } vkb_robustness;

/* A value a result carries beside its metric (a bound, a rate, a measured fact), with its unit and where it came
 * from. The sinks print every one without knowing it (JSON "values", CSV "values", the table's notes with -v), so
 * a new bound is set where it is known (vkb_result_value) and needs no edit in them. */
typedef struct vkb_named_value {
    const char *tag; /* a name for tools, "theoretical"; a static string */
    double value;
    const char *unit;   /* "GFLOP/s", "GB/s", "ns"; a static string */
    const char *source; /* where the value comes from, a short phrase; a static string */
} vkb_named_value;

#define VKB_MAX_VALUES 6

typedef struct vkb_result {
    const vkb_family *family;
    const vkb_variant *variant;
    const char *backend;
    vkb_shape shape;
    vkb_status status;
    char skip_reason[200];
    int timed;
    vkb_stats time_ns;
    double work;                      /* bytes or flops of one run */
    double metric;                    /* work / median time, in GB/s or GFLOP/s (1e9) */
    const struct vkb_result *ceiling; /* the ceiling this is a fraction of, or NULL */
    double fraction;                  /* metric / ceiling metric */
    double predicted;                 /* the family's predicted fraction, NAN when none */
    double theoretical;               /* the family's theoretical rate for the row on this device, 0 when unknown */
    double bound;                     /* the family's physical bound on the rate (judge_metric), 0 when unknown */
    int cache_fits;                   /* working set fits in the last-level cache: 1 yes, 0 no, -1 unknown */
    int cache_measured;               /* ... judged by the cache size vkbench measured (caps.cache_measured) */
    uint64_t working_set_bytes;
    vkb_check check;
    int cross;                /* compared with the other backend's output */
    uint64_t cross_differing; /* elements whose bits differ between the backends */
    double cross_max_diff;    /* largest |a - b| over float outputs (0 when all bits agree) */
    int cross_fail;           /* they differ beyond the two checks' largest bounds summed (any bit when exact):
                                 the row is FAIL; the first such element: */
    uint64_t cross_index;     /* its index in output cross_buffer (32-bit words) */
    int cross_buffer;
    double cross_this, cross_other; /* its value here and on the other backend (cross_backend names it): as
                                       fp32, or as int32 when an exact output's words are not normal floats */
    const char *cross_backend;
    int suspect;              /* the metric is above a physical bound: the timing is not believed */
    char suspect_reason[160]; /* which bound, e.g. "above 1.25x the fastest copy of the run (412 GB/s)" */
    vkb_pipeline_stats pipelines[VKB_MAX_PASSES]; /* the driver's statistics, where it reports them */
    int npipelines;
    char constants[96];        /* the constants --spec set, "BM=64,BN=64"; empty when none */
    int repeats;               /* --repeat N: the case runs N times in one process; 0 without --repeat */
    int repeat;                /* ... and this is run number REPEAT (0-based), checked in run 0, timed in each */
    uint32_t subgroup_size;    /* the subgroup size its kernels ran with, when known; 0: not known, or no kernel */
    uint32_t subgroup_asked;   /* --subgroup-size (0: not given): the table names the row NAME@sgN */
    vkb_robustness robustness; /* DISABLED: built without bounds checks, the table names the row NAME@nobc */
    const char *error;         /* the fatal error that ended the run during this case (JSON "error"), else NULL */
    int device_index;          /* the Vulkan index of the GPU it ran on (a CUDA twin's: its GPU's) */
    char memory[240];          /* where a plan that places buffers (VKB_BUF_PLACEMENT) put each, as the backend
                                 names it ("src: heap 1 (...) type 2: host-visible coherent; dst: ..."); else "" */
    int host_timed;            /* timed on the host's clock (vkb_plan.host_timed), not the device's */
    char queues[240];          /* which queue each copy of a plan that copies went to, as the backend names it
                                 (vkb_backend.describe_queues); else "" */
    /* the first kernel pass as planned, the device's choices included (a tensor-core row's fragment, subgroup
       tile and k-step; a block's k-step halved for shared memory): its kernel ("" where the plan runs no
       kernel), workgroup, and constants from SpecId 3 named as the shader names them ("BM=128,...,FRAG_K=16") */
    char planned_kernel[48];
    uint32_t planned_local[3];
    char planned_constants[200];
    vkb_named_value values[VKB_MAX_VALUES];
    int nvalues;
} vkb_result;

/* Add (or, for a TAG it has, replace) a named value of R; a finite VALUE only (else nothing is added). */
void vkb_result_value(vkb_result *r, const char *tag, double value, const char *unit, const char *source);

/* "default", "disabled", or NULL for VKB_ROBUSTNESS_NONE: the JSON's and CSV's words. */
const char *vkb_robustness_name(vkb_robustness r);

#define VKB_MAX_RESULTS 65536 /* cases of one run at most */

typedef struct vkb_results {
    vkb_result *r;
    int n, cap;
} vkb_results;

/* Room for N results, made once before the first (results point at their ceilings: the array never moves). */
void vkb_results_reserve(vkb_results *rs, int n);
vkb_result *vkb_results_add(vkb_results *rs);
void vkb_results_free(vkb_results *rs);

#endif
