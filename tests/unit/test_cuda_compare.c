/* test_cuda_compare.c - the CUDA backend's device copy and compare and its guard bands (backend.h), opened through vkb_cuda_open,
 * which loads the libvkbench_cuda.so beside this executable: the real module (a CUDA device needed; exit 3,
 * skipped, without one) or tests/unit/fake_cuda_module.c (host memory, no GPU: the backend's wiring alone). */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cuda.h"
#include "unit.h"
#include "util.h"
#include "verify.h"

static vkb_backend *open_or_skip(void)
{
    char why[512];
    vkb_backend *b = vkb_cuda_open(NULL, why, sizeof why);
    if (!b) {
        fprintf(stderr, "test_cuda_compare: %s: skipped\n", why);
        exit(3);
    }
    return b;
}

/* N seeded words, none of them VKB_POISON. */
static uint32_t *pattern(uint64_t n)
{
    uint32_t *h = vkb_alloc(n * 4);
    for (uint64_t i = 0; i < n; i++)
        h[i] = (uint32_t)(i * 2654435761u) | 1u << 31; /* VKB_POISON has bit 31 clear */
    return h;
}

/* Two buffers of 2^20 + 3 words (a tail past the 16-byte quads): equal, 3 words apart, a copy. */
static void words(void)
{
    static const uint64_t flips[3] = {(1u << 20) + 2, 4099, 777777}; /* the last word, the smallest, another */
    const uint64_t n = (1u << 20) + 3, bytes = n * 4;
    vkb_backend *b = open_or_skip();
    vkb_buffer *a = b->buffer_create(b, bytes, 0), *o = b->buffer_create(b, bytes, 0),
               *small = b->buffer_create(b, 16, 0);
    uint32_t *h = pattern(n);
    uint64_t first = 0;
    b->upload(b, a, h, bytes);
    b->upload(b, o, h, bytes);
    ASSERT(b->compare(b, a, o, 0, bytes, &first) == 0);
    for (int i = 0; i < 3; i++)
        h[flips[i]] ^= 1u << (7 * i);
    b->upload(b, o, h, bytes);
    ASSERT(b->compare(b, a, o, 0, bytes, &first) == 3 && first == 4099);
    first = 0;
    ASSERT(b->compare(b, o, a, 0, bytes, &first) == 3 && first == 4099);
    /* BYTES bounds it: the words before the smallest flip, then one more */
    ASSERT(b->compare(b, a, o, 0, 4099 * 4, &first) == 0);
    ASSERT(b->compare(b, a, o, 0, 4100 * 4, &first) == 1 && first == 4099);
    b->copy(b, a, o, bytes);
    ASSERT(b->compare(b, a, o, 0, bytes, &first) == 0);
    ASSERT(b->compare(b, a, small, 0, bytes, &first) == -1); /* OTHER shorter than BYTES */
    b->buffer_destroy(b, small);
    b->buffer_destroy(b, o);
    b->buffer_destroy(b, a);
    free(h);
    b->destroy(b);
}

/* A buffer against one word: the range only (its guard bands hold other words), every word counted. */
static void word_pattern(void)
{
    const uint64_t n = (1u << 20) + 3, bytes = n * 4;
    vkb_backend *b = open_or_skip();
    vkb_buffer *a = b->buffer_create(b, bytes, 0);
    uint32_t *h = vkb_alloc(bytes);
    uint64_t first = 0;
    b->poison(b, a, bytes);
    ASSERT(b->compare(b, a, NULL, VKB_POISON, bytes, &first) == 0);
    for (uint64_t i = 0; i < n; i++)
        h[i] = VKB_POISON;
    h[n - 2] = h[5] = 0;
    b->upload(b, a, h, bytes);
    ASSERT(b->compare(b, a, NULL, VKB_POISON, bytes, &first) == 2 && first == 5);
    ASSERT(b->compare(b, a, NULL, 0, bytes, &first) == (int64_t)n - 2 && first == 0);
    b->buffer_destroy(b, a);
    free(h);
    b->destroy(b);
}

/* BYTES not a multiple of 4: the last word is compared and copied whole, its bytes past BYTES too (the
 * buffers' padding; uploaded here as whole words). */
static void partial_word(void)
{
    const uint64_t k = 1000, bytes = 4 * k + 2;
    vkb_backend *b = open_or_skip();
    vkb_buffer *d = b->buffer_create(b, bytes, 0), *e = b->buffer_create(b, bytes, 0);
    uint32_t *h = pattern(k + 1);
    uint64_t first = 0;
    b->upload(b, d, h, 4 * (k + 1));
    h[k] ^= 0xFFFF0000u; /* the two bytes past BYTES (little-endian) */
    b->upload(b, e, h, 4 * (k + 1));
    ASSERT(b->compare(b, d, e, 0, bytes, &first) == 1 && first == k);
    ASSERT(b->compare(b, d, e, 0, 4 * k, &first) == 0);
    b->copy(b, d, e, bytes);
    ASSERT(b->compare(b, d, e, 0, bytes, &first) == 0);
    b->buffer_destroy(b, e);
    b->buffer_destroy(b, d);
    free(h);
    b->destroy(b);
}

/* Past 2^32 bytes: 64-bit indices (the real module only; 8 GiB of device memory, 4 GiB of host memory). */
static void large(void)
{
    const uint64_t n = (1ull << 30) + 2, bytes = n * 4;
    vkb_backend *b = open_or_skip();
    vkb_buffer *a, *o;
    uint32_t *h;
    uint64_t first = 0;
    if (b->caps.device_memory_bytes < 3 * bytes) {
        fprintf(stderr, "test_cuda_compare: %s has less than 12 GiB: skipped\n", b->caps.name);
        exit(3);
    }
    a = b->buffer_create(b, bytes, 0);
    o = b->buffer_create(b, bytes, 0);
    h = vkb_alloc(bytes);
    for (uint64_t i = 0; i < n; i++)
        h[i] = VKB_POISON;
    h[n - 1] = 0;
    b->upload(b, a, h, bytes);
    ASSERT(b->compare(b, a, NULL, VKB_POISON, bytes, &first) == 1 && first == n - 1);
    ASSERT(b->compare(b, a, NULL, 0, bytes, &first) == (int64_t)n - 1 && first == 0);
    b->copy(b, a, o, bytes);
    ASSERT(b->compare(b, a, o, 0, bytes, &first) == 0);
    b->poison(b, o, bytes);
    ASSERT(b->compare(b, a, o, 0, bytes, &first) == 1 && first == n - 1);
    b->buffer_destroy(b, o);
    b->buffer_destroy(b, a);
    free(h);
    b->destroy(b);
}

/* A module of the previous ABI is refused, naming it; the same module at the current ABI opens (the fake
 * module only: VKB_FAKE_CUDA_STALE). */
static void stale_abi(void)
{
    char why[512] = "";
    vkb_backend *b;
    setenv("VKB_FAKE_CUDA_STALE", "1", 1);
    ASSERT(vkb_cuda_open(NULL, why, sizeof why) == NULL && strstr(why, "does not match"));
    unsetenv("VKB_FAKE_CUDA_STALE");
    b = vkb_cuda_open(NULL, why, sizeof why);
    ASSERT(b && b->copy && b->compare);
    if (b)
        b->destroy(b);
}

/* A store past the output (VKB_FAULT_INJECT=oob-write-past, Vulkan's stores past a descriptor's range)
 * is caught by the CUDA backend's guard bands as by Vulkan's: the fake module's fake_store writes the output whole
 * from the pointer the backend gives it; clean, every band is intact; with the fault, the output's last 16 bytes
 * land after its end (the fake module only: the real one has no fake_store) */
static void guard_oob_write_past(void)
{
    static const uint64_t sizes[] = {1000, 4096 + 12, 4};
    static const char *const wrote[] = {"wrote 16 bytes after the end of output 0, at +0..+15",
                                        "wrote 16 bytes after the end of output 0, at +0..+15",
                                        "wrote 4 bytes after the end of output 0, at +12..+15"}; /* 4 bytes, 16 late */
    vkb_backend *b = open_or_skip();
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        vkb_plan plan;
        vkb_buffer *bufs[2];
        int ids[2];
        uint32_t one[3] = {1, 1, 1};
        char why[256] = "";
        void *prep;
        memset(&plan, 0, sizeof plan);
        ids[0] = vkb_plan_buffer_add(&plan, 64, VKB_BUF_INPUT, NULL);
        ids[1] = vkb_plan_buffer_add(&plan, sizes[s], VKB_BUF_OUTPUT, NULL);
        vkb_pass_bind(vkb_plan_dispatch(&plan, "fake_store", one, one), 2, ids);
        prep = b->prepare(b, &plan, why, sizeof why);
        ASSERT(prep != NULL);
        if (!prep)
            break;
        bufs[0] = b->buffer_create(b, 64, 0);
        bufs[1] = b->buffer_create(b, sizes[s], 0);
        b->execute(b, prep, bufs, 1, 0, NULL);
        ASSERT(vkb_verify_guards(b, bufs, &plan, why, sizeof why) == 0);
        setenv("VKB_FAULT_INJECT", "oob-write-past", 1);
        b->execute(b, prep, bufs, 1, 0, NULL);
        unsetenv("VKB_FAULT_INJECT");
        ASSERT(vkb_verify_guards(b, bufs, &plan, why, sizeof why) == 1);
        if (!strstr(why, wrote[s]))
            fprintf(stderr, "size %llu: %s\n", (unsigned long long)sizes[s], why);
        ASSERT(strstr(why, wrote[s]) != NULL);
        b->buffer_destroy(b, bufs[1]);
        b->buffer_destroy(b, bufs[0]);
        b->unprepare(b, prep);
    }
    b->destroy(b);
}

UNIT_TESTS({"words", words}, {"word_pattern", word_pattern}, {"partial_word", partial_word}, {"large", large},
           {"stale_abi", stale_abi}, {"guard_oob_write_past", guard_oob_write_past})
