/* select.h - the command line to a selection (core/selection.h): the families, variants and shapes that the
 * arguments name, checked against each other. */
#ifndef VKB_SELECT_H
#define VKB_SELECT_H

#include <stddef.h>

#include "caps.h"
#include "cli.h"
#include "selection.h"

const vkb_family *vkb_family_find(const char *name);

/* The families and variants A names (every family when none), checked: each size flag given must be taken
 * by at least one selected family; a family named on the command line (or every family of a group named)
 * must keep a variant after --variant; each --spec constant given by name must be in some selected kernel's
 * shader. Families where --variant selects nothing (of those not named) are left out. 0, or -1 with a usage
 * error in ERR. */
int vkb_selection_families(const vkb_args *a, vkb_selection *s, char *err, size_t len);
/* The shapes of each selected family for A's command on CAPS (each as select.c's shapes_for rule says). 0 or -1 with
 * ERR. */
int vkb_selection_shapes(const vkb_args *a, const vkb_caps *caps, vkb_selection *s, char *err, size_t len);

#endif
