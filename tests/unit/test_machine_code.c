/* test_machine_code.c - NVIDIA pipeline-cache records, the instruction-class summary, CUDA function lookup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine_code.h"
#include "unit.h"

#ifndef VKB_TEST_DATA
#define VKB_TEST_DATA "tests/unit/data/machine_code"
#endif

static unsigned char *slurp(const char *name, size_t *n)
{
    char path[512];
    FILE *f;
    unsigned char *d;
    long len;
    snprintf(path, sizeof path, "%s/%s", VKB_TEST_DATA, name);
    f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        *n = 0;
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    fseek(f, 0, SEEK_SET);
    d = malloc((size_t)len + 1);
    *n = fread(d, 1, (size_t)len, f);
    d[*n] = 0;
    fclose(f);
    return d;
}

typedef struct collected {
    int n;
    size_t bytes[8];
    unsigned char *code[8];
} collected;

static void collect(const uint8_t *code, size_t bytes, void *user)
{
    collected *c = user;
    if (c->n < 8) {
        c->code[c->n] = malloc(bytes);
        memcpy(c->code[c->n], code, bytes);
        c->bytes[c->n++] = bytes;
    }
}

static void collected_free(collected *c)
{
    for (int i = 0; i < c->n; i++)
        free(c->code[i]);
    memset(c, 0, sizeof *c);
}

/* A pipeline cache recorded on the H100 (driver 580): its record's code is the .bin recorded beside it. */
static void check_cache(const char *cache, const char *bin)
{
    size_t n, nbin;
    unsigned char *data = slurp(cache, &n), *code = slurp(bin, &nbin);
    collected c = {0};
    char why[200] = "";
    int found;
    ASSERT(data && code);
    if (!data || !code)
        return;
    found = vkb_mc_nv_records(data, n, collect, &c, why, sizeof why);
    ASSERT(found >= 1);
    ASSERT(c.n == found);
    ASSERT(c.n >= 1 && c.bytes[0] == nbin && memcmp(c.code[0], code, nbin) == 0);
    ASSERT(c.n >= 1 && c.bytes[0] % 16 == 0);
    collected_free(&c);

    /* the same cache cut short: the frame is incomplete, no record (and no crash) */
    found = vkb_mc_nv_records(data, n / 2, collect, &c, why, sizeof why);
    ASSERT(found == 0 && c.n == 0);
    collected_free(&c);
    /* another driver's cache (no zstd frame, no record): nothing recognised */
    memset(data + 32, 0x11, n - 32);
    found = vkb_mc_nv_records(data, n, collect, &c, why, sizeof why);
    ASSERT(found == 0);
    collected_free(&c);
    free(data);
    free(code);
}

static void records(void)
{
    check_cache("transpose_padded.cache", "transpose_padded.bin");
    check_cache("reduce_vec4.cache", "reduce_vec4.bin");
}

/* A decompressed record: header size at 0x30, code size at 0x4C, code at header + 0x18. */
static void raw_record(void)
{
    unsigned char rec[0x100] = "NVDANVVMNVuc";
    collected c = {0};
    char why[100];
    rec[0x30] = 0x40; /* code at 0x58 */
    rec[0x4C] = 32;   /* two instructions */
    for (int i = 0; i < 32; i++)
        rec[0x58 + i] = (unsigned char)(i + 1);
    ASSERT(vkb_mc_nv_records(rec, sizeof rec, collect, &c, why, sizeof why) == 1);
    ASSERT(c.n == 1 && c.bytes[0] == 32 && c.code[0][0] == 1 && c.code[0][31] == 32);
    collected_free(&c);
    rec[0x4C] = 24; /* not whole instructions */
    ASSERT(vkb_mc_nv_records(rec, sizeof rec, collect, &c, why, sizeof why) == 0);
    rec[0x4C] = 0xF0; /* beyond the record */
    ASSERT(vkb_mc_nv_records(rec, sizeof rec, collect, &c, why, sizeof why) == 0);
    collected_free(&c);
}

/* Lines as nvdisasm and cuobjdump print them; each class counted once or as stated. */
static void summary_lines(void)
{
    const char *text =
        "        .section .text,\"ax\",@progbits\n"
        ".L_x_0:\n"
        "        /*0000*/                   MOV R1, c[0x0][0x28] ;\n"
        "        /*0010*/                   LDG.E.128 R4, desc[UR4][R2.64] ;\n"
        "        /*0020*/              @!P0 LDG.E R8, desc[UR4][R2.64] ;\n"
        "        /*0030*/                   LDG.E.64.CONSTANT R10, desc[UR4][R2.64] ;\n"
        "        /*0040*/                   LDG.E.U16 R12, desc[UR4][R2.64] ;\n"
        "        /*0050*/                   STG.E.128 desc[UR4][R2.64], R4 ;        /* 0x000fe2000c101d04 */\n"
        "                                                                           /* 0x000fe2000c101d04 */\n"
        "        /*0060*/                   HMMA.16816.F32 R20, R4, R8, R20 ;\n"
        "        /*0070*/                   HMMA.16816.F16 R20, R4, R8, R20 ;\n"
        "        /*0080*/                   HMMA.16816.F32.BF16 R20, R4, R8, R20 ;\n"
        "        /*0090*/                   HGMMA.64x128x16.F32 R24, gdesc[UR4], R24 ;\n"
        "        /*00a0*/                   LDS.128 R4, [R3] ;\n"
        "        /*00b0*/                   LDSM.16.M88.4 R4, [R3] ;\n"
        "        /*00c0*/                   STS [R3], R4 ;\n"
        "        /*00d0*/                   LDGSTS.E.BYPASS.128 [R3], desc[UR4][R2.64] ;\n"
        "        /*00e0*/                   FFMA R1, R2, R3, R4 ;\n"
        "        /*00f0*/                   FFMA.FTZ R1, R2, R3, R4 ;\n"
        "        /*0100*/                   STL [R1], R4 ;\n"
        "        /*0110*/                   LDL R4, [R1] ;\n"
        "        /*0120*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;\n"
        "        /*0130*/                   SHFL.BFLY PT, R5, R4, 0x10, 0x1f ;\n"
        "        /*0140*/                   REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R4 ;\n"
        "        /*0150*/                   ATOMG.E.ADD.F32 PT, R4, desc[UR4][R2.64], R4 ;\n"
        "        /*0160*/              @P0 BRA `(.L_x_0) ;\n"
        "        /*0170*/                   EXIT ;\n"
        "        /*0180*/                   BRA `(.L_x_1);\n"
        "        /*0190*/                   NOP;\n";
    vkb_mc_summary s;
    vkb_mc_summarize(text, &s);
    ASSERT(s.valid);
    ASSERT(s.count[VKB_MC_INSTRUCTIONS] == 25); /* 26 instruction lines, NOP not counted */
    ASSERT(s.count[VKB_MC_LDG_128] == 1 && s.count[VKB_MC_LDG_64] == 1 && s.count[VKB_MC_LDG_32] == 2);
    ASSERT(s.count[VKB_MC_STG_128] == 1 && s.count[VKB_MC_STG_32] == 0);
    ASSERT(s.count[VKB_MC_HMMA_F32] == 2 && s.count[VKB_MC_HMMA_F16] == 1);
    ASSERT(s.count[VKB_MC_HGMMA_F32] == 1 && s.count[VKB_MC_HGMMA_F16] == 0);
    ASSERT(s.count[VKB_MC_LDS] == 2 && s.count[VKB_MC_STS] == 1 && s.count[VKB_MC_LDGSTS] == 1);
    ASSERT(s.count[VKB_MC_FFMA] == 2 && s.count[VKB_MC_STL] == 1 && s.count[VKB_MC_LDL] == 1);
    ASSERT(s.count[VKB_MC_BARRIERS] == 1 && s.count[VKB_MC_SHUFFLES] == 1);
    ASSERT(s.count[VKB_MC_ATOMICS] == 2);
    ASSERT(s.count[VKB_MC_BRANCHES] == 2);
}

/* Recorded disassembly of real pipelines: what the H100's driver made of them. */
static void summary_recorded(void)
{
    size_t n;
    char *text = (char *)slurp("transpose_padded.sass", &n);
    vkb_mc_summary s;
    ASSERT(text);
    if (!text)
        return;
    vkb_mc_summarize(text, &s);
    /* the padded [32][33] tile: 32-bit loads and stores, one barrier, no spill */
    ASSERT(s.count[VKB_MC_INSTRUCTIONS] > 20);
    ASSERT(s.count[VKB_MC_LDG_32] > 0 && s.count[VKB_MC_STG_32] > 0);
    ASSERT(s.count[VKB_MC_STS] > 0 && s.count[VKB_MC_LDS] > 0 && s.count[VKB_MC_BARRIERS] >= 1);
    ASSERT(s.count[VKB_MC_LDL] == 0 && s.count[VKB_MC_STL] == 0);
    ASSERT(s.count[VKB_MC_HMMA_F32] == 0);
    free(text);
    text = (char *)slurp("reduce_vec4.sass", &n);
    ASSERT(text);
    if (!text)
        return;
    vkb_mc_summarize(text, &s);
    /* float4 loads of the vec4 reduction */
    ASSERT(s.count[VKB_MC_LDG_128] > 0 && s.count[VKB_MC_SHUFFLES] > 0);
    free(text);
}

/* Kernels as nvcc names them (anonymous namespace, template arguments), found for a pass. */
static void cuda_function(void)
{
    const char *text =
        "\tcode for sm_90\n"
        "\t\tFunction : "
        "_ZN45_GLOBAL__N__288630ea_12_transpose_cu_ff2bdcd915transpose_tiledILj32ELj8ELj0ELj0ELj1EEEvPKfPf8vkb_push\n"
        "        /*0000*/                   LDG.E R4, desc[UR4][R2.64] ;\n"
        "\t\t..........\n"
        "\t\tFunction : "
        "_ZN45_GLOBAL__N__288630ea_12_transpose_cu_ff2bdcd915transpose_tiledILj32ELj8ELj1ELj0ELj1EEEvPKfPf8vkb_push\n"
        "        /*0000*/                   LDG.E R4, desc[UR4][R2.64] ;\n"
        "        /*0010*/                   STS [R3], R4 ;\n"
        "\t\t..........\n"
        "\t\tFunction : _ZN41_GLOBAL__N__754f1650_9_reduce_cu_3f73b14415unroll_completeIjLj256EEEvPKT_PS1_8vkb_push\n"
        "        /*0000*/                   IADD3 R4, R4, R5, RZ ;\n"
        "\t\tFunction : _ZN41_GLOBAL__N__754f1650_9_reduce_cu_3f73b14415unroll_completeIfLj256EEEvPKT_PS1_8vkb_push\n"
        "        /*0000*/                   FADD R4, R4, R5 ;\n"
        "\t\tFunction : _ZN41_GLOBAL__N__754f1650_9_reduce_cu_3f73b14415unroll_completeIfLj512EEEvPKT_PS1_8vkb_push\n"
        "        /*0000*/                   FMUL R4, R4, R5 ;\n"
        "\t\tFunction : _ZN41_GLOBAL__N__754f1650_9_reduce_cu_3f73b1448subgroupIfLj256EEEvPKT_PS1_8vkb_push\n"
        "        /*0000*/                   SHFL.BFLY PT, R5, R4, 0x10, 0x1f ;\n"
        "\t\tFunction : _ZN41_GLOBAL__N__754f1650_9_reduce_cu_3f73b14415subgroup_atomicIfLj256EEEvPKT_PS1_8vkb_push\n"
        "        /*0000*/                   REDG.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R4 ;\n";
    vkb_pass pass = {VKB_PASS_DISPATCH, "transpose_tiled", {256, 1, 1}, {1, 1, 1}, {32, 8, 1, 0, 1}, 5};
    char body[400];
    size_t len = 0;
    const char *f = vkb_mc_cuda_function(text, &pass, &len);
    ASSERT(f && strstr(f, "transpose_tiledILj32ELj8ELj1E") && strstr(f, "transpose_tiledILj32ELj8ELj1E") < f + 120);
    snprintf(body, sizeof body, "%.*s", (int)len, f ? f : "");
    ASSERT(strstr(body, "STS") && !strstr(body, "..........") && !strstr(body, "reduce"));
    pass.spec[0] = 64; /* no such instantiation */
    ASSERT(!vkb_mc_cuda_function(text, &pass, &len));
    pass.kernel = "transpose"; /* a part of a name is not the name */
    pass.spec[0] = 32;
    ASSERT(!vkb_mc_cuda_function(text, &pass, &len));

    /* the type from the suffix, the workgroup size as the last template argument */
    pass = (vkb_pass){VKB_PASS_DISPATCH, "reduce_unroll_complete_f32", {256, 1, 1}, {1, 1, 1}, {0}, 0};
    f = vkb_mc_cuda_function(text, &pass, &len);
    snprintf(body, sizeof body, "%.*s", (int)len, f ? f : "");
    ASSERT(strstr(body, "FADD") && !strstr(body, "FMUL") && !strstr(body, "IADD3"));
    pass.kernel = "reduce_unroll_complete_i32";
    f = vkb_mc_cuda_function(text, &pass, &len);
    snprintf(body, sizeof body, "%.*s", (int)len, f ? f : "");
    ASSERT(strstr(body, "IADD3") && !strstr(body, "FADD"));
    /* the longest name that fits: subgroup_atomic, not subgroup */
    pass.kernel = "reduce_subgroup_atomic_f32";
    f = vkb_mc_cuda_function(text, &pass, &len);
    snprintf(body, sizeof body, "%.*s", (int)len, f ? f : "");
    ASSERT(strstr(body, "REDG") && !strstr(body, "SHFL"));
    pass.kernel = "reduce_subgroup_f32";
    f = vkb_mc_cuda_function(text, &pass, &len);
    snprintf(body, sizeof body, "%.*s", (int)len, f ? f : "");
    ASSERT(strstr(body, "SHFL") && !strstr(body, "REDG"));
}

/* The --sass session on a recorded cache: files named by family, variant and constants; the code in .bin is
 * the record's; another vendor's cache writes nothing. nvdisasm may or may not be installed here. */
static void capture_files(void)
{
    char dir[] = "/tmp/vkb_mc_testXXXXXX", path[600];
    size_t n, nbin, nout;
    unsigned char *data = slurp("transpose_padded.cache", &n), *code = slurp("transpose_padded.bin", &nbin), *out;
    vkb_pass pass = {VKB_PASS_DISPATCH, "transpose_tiled", {32, 8, 1}, {1, 1, 1}, {32, 8, 1, 0, 1}, 5};
    vkb_mc_summary s;
    FILE *f;
    ASSERT(data && code && mkdtemp(dir));
    if (!data || !code)
        return;
    vkb_mc_open(dir);
    vkb_mc_set_label("transpose", "padded");
    vkb_mc_vulkan("NVIDIA H100 80GB HBM3", 0x10DE, &pass, data, n, &s);
    snprintf(path, sizeof path, "%s/transpose_padded[32x8x1,32,8,1,0,1].bin", dir);
    f = fopen(path, "rb");
    ASSERT(f);
    if (f) {
        out = malloc(nbin + 1);
        nout = fread(out, 1, nbin + 1, f);
        fclose(f);
        ASSERT(nout == nbin && memcmp(out, code, nbin) == 0);
        free(out);
        remove(path);
    }
    snprintf(path, sizeof path, "%s/transpose_padded[32x8x1,32,8,1,0,1].cache", dir);
    ASSERT(remove(path) == 0);
    snprintf(path, sizeof path, "%s/transpose_padded[32x8x1,32,8,1,0,1].sass", dir);
    if (remove(path) == 0) /* disassembled where nvdisasm exists */
        ASSERT(s.valid && s.count[VKB_MC_LDG_32] > 0);
    else
        ASSERT(!s.valid);

    /* lavapipe's vendor: not available, nothing written */
    vkb_mc_set_label("transpose", "other");
    vkb_mc_vulkan("llvmpipe", 0x10005, &pass, data, n, &s);
    ASSERT(!s.valid);
    snprintf(path, sizeof path, "%s/transpose_other[32x8x1,32,8,1,0,1].cache", dir);
    ASSERT(remove(path) != 0);
    ASSERT(rmdir(dir) == 0); /* nothing else was written */
    free(data);
    free(code);
}

UNIT_TESTS({"records", records}, {"raw_record", raw_record}, {"summary_lines", summary_lines},
           {"summary_recorded", summary_recorded}, {"cuda_function", cuda_function}, {"capture_files", capture_files})
