/* spirv.c - finding an embedded SPIR-V module by name. */
#include "spirv.h"

#include <string.h>

const vkb_spirv *vkb_spirv_find(const char *name)
{
    for (int i = 0; vkb_spirv_modules[i]; i++)
        if (strcmp(vkb_spirv_modules[i]->name, name) == 0)
            return vkb_spirv_modules[i];
    return NULL;
}
