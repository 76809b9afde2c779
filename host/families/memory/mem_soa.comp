#version 450
// mem_soa.comp - the same records as FIELDS arrays of n floats (field f at f * n): each field is
// one coalesced stream (the memory performance guide: split structures into arrays of aligned words).
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "memory.h"

layout(constant_id = 3) const uint FIELDS = 3;

layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };

layout(push_constant) uniform Push { mem_push pc; };

void main()
{
    for (uint i = gl_GlobalInvocationID.x; i < pc.n; i += VKB_GRID_THREADS_X)
        for (uint f = 0u; f < FIELDS; f++)
            dst[f * pc.n + i] = src[f * pc.n + i];
}
