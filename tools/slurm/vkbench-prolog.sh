#!/bin/sh
# vkbench-prolog.sh - Slurm Prolog: the health check before each job on the node. A failing check drains the node
# with vkbench's reason (vkbench-healthcheck.sh) and the prolog fails, so Slurm requeues the job elsewhere by
# itself. The same settings file as the health check; VKB_PROLOG_TIMEOUT_S (default 30) bounds it here.
# Exit 1 only when the check drained the node; could not judge (7), or stopped, the job runs: the periodic check
# decides.
"$(dirname "$0")/vkbench-healthcheck.sh" --prolog
rc=$?
[ "$rc" -eq 1 ] && exit 1   # drained: the job goes elsewhere
exit 0
