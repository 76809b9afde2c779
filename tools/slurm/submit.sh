#!/bin/sh
# submit.sh RESULTS NODES [SBATCH OPTION...]: the fleet job array (NODES tasks, one node each) and the report
# job that runs after it, whatever the tasks' verdicts. Prints the two job ids. VKBENCH defaults to the build
# beside this checkout; FLEET_VALIDATE, FLEET_RUN, FLEET_ARGS and FLEET_TASK_NAMES pass through (README: "Slurm").
# The SBATCH OPTIONs (--account, --partition, ...) reach both jobs; FLEET_TIME (default 00:15:00) is each job's
# --time, so a hung GPU cannot hold a node until the partition's limit.
set -eu
set -f   # no argument is glob-expanded
[ $# -ge 2 ] || { echo "usage: submit.sh RESULTS NODES [SBATCH OPTION...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
results=$(mkdir -p "$1" && cd "$1" && pwd)
nodes=$2
shift 2
# decimal, as written: 010 is ten (the shell's arithmetic would read it as octal 8), leading zeros dropped first
case $nodes in ''|*[!0-9]*) echo "submit.sh: NODES must be a whole number above 0" >&2; exit 2 ;; esac
while :; do case $nodes in 0?*) nodes=${nodes#0} ;; *) break ;; esac; done
[ "$nodes" != 0 ] || { echo "submit.sh: NODES must be a whole number above 0" >&2; exit 2; }
[ ${#nodes} -le 6 ] || { echo "submit.sh: NODES=$nodes: more than 999999 tasks" >&2; exit 2; }
: "${VKBENCH:=$here/../../build/vkbench}"
export VKBENCH RESULTS="$results" FLEET_PY="$here/../fleet.py"
# sbatch reads % in --output as a pattern (%a the task): a % of the folder's name is written %%
out=$(printf '%s' "$results" | sed 's/%/%%/g')
time=${FLEET_TIME:-00:15:00}
array=$(sbatch --parsable --array=0-$((nodes - 1)) --time="$time" --output="$out/task-%a.out" --export=ALL "$@" \
        "$here/vkbench-fleet.sbatch")
array=${array%%;*}
report=$(sbatch --parsable --dependency=afterany:"$array" --time="$time" --output="$out/report.out" --export=ALL \
         "$@" "$here/fleet-report.sbatch")
echo "array $array, report ${report%%;*}"
