#version 450
// matmul_coopmat2.comp - C = A B with fp16 A and B through VK_NV_cooperative_matrix2: workgroup-scope
// matrices of the whole BM x BN block, loaded straight from the buffers by tensor layouts whose constant
// clamp mode reads zero beyond M, N and K and whose stores drop what lies beyond: any shape, no shared
// memory or staging of our own (the driver chooses how the workgroup's subgroups split the block and
// how the tiles travel). BM, BN, BK must be multiples of the device's workgroup-scope granularity
// (vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV; the host checks). Built with fp32
// accumulators and output, with ACC16 fp16 accumulators and an fp16 output, with BF16 bf16 A and B (fp32
// accumulators; glslang 16), and with S8 int8 A and B, int32 accumulators and output (8-bit storage).
// INTERIOR 1 (the coopmat2_interior rows): where the rows of A and B are whole 16-byte units (K and N
// multiples of 8), a block wholly inside M x N takes its whole BK steps through unclamped tensor layouts (no
// per-element bounds in the driver's loads) in groups of UNROLL, unrolled, with the row strides written as
// multiples of 8 halves (16-byte rows the compiler can see); the last partial k step, the blocks on the M and
// N edges and every block of other shapes go through the clamped layouts.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_memory_scope_semantics : require
#if BF16
#extension GL_EXT_bfloat16 : require
#define IN_T bfloat16_t
#elif S8
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#extension GL_EXT_shader_8bit_storage : require
#define IN_T int8_t
#else
#define IN_T float16_t
#endif
#include "vkb.glsl"

layout(constant_id = 3) const uint BM = 128;
layout(constant_id = 4) const uint BN = 128;
layout(constant_id = 5) const uint BK = 32;
layout(constant_id = 6) const uint UNROLL = 1;     // BK steps per trip of the interior loop (INTERIOR 1)
layout(constant_id = 7) const uint INTERIOR = 0;   // 1: the unclamped interior path above

#if ACC16
#define ACC_T float16_t
#elif S8
#define ACC_T int32_t
#else
#define ACC_T float
#endif
// elements in a 16-byte unit of a row of A or B (the interior path's alignment)
#if S8
const uint RU = 16u;
#define ACC_ZERO 0
#else
const uint RU = 8u;
#define ACC_ZERO 0.0
#endif

layout(std430, binding = 0) readonly buffer MatA { IN_T a[]; };
layout(std430, binding = 1) readonly buffer MatB { IN_T b[]; };
layout(std430, binding = 2) writeonly buffer MatC { ACC_T c[]; };

layout(push_constant) uniform Push { uint m, n, k; } pc;

#define CLAMP gl_CooperativeMatrixClampModeConstantNV
#define ACC coopmat<ACC_T, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>
#define MAT_A coopmat<IN_T, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA>
#define MAT_B coopmat<IN_T, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB>

// The whole BK steps from k 0 to KEND of the block at (M0, N0) through unclamped layouts whose row strides are
// SA and SB (written x & ~(RU - 1) by the caller: the compiler sees 16-byte rows).
void interior_steps(inout ACC acc, uint m0, uint n0, uint kend, uint sa, uint sb)
{
    tensorLayoutNV<2> ua = createTensorLayoutNV(2);
    tensorLayoutNV<2> ub = createTensorLayoutNV(2);
    ua = setTensorLayoutStrideNV(setTensorLayoutDimensionNV(ua, pc.m, pc.k), sa, 1);
    ub = setTensorLayoutStrideNV(setTensorLayoutDimensionNV(ub, pc.k, pc.n), sb, 1);
    uint k0 = 0;
    for (; k0 + BK * UNROLL <= kend; k0 += BK * UNROLL) {
        [[unroll]] for (uint u = 0; u < UNROLL; u++) {
            MAT_A ma;
            MAT_B mb;
            coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(ua, m0, BM, k0 + u * BK, BK));
            coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(ub, k0 + u * BK, BK, n0, BN));
            acc = coopMatMulAdd(ma, mb, acc);
        }
    }
    for (; k0 < kend; k0 += BK) {
        MAT_A ma;
        MAT_B mb;
        coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(ua, m0, BM, k0, BK));
        coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(ub, k0, BK, n0, BN));
        acc = coopMatMulAdd(ma, mb, acc);
    }
}

void main()
{
    uint m0 = gl_WorkGroupID.y * BM, n0 = gl_WorkGroupID.x * BN;
    tensorLayoutNV<2, CLAMP> ta = createTensorLayoutNV(2, CLAMP);
    tensorLayoutNV<2, CLAMP> tb = createTensorLayoutNV(2, CLAMP);
    tensorLayoutNV<2, CLAMP> tc = createTensorLayoutNV(2, CLAMP);
    ta = setTensorLayoutDimensionNV(ta, pc.m, pc.k);
    tb = setTensorLayoutDimensionNV(tb, pc.k, pc.n);
    tc = setTensorLayoutDimensionNV(tc, pc.m, pc.n);

    ACC acc = ACC(ACC_ZERO);
    uint k0 = 0;
    // rows of A and B in whole 16-byte units only: unclamped loads of rows 2-byte aligned ran at 0.68x the
    // clamped ones on the H100 (4097^3), so such shapes take the clamped loop throughout
    if (INTERIOR != 0 && m0 + BM <= pc.m && n0 + BN <= pc.n && pc.k % RU == 0 && pc.n % RU == 0) {
        k0 = pc.k / BK * BK;   // the whole steps; a partial last one goes through the clamped loop below
        interior_steps(acc, m0, n0, k0, pc.k & ~(RU - 1u), pc.n & ~(RU - 1u));
    }
    for (; k0 < pc.k; k0 += BK) {
        MAT_A ma;
        MAT_B mb;
        coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(ta, m0, BM, k0, BK));
        coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(tb, k0, BK, n0, BN));
        acc = coopMatMulAdd(ma, mb, acc);
    }
    coopMatStoreTensorNV(acc, c, 0, sliceTensorLayoutNV(tc, m0, BM, n0, BN));
}
