#version 450
// matmul_naive.comp - C = A B (row-major fp32, M x K times K x N): one invocation per element of C,
// every operand straight from global memory (Kirk and Hwu's tiling chapter, figure 4.3). The baseline of the ladder.
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "matmul.h"

layout(std430, binding = 0) readonly buffer MatA { float a[]; };
layout(std430, binding = 1) readonly buffer MatB { float b[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };

layout(push_constant) uniform Push { matmul_push pc; };

void main()
{
    uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
    if (row >= pc.m || col >= pc.n)
        return;
    float acc = 0.0;
    for (uint p = 0; p < pc.k; p++)
        acc = fma(a[row * pc.k + p], b[p * pc.n + col], acc);
    c[row * pc.n + col] = acc;
}
