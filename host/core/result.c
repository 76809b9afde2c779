/* result.c - the growing list of results. */
#include "result.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void vkb_results_reserve(vkb_results *rs, int n)
{
    free(rs->r);
    rs->n = 0;
    rs->cap = n;
    rs->r = vkb_calloc((size_t)(n > 0 ? n : 1), sizeof *rs->r);
}

vkb_result *vkb_results_add(vkb_results *rs)
{
    if (rs->n == rs->cap) /* a programmer's error: one result per case of the work list */
        vkb_die(VKB_EXIT_API, "more results than the %d cases planned", rs->cap);
    memset(&rs->r[rs->n], 0, sizeof rs->r[rs->n]);
    return &rs->r[rs->n++];
}

void vkb_results_free(vkb_results *rs)
{
    free(rs->r);
    memset(rs, 0, sizeof *rs);
}

const char *vkb_robustness_name(vkb_robustness r)
{
    return r == VKB_ROBUSTNESS_DISABLED ? "disabled" : r == VKB_ROBUSTNESS_DEFAULT ? "default" : NULL;
}
