#version 450
// mem_aos.comp - copy n records of FIELDS floats stored REC words apart (std430: a struct of floats
// has 4-byte alignment, so 12- and 20-byte records are packed). Packed: FIELDS 4-byte loads REC words
// apart across threads; padded (REC = 4 or 8): REC / 4 aligned vec4 loads (the memory performance guide:
// __align__(16)).
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "memory.h"

layout(constant_id = 3) const uint FIELDS = 3;
layout(constant_id = 4) const uint REC = 3;

layout(std430, binding = 0) readonly buffer Src1 { float src1[]; };
layout(std430, binding = 0) readonly buffer Src4 { vec4 src4[]; };
layout(std430, binding = 1) writeonly buffer Dst1 { float dst1[]; };
layout(std430, binding = 1) writeonly buffer Dst4 { vec4 dst4[]; };

layout(push_constant) uniform Push { mem_push pc; };

void main()
{
    for (uint i = gl_GlobalInvocationID.x; i < pc.n; i += VKB_GRID_THREADS_X) {
        if (REC % 4u == 0u) {
            for (uint q = 0u; q < REC / 4u; q++)
                dst4[i * (REC / 4u) + q] = src4[i * (REC / 4u) + q];
        } else {
            for (uint f = 0u; f < FIELDS; f++)
                dst1[i * REC + f] = src1[i * REC + f];
        }
    }
}
