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

// Sequential addressing (the reduction ladder's divergence-free kernel): halve the active threads each step until
// KEEP sums are left in sh[0..KEEP-1]. The workgroup size is a power of two.
void tree_sequential(uint t, uint keep)
{
    for (uint s = gl_WorkGroupSize.x / 2u; s >= keep && s > 0u; s >>= 1) {
        if (t < s)
            sh[t] += sh[t + s];
        barrier();
    }
}

#ifdef REDUCE_PARTIAL
// The later passes' order (partials.comp): thread t adds REDUCE_PARTIAL(i) for i = base + t, base + t + L, ...
// below END in that order, then the sequential tree leaves the sum in sh[0]. subgroup_lastblock.comp's last
// workgroup adds its partials the same way, so its bits are the two-pass subgroup row's. REDUCE_PARTIAL(i) names
// the includer's buffer (a macro: GLSL passes no buffers), defined before this file is included.
void sum_partials(uint t, uint base, uint end)
{
    T acc = T(0);
    for (uint i = base + t; i < end; i += gl_WorkGroupSize.x)
        acc += REDUCE_PARTIAL(i);
    sh[t] = acc;
    barrier();
    tree_sequential(t, 1u);
}
#endif
