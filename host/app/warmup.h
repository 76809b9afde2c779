/* warmup.h - the GPU's clocks brought up before the first timed case of a device. */
#ifndef VKB_WARMUP_H
#define VKB_WARMUP_H

#include "backend.h"
#include "runner.h"

/* Run a memory-bound kernel (copy/vec4) and a compute-bound one (peak/fma_f32) on B, each in windows of about
 * 50 ms, until two consecutive windows agree within 2% (the clock stopped rising), within 3 s in all. What it
 * saw goes into B's caps (warm_*: the JSON's "warmup"). Nothing on a CPU implementation (no clock to raise:
 * VKB_WARMUP=1 runs it there too, for tests) or when VKB_WARMUP=0. */
void vkb_warmup(vkb_backend *b);
/* At the end of R's run: on each device the warm-up ran on, its two probes once more (0.75 s each at most), into
 * caps.recheck_*; where either is more than 5% from the warm-up's last window the clocks moved (caps.clocks_moved):
 * a warning names that unit's rows of the run (the JSON's "warmup" entry carries both). */
void vkb_warmup_recheck(const vkb_runner *r);

#endif
