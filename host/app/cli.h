/* cli.h - the command line: getopt_long parsing into plain data, no side effects (unit-tested). */
#ifndef VKB_CLI_H
#define VKB_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "plan.h"
#include "result.h"

#define VKB_LIST_MAX 256

/* A list of sizes from "1024", "1,31,33", "256:8192:x2" or "100:1000:+100"; suffixes K M G (2^10..),
 * powers "2^28" and whole decimals "1e6" are accepted; an empty item is an error. */
typedef struct vkb_list {
    int64_t v[VKB_LIST_MAX];
    int n;
} vkb_list;

/* The size flags: these names first (the CLI gives the extents, --offset and --size a meaning of their own),
 * then every other dim name a family of the table declares, so a family's new name is a flag too. */
enum {
    VKB_DIM_N,
    VKB_DIM_M,
    VKB_DIM_K,
    VKB_DIM_ROWS,
    VKB_DIM_COLS,
    VKB_DIM_STRIDE,
    VKB_DIM_OFFSET,
    VKB_DIM_WIDTH,
    VKB_DIM_SIZE, /* sets every extent dim a family has that is not given */
    VKB_DIM_KNOWN /* the first of the names only families declare */
};
#define VKB_DIM_MAX 32 /* the size flags there can be: the names above and the families' others */

#define VKB_SCOPED_MAX 8

/* --FAMILY.FLAG LIST (--copy.n 1M, --transpose.size 8192): a size flag for one family only, where the same
 * flag would count different things in the families of one run. */
typedef struct vkb_scoped_size {
    const char *family; /* the family's name */
    int dim;            /* a size flag (vkb_cli_dim_name) */
    vkb_list list;
} vkb_scoped_size;

typedef struct vkb_args {
    const char *command;      /* "suite" (none given), "run", "validate", "devices", "list", "health" */
    const char *families[16]; /* positional FAMILY arguments */
    int nfamilies;
    const char *variants;        /* --variant: "a,b" or "family/a,..." or "all"; NULL = all */
    const char *device;          /* --device: index or name substring; NULL = default */
    const char *backend;         /* --backend: vulkan, cuda or all; NULL = default */
    const char *json_path;       /* --json PATH or "-" for stdout */
    const char *csv_path;        /* --csv PATH */
    const char *db_path;         /* --db PATH or "default": the results store */
    int reps;                    /* --reps N: fixed count; 0 = until the spread settles */
    int cold;                    /* --cold */
    int validation;              /* --validation: 0 off, 1 core, 2 core + synchronization */
    double warmup_ms, budget_ms; /* < 0: the defaults */
    uint64_t seed;
    int verbose, quiet;
    int wide;                               /* --wide: tables may exceed 100 columns */
    int dry_run;                            /* --dry-run: print the work plan, check every case, run nothing */
    int repeat;                             /* --repeat N: each case N times, in rounds; 0 = once (no repeat field) */
    vkb_list dims[VKB_DIM_MAX];             /* per size flag (vkb_cli_dim_name); n == 0: not given */
    vkb_scoped_size scoped[VKB_SCOPED_MAX]; /* --FAMILY.FLAG: each (family, flag) once, the last given */
    int nscoped;
    vkb_spec_value spec[8]; /* --spec NAME=V,...: constants overridden in the variants' shaders */
    int nspec;
    const char *sass_dir;      /* --sass DIR: machine code of every pipeline and CUDA twin; NULL = off */
    uint32_t subgroup_size;    /* --subgroup-size N: every kernel's required subgroup size; 0 = the device's */
    int robustness_off;        /* --robustness disabled: Vulkan pipelines without the driver's bounds checks */
    const char *expect;        /* health --expect: "8" or "H100:4,A100:4"; NULL: any number of GPUs */
    const char *baseline_path; /* health --baseline FILE: speed judged against it; NULL: reported only */
    const char *prom_path;     /* health --prom PATH: the verdict as Prometheus text */
    int allow_cpu;             /* health --allow-cpu: CPU implementations count as GPUs */
    const char *config_path;   /* health --config FILE: its settings; NULL: the fixed file, where present */
    char beyond[120];          /* the first size list holding a size above 2^50, as typed ("--n 2^60") */
} vkb_args;

/* Parse ARGV. Returns 0 on success, 1 when help or version was printed (exit 0), -1 on a usage error
 * with the message in ERR (exit 2). */
int vkb_cli_parse(int argc, char **argv, vkb_args *args, char *err, size_t len);
/* Parse one size list, every item at least MIN (0 or 1); 0 on success, -1 with ERR. Sizes beyond any
 * device (above 2^50) are held as 2^50 + 1 for the device checks to refuse. */
int vkb_cli_parse_list(const char *text, int64_t min, vkb_list *out, char *err, size_t len);
/* Whether NAME is selected by the --variant text SEL for FAMILY (NULL or "all" selects everything). */
int vkb_cli_variant_selected(const char *sel, const char *family, const char *name);
/* `vkbench run --help`: the options of run and each family with the size flags it takes. */
void vkb_cli_run_usage(FILE *out);
/* How many size flags there are: the VKB_DIM_* names and every other dim name of the family table. */
int vkb_cli_dim_count(void);
/* The name of size flag D ("n", "rows", a family's own "depth"), 0 <= D < vkb_cli_dim_count(). */
const char *vkb_cli_dim_name(int d);
/* The size flag named NAME, or -1 where no family declares it. */
int vkb_cli_dim_of(const char *name);
/* Read the size flags from FAMILIES (COUNT of them) instead of the built-in family table (tests: a family
 * with a dim name of its own). */
void vkb_cli_use_families(const struct vkb_family *const *families, int count);
/* Whether size flag D is an extent, a dim --size sets (n, m, k, rows, cols). */
int vkb_cli_dim_is_extent(int d);
/* The list --FAMILY.FLAG gave for flag D of FAMILY, or NULL. */
const vkb_list *vkb_cli_scoped(const vkb_args *a, const char *family, int dim);

#endif
