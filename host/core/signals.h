/* signals.h - the process's guards from its first instruction to its last: descriptors 0-2 always open,
 * one rule for every signal (a stop flag; a second signal ends at once), stdout's fate at exit. */
#ifndef VKB_SIGNALS_H
#define VKB_SIGNALS_H

#include "util.h"

/* Open /dev/null (read-only: a write then fails visibly) onto any of descriptors 0, 1, 2 that is closed, so
 * that no result file gets one; install the handlers (SIGINT, SIGTERM, SIGHUP ignored at start stay ignored:
 * nohup, background jobs): SIGINT, SIGTERM, SIGHUP and SIGPIPE set the stop flag
 * (a second SIGINT, SIGTERM or SIGHUP removes the temporary files and exits 128 + signal at once), SIGXFSZ is
 * ignored (a write past `ulimit -f` fails with EFBIG instead). Idempotent. */
void vkb_signals_install(void);
/* The signal that asked the run to stop (SIGINT, ...), or 0. */
int vkb_stop_signal(void);
/* A signal came before the run began: exit 128 + signal with one line (temporaries removed, the last good
 * result files kept). WHEN: "before any case ran". Returns when there was none. */
void vkb_stop_if_signalled(const char *when);
/* "stopped by SIGINT while WHILE_DOING" on stderr, once for the whole process however many devices were busy: a
 * device did not finish within a second of the stop (its backend records it, backend.h; the application ends). */
void vkb_stop_say(const char *while_doing);
/* "SIGINT" for SIGINT, ... */
const char *vkb_signal_name(int sig);
/* VKB_FAULT_INJECT=NAME:SIG (signal-early, signal-late): raise SIG here, a signal at a chosen moment (tests);
 * signal-twice:SIG raises it twice where signal-late would. */
void vkb_signal_fault(const char *name);
/* Remember PATH (a temporary file) for the second signal to remove; forget it. */
void vkb_signals_track(const char *path);
void vkb_signals_untrack(const char *path);
/* Flush stdout and say how it went: 0; 141 (SIGPIPE's code) when its reader went away; else one line
 * "cannot write standard output" (unless QUIET: another error line was printed) and VKB_EXIT_OUTPUT (a full
 * disk). A stdout closed when the process started is no error. */
int vkb_stdout_finish(int quiet);

#endif
