/* result.c - the growing list of results, and the named values one carries. */
#include "result.h"

#include <math.h>
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

void vkb_result_value(vkb_result *r, const char *tag, double value, const char *unit, const char *source)
{
    int i = 0;
    if (!isfinite(value))
        return;
    while (i < r->nvalues && strcmp(r->values[i].tag, tag) != 0)
        i++;
    if (i == VKB_MAX_VALUES) /* a programmer's error: raise VKB_MAX_VALUES */
        vkb_die(VKB_EXIT_API, "more than %d named values on a result (adding %s)", VKB_MAX_VALUES, tag);
    r->values[i] = (vkb_named_value){tag, value, unit, source};
    if (i == r->nvalues)
        r->nvalues++;
}
