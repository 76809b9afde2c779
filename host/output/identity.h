/* identity.h - which device a run tests, in words: the lines the outputs open and close with, so that a saved
 * log, table or matrix names the device, its driver, and whether it is a GPU at all. */
#ifndef VKB_IDENTITY_H
#define VKB_IDENTITY_H

#include <stddef.h>
#include <stdio.h>

#include "backend.h"

/* The kind of device in words: "a discrete GPU", "a CPU implementation (lavapipe): no GPU is being tested". */
const char *vkb_identity_kind(const vkb_caps *c, char *buf, size_t len);
/* For a closing summary: "NAME, driver DRIVER, CPU implementation"; a GPU seen through both APIs once, with
 * each API's driver. */
const char *vkb_identity_short(vkb_backend *const *backends, int n, char *buf, size_t len);
/* "PREFIXdevice: LINE" on OUT for each backend, wrapped to WIDTH (0: no limit). */
void vkb_identity_print(FILE *out, const char *prefix, vkb_backend *const *backends, int n, int width);
/* The table or matrix names the device on OUT (it calls this when created); the progress sink then names it
 * on stderr only when stderr is another file (stdout piped to a file: both name it; a terminal: once). */
void vkb_identity_set_table(FILE *out);
int vkb_identity_on_table(FILE *f);

#endif
