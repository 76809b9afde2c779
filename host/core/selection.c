/* selection.c - what a command runs, as plain data (built from the command line by host/app/select.c). */
#include "selection.h"

#include <stdlib.h>
#include <string.h>

void vkb_selection_free(vkb_selection *s)
{
    for (int i = 0; i < s->nfams; i++) {
        free(s->fam[i].selected);
        free(s->fam[i].shapes);
    }
    free(s->fam);
    memset(s, 0, sizeof *s);
}
