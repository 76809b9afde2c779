/* env.c - the environment variables' rules (env.h). */
#include "env.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "parallel.h"
#include "util.h"

/* Each variable: a number of UNIT from LO to HI (above LO where LO_OPEN; whole where WHOLE), or a switch (WORDS,
 * its values separated by '|', UNIT what they mean). */
static const struct env_rule {
    const char *name, *unit;
    double lo, hi;
    int lo_open, whole;
    const char *words;
} rules[] = {
    {"VKB_THREADS", "threads", 1, VKB_MAX_THREADS, 0, 1, NULL},
    {"VKB_DEVICE_TIMEOUT_S", "seconds", 0, 1e6, 1, 0, NULL},
    {"VKB_DB_TIMEOUT_S", "seconds", 0, 86400, 0, 0, NULL},
    {"VKB_WARMUP", "0 (no warm-up) or 1 (a warm-up on a CPU implementation too)", 0, 0, 0, 0, "0|1"},
    {"VKB_PRECOMPILE", "0 (never build ahead) or 1 (on a CPU implementation too)", 0, 0, 0, 0, "0|1"},
    {"VKB_CACHE_PROBE", "0 (never measure) or refresh (measure again)", 0, 0, 0, 0, "0|refresh"},
};

/* Whether VALUE is one of WORDS ("0|refresh"). */
static int one_of(const char *value, const char *words)
{
    size_t n = strlen(value);
    for (const char *w = words;; w++) {
        size_t len = strcspn(w, "|");
        if (len == n && strncmp(w, value, n) == 0)
            return 1;
        w += len;
        if (!*w)
            return 0;
    }
}

/* VALUE by RULE: 0 with *OUT (a number's; 0 for a switch), or -1 with WHY. */
static int judge(const struct env_rule *rule, const char *value, double *out, char *why, size_t len)
{
    uint64_t whole;
    double v = 0;
    int ok =
        rule->words ? one_of(value, rule->words)
        : rule->whole
            ? vkb_number_whole(value, &whole) == 0 && whole >= rule->lo && whole <= rule->hi && (v = (double)whole, 1)
            : vkb_number_decimal(value, &v) == 0 && (rule->lo_open ? v > rule->lo : v >= rule->lo) && v <= rule->hi;
    if (!ok) {
        if (why && rule->words)
            snprintf(why, len, "%s wants %s, not '%.40s'", rule->name, rule->unit, value);
        else if (why)
            snprintf(why, len,
                     rule->lo_open ? "%s wants %s%s above %.15g, at most %.15g, not '%.40s'"
                                   : "%s wants %s%s from %.15g to %.15g, not '%.40s'",
                     rule->name, rule->whole ? "a whole number of " : "", rule->unit, rule->lo, rule->hi, value);
        return -1;
    }
    *out = v;
    return 0;
}

int vkb_env_check(char *why, size_t len)
{
    long columns;
    for (size_t i = 0; i < VKB_COUNT(rules); i++) {
        const char *value = getenv(rules[i].name);
        double v;
        if (value && judge(&rules[i], value, &v, why, len))
            return -1;
    }
    if (vkb_env_columns(&columns) < 0)
        vkb_warn("COLUMNS='%.40s' is not a width (a whole number of columns): the tables keep their default width",
                 getenv("COLUMNS"));
    return 0;
}

int vkb_env_number(const char *name, double *out, char *why, size_t len)
{
    const char *value = getenv(name);
    for (size_t i = 0; i < VKB_COUNT(rules); i++)
        if (strcmp(rules[i].name, name) == 0 && !rules[i].words)
            return !value ? 0 : judge(&rules[i], value, out, why, len) ? -1 : 1;
    if (why) /* a programmer's error: a name the table does not hold */
        snprintf(why, len, "%s is not a number vkbench reads", name);
    return -1;
}

int vkb_env_columns(long *out)
{
    const char *value = getenv("COLUMNS");
    uint64_t v;
    if (!value)
        return 0;
    if (vkb_number_whole(value, &v) || v < 1 || v > 1000000)
        return -1;
    *out = (long)v;
    return 1;
}
