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

long vkb_fault_second(long fallback)
{
    const char *f = getenv("VKB_FAULT_INJECT"), *first = f ? strchr(f, ':') : NULL;
    const char *second = first ? strchr(first + 1, ':') : NULL;
    return second ? strtol(second + 1, NULL, 10) : fallback;
}

/* Every fault the tests can plant, with the numbers it takes after ':' (none: nfields 0) and their ranges: a
 * number past its range (signal 0, a repetition factor of 1) or an extra field plants nothing, so it is refused
 * rather than ignored. */
static const struct fault_spec {
    const char *name;
    int nfields, optional; /* how many numbers; the last one may be left out */
    long lo[2], hi[2];
} faults[] = {
    {"no-dispatch"},
    {"no-poison"},
    {"oob-write"},
    {"oob-write-past"},
    {"drop-element"},
    {"second-run-differs"},
    {"timer-zero"},
    {"timer-reversed"},
    {"timer-early"},
    {"product-element"},
    {"product-tile"},
    {"product-nan"},
    {"stuck-fence"},
    {"peak-fold"},
    {"peak-trips"},
    {"peak-count"},
    {"transfer-byte"},
    {"drop-dispatch"},
    {"chase-skip"},
    {"low-bit"},
    {"skip-pass", 1, 0, {0}, {63}},
    {"signal-early", 1, 0, {1}, {31}},
    {"signal-late", 1, 0, {1}, {31}},
    {"signal-twice", 1, 0, {1}, {31}},
    {"slow-device", 2, 1, {0, 2}, {63, 16}}, /* device I, K times the work (default 2) */
    {"slower", 2, 0, {0, 1}, {63, 1000}},    /* device I, PCT percent more time */
    {"wrong-device", 1, 0, {0}, {63}},
    {"device-lost", 1, 0, {0}, {63}},
    {"hang", 1, 0, {0}, {63}},
    {"slow-api-copy"},
    {"warm-climb"},
    {"warm-fall"},
    {"chase-curve", 1, 0, {1}, {5}},
};

/* Whether the numbers after NAME (ARGS: "", or ":3", ":0:4") are what SPEC takes. */
static int fault_args_ok(const struct fault_spec *spec, const char *args)
{
    int n = 0;
    while (*args) {
        size_t digits;
        long v;
        if (*args != ':' || n == spec->nfields)
            return 0;
        digits = strspn(++args, "0123456789");
        if (digits == 0 || digits > 9)
            return 0;
        v = strtol(args, NULL, 10);
        if (v < spec->lo[n] || v > spec->hi[n])
            return 0;
        args += digits;
        n++;
    }
    return n == spec->nfields || (spec->optional && n == spec->nfields - 1);
}

int vkb_fault_check(char *why, size_t len)
{
    const char *f = getenv("VKB_FAULT_INJECT");
    if (!f || !*f)
        return 0;
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++) {
        size_t n = strlen(faults[i].name);
        if (strncmp(f, faults[i].name, n) == 0 && (!f[n] || f[n] == ':')) {
            if (fault_args_ok(&faults[i], f + n))
                return 0;
            if (faults[i].nfields == 2)
                snprintf(why, len, "'%.60s': %s takes %s':I:N' (a device index, N %ld to %ld)", f, faults[i].name,
                         faults[i].optional ? "':I' or " : "", faults[i].lo[1], faults[i].hi[1]);
            else
                snprintf(why, len, "'%.60s': %s takes %s", f, faults[i].name,
                         faults[i].nfields == 0 ? "no number"
                         : faults[i].lo[0] == 1 ? "':SIG', a signal number 1 to 31"
                                                : "':K', a number 0 to 63");
            return -1;
        }
    }
    snprintf(why, len,
             "'%.60s' is not a fault the tests plant (docs/verification.md lists them: no-dispatch, "
             "skip-pass:K, oob-write, timer-zero, stuck-fence, ...)",
             f);
    return -1;
}
