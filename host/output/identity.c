/* identity.c - which device a run tests, in words (the opening and closing lines of the outputs). */
#include "identity.h"

#include <string.h>
#include <sys/stat.h>

#include "format.h"

static FILE *table_stream;

/* The CPU implementation by the name users know: Mesa calls lavapipe's device llvmpipe. */
static const char *implementation(const vkb_caps *c, char *buf, size_t len)
{
    if (strncmp(c->name, "llvmpipe", 8) == 0)
        return "lavapipe";
    snprintf(buf, len, "%.*s", (int)strcspn(c->driver, " "), c->driver);
    return buf[0] ? buf : "unknown";
}

const char *vkb_identity_kind(const vkb_caps *c, char *buf, size_t len)
{
    char impl[64];
    if (c->is_cpu)
        snprintf(buf, len, "a CPU implementation (%s): no GPU is being tested", implementation(c, impl, sizeof impl));
    else if (strcmp(c->type, "other") == 0 || !c->type[0])
        snprintf(buf, len, "a device of unknown type");
    else
        snprintf(buf, len, "a%s %s GPU", strcmp(c->type, "integrated") == 0 ? "n" : "", c->type);
    return buf;
}

/* One backend's device, whole: "vulkan: NAME; vendor Mesa; driver ...; Vulkan 1.3.230;
 * a CPU implementation (lavapipe): no GPU is being tested". */
static const char *vkb_identity_line(const vkb_backend *b, char *buf, size_t len)
{
    const vkb_caps *c = &b->caps;
    char vendor[64], kind[128];
    int cuda = strcmp(b->name, "cuda") == 0;
    if (c->vendor[0])
        snprintf(vendor, sizeof vendor, "%s", c->vendor);
    else
        snprintf(vendor, sizeof vendor, "ID 0x%x", c->vendor_id);
    snprintf(buf, len, "%s: %s; vendor %s; driver %s; %s %s; %s", b->name, c->name, vendor, c->driver,
             cuda ? "compute capability" : "Vulkan",
             cuda && strncmp(c->api_version, "cc ", 3) == 0 ? c->api_version + 3 : c->api_version,
             vkb_identity_kind(c, kind, sizeof kind));
    return buf;
}

/* "CPU implementation", "discrete GPU": the kind without its article and explanation. */
static const char *kind_short(const vkb_caps *c)
{
    if (c->is_cpu)
        return "CPU implementation";
    if (strcmp(c->type, "discrete") == 0)
        return "discrete GPU";
    if (strcmp(c->type, "integrated") == 0)
        return "integrated GPU";
    if (strcmp(c->type, "virtual") == 0)
        return "virtual GPU";
    return "device of unknown type";
}

const char *vkb_identity_short(vkb_backend *const *backends, int n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < n && used < len; i++) {
        const vkb_caps *c = &backends[i]->caps;
        int same = i > 0 && strcmp(c->name, backends[i - 1]->caps.name) == 0;
        int next_same = i + 1 < n && strcmp(c->name, backends[i + 1]->caps.name) == 0;
        if (same) /* one GPU through two APIs: the name once, each API's driver */
            used += (size_t)snprintf(buf + used, len - used, "; %s: driver %s), %s", backends[i]->name, c->driver,
                                     kind_short(c));
        else if (next_same)
            used += (size_t)snprintf(buf + used, len - used, "%s%s (%s: driver %s", i ? "; " : "", c->name,
                                     backends[i]->name, c->driver);
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%s, driver %s, %s", i ? "; " : "", c->name, c->driver,
                                     kind_short(c));
    }
    return buf;
}

void vkb_identity_print(FILE *out, const char *prefix, vkb_backend *const *backends, int n, int width)
{
    for (int i = 0; i < n; i++) {
        char line[900], text[1000];
        snprintf(text, sizeof text, "%sdevice: %s", prefix, vkb_identity_line(backends[i], line, sizeof line));
        vkb_fmt_wrap(out, 0, (int)strlen(prefix) + 4, text, width);
    }
}

void vkb_identity_set_table(FILE *out)
{
    table_stream = out;
}

int vkb_identity_on_table(FILE *f)
{
    struct stat a, b;
    if (!table_stream)
        return 0;
    if (table_stream == f)
        return 1;
    /* the same file through two streams: a terminal, or `> log 2>&1` */
    return fstat(fileno(table_stream), &a) == 0 && fstat(fileno(f), &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino && a.st_rdev == b.st_rdev;
}
