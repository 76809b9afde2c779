#version 450
// matmul_coopmat2.comp - C = A B with fp16 A and B through VK_NV_cooperative_matrix2: workgroup-scope
// matrices of the whole BM x BN block, loaded straight from the buffers by tensor layouts whose constant
// clamp mode reads zero beyond M, N and K and whose stores drop what lies beyond: any shape, no shared
// memory or staging of our own (the driver chooses how the workgroup's subgroups split the block and
// how the tiles travel). BM, BN, BK must be multiples of the device's workgroup-scope granularity
// (vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV; the host checks). Built with fp32
// accumulators and output, and with ACC16 fp16 accumulators and an fp16 output.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_cooperative_matrix : require
#extension GL_NV_cooperative_matrix2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_memory_scope_semantics : require
#include "vkb.glsl"

layout(constant_id = 3) const uint BM = 128;
layout(constant_id = 4) const uint BN = 128;
layout(constant_id = 5) const uint BK = 32;

#if ACC16
#define ACC_T float16_t
#else
#define ACC_T float
#endif

layout(std430, binding = 0) readonly buffer MatA { float16_t a[]; };
layout(std430, binding = 1) readonly buffer MatB { float16_t b[]; };
layout(std430, binding = 2) writeonly buffer MatC { ACC_T c[]; };

layout(push_constant) uniform Push { uint m, n, k; } pc;

#define CLAMP gl_CooperativeMatrixClampModeConstantNV
#define ACC coopmat<ACC_T, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>

void main()
{
    uint m0 = gl_WorkGroupID.y * BM, n0 = gl_WorkGroupID.x * BN;
    tensorLayoutNV<2, CLAMP> ta = createTensorLayoutNV(2, CLAMP);
    tensorLayoutNV<2, CLAMP> tb = createTensorLayoutNV(2, CLAMP);
    tensorLayoutNV<2, CLAMP> tc = createTensorLayoutNV(2, CLAMP);
    ta = setTensorLayoutDimensionNV(ta, pc.m, pc.k);
    tb = setTensorLayoutDimensionNV(tb, pc.k, pc.n);
    tc = setTensorLayoutDimensionNV(tc, pc.m, pc.n);

    ACC acc = ACC(0.0);
    for (uint k0 = 0; k0 < pc.k; k0 += BK) {
        coopmat<float16_t, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA> ma;
        coopmat<float16_t, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB> mb;
        coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(ta, m0, BM, k0, BK));
        coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(tb, k0, BK, n0, BN));
        acc = coopMatMulAdd(ma, mb, acc);
    }
    coopMatStoreTensorNV(acc, c, 0, sliceTensorLayoutNV(tc, m0, BM, n0, BN));
}
