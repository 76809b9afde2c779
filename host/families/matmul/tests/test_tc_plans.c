/* test_tc_plans.c - the tensor-core rows' plan arithmetic (vkb_mm_tc_plan, matmul_tc.c) on the H100-like test
 * device (test_caps.h) with the cooperative-matrix sizes an H100 reports (16x16x16 fragments and workgroup
 * granularity): shared memory, the k-step halved where it is short, the workgroup and the tile, each
 * against values worked out by hand here. Lavapipe has no cooperative matrices, so no run reaches them. */
#include <string.h>

#include "matmul/matmul_tc.h"
#include "matmul/rows_tc.h"
#include "plan.h"
#include "test_caps.h"
#include "unit.h"

static vkb_caps h100(uint32_t shared_bytes, uint32_t subgroup)
{
    vkb_caps c = test_caps_gpu("H100-like", 132);
    for (int i = 0; i < 3; i++)
        c.coopmat_khr[i] = c.coopmat_khr16[i] = c.coopmat2_granularity[i] = 16;
    c.max_shared_bytes = shared_bytes;
    c.subgroup_size = c.subgroup_min = c.subgroup_max = subgroup;
    return c;
}

typedef struct planned {
    int code;
    uint32_t local[3], spec[16], tile_m, tile_n, shared;
} planned;

static planned plan(const char *kernel, const uint32_t *spec, int nspec, uint32_t lx, const vkb_caps *caps, uint64_t m,
                    uint64_t n, uint64_t k)
{
    planned p;
    char why[256];
    memset(&p, 0, sizeof p);
    p.local[0] = lx, p.local[1] = p.local[2] = 1;
    memcpy(p.spec, spec, (size_t)nspec * sizeof *spec);
    p.code = vkb_mm_tc_plan(kernel, m, n, k, caps, p.local, p.spec, &p.tile_m, &p.tile_n, &p.shared, why, sizeof why);
    return p;
}

/* matmul_coopmat_khr's row (BM BN BK WM WN = 128 128 32 64 32): 8 subgroups of 64x32; shared memory two
 * stages of A and B tiles padded by a 16-byte chunk a row, 2 (128 (32/8 + 1) + 32 (128/8 + 1)) 16 = 37888
 * bytes, and the subgroups' fragments staged for C: 8 x 16 x 16 x 4 (fp32) = 8192, or x 2 (fp16) = 4096. */
static void khr_shared(void)
{
    static const uint32_t row[] = {128, 128, 32, 64, 32, 0, 0, 0};
    vkb_caps caps = h100(48 * 1024, 32);
    planned p = plan("matmul_coopmat_khr", row, 8, 1, &caps, 4096, 4096, 4096);
    ASSERT(p.code == VKB_PLAN_OK && p.shared == 37888 + 8192 && p.spec[2] == 32);
    ASSERT(p.spec[5] == 16 && p.spec[6] == 16 && p.spec[7] == 16); /* the device's fragment filled in */
    ASSERT(p.local[0] == 8 * 32 && p.tile_m == 128 && p.tile_n == 128);
    p = plan("matmul_coopmat_khr_acc16", row, 8, 1, &caps, 4096, 4096, 4096);
    ASSERT(p.code == VKB_PLAN_OK && p.shared == 37888 + 4096);
    caps = h100(48 * 1024, 64); /* 64-lane subgroups: the same 8 subgroups, twice the invocations */
    p = plan("matmul_coopmat_khr", row, 8, 1, &caps, 4096, 4096, 4096);
    ASSERT(p.code == VKB_PLAN_OK && p.local[0] == 8 * 64);
}

/* coopmat_khr's row as declared leaves the subgroup tile and the fragment to the device: on the H100's 16x16x16 at
 * subgroup 32 the plan is the one the rows were tuned with (the WMMA twin's 64x32 of 128x128x32, 8 subgroups,
 * 37888 + 8192 bytes): every constant, the workgroup, the tile and shared memory exactly as before. */
static void khr_h100_unchanged(void)
{
    static const uint32_t row[] = {MATMUL_KHR_TILE}, tuned[] = {128, 128, 32, 64, 32, 16, 16, 16};
    vkb_caps caps = h100(48 * 1024, 32);
    planned p = plan("matmul_coopmat_khr", row, 8, 1, &caps, 8192, 8192, 8192);
    ASSERT(p.code == VKB_PLAN_OK && memcmp(p.spec, tuned, sizeof tuned) == 0);
    ASSERT(p.local[0] == 8 * 32 && p.local[1] == 1 && p.local[2] == 1);
    ASSERT(p.tile_m == 128 && p.tile_n == 128 && p.shared == 37888 + 8192);
    p = plan("matmul_coopmat_khr_acc16", row, 8, 1, &caps, 8192, 8192, 8192);
    ASSERT(p.code == VKB_PLAN_OK && memcmp(p.spec, tuned, sizeof tuned) == 0 && p.shared == 37888 + 4096);
}

/* Mesa 26's lavapipe: 8x8x8 fragments, subgroup 8, 32 KiB of shared memory. 64x32 would take 8 x 4 fragments
 * (the shader names 4 x 4), so the subgroup tile is 4 x 4 of them, 32x32: 16 subgroups of 8 in the 128x128
 * block; BK 32 needs 2 (128 5 + 32 17) 16 + 16 8 8 4 = 41984 bytes, so it halves to 16: 2 (128 3 + 16 17) 16
 * + 4096 = 25088. */
static void khr_lavapipe26(void)
{
    static const uint32_t row[] = {MATMUL_KHR_TILE};
    vkb_caps caps = h100(32 * 1024, 8);
    for (int i = 0; i < 3; i++)
        caps.coopmat_khr[i] = caps.coopmat_khr16[i] = 8;
    planned p = plan("matmul_coopmat_khr", row, 8, 1, &caps, 100, 75, 33);
    ASSERT(p.code == VKB_PLAN_OK && p.spec[3] == 32 && p.spec[4] == 32 && p.spec[2] == 16);
    ASSERT(p.spec[5] == 8 && p.spec[6] == 8 && p.spec[7] == 8);
    ASSERT(p.local[0] == 16 * 8 && p.tile_m == 128 && p.tile_n == 128 && p.shared == 25088);
    /* a tile the user gives is kept, and one of more than 4 x 4 fragments still skips */
    {
        uint32_t wide[] = {128, 128, 32, 64, 32, 0, 0, 0};
        ASSERT(plan("matmul_coopmat_khr", wide, 8, 1, &caps, 100, 75, 33).code == VKB_PLAN_SKIP);
    }
}

/* Short of shared memory the k-step halves while it stays a multiple of twice the fragment's K: at 40 KiB
 * BK 32 -> 16, 2 (128 3 + 16 17) 16 + 8192 = 29184 bytes; at 24 KiB it stops at 16 (the limits check
 * refuses what still does not fit). */
static void khr_halved(void)
{
    static const uint32_t row[] = {128, 128, 32, 64, 32, 0, 0, 0};
    vkb_caps caps = h100(40 * 1024, 32);
    planned p = plan("matmul_coopmat_khr", row, 8, 1, &caps, 4096, 4096, 4096);
    ASSERT(p.code == VKB_PLAN_OK && p.spec[2] == 16 && p.shared == 29184);
    caps = h100(24 * 1024, 32);
    p = plan("matmul_coopmat_khr", row, 8, 1, &caps, 4096, 4096, 4096);
    ASSERT(p.code == VKB_PLAN_OK && p.spec[2] == 16 && p.shared == 29184);
}

/* coopmat2_staged (128 128 32): two stages without the fragments, 37888 bytes; at 32 KiB BK halves to 16
 * (2 (128 3 + 16 17) 16 = 20992); the acc16 row (256 256 16): 2 (256 3 + 16 33) 16 = 41472, BK 16 kept (a
 * half of 16 is no multiple of 8 + granularity). coopmat2 itself: the driver's staging, 0. */
static void coopmat2_shared(void)
{
    static const uint32_t staged[] = {128, 128, 32, 1, 0, 8, 1}, staged16[] = {256, 256, 16, 1, 0, 1, 1};
    static const uint32_t plain[] = {128, 128, 32};
    vkb_caps caps = h100(48 * 1024, 32);
    planned p = plan("matmul_coopmat2_staged", staged, 7, 256, &caps, 4096, 4096, 4096);
    ASSERT(p.code == VKB_PLAN_OK && p.shared == 37888 && p.spec[2] == 32 && p.tile_m == 128 && p.tile_n == 128);
    p = plan("matmul_coopmat2_staged_acc16", staged16, 7, 256, &caps, 4096, 4096, 4096);
    ASSERT(p.code == VKB_PLAN_OK && p.shared == 41472 && p.tile_m == 256 && p.tile_n == 256);
    caps = h100(32 * 1024, 32);
    p = plan("matmul_coopmat2_staged", staged, 7, 256, &caps, 4096, 4096, 4096);
    ASSERT(p.code == VKB_PLAN_OK && p.spec[2] == 16 && p.shared == 20992);
    p = plan("matmul_coopmat2_staged_acc16", staged16, 7, 256, &caps, 4096, 4096, 4096);
    ASSERT(p.code == VKB_PLAN_OK && p.spec[2] == 16 && p.shared == 41472);
    p = plan("matmul_coopmat2", plain, 3, 256, &caps, 4096, 4096, 4096);
    ASSERT(p.code == VKB_PLAN_OK && p.shared == 0 && p.tile_m == 128 && p.tile_n == 128);
}

/* The instruction peak: each subgroup a 4 x 4 block of 16x16 fragments, a 256-wide workgroup 8 of them in a
 * row: a 64 x 512 tile; no shared memory. */
static void peak_tile(void)
{
    static const uint32_t zeros[8] = {0};
    vkb_caps caps = h100(48 * 1024, 32);
    planned p = plan("matmul_coopmat_peak", zeros, 8, 256, &caps, 4096, 4096, 4096);
    ASSERT(p.code == VKB_PLAN_OK && p.tile_m == 64 && p.tile_n == 512 && p.shared == 0);
    ASSERT(plan("matmul_coopmat_peak", zeros, 8, 256, &caps, 64, 512, 16).code == VKB_PLAN_OK);
    /* shapes not multiples of the tile run too (C is not checked; the grid covers them in whole tiles) */
    ASSERT(plan("matmul_coopmat_peak", zeros, 8, 256, &caps, 64 + 32, 512, 16).code == VKB_PLAN_OK);
    ASSERT(plan("matmul_coopmat_peak", zeros, 8, 256, &caps, 64, 512 + 256, 24).code == VKB_PLAN_OK);
    caps = h100(48 * 1024, 64); /* 64 lanes: 4 subgroups a row, 256 wide */
    p = plan("matmul_coopmat_peak_acc16", zeros, 8, 256, &caps, 4096, 4096, 4096);
    ASSERT(p.code == VKB_PLAN_OK && p.tile_m == 64 && p.tile_n == 256);
}

/* Fragments that are not cubes, as Intel's drivers list them (M x N x K): the subgroup tile follows M for its rows
 * and N for its columns, and K divides the k-step, so a mix-up of M, N and K changes a constant. The row
 * (128 128 32, tile left to the device) on the H100-like device (48 KiB, subgroup 32); shared memory the two stages
 * (37888 bytes) and the subgroups' C fragments, nsub M N 4:
 *   8x8x16:  tile 32x32 (4 x 4 fragments), 16 subgroups, + 16 8 8 4 = 41984
 *   16x8x16: tile 64x32 (4 x 4), 8 subgroups, + 8 16 8 4 = 41984
 *   8x16x16: tile 32x32 (4 x 2), 16 subgroups, + 16 8 16 4 = 46080
 *   16x16x8: tile 64x32 (4 x 2), 8 subgroups, + 8 16 16 4 = 46080
 *   32x8x16: tile 64x32 (2 x 4), 8 subgroups, + 8 32 8 4 = 46080
 * and 16x16x64, whose K does not divide BK 32, skips, where its M and K swapped (64x16x16) plans. */
static void khr_non_cube(void)
{
    static const struct {
        uint32_t frag[3], wm, wn, nsub, shared;
    } cases[] = {
        {{8, 8, 16}, 32, 32, 16, 41984},
        {{16, 8, 16}, 64, 32, 8, 41984},
        {{8, 16, 16}, 32, 32, 16, 46080},
        {{16, 16, 8}, 64, 32, 8, 46080},
        {{32, 8, 16}, 64, 32, 8, 37888 + 8 * 32 * 8 * 4},
    };
    static const uint32_t row[] = {MATMUL_KHR_TILE};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        vkb_caps caps = h100(48 * 1024, 32);
        planned p;
        memcpy(caps.coopmat_khr, cases[i].frag, sizeof caps.coopmat_khr);
        p = plan("matmul_coopmat_khr", row, 8, 1, &caps, 1000, 600, 200);
        ASSERT(p.code == VKB_PLAN_OK && p.spec[0] == 128 && p.spec[1] == 128 && p.spec[2] == 32);
        ASSERT(p.spec[5] == cases[i].frag[0] && p.spec[6] == cases[i].frag[1] && p.spec[7] == cases[i].frag[2]);
        ASSERT(p.spec[3] == cases[i].wm && p.spec[4] == cases[i].wn);
        ASSERT(p.local[0] == cases[i].nsub * 32 && p.shared == cases[i].shared);
        ASSERT(p.tile_m == 128 && p.tile_n == 128);
    }
    {
        vkb_caps caps = h100(48 * 1024, 32);
        caps.coopmat_khr[0] = 16, caps.coopmat_khr[1] = 16, caps.coopmat_khr[2] = 64;
        ASSERT(plan("matmul_coopmat_khr", row, 8, 1, &caps, 1000, 600, 200).code == VKB_PLAN_SKIP);
        caps.coopmat_khr[0] = 64, caps.coopmat_khr[2] = 16; /* M and K swapped: plans */
        ASSERT(plan("matmul_coopmat_khr", row, 8, 1, &caps, 1000, 600, 200).code == VKB_PLAN_OK);
    }
}

/* A device listing different fragments for fp16 and fp32 accumulators (through vkb_coopmat_pick, as the Vulkan
 * backend fills the caps): the fp32 row plans on 16x8x16, the acc16 row on 8x16x16, each with its own tile and
 * shared memory (the acc16 row's C fragments 2 bytes an element: 37888 + 16 8 16 2 = 41984). */
static void khr_acc_fragments(void)
{
    static const vkb_coopmat_type list[] = {
        {16, 8, 16, VKB_CT_F16, VKB_CT_F16, VKB_CT_F32, VKB_CT_F32, VKB_SCOPE_SUBGROUP, 0},
        {8, 16, 16, VKB_CT_F16, VKB_CT_F16, VKB_CT_F16, VKB_CT_F16, VKB_SCOPE_SUBGROUP, 0},
    };
    static const uint32_t row[] = {MATMUL_KHR_TILE};
    vkb_caps caps = h100(48 * 1024, 32);
    planned p;
    memset(caps.coopmat_khr, 0, sizeof caps.coopmat_khr);
    memset(caps.coopmat_khr16, 0, sizeof caps.coopmat_khr16);
    ASSERT(vkb_coopmat_pick(list, 2, VKB_CT_F16, VKB_CT_F32, caps.coopmat_khr));
    ASSERT(vkb_coopmat_pick(list, 2, VKB_CT_F16, VKB_CT_F16, caps.coopmat_khr16));
    p = plan("matmul_coopmat_khr", row, 8, 1, &caps, 1000, 600, 200);
    ASSERT(p.code == VKB_PLAN_OK && p.spec[5] == 16 && p.spec[6] == 8 && p.spec[7] == 16);
    ASSERT(p.spec[3] == 64 && p.spec[4] == 32 && p.local[0] == 8 * 32 && p.shared == 41984);
    p = plan("matmul_coopmat_khr_acc16", row, 8, 1, &caps, 1000, 600, 200);
    ASSERT(p.code == VKB_PLAN_OK && p.spec[5] == 8 && p.spec[6] == 16 && p.spec[7] == 16);
    ASSERT(p.spec[3] == 32 && p.spec[4] == 32 && p.local[0] == 16 * 32 && p.shared == 37888 + 16 * 8 * 16 * 2);
}

UNIT_TESTS({"khr_shared", khr_shared}, {"khr_h100_unchanged", khr_h100_unchanged}, {"khr_lavapipe26", khr_lavapipe26},
           {"khr_halved", khr_halved}, {"coopmat2_shared", coopmat2_shared}, {"peak_tile", peak_tile},
           {"khr_non_cube", khr_non_cube}, {"khr_acc_fragments", khr_acc_fragments})
