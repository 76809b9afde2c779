/* sinks.c - what every sink shares: the table width and freeing. */
#include "sinks.h"

#include <stdlib.h>

int vkb_table_width(int wide)
{
    const char *env = getenv("COLUMNS");
    char *end;
    long cols;
    if (wide)
        return 0;
    if (env && *env) {
        cols = strtol(env, &end, 10);
        if (*end == 0 && cols > 0)
            return cols < VKB_TABLE_MIN_WIDTH ? VKB_TABLE_MIN_WIDTH : cols > 1000 ? 1000 : (int)cols;
    }
    return VKB_TABLE_WIDTH;
}

void vkb_sink_destroy(vkb_sink *s)
{
    if (!s)
        return;
    if (s->destroy)
        s->destroy(s);
    free(s->impl);
}
