/* no_device.h - why CUDA offers no device, in words a user can act on (without an NVIDIA driver the
 * static runtime says "CUDA driver version is insufficient for CUDA runtime version"). Plain C, so that the unit
 * tests (tests/unit/test_cuda_words.c) check it without a GPU. */
#ifndef VKB_CUDA_NO_DEVICE_H
#define VKB_CUDA_NO_DEVICE_H

#include <stdio.h>

enum { VKB_CUDA_ERR_INSUFFICIENT_DRIVER = 35, VKB_CUDA_ERR_NO_DEVICE = 100 }; /* cudaError_t values */

/* ERR: cudaGetDeviceCount's error (0: none, then COUNT devices); DRIVER: cudaDriverGetVersion's (0: no driver
 * library at all); RUNTIME: cudaRuntimeGetVersion's; TEXT: cudaGetErrorString(ERR). */
static inline const char *vkb_cuda_no_device_text(int err, int count, int driver, int runtime, const char *text,
                                                  char *buf, size_t len)
{
    if (err == VKB_CUDA_ERR_INSUFFICIENT_DRIVER && driver == 0)
        snprintf(buf, len, "no NVIDIA driver: libcuda.so.1 was not found (install the NVIDIA driver for CUDA rows)");
    else if (err == VKB_CUDA_ERR_INSUFFICIENT_DRIVER)
        snprintf(buf, len,
                 "the NVIDIA driver supports CUDA %d.%d, older than this build's runtime %d.%d: update "
                 "the driver",
                 driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
    else if (err == VKB_CUDA_ERR_NO_DEVICE || (err == 0 && count == 0))
        snprintf(buf, len, "no NVIDIA GPU: the NVIDIA driver is installed but finds no GPU");
    else
        snprintf(buf, len, "no CUDA device (%s)", text ? text : "unknown error");
    return buf;
}

#endif
