#version 450
// peak_coopmat.comp - the cooperative-matrix instruction's own throughput for one combination of types the
// device lists: each subgroup holds one A (FRAG_M x FRAG_K) and one B (FRAG_K x FRAG_N) fragment and
// PEAK_CM_CHAINS independent accumulators, and runs trips dependent acc = A B + acc steps on each, no memory in
// the loop; trips is a push constant. One source, one build per combination (shaders.cmake: -D A_T, C_T); the
// fragment is the device's (spec constants); -D A_BF16, A_E4M3, A_E5M2 for bf16 and fp8 operands (glslang 16). A and B are read from uint words (int8 packs 4 to a word: no 8-bit
// storage needed), the accumulators from and to buffers of their own type. The host checks every accumulator
// exactly (host/families/peak/peak_coopmat.c: the inputs make every step exact).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#if A_BF16
#extension GL_EXT_bfloat16 : require
#elif A_E4M3
#extension GL_EXT_float_e4m3 : require
#elif A_E5M2
#extension GL_EXT_float_e5m2 : require
#endif
#include "vkb.glsl"
#include "peak.h"

layout(constant_id = 3) const uint FRAG_M = 16;
layout(constant_id = 4) const uint FRAG_N = 16;
layout(constant_id = 5) const uint FRAG_K = 16;

// elements of A_T in one uint word
#define PER_WORD (4u / uint(A_BYTES))

layout(std430, binding = 0) readonly buffer Operands { uint ab[]; };   // A's, then B's (peak.h), row-major
layout(std430, binding = 1) readonly buffer Start { C_T start[]; };   // slot s: PEAK_CM_CHAINS of FRAG_M x FRAG_N
layout(std430, binding = 2) writeonly buffer Out { C_T dst[]; };
layout(push_constant) uniform Push { peak_push pc; };

#define ACC coopmat<C_T, gl_ScopeSubgroup, FRAG_M, FRAG_N, gl_MatrixUseAccumulator>
#define ROW_MAJOR gl_CooperativeMatrixLayoutRowMajor
#define FOR_CHAINS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define DECLARE(j) ACC acc##j; coopMatLoad(acc##j, start, (slot * PEAK_CM_CHAINS + uint(j)) * FRAG_M * FRAG_N, FRAG_N, ROW_MAJOR);
#define MMA(j) acc##j = coopMatMulAdd(fa, fb, acc##j);
#define STORE(j) coopMatStore(acc##j, dst, (sg * PEAK_CM_CHAINS + uint(j)) * FRAG_M * FRAG_N, FRAG_N, ROW_MAJOR);

void main()
{
    uint sg = gl_WorkGroupID.x * (gl_WorkGroupSize.x / gl_SubgroupSize) + gl_SubgroupID;
    uint slot = sg % pc.slots;
    uint abase = slot * FRAG_M * FRAG_K / PER_WORD, bbase = (PEAK_CM_B_OFFSET + slot * FRAG_K * FRAG_N) / PER_WORD;
    coopmat<A_T, gl_ScopeSubgroup, FRAG_M, FRAG_K, gl_MatrixUseA> fa;
    coopmat<A_T, gl_ScopeSubgroup, FRAG_K, FRAG_N, gl_MatrixUseB> fb;
    coopMatLoad(fa, ab, abase, FRAG_K / PER_WORD, ROW_MAJOR);
    coopMatLoad(fb, ab, bbase, FRAG_N / PER_WORD, ROW_MAJOR);
    FOR_CHAINS(DECLARE)
    for (uint t = 0; t < pc.trips; t++) {
        FOR_CHAINS(MMA)
    }
    if (sg < pc.n) {   // whole subgroups: uniform
        FOR_CHAINS(STORE)
    }
}
