/* verify.c - guard bands, poison read back and the plan faults that prove them (docs/verification.md). */
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "guard.h"
#include "util.h"

#define POISON_FULL_BYTES (256ull << 20) /* read back, larger outputs: every 997th word and both ends */
/* device copies for a later comparison only while the case leaves this much of the device's memory free */
#define KEEP_MEMORY_FRACTION 0.5
/* ... and of outputs this large: below, reading back costs less than a device copy (a buffer, its guard
 * fill, the copy, a dispatch): the lavapipe suite's determinism checks took 0.32 s that way against 0.02 s */
#define KEEP_MIN_BYTES (1ull << 20)

static const char *role_name(vkb_buffer_role role)
{
    return role == VKB_BUF_INPUT ? "input" : role == VKB_BUF_OUTPUT ? "output" : "scratch";
}

/* Ordinal of buffer I among the plan's buffers of its role ("output 0" is the first output). */
static int role_index(const vkb_plan *plan, int i)
{
    int k = 0;
    for (int q = 0; q < i; q++)
        k += plan->buf[q].role == plan->buf[i].role;
    return k;
}

void vkb_verify_inject(vkb_plan *plan, const char *family, const char *variant)
{
    long k;
    if (vkb_fault_arg("skip-pass", &k) && k >= 0 && k < plan->npass) {
        fprintf(stderr, "vkbench: fault injected: %s/%s runs without pass %ld of %d\n", family, variant, k,
                plan->npass);
        memmove(&plan->pass[k], &plan->pass[k + 1], (size_t)(plan->npass - k - 1) * sizeof plan->pass[0]);
        plan->npass--;
    }
    /* drop-dispatch: the first repeated pass runs one time fewer, as a dropped dispatch would leave it */
    for (int i = 0; i < plan->npass && vkb_fault("drop-dispatch"); i++)
        if (plan->pass[i].kind == VKB_PASS_DISPATCH && plan->pass[i].repeat > 1) {
            fprintf(stderr, "vkbench: fault injected: %s/%s drops one of %u dispatches\n", family, variant,
                    plan->pass[i].repeat);
            plan->pass[i].repeat--;
            break;
        }
}

void vkb_verify_low_bit(const vkb_plan *plan, const char *family, const char *variant)
{
    for (int i = 0; i < plan->nbuf && vkb_fault("low-bit"); i++)
        if (plan->buf[i].role == VKB_BUF_OUTPUT && plan->buf[i].host && plan->buf[i].bytes) {
            uint64_t at = plan->buf[i].bytes / 16 * 8; /* the middle, 8-byte aligned: any element's lowest byte */
            ((uint8_t *)plan->buf[i].host)[at] ^= 1u;
            fprintf(stderr, "vkbench: fault injected: %s/%s: bit 0 of output byte %llu flipped\n", family, variant,
                    (unsigned long long)at);
            return;
        }
}

int vkb_verify_poison(vkb_backend *b, vkb_buffer *const *bufs, const vkb_plan *plan, int on_device, char *why,
                      size_t len)
{
    int input = -1;
    for (int i = 0; i < plan->nbuf && input < 0; i++)
        if (plan->buf[i].role == VKB_BUF_INPUT)
            input = i;
    if (vkb_fault("drop-element") && input >= 0) {
        /* the device's copy of the input loses its middle element (0 in its place): as a kernel that
         * skips one element would see it */
        uint64_t bytes = plan->buf[input].bytes, mid = bytes / 8 * 4;
        uint8_t *copy = vkb_alloc(bytes);
        memcpy(copy, plan->buf[input].host, bytes);
        memset(copy + mid, 0, 4);
        b->upload(b, bufs[input], copy, bytes);
        free(copy);
    }
    for (int i = 0; i < plan->nbuf; i++) {
        uint64_t words = plan->buf[i].bytes / 4, step = plan->buf[i].bytes > POISON_FULL_BYTES ? 997 : 1, w = 0;
        int64_t differing = -1;
        uint32_t *back;
        if (plan->buf[i].role != VKB_BUF_OUTPUT)
            continue;
        if (vkb_fault("no-poison") && input >= 0) {
            uint64_t n = plan->buf[input].bytes < plan->buf[i].bytes ? plan->buf[input].bytes : plan->buf[i].bytes;
            b->upload(b, bufs[i], plan->buf[input].host, n);
        } else if (vkb_fault("no-poison")) { /* no input (a counter): zeros, as a fresh buffer would hold */
            void *zeros = vkb_calloc(1, plan->buf[i].bytes);
            b->upload(b, bufs[i], zeros, plan->buf[i].bytes);
            free(zeros);
        }
        /* on the device every word, and a read-back only to name the first that is not poison */
        if (on_device && b->compare && (differing = b->compare(b, bufs[i], NULL, VKB_POISON, words * 4, &w)) == 0)
            continue;
        back = vkb_alloc(plan->buf[i].bytes + 4);
        b->download(b, bufs[i], back, plan->buf[i].bytes);
        if (differing > 0)
            step = 1;
        for (w = differing > 0 ? w : 0; w < words; w += (w < 4096 || w + 4096 >= words) ? 1 : step)
            if (back[w] != VKB_POISON) {
                snprintf(why, len, "output %d not poisoned before the run: word %llu is 0x%08x, not 0x%08x",
                         role_index(plan, i), (unsigned long long)w, back[w], VKB_POISON);
                free(back);
                return 1;
            }
        free(back);
        if (differing > 0) { /* the device saw what the read-back does not show: neither can be trusted */
            snprintf(why, len,
                     "output %d: the device found %lld words not poisoned before the run, the read-back "
                     "none",
                     role_index(plan, i), (long long)differing);
            return 1;
        }
    }
    return 0;
}

int vkb_verify_guards(vkb_backend *b, vkb_buffer *const *bufs, const vkb_plan *plan, char *why, size_t len)
{
    uint8_t before[VKB_GUARD_BYTES], after[VKB_GUARD_BYTES];
    if (!b->guards)
        return 0;
    for (int i = 0; i < plan->nbuf; i++) {
        b->guards(b, bufs[i], before, after);
        if (vkb_guard_scan(before, after, role_index(plan, i), role_name(plan->buf[i].role), why, len))
            return 1;
    }
    return 0;
}

/* Total bytes of PLAN's outputs. */
static uint64_t output_bytes(const vkb_plan *plan)
{
    uint64_t sum = 0;
    for (int i = 0; i < plan->nbuf; i++)
        if (plan->buf[i].role == VKB_BUF_OUTPUT)
            sum += plan->buf[i].bytes;
    return sum;
}

int vkb_verify_keep(vkb_backend *b, vkb_buffer *const *bufs, const vkb_plan *plan, vkb_buffer **kept)
{
    uint64_t memory = b->caps.device_memory_bytes;
    memset(kept, 0, VKB_MAX_BUFFERS * sizeof *kept);
    if (!b->copy || !b->compare || output_bytes(plan) < KEEP_MIN_BYTES ||
        (memory && vkb_plan_bytes(plan) + output_bytes(plan) > KEEP_MEMORY_FRACTION * (double)memory))
        return 0;
    for (int i = 0; i < plan->nbuf; i++)
        if (plan->buf[i].role == VKB_BUF_OUTPUT) {
            kept[i] = b->buffer_create(b, plan->buf[i].bytes, plan->buf[i].flags);
            if (!kept[i]) { /* no room for a copy: read back instead */
                vkb_verify_release(b, kept);
                return 0;
            }
            b->copy(b, bufs[i], kept[i], plan->buf[i].bytes);
        }
    return 1;
}

void vkb_verify_release(vkb_backend *b, vkb_buffer **kept)
{
    for (int i = 0; i < VKB_MAX_BUFFERS; i++)
        if (kept[i]) {
            b->buffer_destroy(b, kept[i]);
            kept[i] = NULL;
        }
}

/* Name in WHY the first word of the NWORDS at AGAIN that differs from those at BEFORE (output K). */
static void name_difference(const uint32_t *again, const uint32_t *before, uint64_t nwords, int k, uint64_t differing,
                            char *why, size_t len)
{
    uint64_t w = 0;
    while (w < nwords && again[w] == before[w])
        w++;
    if (w < nwords)
        snprintf(why, len, "output %d [%llu]: 0x%08x, 0x%08x before (%llu %s)", k, (unsigned long long)w, again[w],
                 before[w], (unsigned long long)differing, differing == 1 ? "word differs" : "words differ");
}

int vkb_verify_same(vkb_backend *b, vkb_buffer *const *bufs, const vkb_plan *plan, vkb_buffer *const *kept,
                    void *scratch, char *why, size_t len)
{
    for (int i = 0; i < plan->nbuf; i++) {
        uint64_t bytes = plan->buf[i].bytes, nwords = bytes / 4, first, differing = 0;
        if (plan->buf[i].role != VKB_BUF_OUTPUT)
            continue;
        if (vkb_fault("second-run-differs")) {
            /* one bit of the second run differs (tests): flipped where the run left it, on the device */
            b->download(b, bufs[i], scratch, bytes);
            ((unsigned char *)scratch)[bytes / 2] ^= 1;
            b->upload(b, bufs[i], scratch, bytes);
        }
        int64_t on_device = -1;
        if (kept && kept[i] && (on_device = b->compare(b, bufs[i], kept[i], 0, bytes, &first)) == 0)
            continue;
        /* differing, or no device copy: read back, and compare with the checked run's host copy */
        b->download(b, bufs[i], scratch, bytes);
        if (memcmp(scratch, plan->buf[i].host, bytes) == 0) {
            if (on_device > 0 && first < nwords) { /* a whole word the device saw differ, equal when read back */
                snprintf(why, len, "output %d: the device compare and the read-back disagree at word %llu",
                         role_index(plan, i), (unsigned long long)first);
                return 0;
            }
            continue;
        }
        for (uint64_t w = 0; w < nwords; w++)
            differing += ((const uint32_t *)scratch)[w] != ((const uint32_t *)plan->buf[i].host)[w];
        snprintf(why, len, "output %d differs in its last bytes", role_index(plan, i));
        name_difference(scratch, plan->buf[i].host, nwords, role_index(plan, i), differing, why, len);
        return 0;
    }
    return 1;
}
