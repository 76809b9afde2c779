/* fault.c - fault injection's arguments (VKB_FAULT_INJECT), to prove the checks. */
#include "fault.h"

#include <stdlib.h>
#include <string.h>

int vkb_fault_arg(const char *name, long *value)
{
    const char *f = getenv("VKB_FAULT_INJECT");
    size_t len = strlen(name);
    if (!f || strncmp(f, name, len) != 0 || (f[len] && f[len] != ':'))
        return 0;
    if (value)
        *value = f[len] == ':' ? strtol(f + len + 1, NULL, 10) : -1;
    return 1;
}
