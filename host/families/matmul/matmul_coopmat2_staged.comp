#version 450
// matmul_coopmat2_staged.comp - C = A B with fp16 A and B through VK_NV_cooperative_matrix2 workgroup-scope
// matrices (one BM x BN accumulator; the driver splits the work among the subgroups), fed from shared
// memory that the kernel fills itself: 16-byte global loads into registers, two shared stages, one barrier
// per k-tile (matmul_tc_stage.glsl, as matmul_coopmat_khr.comp), the workgroup's BM x BK and BK x BN
// operands loaded from the current stage. matmul_coopmat2.comp, which loads them straight from the buffers
// through clamped tensor layouts, compiles to scalar 16-bit global loads on NVIDIA's driver.
// TENSOR_LOAD 1 loads the operands from shared through tensor layouts instead of coopMatLoad (whichever
// the driver compiles better); C leaves through a clamped tensor layout, which drops what lies beyond M
// and N. Built with fp32 accumulators and output, with ACC16 fp16 accumulators and an fp16 output, and with S8
// int8 A and B, int32 accumulators and output, B staged k-major (B^T in shared memory, matmul_tc_stage.glsl's
// TC_B_KMAJOR) and loaded column-major (with TENSOR_LOAD through a transposing view), so that neither operand's
// load from shared memory needs a byte-by-byte gather.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_memory_scope_semantics : require
#if S8
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#define IN_T int8_t
#define TC_INT8 1
#define TC_B_KMAJOR 1
#else
#define IN_T float16_t
#endif
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
#define ACC_ZERO 0.0
#elif S8
#define ACC_T int32_t
#define ACC_ZERO 0
#else
#define ACC_T float
#define ACC_ZERO 0.0
#endif

layout(std430, binding = 2) writeonly buffer MatC { ACC_T c[]; };

layout(push_constant) uniform Push { uint m, n, k; } pc;

#include "matmul_tc_stage.glsl"

#define MAT_A coopmat<IN_T, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA>
#define MAT_B coopmat<IN_T, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB>
#define ACC coopmat<ACC_T, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>
#define ROW_MAJOR gl_CooperativeMatrixLayoutRowMajor
#define CLAMP gl_CooperativeMatrixClampModeConstantNV

// The math on shared stage G, for TC_PIPELINE. Offsets and strides of coopMatLoad count the units of the
// shared arrays (TC_EPS elements); a tensor layout's strides count elements, its offset the array's units.
#if TC_B_KMAJOR
#define B_LAYOUT gl_CooperativeMatrixLayoutColumnMajor
#define LOAD_B_TENSOR(mb, g) coopMatLoadTensorNV(mb, bs, (g) * BSTAGE, sb, bt)
#else
#define B_LAYOUT ROW_MAJOR
#define LOAD_B_TENSOR(mb, g) coopMatLoadTensorNV(mb, bs, (g) * BSTAGE, sb)
#endif
#define TC_MATH(g) {                                                          \
        MAT_A ma;                                                             \
        MAT_B mb;                                                             \
        if (TENSOR_LOAD != 0u) {                                              \
            coopMatLoadTensorNV(ma, as, (g) * ASTAGE, sa);                    \
            LOAD_B_TENSOR(mb, g);                                             \
        } else {                                                              \
            coopMatLoad(ma, as, (g) * ASTAGE, ASTR, ROW_MAJOR);               \
            coopMatLoad(mb, bs, (g) * BSTAGE, BSTR, B_LAYOUT);                \
        }                                                                     \
        acc = coopMatMulAdd(ma, mb, acc);                                     \
    }

void main()
{
    uint tid = gl_LocalInvocationIndex;
    uvec2 block = block_of_workgroup();
    uint m0 = block.y * BM, n0 = block.x * BN;
    uint tiles = (pc.k + BK - 1u) / BK;
    // the stages as tensors: BM x BK and BK x BN elements (k-major B: BN x BK, read through the transposing view
    // BT), rows ASTR and BSTR units apart (the padding)
    tensorLayoutNV<2> sa = createTensorLayoutNV(2);
    tensorLayoutNV<2> sb = createTensorLayoutNV(2);
    sa = setTensorLayoutDimensionNV(sa, BM, BK);
    sa = setTensorLayoutStrideNV(sa, ASTR * TC_EPS, 1u);
#if TC_B_KMAJOR
    tensorViewNV<2, false, 1, 0> bt = createTensorViewNV(2, false, 1, 0);
    sb = setTensorLayoutDimensionNV(sb, BN, BK);
#else
    sb = setTensorLayoutDimensionNV(sb, BK, BN);
#endif
    sb = setTensorLayoutStrideNV(sb, BSTR * TC_EPS, 1u);

    ACC acc = ACC(ACC_ZERO);
    TC_PIPELINE(tiles, m0, n0, tid)

    tensorLayoutNV<2, CLAMP> tc = createTensorLayoutNV(2, CLAMP);
    tc = setTensorLayoutDimensionNV(tc, pc.m, pc.n);
    coopMatStoreTensorNV(acc, c, 0, sliceTensorLayoutNV(tc, m0, BM, n0, BN));
}
