/* cache_probe.h - the last-level cache size from vkbench's own measurement (cache.chase), where neither the
 * driver nor CUDA reports one: the knee of the chase's latency over footprints, kept per device in a file. */
#ifndef VKB_CACHE_PROBE_H
#define VKB_CACHE_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "caps.h"

/* The footprints where the last rise to DRAM's latency starts and ends (bytes). */
typedef struct vkb_cache_rise {
    double lo, hi;
} vkb_cache_rise;
/* The last-level cache size from a chase's latency NS (per load) at footprints BYTES, N points in ascending
 * order (noise smoothed first): the end of the last rise to DRAM's level, where it comes within 3% of the line of
 * the slow climb after it (a split L2's first rise, its near partition, is not it). 0 when there is no clear step
 * from a plateau to DRAM (no flat tail, a climb too small, too gradual, or starting too close to DRAM's level, an
 * end that the line of the rise's steepest part puts elsewhere, fewer than 4 points). *RISE, when not NULL: where
 * that rise starts and ends (0s). */
uint64_t vkb_cache_knee(const double *bytes, const double *ns, int n, vkb_cache_rise *rise);
/* The longest path of a cache file: a longer one is no file (never a shortened one) */
#define VKB_CACHE_PATH_MAX 1024
/* Where the measurement for CAPS's device is kept: $XDG_CACHE_HOME/vkbench/<uuid>.json (else
 * $HOME/.cache/vkbench/...). 0, or -1 when neither variable is an absolute path (a relative XDG_CACHE_HOME is
 * ignored, as the XDG rule says) or the path is longer than VKB_CACHE_PATH_MAX. */
int vkb_cache_path(const vkb_caps *caps, char *path, size_t len);
/* What the file keeps for CAPS's device, read strictly: a regular file (never a FIFO or a link), written by this
 * probe's version for this driver, "cache_bytes" a top-level plain integer from 1 KiB to 64 GiB, or null (the
 * probe found no clear knee: *SIZE 0). 1 with *SIZE, or 0 (*SIZE 0) when there is no such file: measure again. */
int vkb_cache_read(const vkb_caps *caps, uint64_t *size);
/* The size kept for CAPS's device, or 0 when there is none, it is unknown or it cannot be read. */
uint64_t vkb_cache_load(const vkb_caps *caps);
/* Keep SIZE (0: no clear knee, kept as null) and the N points it came from for CAPS's device, with the probe's
 * version and the driver (written whole: a temporary renamed over the file; a link or other non-file at the
 * path is left as it is). 0, or -1 when the file cannot be written (the caller goes on without it). */
int vkb_cache_save(const vkb_caps *caps, uint64_t size, const double *bytes, const double *ns, int n);

/* The last-level cache of VK where neither the driver nor CUDA reported one (caps.cache_bytes 0): kept from an
 * earlier run, else measured now with cache.chase and kept; caps.cache_bytes and cache_measured set from it.
 * VKB_CACHE_PROBE=0 skips it; =refresh measures again (beside CUDA's size too, which then still stands). */
void vkb_cache_measure(vkb_backend *vk);

#endif
