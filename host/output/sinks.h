/* sinks.h - the outputs the runner streams to: constructors of each sink (events in sink.h). */
#ifndef VKB_SINKS_H
#define VKB_SINKS_H

#include <stdio.h>

#include "sink.h"

/* Columns a table fits when nothing says otherwise. */
#define VKB_TABLE_WIDTH 100
#define VKB_TABLE_MIN_WIDTH 80 /* COLUMNS below it is taken as it: every family's columns fit in 80 (README) */

/* The table width to use: WIDE (--wide) gives no limit (0); else $COLUMNS when set to a number, else 100. */
int vkb_table_width(int wide);

/* `run`: one aligned table per family on OUT, rows printed as they finish (paired rows once both backends'
 * results are in), a legend under it naming every marker shown. WIDTH: the columns to fit, 0 = no limit. */
vkb_sink *vkb_sink_table_create(FILE *out, int width);
/* `validate`: the pass/fail/skip matrix per family, then a summary of skips by reason. */
vkb_sink *vkb_sink_matrix_create(FILE *out, int width);
/* `peaks`: one line per number type (the peak family's rows: value, unit, ceiling where known, check) and the
 * memory bandwidth (copy's best kernel row beside its API copy) on OUT at the end; skipped rows in one line
 * (VERBOSE: each with its reason). */
vkb_sink *vkb_sink_peaks_create(FILE *out, int verbose);
/* The JSON document (schema in README.md), streamed result by result. PATH "-" is stdout; a file is
 * created at once beside PATH (a bad path exits 6 here, before any work) and renamed over PATH by end(). */
vkb_sink *vkb_sink_json_create(const char *path);
/* CSV, one row per result as it arrives; same file rules as the JSON ("-" is stdout). */
vkb_sink *vkb_sink_csv_create(const char *path);
/* The results store (--db, docs/store.md): ARG a path, or "default" ($VKB_DB, else
 * ${XDG_DATA_HOME:-~/.local/share}/vkbench/results.db). Opened, migrated and given this run's row (status running)
 * at once: a file that cannot be used exits 6 here, before any work. Each result is one transaction. SUBCOMMAND:
 * the run's (NULL: the settings' command). */
vkb_sink *vkb_sink_sqlite_create(const char *arg, const char *command_line, const char *subcommand);
/* One GPU's verdict of `vkbench health`, as the store's health table keeps it (tools/store/schema.sql). */
typedef struct vkb_store_health {
    int gpu;                      /* the device index */
    const char *verdict, *action; /* "pass", "warn", "fail"; "none", "drain", "reset", "service" */
    const char *const *reasons;   /* the failing checks, "CHECK: WHAT" */
    int nreasons;
    int speed_judged;
    double speed_ratio; /* the whole GPU's speed over its baseline where the verdict states it, else NAN */
} vkb_store_health;
/* The verdicts V[0..N-1] of the health run whose battery the ended --db sink S stored, NODE the node's ("keep",
 * ...): the file opened again, one transaction. 0, or 6 with its one line printed (nothing tried where S failed
 * before: its end() told why). */
int vkb_sink_sqlite_health(vkb_sink *s, const char *node, const vkb_store_health *v, int n);
/* The file ARG names (as above), into BUF. */
const char *vkb_sink_sqlite_path(const char *arg, char *buf, size_t len);
/* Progress on stderr: a bar on a terminal, one plain line per result otherwise; the total from the plan. */
vkb_sink *vkb_sink_progress_create(void);
/* "166 cases (3 families: 11 shapes and 87 variants in all; 2 backends), about 15 s": PLAN in one line (the
 * progress sink's first line, and --dry-run's). */
const char *vkb_plan_text(const vkb_run_plan *plan, char *buf, size_t len);
/* A table about to print to OUT takes the progress bar down when both share the terminal (pause), and puts it
 * back after its lines (resume); no-ops without a bar. */
void vkb_progress_pause(FILE *out);
void vkb_progress_resume(void);
/* Free a sink after its end() (or without it: a file sink then removes its temporary file). */
void vkb_sink_destroy(vkb_sink *s);

#endif
