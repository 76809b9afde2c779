/* selection.h - what a command runs: the families (a group such as `memory` selects memory.*), their
 * variants, and their shapes. Plain data, no device; host/app/select.h builds it from the command line. */
#ifndef VKB_SELECTION_H
#define VKB_SELECTION_H

#include <stddef.h>

#include "caps.h"
#include "family.h"

#define VKB_MAX_SHAPES 1024 /* per family and command: a sweep beyond this is a usage error */

/* One family of the command: the variants --variant selects, and the shapes it runs. */
typedef struct vkb_selected_family {
    const vkb_family *family;
    unsigned char *selected; /* nvariants flags: chosen by --variant (ceilings run anyway when timing) */
    vkb_shape *shapes;
    int nshapes;
    int implicit;     /* not asked for: it holds the fallback ceiling of a row that was (its default shape) */
    int shared_sizes; /* sized by a flag that sizes other families too: a size beyond it skips, with the
                                 reason, instead of ending the run */
} vkb_selected_family;

typedef struct vkb_selection {
    vkb_selected_family *fam; /* in command-line order, each family once */
    int nfams;
} vkb_selection;

void vkb_selection_free(vkb_selection *s);

#endif
