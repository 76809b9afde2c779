/* vkb_types.h - how a header shared by the host (C), the shaders (GLSL) and the CUDA twins spells its
 * types, so that a family's push-constant struct and knobs are written once (shaders/<family>/<family>.h). */
#ifndef VKB_TYPES_H
#define VKB_TYPES_H

#ifdef VULKAN /* glslang, compiling for Vulkan */
#define VKB_U32 uint
#else /* C11 or CUDA C++ */
#include <stdint.h>
#define VKB_U32 uint32_t
#endif

#endif
