/* device_limits.h - a plan against a device's limits, checked once for every backend and every family. */
#ifndef VKB_DEVICE_LIMITS_H
#define VKB_DEVICE_LIMITS_H

#include <stddef.h>

#include "caps.h"
#include "plan.h"

/* Check PLAN against CAPS: a VKB_PLAN_* outcome, with WHY unless VKB_PLAN_OK.
 *   VKB_PLAN_SKIP       the device lacks what a kernel's constants ask: a workgroup size, shared memory, a
 *                       uniform buffer that large (the row says `skip: WHY`; another device may run it)
 *   VKB_PLAN_TOO_LARGE  the shape is beyond the device: a buffer past its range, more memory than it has,
 *                       more workgroups than it allows (exit 4: try a smaller size) */
int vkb_plan_check_limits(const vkb_plan *p, const vkb_caps *caps, char *why, size_t len);

#endif
