/* unit.h - a minimal test harness: ASSERT prints file:line and the expression; UNIT_TESTS declares a file's table
 * and its main, which lists the tests (--list), runs one by name (ctest registers each from the list) or all. */
#ifndef VKB_UNIT_H
#define VKB_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_failures;
#define ASSERT(e)                                                                                                      \
    do {                                                                                                               \
        if (!(e)) {                                                                                                    \
            fprintf(stderr, "%s:%d: ASSERT(%s) failed\n", __FILE__, __LINE__, #e);                                     \
            unit_failures++;                                                                                           \
        }                                                                                                              \
    } while (0)

typedef struct unit_test {
    const char *name;
    void (*fn)(void);
} unit_test;

static int unit_argc;
static char **unit_argv;

/* The i-th argument after the test's name (`test_sinks json_stream FILE`: unit_arg(0) is FILE), NULL past the end. */
static inline const char *unit_arg(int i)
{
    return i + 2 < unit_argc ? unit_argv[i + 2] : NULL;
}

/* `--list`: the table's names, one a line. NAME [ARGS...]: that test; no argument: all of them. setup (or NULL)
 * runs before any test; a nonzero return is the exit status (3: skipped, as ctest's SKIP_RETURN_CODE). */
static inline int unit_main(int argc, char **argv, const unit_test *tests, int n, int (*setup)(void))
{
    unit_argc = argc;
    unit_argv = argv;
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < n; i++)
            printf("%s\n", tests[i].name);
        return 0;
    }
    int found = argc < 2;
    for (int i = 0; i < n && !found; i++)
        found = strcmp(argv[1], tests[i].name) == 0;
    if (!found) {
        fprintf(stderr, "no test named %s (--list names them)\n", argv[1]);
        return 2;
    }
    int rc = setup ? setup() : 0;
    if (rc)
        return rc;
    for (int i = 0; i < n; i++)
        if (argc < 2 || strcmp(argv[1], tests[i].name) == 0)
            tests[i].fn();
    return unit_failures ? 1 : 0;
}

/* UNIT_TESTS({"name", fn}, ...): the file's table and its main. UNIT_TESTS_SETUP(setup, ...): with a setup. */
#define UNIT_TESTS(...) UNIT_TESTS_SETUP(NULL, __VA_ARGS__)
#define UNIT_TESTS_SETUP(setup, ...)                                                                                   \
    static const unit_test unit_tests[] = {__VA_ARGS__};                                                               \
    int main(int argc, char **argv)                                                                                    \
    {                                                                                                                  \
        return unit_main(argc, argv, unit_tests, (int)(sizeof unit_tests / sizeof unit_tests[0]), setup);              \
    }

#endif
