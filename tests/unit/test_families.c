/* test_families.c - every family's plan() without a device or inputs: each row at each battery shape plans
 * with c->data NULL into buffers of at least one byte; bad constants are bad requests, oversized shapes too
 * large, and a plan is checked against a device's limits by vkb_plan_check_limits. */
#include <stdlib.h>
#include <string.h>

#include "device_limits.h"
#include "families.h"
#include "listing.h"
#include "select.h"
#include "spirv.h"
#include "test_caps.h"
#include "unit.h"
#include "util.h"

/* A roomy device: every row plans. */
static vkb_caps roomy(void)
{
    return test_caps_gpu("test device", 16);
}

static int plan_of(const char *family, const char *variant, const vkb_shape *s, const vkb_variant *tuned, vkb_plan *p)
{
    const vkb_family *f = vkb_family_find(family);
    const vkb_variant *v = tuned ? tuned : vkb_variant_find(f, variant);
    vkb_case c = {f, *s, NULL};
    vkb_caps caps = roomy();
    char why[200];
    return vkb_family_plan(f, v, &c, &caps, p, why, sizeof why);
}

static void plans_without_inputs(void)
{
    vkb_caps caps = roomy();
    for (int fi = 0; fi < vkb_family_count; fi++) {
        const vkb_family *f = vkb_families[fi];
        vkb_shape shapes[64];
        int ns = f->battery(shapes, 64);
        for (int si = 0; si < ns; si++)
            for (int vi = 0; vi < f->nvariants; vi++) {
                vkb_case c = {f, shapes[si], NULL};
                vkb_plan p;
                char why[200];
                int code = vkb_family_plan(f, &f->variants[vi], &c, &caps, &p, why, sizeof why);
                if (code != VKB_PLAN_OK && code != VKB_PLAN_SKIP)
                    fprintf(stderr, "%s/%s: %s\n", f->name, f->variants[vi].name, why);
                ASSERT(code == VKB_PLAN_OK || code == VKB_PLAN_SKIP);
                if (code != VKB_PLAN_OK)
                    continue;
                /* buffers in every plan but one of timestamps alone (latency/timestamp) */
                ASSERT(!p.refused && (p.nbuf > 0 || p.pass[0].kind == VKB_PASS_TIMESTAMP) && p.npass > 0);
                for (int b = 0; b < p.nbuf; b++)
                    ASSERT(p.buf[b].bytes > 0 && (p.buf[b].host == NULL || p.buf[b].role != VKB_BUF_OUTPUT));
                for (int k = 0; k < p.npass; k++)
                    for (int d = 0; d < 3; d++)
                        ASSERT(p.pass[k].local[d] >= 1 && p.pass[k].groups[d] >= 1);
            }
    }
}

/* V with spec constant ID (3...) or workgroup size (0..2) set to VALUE, as --spec does. */
static vkb_variant with(const char *family, const char *variant, int id, uint32_t value)
{
    vkb_variant v = *vkb_variant_find(vkb_family_find(family), variant);
    if (id < 3)
        v.local[id] = value;
    else
        v.spec[id - 3] = value;
    return v;
}

static void bad_constants(void)
{
    vkb_shape sq = {{64, 64, 64}}, n = {{1000, 4}};
    vkb_plan p;
    vkb_variant v;
    v = with("transpose", "coalesced", 3, 0);
    ASSERT(plan_of("transpose", NULL, &sq, &v, &p) == VKB_PLAN_BAD_REQUEST); /* TILE=0 */
    v = with("transpose", "coalesced", 3, 48);
    ASSERT(plan_of("transpose", NULL, &sq, &v, &p) == VKB_PLAN_BAD_REQUEST); /* not a power of two */
    v = with("transpose", "coalesced", 0, 16);
    ASSERT(plan_of("transpose", NULL, &sq, &v, &p) == VKB_PLAN_BAD_REQUEST); /* 0= apart from TILE */
    v = with("transpose", "coalesced", 7, 0);
    ASSERT(plan_of("transpose", NULL, &sq, &v, &p) == VKB_PLAN_BAD_REQUEST); /* MODE is the row's */
    v = with("transpose", "coalesced", 3, 64);                               /* TILE=64 retiles */
    ASSERT(plan_of("transpose", NULL, &sq, &v, &p) == VKB_PLAN_OK && p.pass[0].local[0] == 64 &&
           p.pass[0].local[1] == 8 && p.pass[0].shared_bytes == 64 * 64 * 4);
    v = with("transpose", "vec4", 3, 64);
    ASSERT(plan_of("transpose", NULL, &sq, &v, &p) == VKB_PLAN_OK && p.pass[0].local[0] == 16);
    v = with("matmul", "tiled16", 3, 64);
    ASSERT(plan_of("matmul", NULL, &sq, &v, &p) == VKB_PLAN_BAD_REQUEST); /* 16x16 workgroup */
    v = with("matmul", "tiled16", 3, 0);
    ASSERT(plan_of("matmul", NULL, &sq, &v, &p) == VKB_PLAN_BAD_REQUEST);
    for (int id = 3; id <= 9; id++) { /* BM..TN = 0 */
        v = with("matmul", "block2d", id, 0);
        ASSERT(plan_of("matmul", NULL, &sq, &v, &p) == VKB_PLAN_BAD_REQUEST);
    }
    v = with("matmul", "naive", 0, 0);
    ASSERT(plan_of("matmul", NULL, &sq, &v, &p) == VKB_PLAN_BAD_REQUEST);
    v = with("reduce", "sequential", 0, 3);
    ASSERT(plan_of("reduce", NULL, &n, &v, &p) == VKB_PLAN_BAD_REQUEST);
    v = with("reduce", "sequential", 0, 2048);
    ASSERT(plan_of("reduce", NULL, &n, &v, &p) == VKB_PLAN_BAD_REQUEST);
    v = with("copy", "vec4", 0, 0);
    ASSERT(plan_of("copy", NULL, &n, &v, &p) == VKB_PLAN_BAD_REQUEST);
    v = with("memory.aos_soa", "aos12", 4, 0); /* REC=0 */
    ASSERT(plan_of("memory.aos_soa", NULL, &n, &v, &p) == VKB_PLAN_BAD_REQUEST);
    v = with("memory.aos_soa", "aos12", 4, 5); /* packed, REC != FIELDS */
    ASSERT(plan_of("memory.aos_soa", NULL, &n, &v, &p) == VKB_PLAN_BAD_REQUEST);
    v = with("memory.width", "copy", 0, 0);
    ASSERT(plan_of("memory.width", NULL, &n, &v, &p) == VKB_PLAN_BAD_REQUEST);
    v = with("memory.width", "copy", 0, 128); /* the checks assume 256 */
    ASSERT(plan_of("memory.width", NULL, &n, &v, &p) == VKB_PLAN_BAD_REQUEST);
    /* the tensor-core load schedules (coopmat_khr: PREFETCH 11, GROUP_M 12, STORE_EARLY 13; coopmat2_staged:
     * PREFETCH 6, TENSOR_LOAD 7, GROUP_M 8, STORE_EARLY 9): beyond their range a bad request, on any device;
     * in range (0: the default) no bad request (a skip where the device has no cooperative matrices) */
    static const struct {
        const char *row;
        int id;
        uint32_t bad, good;
    } sched[] = {{"coopmat_khr", 11, 3, 2},    {"coopmat_khr", 12, 65536, 8}, {"coopmat_khr", 13, 2, 0},
                 {"coopmat2_staged", 6, 3, 0}, {"coopmat2_staged", 7, 2, 1},  {"coopmat2_staged", 8, 65536, 65535},
                 {"coopmat2_staged", 9, 2, 1}};
    for (size_t i = 0; i < sizeof sched / sizeof sched[0]; i++) {
        v = with("matmul", sched[i].row, sched[i].id, sched[i].bad);
        ASSERT(plan_of("matmul", NULL, &sq, &v, &p) == VKB_PLAN_BAD_REQUEST);
        v = with("matmul", sched[i].row, sched[i].id, sched[i].good);
        ASSERT(plan_of("matmul", NULL, &sq, &v, &p) != VKB_PLAN_BAD_REQUEST);
    }
}

static void too_large(void)
{
    vkb_shape t = {{1, 4294967297ll}}, m = {{100000, 100000, 100000}}, r = {{1ll << 31}};
    vkb_shape stride = {{1048577, 1ll << 44}}, shared = {{1000, 1ll << 32}}, c = {{1ll << 32}};
    vkb_plan p;
    ASSERT(plan_of("transpose", "naive", &t, NULL, &p) == VKB_PLAN_TOO_LARGE);
    ASSERT(plan_of("matmul", "naive", &m, NULL, &p) == VKB_PLAN_TOO_LARGE);
    ASSERT(plan_of("reduce", "sequential", &r, NULL, &p) == VKB_PLAN_TOO_LARGE);
    ASSERT(plan_of("memory.stride", "read", &stride, NULL, &p) == VKB_PLAN_TOO_LARGE);
    ASSERT(plan_of("memory.shared_stride", "read", &shared, NULL, &p) == VKB_PLAN_TOO_LARGE);
    ASSERT(plan_of("copy", "vec4", &c, NULL, &p) == VKB_PLAN_TOO_LARGE);
    { /* cache.*: a footprint past the kernels' 32-bit word index is too large (exit 4, as the README says), a
         * footprint of no whole element a bad request */
        vkb_shape past = {{1ll << 34}}, last = {{(1ll << 34) - 64}}, odd = {{1000}};
        ASSERT(plan_of("cache.chase", "chase", &past, NULL, &p) == VKB_PLAN_TOO_LARGE);
        ASSERT(plan_of("cache.read", "read", &past, NULL, &p) == VKB_PLAN_TOO_LARGE);
        ASSERT(plan_of("cache.read", "read", &last, NULL, &p) == VKB_PLAN_OK);
        ASSERT(plan_of("cache.chase", "chase", &odd, NULL, &p) == VKB_PLAN_BAD_REQUEST);
    }
}

static void device_limits(void)
{
    vkb_shape sq = {{1024, 1024, 1024}}, big = {{8192, 8192}};
    vkb_caps caps = roomy();
    vkb_plan p;
    char why[200];
    ASSERT(plan_of("matmul", "tiled32", &sq, NULL, &p) == VKB_PLAN_OK);
    ASSERT(vkb_plan_check_limits(&p, &caps, why, sizeof why) == VKB_PLAN_OK);
    caps.max_shared_bytes = 8191; /* tiled32 declares 2 x 32 x 32 floats */
    ASSERT(vkb_plan_check_limits(&p, &caps, why, sizeof why) == VKB_PLAN_SKIP);
    caps = roomy();
    caps.max_workgroup_invocations = 512; /* 32 x 32 */
    ASSERT(vkb_plan_check_limits(&p, &caps, why, sizeof why) == VKB_PLAN_SKIP);
    caps = roomy();
    caps.max_group_count[0] = 31; /* 1024 / 32 columns of workgroups */
    ASSERT(vkb_plan_check_limits(&p, &caps, why, sizeof why) == VKB_PLAN_TOO_LARGE);
    caps = roomy();
    ASSERT(plan_of("transpose", "padded", &big, NULL, &p) == VKB_PLAN_OK);
    caps.max_buffer_bytes = 8192ull * 8192 * 4 - 1; /* one byte short */
    ASSERT(vkb_plan_check_limits(&p, &caps, why, sizeof why) == VKB_PLAN_TOO_LARGE);
    /* one byte short reads "256 MiB" both ways when rounded: the message gives the exact counts */
    ASSERT(strstr(why, "needs a 268435456-byte buffer") && strstr(why, "allows is 268435455 bytes"));
    caps.max_buffer_bytes = 8192ull * 8192 * 2; /* half: the rounded sizes differ, and say so */
    ASSERT(vkb_plan_check_limits(&p, &caps, why, sizeof why) == VKB_PLAN_TOO_LARGE);
    ASSERT(strstr(why, "needs a 256 MiB buffer") && strstr(why, "allows is 128 MiB"));
    caps = roomy();
    caps.device_memory_bytes = 2 * 8192ull * 8192 * 4; /* more than 90% of it */
    ASSERT(vkb_plan_check_limits(&p, &caps, why, sizeof why) == VKB_PLAN_TOO_LARGE);
}

/* cache.chase's links (the input the plan uploads): one cycle through every element of the footprint, for any
 * footprint and seed; a permutation of several cycles would measure a smaller footprint than it names. */
static void chase_one_cycle(void)
{
    static const long long footprints[] = {128, 64 * 3, 64 * 1000, 64 * 4097};
    const vkb_family *f = vkb_family_find("cache.chase");
    vkb_caps caps = roomy();
    char why[200];
    for (size_t k = 0; k < VKB_COUNT(footprints); k++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            vkb_case c = {f, {{footprints[k]}}, NULL};
            vkb_plan p;
            uint64_t n = (uint64_t)footprints[k] / 64, e = 0, steps = 0;
            const uint32_t *links;
            unsigned char *seen = calloc(n, 1);
            c.data = f->case_create(&c.shape, seed, why, sizeof why);
            ASSERT(c.data && seen);
            ASSERT(vkb_family_plan(f, &f->variants[0], &c, &caps, &p, why, sizeof why) == VKB_PLAN_OK);
            links = p.buf[0].host;
            do { /* a link is the next element's first word: 16 words (64 bytes) to an element */
                ASSERT(links[e * 16] % 16 == 0 && links[e * 16] / 16 < n && !seen[e]);
                seen[e] = 1;
                e = links[e * 16] / 16;
            } while (++steps < n && e != 0);
            ASSERT(steps == n && e == 0); /* back at the start after exactly every element */
            free(seen);
            f->case_destroy(c.data);
        }
}

/* Rows built from one list (host/families/reduce/rows.h): the int32 twin of a float-atomic row needs no float
 * atomics and is deterministic; the float row keeps both. */
static void reduce_twins(void)
{
    const vkb_family *f = vkb_family_find("reduce");
    const vkb_variant *fl = vkb_variant_find(f, "subgroup_atomic"), *in = vkb_variant_find(f, "subgroup_atomic_i32");
    ASSERT(fl && in && strcmp(fl->kernel, "reduce_subgroup_atomic_f32") == 0);
    ASSERT(strcmp(in->kernel, "reduce_subgroup_atomic_i32") == 0);
    ASSERT((fl->needs & VKB_NEED_ATOMIC_FLOAT) && (fl->flags & VKB_VAR_NONDETERMINISTIC));
    ASSERT(!(in->needs & VKB_NEED_ATOMIC_FLOAT) && !(in->flags & VKB_VAR_NONDETERMINISTIC));
    ASSERT((in->needs & VKB_NEED_SUBGROUP_ARITH) && in->param != fl->param);
}

/* subgroup_lastblock is subgroup in ONE dispatch: result, partials (one per workgroup) and the arrival
 * count bound at 1, 2, 3; the count is an input holding 0 (outputs and scratch are poisoned), of the float row
 * and its int twin alike; both claim determinism. subgroup itself plans two dispatches (past one workgroup), on
 * the same grid at large n; lastblock's is smaller at small n (a workgroup per 4 x 256 vectors at most). */
static void reduce_lastblock(void)
{
    static const int64_t n[] = {1, 4099, 1000003, 1 << 28};
    for (size_t k = 0; k < sizeof n / sizeof n[0]; k++)
        for (int i32 = 0; i32 < 2; i32++) {
            vkb_shape s = {{n[k]}};
            vkb_plan p, two;
            const vkb_pass *d;
            const vkb_variant *v =
                vkb_variant_find(vkb_family_find("reduce"), i32 ? "subgroup_lastblock_i32" : "subgroup_lastblock");
            ASSERT(v && !(v->flags & VKB_VAR_NONDETERMINISTIC));
            ASSERT(plan_of("reduce", v->name, &s, NULL, &p) == VKB_PLAN_OK);
            ASSERT(plan_of("reduce", i32 ? "subgroup_i32" : "subgroup", &s, NULL, &two) == VKB_PLAN_OK);
            ASSERT(p.npass == 1 && two.npass == (two.pass[0].groups[0] > 1 ? 2 : 1));
            d = &p.pass[0];
            ASSERT(d->kind == VKB_PASS_DISPATCH && d->nbind == 4);
            { /* subgroup's grid, but at most a workgroup per 4 x 256 vectors (the same grid at 2^28) */
                uint64_t most = ((uint64_t)n[k] + 16 * 256 - 1) / (16 * 256);
                ASSERT(d->groups[0] == (two.pass[0].groups[0] < most ? two.pass[0].groups[0] : most));
                ASSERT(n[k] != 1 << 28 || d->groups[0] == two.pass[0].groups[0]);
                ASSERT(n[k] > 4096 || d->groups[0] == 1);
            }
            ASSERT(p.buf[d->bind[1]].role == VKB_BUF_OUTPUT && p.buf[d->bind[1]].bytes == 4);
            ASSERT(p.buf[d->bind[2]].role == VKB_BUF_SCRATCH && p.buf[d->bind[2]].bytes == 4ull * d->groups[0]);
            ASSERT(p.buf[d->bind[3]].role == VKB_BUF_INPUT && p.buf[d->bind[3]].bytes == 4 && p.buf[d->bind[3]].host &&
                   *(const uint32_t *)p.buf[d->bind[3]].host == 0);
        }
}

/* `vkbench list --verbose` names each variant's shader constants with the row's values: each name is one the
 * shader has, and a --spec written from it is accepted for that variant */
static void list_verbose(void)
{
    static char text[1 << 18];
    FILE *f = tmpfile();
    size_t n;
    vkb_list_families(f, 1);
    rewind(f);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    ASSERT(strstr(text, "\n  tiled16 ") && strstr(text, "\n      matmul_tiled: workgroup 16x16x1; TILE=16\n"));
    ASSERT(strstr(text,
                  "\n      transpose_tiled: workgroup 32x8x1; TILE=32 ROWS=8 PAD=1 SWIZZLE=0 MODE=1 TILES_PER_GROUP=1 "
                  "DEPTH=1\n"));
    /* ids 0..2 decorated twice (gl_WorkGroupSize) leave room for every named one: matmul_coopmat_khr's last */
    if (vkb_spirv_find("matmul_coopmat_khr")->bytes)
        ASSERT(strstr(text, "FRAG_N=0 FRAG_K=0 PREFETCH=1 GROUP_M=1 STORE_EARLY=0\n"));
    for (int i = 0; i < vkb_family_count; i++)
        for (int v = 0; v < vkb_families[i]->nvariants; v++) {
            const vkb_variant *var = &vkb_families[i]->variants[v];
            const vkb_spirv *spv = var->kernel ? vkb_spirv_find(var->kernel) : NULL;
            vkb_spirv_constant c[VKB_MAX_SPEC + 3];
            char head[80], *block, *end;
            int nc;
            if (!spv)
                continue;
            snprintf(head, sizeof head, "\n%s: ", vkb_families[i]->name);
            block = strstr(text, head);
            snprintf(head, sizeof head, "\n  %-22s ", var->name);
            block = block ? strstr(block, head) : NULL; /* this variant's line in its family */
            ASSERT(block != NULL);
            if (!block)
                continue;
            block = strchr(block + 1, '\n');
            while (block && strncmp(block + 1, "                         ", 25) == 0) /* the note, wrapped */
                block = strchr(block + 1, '\n');
            end = strchr(block + 1, '\n');
            nc = vkb_spirv_spec_constants(spv, c, (int)(sizeof c / sizeof *c));
            for (int k = 0; k < nc; k++) {
                char item[64], cmd[300];
                vkb_args a;
                vkb_selection sel;
                char err[400], *argv[16], *save = NULL;
                int argc = 0;
                if (!c[k].name[0])
                    continue;
                snprintf(item, sizeof item, " %s=", c[k].name);
                ASSERT(strstr(block, item) && strstr(block, item) < end);
                ASSERT(vkb_spirv_spec_id(spv, c[k].name) == c[k].id);
                if (var->flags & VKB_VAR_CEILING)
                    continue; /* --spec leaves ceilings as they are */
                snprintf(cmd, sizeof cmd, "vkbench run %s --variant %s --spec %s=1", vkb_families[i]->name, var->name,
                         c[k].name);
                for (char *w = strtok_r(cmd, " ", &save); w && argc < 15; w = strtok_r(NULL, " ", &save))
                    argv[argc++] = w;
                argv[argc] = NULL;
                ASSERT(vkb_cli_parse(argc, argv, &a, err, sizeof err) == 0);
                ASSERT(vkb_selection_families(&a, &sel, err, sizeof err) == 0);
                vkb_selection_free(&sel);
            }
        }
    /* without --verbose: the notes alone */
    f = tmpfile();
    vkb_list_families(f, 0);
    rewind(f);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    ASSERT(strstr(text, "\n  tiled16 ") && !strstr(text, "workgroup 16x16x1"));
    /* every line within 120 columns; a long note continues under its own column (25), never at a variant's (2) */
    {
        int wrapped = 0;
        for (char *line = text, *end; *line; line = end + 1) {
            end = strchr(line, '\n');
            if (!end)
                break;
            ASSERT(end - line <= 120);
            wrapped += strncmp(line, "                         ", 25) == 0 && line[25] != ' ';
        }
        ASSERT(wrapped > 0);
    }
}

/* The check's depth of a reduce row bounds the worst subgroup size the device may pick: over a range of sizes it
 * is the largest of the depths at each power of two in it (a size skipped would leave a tolerance too tight). */
static void reduce_depth_over_sizes(void)
{
    static const char *rows[] = {"unroll_last_subgroup", "stride_global_threads", "vec4", "subgroup"};
    const vkb_family *f = vkb_family_find("reduce");
    vkb_shape s = {{1000003}};
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        const vkb_variant *v = vkb_variant_find(f, rows[r]);
        uint64_t worst = 0, lowest = UINT64_MAX;
        vkb_case c = {f, s, NULL};
        vkb_plan p;
        char why[200];
        vkb_caps caps = roomy();
        ASSERT(v != NULL);
        if (!v)
            continue;
        for (uint32_t sg = 4; sg <= 64; sg *= 2) {
            caps.subgroup_size = caps.subgroup_min = caps.subgroup_max = sg;
            memset(&p, 0, sizeof p);
            ASSERT(vkb_family_plan(f, v, &c, &caps, &p, why, sizeof why) == VKB_PLAN_OK);
            worst = p.check_depth > worst ? p.check_depth : worst;
            lowest = p.check_depth < lowest ? p.check_depth : lowest;
        }
        ASSERT(worst > lowest); /* the depth depends on the size: the range means something */
        caps.subgroup_size = 32, caps.subgroup_min = 4, caps.subgroup_max = 64;
        memset(&p, 0, sizeof p);
        ASSERT(vkb_family_plan(f, v, &c, &caps, &p, why, sizeof why) == VKB_PLAN_OK);
        ASSERT(p.check_depth == worst);
    }
}

/* A ceiling is no fraction of another (the runner gives a ceiling row none): a row that names a ceiling (other than
 * itself) is a kernel measured against it, never a ceiling itself, and the row it names is one. */
static void ceilings_are_references(void)
{
    int named = 0;
    for (int i = 0; i < vkb_family_count; i++) {
        const vkb_family *f = vkb_families[i];
        for (int vi = 0; vi < f->nvariants; vi++) {
            const vkb_variant *v = &f->variants[vi];
            if (!v->ceiling)
                continue;
            named++;
            if ((v->flags & VKB_VAR_CEILING) && strcmp(v->ceiling, v->name) != 0)
                fprintf(stderr, "%s/%s: a ceiling row that names a ceiling (%s)\n", f->name, v->name, v->ceiling);
            ASSERT(!(v->flags & VKB_VAR_CEILING) || strcmp(v->ceiling, v->name) == 0); /* itself: its own row */
            /* each name of "a|b" a ceiling row of the family */
            for (const char *p = v->ceiling; *p;) {
                size_t n = strcspn(p, "|");
                int found = 0;
                for (int k = 0; k < f->nvariants; k++)
                    found |= strlen(f->variants[k].name) == n && strncmp(f->variants[k].name, p, n) == 0 &&
                             (f->variants[k].flags & VKB_VAR_CEILING);
                if (!found)
                    fprintf(stderr, "%s/%s: its ceiling %.*s is no ceiling row\n", f->name, v->name, (int)n, p);
                ASSERT(found);
                p += n + (p[n] == '|');
            }
        }
    }
    ASSERT(named > 0);
}

/* matmul_coopmat (BM BN BK WM WN = 128 128 32 64 32): 8 subgroups of 64x32, shared memory two stages of padded
 * fp16 tiles, 2 x (128 x 5 + 32 x 17) x 16 = 37888 bytes, and a 16x16 fp32 staging tile per subgroup (8 x 1024);
 * at 32 KiB the k-step halves to 16: 2 x (128 x 3 + 16 x 17) x 16 + 8192 = 29184. */
static void coopmat_shared(void)
{
    const vkb_family *f = vkb_family_find("matmul");
    const vkb_variant *v = vkb_variant_find(f, "coopmat_f16");
    vkb_shape s = {{128, 128, 128}};
    vkb_case c = {f, s, NULL};
    vkb_caps caps = roomy();
    vkb_plan p;
    char why[200] = "";
    ASSERT(v != NULL);
    if (!v)
        return;
    memset(&p, 0, sizeof p);
    ASSERT(vkb_family_plan(f, v, &c, &caps, &p, why, sizeof why) == VKB_PLAN_OK);
    ASSERT(p.npass == 1 && p.pass[0].shared_bytes == 37888 + 8192 && p.pass[0].spec[2] == 32);
    ASSERT(p.pass[0].local[0] == 8 * caps.subgroup_size);
    caps.max_shared_bytes = 32 * 1024;
    memset(&p, 0, sizeof p);
    ASSERT(vkb_family_plan(f, v, &c, &caps, &p, why, sizeof why) == VKB_PLAN_OK);
    ASSERT(p.pass[0].shared_bytes == 29184 && p.pass[0].spec[2] == 16);
    { /* a tile the fragments do not divide: refused, naming the five constants as given */
        vkb_variant odd = *v;
        odd.spec[4] = 24;
        ASSERT(vkb_family_plan(f, &odd, &c, &caps, &p, why, sizeof why) == VKB_PLAN_BAD_REQUEST);
        ASSERT(strstr(why, "BM=128 BN=128 BK=32 WM=64 WN=24: multiples of the 16x16x16 fragments") != NULL);
    }
}

UNIT_TESTS({"plans_without_inputs", plans_without_inputs}, {"reduce_depth_over_sizes", reduce_depth_over_sizes},
           {"ceilings_are_references", ceilings_are_references}, {"coopmat_shared", coopmat_shared},
           {"bad_constants", bad_constants}, {"too_large", too_large}, {"device_limits", device_limits},
           {"chase_one_cycle", chase_one_cycle}, {"reduce_twins", reduce_twins}, {"reduce_lastblock", reduce_lastblock},
           {"list_verbose", list_verbose})
