#version 450
// mem_uniform.comp - constant-memory broadcast (the memory performance guide: "constant memory is fast only
// when every thread reads the same address"): invocation t of the workgroup reads word ((t * mul) & 127) + offsets of a
// 1024-word (4 KiB) table, the offsets (multiples of 32 words, changing each trip from a push constant) the
// same for every invocation: mul = 0 is one address per subgroup, mul = 1 a distinct word per invocation
// (32 consecutive words, one 128-byte line, per 32 invocations). Compiled twice: UNIFORM = 1 reads the
// table from a uniform buffer (std140 uvec4 array: word w is table[w / 4][w % 4]; CUDA: __constant__
// memory), UNIFORM = 0 from a storage buffer (CUDA: global memory). 4 KiB fits every device's uniform
// buffer (Vulkan guarantees 16 KiB) and the 8 KB constant-cache working set of an NVIDIA SM, so the loads
// hit the cache and the two patterns differ by how many addresses a subgroup asks for, not by misses. The
// unrolled loads use immediate offsets so the loop is bound by loads, not ALU. The sum (uint, exact in any
// order) is each invocation's output.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "vkb.glsl"
#include "memory.h"

#if UNIFORM
layout(std140, binding = 0) uniform Table { uvec4 table[MEM_UNIFORM_WORDS / 4u]; };
#else
layout(std430, binding = 0) readonly buffer Table { uint table[]; };
#endif
layout(std430, binding = 1) writeonly buffer Dst { uint dst[]; };

layout(push_constant) uniform Push { mem_push_uniform pc; };

void main()
{
    uint t = gl_LocalInvocationIndex, acc = 0u;
    uint base = (t * pc.mul) & MEM_UNIFORM_SPREAD;
    for (uint it = 0u; it < pc.iters; it++) {
        uint a = base + ((it << MEM_UNIFORM_TRIP_SHIFT) & pc.mask);
#if UNIFORM
        uint q = a >> 2, c = a & 3u;
        [[unroll]] for (uint u = 0u; u < MEM_UNROLL; u++)
            acc += table[q + 8u * u][c];
#else
        [[unroll]] for (uint u = 0u; u < MEM_UNROLL; u++)
            acc += table[a + 32u * u];
#endif
    }
    if (gl_GlobalInvocationID.x < pc.n)
        dst[gl_GlobalInvocationID.x] = acc;
}
