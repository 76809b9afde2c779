/* devices_view.h - `vkbench devices`: what a device reports, in words. */
#ifndef VKB_DEVICES_VIEW_H
#define VKB_DEVICES_VIEW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "caps.h"

/* Device I's block: identity, limits, features, cooperative-matrix types; LLC the last-level cache the cache
 * probe measured (0: not yet) and CACHE_PATH the file it is kept in. */
/* VkComponentTypeKHR and VkScopeKHR codes in words ("fp16", "bf16", "fp8 e4m3"; "subgroup"), NULL if unknown. */
const char *vkb_component_type_name(uint32_t type);
const char *vkb_scope_name(uint32_t scope);

/* One cooperative-matrix combination in words: "fp16 x fp16 -> fp32, 16x16x16, subgroup" (the accumulator
 * named, "+ fp16", where it differs from the result; "type N" for a code this build does not know). */
void vkb_coopmat_type_text(const vkb_coopmat_type *t, char *out, size_t size);

void vkb_devices_view(FILE *f, int i, const vkb_caps *c, uint64_t llc, const char *cache_path);

#endif
