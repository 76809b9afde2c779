/* outfile.h - result files that are never half written: one rule for every output path. Standard output,
 * descriptor names, devices and FIFOs are written in place; a regular file through a unique temporary file
 * beside it, every write checked, renamed over it (keeping its mode and owner) only when all of it reached
 * the disk. */
#ifndef VKB_OUTFILE_H
#define VKB_OUTFILE_H

#include <stdio.h>

typedef struct vkb_outfile vkb_outfile;

/* Open PATH (for WHAT, the option that named it: "--json") for writing, before any work:
 * - "-", /dev/stdout, /proc/self/fd/1 or any name of what descriptor 1 is: standard output itself;
 * - /dev/stderr, /dev/fd/N, /proc/self/fd/N: that descriptor (duplicated), written where it is;
 * - a device or a FIFO: opened in place without blocking (a FIFO no process reads fails at once);
 * - a regular file, or a new one: a unique temporary file beside it (PATH.XXXXXX, or FOLDER/.vkb.XXXXXX
 *   where that name would pass NAME_MAX), renamed over it at close with the old file's mode (and owner
 *   where allowed); a symbolic link is followed to the file it names, a dangling one refused.
 * Returns NULL with errno set and vkb_outfile_reason() saying why. */
vkb_outfile *vkb_outfile_open(const char *path, const char *what);
/* Whether PATH could be opened, without creating or opening anything (--dry-run): 0, or -1 with the reason. */
int vkb_outfile_check(const char *path);
/* Why the last open or check failed, in words. */
const char *vkb_outfile_reason(void);
/* Whether A and B name one file (through links, descriptor names, "-"; a file not there yet by folder and
 * name). */
int vkb_outfile_same(const char *a, const char *b);
/* Whether PATH is written to standard output itself (the table then moves to stderr). */
int vkb_outfile_is_stdout(const char *path);
/* The stream to write to (errors are checked at close). */
FILE *vkb_outfile_stream(vkb_outfile *f);
/* Has a write failed yet? (Sinks call it after each result and stop writing once it has.) */
int vkb_outfile_failed(vkb_outfile *f);
/* Flush, sync and close; rename the temporary file over PATH only when every step succeeded. Returns 0,
 * or -1 (the temporary file removed, the previous PATH untouched) with "cannot write PATH (WHAT): reason"
 * kept for vkb_outfile_report. Frees F. */
int vkb_outfile_close(vkb_outfile *f);
/* Print the failures of the closes so far as one line, "vkbench: error: cannot write ...; cannot write ...". */
void vkb_outfile_report(void);
/* Close without keeping anything: the temporary file is removed. Frees F. */
void vkb_outfile_discard(vkb_outfile *f);

#endif
