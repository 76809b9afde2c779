#version 450
// matmul_coopmat2_staged.comp - C = A B with fp16 A and B through VK_NV_cooperative_matrix2 workgroup-scope
// matrices (one BM x BN accumulator; the driver splits the work among the subgroups), fed from shared
// memory that the kernel fills itself: 16-byte global loads into registers, two shared stages, one barrier
// per k-tile (matmul_tc_stage.glsl, as matmul_coopmat_khr.comp), the workgroup's BM x BK and BK x BN
// operands loaded from the current stage. matmul_coopmat2.comp, which loads them straight from the buffers
// through clamped tensor layouts, compiles to scalar 16-bit global loads on NVIDIA's driver.
// TENSOR_LOAD 1 loads the operands from shared through tensor layouts instead of coopMatLoad (whichever
// the driver compiles better); C leaves through a clamped tensor layout, which drops what lies beyond M
// and N. Built with fp32 accumulators and output, and with ACC16 fp16 accumulators and an fp16 output.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_memory_scope_semantics : require
#include "vkb.glsl"

// BM, BN, BK multiples of the device's workgroup-scope granularity and BN, BK of 8 (the host checks)
layout(constant_id = 3) const uint BM = 128;
layout(constant_id = 4) const uint BN = 128;
layout(constant_id = 5) const uint BK = 32;
layout(constant_id = 7) const uint TENSOR_LOAD = 0;   // 1: operands from shared through tensor layouts
// the load schedule and the workgroups' order (matmul_tc_stage.glsl)
layout(constant_id = 6) const uint PREFETCH = 1;      // 2: two register sets of loads in flight
layout(constant_id = 8) const uint GROUP_M = 1;       // block rows per group of the launch order (L2 reuse)
layout(constant_id = 9) const uint STORE_EARLY = 0;   // 1: each tile stored after the barrier

#if ACC16
#define ACC_T float16_t
#else
#define ACC_T float
#endif

layout(std430, binding = 2) writeonly buffer MatC { ACC_T c[]; };

layout(push_constant) uniform Push { uint m, n, k; } pc;

#include "matmul_tc_stage.glsl"

#define MAT_A coopmat<float16_t, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA>
#define MAT_B coopmat<float16_t, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB>
#define ACC coopmat<ACC_T, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>
#define ROW_MAJOR gl_CooperativeMatrixLayoutRowMajor
#define CLAMP gl_CooperativeMatrixClampModeConstantNV

// The math on shared stage G, for TC_PIPELINE. Offsets and strides of coopMatLoad count the uvec4 elements
// of the shared arrays (8 halves); a tensor layout's strides count halves, its offset the array's elements.
#define TC_MATH(g) {                                                          \
        MAT_A ma;                                                             \
        MAT_B mb;                                                             \
        if (TENSOR_LOAD != 0u) {                                              \
            coopMatLoadTensorNV(ma, as, (g) * ASTAGE, sa);                    \
            coopMatLoadTensorNV(mb, bs, (g) * BSTAGE, sb);                    \
        } else {                                                              \
            coopMatLoad(ma, as, (g) * ASTAGE, ASTR, ROW_MAJOR);               \
            coopMatLoad(mb, bs, (g) * BSTAGE, BSTR, ROW_MAJOR);               \
        }                                                                     \
        acc = coopMatMulAdd(ma, mb, acc);                                     \
    }

void main()
{
    uint tid = gl_LocalInvocationIndex;
    uvec2 block = block_of_workgroup();
    uint m0 = block.y * BM, n0 = block.x * BN;
    uint tiles = (pc.k + BK - 1u) / BK;
    // the stages as tensors: BM x BK and BK x BN halves, rows ASTR and BSTR chunks apart (the padding)
    tensorLayoutNV<2> sa = createTensorLayoutNV(2);
    tensorLayoutNV<2> sb = createTensorLayoutNV(2);
    sa = setTensorLayoutDimensionNV(sa, BM, BK);
    sa = setTensorLayoutStrideNV(sa, ASTR * 8u, 1u);
    sb = setTensorLayoutDimensionNV(sb, BK, BN);
    sb = setTensorLayoutStrideNV(sb, BSTR * 8u, 1u);

    ACC acc = ACC(0.0);
    TC_PIPELINE(tiles, m0, n0, tid)

    tensorLayoutNV<2, CLAMP> tc = createTensorLayoutNV(2, CLAMP);
    tc = setTensorLayoutDimensionNV(tc, pc.m, pc.n);
    coopMatStoreTensorNV(acc, c, 0, sliceTensorLayoutNV(tc, m0, BM, n0, BN));
}
