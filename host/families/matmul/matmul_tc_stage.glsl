// matmul_tc_stage.glsl - how the tensor-core GEMMs (matmul_coopmat_khr.comp, matmul_coopmat2_staged.comp)
// bring the fp16 BM x BK tiles of A and BK x BN tiles of B into shared memory: each invocation loads
// 16-byte chunks of 8 halves into registers (the next tile, in flight during the math on the current one)
// and stores them into one of two padded shared stages; one barrier per k-tile. Include after the push
// constants (pc.m, pc.n, pc.k), with the constants BM, BN, BK, PREFETCH, STORE_EARLY and GROUP_M declared.
// PREFETCH (register sets) and STORE_EARLY choose where the loads are issued and stored: TC_PIPELINE below.

// TC_INT8 1 (the int8 rows): the elements are bytes, 16 to a 16-byte chunk, and the shared stages are uvec2
// units of 8 bytes (so a fragment 8 bytes wide, lavapipe's 8x8x8, starts on a unit), each chunk stored as two;
// else 16-bit elements, 8 to a chunk, and uvec4 units. Offsets and strides of the stages count units (TC_EPS
// elements each), rows padded by 16 bytes either way.
// TC_B_KMAJOR 1 (int8 only): B's stages hold B^T, BN rows of BK bytes (k-major), so that B's fragments load from
// shared memory as A's do (column-major), the layout the int8 tensor-core instruction takes for B. NVIDIA's
// 16-byte shared-memory load transposes 16-bit elements only: from a row-major int8 B its compiler gathers B byte
// by byte. The staging transposes instead: each chunk of B is 4 bytes of 4 consecutive k rows (four 4-byte
// loads), turned into 4 words of 4 k values, one per column (b_kmajor_chunk, stash).
#ifndef TC_INT8
#define TC_INT8 0
#endif
#ifndef TC_B_KMAJOR
#define TC_B_KMAJOR 0
#endif
#if TC_INT8
#define TC_SH_T uvec2
const uint TC_EPC = 16u, TC_EPS = 8u, TC_PAD = 2u;
#else
#define TC_SH_T uvec4
const uint TC_EPC = 8u, TC_EPS = 8u, TC_PAD = 1u;
#endif
const uint TC_UPC = TC_EPC / TC_EPS;   // shared units per chunk

const uint NT = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;
const uint ASTR = BK / TC_EPS + TC_PAD;   // A stage row stride in units, 16 bytes of padding: the 8 rows
#if TC_B_KMAJOR
const uint BSTR = BK / TC_EPS + TC_PAD;   // of a fragment read (LDSM) fall in 8 different bank quads
const uint ASTAGE = BM * ASTR, BSTAGE = BN * BSTR;
#else
const uint BSTR = BN / TC_EPS + TC_PAD;
const uint ASTAGE = BM * ASTR, BSTAGE = BK * BSTR;
#endif
const uint ACH = BM * BK / TC_EPC, BCH = BK * BN / TC_EPC;   // 16-byte chunks per tile
const uint LA = (ACH + NT - 1u) / NT, LB = (BCH + NT - 1u) / NT;

// The fp16 inputs seen as 4-, 8- and 16-byte words: the widest load the rows' alignment allows.
layout(std430, binding = 0) readonly buffer MatA { uint a2[]; };
layout(std430, binding = 0) readonly buffer MatA4 { uvec2 a4[]; };
layout(std430, binding = 0) readonly buffer MatA8 { uvec4 a8[]; };
layout(std430, binding = 1) readonly buffer MatB { uint b2[]; };
layout(std430, binding = 1) readonly buffer MatB4 { uvec2 b4[]; };
layout(std430, binding = 1) readonly buffer MatB8 { uvec4 b8[]; };

shared TC_SH_T as[2u * ASTAGE];
shared TC_SH_T bs[2u * BSTAGE];

uvec4 ra[2][LA], rb[2][LB];   // the register sets, indexed by constants only (no local memory)

// Eight halves of row ROW from column COL (a multiple of 8) of a ROWS x COLS fp16 matrix, zero beyond its
// edges: one 16-byte load where rows are 16-byte aligned (COLS a multiple of 8), two 8-byte loads where
// COLS is a multiple of 4, else the 4-byte words that hold the chunk (4 from an even element, 5 from an
// odd one, shifted into place) with the halves past the row's end, which belong to the next row, cleared.
uvec4 chunk_guarded(bool is_a, uint row, uint col, uint rows, uint cols)
{
    if (row >= rows || col >= cols)
        return uvec4(0u);
    uint e = row * cols + col, valid = min(cols - col, 8u);
    if ((cols & 7u) == 0u)
        return is_a ? a8[e >> 3] : b8[e >> 3];
    if ((cols & 3u) == 0u) {   // VALID is 4 or 8
        uvec2 hi = uvec2(0u);
        if (valid > 4u)
            hi = is_a ? a4[(e >> 2) + 1u] : b4[(e >> 2) + 1u];
        return uvec4(is_a ? a4[e >> 2] : b4[e >> 2], hi);
    }
    uint odd = e & 1u, nw = (valid + odd + 1u) >> 1;   // words holding halves E .. E + VALID - 1
    uint w[5], p[4];
    [[unroll]] for (uint q = 0; q < 5u; q++) {
        w[q] = 0u;
        if (q < nw)   // a branch, not a select: no load past the matrix
            w[q] = is_a ? a2[(e >> 1) + q] : b2[(e >> 1) + q];
    }
    [[unroll]] for (uint q = 0; q < 4u; q++) {
        p[q] = odd != 0u ? w[q] >> 16 | w[q + 1u] << 16 : w[q];
        if (2u * q >= valid)
            p[q] = 0u;
        else if (2u * q + 1u == valid)
            p[q] &= 0xffffu;
    }
    return uvec4(p[0], p[1], p[2], p[3]);
}

// Sixteen bytes of row ROW from column COL (a multiple of 16) of a ROWS x COLS int8 matrix, zero beyond its
// edges: one 16-byte load where COLS is a multiple of 16, else the 4-byte words that hold the chunk (4 from an
// element at a word's start, 5 otherwise, shifted into place), the bytes past the row's end cleared.
uvec4 chunk_guarded8(bool is_a, uint row, uint col, uint rows, uint cols)
{
    if (row >= rows || col >= cols)
        return uvec4(0u);
    uint e = row * cols + col, valid = min(cols - col, 16u);
    if ((cols & 15u) == 0u)
        return is_a ? a8[e >> 4] : b8[e >> 4];
    uint sh = (e & 3u) * 8u, nw = ((e & 3u) + valid + 3u) >> 2;   // words holding bytes E .. E + VALID - 1
    uint w[5], p[4];
    [[unroll]] for (uint q = 0; q < 5u; q++) {
        w[q] = 0u;
        if (q < nw)   // a branch, not a select: no load past the matrix
            w[q] = is_a ? a2[(e >> 2) + q] : b2[(e >> 2) + q];
    }
    [[unroll]] for (uint q = 0; q < 4u; q++) {
        p[q] = sh != 0u ? w[q] >> sh | w[q + 1u] << (32u - sh) : w[q];
        if (4u * q >= valid)
            p[q] = 0u;
        else if (4u * q + 4u > valid)
            p[q] &= 0xffffffffu >> (8u * (4u * q + 4u - valid));
    }
    return uvec4(p[0], p[1], p[2], p[3]);
}

#if TC_INT8
#define TC_CHUNK chunk_guarded8
#else
#define TC_CHUNK chunk_guarded
#endif

// Four bytes of row ROW from column COL of the ROWS x COLS int8 matrix B, zero beyond its edges: the word that
// holds them where COLS is a multiple of 4, else the one or two words they lie in, shifted into place, the
// bytes past the row's end cleared (no load past the matrix).
uint quad_guarded8(uint row, uint col, uint rows, uint cols)
{
    if (row >= rows || col >= cols)
        return 0u;
    uint e = row * cols + col, valid = min(cols - col, 4u), sh = (e & 3u) * 8u;
    uint w = b2[e >> 2];
    if (sh != 0u) {
        w >>= sh;
        if ((e & 3u) + valid > 4u)   // a branch, not a select: the next word only where it holds B's bytes
            w |= b2[(e >> 2) + 1u] << (32u - sh);
    }
    return valid == 4u ? w : w & (0xffffffffu >> (8u * (4u - valid)));
}

// B's k-major chunk I of a tile: 4 k rows by 4 columns, at k row 4 KQ and column 4 NQ of the tile. A group of 32
// chunks is 8 column quads by 4 k quads, so that each of its four row loads reads 32 bytes of 4 rows, and each of
// stash's four word stores hits 32 different banks (rows 8 apart, 12 or 20 words each: BK 32 or 64).
uvec2 b_kmajor_chunk(uint i)
{
    uint lane = i & 31u, group = i >> 5;
    return uvec2((group / (BN / 32u)) * 4u + (lane >> 3), (group % (BN / 32u)) * 8u + (lane & 7u));
}

// The 4 words of chunk I of B's tile at K0: word R holds B[k0 + 4 kq + R][n0 + 4 nq .. + 3].
uvec4 b_kmajor_fetch(uint i, uint k0, uint n0, bool inside)
{
    uvec2 q = b_kmajor_chunk(i);
    uint row = k0 + 4u * q.x, col = n0 + 4u * q.y;
    uvec4 w;
    [[unroll]] for (uint r = 0; r < 4u; r++) {
        if (inside)   // uniform
            w[r] = b2[((row + r) * pc.n + col) >> 2];
        else
            w[r] = quad_guarded8(row + r, col, pc.k, pc.n);
    }
    return w;
}

// Issue the loads of the tile at K0 into register set S (a constant at every call).
void fetch(uint k0, uint m0, uint n0, uint tid, uint s)
{
    const uint sh = TC_INT8 != 0 ? 4u : 3u;   // log2 of TC_EPC
    bool a_inside = (pc.k & (TC_EPC - 1u)) == 0u && m0 + BM <= pc.m && k0 + BK <= pc.k;   // uniform
    bool b_inside = (pc.n & (TC_EPC - 1u)) == 0u && k0 + BK <= pc.k && n0 + BN <= pc.n;
    [[unroll]] for (uint l = 0; l < LA; l++) {
        uint i = min(tid + l * NT, ACH - 1u), r = i / (BK / TC_EPC), c8 = i % (BK / TC_EPC);
        if (a_inside)
            ra[s][l] = a8[((m0 + r) * pc.k + k0 + c8 * TC_EPC) >> sh];
        else
            ra[s][l] = TC_CHUNK(true, m0 + r, k0 + c8 * TC_EPC, pc.m, pc.k);
    }
#if TC_B_KMAJOR
    b_inside = (pc.n & 3u) == 0u && k0 + BK <= pc.k && n0 + BN <= pc.n;   // whole words: 4-byte loads
    [[unroll]] for (uint l = 0; l < LB; l++)
        rb[s][l] = b_kmajor_fetch(min(tid + l * NT, BCH - 1u), k0, n0, b_inside);
#else
    [[unroll]] for (uint l = 0; l < LB; l++) {
        uint i = min(tid + l * NT, BCH - 1u), r = i / (BN / TC_EPC), c8 = i % (BN / TC_EPC);
        if (b_inside)
            rb[s][l] = b8[((k0 + r) * pc.n + n0 + c8 * TC_EPC) >> sh];
        else
            rb[s][l] = TC_CHUNK(false, k0 + r, n0 + c8 * TC_EPC, pc.k, pc.n);
    }
#endif
}

// One chunk V into shared array ARR at unit U: one uvec4, or two uvec2 (TC_INT8).
#if TC_INT8
#define TC_STORE(arr, u, v) { uvec4 v_ = v; arr[u] = v_.xy; arr[(u) + 1u] = v_.zw; }
#else
#define TC_STORE(arr, u, v) arr[u] = v
#endif

// Store register set S into shared stage G.
void stash(uint g, uint tid, uint s)
{
    [[unroll]] for (uint l = 0; l < LA; l++) {
        uint i = tid + l * NT;
        if (i < ACH)
            TC_STORE(as, g * ASTAGE + i / (BK / TC_EPC) * ASTR + i % (BK / TC_EPC) * TC_UPC, ra[s][l]);
    }
#if TC_B_KMAJOR
    [[unroll]] for (uint l = 0; l < LB; l++) {
        uint i = tid + l * NT;
        if (i < BCH) {
            // Rotate each row's word by ROT bytes, then word J of the 4x4 byte transpose is column 4 nq +
            // (J + ROT) & 3, its 4 k values in order: column quads 2 apart start on different columns, so the
            // 32 stores of a group fall in 8 rows 8 apart (distinct bank quads) by 4 k quads (distinct banks).
            uvec2 q = b_kmajor_chunk(i);
            uint rot = (q.y >> 1) & 3u;
            uvec4 w = rb[s][l];
            if (rot != 0u)
                w = w >> (8u * rot) | w << (32u - 8u * rot);
            [[unroll]] for (uint j = 0; j < 4u; j++) {
                uint t = (w.x >> (8u * j) & 0xffu) | (w.y >> (8u * j) & 0xffu) << 8 |
                         (w.z >> (8u * j) & 0xffu) << 16 | (w.w >> (8u * j)) << 24;
                uint word = (g * BSTAGE + (4u * q.y + ((j + rot) & 3u)) * BSTR) * 2u + q.x;   // 2 words a unit
                bs[word >> 1][word & 1u] = t;
            }
        }
    }
#else
    [[unroll]] for (uint l = 0; l < LB; l++) {
        uint i = tid + l * NT;
        if (i < BCH)
            TC_STORE(bs, g * BSTAGE + i / (BN / TC_EPC) * BSTR + i % (BN / TC_EPC) * TC_UPC, rb[s][l]);
    }
#endif
}

// The block (column, row) of C this workgroup computes. GROUP_M 1: the grid's own order (x fastest); more:
// the workgroups, in the order they are launched, walk GROUP_M block rows column by column, so those running
// at once share GROUP_M panels of A and few panels of B in L2 instead of every panel of B (a bijection on
// any grid: the last group takes the rows that remain).
// A constant left 0 means its default (--spec of a later SpecId passes 0 for the ones between).
const uint GROUP_ROWS = GROUP_M + uint(GROUP_M == 0u);

uvec2 block_of_workgroup()
{
    uint gx = gl_NumWorkGroups.x, gy = gl_NumWorkGroups.y;
    uint id = gl_WorkGroupID.y * gx + gl_WorkGroupID.x;
    uint first = id / (GROUP_ROWS * gx) * GROUP_ROWS, rows = min(gy - first, GROUP_ROWS);
    uint i = id % (GROUP_ROWS * gx);
    return uvec2(i / rows, first + i % rows);
}

// The k-loop over TILES tiles of the M0, N0 block: TC_MATH(G), the includer's macro, does the math on shared
// stage G. Every barrier is reached by the whole workgroup (TILES is uniform); between two barriers one stage
// is read and the other written. Four schedules of the same loads:
// - STORE_EARLY 0, PREFETCH 1: the loads of tile t+1 are issued at the top of tile t and stored at its end.
//   NVIDIA's compiler may hoist those stores into the math (seen in SASS: after the third of 32 HMMAs), so
//   the warp waits there for the loads and the math covers none of their latency.
// - STORE_EARLY 0, PREFETCH 2: two register sets; tile t+2 issued at the top of tile t, stored at the end of
//   tile t+1.
// - STORE_EARLY 1, PREFETCH 1: tile t+1, loaded during tile t-1, is stored at the top of tile t, after the
//   barrier (no store can move into the math before it), then tile t+2 is issued; one tile of math and a
//   barrier between each load and its store.
// - STORE_EARLY 1, PREFETCH 2: two register sets; tile t+3 issued at the top of tile t (after the store of
//   tile t+1 frees its set), stored at the top of tile t+2: two tiles of math between.
// The two-set loops take tiles in pairs, so that sets and stages are constants (no register arrays in local
// memory).
#define TC_PIPELINE(tiles, m0, n0, tid)                                                   \
    fetch(0u, m0, n0, tid, 0u);                                                           \
    stash(0u, tid, 0u);                                                                   \
    if (STORE_EARLY != 0u) {                                                              \
        if (tiles > 1u)                                                                   \
            fetch(BK, m0, n0, tid, 0u);                                                   \
        if (PREFETCH >= 2u && tiles > 2u)                                                 \
            fetch(2u * BK, m0, n0, tid, 1u);                                              \
        barrier();                                                                        \
        if (PREFETCH >= 2u)                                                               \
            TC_LOOP_EARLY2(tiles, m0, n0, tid)                                            \
        else                                                                              \
            TC_LOOP_EARLY1(tiles, m0, n0, tid)                                            \
    } else {                                                                              \
        if (PREFETCH >= 2u && tiles > 1u)                                                 \
            fetch(BK, m0, n0, tid, 1u);                                                   \
        barrier();                                                                        \
        if (PREFETCH >= 2u)                                                               \
            TC_LOOP_LATE2(tiles, m0, n0, tid)                                             \
        else                                                                              \
            TC_LOOP_LATE1(tiles, m0, n0, tid)                                             \
    }

// at the top of tile t: stage t & 1 holds it, set 0 tile t+1 (in flight)
#define TC_LOOP_EARLY1(tiles, m0, n0, tid)                                                \
    for (uint t = 0; t < tiles; t++) {                                                    \
        if (t + 1u < tiles)                                                               \
            stash((t + 1u) & 1u, tid, 0u);                                                \
        if (t + 2u < tiles)                                                               \
            fetch((t + 2u) * BK, m0, n0, tid, 0u);                                        \
        TC_MATH(t & 1u)                                                                   \
        barrier();                                                                        \
    }

// at the top of an even tile t: stage 0 holds it, set 0 tile t+1, set 1 tile t+2
#define TC_LOOP_EARLY2(tiles, m0, n0, tid)                                                \
    for (uint t = 0; t < tiles; t += 2u) {                                                \
        if (t + 1u < tiles)                                                               \
            stash(1u, tid, 0u);                                                           \
        if (t + 3u < tiles)                                                               \
            fetch((t + 3u) * BK, m0, n0, tid, 0u);                                        \
        TC_MATH(0u)                                                                       \
        barrier();                                                                        \
        if (t + 1u < tiles) {                                                             \
            if (t + 2u < tiles)                                                           \
                stash(0u, tid, 1u);                                                       \
            if (t + 4u < tiles)                                                           \
                fetch((t + 4u) * BK, m0, n0, tid, 1u);                                    \
            TC_MATH(1u)                                                                   \
            barrier();                                                                    \
        }                                                                                 \
    }

// at the top of an even tile t: stage 0 holds it, set 1 tile t+1
#define TC_LOOP_LATE2(tiles, m0, n0, tid)                                                 \
    for (uint t = 0; t < tiles; t += 2u) {                                                \
        if (t + 2u < tiles)                                                               \
            fetch((t + 2u) * BK, m0, n0, tid, 0u);                                        \
        TC_MATH(0u)                                                                       \
        if (t + 1u < tiles)                                                               \
            stash(1u, tid, 1u);                                                           \
        barrier();                                                                        \
        if (t + 1u < tiles) {                                                             \
            if (t + 3u < tiles)                                                           \
                fetch((t + 3u) * BK, m0, n0, tid, 1u);                                    \
            TC_MATH(1u)                                                                   \
            if (t + 2u < tiles)                                                           \
                stash(0u, tid, 0u);                                                       \
            barrier();                                                                    \
        }                                                                                 \
    }

// at the top of tile t: stage t & 1 holds it
#define TC_LOOP_LATE1(tiles, m0, n0, tid)                                                 \
    for (uint t = 0; t < tiles; t++) {                                                    \
        if (t + 1u < tiles)                                                               \
            fetch((t + 1u) * BK, m0, n0, tid, 0u);                                        \
        TC_MATH(t & 1u)                                                                   \
        if (t + 1u < tiles)                                                               \
            stash((t & 1u) ^ 1u, tid, 0u);                                                \
        barrier();                                                                        \
    }
