/* rows.h - the cache families' rows, declared once: host/families/cache/cache.c builds each family's variant table
 * from these lists and host/families/cache/cache.cu its launch table; host/families/cache/shaders.cmake compiles the shaders named.
 * X(name, shader, note). */
#ifndef VKB_CACHE_ROWS_H
#define VKB_CACHE_ROWS_H

#include "cache.h"

#define CACHE_CHASE_ROWS(X)                                                                                            \
    X(chase, cache_chase,                                                                                              \
      "one invocation follows a random cycle through the footprint (one element per 64 bytes): ns per "                \
      "dependent load; where it steps up, a cache ends")

#define CACHE_READ_ROWS(X)                                                                                             \
    X(read, cache_read,                                                                                                \
      "every invocation sums uvec4s of the footprint, read over and over (about 256 MiB a run on a GPU): the "         \
      "bandwidth of the level the footprint fits in")

#endif
