/* health.h - `vkbench health`: a node's GPU health check (every GPU at once, a fixed validated battery, a verdict
 * per GPU that a cluster can act on: exit 0 keep, 1 take out of service, 7 could not judge). */
#ifndef VKB_HEALTH_H
#define VKB_HEALTH_H

#include "cli.h"
#include "devices.h"

#define VKB_HEALTH_MAX_ROWS 64

/* One row of a --baseline file: a model's (and driver's) median of a battery row and its noise. */
typedef struct vkb_health_golden {
    char model[128], driver[128], row[96];
    double median, noise; /* the metric's unit (GB/s, GFLOP/s); noise: a robust spread, same unit */
} vkb_health_golden;

typedef struct vkb_health {
    vkb_caps caps[VKB_MAX_DEVICES]; /* every Vulkan device, by index */
    int ndevices;
    int gpus[VKB_MAX_DEVICES]; /* the indices judged (CPU implementations only with --allow-cpu) */
    int ngpus;
    char device_list[VKB_MAX_DEVICES * 4]; /* gpus as --device text */
    vkb_health_golden *golden;
    int ngolden;
    char problem[1024];    /* a node-level failure ("expected 8 GPUs, found 7"), "" when none */
    const char *json_path; /* --json: the verdict; NULL: none */
    const char *prom_path; /* --prom: the verdict as Prometheus metrics; NULL: none */
    const char *version;   /* vkbench's, for vkbench_build_info */
    struct vkb_sink *db;   /* --db: the store the battery went to, where the verdicts go too; NULL: none */
} vkb_health;

/* Enumerate the devices, check --expect, read --baseline (a bad file: exit 2) and turn A into the battery's run
 * on the node's GPUs. Returns 0 when there is work to run, else the exit code already decided (no GPU). */
int vkb_health_prepare(vkb_health *h, vkb_args *a, const char *version);
/* Judge RUNS[0..N-1] (RC: what the devices' run returned), print one line per failing GPU on stderr and a summary
 * on stdout, write the verdict JSON and the metrics where H says. Returns the exit code. */
int vkb_health_judge(vkb_health *h, const vkb_device_run *runs, int n, int rc);
/* One row's speed METRIC against its baseline MEDIAN and NOISE (SHARED: the noise the whole GPU's rows share, in
 * the row's unit): 0 inside its bound, 1 slower (a warning), 2 slow enough to take the GPU out of service. */
int vkb_health_row_speed(double metric, double median, double noise, double shared);

#endif
