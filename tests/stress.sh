#!/bin/sh
# stress.sh [BUILD [RUNS [CTEST ARGUMENTS...]]]: run the ctest suite of BUILD (build) RUNS times (10) while two
# busy loops hold the CPU, one pass/fail line per run and a summary; exit 1 when a run failed. A test whose
# verdict depends on the machine's load fails here. The loops end with the script, however it ends.
build=${1:-build}
runs=${2:-10}
[ $# -ge 2 ] && shift 2 || shift $#
sh -c 'while :; do :; done' & loop1=$!
sh -c 'while :; do :; done' & loop2=$!
trap 'kill "$loop1" "$loop2" 2>/dev/null' EXIT
trap 'exit 130' INT TERM
log=$(mktemp)
passed=0
i=1
while [ "$i" -le "$runs" ]; do
    t0=$(date +%s)
    if ctest --test-dir "$build" -j 2 "$@" >"$log" 2>&1; then
        passed=$((passed + 1))
        echo "run $i/$runs: pass ($(grep -Eo '[0-9]+% tests passed.*' "$log"), $(( $(date +%s) - t0 )) s)"
    else
        echo "run $i/$runs: FAIL ($(grep -Eo '[0-9]+% tests passed.*' "$log"), $(( $(date +%s) - t0 )) s):" \
             "$(grep -E '^[[:space:]]+[0-9]+ - ' "$log" | sed 's/^[[:space:]]*[0-9]* - //' | tr '\n' ' ')"
    fi
    i=$((i + 1))
done
rm -f "$log"
echo "stress: $passed of $runs runs passed with two busy loops running (ctest -j 2 $*)"
[ "$passed" -eq "$runs" ]
