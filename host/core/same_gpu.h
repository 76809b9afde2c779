/* same_gpu.h - one GPU the Vulkan loader lists more than once (two manifests of one driver, in /etc/vulkan/icd.d
 * and /usr/share/vulkan/icd.d, or a driver and its layer-wrapped twin) is one GPU: which listings are the same GPU,
 * told from what each reports of its identity. */
#ifndef VKB_SAME_GPU_H
#define VKB_SAME_GPU_H

#include <stddef.h>

#include "caps.h"

/* Whether A and B are one GPU. Never where either is a CPU implementation: lavapipe's UUID is its driver's
 * version ("mesa22.3.6"), the same on every listing, and each listing is a software device of its own. Where both
 * report a PCI address, when those are equal (a UUID is left aside: the address is where the GPU is). Else when
 * their UUIDs are equal and not all zero (a driver that reports none). */
int vkb_same_gpu(const vkb_caps *a, const vkb_caps *b);
/* How many GPUs CAPS[0..N-1] are; FIRST[i] (FIRST may be NULL): the index of the first listing of i's GPU, i itself
 * where it is the first. */
int vkb_same_gpu_count(const vkb_caps *caps, int n, int *first);
/* Append to BUF (LEN bytes, NUL-terminated, ", " after what it holds) that device AGAIN is device FIRST listed
 * again, with what tells them one: "device 1 is device 0 (pci 0000:65:00.0)", or "(uuid ...)" without both PCI
 * addresses. */
void vkb_same_gpu_say(const vkb_caps *caps, int again, int first, char *buf, size_t len);
/* One warning line naming the listings AGAIN holds (vkb_same_gpu_say's text) and that each GPU runs once, as its
 * first listing; nothing when AGAIN is "". */
void vkb_same_gpu_warn(const char *again);

#endif
