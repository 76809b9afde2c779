/* json.c - a small streaming JSON writer. Written here rather than taken from a library because results
 * stream out as they are measured, and the writer is 100 lines with tests. */
#include "json.h"

#include <assert.h>
#include <math.h>

void vkb_json_init(vkb_json *j, FILE *out)
{
    j->out = out;
    j->depth = 0;
    j->count[0] = 0;
}

int vkb_utf8_sequence(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    int n;
    uint32_t cp;
    if (u[0] < 0x80)
        return 1;
    if (u[0] >= 0xc2 && u[0] <= 0xdf)
        n = 2, cp = u[0] & 0x1f;
    else if (u[0] >= 0xe0 && u[0] <= 0xef)
        n = 3, cp = u[0] & 0x0f;
    else if (u[0] >= 0xf0 && u[0] <= 0xf4)
        n = 4, cp = u[0] & 0x07;
    else
        return 0; /* a continuation byte, 0xc0/0xc1 (always overlong) or 0xf5.. (beyond U+10FFFF) */
    for (int i = 1; i < n; i++) {
        if ((u[i] & 0xc0) != 0x80)
            return 0; /* cut short (the NUL stops here too) */
        cp = cp << 6 | (u[i] & 0x3f);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
        return 0; /* overlong, out of range, or a UTF-16 surrogate */
    return n;
}

void vkb_utf8_write(FILE *out, const char *s)
{
    while (*s) {
        int n = vkb_utf8_sequence(s);
        if (n) {
            fwrite(s, 1, (size_t)n, out);
            s += n;
        } else {
            fputs("\xef\xbf\xbd", out); /* U+FFFD REPLACEMENT CHARACTER for one invalid byte */
            s++;
        }
    }
}

static void write_escaped(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        int n = c >= 0x80 ? vkb_utf8_sequence(s) : 1;
        if (n == 0) {
            fputs("\\ufffd", out); /* an invalid byte: the replacement character, the rest still readable */
            continue;
        }
        if (n > 1) {
            fwrite(s, 1, (size_t)n, out);
            s += n - 1;
            continue;
        }
        switch (c) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (c < 0x20)
                fprintf(out, "\\u%04x", c);
            else
                fputc(c, out);
        }
    }
    fputc('"', out);
}

static void member(vkb_json *j, const char *key)
{
    if (j->count[j->depth]++)
        fputc(',', j->out);
    if (j->depth > 0) {
        fputc('\n', j->out);
        for (int i = 0; i < j->depth; i++)
            fputs("  ", j->out);
    }
    if (key) {
        write_escaped(j->out, key);
        fputs(": ", j->out);
    }
}

static void open_scope(vkb_json *j, const char *key, char c)
{
    member(j, key);
    fputc(c, j->out);
    assert(j->depth + 1 < VKB_JSON_DEPTH);
    j->count[++j->depth] = 0;
}

static void close_scope(vkb_json *j, char c)
{
    int had = j->count[j->depth];
    assert(j->depth > 0);
    j->depth--;
    if (had) {
        fputc('\n', j->out);
        for (int i = 0; i < j->depth; i++)
            fputs("  ", j->out);
    }
    fputc(c, j->out);
    if (j->depth == 0)
        fputc('\n', j->out);
}

void vkb_json_object_begin(vkb_json *j, const char *key)
{
    open_scope(j, key, '{');
}
void vkb_json_object_end(vkb_json *j)
{
    close_scope(j, '}');
}
void vkb_json_array_begin(vkb_json *j, const char *key)
{
    open_scope(j, key, '[');
}
void vkb_json_array_end(vkb_json *j)
{
    close_scope(j, ']');
}

void vkb_json_string(vkb_json *j, const char *key, const char *value)
{
    member(j, key);
    if (value)
        write_escaped(j->out, value);
    else
        fputs("null", j->out);
}

void vkb_json_number(vkb_json *j, const char *key, double value)
{
    member(j, key);
    if (isfinite(value) && value == floor(value) && fabs(value) < 0x1p53)
        fprintf(j->out, "%.0f", value); /* integers exactly (counts, the driver's byte sizes) */
    else if (isfinite(value))
        fprintf(j->out, "%.10g", value);
    else
        fputs("null", j->out);
}

void vkb_json_int(vkb_json *j, const char *key, int64_t value)
{
    member(j, key);
    fprintf(j->out, "%lld", (long long)value);
}

void vkb_json_uint(vkb_json *j, const char *key, uint64_t value)
{
    member(j, key);
    fprintf(j->out, "%llu", (unsigned long long)value);
}

void vkb_json_bool(vkb_json *j, const char *key, int value)
{
    member(j, key);
    fputs(value ? "true" : "false", j->out);
}

void vkb_json_null(vkb_json *j, const char *key)
{
    member(j, key);
    fputs("null", j->out);
}
