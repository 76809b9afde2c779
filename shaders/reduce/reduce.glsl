// reduce.glsl - what the reduce shaders share: element type, buffers, push constants, the
// workgroup's shared array and its tree steps. Include after vkb.glsl.
// T is the element type from the command line: -DT=float -DT4=vec4 or -DT=int -DT4=ivec4 (int adds wrap).
#include "reduce.h"

layout(std430, binding = 0) readonly buffer Src { T src[]; };
#ifdef REDUCE_DST_ATOMIC
layout(std430, binding = 1) buffer Dst { T dst[]; };             // atomics read as well as write
#else
layout(std430, binding = 1) writeonly buffer Dst { T dst[]; };   // one partial sum per block
#endif

layout(push_constant) uniform Push { reduce_push pc; }; // reduce.h

shared T sh[gl_WorkGroupSize.x];

// Sequential addressing (seed 003, divergence-free kernel): halve the active threads each step until
// KEEP sums are left in sh[0..KEEP-1]. The workgroup size is a power of two.
void tree_sequential(uint t, uint keep)
{
    for (uint s = gl_WorkGroupSize.x / 2u; s >= keep && s > 0u; s >>= 1) {
        if (t < s)
            sh[t] += sh[t + s];
        barrier();
    }
}
