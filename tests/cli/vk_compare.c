/* vk_compare.c - the Vulkan backend's device compare (verify_compare.comp) on the default device: the count of
 * differing words and the first of them, where each thread meets several (a grid capped to 4 workgroups through
 * the device limit the dispatch reads) and the smallest index is not its thread's first. Exit 0 pass, 1 a wrong
 * value, 3 no Vulkan device (skipped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "util.h"
#include "verify.h"
#include "vulkan.h"

static int failed;

static void expect(int ok, const char *what, int64_t count, uint64_t first)
{
    if (!ok) {
        printf("FAIL: %s (count %lld, first %llu)\n", what, (long long)count, (unsigned long long)first);
        failed = 1;
    }
}

int main(void)
{
    /* 1024 threads over 10000 words: thread 976 meets 976, 2000, ..., 6096; thread 904 meets 5000 */
    static const uint64_t flips[] = {6096, 5000, 2000};
    const uint64_t n = 10000, bytes = n * 4;
    vkb_backend_error err = {0};
    vkb_backend *b = vkb_vulkan_open(NULL, 0, 0, &err);
    uint32_t *h = malloc(bytes);
    uint64_t first = 0;
    int64_t count;
    vkb_buffer *x, *y;
    if (!b) {
        fprintf(stderr, "vk_compare: %s: skipped\n", err.message);
        return 3;
    }
    b->caps.max_group_count[0] = 4;
    x = b->buffer_create(b, bytes, 0);
    y = b->buffer_create(b, bytes, 0);
    for (uint64_t i = 0; i < n; i++)
        h[i] = (uint32_t)(i * 2654435761u) | 1u << 31; /* never VKB_POISON (bit 31 clear) */
    b->upload(b, x, h, bytes);
    b->upload(b, y, h, bytes);
    count = b->compare(b, x, y, 0, bytes, &first);
    expect(count == 0, "equal buffers", count, first);
    for (int i = 0; i < 3; i++)
        h[flips[i]] ^= 1u << (5 * i);
    b->upload(b, y, h, bytes);
    first = 0;
    count = b->compare(b, x, y, 0, bytes, &first);
    expect(count == 3 && first == 2000, "three words apart: the first is 2000", count, first);
    /* the same against one word: three words differ from VKB_POISON, and all but three from theirs */
    for (uint64_t i = 0; i < n; i++)
        h[i] = VKB_POISON;
    h[6096] = h[5000] = h[2000] = 7;
    b->upload(b, y, h, bytes);
    count = b->compare(b, y, NULL, VKB_POISON, bytes, &first);
    expect(count == 3 && first == 2000, "against a word: three differ, the first is 2000", count, first);
    count = b->compare(b, y, NULL, 7, bytes, &first);
    expect(count == (int64_t)n - 3 && first == 0, "against the other word: all but three, from 0", count, first);
    b->buffer_destroy(b, y);
    b->buffer_destroy(b, x);
    b->destroy(b);
    free(h);
    if (!failed)
        printf("vk_compare: counts and first indices right\n");
    return failed;
}
