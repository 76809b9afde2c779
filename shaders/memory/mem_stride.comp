#version 450
// mem_stride.comp - thread i of the grid sums src[j * s] for j = i, i + grid, ... < n: element j is
// word j * s, so a subgroup's loads spread over s times the bytes it uses (seed 002). Integer sums
// are exact in any order; each thread writes one partial sum.
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"

layout(std430, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, binding = 1) writeonly buffer Dst { uint partial[]; };

layout(push_constant) uniform Push { uint n, s; } pc;

void main()
{
    uint acc = 0u;
    for (uint j = gl_GlobalInvocationID.x; j < pc.n; j += VKB_GRID_THREADS_X)
        acc += src[j * pc.s];
    partial[gl_GlobalInvocationID.x] = acc;
}
