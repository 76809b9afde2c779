/* result.c - the growing list of results. */
#include "result.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

vkb_result *vkb_results_add(vkb_results *rs)
{
    if (rs->n == rs->cap) {
        /* results point at their ceilings; the array must not move, so it is sized once, generously */
        if (rs->cap)
            vkb_die(VKB_EXIT_RESOURCE, "more than %d results in one run; run fewer sizes", rs->cap);
        rs->cap = VKB_MAX_RESULTS;
        rs->r = vkb_calloc((size_t)rs->cap, sizeof *rs->r);
    }
    memset(&rs->r[rs->n], 0, sizeof rs->r[rs->n]);
    return &rs->r[rs->n++];
}

void vkb_results_free(vkb_results *rs)
{
    free(rs->r);
    memset(rs, 0, sizeof *rs);
}
