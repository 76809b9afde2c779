#version 450
// cache_chase.comp - a pointer chase: one invocation follows `hops` dependent loads through a random cycle, so
// each load waits for the one before: the latency of the level the footprint fits in (cache.h).
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "cache.h"

layout(std430, binding = 0) readonly buffer Chase { uint next[]; };
layout(std430, binding = 1) buffer State { uint at[]; };

layout(push_constant) uniform Push { cache_chase_push pc; };

void main()
{
    if (gl_GlobalInvocationID.x != 0u)
        return;
    uint j = at[0];
    if (j >= pc.words)   // the poison before the checked run: start at element 0
        j = 0u;
    for (uint h = 0u; h < pc.hops; h++)
        j = next[j];
    at[0] = j;
}
