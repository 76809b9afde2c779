/* guard.h - guard bands around device buffers: their words, and the scan that names what was written. */
#ifndef VKB_GUARD_H
#define VKB_GUARD_H

#include <stddef.h>
#include <stdint.h>

/* Guard bands around device buffers: VKB_GUARD_BYTES of VKB_GUARD_WORD before and after each buffer's
 * range (after: from the 4-byte-rounded end). */
#define VKB_GUARD_BYTES 4096u
#define VKB_GUARD_WORD 0x6A09E667u
/* The guard word of the N-th buffer a backend creates (VKB_GUARD_WORD for N = 0): buffers differ, so a
 * kernel copying one buffer's band into another's is seen. */
uint32_t vkb_guard_word(uint32_t n);
/* Translate a band of VKB_GUARD_BYTES filled with WORD into one filled with VKB_GUARD_WORD (bytes that
 * differ keep differing). */
void vkb_guard_normalize(void *band, uint32_t word);
/* Scan the guard bytes BEFORE and AFTER (VKB_GUARD_BYTES each) of buffer INDEX (ROLE "output", "input",
 * "scratch"); returns how many bytes differ from the pattern, and when any, writes to MSG e.g.
 * "wrote 4 bytes after the end of output 0, at +0..+3". */
uint64_t vkb_guard_scan(const uint8_t *before, const uint8_t *after, int index, const char *role, char *msg,
                        size_t len);

#endif
