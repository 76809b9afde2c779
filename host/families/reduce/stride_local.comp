#version 450
// stride_local.comp - the reduction ladder's Stride-Local-Size kernel: workgroup g owns pc.per * L contiguous
// elements and each thread adds the ones a workgroup apart, then the completely-unrolled tree.
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "reduce.glsl"
#include "subgroup_tail.glsl"

void main()
{
    uint t = gl_LocalInvocationID.x, L = gl_WorkGroupSize.x;
    uint base = gl_WorkGroupID.x * pc.per * L;
    uint end = min(base + pc.per * L, pc.n);
    T acc = T(0);
    for (uint i = base + t; i < end; i += L)
        acc += src[i];
    sh[t] = acc;
    barrier();
    tree_unrolled(t);
    tail_subgroup(gl_WorkGroupID.x);
}
