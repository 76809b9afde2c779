/* report.h - results as an aligned table, a validation matrix, a JSON document and CSV. */
#ifndef VKB_REPORT_H
#define VKB_REPORT_H

#include <stdio.h>

#include "backend.h"
#include "result.h"

/* The table of results [FIRST, LAST) of one family. PAIRED puts two backends side by side. */
void vkb_report_table(FILE *out, const vkb_result *r, int first, int last, int paired);
/* The pass/fail/skip matrix of `validate` for results [FIRST, LAST) of one family. */
void vkb_report_matrix(FILE *out, const vkb_result *r, int first, int last);
/* The whole run as one JSON object (schema in README.md). */
void vkb_report_json(FILE *out, const char *command_line, vkb_backend *const *backends, int nbackends,
                     const vkb_results *rs);
void vkb_report_csv(FILE *out, const vkb_results *rs);
/* "712.3 us" */
const char *vkb_report_time(double ns, char *buf, size_t len);

#endif
