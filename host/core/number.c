/* number.c - the strict reading of typed numbers (number.h). */
#include "number.h"

#include <ctype.h>
#include <stdlib.h>

int vkb_number_whole(const char *text, uint64_t *out)
{
    uint64_t v = 0;
    if (!isdigit((unsigned char)*text))
        return -1;
    for (const char *p = text; *p; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (!isdigit((unsigned char)*p) || v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

int vkb_number_decimal(const char *text, double *out)
{
    size_t i = 0, digits = 0;
    /* strtod alone would take hex, inf, nan, a sign and leading blanks */
    while (isdigit((unsigned char)text[i]))
        i++, digits++;
    if (text[i] == '.')
        for (i++; isdigit((unsigned char)text[i]); i++)
            digits++;
    if (!digits)
        return -1;
    if (text[i] == 'e' || text[i] == 'E') {
        size_t e;
        i++;
        e = i + (text[i] == '+' || text[i] == '-');
        for (i = e; isdigit((unsigned char)text[i]); i++)
            ;
        if (i == e)
            return -1;
    }
    if (text[i])
        return -1;
    *out = strtod(text, NULL);
    return 0;
}
