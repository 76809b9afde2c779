/* util.h - exit codes, error reporting, allocation, seeded random numbers, wall clock. */
#ifndef VKB_UTIL_H
#define VKB_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Process exit codes: one enum, documented in README.md. */
typedef enum vkb_exit {
    VKB_EXIT_OK = 0,        /* everything ran and validated */
    VKB_EXIT_MISMATCH = 1,  /* a result failed validation, or the validation layer spoke */
    VKB_EXIT_USAGE = 2,     /* bad command line */
    VKB_EXIT_NO_DEVICE = 3, /* no Vulkan loader, driver or device (or no CUDA when asked for) */
    VKB_EXIT_RESOURCE = 4,  /* out of memory, size beyond the device's limits */
    VKB_EXIT_API = 5,       /* another API error */
    VKB_EXIT_OUTPUT = 6,    /* a result file (JSON, CSV, ...) could not be written; the last good one is kept */
    VKB_EXIT_UNJUDGED = 7   /* health: the node could not be judged (2 stays the usage error) */
} vkb_exit;

#if defined(__GNUC__)
#define VKB_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define VKB_NORETURN __attribute__((noreturn))
#else
#define VKB_PRINTF(a, b)
#define VKB_NORETURN
#endif

#define VKB_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Print "vkbench: error: MSG" on one line and exit with CODE. */
VKB_NORETURN void vkb_die(vkb_exit code, const char *fmt, ...) VKB_PRINTF(2, 3);
/* From now on vkb_die(FROM, ...) exits TO (health: out of host memory is its own failure, "could not judge"). */
void vkb_die_remap(vkb_exit from, vkb_exit to);
/* exit(CODE) from the middle of a run (a signal): what the callers still own is left to the OS (no leak
 * report in the sanitizer build); atexit handlers still end the sinks. */
VKB_NORETURN void vkb_exit_early(int code);
/* Call HOOK(MSG) once when vkb_die is called, before its line is printed and the process exits (the runner
 * records the error in its result files); NULL: none. */
void vkb_set_fatal_hook(void (*hook)(const char *msg));
/* The message of the vkb_die under way, or NULL. */
const char *vkb_fatal_message(void);
/* Record MSG as what ended the run early where no vkb_die ends the process (a device of several failed: the
 * result files name it); the first message recorded is kept. */
void vkb_fatal_message_keep(const char *msg);
/* Print "vkbench: error: MSG" on one line, and go on (the caller ends with the error's exit code). */
void vkb_error(const char *fmt, ...) VKB_PRINTF(1, 2);
/* What a failed device holds is left behind on purpose (a lost device cannot be trusted to free it): the sanitizer
 * build's leak check at exit is skipped, as after vkb_die. */
void vkb_leave_failed_state(void);
/* Print "vkbench: warning: MSG" on one line. */
void vkb_warn(const char *fmt, ...) VKB_PRINTF(1, 2);
/* Print "vkbench: MSG" on stderr unless quiet. */
void vkb_note(const char *fmt, ...) VKB_PRINTF(1, 2);
extern int vkb_quiet;
extern int vkb_verbose; /* --verbose: pipeline statistics and more detail on stderr */

/* malloc that exits with VKB_EXIT_RESOURCE and a message when the host is out of memory. */
void *vkb_alloc(size_t bytes);
void *vkb_calloc(size_t count, size_t size);
/* Exit with VKB_EXIT_RESOURCE and a message when BYTES of host memory for WHAT exceed the machine's
 * physical memory: absurd sizes fail clearly instead of thrashing. */
void vkb_host_reserve(uint64_t bytes, const char *what);

/* "; this process runs under ulimit -v 97656 (KiB of address space), ..., which can keep a driver from
 * loading" when a resource limit is low enough to explain a missing loader or device; else "". */
const char *vkb_limits_text(char *buf, size_t len);

/* Monotonic wall clock in nanoseconds. */
double vkb_now_ns(void);

/* Seeded generator (splitmix64): the same seed gives the same inputs on every machine. */
typedef struct vkb_rng {
    uint64_t state;
} vkb_rng;
void vkb_rng_seed(vkb_rng *r, uint64_t seed);
uint64_t vkb_rng_u64(vkb_rng *r);
/* Move R ahead by DRAWS draws at once (as if vkb_rng_u64 had been called DRAWS times). */
void vkb_rng_skip(vkb_rng *r, uint64_t draws);
/* Uniform in [lo, hi). */
double vkb_rng_uniform(vkb_rng *r, double lo, double hi);

/* Format a byte count with binary units ("256 MiB"). */
const char *vkb_fmt_bytes(uint64_t bytes, char *buf, size_t len);
/* This machine's host name (where results were measured: the JSON and CSV name it). */
const char *vkb_host_name(void);
/* A device UUID as 8-4-4-4-12 hex digits (LEN at least 37). */
const char *vkb_fmt_uuid(const uint8_t uuid[16], char *buf, size_t len);
/* 1 when HAY holds the first N characters of NEEDLE, letters compared without case (device names); 1 for N 0. */
int vkb_holds_nocase(const char *hay, const char *needle, size_t n);

#endif
