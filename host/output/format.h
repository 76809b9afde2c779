/* format.h - text shared by the sinks: times, shapes, verdicts, names cut to a column. */
#ifndef VKB_FORMAT_H
#define VKB_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include "result.h"

/* A row whose spread (IQR / median) passes this is marked noisy in the table ("12!"): repetitions that far
 * apart mean a busy machine or an unstable clock, not the kernel (lavapipe on an idle 2-core machine and the
 * H100 stay below it; docs/performance.md) */
#define VKB_NOISY_IQR 0.10

/* "712.3us", "12.35ms", "1.234s": four significant digits in at most 8 columns. */
const char *vkb_fmt_time(double ns, char *buf, size_t len);
/* "ok", "fail", "skip" (JSON and CSV) */
const char *vkb_fmt_status(const vkb_result *r);
/* A shape in few columns: "4096^2", "1024^3", "1000x17", "16777216". */
const char *vkb_fmt_shape(const vkb_result *r, char *buf, size_t len);
/* The row's name: "variant" or "variant[BM=64,BN=64]" (--spec constants), "@sgN" (--subgroup-size), "@nobc" for
 * a Vulkan row built without bounds checks (--robustness disabled), with "@cuda" when the row comes from a backend
 * other than HOME (a ceiling from the other API); HOME NULL: never. */
#define VKB_NOBC_MARK "@nobc"
const char *vkb_fmt_name(const vkb_result *r, const char *home, char *buf, size_t len);
/* S cut to WIDTH columns: the end replaced by ".." when it is longer (UTF-8 counted by characters). */
const char *vkb_fmt_fit(const char *s, int width, char *buf, size_t len);
/* What a failed check found, in words: "3 of 100 wrong, first at row 2, column 5: expected 1, got 0 (exact)",
 * after the check's reason where it has one (guard bands, poison, timer). */
const char *vkb_fmt_failure(const vkb_result *r, char *buf, size_t len);
/* S padded to W columns, left-aligned (LEFT) or right-aligned, then one space. */
void vkb_fmt_cell(FILE *out, const char *s, int w, int left);
/* TEXT from column COL on, wrapped at spaces to fit WIDTH (0: no limit), continuation lines indented to
 * INDENT; ends the line. */
void vkb_fmt_wrap(FILE *out, int col, int indent, const char *text, int width);
/* The measured fraction differs from the rule's prediction by more than 25% (DIFFERS). */
int vkb_fmt_differs(const vkb_result *r);

#endif
