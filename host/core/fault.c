/* fault.c - fault injection's arguments (VKB_FAULT_INJECT), to prove the checks. */
#include "fault.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vkb_fault_arg(const char *name, long *value)
{
    const char *f = getenv("VKB_FAULT_INJECT");
    size_t len = strlen(name);
    if (!f || strncmp(f, name, len) != 0 || (f[len] && f[len] != ':'))
        return 0;
    if (value)
        *value = f[len] == ':' ? strtol(f + len + 1, NULL, 10) : -1;
    return 1;
}

/* Every fault the tests can plant; ":K" after those that take a number (slow-device:I:K two). */
static const char *const faults[] = {"no-dispatch", "skip-pass:", "no-poison", "oob-write", "drop-element",
                                     "second-run-differs", "timer-zero", "timer-reversed", "timer-early",
                                     "product-element", "product-tile", "product-nan", "stuck-fence",
                                     "signal-early:", "signal-late:", "signal-twice:", "peak-fold", "peak-trips",
                                     "peak-count", "slow-device:", "wrong-device:", "device-lost:", "transfer-byte",
                                     "drop-dispatch", "chase-skip", "slow-api-copy",
                                     "hang:"};

int vkb_fault_check(char *why, size_t len)
{
    const char *f = getenv("VKB_FAULT_INJECT");
    if (!f || !*f)
        return 0;
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++) {
        size_t n = strlen(faults[i]);
        if (faults[i][n - 1] == ':' ? strncmp(f, faults[i], n) == 0 && f[n] && strspn(f + n, "0123456789:") ==
                                          strlen(f + n) && strlen(f + n) < 10
                                    : strcmp(f, faults[i]) == 0)
            return 0;
    }
    snprintf(why, len, "'%.60s' is not a fault the tests plant (docs/verification.md lists them: no-dispatch, "
             "skip-pass:K, oob-write, timer-zero, stuck-fence, ...)", f);
    return -1;
}
