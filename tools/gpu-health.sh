#!/bin/sh
# gpu-health.sh BUILD [OUTDIR]: issue 35's target on one NVIDIA GPU: the wall time of `vkbench health` (at most
# 10 s on the H100), five runs in a row (the first one pays the driver's pipeline compilation), each run's verdict
# JSON and Prometheus file, and a planted wrong result to show the verdict that takes a node out. Files under
# OUTDIR ($OUT): health-N.json, health-N.prom, health-N.txt, wrong.txt; the table last.
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
