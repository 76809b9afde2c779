/* vulkan.h - the Vulkan backend: open a device, list the devices, the validation layer's count. */
#ifndef VKB_VULKAN_H
#define VKB_VULKAN_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"

/* Open the Vulkan backend on the device chosen by SELECT (index, name substring, or NULL for the
 * default). VALIDATION enables VK_LAYER_KHRONOS_validation (2 adds synchronization validation).
 * ROBUSTNESS_OFF (--robustness disabled): every pipeline, the runner's own too, without the driver's buffer
 * bounds checks (VK_EXT_pipeline_robustness). NULL when it cannot, ERROR saying why in one line: no loader, driver or
 * device (VKB_EXIT_NO_DEVICE), --robustness disabled where the device lacks it (VKB_EXIT_RESOURCE). */
vkb_backend *vkb_vulkan_open(const char *select, int validation, int robustness_off, vkb_backend_error *error);
/* Several devices open at once (--device LIST): call before the first vkb_vulkan_open; each device's functions
 * then go through the loader's dispatch instead of pointers into one driver. */
void vkb_vulkan_several(void);
/* Messages the validation layer has reported so far (each was also printed on stderr). */
unsigned vkb_vulkan_validation_messages(void);
/* --subgroup-size SIZE: every pipeline built from now on requires it, and caps.subgroup_size says it (families
 * plan with it). Returns 0, or 1 with WHY when the device cannot give it (no size control, compute not among
 * the stages it controls, SIZE outside its range). */
int vkb_vulkan_require_subgroup_size(vkb_backend *b, uint32_t size, char *why, size_t len);
/* What the Vulkan devices report, in `vkbench devices` order, into OUT (MAX at most); returns how many there
 * are, or -1 with ERROR saying why as vkb_vulkan_open's when there is no loader, driver or device. */
int vkb_vulkan_devices(vkb_caps *out, int max, vkb_backend_error *error);

#endif
