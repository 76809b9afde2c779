/* test_devices_view.c - `vkbench devices` says cooperative-matrix types and scopes in words (not
 * "coopmat type 16x16x16 A,B,C,R 0,0,1,1 scope 3" and "1000141000" for bf16). */
#include <stdio.h>
#include <string.h>

#include "devices_view.h"
#include "unit.h"

static void coopmat_words(void)
{
    char out[160];
    vkb_coopmat_type_text(
        &(vkb_coopmat_type){.m = 16, .n = 16, .k = 16, .a = 0, .b = 0, .c = 1, .result = 1, .scope = 3}, out,
        sizeof out);
    ASSERT(strcmp(out, "fp16 x fp16 -> fp32, 16x16x16, subgroup") == 0);
    vkb_coopmat_type_text(
        &(vkb_coopmat_type){
            .m = 16, .n = 8, .k = 32, .a = 1000141000, .b = 1000141000, .c = 1, .result = 1, .scope = 2},
        out, sizeof out);
    ASSERT(strcmp(out, "bf16 x bf16 -> fp32, 16x8x32, workgroup") == 0);
    vkb_coopmat_type_text(
        &(vkb_coopmat_type){
            .m = 16, .n = 16, .k = 32, .a = 3, .b = 7, .c = 5, .result = 3, .scope = 3, .saturating = 1},
        out, sizeof out);
    ASSERT(strcmp(out, "int8 x uint8 + int32 -> int8, 16x16x32, subgroup, saturating") == 0);
    vkb_coopmat_type_text(
        &(vkb_coopmat_type){
            .m = 16, .n = 16, .k = 32, .a = 1000491002, .b = 1000491003, .c = 0, .result = 0, .scope = 3},
        out, sizeof out);
    ASSERT(strcmp(out, "fp8 e4m3 x fp8 e5m2 -> fp16, 16x16x32, subgroup") == 0);
    vkb_coopmat_type_text(
        &(vkb_coopmat_type){.m = 8, .n = 8, .k = 8, .a = 4242, .b = 0, .c = 0, .result = 0, .scope = 9}, out,
        sizeof out);
    ASSERT(strcmp(out, "type 4242 x fp16 -> fp16, 8x8x8, scope 9") == 0);
}

static void type_names(void)
{
    static const char *const want[] = {"fp16",  "fp32",  "fp64",   "int8",   "int16", "int32",
                                       "int64", "uint8", "uint16", "uint32", "uint64"};
    for (uint32_t t = 0; t < 11; t++)
        ASSERT(strcmp(vkb_component_type_name(t), want[t]) == 0);
    ASSERT(vkb_component_type_name(11) == NULL);
    ASSERT(strcmp(vkb_component_type_name(1000141000), "bf16") == 0);
    ASSERT(strcmp(vkb_scope_name(3), "subgroup") == 0 && strcmp(vkb_scope_name(2), "workgroup") == 0);
    ASSERT(vkb_scope_name(4) == NULL);
}

/* the bf16 and fp8 cooperative-matrix features, and a listed but unusable VK_NV_cooperative_matrix2, in the view */
static void number_types(void)
{
    static char text[8192];
    vkb_caps c;
    FILE *f = tmpfile();
    size_t n;
    memset(&c, 0, sizeof c);
    strcpy(c.name, "test device");
    c.features = VKB_NEED_BFLOAT16 | VKB_NEED_FLOAT8_COOPMAT;
    strcpy(c.coopmat2_missing, "cooperativeMatrixWorkgroupScope absent");
    vkb_devices_view(f, 0, &c, 0, "");
    rewind(f);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    ASSERT(strstr(text, "bf16 yes (cooperative matrices no), fp8 cooperative matrices yes\n"));
    ASSERT(strstr(text, "   NV coopmat2     listed; cooperativeMatrixWorkgroupScope absent\n"));
}

/* cooperative-matrix sizes only where the device lists them: none without the extensions, never 0x0x0 */
static void coopmat_sizes(void)
{
    static char text[8192];
    vkb_caps c;
    for (int with = 0; with < 2; with++) {
        FILE *f = tmpfile();
        size_t n;
        memset(&c, 0, sizeof c);
        strcpy(c.name, "test device");
        if (with) {
            c.ext_coopmat_khr = 1;
            c.coopmat_khr[0] = c.coopmat_khr[1] = c.coopmat_khr[2] = 16;
        }
        vkb_devices_view(f, 0, &c, 0, "");
        rewind(f);
        n = fread(text, 1, sizeof text - 1, f);
        text[n] = 0;
        fclose(f);
        ASSERT(!strstr(text, "0x0x0"));
        ASSERT(strstr(text, with ? "   coopmat sizes   KHR fp16->fp32 16x16x16, fp16->fp16 none\n"
                                 : "   coopmat sizes   none (no cooperative-matrix extension)\n"));
    }
}

UNIT_TESTS({"coopmat_words", coopmat_words}, {"type_names", type_names}, {"number_types", number_types},
           {"coopmat_sizes", coopmat_sizes})
