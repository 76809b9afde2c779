/* test_memory_model.c - the memory performance guide's rules as numbers (host/families/memory/memory_model.c):
 * transfers of known half-warp patterns, the efficiency of whole kernels, shared-memory conflict degrees. */
#include <math.h>

#include "memory/memory_model.h"
#include "unit.h"

/* Bytes one half-warp moves when thread t reads WORD bytes at BASE + t * STEP. */
static uint64_t half_warp(uint64_t base, uint64_t step, unsigned word)
{
    uint64_t addr[16];
    int active[16];
    for (int t = 0; t < 16; t++) {
        addr[t] = base + (uint64_t)t * step;
        active[t] = 1;
    }
    return vkb_memory_model_transfer_bytes(addr, active, 16, word);
}

static void transfers(void)
{
    uint64_t addr[16] = {0};
    int active[16] = {0};
    ASSERT(half_warp(0, 4, 4) == 64);        /* 16 aligned floats: the 128 B segment halves to 64 */
    ASSERT(half_warp(4, 4, 4) == 128);       /* one float off: both halves of the segment */
    ASSERT(half_warp(8, 8, 8) == 128 + 32);  /* 8-byte words from byte 8: 8..136 spills past 128 */
    ASSERT(half_warp(0, 8, 8) == 128);       /* 16 aligned 8-byte words: one whole segment */
    ASSERT(half_warp(0, 16, 16) == 256);     /* 16-byte words: two segments */
    ASSERT(half_warp(0, 8, 4) == 128);       /* every other float: all of a 128 B segment for 64 useful */
    ASSERT(half_warp(0, 128, 4) == 16 * 32); /* one float per segment: 32 B each, the smallest transfer */
    ASSERT(half_warp(0, 0, 4) == 32);        /* every thread the same word: one 32 B transfer */
    ASSERT(vkb_memory_model_transfer_bytes(addr, active, 16, 4) == 0); /* nobody reads: nothing moves */
    active[5] = 1;
    addr[5] = 200;
    ASSERT(vkb_memory_model_transfer_bytes(addr, active, 16, 4) == 32);
}

/* Thread i reads float i * STRIDE and writes float i: a strided copy. */
static int strided(const void *ctx, int j, uint64_t i, unsigned *word, uint64_t *addr, int *active)
{
    uint64_t stride = *(const uint64_t *)ctx;
    *word = 4;
    *addr = 4 * i * (j == 0 ? stride : 1);
    *active = 1;
    return j < 2;
}

static void efficiency(void)
{
    uint64_t s1 = 1, s2 = 2, s32 = 32;
    ASSERT(fabs(vkb_memory_model_efficiency(strided, &s1, 64) - 1.0) < 1e-12);
    /* the load moves twice the bytes it uses, the store none extra: 128 useful of 64 + 128 moved */
    ASSERT(fabs(vkb_memory_model_efficiency(strided, &s2, 64) - 128.0 / 192.0) < 1e-12);
    /* stride 32 floats: a 32 B transfer per 4 useful bytes on the load side */
    ASSERT(fabs(vkb_memory_model_efficiency(strided, &s32, 64) - 128.0 / (16 * 32 + 64)) < 1e-12);
}

static void shared_degrees(void)
{
    ASSERT(vkb_memory_model_shared_degree(1, 0x7fffffff, 32) == 1);   /* consecutive words: conflict-free */
    ASSERT(vkb_memory_model_shared_degree(2, 0x7fffffff, 32) == 2);   /* gcd(2, 32) */
    ASSERT(vkb_memory_model_shared_degree(3, 0x7fffffff, 32) == 1);   /* odd strides are conflict-free */
    ASSERT(vkb_memory_model_shared_degree(32, 0x7fffffff, 32) == 32); /* one bank for all */
    ASSERT(vkb_memory_model_shared_degree(33, 0x7fffffff, 32) == 1);
    ASSERT(vkb_memory_model_shared_degree(0, 1, 32) == 1);            /* one word broadcast */
    ASSERT(vkb_memory_model_shared_degree(32, 4, 32) == 4);           /* 4 words in one bank */
    ASSERT(vkb_memory_model_shared_degree(32, 0x7fffffff, 8) == 8);   /* an 8-wide subgroup meets 8 of them */
    ASSERT(vkb_memory_model_shared_degree(16, 0x7fffffff, 64) == 16); /* lanes past 32 count as 32 */
}

UNIT_TESTS({"transfers", transfers}, {"efficiency", efficiency}, {"shared_degrees", shared_degrees})
