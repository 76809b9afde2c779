#!/bin/sh
# vkbench-prolog.sh - Slurm Prolog: the health check before each job on the node. A failing check drains the node
# with vkbench's reason (vkbench-healthcheck.sh) and the prolog fails, so Slurm requeues the job elsewhere by
# itself. Keep it short: VKB_HEALTH_ARGS as for the health check; VKB_HEALTH_TIMEOUT_S defaults to 30 here.
export VKB_HEALTH_TIMEOUT_S="${VKB_HEALTH_TIMEOUT_S:-30}"
"$(dirname "$0")/vkbench-healthcheck.sh"
rc=$?
[ "$rc" -eq 1 ] && exit 1   # drained: the job goes elsewhere
exit 0                      # could not judge: the job runs; the periodic check decides
