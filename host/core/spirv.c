/* spirv.c - finding an embedded SPIR-V module by name, and its specialization constants by name. */
#include "spirv.h"

#include <stdlib.h>
#include <string.h>

#include "number.h"

const vkb_spirv *vkb_spirv_find(const char *name)
{
    for (int i = 0; vkb_spirv_modules[i]; i++)
        if (strcmp(vkb_spirv_modules[i]->name, name) == 0)
            return vkb_spirv_modules[i];
    return NULL;
}

enum {
    OP_NAME = 5,
    OP_SPEC_CONSTANT_TRUE = 48,
    OP_SPEC_CONSTANT_FALSE = 49,
    OP_SPEC_CONSTANT = 50,
    OP_DECORATE = 71,
    DECORATION_SPEC_ID = 1,
    HEADER_WORDS = 5
};

int vkb_spirv_spec_id(const vkb_spirv *s, const char *name)
{
    size_t words = s->bytes / 4, len = strlen(name);
    uint32_t target = 0;
    /* the result id that OpName calls NAME (glslang keeps names), then the SpecId decorating it */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t w = HEADER_WORDS; w < words;) {
            uint32_t count = s->code[w] >> 16, op = s->code[w] & 0xffffu;
            if (count == 0 || w + count > words)
                return -1; /* malformed: spirv-val checks the embedded modules, so not expected */
            if (pass == 0 && op == OP_NAME && count >= 3 && (count - 2) * 4 > len &&
                memcmp(&s->code[w + 2], name, len + 1) == 0) {
                target = s->code[w + 1];
                break;
            }
            if (pass == 1 && op == OP_DECORATE && count == 4 && s->code[w + 1] == target &&
                s->code[w + 2] == DECORATION_SPEC_ID)
                return (int)s->code[w + 3];
            w += count;
        }
        if (target == 0)
            return -1;
    }
    return -1;
}

static int by_id(const void *a, const void *b)
{
    return ((const vkb_spirv_constant *)a)->id - ((const vkb_spirv_constant *)b)->id;
}

/* Is SpecId ID among the N in OUT? glslang decorates the workgroup size's ids 0..2 twice where a shader uses
 * gl_WorkGroupSize (LocalSizeId and the constant): counted twice they took the slots of the last named ones. */
static int has_id(const vkb_spirv_constant *out, int n, uint32_t id)
{
    for (int i = 0; i < n; i++)
        if (out[i].id == (int)id)
            return 1;
    return 0;
}

int vkb_spirv_spec_constants(const vkb_spirv *s, vkb_spirv_constant *out, int max)
{
    size_t words = s->bytes / 4;
    uint32_t target[64];
    int n = 0;
    if (max > (int)(sizeof target / sizeof *target))
        max = (int)(sizeof target / sizeof *target);
    /* the SpecId decorations first (they precede the constants), then each decorated id's name and value */
    for (int pass = 0; pass < 2; pass++)
        for (size_t w = HEADER_WORDS; w < words;) {
            uint32_t count = s->code[w] >> 16, op = s->code[w] & 0xffffu;
            if (count == 0 || w + count > words)
                break; /* malformed: spirv-val checks the embedded modules, so not expected */
            if (pass == 0 && op == OP_DECORATE && count == 4 && s->code[w + 2] == DECORATION_SPEC_ID && n < max &&
                !has_id(out, n, s->code[w + 3])) {
                memset(&out[n], 0, sizeof out[n]);
                target[n] = s->code[w + 1];
                out[n++].id = (int)s->code[w + 3];
            }
            for (int i = 0; pass == 1 && i < n; i++) {
                if (op == OP_NAME && count >= 3 && s->code[w + 1] == target[i]) {
                    size_t len = (count - 2) * 4 < sizeof out[i].name ? (count - 2) * 4 : sizeof out[i].name - 1;
                    memcpy(out[i].name, &s->code[w + 2], len);
                    out[i].name[sizeof out[i].name - 1] = 0;
                } else if ((op == OP_SPEC_CONSTANT && count >= 4 && s->code[w + 2] == target[i]) ||
                           ((op == OP_SPEC_CONSTANT_TRUE || op == OP_SPEC_CONSTANT_FALSE) && count == 3 &&
                            s->code[w + 2] == target[i])) {
                    out[i].value = op == OP_SPEC_CONSTANT ? s->code[w + 3] : op == OP_SPEC_CONSTANT_TRUE;
                }
            }
            w += count;
        }
    qsort(out, (size_t)n, sizeof *out, by_id);
    return n;
}

int vkb_spirv_spec_lookup(const vkb_spirv *s, const char *name)
{
    vkb_spirv_constant c[64];
    uint64_t id;
    int n;
    if (vkb_number_whole(name, &id))
        return vkb_spirv_spec_id(s, name);
    n = vkb_spirv_spec_constants(s, c, (int)(sizeof c / sizeof *c));
    for (int i = 0; i < n; i++)
        if ((uint64_t)c[i].id == id)
            return c[i].id;
    return -1;
}
