#!/bin/sh
# submit.sh RESULTS NODES [SBATCH OPTION...]: the fleet job array (NODES tasks, one node each) and the report
# job that runs after it, whatever the tasks' verdicts. Prints the two job ids. VKBENCH defaults to the build
# beside this checkout; FLEET_VALIDATE, FLEET_RUN, FLEET_ARGS and FLEET_TASK_NAMES pass through (README: "Slurm").
set -eu
[ $# -ge 2 ] || { echo "usage: submit.sh RESULTS NODES [SBATCH OPTION...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
results=$(mkdir -p "$1" && cd "$1" && pwd)
nodes=$2
shift 2
case $nodes in ''|*[!0-9]*|0) echo "submit.sh: NODES must be a whole number above 0" >&2; exit 2 ;; esac
: "${VKBENCH:=$here/../../build/vkbench}"
export VKBENCH RESULTS="$results" FLEET_PY="$here/../fleet.py"
array=$(sbatch --parsable --array=0-$((nodes - 1)) --output="$results/task-%a.out" --export=ALL "$@" \
        "$here/vkbench-fleet.sbatch")
array=${array%%;*}
report=$(sbatch --parsable --dependency=afterany:"$array" --output="$results/report.out" --export=ALL \
         "$here/fleet-report.sbatch")
echo "array $array, report ${report%%;*}"
