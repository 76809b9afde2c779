// matmul_warptile.glsl - what matmul_warptile.comp and matmul_warptile_named.comp share: the constants, the
// bindings, the two shared stages, the next tile's loads (fetch) and stores (stash), the store of C (each load and
// store guarded, or not in a block known to lie inside: fetch_in, store4_in); each
// .comp holds its main (the registers it accumulates in). The layout is matmul_warptile.comp's header.

layout(constant_id = 3) const uint BM = 128;
layout(constant_id = 4) const uint BN = 128;
layout(constant_id = 5) const uint BK = 8;
layout(constant_id = 6) const uint WM = 64;
layout(constant_id = 7) const uint WN = 32;
layout(constant_id = 8) const uint TM = 8;
layout(constant_id = 9) const uint TN = 8;
// FIXED 1 builds the pipeline for one shape: M, N, K are FIXED_M, FIXED_N, FIXED_K, set by the plan from
// the case, so every stride, bound and trip count is a constant the driver can fold; FIXED 0 (the default) reads
// them from the push constants, one pipeline for every shape. DIM_M, DIM_N, DIM_K are the one place that chooses.
layout(constant_id = 10) const uint FIXED = 0;
layout(constant_id = 11) const uint FIXED_M = 0;
layout(constant_id = 12) const uint FIXED_N = 0;
layout(constant_id = 13) const uint FIXED_K = 0;
#define DIM_M (FIXED != 0u ? FIXED_M : pc.m)
#define DIM_N (FIXED != 0u ? FIXED_N : pc.n)
#define DIM_K (FIXED != 0u ? FIXED_K : pc.k)
// INTERIOR 1 (the warptile_interior row): a block wholly inside M x N, with K whole k tiles and K, N
// multiples of 4, runs its k loop and its stores without a guard (the whole-block path of FIXED at any shape, one
// pipeline); other blocks and shapes keep every guard. 0: every block guarded, unless WHOLE (matmul_warptile.comp).
layout(constant_id = 14) const uint INTERIOR = 0;

const uint NWARPS = (BM / WM) * (BN / WN);
const uint NT = MATMUL_WARP * NWARPS;       // the workgroup (the plan sets local_size_x to it)
const uint LR = WM / TM, LC = WN / TN;      // lane rows and columns of a warp tile: LR x LC = MATMUL_WARP
const uint MI = TM / 4u, NI = TN / 4u;      // 4x4 strips per invocation, down and across
const uint AP4 = BM / 4u + 1u;              // a k-row of the A tile in vec4, padded by one (stores' banks)
const uint BN4 = BN / 4u;
const uint BK4 = BK / 4u;
const uint ASZ = BK * AP4, BSZ = BK * BN4;  // one stage, in vec4
const uint LA = (BM * BK4 + NT - 1u) / NT;  // 16-byte global loads per invocation per tile
const uint LB = (BK * BN4 + NT - 1u) / NT;
// a fixed shape of whole blocks and k tiles: no access can fall outside, and the guards fold away. FIXED is 0 or 1
// (the plan refuses others), so this is FIXED != 0 && every remainder 0, written without &&: glslang evaluates
// that in the first function reading it, as code the other functions cannot see (invalid SPIR-V)
const bool WHOLE = FIXED_M % BM + FIXED_N % BN + FIXED_K % BK < FIXED;

layout(std430, binding = 0) readonly buffer MatA { float a1[]; };
layout(std430, binding = 0) readonly buffer MatA4 { vec4 a4[]; };
layout(std430, binding = 1) readonly buffer MatB { float b1[]; };
layout(std430, binding = 1) readonly buffer MatB4 { vec4 b4[]; };
layout(std430, binding = 2) writeonly buffer MatC { float c1[]; };
layout(std430, binding = 2) writeonly buffer MatC4 { vec4 c4[]; };

layout(push_constant) uniform Push { matmul_push pc; };

shared vec4 as_[2u * ASZ];
shared vec4 bs_[2u * BSZ];

// The next tile in registers, and where this invocation loads it from and stores it to: A's vec4 l is row
// ar[l] (of the block), k columns ac[l]..+3; B's is k row br[l], columns bc[l]..+3.
vec4 ra[LA], rb[LB];
uint ar[LA], ac[LA], br[LB], bc[LB];

// Is index I inside a dimension of N? Always in a block known to lie inside (interior: a constant at every call,
// which the driver folds once it inlines, as it inlines every function) and where the blocks are WHOLE.
bool inside(bool interior, uint i, uint n)
{
    return interior || WHOLE || i < n;
}

// The tile at K0 into ra, rb: zero outside A and B; interior (a constant at each call): the block and its k tiles
// lie inside, every access is, and the guards go.
void fetch_in(bool interior, uint k0, uint m0, uint n0)
{
    bool a_wide = interior || (DIM_K & 3u) == 0u, b_wide = interior || (DIM_N & 3u) == 0u;
    [[unroll]] for (uint l = 0; l < LA; l++) {
        uint gm = m0 + ar[l], gk = k0 + ac[l];
        vec4 v = vec4(0.0);
        if (ar[l] < BM && inside(interior, gm, DIM_M)) {
            if (a_wide) {
                if (inside(interior, gk, DIM_K))
                    v = a4[(gm * DIM_K + gk) >> 2];
            } else {
                [[unroll]] for (uint q = 0; q < 4u; q++)
                    if (gk + q < DIM_K)
                        v[q] = a1[gm * DIM_K + gk + q];
            }
        }
        ra[l] = v;
    }
    [[unroll]] for (uint l = 0; l < LB; l++) {
        uint gk = k0 + br[l], gn = n0 + bc[l];
        vec4 v = vec4(0.0);
        if (br[l] < BK && inside(interior, gk, DIM_K)) {
            if (b_wide) {
                if (inside(interior, gn, DIM_N))
                    v = b4[(gk * DIM_N + gn) >> 2];
            } else {
                [[unroll]] for (uint q = 0; q < 4u; q++)
                    if (gn + q < DIM_N)
                        v[q] = b1[gk * DIM_N + gn + q];
            }
        }
        rb[l] = v;
    }
}

// The tile at K0 with every guard (matmul_warptile_named's).
void fetch(uint k0, uint m0, uint n0)
{
    fetch_in(false, k0, m0, n0);
}

// ra, rb into shared stage S: A transposed (4 scalar stores down a k column), B one vec4.
void stash(uint s)
{
    [[unroll]] for (uint l = 0; l < LA; l++) {
        if (ar[l] >= BM)
            break;
        uint f = s * ASZ + ac[l] * AP4 + (ar[l] >> 2), e = ar[l] & 3u;
        as_[f][e] = ra[l].x;
        as_[f + AP4][e] = ra[l].y;
        as_[f + 2u * AP4][e] = ra[l].z;
        as_[f + 3u * AP4][e] = ra[l].w;
    }
    [[unroll]] for (uint l = 0; l < LB; l++) {
        if (br[l] >= BK)
            break;
        bs_[s * BSZ + br[l] * BN4 + (bc[l] >> 2)] = rb[l];
    }
}

// Row GM of C, columns GN..GN+3, from V: what of it lies inside C (16-byte stores where N is a multiple of 4).
// interior as fetch_in's.
void store4_in(bool interior, uint gm, uint gn, vec4 v)
{
    if (!inside(interior, gm, DIM_M))
        return;
    if (interior || (DIM_N & 3u) == 0u) {
        if (inside(interior, gn, DIM_N))   // n and gn multiples of 4: the whole vec4 is inside
            c4[(gm * DIM_N + gn) >> 2] = v;
    } else {
        [[unroll]] for (uint q = 0; q < 4u; q++)
            if (gn + q < DIM_N)
                c1[gm * DIM_N + gn + q] = v[q];
    }
}

// store4_in with every guard (matmul_warptile_named's).
void store4(uint gm, uint gn, vec4 v)
{
    store4_in(false, gm, gn, v);
}
