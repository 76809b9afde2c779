/* devices.h - every run: the selected work on each device asked for at once, one host thread per device with its
 * own Vulkan context (and CUDA twin), results streamed to the shared sinks one whole result at a time. One device
 * (no --device, or one index or name) is a list of one: its table streams as it runs, without a device heading. */
#ifndef VKB_DEVICES_H
#define VKB_DEVICES_H

#include <stdio.h>

#include "runner.h"
#include "util.h"

#define VKB_MAX_DEVICES 64

/* Whether TEXT (--device) asks for several devices: "all" or a comma list (one index or name, or none, asks for
 * one). */
int vkb_devices_several(const char *text);
/* The Vulkan device indices TEXT names into OUT (VKB_MAX_DEVICES at most), in the order given; returns how many.
 * TEXT: "all", or items "0,2,5" each an index or a name substring (which names every device whose name holds it).
 * An unknown device exits 3, a device named twice or an empty item exits 2, each with one line. One GPU the loader
 * lists more than once (same_gpu.h) is one device: "all" or a name keeps its first listing and one warning line
 * says which were left out; two items naming it (an index of each listing) exit 2 with one line. */
int vkb_devices_parse(const char *text, int *out);
/* vkb_devices_parse's choice among the HAVE devices CAPS lists, with nothing printed: how many, or -(exit code) with
 * WHY (LEN bytes) its one line; AGAIN (AGAIN_LEN bytes): the listings of a GPU that "all" or a name left out, as
 * vkb_same_gpu_say writes them, "" when none. */
int vkb_devices_pick(const char *text, const vkb_caps *caps, int have, int *out, char *why, size_t len, char *again,
                     size_t again_len);

/* One device's part of the run. */
typedef struct vkb_device_run {
    int index;          /* its Vulkan device index; -1 for a list of one, chosen when opened */
    const char *select; /* what picks it for vkb_vulkan_open: the index as text, or for a list of one
                                   --device as given (NULL: the default device) */
    char index_text[16];
    int slot;          /* its place in the runs (set by vkb_devices_run) */
    vkb_runner runner; /* filled by the caller's setup: backends, work list; then its results */
    vkb_selection sel;
    vkb_run_plan plan;
    vkb_run_settings set;
    void *user; /* the caller's */
    /* filled by vkb_devices_run */
    vkb_sink *sinks[8];
    int nsinks;
    char prefix[300];               /* "device 1 (llvmpipe): " with several devices, else "" */
    const vkb_backend_error *error; /* the device failed or was stopped mid-run (backend.h): how; else NULL */
    int rc;                         /* what its runner returned */
} vkb_device_run;

/* What vkb_devices_run needs from the caller. */
typedef struct vkb_devices_hooks {
    /* On the device's own thread, one device after another in RUNS's order: open its backends, select, plan
     * and preflight (a bad request exits as in a one-device run, before any device has started work). */
    void (*setup)(vkb_device_run *d);
    /* The device's own table (or matrix) sink, printing to OUT. */
    vkb_sink *(*table)(FILE *out);
    FILE *out;         /* where the tables go, a family of one device at a time, under its name */
    vkb_sink **shared; /* progress, JSON, CSV: every device's results, one whole result at a time */
    int nshared;
    int dry_run; /* stop after setup */
    int several; /* --device all or a list, even of one: each device's table under its name, a
                                   failed device's cases not run emitted as failed; else one device, streamed */
} vkb_devices_hooks;

/* Run RUNS[0..N-1] at once as HOOKS say (RUNS[i].index and .select set by the caller). A device that fails mid-run
 * says so on one line ("vkbench: error: device 1 (name): ..."; one device not HOOKS->several, after its files have
 * ended, as the last line); the others go on. Returns 0, the first shared sink's failure code (6), 128 + the signal that stopped
 * the run, or the exit code of the first device (in RUNS's order) that failed mid-run; rows that failed validation
 * are the caller's to count in each runner's results. */
int vkb_devices_run(vkb_device_run *runs, int n, const vkb_devices_hooks *hooks);
/* 1 when the last run left a device running work (hung, or a stop past its timeout): the process must end without
 * its libraries' destructors, which free what the driver's threads still use. */
int vkb_devices_busy(void);

#endif
