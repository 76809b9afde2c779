#version 450
// unroll_complete.comp - the reduction ladder's completely-unrolled kernel (classic step 6) on first_add: every
// tree step written out for the workgroup size, a specialization constant, then the subgroup tail.
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "reduce.glsl"
#include "subgroup_tail.glsl"

void main()
{
    uint t = gl_LocalInvocationID.x, L = gl_WorkGroupSize.x;
    uint blocks = (pc.n + 2u * L - 1u) / (2u * L);
    for (uint b = gl_WorkGroupID.x; b < blocks; b += gl_NumWorkGroups.x) {
        uint i = b * 2u * L + t;
        sh[t] = (i < pc.n ? src[i] : T(0)) + (i + L < pc.n ? src[i + L] : T(0));
        barrier();
        tree_unrolled(t);
        tail_subgroup(b);
        barrier();
    }
}
