#version 450
// verify_compare.comp - are two buffers (or a buffer and a word) equal bit for bit? Counted on the device so
// that an output of a GiB is not read back to be found identical (the runner's poison and determinism checks).
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "verify_compare.h"

layout(std430, binding = 0) readonly buffer A { uint a[]; };
layout(std430, binding = 1) readonly buffer B { uint b[]; };
layout(std430, binding = 2) buffer Verdict { verify_compare_verdict verdict; };

layout(push_constant) uniform Push { verify_compare_push pc; };

void main()
{
    uint differing = 0u, first = 0xFFFFFFFFu;
    for (uint i = gl_GlobalInvocationID.x; i < pc.words; i += VKB_GRID_THREADS_X) {
        uint other = pc.by_word != 0u ? pc.word : b[i];
        if (a[i] != other) {
            differing++;
            first = min(first, i);   // the loop ascends: the first is the thread's smallest
        }
    }
    if (differing != 0u) {   // atomics only where something differs: an equal word costs its reads alone
        atomicAdd(verdict.differing, differing);
        atomicMin(verdict.first, first);
    }
}
