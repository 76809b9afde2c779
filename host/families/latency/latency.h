/* latency.h - the latency family's declarations, included by the host (host/families/latency/latency.c), the shader and
 * the CUDA twin: what the counter kernel adds. */
#ifndef VKB_LATENCY_H
#define VKB_LATENCY_H

/* each dispatch adds 1 to word 0 of its buffer, so N dispatches leave it N above where it started */
#define LATENCY_INCREMENT 1u

#endif
