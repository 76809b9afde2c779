/* devices_view.h - `vkbench devices`: what a device reports, in words. */
#ifndef VKB_DEVICES_VIEW_H
#define VKB_DEVICES_VIEW_H

#include <stdint.h>
#include <stdio.h>

#include "caps.h"

/* Device I's block: identity, limits, features, cooperative-matrix types; LLC the last-level cache the cache
 * probe measured (0: not yet) and CACHE_PATH the file it is kept in. */
void vkb_devices_view(FILE *f, int i, const vkb_caps *c, uint64_t llc, const char *cache_path);

#endif
