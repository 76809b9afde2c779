/* unit.h - a minimal test harness: ASSERT prints file:line and the expression; main runs one test by name. */
#ifndef VKB_UNIT_H
#define VKB_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_failures;
#define ASSERT(e)                                                              \
    do {                                                                       \
        if (!(e)) {                                                            \
            fprintf(stderr, "%s:%d: ASSERT(%s) failed\n", __FILE__, __LINE__, #e); \
            unit_failures++;                                                   \
        }                                                                      \
    } while (0)

typedef struct unit_test {
    const char *name;
    void (*fn)(void);
} unit_test;

/* Run the test named argv[1] (ctest registers each by name), or all of them. */
static int unit_main(int argc, char **argv, const unit_test *tests, int n)
{
    int ran = 0;
    for (int i = 0; i < n; i++)
        if (argc < 2 || strcmp(argv[1], tests[i].name) == 0) {
            tests[i].fn();
            ran++;
        }
    if (!ran) {
        fprintf(stderr, "no test named %s\n", argc > 1 ? argv[1] : "");
        return 2;
    }
    return unit_failures ? 1 : 0;
}

#endif
