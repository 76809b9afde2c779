/* build_info.h - which vkbench made a result: its commit and build options, written into every results file. */
#ifndef VKB_BUILD_INFO_H
#define VKB_BUILD_INFO_H

/* `git describe --always --dirty` of the source tree when vkbench was built, "unknown" outside git. */
extern const char vkb_build_commit[];
/* CMAKE_BUILD_TYPE ("Release"; "none" when unset). */
extern const char vkb_build_type[];
/* The CUDA module's architectures ("90", "80-real;86"), "none" when it was not built. */
extern const char vkb_build_cuda_architectures[];
/* 1 when built with AddressSanitizer and UBSan (VKB_SANITIZE). */
extern const int vkb_build_sanitizer;

#endif
