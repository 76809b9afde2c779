#version 450
// matmul_tiled.comp - the tiled product of Kirk and Hwu's tiling chapter (section 4.4; Massini's GPU manycore
// notes, slide 58): a TILE x TILE workgroup loads one tile of A and one of B into shared memory per phase, waits
// at a barrier, and each invocation accumulates its element of C from the tiles; K / TILE phases. Edges load zeros.
#extension GL_GOOGLE_include_directive : require
#include "vkb.glsl"
#include "matmul.h"

layout(constant_id = 3) const uint TILE = 16;   // TILE_WIDTH: the workgroup is TILE x TILE

layout(std430, binding = 0) readonly buffer MatA { float a[]; };
layout(std430, binding = 1) readonly buffer MatB { float b[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c[]; };

layout(push_constant) uniform Push { matmul_push pc; };

shared float as[TILE][TILE];
shared float bs[TILE][TILE];

void main()
{
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint row = gl_WorkGroupID.y * TILE + ty, col = gl_WorkGroupID.x * TILE + tx;
    float acc = 0.0;
    for (uint k0 = 0; k0 < pc.k; k0 += TILE) {
        // cooperative load: each invocation brings one element of each tile
        float av = 0.0, bv = 0.0;
        if (row < pc.m && k0 + tx < pc.k)
            av = a[row * pc.k + k0 + tx];
        if (k0 + ty < pc.k && col < pc.n)
            bv = b[(k0 + ty) * pc.n + col];
        as[ty][tx] = av;
        bs[ty][tx] = bv;
        barrier();
        for (uint p = 0; p < TILE; p++)
            acc = fma(as[ty][p], bs[p][tx], acc);
        barrier();   // the next phase overwrites the tiles
    }
    if (row < pc.m && col < pc.n)
        c[row * pc.n + col] = acc;
}
