/* guard.c - guard bands around device buffers: their words, and the scan that names what was written. */
#include "guard.h"

#include <stdio.h>
#include <string.h>

uint32_t vkb_guard_word(uint32_t n)
{
    return VKB_GUARD_WORD ^ (n * 0x9E3779B8u); /* an even multiplier: the low bit stays 1, never 0 */
}

void vkb_guard_normalize(void *band, uint32_t word)
{
    uint32_t *w = band;
    for (uint32_t i = 0; i < VKB_GUARD_BYTES / 4; i++)
        w[i] ^= word ^ VKB_GUARD_WORD;
}

uint64_t vkb_guard_scan(const uint8_t *before, const uint8_t *after, int index, const char *role, char *msg, size_t len)
{
    uint8_t pattern[4];
    uint32_t word = VKB_GUARD_WORD;
    uint64_t nb = 0, na = 0;
    int64_t b_lo = 0, b_hi = 0, a_lo = 0, a_hi = 0;
    size_t used = 0;
    memcpy(pattern, &word, 4);
    for (uint32_t o = 0; o < VKB_GUARD_BYTES; o++) {
        if (before[o] != pattern[o & 3]) {
            int64_t d = (int64_t)o - VKB_GUARD_BYTES; /* -1 is the byte just before the start */
            if (nb++ == 0)
                b_lo = d;
            b_hi = d;
        }
        if (after[o] != pattern[o & 3]) {
            if (na++ == 0)
                a_lo = o;
            a_hi = o;
        }
    }
    if (len)
        msg[0] = 0;
    if (na)
        used +=
            (size_t)snprintf(msg, len, "wrote %llu byte%s after the end of %s %d, at +%lld..+%lld",
                             (unsigned long long)na, na == 1 ? "" : "s", role, index, (long long)a_lo, (long long)a_hi);
    if (nb && used < len)
        snprintf(msg + used, len - used, "%swrote %llu byte%s before the start of %s %d, at %lld..%lld", na ? "; " : "",
                 (unsigned long long)nb, nb == 1 ? "" : "s", role, index, (long long)b_lo, (long long)b_hi);
    return na + nb;
}
