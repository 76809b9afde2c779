#version 450
// interleaved_divergent.comp - the reduction ladder's naive reduce (classic step 1): interleaved addressing,
// the active threads picked by t % (2s) == 0, so every subgroup diverges at every step.
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "reduce.glsl"

void main()
{
    uint t = gl_LocalInvocationID.x, L = gl_WorkGroupSize.x;
    uint blocks = (pc.n + L - 1u) / L;
    // one block of L elements per workgroup; a grid capped at the device limit loops over blocks
    for (uint b = gl_WorkGroupID.x; b < blocks; b += gl_NumWorkGroups.x) {
        uint i = b * L + t;
        sh[t] = i < pc.n ? src[i] : T(0);
        barrier();
        for (uint s = 1u; s < L; s *= 2u) {
            if (t % (2u * s) == 0u)
                sh[t] += sh[t + s];
            barrier();
        }
        if (t == 0u)
            dst[b] = sh[0];
        barrier();  // sh is refilled for the next block
    }
}
