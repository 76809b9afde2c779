/* cuda.h - the CUDA backend: the run-time loaded module (libvkbench_cuda.so) beside the executable. */
#ifndef VKB_CUDA_H
#define VKB_CUDA_H

#include <stddef.h>

#include "backend.h"

/* Open the CUDA backend (the run-time loaded module) on the GPU whose UUID matches MATCH, else device 0.
 * Returns NULL and writes WHY when CUDA is not available here. */
vkb_backend *vkb_cuda_open(const vkb_caps *match, char *why, size_t len);

#endif
