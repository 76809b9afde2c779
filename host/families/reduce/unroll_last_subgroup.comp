#version 450
// unroll_last_subgroup.comp - the reduction ladder's last-wavefront unroll (classic step 5) on first_add:
// barrier steps only while more than a subgroup's worth of sums is left, then one subgroupAdd.
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
        tree_sequential(t, gl_SubgroupSize);
        tail_subgroup(b);
        barrier();
    }
}
