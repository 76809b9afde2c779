/* sinks.c - what every sink shares: the table width and freeing. */
#include "sinks.h"

#include <stdlib.h>

#include "env.h"

int vkb_table_width(int wide)
{
    long cols;
    if (wide)
        return 0;
    if (vkb_env_columns(&cols) == 1) /* a malformed one: warned about at the start, the default kept */
        return cols < VKB_TABLE_MIN_WIDTH ? VKB_TABLE_MIN_WIDTH : cols > 1000 ? 1000 : (int)cols;
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
