/* test_number.c - the one strict reading of typed numbers (host/core/number.c) and the environment's rules read
 * through it (host/core/env.c): every edge a person can type is refused or read exactly, never as another. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "number.h"
#include "parallel.h"
#include "unit.h"

static void whole(void)
{
    uint64_t v = 7;
    ASSERT(vkb_number_whole("0", &v) == 0 && v == 0);
    ASSERT(vkb_number_whole("010", &v) == 0 && v == 10); /* decimal, not octal */
    ASSERT(vkb_number_whole("18446744073709551615", &v) == 0 && v == UINT64_MAX);
    v = 7;
    /* one past 64 bits, and far past it: refused, never wrapped or held at the largest */
    ASSERT(vkb_number_whole("18446744073709551616", &v) == -1 && v == 7);
    ASSERT(vkb_number_whole("99999999999999999999999", &v) == -1);
    const char *bad[] = {"", " ", " 5", "5 ", "-1", "-0", "+5", "0x10", "1.5", "1e3", "inf", "nan", "5x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ASSERT(vkb_number_whole(bad[i], &v) == -1 && v == 7);
}

static void decimal(void)
{
    double v = 7;
    ASSERT(vkb_number_decimal("0", &v) == 0 && v == 0);
    ASSERT(vkb_number_decimal("1.5", &v) == 0 && v == 1.5);
    ASSERT(vkb_number_decimal(".5", &v) == 0 && v == 0.5);
    ASSERT(vkb_number_decimal("5.", &v) == 0 && v == 5);
    ASSERT(vkb_number_decimal("1e3", &v) == 0 && v == 1000);
    ASSERT(vkb_number_decimal("2.5E-1", &v) == 0 && v == 0.25);
    ASSERT(vkb_number_decimal("1e+2", &v) == 0 && v == 100);
    /* past double's range: infinity, which every caller's range refuses as too large */
    ASSERT(vkb_number_decimal("1e400", &v) == 0 && v > 1e308);
    v = 7;
    const char *bad[] = {"",   " ",   " 5", "5 ", "-1", "-0",    "+5",    "0x10", "inf", "nan",
                         "1e", "1e+", "e5", ".",  "..", "1.2.3", "1e5e5", "1_0",  "5x",  "1,5"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ASSERT(vkb_number_decimal(bad[i], &v) == -1 && v == 7);
}

/* The environment's numbers: each edge refused with one line naming the variable and the value; a value inside
 * the range read exactly; unset is 0 (the default), never a malformed value read as 0. */
static void env_numbers(void)
{
    char why[200] = "";
    double v = 7;
    const char *bad[] = {"", " ", " 5", "5 ", "0", "-1", "+5", "0x10", "1.5", "33", "99999999999999999999999", "abc"};
    unsetenv("VKB_THREADS");
    ASSERT(vkb_env_number("VKB_THREADS", &v, why, sizeof why) == 0 && v == 7);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char want[80];
        setenv("VKB_THREADS", bad[i], 1);
        snprintf(want, sizeof want, "not '%s'", bad[i]);
        ASSERT(vkb_env_number("VKB_THREADS", &v, why, sizeof why) == -1 && v == 7);
        ASSERT(strstr(why, "VKB_THREADS wants a whole number of threads from 1 to 32") && strstr(why, want));
        ASSERT(vkb_env_check(why, sizeof why) == -1 && strstr(why, "VKB_THREADS"));
    }
    setenv("VKB_THREADS", "32", 1);
    ASSERT(vkb_env_number("VKB_THREADS", &v, why, sizeof why) == 1 && v == 32 && vkb_threads() == 32);
    unsetenv("VKB_THREADS");
    setenv("VKB_DEVICE_TIMEOUT_S", "0x10", 1); /* strtod read 16 */
    ASSERT(vkb_env_number("VKB_DEVICE_TIMEOUT_S", &v, why, sizeof why) == -1 &&
           strstr(why, "VKB_DEVICE_TIMEOUT_S wants seconds above 0, at most 1000000, not '0x10'"));
    setenv("VKB_DEVICE_TIMEOUT_S", "0.5", 1);
    ASSERT(vkb_env_number("VKB_DEVICE_TIMEOUT_S", &v, why, sizeof why) == 1 && v == 0.5);
    unsetenv("VKB_DEVICE_TIMEOUT_S");
    setenv("VKB_DB_TIMEOUT_S", " 5", 1); /* strtod skipped the blank */
    ASSERT(vkb_env_number("VKB_DB_TIMEOUT_S", &v, why, sizeof why) == -1 && strstr(why, "from 0 to 86400"));
    setenv("VKB_DB_TIMEOUT_S", "0", 1);
    ASSERT(vkb_env_number("VKB_DB_TIMEOUT_S", &v, why, sizeof why) == 1 && v == 0);
    unsetenv("VKB_DB_TIMEOUT_S");
    ASSERT(vkb_env_check(why, sizeof why) == 0);
}

/* The switches: only their words; anything else refused, not taken for the default. */
static void env_switches(void)
{
    char why[200];
    const char *names[] = {"VKB_WARMUP", "VKB_PRECOMPILE", "VKB_CACHE_PROBE"};
    const char *good[] = {"1", "1", "refresh"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *bad[] = {"", " 0", "0 ", "2", "-1", "yes", "00"};
        setenv(names[i], "0", 1);
        ASSERT(vkb_env_check(why, sizeof why) == 0);
        setenv(names[i], good[i], 1);
        ASSERT(vkb_env_check(why, sizeof why) == 0);
        for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
            setenv(names[i], bad[k], 1);
            ASSERT(vkb_env_check(why, sizeof why) == -1 && strncmp(why, names[i], strlen(names[i])) == 0);
        }
        unsetenv(names[i]);
    }
}

static void env_columns(void)
{
    long cols = 0;
    const char *bad[] = {"", "0", "-1", "0x10", " 80", "1.5", "abc"};
    unsetenv("COLUMNS");
    ASSERT(vkb_env_columns(&cols) == 0);
    setenv("COLUMNS", "132", 1);
    ASSERT(vkb_env_columns(&cols) == 1 && cols == 132);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char why[200];
        setenv("COLUMNS", bad[i], 1);
        ASSERT(vkb_env_columns(&cols) == -1 && cols == 132);
        ASSERT(vkb_env_check(why, sizeof why) == 0); /* not vkbench's: a warning, never a refusal */
    }
    unsetenv("COLUMNS");
}

UNIT_TESTS({"whole", whole}, {"decimal", decimal}, {"env_numbers", env_numbers}, {"env_switches", env_switches},
           {"env_columns", env_columns})
