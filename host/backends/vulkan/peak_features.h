/* peak_features.h - the number types of the peak family (fp64, int16, the integer dot product, bf16): what
 * the device has, and the features to enable. */
#ifndef VKB_PEAK_FEATURES_H
#define VKB_PEAK_FEATURES_H

#include "vk.h"

#include "caps.h"

/* Set VKB_NEED_FLOAT64, _INT16, _INT_DOT and _BFLOAT16 in CAPS where PHYS (API version API, extensions EXTS)
 * has them; CORE: its core features, already read. */
void vkb_peak_features_caps(VkPhysicalDevice phys, const VkExtensionProperties *exts, uint32_t next, uint32_t api,
                            const VkPhysicalDeviceFeatures *core, vkb_caps *caps);

/* At device creation: the core features CAPS' bits need into CORE, their structs appended to the pNext
 * chain at *TAIL and their extensions to ENABLE (growing *N); returns the new tail. The structs are static:
 * one device. */
void **vkb_peak_features_enable(const vkb_caps *caps, VkPhysicalDeviceFeatures *core, void **tail, const char **enable,
                                uint32_t *n);

#endif
