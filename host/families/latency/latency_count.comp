#version 450
// latency_count.comp - the smallest dispatch that leaves a trace: one invocation adds 1 to a counter, so
// N dispatches leave it N above where it started (a dropped dispatch shows).
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "latency.h"

layout(std430, binding = 0) buffer Counter { uint count[]; };

void main()
{
    if (gl_GlobalInvocationID.x == 0u)
        atomicAdd(count[0], LATENCY_INCREMENT);
}
