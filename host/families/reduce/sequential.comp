#version 450
// sequential.comp - the reduction ladder's divergence-free kernel (classic step 3): sequential addressing,
// contiguous active threads reading contiguous banks; half the threads idle from the first step.
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "reduce.glsl"

void main()
{
    uint t = gl_LocalInvocationID.x, L = gl_WorkGroupSize.x;
    uint blocks = (pc.n + L - 1u) / L;
    for (uint b = gl_WorkGroupID.x; b < blocks; b += gl_NumWorkGroups.x) {
        uint i = b * L + t;
        sh[t] = i < pc.n ? src[i] : T(0);
        barrier();
        tree_sequential(t, 1u);
        if (t == 0u)
            dst[b] = sh[0];
        barrier();
    }
}
