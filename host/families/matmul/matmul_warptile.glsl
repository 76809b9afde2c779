// matmul_warptile.glsl - what matmul_warptile.comp and matmul_warptile_named.comp share: the constants, the
// bindings, the two shared stages, the next tile's loads (fetch) and stores (stash), the store of C; each
// .comp holds its main (the registers it accumulates in). The layout is matmul_warptile.comp's header.

layout(constant_id = 3) const uint BM = 128;
layout(constant_id = 4) const uint BN = 128;
layout(constant_id = 5) const uint BK = 8;
layout(constant_id = 6) const uint WM = 64;
layout(constant_id = 7) const uint WN = 32;
layout(constant_id = 8) const uint TM = 8;
layout(constant_id = 9) const uint TN = 8;

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

// The tile at K0 into ra, rb: zero outside A and B.
void fetch(uint k0, uint m0, uint n0)
{
    bool a_wide = (pc.k & 3u) == 0u, b_wide = (pc.n & 3u) == 0u;
    [[unroll]] for (uint l = 0; l < LA; l++) {
        uint gm = m0 + ar[l], gk = k0 + ac[l];
        vec4 v = vec4(0.0);
        if (ar[l] < BM && gm < pc.m) {
            if (a_wide) {
                if (gk < pc.k)
                    v = a4[(gm * pc.k + gk) >> 2];
            } else {
                [[unroll]] for (uint q = 0; q < 4u; q++)
                    if (gk + q < pc.k)
                        v[q] = a1[gm * pc.k + gk + q];
            }
        }
        ra[l] = v;
    }
    [[unroll]] for (uint l = 0; l < LB; l++) {
        uint gk = k0 + br[l], gn = n0 + bc[l];
        vec4 v = vec4(0.0);
        if (br[l] < BK && gk < pc.k) {
            if (b_wide) {
                if (gn < pc.n)
                    v = b4[(gk * pc.n + gn) >> 2];
            } else {
                [[unroll]] for (uint q = 0; q < 4u; q++)
                    if (gn + q < pc.n)
                        v[q] = b1[gk * pc.n + gn + q];
            }
        }
        rb[l] = v;
    }
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
void store4(uint gm, uint gn, vec4 v)
{
    if (gm >= pc.m)
        return;
    if ((pc.n & 3u) == 0u) {
        if (gn < pc.n)   // n and gn multiples of 4: the whole vec4 is inside
            c4[(gm * pc.n + gn) >> 2] = v;
    } else {
        [[unroll]] for (uint q = 0; q < 4u; q++)
            if (gn + q < pc.n)
                c1[gm * pc.n + gn + q] = v[q];
    }
}
