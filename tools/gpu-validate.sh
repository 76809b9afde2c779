#!/bin/sh
# gpu-validate.sh [BUILD] - on the GPU machine: `vkbench validate --backend all` at the awkward battery, and
# planted errors in large products (4096^3, 8192^3) that must fail, beside the same products clean.
# Writes gpu-validate-DATE-driverVER.txt (and the battery's JSON) into $OUT (the device tool's folder),
# else docs/results. Run it whenever a kernel or a CUDA twin changes (docs/verification.md):
#   device run, carry [".gl", "BUILD/vkbench", "BUILD/libvkbench_cuda.so"]:  sh tools/gpu-validate.sh BUILD
# BUILD is a Release build with CUDA (cmake -S . -B BUILD -DCMAKE_BUILD_TYPE=Release). Knobs:
# VKB_GPU_BATTERY_S (seconds for the battery, default 150), VKB_GPU_FAULT_S (per fault command, 150: the
# CPU side of the product check takes a few seconds per row at 8192^3; 45 s cut the first run short).
B=${1:-build}
dest=${OUT:-docs/results}
battery_s=${VKB_GPU_BATTERY_S:-150}
fault_s=${VKB_GPU_FAULT_S:-150}
if [ -d .gl ] && ! ldconfig -p | grep -q libvulkan.so.1; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
fi
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
day=$(date -u +%Y-%m-%d)
log="$dest/gpu-validate-$day-driver${driver:-unknown}.txt"
mkdir -p "$dest"
say() { echo "$@" >>"$log"; }
# step NAME EXPECT SECONDS [ENV=VALUE] -- ARGS...: run vkbench ARGS, record its exit and whether it is EXPECT
step() {
    name=$1 expect=$2 secs=$3; shift 3
    envs=""
    while [ "$1" != "--" ]; do envs="$envs $1"; shift; done
    shift
    say ""
    say "## $name: $envs vkbench $*"
    t0=$(date +%s)
    env $envs timeout "$secs" "$B/vkbench" "$@" >>"$log" 2>&1
    rc=$?
    verdict=ok
    [ "$rc" -eq "$expect" ] || verdict=UNEXPECTED
    say "exit $rc (expected $expect: $verdict) in $(( $(date +%s) - t0 )) s"
    echo "$name: exit $rc, expected $expect: $verdict"
}
say "# vkbench validate --backend all on $gpu, driver $driver, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
say "# commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
"$B/vkbench" devices >>"$log" 2>&1
large="--variant dbuf,coopmat_f16,cublas_sgemm --backend all"
step "clean 4096^3 and 8192^3" 0 "$fault_s" -- validate matmul --size 4096,8192 $large
step "one element +1% rms(C) at 4096^3 and 8192^3" 1 "$fault_s" VKB_FAULT_INJECT=product-element -- validate matmul --size 4096,8192 $large
step "one 16x16 tile +1% rms(C) at 4096^3" 1 "$fault_s" VKB_FAULT_INJECT=product-tile -- validate matmul --size 4096 $large
step "one NaN at 8192^3" 1 "$fault_s" VKB_FAULT_INJECT=product-nan -- validate matmul --size 8192 --variant dbuf --backend all
step "a write past the end of the output, every family" 1 "$fault_s" VKB_FAULT_INJECT=oob-write -- validate copy transpose reduce --backend all --n 1000 --rows 33 --cols 17
step "the battery, both APIs" 0 "$battery_s" -- validate --backend all --json "$dest/gpu-validate-$day.json"
echo "log: $log"
