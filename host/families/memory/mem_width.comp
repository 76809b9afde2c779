#version 450
// mem_width.comp - copy n words as elements of WORDS words: float, vec2 or vec4 loads and stores
// (the memory performance guide: one aligned 4-, 8- or 16-byte access per thread); the n % WORDS tail as single words.
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "memory.h"

layout(constant_id = 3) const uint WORDS = 4; // 1, 2 or 4: the branches below fold to one

layout(std430, binding = 0) readonly buffer Src1 { float src1[]; };
layout(std430, binding = 0) readonly buffer Src2 { vec2 src2[]; };
layout(std430, binding = 0) readonly buffer Src4 { vec4 src4[]; };
layout(std430, binding = 1) writeonly buffer Dst1 { float dst1[]; };
layout(std430, binding = 1) writeonly buffer Dst2 { vec2 dst2[]; };
layout(std430, binding = 1) writeonly buffer Dst4 { vec4 dst4[]; };

layout(push_constant) uniform Push { mem_push pc; };

void main()
{
    uint nel = pc.n / WORDS, id = gl_GlobalInvocationID.x;
    for (uint i = id; i < nel; i += VKB_GRID_THREADS_X) {
        if (WORDS == 4u)
            dst4[i] = src4[i];
        else if (WORDS == 2u)
            dst2[i] = src2[i];
        else
            dst1[i] = src1[i];
    }
    if (id < pc.n - nel * WORDS)
        dst1[nel * WORDS + id] = src1[nel * WORDS + id];
}
