#version 450
// subgroup_atomic.comp - subgroup.comp with the workgroups combined by one atomicAdd each into dst[0]
// (zeroed by the plan first) instead of a second pass: float sums then differ run to run.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_atomic_float : enable
#define REDUCE_DST_ATOMIC
#include "vkb.glsl"
#include "reduce.glsl"
#include "subgroup_tail.glsl"
#include "vec4_load.glsl"

void main()
{
    T sum;
    if (workgroup_sum_subgroups(load_vec4_sum(), sum))
        atomicAdd(dst[0], sum);
}
