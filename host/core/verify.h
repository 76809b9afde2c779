/* verify.h - checks of a run beyond its values: guard bands, poison read back, injected faults. */
#ifndef VKB_VERIFY_H
#define VKB_VERIFY_H

#include <stddef.h>

#include "backend.h"
#include "plan.h"

/* The fault that changes the plan (VKB_FAULT_INJECT, check.h): skip-pass:K drops pass K of a plan that
 * has one (a note on stderr names the variant). Call before prepare; a no-op without a fault. (oob-write
 * lives in the backends: they bind the first output 16 bytes late.) */
void vkb_verify_inject(vkb_plan *plan, const char *family, const char *variant);

/* After the outputs were poisoned: read them back; 0 when every word is VKB_POISON, else 1 with WHY.
 * (no-poison: the input's bytes are copied into the outputs first, as a stale upload would leave them;
 * drop-element: the device's copy of the first input loses its middle element.) */
int vkb_verify_poison(vkb_backend *b, vkb_buffer *const *bufs, const vkb_plan *plan, char *why, size_t len);

/* After the checked run: 0 when every buffer's guard bands are intact, else 1 with WHY ("wrote 4 bytes
 * after the end of output 0, at +0..+3"). */
int vkb_verify_guards(vkb_backend *b, vkb_buffer *const *bufs, const vkb_plan *plan, char *why, size_t len);

#endif
