/* env.h - the environment variables vkbench reads as numbers or switches, each with its one rule: all checked at
 * the start of every command (a malformed value is refused, never read as 0 or as the default), each read where
 * it is used. */
#ifndef VKB_ENV_H
#define VKB_ENV_H

#include <stddef.h>

/* Every variable of the table: 0, or -1 with WHY ("VKB_THREADS wants a whole number of threads from 1 to 32, not
 * 'x'") for the first malformed one (a usage error). COLUMNS, the terminal's and not vkbench's, is not refused: a
 * malformed one is one warning line, and the tables keep their default width. */
int vkb_env_check(char *why, size_t len);
/* NAME's number by its rule (a variable of the table that takes a number): 1 with *OUT; 0 where NAME is unset; -1
 * where it is malformed, WHY (when not NULL) saying so. */
int vkb_env_number(const char *name, double *out, char *why, size_t len);
/* COLUMNS as a width: 1 with *OUT (a whole number from 1 up); 0 unset; -1 malformed. */
int vkb_env_columns(long *out);

#endif
