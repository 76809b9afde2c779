/* command_options.c - the options each command refuses (command_options.h). */
#include "command_options.h"

#include <stdio.h>
#include <string.h>

/* The options some command refuses, in the order a refusal names the first one given: X(ID, NAME, SAYS,
 * WITH_COMMAND). SAYS: the option's own words, after its name, where every command that refuses it does for the
 * same reason (followed by the command's name where WITH_COMMAND); NULL: the command's words say why. */
#define HEALTH_OPTION "goes with `vkbench health`"
#define OPTION_RULES(X)                                                                                                \
    X(repeat, "repeat", "times runs again: it goes with run or the default suite, not ", 1)                            \
    X(expect, "expect", HEALTH_OPTION, 0)                                                                              \
    X(baseline, "baseline", HEALTH_OPTION, 0)                                                                          \
    X(prom, "prom", HEALTH_OPTION, 0)                                                                                  \
    X(config, "config", HEALTH_OPTION, 0)                                                                              \
    X(allow_cpu, "allow-cpu", HEALTH_OPTION, 0)                                                                        \
    X(budget_ms, "budget-ms", NULL, 0)                                                                                 \
    X(warmup_ms, "warmup-ms", NULL, 0)                                                                                 \
    X(variant, "variant", NULL, 0)                                                                                     \
    X(device, "device", NULL, 0)                                                                                       \
    X(backend, "backend", NULL, 0)                                                                                     \
    X(csv, "csv", NULL, 0)                                                                                             \
    X(reps, "reps", NULL, 0)                                                                                           \
    X(cold, "cold", NULL, 0)                                                                                           \
    X(validation, "validation", NULL, 0)                                                                               \
    X(spec, "spec", NULL, 0)                                                                                           \
    X(sass, "sass", NULL, 0)                                                                                           \
    X(subgroup_size, "subgroup-size", NULL, 0)                                                                         \
    X(robustness, "robustness", NULL, 0)                                                                               \
    X(wide, "wide", NULL, 0)                                                                                           \
    X(seed, "seed", NULL, 0)                                                                                           \
    X(dry_run, "dry-run", NULL, 0)

#define OPTION_INDEX(id, name, says, with_command) option_index_##id,
enum { OPTION_RULES(OPTION_INDEX) option_count };
#define OPTION_RULE(id, name, says, with_command) {name, says, with_command},
static const struct option_rule {
    const char *name, *says;
    int with_command;
} options[] = {OPTION_RULES(OPTION_RULE)};
#define O(id) (1u << option_index_##id)
#define HEALTH_ONLY (O(expect) | O(baseline) | O(prom) | O(config) | O(allow_cpu))
/* every option of the table but --csv, which main.c refuses with the other result files (--json, --db) */
#define RUNS_NOTHING ((~0u >> (32 - option_count)) & ~O(csv))

/* Each command: the options it refuses, why (after the option's name, where the option has no words of its own),
 * and what it runs where a size flag is given (NULL: it takes them). */
static const struct command_rule {
    const char *name;
    vkb_given_options refuses;
    const char *says, *sizes;
} commands[] = {
    {"suite", HEALTH_ONLY},
    {"run", HEALTH_ONLY},
    {"validate", HEALTH_ONLY | O(repeat) | O(budget_ms) | O(warmup_ms) | O(reps) | O(cold),
     " sets the timing, and validate times nothing: it goes with run or the default suite"},
    /* health's battery, devices and outputs are its own */
    {"health",
     O(repeat) | O(variant) | O(device) | O(backend) | O(csv) | O(reps) | O(cold) | O(validation) | O(spec) | O(sass) |
         O(subgroup_size) | O(robustness) | O(wide),
     ": `vkbench health` runs a fixed battery on every GPU and does not use it", "runs none"},
    /* a fixed selection, like the suite's: an option that picks rows, shapes or kernels would be ignored */
    {"peaks", HEALTH_ONLY | O(repeat) | O(variant) | O(spec) | O(backend) | O(subgroup_size) | O(robustness) | O(sass),
     " chooses what runs, and peaks runs a fixed set (peak's rows, copy's bandwidth): it goes with run",
     "runs its own shapes"},
    /* they print what there is and run nothing: every option that would choose or shape a run is refused */
    {"devices", RUNS_NOTHING, ": `vkbench devices` prints every device and what it offers, and does not use it",
     "runs none"},
    {"list", RUNS_NOTHING, ": `vkbench list` prints the families and their variants, and does not use it", "runs none"},
};

_Static_assert(option_count <= 32, "the options fit vkb_given_options");

static const struct command_rule *command_find(const char *command)
{
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strcmp(commands[i].name, command) == 0)
            return &commands[i];
    return NULL;
}

void vkb_options_note(vkb_given_options *given, const char *name, int forget)
{
    for (int i = 0; i < option_count; i++)
        if (strcmp(options[i].name, name) == 0)
            *given = forget ? *given & ~(1u << i) : *given | 1u << i;
}

int vkb_options_refused(const char *command, vkb_given_options given, char *err, size_t len)
{
    const struct command_rule *c = command_find(command);
    vkb_given_options refused = c ? given & c->refuses : 0;
    for (int i = 0; i < option_count; i++) {
        const struct option_rule *o = &options[i];
        if (!(refused >> i & 1))
            continue;
        if (o->says)
            snprintf(err, len, "--%s %s%s", o->name, o->says, o->with_command ? command : "");
        else
            snprintf(err, len, "--%s%s", o->name, c->says ? c->says : ": not used by this command");
        return -1;
    }
    return 0;
}

const char *vkb_options_sizes(const char *command)
{
    const struct command_rule *c = command_find(command);
    return c ? c->sizes : NULL;
}
