/* fault.h - fault injection (VKB_FAULT_INJECT), to prove the checks. */
#ifndef VKB_FAULT_H
#define VKB_FAULT_H

#include <stddef.h>

/* Fault injection, to prove the checks (tests): VKB_FAULT_INJECT=NAME or NAME:VALUE. 1 when the
 * environment names NAME (VALUE, when not NULL, set from the number after the colon, else -1). Names:
 * no-dispatch, skip-pass:K, no-poison, oob-write, oob-write-past, drop-element, second-run-differs, timer-zero,
 * timer-reversed, timer-early, product-element, product-tile, product-nan, low-bit, ... (docs/verification.md). */
int vkb_fault_arg(const char *name, long *value);
#define vkb_fault(name) vkb_fault_arg(name, NULL)
/* The second number of VKB_FAULT_INJECT=NAME:I:N (N), or FALLBACK when there is none. */
long vkb_fault_second(long fallback);
/* VKB_FAULT_INJECT unset, or a fault of the known list (skip-pass:K with K decimal): 0; else -1 with WHY. A new
 * fault goes into fault.c's list, or every run with it is refused. */
int vkb_fault_check(char *why, size_t len);

#endif
