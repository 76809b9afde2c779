#version 450
// mem_shared.comp - shared-memory bank conflicts and broadcast (the memory performance guide): thread t of the
// workgroup reads shared word ((t % mod) * mul) & 1023 plus offsets that are multiples of 32 words, so every
// load has the bank pattern of t * mul: stride s is mul = s, one word for all is mul = 0, a few words
// is mod = 4. The offset changes each trip (from a push constant, unknown to the compiler) so no load
// is hoisted; the unrolled loads use immediate offsets so the loop is bound by shared loads, not ALU.
// The sum (uint, exact in any order) is each thread's output.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "vkb.glsl"
#include "memory.h"

layout(std430, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, binding = 1) writeonly buffer Dst { uint dst[]; };

layout(push_constant) uniform Push { mem_push_shared pc; };

shared uint words[MEM_SHARED_WORDS];

void main()
{
    uint t = gl_LocalInvocationIndex, acc = 0u;
    for (uint x = t; x < MEM_SHARED_WORDS; x += gl_WorkGroupSize.x)
        words[x] = src[x];
    barrier();
    uint base = ((t % pc.mod) * pc.mul) & MEM_SHARED_SPAN;
    for (uint it = 0u; it < pc.iters; it++) {
        uint a = base + ((it << MEM_SHARED_TRIP_SHIFT) & pc.mask);
        [[unroll]] for (uint u = 0u; u < MEM_UNROLL; u++)
            acc += words[a + 32u * u];
    }
    if (gl_GlobalInvocationID.x < pc.n)
        dst[gl_GlobalInvocationID.x] = acc;
}
