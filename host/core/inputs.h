/* inputs.h - seeded inputs generated in fixed chunks on the host's cores: the same values on any number of
 * threads. */
#ifndef VKB_INPUTS_H
#define VKB_INPUTS_H

#include <stdint.h>

#include "util.h"

/* Elements per chunk: a constant, never derived from the thread count, so that the chunks (and any
 * per-chunk result) are the same on every host. */
#define VKB_INPUT_CHUNK (1u << 16)

/* Fill elements [FIRST, END) of chunk CHUNK from RNG, which stands where one generator running over every
 * element from the start would stand at FIRST. Writes only those elements and CHUNK's own result slots. */
typedef void (*vkb_fill_fn)(void *ctx, vkb_rng *rng, uint64_t chunk, uint64_t first, uint64_t end);

/* Chunks of N elements (the last one partial): the size of a per-chunk result array. */
uint64_t vkb_input_chunks(uint64_t n);

/* Fill N elements of DRAWS generator draws each, starting from START, on vkb_threads() threads: FN runs
 * once per chunk, in any order, each chunk's generator moved ahead to its first element (splitmix64 jumps
 * by one addition). The values are those of one loop over all elements, whatever the thread count; a
 * chunk that draws more than DRAWS per element (a rejection) only overlaps its successor's stream. */
void vkb_input_fill(const vkb_rng *start, uint64_t n, unsigned draws, vkb_fill_fn fn, void *ctx);

#endif
