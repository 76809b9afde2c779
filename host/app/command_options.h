/* command_options.h - the options each command refuses because it would not use them, one table read by one
 * function: an option a command would drop is refused, not ignored, and a new option or command is one line. */
#ifndef VKB_COMMAND_OPTIONS_H
#define VKB_COMMAND_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t vkb_given_options; /* a bit per option of the table */

/* Note the long option NAME (without "--") as given; FORGET: as not given after all (--robustness default asks
 * for nothing). Names the table does not hold are no one's to refuse. */
void vkb_options_note(vkb_given_options *given, const char *name, int forget);
/* The first option of GIVEN, in the table's order, that COMMAND ("suite" for none) refuses: 0, or -1 with ERR
 * saying why in the option's words, or else the command's. */
int vkb_options_refused(const char *command, vkb_given_options given, char *err, size_t len);
/* What COMMAND runs, said where a size flag is refused ("runs none", "runs its own shapes"); NULL where it takes
 * the size flags. */
const char *vkb_options_sizes(const char *command);

#endif
