#!/bin/sh
# gpu-peaks.sh BUILD [OUTDIR]: on the NVIDIA test machine (through the device tool, carrying .gl and BUILD), the
# peak family's measurements of docs/performance.md: both APIs side by side with the theoretical rates, the
# machine code of the pairs that differ, validation at the battery's shapes, matmul's fallback ceilings with no
# CUDA module, and the default suite's time with the peak rows in it. Results under OUTDIR ($OUT): at most seven
# files (the device tool brings back few).
#   run: command "sh BUILD/gpu-peaks.sh BUILD", carry [".gl", "BUILD"]
set -e
build=${1:-build}
out=${2:-${OUT:-peaks-out}}
mkdir -p "$out"
. "$(dirname "$0")/gpu-loader.sh"
gpu_loader "$build"/vkbench
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; "$build"/vkbench devices; } \
    > "$out/devices.txt" 2>&1 || true
# every peak row through both APIs, with the theoretical rate as ceil% (t)
"$build"/vkbench run peak --backend all --wide --json "$out/peak.json" > "$out/peak.txt" 2>&1 || true
# the pairs' machine code (tools/sass_diff.py), with -v: registers per pipeline
"$build"/vkbench run peak --variant fma_f32,fma_f16,fma_f16x2,dot_u8x4,coopmat_f16_f32 --backend all \
    --sass /tmp/peaks-sass --reps 3 -v > "$out/sass.txt" 2>&1 || true
for k in peak_fma_f32 peak_fma_f16 peak_fma_f16x2 peak_dot_u8x4 peak_coopmat_f16_f32; do
    python3 tools/sass_diff.py /tmp/peaks-sass "$k" >> "$out/sass_diff.txt" 2>&1 || true
done
{
    # both APIs over the battery (odd shapes), every chain checked
    "$build"/vkbench validate peak --backend all --quiet || true
    # no CUDA module beside the binary: no cuBLAS, so matmul's rows take the peak rows' rates as ceilings
    mkdir -p /tmp/nocuda && cp "$build"/vkbench /tmp/nocuda/
    /tmp/nocuda/vkbench run peak matmul --variant fma_f32,tc_peak,tc_peak_acc16,dbuf,subgroup,coopmat_khr,\
coopmat_khr_acc16,coopmat2_staged --wide --quiet || true
} > "$out/extra.txt" 2>&1
# the default suite, peaks included: its wall time (target <= 20 s cold, <= 15 s warm) and every row's ceiling
( time "$build"/vkbench --quiet --wide > "$out/suite.txt" 2>&1 ) 2> /tmp/t1 || true
( time "$build"/vkbench --quiet --wide > /dev/null 2>&1 ) 2> /tmp/t2 || true
{ echo "suite, first:"; cat /tmp/t1; echo "suite, again:"; cat /tmp/t2; } >> "$out/suite.txt"
cat "$out/peak.txt"
tail -40 "$out/extra.txt"
tail -8 "$out/suite.txt"
