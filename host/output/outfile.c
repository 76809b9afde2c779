/* outfile.c - result files that are never half written: a unique temporary file beside the target,
 * every write checked, renamed over the target only when all of it reached the disk. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

struct vkb_outfile {
    char *path;         /* the target, as the user wrote it (for messages) */
    const char *what;   /* the option that named it */
    char *dest;         /* where it goes: PATH, or what a symbolic link PATH points to */
    char *tmp;          /* the temporary file beside DEST; NULL when written directly */
    FILE *out;
    int error;          /* errno of the first failure seen, 0 while all is well */
    struct vkb_outfile *next; /* still open: removed at exit if the run dies before closing */
};

static vkb_outfile *open_files;

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

static void free_file(vkb_outfile *f)
{
    unlist(f);
    free(f->path);
    free(f->dest);
    free(f->tmp);
    free(f);
}

static vkb_outfile *fail_open(vkb_outfile *f, int err)
{
    if (f->tmp)
        unlink(f->tmp);
    free_file(f);
    errno = err;
    return NULL;
}

vkb_outfile *vkb_outfile_open(const char *path, const char *what)
{
    static int registered;
    vkb_outfile *f = vkb_calloc(1, sizeof *f);
    struct stat st;
    mode_t mask;
    int fd;

    f->path = copy_text(path, "");
    f->what = what;
    if (strcmp(path, "-") == 0) {
        f->out = stdout;
        f->dest = copy_text("standard output", "");
        return f;
    }
    if (path[0] == 0)
        return fail_open(f, ENOENT);
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        /* replace the file the link points to, not the link */
        f->dest = realpath(path, NULL);
        if (!f->dest)
            return fail_open(f, errno);
    } else {
        f->dest = copy_text(path, "");
    }
    if (stat(f->dest, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return fail_open(f, EISDIR);
        if (!S_ISREG(st.st_mode)) {
            /* a device or a pipe (/dev/stdout, /dev/null): written in place, never renamed over */
            f->out = fopen(f->dest, "w");
            if (!f->out)
                return fail_open(f, errno);
            return f;
        }
        if (access(f->dest, W_OK) != 0)
            return fail_open(f, errno);
    }
    /* mkstemp: a name no other run holds, in the target's directory so that rename() stays atomic */
    f->tmp = copy_text(f->dest, ".XXXXXX");
    fd = mkstemp(f->tmp);
    if (fd < 0) {
        int err = errno;
        free(f->tmp);
        f->tmp = NULL;
        return fail_open(f, err);
    }
    mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || !(f->out = fdopen(fd, "w"))) {
        int err = errno;
        close(fd);
        return fail_open(f, err);
    }
    if (!registered) {
        atexit(remove_temporaries);
        registered = 1;
    }
    f->next = open_files;
    open_files = f;
    return f;
}

FILE *vkb_outfile_stream(vkb_outfile *f)
{
    return f->out;
}

int vkb_outfile_failed(vkb_outfile *f)
{
    if (!f->error && ferror(f->out))
        f->error = errno ? errno : EIO;
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
    vkb_outfile_failed(f);
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
        fflush(stdout);
        fprintf(stderr, "vkbench: error: cannot write %s (%s): %s\n", is_stdout ? "standard output" : f->path,
                f->what, strerror(f->error));
        if (f->tmp)
            unlink(f->tmp);
        free_file(f);
        return -1;
    }
    free_file(f);
    return 0;
}

void vkb_outfile_discard(vkb_outfile *f)
{
    if (f->out != stdout)
        fclose(f->out);
    if (f->tmp)
        unlink(f->tmp);
    free_file(f);
}
