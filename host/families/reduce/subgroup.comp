#version 450
// subgroup.comp - vec4's loads, then no tree: subgroupAdd in every subgroup, one shared slot per
// subgroup, subgroup 0 adds the slots. The workgroups' sums are combined by a second pass.
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "reduce.glsl"
#include "subgroup_tail.glsl"
#include "vec4_load.glsl"

void main()
{
    T sum;
    if (workgroup_sum_subgroups(load_vec4_sum(), sum))
        dst[gl_WorkGroupID.x] = sum;
}
