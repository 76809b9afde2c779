/* rows.h - the latency family's dispatch rows, declared once: host/families/latency/latency.c builds its variant table
 * from this list and host/families/latency/latency.cu its launch table; host/families/latency/shaders.cmake compiles the shaders named.
 * X(name, shader, param, flags, note): param the host's dispatch mode (latency.c: LAT_*), flags VKB_VAR_*. */
#ifndef VKB_LATENCY_ROWS_H
#define VKB_LATENCY_ROWS_H

#include "latency.h"

#define LATENCY_ROWS(X)                                                                                                \
    X(submit_fence, latency_count, LAT_SUBMIT, 0,                                                                      \
      "one empty dispatch (one invocation adds 1 to a counter) from vkQueueSubmit to its fence (CUDA: launch to "      \
      "cudaStreamSynchronize), host-timed, whatever --n")                                                              \
    X(submit_spin, latency_count, LAT_SUBMIT_SPIN, 0,                                                                  \
      "submit_fence waited the fastest way Vulkan allows: the command buffer recorded once and resubmitted, its "      \
      "fence polled with vkGetFenceStatus in a spin and reset after the clock stops (CUDA: launch to "                 \
      "cudaStreamSynchronize, which spins), host-timed, whatever --n")                                                 \
    X(dispatch, latency_count, LAT_BARRIER, 0,                                                                         \
      "--n dispatches back to back in one command buffer, a full barrier between each (CUDA: --n launches on "         \
      "one stream), GPU timestamps around them: time per dispatch")                                                    \
    X(dispatch_nobarrier, latency_count, LAT_NO_BARRIER, VKB_VAR_VULKAN_ONLY,                                          \
      "--n dispatches back to back with no barrier between them (they may overlap): time per dispatch")

#endif
