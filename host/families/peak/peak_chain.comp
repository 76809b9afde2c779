#version 450
// peak_chain.comp - an instruction's own throughput: PEAK_CHAINS independent register-resident chains per
// invocation, each trips x PEAK_UNROLL dependent steps, trips a push constant (the compiler cannot fold the
// loop), each chain's final value stored (it cannot drop it). One source, one build per number type
// (shaders.cmake): -D PEAK_F32, F32X4, F16, F16X2, F64 (x = fma(x, x, b): a chaotic quadratic map, bounded for
// b in [-2, 1/4]), PEAK_I32, I16 (x = x * a + b, a and b odd: no fixed point mod 2^w), PEAK_DOT (x = x +
// dot(bytes of x, bytes of a), unsigned, modulo 2^32). The host emulates every step (host/families/peak/peak_chain.c).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "vkb.glsl"
#include "peak.h"

#if PEAK_F32
#define T float
#define S float
#define LOAD(s) (s)
#define STORE(x) (x)
#elif PEAK_F32X4
#define T vec4
#define S vec4
#define LOAD(s) (s)
#define STORE(x) (x)
#elif PEAK_F16 || PEAK_F16X2
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define S uint
#if PEAK_F16
#define T float16_t
#define LOAD(s) unpackFloat2x16(s).x
#define STORE(x) packFloat2x16(f16vec2(x, float16_t(0)))
#else
#define T f16vec2
#define LOAD(s) unpackFloat2x16(s)
#define STORE(x) packFloat2x16(x)
#endif
#elif PEAK_F64
#define T double
#define S double
#define LOAD(s) (s)
#define STORE(x) (x)
#elif PEAK_I32 || PEAK_DOT
#define T uint
#define S uint
#define LOAD(s) (s)
#define STORE(x) (x)
#elif PEAK_I16
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#define T uint16_t
#define S uint
#define LOAD(s) uint16_t(s)
#define STORE(x) uint(x)
#endif

#if PEAK_DOT
#extension GL_EXT_integer_dot_product : require
// OpUDot + OpIAdd (NVIDIA: IDP.4A then IADD3); the accumulating OpUDotAccSat saturates, which the H100's driver
// emulates with compares and selects: 0.17 of CUDA's rate against 0.74 (docs/performance.md)
#define STEP(x, a, b) x = dotPacked4x8EXT(x, a) + x
#elif PEAK_I32 || PEAK_I16
#define STEP(x, a, b) x = x * a + b
#else
#define STEP(x, a, b) x = fma(x, x, b)
#endif

// slot s, chain j: x0, a, b at seeds[(s * PEAK_CHAINS + j) * 3 + 0, 1, 2]
layout(std430, binding = 0) readonly buffer Seeds { S seeds[]; };
layout(std430, binding = 1) writeonly buffer Out { S dst[]; };
layout(push_constant) uniform Push { peak_push pc; };

void main()
{
    uint id = gl_GlobalInvocationID.x;
    if (id >= pc.n)
        return;
    uint base = id % pc.slots * PEAK_CHAINS * 3u;
    T x[PEAK_CHAINS], a[PEAK_CHAINS], b[PEAK_CHAINS];
    [[unroll]] for (uint j = 0; j < PEAK_CHAINS; j++) {
        x[j] = LOAD(seeds[base + 3u * j]);
        a[j] = LOAD(seeds[base + 3u * j + 1u]);
        b[j] = LOAD(seeds[base + 3u * j + 2u]);
    }
    for (uint t = 0; t < pc.trips; t++) {
        [[unroll]] for (uint u = 0; u < PEAK_UNROLL; u++) {
            [[unroll]] for (uint j = 0; j < PEAK_CHAINS; j++)
                STEP(x[j], a[j], b[j]);
        }
    }
    [[unroll]] for (uint j = 0; j < PEAK_CHAINS; j++)
#if PEAK_FOLD   // the planted fault: the chains' values unused, a loop the compiler may delete
        dst[id * PEAK_CHAINS + j] = STORE(a[j]);
#else
        dst[id * PEAK_CHAINS + j] = STORE(x[j]);
#endif
}
