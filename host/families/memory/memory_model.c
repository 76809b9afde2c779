/* memory_model.c - the memory performance guide's rules as numbers: coalesced transfers, shared-memory bank
 * conflicts. */
#include "memory_model.h"

#include <math.h>

uint64_t vkb_memory_model_transfer_bytes(const uint64_t *addr, const int *active, int count, unsigned word)
{
    uint64_t seg = word == 1 ? 32 : word == 2 ? 64 : 128, total = 0;
    int served[VKB_MM_HALF_WARP] = {0};
    if (count > VKB_MM_HALF_WARP)
        count = VKB_MM_HALF_WARP;
    for (;;) {
        uint64_t lo, size = seg;
        int t0 = -1;
        for (int t = 0; t < count && t0 < 0; t++)
            if (active[t] && !served[t])
                t0 = t;
        if (t0 < 0)
            return total;
        lo = addr[t0] / seg * seg;
        for (int t = 0; t < count; t++)
            served[t] |= active[t] && addr[t] >= lo && addr[t] + word <= lo + seg;
        served[t0] = 1;
        while (size > 32) {
            uint64_t half = size / 2;
            int low = 0, high = 0;
            for (int t = 0; t < count; t++) {
                if (!active[t] || addr[t] < lo || addr[t] + word > lo + size)
                    continue;
                low |= addr[t] < lo + half;
                high |= addr[t] + word > lo + half;
            }
            if (low && high)
                break;
            lo += high ? half : 0;
            size = half;
        }
        total += size;
    }
}

double vkb_memory_model_efficiency(vkb_memory_model_access access, const void *ctx, int half_warps)
{
    double useful = 0, moved = 0;
    for (int j = 0;; j++) {
        uint64_t addr[VKB_MM_HALF_WARP];
        int active[VKB_MM_HALF_WARP], more = 0;
        unsigned word = 4;
        for (int h = 0; h < half_warps; h++) {
            for (int t = 0; t < VKB_MM_HALF_WARP; t++)
                more = access(ctx, j, (uint64_t)h * VKB_MM_HALF_WARP + (uint64_t)t, &word, &addr[t], &active[t]);
            if (!more)
                break;
            moved += (double)vkb_memory_model_transfer_bytes(addr, active, VKB_MM_HALF_WARP, word);
            for (int t = 0; t < VKB_MM_HALF_WARP; t++)
                useful += active[t] ? word : 0;
        }
        if (!more)
            break;
    }
    return moved > 0 ? useful / moved : NAN;
}

unsigned vkb_memory_model_shared_degree(uint32_t mul, uint32_t mod, unsigned lanes)
{
    unsigned worst = 1;
    if (lanes > 32)
        lanes = 32;
    for (unsigned bank = 0; bank < VKB_MM_BANKS; bank++) {
        uint32_t words[32];
        unsigned distinct = 0;
        for (unsigned t = 0; t < lanes; t++) {
            uint32_t w = ((t % mod) * mul) & 1023u, seen = 0;
            if (w % VKB_MM_BANKS != bank)
                continue;
            for (unsigned d = 0; d < distinct; d++)
                seen |= words[d] == w;
            if (!seen)
                words[distinct++] = w;
        }
        worst = distinct > worst ? distinct : worst;
    }
    return worst;
}
