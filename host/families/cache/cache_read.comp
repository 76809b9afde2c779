#version 450
// cache_read.comp - read bandwidth over a footprint: every invocation sums `loads` uvec4s of it, the dispatch
// together reading it over and over (cache.h), and writes its sum (the host checks the total, exactly).
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "cache.h"

layout(std430, binding = 0) readonly buffer Src { uvec4 src[]; };
layout(std430, binding = 1) writeonly buffer Dst { uint partial[]; };

layout(push_constant) uniform Push { cache_read_push pc; };

void main()
{
    uint t = gl_GlobalInvocationID.x, i = t % pc.vec4s;
    uvec4 acc = uvec4(0u);
    for (uint k = 0u; k < pc.loads; k++) {
        acc += src[i];
        i += pc.step;
        if (i >= pc.vec4s)
            i -= pc.vec4s;
    }
    partial[t] = acc.x + acc.y + acc.z + acc.w;
}
