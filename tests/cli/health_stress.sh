#!/bin/sh
# health_stress.sh VKBENCH [N]: the health check's promise under load, counted: each planted fault N times (default
# 10) and a healthy node N times, beside two busy loops, and whether `vkbench health` gave the right verdict each time
# (exit code and the stable failure lines, on the right GPU, and none on the other). Two lavapipe devices (two driver
# manifests, as health_test.py), --allow-cpu. The speed baseline is fleet.py --write-baseline over 5 healthy runs made
# beside the same busy loops (a fleet's median and noise). Not in ctest: about 10 minutes on 2 cores. Prints a table
# last.
# ONLY=speed: the speed rows alone (healthy against the baseline, 15% and 50% slow); BUSY=0: no busy loops.
# Exit 0 when it ran (the table is the result), 77 without lavapipe.
set -u
VKB=${1:?usage: health_stress.sh VKBENCH [N]}
N=${2:-10}
ONLY=${ONLY:-}
BUSY=${BUSY:-2}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LVP=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
[ -f "$LVP" ] || { echo "no lavapipe manifest"; exit 77; }
tmp=$(mktemp -d)
cp "$LVP" "$tmp/a.json" && cp "$LVP" "$tmp/b.json"
export VK_DRIVER_FILES="$tmp/a.json:$tmp/b.json"
unset VK_ICD_FILENAMES VKB_FAULT_INJECT VKB_DEVICE_TIMEOUT_S

busy() { while :; do :; done; }
loops=""
i=0
while [ "$i" -lt "$BUSY" ]; do
    busy &
    loops="$loops $!"
    i=$((i + 1))
done
trap 'kill $loops 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM

for i in 1 2 3 4 5; do
    "$VKB" health --allow-cpu --json "$tmp/healthy$i.json" >/dev/null 2>&1
done
python3 "$ROOT/tools/fleet.py" "$tmp"/healthy*.json --write-baseline "$tmp/base.tsv" >/dev/null || exit 1

# one_run EXPECT_RC WANT UNWANTED ENV ARGS...: 1 when `ENV vkbench health ARGS` gave the right verdict: exit
# EXPECT_RC, a stderr line matching the regex WANT ("": none needed), none matching UNWANTED (a failure line of the
# healthy GPU). ENV: space-separated NAME=VALUE, or ""
one_run() {
    rc_want=$1 want=$2 unwanted=$3 envs=$4
    shift 4
    # shellcheck disable=SC2086  # ENV's assignments are split on purpose
    env $envs "$VKB" health "$@" >/dev/null 2>"$tmp/err"
    rc=$?
    echo "$rc" >>"$tmp/codes"
    [ "$rc" = "$rc_want" ] || return 1
    if [ -n "$want" ]; then grep -Eq "$want" "$tmp/err" || return 1; fi
    ! grep -Eq "$unwanted" "$tmp/err"
}

UUID='[0-9a-f-]{36}'
printf '%s\n' "| planted | command | right verdict | exit codes seen | s per run |" "|---|---|---|---|---|" >"$tmp/table"
# row NAME WHAT EXPECT_RC WANT UNWANTED ENV ARGS...: N runs of one_run, one table line
row() {
    name=$1 what=$2 rc_want=$3
    shift 2
    right=0
    : >"$tmp/codes"
    t0=$(date +%s.%N)
    i=0
    while [ "$i" -lt "$N" ]; do
        one_run "$@" && right=$((right + 1))
        i=$((i + 1))
    done
    t1=$(date +%s.%N)
    codes=$(sort "$tmp/codes" | uniq -c | awk '{printf "%s%sx %s", (NR > 1 ? ", " : ""), $1, $2}')
    printf '| %s | %s | %d of %d (exit %s) | %s | %.1f |\n' "$name" "$what" "$right" "$N" "$rc_want" "$codes" \
        "$(echo "$t1 $t0 $N" | awk '{print ($1 - $2) / $3}')" >>"$tmp/table"
}

B="$tmp/base.tsv"
[ "$ONLY" = speed ] || row "healthy node" "health --allow-cpu" 0 "" "^vkbench: (GPU|node)" "" --allow-cpu
row "healthy node, baseline" "health --allow-cpu --baseline B" 0 "" "^vkbench: (GPU|node)" "" --allow-cpu \
    --baseline "$B"
row "GPU 15% slow" "slower:0:15, --baseline B" 1 "^vkbench: GPU 0 $UUID \S+: speed: " "^vkbench: GPU 1 " \
    VKB_FAULT_INJECT=slower:0:15 --allow-cpu --baseline "$B"
row "GPU 50% slow" "slower:0:50, --baseline B" 1 "^vkbench: GPU 0 $UUID \S+: speed: " "^vkbench: GPU 1 " \
    VKB_FAULT_INJECT=slower:0:50 --allow-cpu --baseline "$B"
if [ "$ONLY" != speed ]; then
row "wrong result" "wrong-device:1" 1 "^vkbench: GPU 1 $UUID \S+: validate: " "^vkbench: GPU 0 " \
    VKB_FAULT_INJECT=wrong-device:1 --allow-cpu
row "missing GPU" "--expect 3 (2 found)" 1 "^vkbench: node: count: expected 3 GPUs, found 2$" "^vkbench: GPU " \
    "" --allow-cpu --expect 3
row "hung GPU" "hang:1, VKB_DEVICE_TIMEOUT_S=2" 1 "^vkbench: GPU 1 $UUID \S+: device: " "^vkbench: GPU 0 " \
    "VKB_FAULT_INJECT=hang:1 VKB_DEVICE_TIMEOUT_S=2" --allow-cpu
row "no GPU" "health (lavapipe is no GPU)" 1 "^vkbench: node: count: no GPU found" "^vkbench: GPU " ""
fi

echo "baseline B (fleet.py --write-baseline over 5 healthy runs, 2 devices each, beside $BUSY busy loops):"
sed 's/^/    /' "$tmp/base.tsv"
echo
cat "$tmp/table"
