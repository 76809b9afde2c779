/* test_cuda_words.c - why CUDA offers no device, in words (cuda/no_device.h; without an NVIDIA driver
 * `--backend cuda` would say "CUDA driver version is insufficient for CUDA runtime version"). */
#include <string.h>

#include "../../cuda/no_device.h"
#include "unit.h"

static void no_driver(void)
{
    char buf[200];
    const char *insufficient = "CUDA driver version is insufficient for CUDA runtime version";
    ASSERT(strcmp(vkb_cuda_no_device_text(35, 0, 0, 13000, insufficient, buf, sizeof buf),
                  "no NVIDIA driver: libcuda.so.1 was not found (install the NVIDIA driver for CUDA rows)") == 0);
    ASSERT(strcmp(vkb_cuda_no_device_text(35, 0, 12020, 13000, insufficient, buf, sizeof buf),
                  "the NVIDIA driver supports CUDA 12.2, older than this build's runtime 13.0: update the driver") ==
           0);
    ASSERT(strstr(vkb_cuda_no_device_text(100, 0, 13000, 13000, "no CUDA-capable device is detected", buf, sizeof buf),
                  "no NVIDIA GPU") != NULL);
    ASSERT(strstr(vkb_cuda_no_device_text(0, 0, 13000, 13000, "no error", buf, sizeof buf), "no NVIDIA GPU") != NULL);
    ASSERT(strcmp(vkb_cuda_no_device_text(999, 0, 13000, 13000, "unknown error", buf, sizeof buf),
                  "no CUDA device (unknown error)") == 0);
}

UNIT_TESTS({"no_driver", no_driver})
