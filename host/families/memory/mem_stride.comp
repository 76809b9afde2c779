#version 450
// mem_stride.comp - thread i of the grid sums src[j * s] for j = i, i + grid, ... < n: element j is
// word j * s, so a subgroup's loads spread over s times the bytes it uses (the memory performance guide). Integer sums
// are exact in any order; each thread writes one partial sum.
// LOADS independent loads in flight per thread: each trip loads elements j, j + grid, ..., j + 7 grid into
// 8 accumulators, and the last count % 8 elements are one more trip of guarded loads (which thread sums
// which element is unchanged, so are the useful bytes). With one load per trip (the add waited for it
// before the next load issued), s = 1 reached only 68% of the copy ceiling on an H100, which made s = 2
// show 70.6% of s = 1 instead of the rule's 50%; with 8 in flight s = 1 should reach ~90% or more of the
// copy, at the memory limit, and s = 2 about half of it.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "vkb.glsl"
#include "memory.h"

#define LOADS MEM_STRIDE_LOADS

layout(std430, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, binding = 1) writeonly buffer Dst { uint partial[]; };

layout(push_constant) uniform Push { mem_push pc; }; // k: the stride

void main()
{
    uint id = gl_GlobalInvocationID.x, g = VKB_GRID_THREADS_X, s = pc.k, m = 0u, j = id, sum = 0u;
    // this thread's elements are id + m g for m < count: counting them, rather than comparing j with n,
    // keeps j from wrapping past 2^32 near the largest n (a wrapped j is never loaded: m + u < count)
    uint count = id < pc.n ? (pc.n - 1u - id) / g + 1u : 0u;
    uint acc[LOADS];
    [[unroll]] for (uint u = 0u; u < LOADS; u++)
        acc[u] = 0u;
    for (; m + LOADS <= count; m += LOADS, j += LOADS * g) {
        [[unroll]] for (uint u = 0u; u < LOADS; u++)
            acc[u] += src[(j + u * g) * s];
    }
    [[unroll]] for (uint u = 0u; u < LOADS; u++) {
        if (m + u < count)
            acc[u] += src[(j + u * g) * s];
        sum += acc[u];
    }
    partial[id] = sum;
}
