/* format.c - text shared by the sinks: times, shapes, verdicts, names cut to a column. */
#include "format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *vkb_fmt_time(double ns, char *buf, size_t len)
{
    static const char *const unit[] = {"ns", "us", "ms", "s"};
    int u = 0;
    while (u < 3 && ns >= 999.95)
        ns /= 1e3, u++;
    if (u == 0)
        snprintf(buf, len, "%.0f%s", ns, unit[u]);
    else
        snprintf(buf, len, "%.*f%s", ns < 9.9995 ? 3 : ns < 99.995 ? 2 : 1, ns, unit[u]);
    return buf;
}

const char *vkb_fmt_status(const vkb_result *r)
{
    return r->status == VKB_RES_OK ? "ok" : r->status == VKB_RES_FAIL ? "fail" : "skip";
}

const char *vkb_fmt_shape(const vkb_result *r, char *buf, size_t len)
{
    int nd = r->family->ndims, same = nd > 1;
    size_t used = 0;
    for (int d = 1; d < nd; d++)
        same &= r->shape.d[d] == r->shape.d[0];
    if (same) {
        snprintf(buf, len, "%lld^%d", (long long)r->shape.d[0], nd);
        return buf;
    }
    buf[0] = 0;
    for (int d = 0; d < nd && used < len; d++)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", d ? "x" : "", (long long)r->shape.d[d]);
    return buf;
}

const char *vkb_fmt_name(const vkb_result *r, const char *home, char *buf, size_t len)
{
    int other = home && strcmp(r->backend, home) != 0;
    char sg[16] = "";
    if (r->subgroup_asked)
        snprintf(sg, sizeof sg, "@sg%u", r->subgroup_asked);
    snprintf(buf, len, "%s%s%s%s%s%s%s%s", r->variant->name, r->constants[0] ? "[" : "", r->constants,
             r->constants[0] ? "]" : "", sg, r->robustness == VKB_ROBUSTNESS_DISABLED ? VKB_NOBC_MARK : "",
             other ? "@" : "", other ? r->backend : "");
    return buf;
}

/* Columns S takes on a terminal (UTF-8 characters). */
static int vkb_fmt_columns(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80; /* continuation bytes take no column */
    return n;
}

const char *vkb_fmt_fit(const char *s, int width, char *buf, size_t len)
{
    size_t i = 0;
    int cols = 0;
    if (width <= 0 || vkb_fmt_columns(s) <= width) {
        snprintf(buf, len, "%s", s);
        return buf;
    }
    /* keep WIDTH - 2 characters, then ".." */
    while (s[i] && i + 3 < len) {
        if (((unsigned char)s[i] & 0xc0) != 0x80 && cols++ == width - 2)
            break;
        i++;
    }
    snprintf(buf, len, "%.*s..", (int)i, s);
    return buf;
}

const char *vkb_fmt_failure(const vkb_result *r, char *buf, size_t len)
{
    const vkb_check *c = &r->check;
    size_t used = 0;
    buf[0] = 0;
    if (r->cross_fail) {
        /* --backend all: both passed their own checks, but disagree with each other */
        snprintf(buf, len,
                 "%llu %s from %s beyond the two checks' largest bounds summed, first at element %llu "
                 "of output %d: %.9g here, %.9g there",
                 (unsigned long long)c->bad, c->bad == 1 ? "element differs" : "elements differ",
                 r->cross_backend ? r->cross_backend : "the other backend", (unsigned long long)r->cross_index,
                 r->cross_buffer, r->cross_this, r->cross_other);
        return buf;
    }
    if (c->reason[0])
        used += (size_t)snprintf(buf, len, "%s%s", c->reason, c->bad ? "; " : "");
    if (c->bad && used < len) {
        char where[96];
        if (c->bad_row >= 0 && c->bad_col >= 0)
            snprintf(where, sizeof where, "row %lld, column %lld", (long long)c->bad_row, (long long)c->bad_col);
        else if (c->bad_row >= 0)
            snprintf(where, sizeof where, "row %lld", (long long)c->bad_row);
        else
            snprintf(where, sizeof where, "element %llu", (unsigned long long)c->first_bad);
        used += (size_t)snprintf(buf + used, len - used, "%llu of %llu wrong, first at %s: expected %.7g, got %.7g",
                                 (unsigned long long)c->bad, (unsigned long long)c->checked, where, c->bad_expected,
                                 c->bad_actual);
    }
    if (!buf[0])
        used += (size_t)snprintf(buf, len, "the check failed");
    if (used < len)
        snprintf(buf + used, len - used, " (%s)", c->method);
    return buf;
}

int vkb_fmt_differs(const vkb_result *r)
{
    double ratio = r->fraction / r->predicted;
    return !isnan(r->predicted) && r->predicted > 0 && r->timed && r->ceiling &&
           !(r->variant->flags & VKB_VAR_CEILING) && (ratio < 0.8 || ratio > 1.25);
}

void vkb_fmt_cell(FILE *out, const char *s, int w, int left)
{
    int pad = w - vkb_fmt_columns(s);
    if (!left)
        for (int i = 0; i < pad; i++)
            fputc(' ', out);
    fputs(s, out);
    if (left)
        for (int i = 0; i < pad; i++)
            fputc(' ', out);
    fputc(' ', out);
}

void vkb_fmt_wrap(FILE *out, int col, int indent, const char *text, int width)
{
    const char *p = text;
    if (width <= 0 || indent >= width - 20) {
        fprintf(out, "%s\n", text);
        return;
    }
    while (*p) {
        int room = width - col, len = (int)strlen(p), cut = len;
        if (len > room) {
            for (cut = room; cut > 0 && p[cut] != ' '; cut--)
                ;
            if (cut == 0)
                cut = room; /* one word longer than the line: break it */
        }
        fprintf(out, "%.*s\n", cut, p);
        for (p += cut; *p == ' '; p++)
            ;
        if (*p)
            fprintf(out, "%*s", indent, "");
        col = indent;
    }
}
