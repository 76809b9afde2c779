#version 450
// first_add.comp - the reduction ladder's in-thread reduce at its smallest (classic step 4): each thread adds
// two elements L apart while loading, so a workgroup covers 2L elements and no thread idles at first.
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "reduce.glsl"

void main()
{
    uint t = gl_LocalInvocationID.x, L = gl_WorkGroupSize.x;
    uint blocks = (pc.n + 2u * L - 1u) / (2u * L);
    for (uint b = gl_WorkGroupID.x; b < blocks; b += gl_NumWorkGroups.x) {
        uint i = b * 2u * L + t;
        sh[t] = (i < pc.n ? src[i] : T(0)) + (i + L < pc.n ? src[i + L] : T(0));
        barrier();
        tree_sequential(t, 1u);
        if (t == 0u)
            dst[b] = sh[0];
        barrier();
    }
}
