/* test_timing.c - the timer sanity rules of vkb_timing_measure on a fake backend whose timestamps lie:
 * zero, negative (out of order), longer than the host's clock, and end stamps before the work. */
#include <math.h>
#include <string.h>

#include "timing.h"
#include "unit.h"
#include "util.h"

enum { HONEST, ZERO, NEGATIVE, TOO_LONG, EARLY_END };
static int mode;

/* Each repetition "takes" 1 ms of host time; the device reports per MODE. */
static void fake_execute(vkb_backend *b, void *prepared, vkb_buffer *const *bufs, int reps, int cold, double *ns)
{
    double t0 = vkb_now_ns(), sum = 0;
    (void)b, (void)prepared, (void)bufs, (void)cold;
    while (vkb_now_ns() - t0 < 1e6 * reps)
        ;
    for (int r = 0; ns && r < reps; r++) {
        ns[r] = mode == ZERO ? 0 : mode == NEGATIVE ? -5e5 : mode == TOO_LONG ? 1e9 : mode == EARLY_END ? 1e3 : 9e5;
        sum += ns[r];
    }
    vkb_timing_span(sum, 1e6 * reps);   /* first start to last end: the repetitions and the barriers between */
}

static const char *measure(int m)
{
    static char why[200];
    vkb_backend b;
    vkb_timing t = {0};
    vkb_stats st;
    memset(&b, 0, sizeof b);
    b.execute = fake_execute;
    t.reps = 5;
    mode = m;
    vkb_timing_measure(&b, NULL, NULL, &t, &st);
    return vkb_timing_error(why, sizeof why) ? why : NULL;
}

static void honest(void)
{
    ASSERT(measure(HONEST) == NULL);
}

static void zero(void)
{
    const char *why = measure(ZERO);
    ASSERT(why && strstr(why, "zero or negative"));
}

static void negative(void)
{
    const char *why = measure(NEGATIVE);
    ASSERT(why && strstr(why, "zero or negative"));
}

static void too_long(void)
{
    const char *why = measure(TOO_LONG);
    ASSERT(why && strstr(why, "passed on the host"));
}

static void early_end(void)
{
    const char *why = measure(EARLY_END);
    ASSERT(why && strstr(why, "from the first start to the last end"));
    ASSERT(measure(HONEST) == NULL);   /* the error does not outlive its measurement */
}

int main(int argc, char **argv)
{
    static const unit_test tests[] = {{"honest", honest}, {"zero", zero}, {"negative", negative},
                                      {"too_long", too_long}, {"early_end", early_end}};
    return unit_main(argc, argv, tests, (int)(sizeof tests / sizeof *tests));
}
