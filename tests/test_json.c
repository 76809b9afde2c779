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
    ASSERT(strcmp(out, "{\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"x\":1.5,\"nan\":null,\"inf\":null,\"big\":68719477280,\"i\":-42,\"t\":true,"
                       "\"z\":null,\"a\":[1,{}],\"empty\":[]}") == 0);
}

int main(int argc, char **argv)
{
    static const unit_test tests[] = {{"document", document}};
    return unit_main(argc, argv, tests, 1);
}
