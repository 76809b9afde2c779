/* test_work_counts.c - the work behind a family's metric (bytes, dispatches, loads, operations) counted again
 * from its plan, apart from the family's own work(): what the device is asked to do (the
 * bytes each copy moves, the dispatches and their repeats, the invocations and the loads or steps each runs)
 * against what the metric divides by. A work() that drifts from its plan moves every number the family
 * reports and no output check sees it. */
#include <string.h>

#include "cache/cache.h"
#include "families.h"
#include "peak/peak.h"
#include "peak/peak_coopmat.h"
#include "select.h"
#include "test_caps.h"
#include "unit.h"

/* Plans F's variant VI at SHAPE (no inputs: plans run on the shape alone) into P; 0 when the row is not planned
 * on this device (a row not built here, a cooperative-matrix row). */
static int plan_row(const vkb_family *f, int vi, const vkb_case *c, vkb_plan *p)
{
    vkb_caps caps = test_caps_gpu("test device", 16);
    char why[200];
    return vkb_family_plan(f, &f->variants[vi], c, &caps, p, why, sizeof why) == VKB_PLAN_OK;
}

static uint64_t invocations(const vkb_pass *pass)
{
    return (uint64_t)pass->groups[0] * pass->groups[1] * pass->groups[2] * pass->local[0] * pass->local[1] *
           pass->local[2];
}

/* transfer: the bytes that cross, once per direction: each copy's bytes (API or host), a shader's output
 * buffers (shader_both writes one each way); the API-copy ceiling counts its read and its write */
static void transfer_bytes(void)
{
    const vkb_family *f = vkb_family_find("transfer");
    int planned = 0;
    for (int vi = 0; vi < f->nvariants; vi++) {
        const vkb_variant *v = &f->variants[vi];
        vkb_case c = {f, {{1 << 20}}, NULL};
        vkb_plan p;
        double bytes = 0;
        if (!plan_row(f, vi, &c, &p))
            continue;
        planned++;
        for (int k = 0; k < p.npass; k++) {
            const vkb_pass *pass = &p.pass[k];
            if (pass->kind == VKB_PASS_COPY || pass->kind == VKB_PASS_HOST_COPY)
                bytes += (double)pass->copy_bytes;
            else if (pass->kind == VKB_PASS_DISPATCH)
                for (int b = 0; b < pass->nbind; b++)
                    bytes += p.buf[pass->bind[b]].role == VKB_BUF_OUTPUT ? (double)p.buf[pass->bind[b]].bytes : 0;
        }
        if (v->flags & (VKB_VAR_API_COPY | VKB_VAR_STREAM_COPY))
            bytes *= 2;
        if (vkb_family_work(f, v, &c) != bytes)
            fprintf(stderr, "transfer/%s: work %.0f, plan %.0f\n", v->name, vkb_family_work(f, v, &c), bytes);
        ASSERT(vkb_family_work(f, v, &c) == bytes);
    }
    ASSERT(planned == f->nvariants);
}

/* latency: one unit of work per dispatch or timestamp the plan records (a pass's repeats each count) */
static void latency_dispatches(void)
{
    const vkb_family *f = vkb_family_find("latency");
    for (int vi = 0; vi < f->nvariants; vi++) {
        const vkb_variant *v = &f->variants[vi];
        vkb_case c = {f, {{37}}, NULL};
        vkb_plan p;
        double events = 0;
        ASSERT(plan_row(f, vi, &c, &p));
        for (int k = 0; k < p.npass; k++)
            if (p.pass[k].kind == VKB_PASS_DISPATCH || p.pass[k].kind == VKB_PASS_TIMESTAMP)
                events += p.pass[k].repeat ? p.pass[k].repeat : 1;
        if (vkb_family_work(f, v, &c) != events)
            fprintf(stderr, "latency/%s: work %.0f, plan %.0f\n", v->name, vkb_family_work(f, v, &c), events);
        ASSERT(events > 0 && vkb_family_work(f, v, &c) == events);
    }
}

/* cache.chase: the hops the kernel is told to walk (its loads, one after another); cache.read: every
 * invocation's loads of 16 bytes (the metric is the plan's work: how much a run reads depends on the device) */
static void cache_loads(void)
{
    const vkb_family *chase = vkb_family_find("cache.chase"), *read = vkb_family_find("cache.read");
    static const long long footprints[] = {4096, 1 << 20, 48 << 20};
    for (size_t k = 0; k < sizeof footprints / sizeof footprints[0]; k++) {
        vkb_case c = {chase, {{footprints[k]}}, NULL};
        vkb_plan p;
        cache_chase_push cp;
        cache_read_push rp;
        ASSERT(plan_row(chase, 0, &c, &p) && p.npass == 1);
        memcpy(&cp, p.pass[0].push, sizeof cp);
        ASSERT(vkb_family_work(chase, &chase->variants[0], &c) == (double)cp.hops);
        c.family = read;
        ASSERT(plan_row(read, 0, &c, &p) && p.npass == 1);
        memcpy(&rp, p.pass[0].push, sizeof rp);
        ASSERT(rp.loads > 0 && (uint64_t)rp.loads * 16 * invocations(&p.pass[0]) >= (uint64_t)footprints[k]);
        ASSERT(p.work == (double)invocations(&p.pass[0]) * rp.loads * 16);
    }
}

/* peak: operations per lane per step, counted here from what each instruction does (a multiply-add is two;
 * dot_u8x4 four products and four additions), times the lanes, the steps of every trip, the chains and the
 * invocations dispatched */
static void peak_operations(void)
{
    static const struct {
        const char *row;
        int lanes, ops;
    } rows[] = {{"fma_f32", 1, 2}, {"fma_f32x4", 4, 2}, {"fma_f16", 1, 2}, {"fma_f16x2", 2, 2},
                {"fma_f64", 1, 2}, {"mad_i32", 1, 2},   {"mad_i16", 1, 2}, {"dot_u8x4", 1, 8}};
    const vkb_family *f = vkb_family_find("peak");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        const vkb_variant *v = vkb_variant_find(f, rows[r].row);
        vkb_case c = {f, {{3 * PEAK_LOCAL, 5}}, NULL};
        vkb_plan p;
        peak_push push;
        ASSERT(v != NULL);
        if (!v)
            continue;
        ASSERT(plan_row(f, (int)(v - f->variants), &c, &p));
        memcpy(&push, p.pass[0].push, sizeof push);
        ASSERT(invocations(&p.pass[0]) == 3 * PEAK_LOCAL && push.trips == 5);
        ASSERT(vkb_family_work(f, v, &c) ==
               (double)invocations(&p.pass[0]) * PEAK_CHAINS * push.trips * PEAK_UNROLL * rows[r].lanes * rows[r].ops);
    }
}

/* An H100-like device with cooperative matrices (test_tc_plans.c's): the fragment M x N x K of every subgroup- and
 * workgroup-scope combination the peak rows name (A = B, C = result), and the matmul tensor-core rows' sizes */
static vkb_caps tensor_caps(uint32_t fm, uint32_t fn, uint32_t fk, uint32_t subgroup)
{
    static const uint32_t ab_c[][2] = {{VKB_CT_F16, VKB_CT_F32}, {VKB_CT_F16, VKB_CT_F16},  {VKB_CT_S8, VKB_CT_S32},
                                       {VKB_CT_U8, VKB_CT_U32},  {VKB_CT_BF16, VKB_CT_F32}, {VKB_CT_E4M3, VKB_CT_F32},
                                       {VKB_CT_E5M2, VKB_CT_F32}};
    vkb_caps caps = test_caps_gpu("H100-like", 132);
    for (int i = 0; i < 3; i++)
        caps.coopmat_khr[i] = caps.coopmat_khr16[i] = caps.coopmat2_granularity[i] = 16;
    caps.subgroup_size = caps.subgroup_min = caps.subgroup_max = subgroup;
    caps.max_shared_bytes = 228 * 1024;
    for (size_t i = 0; i < sizeof ab_c / sizeof ab_c[0]; i++) {
        caps.coopmat_types[caps.ncoopmat_types++] =
            (vkb_coopmat_type){fm, fn, fk, ab_c[i][0], ab_c[i][0], ab_c[i][1], ab_c[i][1], VKB_SCOPE_SUBGROUP, 0};
        /* the workgroup-scope list the coopmat2 rows plan from: the same types */
        caps.coopmat2_types[caps.ncoopmat2_types++] =
            (vkb_coopmat_type){fm, fn, fk, ab_c[i][0], ab_c[i][0], ab_c[i][1], ab_c[i][1], VKB_SCOPE_WORKGROUP, 0};
    }
    return caps;
}

/* The cooperative-matrix rows. matmul's GEMM rows: 2 M N K from the shape alone, at shapes no
 * tile divides; tc_peak (no product, only multiply-adds on registers): what its dispatch runs, counted from the
 * plan: subgroups x 16 accumulators x ceil(K / FRAG_K) steps x 2 FRAG_M FRAG_N FRAG_K, which is 2 M N K where
 * the shape is whole tiles (every default shape), and more (the rate reads low, never high) elsewhere. */
static void matmul_coopmat_flops(void)
{
    static const int64_t shapes[][3] = {{4096, 4096, 4096}, {1000, 17, 33}, {128, 256, 64}};
    const vkb_family *f = vkb_family_find("matmul");
    vkb_caps caps = tensor_caps(16, 16, 16, 32);
    int gemm = 0, peaks = 0;
    for (int vi = 0; vi < f->nvariants; vi++) {
        const vkb_variant *v = &f->variants[vi];
        if (!v->kernel || !strstr(v->kernel, "coopmat"))
            continue;
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            const int64_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
            vkb_case c = {f, {{m, n, k}}, NULL};
            vkb_plan p;
            char why[200];
            double flops = 2.0 * (double)m * (double)n * (double)k;
            ASSERT(vkb_family_plan(f, v, &c, &caps, &p, why, sizeof why) == VKB_PLAN_OK);
            if (!strstr(v->kernel, "coopmat_peak")) {
                gemm++;
                ASSERT(vkb_family_work(f, v, &c) == flops);
                continue;
            }
            {
                const vkb_pass *pass = &p.pass[p.npass - 1];
                const uint32_t *frag = &pass->spec[5]; /* FRAG_M, FRAG_N, FRAG_K: ids 8, 9, 10 */
                uint64_t subgroups = (uint64_t)pass->groups[0] * pass->groups[1] * pass->groups[2] *
                                     (pass->local[0] / caps.subgroup_size);
                double ran =
                    (double)subgroups * 16 * (double)((k + frag[2] - 1) / frag[2]) * 2.0 * frag[0] * frag[1] * frag[2];
                peaks++;
                ASSERT(frag[0] == 16 && frag[1] == 16 && frag[2] == 16);
                if (s == 0 && vkb_family_work(f, v, &c) != ran)
                    fprintf(stderr, "matmul/%s: work %.0f, the dispatch runs %.0f\n", v->name,
                            vkb_family_work(f, v, &c), ran);
                ASSERT(s == 0 ? vkb_family_work(f, v, &c) == ran : vkb_family_work(f, v, &c) <= ran);
                ASSERT(vkb_family_work(f, v, &c) == flops);
            }
        }
    }
    ASSERT(gemm >= 3 * 8 && peaks == 3 * 2); /* the GEMM rows and tc_peak(_acc16), each planned */
}

/* peak's cooperative-matrix rows: each subgroup of the dispatch runs PEAK_CM_CHAINS accumulators through k trips
 * of one multiply-add of the device's fragment, 2 M N K operations each; counted from the dispatch and the
 * fragment the test device lists, at two fragments and two subgroup widths */
static void peak_coopmat_operations(void)
{
    static const uint32_t frags[][4] = {{16, 16, 16, 32}, {16, 8, 32, 64}};
    const vkb_family *f = vkb_family_find("peak");
    int planned = 0;
    for (size_t fi = 0; fi < sizeof frags / sizeof frags[0]; fi++) {
        vkb_caps caps = tensor_caps(frags[fi][0], frags[fi][1], frags[fi][2], frags[fi][3]);
        vkb_shape shape = {{5 * PEAK_LOCAL + 3, 7}};
        char why[200];
        void *data = f->case_create(&shape, 1, why, sizeof why);
        ASSERT(data != NULL);
        for (int vi = 0; vi < f->nvariants && data; vi++) { /* every row with a kernel plans: none is left out */
            const vkb_variant *v = &f->variants[vi];
            vkb_case c = {f, shape, data};
            vkb_plan p;
            double ops;
            if (!v->kernel || !vkb_peak_is_cm(v->param))
                continue;
            ASSERT(vkb_family_plan(f, v, &c, &caps, &p, why, sizeof why) == VKB_PLAN_OK);
            ops = (double)invocations(&p.pass[0]) / caps.subgroup_size * PEAK_CM_CHAINS * 7 * 2.0 * frags[fi][0] *
                  frags[fi][1] * frags[fi][2];
            if (vkb_family_work(f, v, &c) != ops)
                fprintf(stderr, "peak/%s: work %.0f, the dispatch runs %.0f\n", v->name, vkb_family_work(f, v, &c),
                        ops);
            ASSERT(invocations(&p.pass[0]) == 6 * PEAK_LOCAL); /* whole workgroups */
            ASSERT(vkb_family_work(f, v, &c) == ops);
            planned++;
        }
        f->case_destroy(data);
    }
    ASSERT(planned >= 2 * 4); /* f16 + f32, f16 + f16, s8 + s32, u8 + u32 (and bf16, fp8) at each fragment */
}

UNIT_TESTS({"transfer_bytes", transfer_bytes}, {"latency_dispatches", latency_dispatches}, {"cache_loads", cache_loads},
           {"peak_operations", peak_operations}, {"matmul_coopmat_flops", matmul_coopmat_flops},
           {"peak_coopmat_operations", peak_coopmat_operations})
