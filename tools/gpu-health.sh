#!/bin/sh
# gpu-health.sh BUILD [OUTDIR]: issue 35's target on one NVIDIA GPU: the wall time of `vkbench health` (at most
# 10 s on the H100), five runs in a row (the first one pays the driver's pipeline compilation), each run's verdict
# JSON and Prometheus file, and a planted wrong result to show the verdict that takes a node out; then the speed
# target: a baseline from those five runs (fleet.py --write-baseline), and 10 runs with the GPU 15% slower
# (VKB_FAULT_INJECT=slower:0:15) between 10 healthy ones, each against it, counted. Files under OUTDIR ($OUT):
# health-N.json, health-N.prom, health-N.txt, wrong.txt, base.tsv, slow-N.txt, kept-N.txt; the table last.
#   run: command "sh tools/gpu-health.sh build", carry [".gl", "build"]
set -u
build=${1:-build}
out=${2:-${OUT:-health-out}}
mkdir -p "$out"
. "$(dirname "$0")/gpu-loader.sh"
gpu_loader "$build"/vkbench
vk="$build/vkbench"
nvidia-smi --query-gpu=name,driver_version --format=csv > "$out/devices.txt" 2>&1 || true
rows=""
for i in 1 2 3 4 5; do
    t0=$(date +%s.%N)
    "$vk" health --expect 1 --json "$out/health-$i.json" --prom "$out/health-$i.prom" > "$out/health-$i.txt" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    rows="$rows$(printf '%-4s %6.2f s   exit %s   %s' "$i" "$(awk "BEGIN{print $t1 - $t0}")" "$rc" \
        "$(tail -1 "$out/health-$i.txt")")
"
done
VKB_FAULT_INJECT=wrong-device:0 "$vk" health --expect 1 > "$out/wrong.txt" 2>&1
wrong=$?
printf 'run  wall      exit   verdict\n%s' "$rows"
echo "planted wrong result: exit $wrong (expected 1); $(grep -m1 '^vkbench: GPU' "$out/wrong.txt")"
python3 "$(dirname "$0")/fleet.py" --write-baseline "$out/base.tsv" "$out"/health-[1-5].json || exit 1
caught=0
kept=0
for i in 1 2 3 4 5 6 7 8 9 10; do
    VKB_FAULT_INJECT=slower:0:15 "$vk" health --expect 1 --baseline "$out/base.tsv" > "$out/slow-$i.txt" 2>&1
    [ $? = 1 ] && grep -q '^vkbench: GPU 0 [^ ]* [^ ]*: speed: ' "$out/slow-$i.txt" && caught=$((caught + 1))
    "$vk" health --expect 1 --baseline "$out/base.tsv" > "$out/kept-$i.txt" 2>&1 && kept=$((kept + 1))
done
echo "baseline: $(grep -c . "$out/base.tsv") lines; 15% slower GPU 0 flagged (exit 1, a speed line) in $caught of 10;" \
     "healthy kept (exit 0) in $kept of 10"
grep -h '^vkbench: GPU 0 .*: speed: all rows' "$out"/slow-*.txt | head -3
