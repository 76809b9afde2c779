#version 450
// transfer_both.comp - shader_both: one dispatch moves n words each way through the SMs at once. Even workgroups
// copy up (binding 0, host-visible, to 1, device memory), odd ones down (2, device memory, to 3, host-visible),
// each half as memory.width's mem_width copies: vec4s in a grid-stride loop, the n % 4 tail as single words.
// Interleaved by the id's parity, not split in halves: workgroups start in about id order, so halves would run
// one direction after the other.
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "transfer.h"

layout(std430, binding = 0) readonly buffer UpSrc1 { float up_src1[]; };
layout(std430, binding = 0) readonly buffer UpSrc4 { vec4 up_src4[]; };
layout(std430, binding = 1) writeonly buffer UpDst1 { float up_dst1[]; };
layout(std430, binding = 1) writeonly buffer UpDst4 { vec4 up_dst4[]; };
layout(std430, binding = 2) readonly buffer DownSrc1 { float down_src1[]; };
layout(std430, binding = 2) readonly buffer DownSrc4 { vec4 down_src4[]; };
layout(std430, binding = 3) writeonly buffer DownDst1 { float down_dst1[]; };
layout(std430, binding = 3) writeonly buffer DownDst4 { vec4 down_dst4[]; };

layout(push_constant) uniform Push { transfer_push pc; };

// one direction's copy (GLSL passes no buffers to functions): element i for the thread's ID, STRIDE apart
#define COPY(dst, src)                                                                                             \
    for (uint i = id; i < nel; i += stride)                                                                        \
        dst##4[i] = src##4[i];                                                                                     \
    if (id < pc.n - nel * 4u)                                                                                      \
        dst##1[nel * 4u + id] = src##1[nel * 4u + id];

void main()
{
    // the plan dispatches an even number of workgroups: as many each way
    uint nel = pc.n / 4u, stride = gl_NumWorkGroups.x / 2u * gl_WorkGroupSize.x;
    uint id = gl_WorkGroupID.x / 2u * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if ((gl_WorkGroupID.x & 1u) == 0u) {
        COPY(up_dst, up_src)
    } else {
        COPY(down_dst, down_src)
    }
}
