/* backend.c - the backends' error record (backend.h): the first error of a device, kept for the runner. */
#include "backend.h"

#include <stdarg.h>
#include <stdio.h>

#include "signals.h"

int vkb_backend_fail(vkb_backend_error *e, int code, const char *fmt, ...)
{
    va_list ap;
    if (e->code)
        return -1;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    e->code = code;
    return -1;
}

int vkb_backend_stopped(vkb_backend_error *e, int sig, const char *while_doing)
{
    if (e->code)
        return -1;
    snprintf(e->message, sizeof e->message, "stopped by %s while %s", vkb_signal_name(sig), while_doing);
    e->code = 128 + sig;
    e->stopped = 1;
    return -1;
}
