/* json.h - a small streaming JSON writer (keys in order, numbers that are not finite become null). */
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
/* KEY is NULL inside arrays and for the outermost value. */
void vkb_json_object_begin(vkb_json *j, const char *key);
void vkb_json_object_end(vkb_json *j);
void vkb_json_array_begin(vkb_json *j, const char *key);
void vkb_json_array_end(vkb_json *j);
void vkb_json_string(vkb_json *j, const char *key, const char *value); /* NULL value writes null */
void vkb_json_number(vkb_json *j, const char *key, double value);
void vkb_json_int(vkb_json *j, const char *key, int64_t value);
void vkb_json_bool(vkb_json *j, const char *key, int value);
void vkb_json_null(vkb_json *j, const char *key);

#endif
