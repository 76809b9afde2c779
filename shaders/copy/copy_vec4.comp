#version 450
// copy_vec4.comp - copy n floats with 16-byte loads and stores (seed 002: one 128-bit access per
// thread, coalesced across the subgroup); the n % 4 tail is copied as single floats.
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"

// the same buffers seen as vec4 and as float: the tail needs the scalar view
layout(std430, binding = 0) readonly buffer SrcVec { vec4 src4[]; };
layout(std430, binding = 0) readonly buffer SrcScalar { float src1[]; };
layout(std430, binding = 1) writeonly buffer DstVec { vec4 dst4[]; };
layout(std430, binding = 1) writeonly buffer DstScalar { float dst1[]; };

layout(push_constant) uniform Push { uint n; } pc;

void main()
{
    uint nvec = pc.n / 4u;
    // grid-stride: the grid is capped at the device's workgroup-count limit
    for (uint i = gl_GlobalInvocationID.x; i < nvec; i += VKB_GRID_THREADS_X)
        dst4[i] = src4[i];
    if (gl_GlobalInvocationID.x < (pc.n & 3u)) {
        uint t = nvec * 4u + gl_GlobalInvocationID.x;
        dst1[t] = src1[t];
    }
}
