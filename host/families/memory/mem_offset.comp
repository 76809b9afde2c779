#version 450
// mem_offset.comp - dst[i] = src[i + k]: loads misaligned by k words, stores aligned (the memory performance guide:
// a half-warp's words must lie in one aligned segment to be served by one transfer).
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "memory.h"

layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };

layout(push_constant) uniform Push { mem_push pc; };

void main()
{
    for (uint i = gl_GlobalInvocationID.x; i < pc.n; i += VKB_GRID_THREADS_X)
        dst[i] = src[i + pc.k];
}
