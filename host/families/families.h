/* families.h - the family table: every family folder's families, generated from host/families/NAME/family.cmake. */
#ifndef VKB_FAMILIES_H
#define VKB_FAMILIES_H

#include "family.h"

/* All families, in `vkbench list` order. */
extern const vkb_family *const vkb_families[];
extern const int vkb_family_count;

#endif
