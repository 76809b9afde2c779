/* selection.h - what a command runs: the families (a group such as `memory` selects memory.*), their
 * variants, and their shapes from the size flags, the defaults or the battery. Plain data, no device. */
#ifndef VKB_SELECTION_H
#define VKB_SELECTION_H

#include <stddef.h>

#include "caps.h"
#include "cli.h"
#include "family.h"

#define VKB_MAX_SHAPES 1024  /* per family and command: a sweep beyond this is a usage error */

/* One family of the command: the variants --variant selects, and the shapes it runs. */
typedef struct vkb_selected_family {
    const vkb_family *family;
    unsigned char *selected;  /* nvariants flags: chosen by --variant (ceilings run anyway when timing) */
    vkb_shape *shapes;
    int nshapes;
} vkb_selected_family;

typedef struct vkb_selection {
    vkb_selected_family *fam; /* in command-line order, each family once */
    int nfams;
} vkb_selection;

/* The families and variants A names (every family when none), checked: each size flag given must be taken
 * by at least one selected family; a family named on the command line (or every family of a group named)
 * must keep a variant after --variant; each --spec constant given by name must be in some selected kernel's
 * shader. Families where --variant selects nothing (of those not named) are left out. 0, or -1 with a usage
 * error in ERR. */
int vkb_selection_families(const vkb_args *a, vkb_selection *s, char *err, size_t len);
/* The shapes of each selected family for A's command on CAPS (see vkb_selection_shapes_for). 0 or -1 with
 * ERR. */
int vkb_selection_shapes(const vkb_args *a, const vkb_caps *caps, vkb_selection *s, char *err, size_t len);
/* The shapes F runs: from the size flags F takes, when A gives any; else `validate` the battery, the default
 * suite the first default shape, `run` the defaults. --size sets every extent dim (n, m, k, rows, cols) to
 * the same value: square and cubic shapes; a cartesian product comes only from explicit per-dim lists
 * (--rows with --cols, --m/--n/--k). Dims without a flag keep the first default shape's value. Returns the
 * count (<= MAX), or -1 with ERR. */
int vkb_selection_shapes_for(const vkb_family *f, const vkb_args *a, const vkb_caps *caps, vkb_shape *out,
                             int max, char *err, size_t len);
/* Whether F has a dim set by the size flag D (VKB_DIM_*); --size counts for families with an extent dim. */
int vkb_selection_takes(const vkb_family *f, int d);
void vkb_selection_free(vkb_selection *s);

#endif
