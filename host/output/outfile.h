/* outfile.h - result files that are never half written: a unique temporary file beside the target,
 * every write checked, renamed over the target only when all of it reached the disk. */
#ifndef VKB_OUTFILE_H
#define VKB_OUTFILE_H

#include <stdio.h>

typedef struct vkb_outfile vkb_outfile;

/* Open PATH (for WHAT, the option that named it: "--json") for writing before any work: "-" is stdout; a regular file (or a new one) gets a unique
 * temporary file PATH.XXXXXX in PATH's directory; a device or pipe (/dev/stdout) is written directly.
 * Returns NULL with errno set when that fails (a missing or read-only directory, PATH a directory). */
vkb_outfile *vkb_outfile_open(const char *path, const char *what);
/* The stream to write to (errors are checked at close). */
FILE *vkb_outfile_stream(vkb_outfile *f);
/* Has a write failed yet? (Sinks call it after each result and stop writing once it has.) */
int vkb_outfile_failed(vkb_outfile *f);
/* Flush, sync and close; rename the temporary file over PATH only when every step succeeded. Returns 0,
 * or -1 after printing "vkbench: error: cannot write PATH (WHAT): reason" (the temporary file removed, the
 * previous PATH untouched). Frees F. */
int vkb_outfile_close(vkb_outfile *f);
/* Close without keeping anything: the temporary file is removed. Frees F. */
void vkb_outfile_discard(vkb_outfile *f);

#endif
