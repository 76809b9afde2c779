/* family.c - looking up families and variants; shape text. */
#include "family.h"

#include <stdio.h>
#include <string.h>

const vkb_family *vkb_family_find(const char *name)
{
    for (int i = 0; i < vkb_family_count; i++)
        if (strcmp(vkb_families[i]->name, name) == 0)
            return vkb_families[i];
    return NULL;
}

const vkb_variant *vkb_variant_find(const vkb_family *f, const char *name)
{
    for (int i = 0; i < f->nvariants; i++)
        if (strcmp(f->variants[i].name, name) == 0)
            return &f->variants[i];
    return NULL;
}

const char *vkb_shape_text(const vkb_family *f, const vkb_shape *s, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    if (f->ndims == 1) {
        snprintf(buf, len, "%s=%lld", f->dims[0], (long long)s->d[0]);
        return buf;
    }
    for (int i = 0; i < f->ndims && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", i ? "x" : "", (long long)s->d[i]);
    return buf;
}
