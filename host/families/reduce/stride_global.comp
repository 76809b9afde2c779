#version 450
// stride_global.comp - the reduction ladder's Stride-Global-Size kernel: each thread adds every element a
// whole grid apart (a grid-stride loop), then the completely-unrolled tree. The host sizes the grid.
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "reduce.glsl"
#include "subgroup_tail.glsl"

void main()
{
    uint t = gl_LocalInvocationID.x;
    T acc = T(0);
    for (uint i = gl_GlobalInvocationID.x; i < pc.n; i += VKB_GRID_THREADS_X)
        acc += src[i];
    sh[t] = acc;
    barrier();
    tree_unrolled(t);
    tail_subgroup(gl_WorkGroupID.x);
}
