#version 450
// subgroup_lastblock.comp - subgroup.comp in one dispatch, still deterministic: each workgroup writes its
// partial and counts itself in; the one that arrives last adds every partial in partials.comp's fixed order
// (on subgroup's grid, the same bits as its second pass), writes the sum and sets the count back to 0 for the
// next dispatch. Nobody waits for another workgroup (Vulkan promises no forward progress between them). A
// dispatch of one workgroup (small n: the host gives it at most one per 4 x 256 vectors) writes its sum directly.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
#define REDUCE_PARTIAL(i) partials[i]
#include "vkb.glsl"

// Coherent: in the GLSL450 memory model (every vkbench shader's) each access is made available / visible at
// device scope, so another workgroup's partial and count are seen once the atomic has ordered them.
layout(std430, binding = 2) coherent buffer Partials { T partials[]; };   // one per workgroup
layout(std430, binding = 3) coherent buffer Arrived { uint arrived; };   // 0 between dispatches (the plan's input)

#include "reduce.glsl"
#include "subgroup_tail.glsl"
#include "vec4_load.glsl"

shared bool last;

void main()
{
    T sum;
    bool holds_sum = workgroup_sum_subgroups(load_vec4_sum(), sum);
    if (gl_NumWorkGroups.x == 1u) { // the whole sum is this workgroup's (small n): no partial, no count
        if (holds_sum)
            dst[0] = sum;
        return; // dispatch-uniform
    }
    if (holds_sum) {
        partials[gl_WorkGroupID.x] = sum;
        // release: this partial is ordered before the count; acquire: the last one sees every partial counted
        uint before = atomicAdd(arrived, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
        last = before == gl_NumWorkGroups.x - 1u;
        if (last)
            arrived = 0u;   // every other workgroup has counted: nothing else touches it in this dispatch
    }
    // the acquire passed on to the whole workgroup (buffer memory at device scope), and `last` with it
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);
    if (!last)
        return;
    sum_partials(gl_LocalInvocationID.x, 0u, gl_NumWorkGroups.x);
    if (gl_LocalInvocationID.x == 0u)
        dst[0] = sh[0];
}
