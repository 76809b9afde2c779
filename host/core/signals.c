/* signals.c - the process's guards from its first instruction to its last: descriptors 0-2 always open,
 * one rule for every signal (a stop flag; a second signal ends at once), stdout's fate at exit. */
#define _POSIX_C_SOURCE 200809L
#include "signals.h"

#include "check.h"
#include "fault.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_TRACKED 16

static volatile sig_atomic_t stop_sig;
static const char *volatile tracked[MAX_TRACKED]; /* temporaries a second signal removes */
static int stdout_closed;

/* The first SIGINT, SIGTERM or SIGHUP asks the run to stop after the current case; a second one ends the
 * process at once (async-signal-safe: unlink, write, _exit). SIGPIPE (a reader went away) only asks. */
static void on_signal(int sig)
{
    static const char msg[] = "vkbench: a second signal: stopped at once, temporary files removed\n";
    if (sig != SIGPIPE && stop_sig && stop_sig != SIGPIPE) {
        for (int i = 0; i < MAX_TRACKED; i++)
            if (tracked[i])
                unlink(tracked[i]);
        if (write(2, msg, sizeof msg - 1) < 0) {
            /* nothing left to tell */
        }
        _exit(128 + sig);
    }
    if (sig != SIGPIPE || !stop_sig)
        stop_sig = sig;
}

void vkb_signals_install(void)
{
    static int installed;
    static const int stops[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    struct sigaction sa;
    if (installed)
        return;
    installed = 1;
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            /* read-only: a write to a closed stdout fails (EBADF) where someone needs it, never lands in a file */
            int got = open("/dev/null", O_RDONLY);
            if (got >= 0 && got != fd) {
                dup2(got, fd);
                close(got);
            }
            if (fd == 1)
                stdout_closed = 1;
        }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < VKB_COUNT(stops); i++) {
        struct sigaction old;
        /* ignored by whoever started us (nohup, a script's background job): it stays ignored; SIGPIPE is
         * always caught, so that a reader gone away stops the run */
        if (stops[i] != SIGPIPE && sigaction(stops[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(stops[i], &sa, NULL);
    }
    sa.sa_handler = SIG_IGN;
    sigaction(SIGXFSZ, &sa, NULL);
}

int vkb_stop_signal(void)
{
    return stop_sig;
}

/* "SIGINT" for SIGINT. */
const char *vkb_signal_name(int sig)
{
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGPIPE: return "SIGPIPE (the reader of an output went away)";
    default: return "a signal";
    }
}

void vkb_stop_if_signalled(const char *when)
{
    int sig = stop_sig;
    if (!sig)
        return;
    fflush(stdout);
    if (sig != SIGPIPE)
        fprintf(stderr, "vkbench: stopped by %s %s\n", vkb_signal_name(sig), when);
    vkb_exit_early(128 + sig);
}

void vkb_stop_say(const char *while_doing)
{
    static atomic_flag said = ATOMIC_FLAG_INIT;
    fflush(stdout);
    if (!atomic_flag_test_and_set(&said))
        fprintf(stderr, "vkbench: stopped by %s while %s\n", vkb_signal_name(stop_sig), while_doing);
}

void vkb_signal_fault(const char *name)
{
    long sig;
    if (vkb_fault_arg(name, &sig) && sig > 0 && sig < 32)
        raise((int)sig);
    if (strcmp(name, "signal-late") == 0 && vkb_fault_arg("signal-twice", &sig) && sig > 0 && sig < 32) {
        raise((int)sig); /* one after the other, each delivered: the second ends the process at once */
        raise((int)sig);
    }
}

void vkb_signals_track(const char *path)
{
    for (int i = 0; i < MAX_TRACKED; i++)
        if (!tracked[i]) {
            tracked[i] = path;
            return;
        }
}

void vkb_signals_untrack(const char *path)
{
    for (int i = 0; i < MAX_TRACKED; i++)
        if (tracked[i] == path)
            tracked[i] = NULL;
}

int vkb_stdout_finish(int quiet)
{
    int err;
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    err = errno;
    if (stop_sig == SIGPIPE || err == EPIPE)
        return 128 + SIGPIPE;
    if (stdout_closed)
        return 0; /* closed by the caller: the table was for no one */
    if (!quiet)
        fprintf(stderr, "vkbench: error: cannot write standard output: %s\n", err ? strerror(err) : "a write failed");
    return VKB_EXIT_OUTPUT;
}
