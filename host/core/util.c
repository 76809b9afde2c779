/* util.c - exit codes, error reporting, allocation, seeded random numbers, wall clock. */
#include "util.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

int vkb_quiet = 0;
int vkb_verbose = 0;

/* "vkbench: KIND: MSG" as one line: control characters from the command line or a driver (a newline in
 * an argument) print as '?', so that an error is always exactly one line. */
static void put_text(const char *kind, char *msg)
{
    for (char *p = msg; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    fflush(stdout);
    fprintf(stderr, "vkbench: %s: %s\n", kind, msg);
}

static void put_line(const char *kind, const char *fmt, va_list ap)
{
    char msg[2048];
    vsnprintf(msg, sizeof msg, fmt, ap);
    put_text(kind, msg);
}

#if defined(__SANITIZE_ADDRESS__)
/* The sanitizer build: LeakSanitizer asks this hook before its check at exit. An exit through vkb_die
 * leaves what the callers still own (a sink, a plan) behind on purpose; normal exits are checked. */
static int dying;
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
    return dying;
}
#define DYING() (dying = 1)
#else
#define DYING() ((void)0)
#endif

static char fatal_text[2048];
static void (*fatal_hook)(const char *msg);

void vkb_set_fatal_hook(void (*hook)(const char *msg))
{
    fatal_hook = hook;
}

const char *vkb_fatal_message(void)
{
    return fatal_text[0] ? fatal_text : NULL;
}

void vkb_fatal_message_keep(const char *msg)
{
    if (!fatal_text[0])
        snprintf(fatal_text, sizeof fatal_text, "%s", msg);
}

/* exit() from two threads at once runs the atexit handlers twice (the result files ended twice: "double free
 * or corruption"): the first thread's exit ends the process, any other that tries waits for it for ever; an
 * exit from inside an atexit handler (its own thread) ends at once. */
static VKB_NORETURN void exit_once(int code)
{
    static pthread_mutex_t exiting = PTHREAD_MUTEX_INITIALIZER;
    static pthread_t owner;
    static _Atomic int owned;
    if (owned && pthread_equal(owner, pthread_self()))
        _exit(code);
    pthread_mutex_lock(&exiting);
    owner = pthread_self();
    owned = 1;
    exit(code);
}

void vkb_exit_early(int code)
{
    DYING();
    exit_once(code);
}

void vkb_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_line("error", fmt, ap);
    va_end(ap);
}

void vkb_leave_failed_state(void)
{
    DYING();
}

static int remap_from = -1, remap_to;

void vkb_die_remap(vkb_exit from, vkb_exit to)
{
    remap_from = (int)from;
    remap_to = (int)to;
}

void vkb_die(vkb_exit code, const char *fmt, ...)
{
    va_list ap;
    void (*hook)(const char *) = fatal_hook;
    DYING();
    va_start(ap, fmt);
    vsnprintf(fatal_text, sizeof fatal_text, fmt, ap);
    va_end(ap);
    /* the run's files record the error before the line is printed (the error line stays the last one) */
    fatal_hook = NULL;
    if (hook)
        hook(fatal_text);
    put_text("error", fatal_text);
    exit_once((int)code == remap_from ? remap_to : (int)code);
}

void vkb_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_line("warning", fmt, ap);
    va_end(ap);
}

void vkb_note(const char *fmt, ...)
{
    va_list ap;
    char msg[2048];
    if (vkb_quiet)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "vkbench: %s\n", msg); /* one call: several devices' notes never share a line */
}

void *vkb_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        char b[32];
        vkb_die(VKB_EXIT_RESOURCE, "out of host memory allocating %s; try a smaller size",
                vkb_fmt_bytes(bytes, b, sizeof b));
    }
    return p;
}

void *vkb_calloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        vkb_die(VKB_EXIT_RESOURCE, "out of host memory (%zu x %zu bytes); try a smaller size", count, size);
    return p;
}

void vkb_host_reserve(uint64_t bytes, const char *what)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t have = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
    char need_text[32], have_text[32];
    if (have && bytes > have / 4 * 3)
        vkb_die(VKB_EXIT_RESOURCE,
                "%s needs %s of host memory for inputs and checks; this machine has %s; "
                "try a smaller size",
                what, vkb_fmt_bytes(bytes, need_text, sizeof need_text),
                vkb_fmt_bytes(have, have_text, sizeof have_text));
}

const char *vkb_limits_text(char *buf, size_t len)
{
    /* limits below these are seen to keep a Vulkan driver from loading or starting its threads */
    static const struct {
        int resource;
        const char *flag, *what;
        rlim_t below, unit;
    } limits[] = {
        {RLIMIT_AS, "-v", "KiB of address space", (rlim_t)8 << 30, 1024},
        {RLIMIT_NOFILE, "-n", "open files", 64, 1},
        {RLIMIT_NPROC, "-u", "processes and threads", 256, 1},
    };
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < VKB_COUNT(limits); i++) {
        struct rlimit lim;
        if (getrlimit(limits[i].resource, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY ||
            lim.rlim_cur >= limits[i].below)
            continue;
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s ulimit %s %llu (%s)",
                                 used ? "," : "; this process runs under", limits[i].flag,
                                 (unsigned long long)(lim.rlim_cur / limits[i].unit), limits[i].what);
    }
    if (used && used < len)
        snprintf(buf + used, len - used, ", which can keep a driver from loading");
    return buf;
}

double vkb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

void vkb_rng_seed(vkb_rng *r, uint64_t seed)
{
    r->state = seed;
}

#define RNG_GAMMA 0x9E3779B97F4A7C15ull /* splitmix64's step: the state is a counter, so it jumps by multiples */

void vkb_rng_skip(vkb_rng *r, uint64_t draws)
{
    r->state += draws * RNG_GAMMA;
}

uint64_t vkb_rng_u64(vkb_rng *r)
{
    uint64_t z = (r->state += RNG_GAMMA);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double vkb_rng_uniform(vkb_rng *r, double lo, double hi)
{
    double u = (double)(vkb_rng_u64(r) >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * u;
}

static char host_name[256];

static void read_host_name(void)
{
    const char *env = getenv("VKB_HOST"); /* several tasks of one machine that stand for hosts (tests) */
    if (env && *env) {
        snprintf(host_name, sizeof host_name, "%s", env);
        for (char *p = host_name; *p; p++) /* control characters would reach the terminal and the CSV raw */
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
    } else if (gethostname(host_name, sizeof host_name - 1) != 0 || !host_name[0])
        snprintf(host_name, sizeof host_name, "unknown");
}

const char *vkb_host_name(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, read_host_name);
    return host_name;
}

const char *vkb_fmt_uuid(const uint8_t uuid[16], char *buf, size_t len)
{
    size_t used = 0;
    for (int i = 0; i < 16 && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%02x%s", uuid[i],
                                 i == 3 || i == 5 || i == 7 || i == 9 ? "-" : "");
    return buf;
}

const char *vkb_fmt_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024.0 && u < 6) {
        v /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, len, "%llu B", (unsigned long long)bytes);
    else
        snprintf(buf, len, "%.*f %s", v < 10 ? 2 : v < 100 ? 1 : 0, v, unit[u]);
    return buf;
}

int vkb_holds_nocase(const char *hay, const char *needle, size_t n)
{
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}
