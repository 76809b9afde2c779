/* listing.c - `vkbench list`: families, variants and their notes; -v the constants --spec can set. */
#include "listing.h"

#include <string.h>

#include "families.h"
#include "format.h"
#include "spirv.h"

#define LIST_WIDTH 120 /* a line of `vkbench list`: notes wrap under their own column */

/* What a variant runs with: its shader, workgroup, and each named constant at the row's value (the shader's
 * default where the row sets none), so that a --spec written from it names constants the shader has. */
static void print_constants(FILE *out, const vkb_variant *v)
{
    const vkb_spirv *spv = v->kernel ? vkb_spirv_find(v->kernel) : NULL;
    vkb_spirv_constant c[VKB_MAX_SPEC + 3];
    int n;
    if (!spv) {
        fprintf(out, "      %s\n",
                v->kernel ? "(no Vulkan shader: CUDA only)"
                          : "(no shader: the API's or a library's "
                            "own routine)");
        return;
    }
    int named = 0;
    if (v->local[0] * v->local[1] * v->local[2] > 1)
        fprintf(out, "      %s: workgroup %ux%ux%u;", v->kernel, v->local[0], v->local[1], v->local[2]);
    else /* rows of 1x1x1 leave the workgroup to the plan (from the device's fragment or subgroup size) */
        fprintf(out, "      %s: workgroup from the plan;", v->kernel);
    n = vkb_spirv_spec_constants(spv, c, (int)(sizeof c / sizeof *c));
    for (int i = 0; i < n; i++) {
        uint32_t value = c[i].id < 3 ? v->local[c[i].id] : c[i].id - 3 < v->nspec ? v->spec[c[i].id - 3] : c[i].value;
        if (c[i].name[0])
            named += fprintf(out, " %s=%u", c[i].name, value) > 0;
    }
    fputs(named ? "" : " no named constants", out);
    fputs(v->flags & VKB_VAR_CEILING ? " (a ceiling: --spec leaves it as it is)\n" : "\n", out);
}

void vkb_list_families(FILE *out, int verbose)
{
    if (verbose)
        fputs("each variant's shader, its workgroup (--spec 0=X,1=Y,2=Z) and its constants at the row's values "
              "(--spec NAME=V; a 0 the plan replaces, see the note)\n",
              out);
    for (int i = 0; i < vkb_family_count; i++) {
        const vkb_family *f = vkb_families[i];
        char units[64], line[1200];
        size_t used = (size_t)snprintf(line, sizeof line, "%s: %s [%s; sizes:", f->name, f->summary,
                                       vkb_family_units(f, units, sizeof units));
        for (int d = 0; d < f->ndims && used < sizeof line; d++)
            used += (size_t)snprintf(line + used, sizeof line - used, " --%s", f->dims[d]);
        if (used < sizeof line)
            snprintf(line + used, sizeof line - used, "]");
        vkb_fmt_wrap(out, 0, 4, line, LIST_WIDTH);
        for (int v = 0; v < f->nvariants; v++) {
            const vkb_variant *var = &f->variants[v];
            const char *unit = vkb_variant_unit(f, var);
            int own_unit = strcmp(unit, f->metric) != 0; /* peak's integer rows: GOP/s */
            int col = fprintf(out, "  %-22s ", var->name);
            snprintf(line, sizeof line, "%s%s%s%s%s%s", var->flags & VKB_VAR_CEILING ? "(ceiling) " : "",
                     var->flags & VKB_VAR_NONDETERMINISTIC ? "(nondeterministic) " : "", own_unit ? "(" : "",
                     own_unit ? unit : "", own_unit ? ") " : "", var->note);
            vkb_fmt_wrap(out, col, col, line, LIST_WIDTH);
            if (verbose)
                print_constants(out, var);
        }
    }
}
