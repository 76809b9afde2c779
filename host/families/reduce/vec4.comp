#version 450
// vec4.comp - the reduction ladder's Vector-Size kernel on the stride_global loop (vec4_load.glsl), then the
// completely-unrolled tree and the subgroup tail.
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "reduce.glsl"
#include "subgroup_tail.glsl"
#include "vec4_load.glsl"

void main()
{
    uint t = gl_LocalInvocationID.x;
    sh[t] = load_vec4_sum();
    barrier();
    tree_unrolled(t);
    tail_subgroup(gl_WorkGroupID.x);
}
