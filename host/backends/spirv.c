/* spirv.c - finding an embedded SPIR-V module by name, and its specialization constants by name. */
#include "spirv.h"

#include <string.h>

const vkb_spirv *vkb_spirv_find(const char *name)
{
    for (int i = 0; vkb_spirv_modules[i]; i++)
        if (strcmp(vkb_spirv_modules[i]->name, name) == 0)
            return vkb_spirv_modules[i];
    return NULL;
}

enum { OP_NAME = 5, OP_DECORATE = 71, DECORATION_SPEC_ID = 1, HEADER_WORDS = 5 };

int vkb_spirv_spec_id(const vkb_spirv *s, const char *name)
{
    size_t words = s->bytes / 4, len = strlen(name);
    uint32_t target = 0;
    /* the result id that OpName calls NAME (glslang keeps names), then the SpecId decorating it */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t w = HEADER_WORDS; w < words;) {
            uint32_t count = s->code[w] >> 16, op = s->code[w] & 0xffffu;
            if (count == 0 || w + count > words)
                return -1;   /* malformed: spirv-val checks the embedded modules, so not expected */
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
