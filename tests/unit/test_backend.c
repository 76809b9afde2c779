/* test_backend.c - a backend's error record: the first error of a device is the one kept, and a stop signal is told
 * apart from a device failure. */
#include <signal.h>
#include <string.h>

#include "backend.h"
#include "unit.h"

/* Two errors on one device: the first explains the rest, so its code and message stay; the second is dropped. */
static void first_error_kept(void)
{
    vkb_backend_error e;
    memset(&e, 0, sizeof e);
    ASSERT(vkb_backend_fail(&e, 4, "vkAllocateMemory: VK_ERROR_OUT_OF_DEVICE_MEMORY (%d MiB)", 64) == -1);
    ASSERT(vkb_backend_fail(&e, 5, "vkQueueSubmit: VK_ERROR_DEVICE_LOST") == -1);
    ASSERT(e.code == 4 && !e.stopped);
    ASSERT(strcmp(e.message, "vkAllocateMemory: VK_ERROR_OUT_OF_DEVICE_MEMORY (64 MiB)") == 0);
    /* a stop signal after the failure does not turn the failure into a stop */
    ASSERT(vkb_backend_stopped(&e, SIGTERM, "waiting for the device") == -1);
    ASSERT(e.code == 4 && !e.stopped && strstr(e.message, "OUT_OF_DEVICE_MEMORY") != NULL);
}

/* A stop: its own code (128 + the signal) and flag, and a failure after it changes neither. */
static void stop_told_apart(void)
{
    vkb_backend_error e;
    memset(&e, 0, sizeof e);
    ASSERT(vkb_backend_stopped(&e, SIGINT, "running copy/vec4") == -1);
    ASSERT(e.code == 128 + SIGINT && e.stopped == 1);
    ASSERT(strcmp(e.message, "stopped by SIGINT while running copy/vec4") == 0);
    ASSERT(vkb_backend_fail(&e, 5, "vkWaitForFences: VK_ERROR_DEVICE_LOST") == -1);
    ASSERT(vkb_backend_stopped(&e, SIGTERM, "again") == -1);
    ASSERT(e.code == 128 + SIGINT && e.stopped == 1 && strstr(e.message, "SIGINT") != NULL);
    /* a failure alone is never a stop */
    memset(&e, 0, sizeof e);
    ASSERT(vkb_backend_fail(&e, 5, "vkQueueSubmit: VK_ERROR_DEVICE_LOST") == -1);
    ASSERT(e.code == 5 && e.stopped == 0);
}

UNIT_TESTS({"first_error_kept", first_error_kept}, {"stop_told_apart", stop_told_apart})
