#version 450
// interleaved_strided.comp - classic step 2: interleaved addressing through a strided index
// (thread t adds sh[2st] and sh[2st + s]): no divergence, but 2s-way shared-memory bank conflicts.
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
        for (uint s = 1u; s < L; s *= 2u) {
            uint k = 2u * s * t;
            if (k < L)
                sh[k] += sh[k + s];
            barrier();
        }
        if (t == 0u)
            dst[b] = sh[0];
        barrier();
    }
}
