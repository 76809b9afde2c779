/* verify.h - checks of a run beyond its values: guard bands, poison read back, injected faults. */
#ifndef VKB_VERIFY_H
#define VKB_VERIFY_H

#include <stddef.h>

#include "backend.h"
#include "plan.h"

/* The fault that changes the plan (VKB_FAULT_INJECT, fault.h): skip-pass:K drops pass K of a plan that
 * has one (a note on stderr names the variant). Call before prepare; a no-op without a fault. (oob-write
 * lives in the backends: they bind the first output 16 bytes late.) */
void vkb_verify_inject(vkb_plan *plan, const char *family, const char *variant);

/* After the outputs were poisoned: 0 when every word is VKB_POISON, else 1 with WHY; compared on the device
 * where the backend can and ON_DEVICE is set, else read back (above 256 MiB: every 997th word and the ends).
 * (no-poison: the input's bytes are copied into the outputs first, as a stale upload would leave them;
 * drop-element: the device's copy of the first input loses its middle element.) */
int vkb_verify_poison(vkb_backend *b, vkb_buffer *const *bufs, const vkb_plan *plan, int on_device, char *why,
                      size_t len);

/* VKB_FAULT_INJECT=low-bit: after the checked run's read-back, the lowest bit of the middle value of the first
 * output flipped in the host's copy (the value at a multiple of 8 bytes: bit 0 of a 1-, 2-, 4- or 8-byte element,
 * little-endian), as a check comparing too few bytes or bits of each value would miss it. A no-op without it. */
void vkb_verify_low_bit(const vkb_plan *plan, const char *family, const char *variant);

/* After the checked run: 0 when every buffer's guard bands are intact, else 1 with WHY ("wrote 4 bytes
 * after the end of output 0, at +0..+3"). */
int vkb_verify_guards(vkb_backend *b, vkb_buffer *const *bufs, const vkb_plan *plan, char *why, size_t len);

/* Device copies of PLAN's outputs in BUFS, into KEPT (VKB_MAX_BUFFERS entries, NULL but at outputs), for
 * vkb_verify_same to compare a later run with on the device. 0 (KEPT all NULL) when the backend cannot copy
 * and compare, the outputs are small (below a MiB: a read-back is cheaper), or the copies would crowd the
 * device's memory: vkb_verify_same then reads the outputs back. */
int vkb_verify_keep(vkb_backend *b, vkb_buffer *const *bufs, const vkb_plan *plan, vkb_buffer **kept);
void vkb_verify_release(vkb_backend *b, vkb_buffer **kept);

/* 1 when every output in BUFS has the bits of the earlier run: compared on the device with KEPT (may be NULL)
 * where there are copies, else read back into SCRATCH (as large as the largest output) and compared with the
 * plan's host copies (the earlier run's). Else 0 with WHY naming the first differing word: "output 0 [12]:
 * 0x3f800001, 0x3f800000 before (1 word differs)"; with device copies only a difference is read back (a
 * difference the device sees and the read-back does not fails too). (second-run-differs:
 * one bit of the output is flipped on the device first.) */
int vkb_verify_same(vkb_backend *b, vkb_buffer *const *bufs, const vkb_plan *plan, vkb_buffer *const *kept,
                    void *scratch, char *why, size_t len);

#endif
