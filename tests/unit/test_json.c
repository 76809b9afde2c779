/* test_json.c - the JSON writer: nesting, commas, escapes, non-finite and large integral numbers. */
#include <math.h>
#include <stdlib.h>

#include "json.h"
#include "unit.h"

static char *written(void (*fn)(vkb_json *j))
{
    static char buf[4096];
    FILE *f = tmpfile();
    size_t n;
    vkb_json j;
    vkb_json_init(&j, f);
    fn(&j);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static void doc(vkb_json *j)
{
    vkb_json_object_begin(j, NULL);
    vkb_json_string(j, "s", "a\"b\\c\n\x01");
    vkb_json_number(j, "x", 1.5);
    vkb_json_number(j, "nan", NAN);
    vkb_json_number(j, "inf", INFINITY);
    vkb_json_number(j, "big", 68719477280.0); /* integral doubles print exactly, not rounded to 10 digits */
    vkb_json_int(j, "i", -42);
    vkb_json_bool(j, "t", 1);
    vkb_json_null(j, "z");
    vkb_json_array_begin(j, "a");
    vkb_json_int(j, NULL, 1);
    vkb_json_object_begin(j, NULL);
    vkb_json_object_end(j);
    vkb_json_array_end(j);
    vkb_json_array_begin(j, "empty");
    vkb_json_array_end(j);
    vkb_json_object_end(j);
}

static void strip_spaces(char *s)
{
    char *d = s;
    for (; *s; s++)
        if (*s != ' ' && *s != '\n')
            *d++ = *s;
    *d = 0;
}

static void document(void)
{
    char *out = written(doc);
    strip_spaces(out);
    ASSERT(strcmp(out, "{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"x\":1.5,\"nan\":null,\"inf\":null,\"big\":68719477280,\"i\":"
                       "-42,\"t\":true,"
                       "\"z\":null,\"a\":[1,{}],\"empty\":[]}") == 0);
}

static const char *utf8_input;

static void one_string(vkb_json *j)
{
    vkb_json_string(j, NULL, utf8_input);
}

/* S written as a JSON string, quotes and newline stripped. */
static const char *as_json(const char *s)
{
    char *out;
    utf8_input = s;
    out = written(one_string);
    out[strlen(out) - 1] = 0; /* the closing quote */
    return out + 1;
}

/* Whatever bytes arrive (device names, paths, the command line), the JSON is valid UTF-8: each invalid
 * byte becomes U+FFFD, valid sequences pass unchanged. */
static void utf8(void)
{
    ASSERT(strcmp(as_json("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") ==
           0);
    ASSERT(strcmp(as_json("a\xff"
                          "b"),
                  "a\\ufffdb") == 0);                           /* never valid */
    ASSERT(strcmp(as_json("\x80"), "\\ufffd") == 0);            /* a stray continuation byte */
    ASSERT(strcmp(as_json("x\xc3"), "x\\ufffd") == 0);          /* cut short at the end */
    ASSERT(strcmp(as_json("\xc3(x"), "\\ufffd(x") == 0);        /* cut short by ASCII */
    ASSERT(strcmp(as_json("\xc0\xaf"), "\\ufffd\\ufffd") == 0); /* overlong '/' */
    ASSERT(strcmp(as_json("\xe0\x80\xaf"), "\\ufffd\\ufffd\\ufffd") == 0);
    ASSERT(strcmp(as_json("\xed\xa0\x80"), "\\ufffd\\ufffd\\ufffd") == 0);            /* a UTF-16 surrogate */
    ASSERT(strcmp(as_json("\xf4\x90\x80\x80"), "\\ufffd\\ufffd\\ufffd\\ufffd") == 0); /* beyond U+10FFFF */
    ASSERT(strcmp(as_json("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf") == 0);             /* U+10FFFF itself */
    ASSERT(vkb_utf8_sequence("\xe2\x82\xac") == 3 && vkb_utf8_sequence("\xe2\x82") == 0);
}

UNIT_TESTS({"document", document}, {"utf8", utf8})
