/* verify_compare.h - the device-side comparison of the runner's checks (verify_compare.comp, host/backends/
 * backend_vulkan.c): its push constants and verdict, written once for the shader and the host. */
#ifndef VKB_VERIFY_COMPARE_H
#define VKB_VERIFY_COMPARE_H

#include "vkb_types.h"

#define VERIFY_COMPARE_LOCAL 256u /* threads per workgroup */

/* Compare words [0, words) of binding 0 with binding 1, or with WORD where BY_WORD is nonzero. */
struct verify_compare_push {
    VKB_U32 words;
    VKB_U32 by_word;
    VKB_U32 word;
};

/* Binding 2: how many words differ and the smallest index among them (0xFFFFFFFF: none); the host sets
 * it to {0, 0xFFFFFFFF} before the dispatch. */
struct verify_compare_verdict {
    VKB_U32 differing;
    VKB_U32 first;
};

#endif
