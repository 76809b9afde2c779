/* number.h - the one strict reading of a number a person typed (the command line, the environment, a
 * configuration or baseline file): decimal only and read whole, so that no sign, blank, hex, inf or nan, and no
 * value past its type, is ever taken for something else. */
#ifndef VKB_NUMBER_H
#define VKB_NUMBER_H

#include <stdint.h>

/* TEXT as decimal digits only (at least one; "010" is 10) whose value fits 64 bits: 0 with *OUT; else -1. */
int vkb_number_whole(const char *text, uint64_t *out);
/* TEXT as a decimal: digits with at most one '.' (at least one digit), then an optional exponent (e or E, an
 * optional sign, digits): 0 with *OUT; else -1. A value past double's range reads as infinity, beyond every
 * range a caller checks ("1e400" is a number too large, not a malformed one). */
int vkb_number_decimal(const char *text, double *out);

#endif
