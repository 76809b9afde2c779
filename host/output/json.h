/* json.h - a small streaming JSON writer (keys in order, numbers that are not finite become null, strings
 * always valid UTF-8). */
#ifndef VKB_JSON_H
#define VKB_JSON_H

#include <stdint.h>
#include <stdio.h>

#define VKB_JSON_DEPTH 16

typedef struct vkb_json {
    FILE *out;
    int depth;
    int count[VKB_JSON_DEPTH]; /* members written at each depth: a comma goes before all but the first */
} vkb_json;

void vkb_json_init(vkb_json *j, FILE *out);
/* Length of the valid UTF-8 sequence at S (1 to 4 bytes), or 0 where S starts an invalid one (a stray
 * continuation byte, an overlong form, a surrogate, beyond U+10FFFF, cut short). S is NUL-terminated. */
int vkb_utf8_sequence(const char *s);
/* Write S as UTF-8 text: each invalid sequence becomes U+FFFD (JSON and CSV are UTF-8 whatever the bytes). */
void vkb_utf8_write(FILE *out, const char *s);
/* KEY is NULL inside arrays and for the outermost value. */
void vkb_json_object_begin(vkb_json *j, const char *key);
void vkb_json_object_end(vkb_json *j);
void vkb_json_array_begin(vkb_json *j, const char *key);
void vkb_json_array_end(vkb_json *j);
void vkb_json_string(vkb_json *j, const char *key, const char *value); /* NULL value writes null */
void vkb_json_number(vkb_json *j, const char *key, double value);
void vkb_json_int(vkb_json *j, const char *key, int64_t value);
void vkb_json_uint(vkb_json *j, const char *key, uint64_t value);
void vkb_json_bool(vkb_json *j, const char *key, int value);
void vkb_json_null(vkb_json *j, const char *key);
/* The run's settings as the JSON document records them (README.md): an object, under KEY (NULL: outermost). */
struct vkb_run_settings;
void vkb_json_settings(vkb_json *j, const char *key, const struct vkb_run_settings *s);

#endif
