#version 450
// reduce_partials.comp - the later passes of every variant: workgroup g adds pc.per * L contiguous
// partial sums, each thread those a workgroup apart, then a barrier tree. No subgroup operations.
#extension GL_GOOGLE_include_directive : require
#define REDUCE_PARTIAL(i) src[i]
#include "vkb.glsl"
#include "reduce.glsl"

void main()
{
    uint t = gl_LocalInvocationID.x, L = gl_WorkGroupSize.x;
    uint base = gl_WorkGroupID.x * pc.per * L;
    uint end = min(base + pc.per * L, pc.n);
    sum_partials(t, base, end);
    if (t == 0u)
        dst[gl_WorkGroupID.x] = sh[0];
}
