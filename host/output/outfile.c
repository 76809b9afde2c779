/* outfile.c - result files that are never half written: one rule for every output path. Standard output,
 * descriptor names, devices and FIFOs are written in place; a regular file through a unique temporary file
 * beside it, every write checked, renamed over it (keeping its mode and owner) only when all of it reached
 * the disk. */
#define _XOPEN_SOURCE 700 /* realpath, fchown */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "signals.h"
#include "util.h"

#define TEMP_SUFFIX ".XXXXXX"
#define SHORT_TEMP "/.vkb.XXXXXX" /* when NAME + TEMP_SUFFIX would pass the folder's NAME_MAX */

struct vkb_outfile {
    char *path;       /* the target, as the user wrote it (for messages) */
    const char *what; /* the option that named it */
    char *dest;       /* where it goes: PATH, or what a symbolic link PATH points to */
    char *tmp;        /* the temporary file beside DEST; NULL when written in place */
    FILE *out;
    int error;                /* errno of the first failure seen, 0 while all is well */
    struct vkb_outfile *next; /* still open: removed at exit if the run dies before closing */
};

typedef enum out_kind { OUT_STDOUT, OUT_DESCRIPTOR, OUT_IN_PLACE, OUT_REGULAR } out_kind;

/* Where a path goes (classify). */
typedef struct out_place {
    out_kind kind;
    int fd;     /* OUT_DESCRIPTOR: the descriptor a name such as /dev/fd/3 names */
    char *dest; /* OUT_REGULAR: the file to replace or create (links followed); malloc'd */
    int exists; /* OUT_REGULAR: DEST is there (OLD holds its mode and owner) */
    struct stat old;
} out_place;

static vkb_outfile *open_files;
static char reason[400];    /* why the last open or check failed */
static char failures[1200]; /* the closes that failed, for one line (vkb_outfile_report) */

/* A run that exits early (vkb_die) leaves no temporary files behind. */
static void remove_temporaries(void)
{
    for (vkb_outfile *f = open_files; f; f = f->next)
        if (f->tmp)
            unlink(f->tmp);
}

static void unlist(vkb_outfile *f)
{
    for (vkb_outfile **p = &open_files; *p; p = &(*p)->next)
        if (*p == f) {
            *p = f->next;
            return;
        }
}

static char *copy_text(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *s = vkb_alloc(la + lb + 1);
    memcpy(s, a, la);
    memcpy(s + la, b, lb + 1);
    return s;
}

static int fail(int err, const char *why)
{
    snprintf(reason, sizeof reason, "%s", why ? why : strerror(err));
    errno = err;
    return -1;
}

/* The descriptor a name stands for: /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N; else -1. */
static int descriptor_name(const char *path)
{
    static const char *const dirs[] = {"/dev/fd/", "/proc/self/fd/"};
    if (strcmp(path, "/dev/stdout") == 0)
        return 1;
    if (strcmp(path, "/dev/stderr") == 0)
        return 2;
    for (size_t i = 0; i < VKB_COUNT(dirs); i++) {
        size_t n = strlen(dirs[i]), digits;
        if (strncmp(path, dirs[i], n) != 0)
            continue;
        digits = strspn(path + n, "0123456789");
        if (digits > 0 && digits < 7 && path[n + digits] == 0)
            return atoi(path + n);
    }
    return -1;
}

/* The folder part of PATH ("." when none), malloc'd; BASE: the name after it. */
static char *folder_of(const char *path, const char **base)
{
    const char *slash = strrchr(path, '/');
    char *dir;
    if (!slash) {
        *base = path;
        return copy_text(".", "");
    }
    *base = slash + 1;
    dir = copy_text(path, "");
    dir[slash == path ? 1 : slash - path] = 0;
    return dir;
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Where PATH goes, following the one rule (outfile.h); 0, or -1 with errno and the reason. */
static int classify(const char *path, out_place *p)
{
    struct stat st, out;
    memset(p, 0, sizeof *p);
    if (path[0] == 0)
        return fail(ENOENT, NULL);
    if (strcmp(path, "-") == 0)
        return p->kind = OUT_STDOUT, 0;
    if ((p->fd = descriptor_name(path)) >= 0) {
        if (fcntl(p->fd, F_GETFD) < 0)
            return fail(EBADF, NULL);
        p->kind = p->fd == 1 ? OUT_STDOUT : OUT_DESCRIPTOR;
        return 0;
    }
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT)
            return fail(errno, NULL);
        p->kind = OUT_REGULAR;
        p->dest = copy_text(path, "");
        return 0;
    }
    if (S_ISLNK(st.st_mode) && stat(path, &st) != 0) {
        char target[256] = "";
        ssize_t n = readlink(path, target, sizeof target - 1);
        char why[400];
        target[n > 0 ? n : 0] = 0;
        snprintf(why, sizeof why,
                 "a symbolic link to '%.200s', which is missing (links are followed only to a "
                 "file or device that exists)",
                 target);
        return fail(ENOENT, why);
    }
    if (fstat(1, &out) == 0 && same_file(&st, &out))
        return p->kind = OUT_STDOUT, 0; /* `--json out.json > out.json`: one stream, not two files */
    if (S_ISDIR(st.st_mode))
        return fail(EISDIR, NULL);
    if (!S_ISREG(st.st_mode))
        return p->kind = OUT_IN_PLACE, 0;
    p->kind = OUT_REGULAR;
    p->exists = 1;
    p->old = st;
    p->dest = realpath(path, NULL); /* through a link: replace the file it points to, not the link */
    if (!p->dest)
        return fail(errno, NULL);
    return 0;
}

/* The temporary file's name for DEST: DEST.XXXXXX, or FOLDER/.vkb.XXXXXX where that passes NAME_MAX. */
static char *temp_name(const char *dest)
{
    const char *base;
    char *dir = folder_of(dest, &base), *tmp;
    long name_max = pathconf(dir, _PC_NAME_MAX);
    if (name_max <= 0)
        name_max = 255;
    tmp = strlen(base) + strlen(TEMP_SUFFIX) <= (size_t)name_max ? copy_text(dest, TEMP_SUFFIX)
                                                                 : copy_text(dir, SHORT_TEMP);
    free(dir);
    return tmp;
}

int vkb_outfile_check(const char *path)
{
    out_place p;
    int rc = 0;
    if (classify(path, &p))
        return -1;
    if (p.kind == OUT_IN_PLACE && access(path, W_OK) != 0) {
        rc = fail(errno, NULL);
    } else if (p.kind == OUT_REGULAR) {
        const char *base;
        char *dir = folder_of(p.dest, &base);
        long name_max = pathconf(dir, _PC_NAME_MAX);
        struct stat st;
        if (stat(dir, &st) != 0)
            rc = fail(errno, NULL);
        else if (!S_ISDIR(st.st_mode))
            rc = fail(ENOTDIR, NULL);
        else if (strlen(base) > (size_t)(name_max > 0 ? name_max : 255))
            rc = fail(ENAMETOOLONG, NULL);
        else if (access(dir, W_OK | X_OK) != 0 || (p.exists && access(p.dest, W_OK) != 0))
            rc = fail(errno, NULL);
        free(dir);
    }
    free(p.dest);
    return rc;
}

const char *vkb_outfile_reason(void)
{
    return reason;
}

/* Identity of what PATH names: the file (links followed), stdout for "-", or a file not there yet by its
 * folder and name. */
typedef struct out_id {
    struct stat st;
    const char *name; /* NULL when the file exists */
} out_id;

static int identify(const char *path, out_id *id, char **dir)
{
    int fd = strcmp(path, "-") == 0 ? 1 : descriptor_name(path);
    *dir = NULL;
    id->name = NULL;
    if (fd >= 0)
        return fstat(fd, &id->st);
    if (stat(path, &id->st) == 0)
        return 0;
    *dir = folder_of(path, &id->name);
    return stat(*dir, &id->st);
}

int vkb_outfile_same(const char *a, const char *b)
{
    out_id ia, ib;
    char *da = NULL, *db = NULL;
    int same = identify(a, &ia, &da) == 0 && identify(b, &ib, &db) == 0 && same_file(&ia.st, &ib.st) &&
               (ia.name && ib.name ? strcmp(ia.name, ib.name) == 0 : !ia.name && !ib.name);
    free(da);
    free(db);
    return same;
}

int vkb_outfile_is_stdout(const char *path)
{
    out_place p;
    int is = classify(path, &p) == 0 && p.kind == OUT_STDOUT;
    free(p.dest);
    return is;
}

static void free_file(vkb_outfile *f)
{
    unlist(f);
    if (f->tmp)
        vkb_signals_untrack(f->tmp);
    free(f->path);
    free(f->dest);
    free(f->tmp);
    free(f);
}

/* Give up opening F: ERR with WHY (NULL: ERR's text; the reason already set: classify said it). */
static vkb_outfile *fail_open(vkb_outfile *f, int err, const char *why)
{
    if (f->out && f->out != stdout)
        fclose(f->out);
    if (f->tmp)
        unlink(f->tmp);
    free_file(f);
    if (why != reason)
        fail(err, why);
    errno = err;
    return NULL;
}

/* A FIFO or device opened where it is: without blocking, so that a FIFO no process reads fails at once. */
static int open_in_place(const char *path)
{
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0)
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

vkb_outfile *vkb_outfile_open(const char *path, const char *what)
{
    static int registered;
    vkb_outfile *f = vkb_calloc(1, sizeof *f);
    out_place p;
    mode_t mask;
    int fd;

    f->path = copy_text(path, "");
    f->what = what;
    if (classify(path, &p))
        return fail_open(f, errno, reason);
    f->dest = p.dest;
    if (p.kind == OUT_STDOUT) {
        f->out = stdout;
        return f;
    }
    if (p.kind != OUT_REGULAR) {
        fd = p.kind == OUT_DESCRIPTOR ? dup(p.fd) : open_in_place(path);
        if (fd < 0)
            return fail_open(f, errno, errno == ENXIO ? "a FIFO that no process reads (start its reader first)" : NULL);
        if (!(f->out = fdopen(fd, "w"))) {
            int err = errno;
            close(fd);
            return fail_open(f, err, NULL);
        }
        return f;
    }
    if (p.exists && access(f->dest, W_OK) != 0)
        return fail_open(f, errno, NULL);
    /* mkstemp: a name no other run holds, in the target's folder so that rename() stays atomic */
    f->tmp = temp_name(f->dest);
    fd = mkstemp(f->tmp);
    if (fd < 0) {
        int err = errno;
        free(f->tmp);
        f->tmp = NULL;
        return fail_open(f, err, NULL);
    }
    vkb_signals_track(f->tmp);
    f->next = open_files;
    open_files = f;
    mask = umask(0);
    umask(mask);
    /* the replaced file's mode and owner (the owner where this user may give it: root, or the same user) */
    if (p.exists && fchown(fd, p.old.st_uid, p.old.st_gid) != 0 && fchown(fd, (uid_t)-1, p.old.st_gid) != 0) {
        /* another owner: the new file is this user's */
    }
    if (fchmod(fd, p.exists ? p.old.st_mode & 07777 : 0666 & ~mask) != 0 || !(f->out = fdopen(fd, "w"))) {
        int err = errno;
        close(fd);
        return fail_open(f, err, NULL);
    }
    if (!registered) {
        atexit(remove_temporaries);
        registered = 1;
    }
    return f;
}

FILE *vkb_outfile_stream(vkb_outfile *f)
{
    return f->out;
}

int vkb_outfile_failed(vkb_outfile *f)
{
    if (!f->error && ferror(f->out)) {
        /* the failed write may have been another thread's (a device's, --device all): this thread's errno says
         * nothing of it; a second flush repeats the write and names its error */
        clearerr(f->out);
        errno = 0;
        f->error = fflush(f->out) != 0 && errno ? errno : EIO;
    }
    return f->error != 0;
}

static void note_error(vkb_outfile *f)
{
    if (!f->error)
        f->error = errno ? errno : EIO;
}

int vkb_outfile_close(vkb_outfile *f)
{
    int is_stdout = f->out == stdout;
    /* errno cleared first: a write that failed on another thread (a device's, --device all) left this thread's
     * errno stale; the flush repeats the failed write and names its error */
    errno = 0;
    if (fflush(f->out) != 0 || ferror(f->out))
        note_error(f);
    /* fsync: a full disk or a quota can refuse the data only now; devices and pipes cannot sync */
    if (!f->error && f->tmp && fsync(fileno(f->out)) != 0)
        note_error(f);
    if (!is_stdout && fclose(f->out) != 0)
        note_error(f);
    if (!f->error && f->tmp && rename(f->tmp, f->dest) != 0)
        note_error(f);
    if (f->error) {
        size_t used = strlen(failures);
        /* a reader that went away (EPIPE) is no write error: the run ends with SIGPIPE's code */
        if (f->error != EPIPE)
            snprintf(failures + used, sizeof failures - used, "%scannot write %s (%s): %s", used ? "; " : "",
                     is_stdout ? "standard output" : f->path, f->what, strerror(f->error));
        if (f->tmp)
            unlink(f->tmp);
        free_file(f);
        return -1;
    }
    free_file(f);
    return 0;
}

void vkb_outfile_report(void)
{
    if (!failures[0])
        return;
    fflush(stdout);
    fprintf(stderr, "vkbench: error: %s\n", failures);
    failures[0] = 0;
}

void vkb_outfile_discard(vkb_outfile *f)
{
    if (f->out != stdout)
        fclose(f->out);
    if (f->tmp)
        unlink(f->tmp);
    free_file(f);
}
