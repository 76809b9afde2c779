/* coopmat.h - cooperative matrices (VK_KHR_cooperative_matrix, VK_NV_cooperative_matrix2): what the device
 * reports, and the features to enable. */
#ifndef VKB_COOPMAT_H
#define VKB_COOPMAT_H

#include "vk.h"

/* Fill CAPS' cooperative-matrix sizes and set VKB_NEED_COOPMAT_KHR / VKB_NEED_COOPMAT2 where PHYS has the
 * extension, its features and a fragment of fp16 inputs; BASE_OK: the device has what every cooperative-
 * matrix shader also needs (float16, 16-bit storage, the Vulkan memory model). */
void vkb_coopmat_caps(VkPhysicalDevice phys, const VkExtensionProperties *exts, uint32_t next, int base_ok,
                      vkb_caps *caps);

/* At device creation: append the extensions CAPS' coopmat bits need to ENABLE (growing *N) and their
 * feature structs to the pNext chain at *TAIL; returns the new tail. The structs are static: one device. */
void **vkb_coopmat_enable(const vkb_caps *caps, void **tail, const char **enable, uint32_t *n);

#endif
