/* listing.h - `vkbench list`: the families and their variants, with -v each variant's shader constants. */
#ifndef VKB_LISTING_H
#define VKB_LISTING_H

#include <stdio.h>

/* Every family and variant with its note on OUT; VERBOSE adds under each variant its shader, workgroup and
 * specialization constants by the shader's names with the row's values: what `--spec NAME=V` can set. */
void vkb_list_families(FILE *out, int verbose);

#endif
