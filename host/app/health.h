/* health.h - `vkbench health`: a node's GPU health check (every GPU at once, a fixed validated battery, a verdict
 * per GPU that a cluster can act on: exit 0 keep, 1 take out of service, 7 could not judge). */
#ifndef VKB_HEALTH_H
#define VKB_HEALTH_H

#include "cli.h"
#include "devices.h"

#define VKB_HEALTH_MAX_ROWS 64
/* The fixed configuration file, read by the check itself where present (docs/tooling.md has its format). */
#define VKB_HEALTH_CONFIG "/etc/vkbench/health.conf"
/* The baseline's names, in bytes with the NUL (docs/tooling.md, "The baseline file"; tools/fleet.py applies the
 * same limits when it writes one) */
#define VKB_HEALTH_MODEL_MAX 128
#define VKB_HEALTH_DRIVER_MAX 128
#define VKB_HEALTH_ROW_MAX 96
#define VKB_HEALTH_NUMBER_MAX 1e300 /* a median or noise above it is refused */

/* One row of a --baseline file: a model's (and driver's) median of a battery row and its noise. */
typedef struct vkb_health_golden {
    char model[VKB_HEALTH_MODEL_MAX], driver[VKB_HEALTH_DRIVER_MAX], row[VKB_HEALTH_ROW_MAX];
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
    int expected;          /* the GPUs --expect asks for in all; -1: no --expect */
    int pci_gpus;          /* display-class GPUs on the PCI bus (sysfs); -1: not looked */
    char problem[1024];    /* a node-level failure ("expected 8 GPUs, found 7"), "" when none */
    const char *json_path; /* --json: the verdict; NULL: none */
    const char *prom_path; /* --prom: the verdict as Prometheus metrics; NULL: none */
    const char *version;   /* vkbench's, for vkbench_build_info */
    int dry_run;           /* --dry-run: the set-up checked, nothing run or written */
    struct vkb_sink *db;   /* --db: the store the battery went to, where the verdicts go too; NULL: none */
} vkb_health;

/* H's GPUs from its devices (caps, ndevices): gpus, ngpus and device_list. A CPU implementation only with ALLOW_CPU;
 * a GPU the loader lists more than once (same_gpu.h) once, as its first listing, the others named in AGAIN (LEN
 * bytes; "" when none). Returns 1 when every GPU is a CPU implementation (or there is none), else 0. */
int vkb_health_gpus(vkb_health *h, int allow_cpu, char *again, size_t len);
/* Parse --expect TEXT ("8", "H100:4,A100:4") against the models of H's GPUs: 0 when they match, else 1 with the
 * difference in WHY; -1 when TEXT is malformed (WHY says why). *TOTAL: the GPUs it asks for in all. */
int vkb_health_expect(const vkb_health *h, const char *text, int *total, char *why, size_t len);
/* Read the configuration, --baseline and the devices, check --expect and the PCI bus, every output path, and
 * turn A into the battery's run on the node's GPUs. A failure of the check's own set-up exits 7 (could not
 * judge) with its cause. Returns 0 when there is work to run, else -1 (no GPU: judge the node as it is). */
int vkb_health_prepare(vkb_health *h, vkb_args *a, const char *version);
/* Judge RUNS[0..N-1] (RC: what the devices' run returned), print one line per failing GPU on stderr and a summary
 * on stdout, write the verdict JSON and the metrics where H says. Returns the exit code. */
int vkb_health_judge(vkb_health *h, const vkb_device_run *runs, int n, int rc);
/* One row's speed METRIC against its baseline MEDIAN and NOISE (SHARED: the noise the whole GPU's rows share, in
 * the row's unit; QUICK: the run's own spread, its time's median over its first quartile, 1 when unknown): 0
 * inside its bound, 1 slower (a warning), 2 slow beyond both noises: out of service. */
int vkb_health_row_speed(double metric, double median, double noise, double shared, double quick);
/* A baseline's text (LEN bytes; NAME for the messages) into *G (N rows, malloc'd): 0, or -1 with WHY naming the
 * line. The rule for names and numbers is docs/tooling.md's. */
int vkb_health_baseline_parse(const char *text, size_t len, const char *name, vkb_health_golden **g, int *n, char *why,
                              size_t wlen);
/* One baseline number by the shared rule (decimal, no sign, blank, hex, inf or nan; from MIN to
 * VKB_HEALTH_NUMBER_MAX, MIN itself allowed only when ZERO_OK): 0, or -1. */
int vkb_health_number(const char *text, int zero_ok, double *out);
/* A GPU's UUID and PCI bus id as its vendor's tools write them (NVIDIA: NVML's and dcgm-exporter's
 * "GPU-xxxxxxxx-..." and "00000000:3B:00.0"); the PCI id NULL where the driver reports none. */
const char *vkb_health_uuid(const vkb_caps *c, char buf[48]);
const char *vkb_health_pci(const vkb_caps *c, char buf[24]);
/* Host text (a host name, a driver's string) made fit for a label: valid UTF-8 (an invalid byte, or a character
 * cut by LEN, dropped as '?' / left out), control characters as '?'. Returns OUT. */
const char *vkb_health_clean(const char *text, char *out, size_t len);
/* Display-class GPUs (PCI class 0x03xxxx of a GPU vendor) under ROOT/sys/bus/pci/devices: their count, and
 * those whose address no entry of SEEN (N PCI bus ids as Vulkan gives them) has listed in MISSING. */
int vkb_health_pci_scan(const char *root, const char *const *seen, int n, char *missing, size_t len);

#endif
