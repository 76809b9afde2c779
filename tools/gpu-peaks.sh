#!/bin/sh
# gpu-peaks.sh BUILD [OUTDIR]: on the NVIDIA test machine (through the device tool, carrying .gl and BUILD), the
# peak family's measurements of docs/performance.md: both APIs side by side with the theoretical rates, the fp32
# pair's machine code, and the default suite's time with the peak rows in it. Results under OUTDIR ($OUT).
#   run: command "sh BUILD/gpu-peaks.sh BUILD", carry [".gl", "BUILD"]
set -e
build=${1:-build}
out=${2:-${OUT:-peaks-out}}
mkdir -p "$out"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
if ! "$build"/vkbench devices >/dev/null 2>&1; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1 || true
"$build"/vkbench devices > "$out/devices.txt" 2>&1 || true
# every peak row through both APIs, with the theoretical rate as ceil% (t)
"$build"/vkbench run peak --backend all --wide --json "$out/peak.json" > "$out/peak.txt" 2>&1 || true
# the fp32 FMA pair's machine code (tools/sass_diff.py DIR peak_fma_f32), with -v: registers per pipeline
"$build"/vkbench run peak --variant fma_f32,fma_f16,fma_f16x2,dot_u8x4,coopmat_f16_f32 --backend all --sass /tmp/peaks-sass --reps 3 -v \
    > "$out/sass.txt" 2>&1 || true
# the machine code under plain names (the device tool does not bring back names with brackets)
mkdir -p "$out/sass"
for f in /tmp/peaks-sass/*.sass; do cp "$f" "$out/sass/$(basename "$f" | tr -c 'A-Za-z0-9_.\n' '_')"; done
# the default suite, peaks included: its wall time (target <= 20 s cold, <= 15 s warm) and every row's ceiling
( time "$build"/vkbench --quiet --wide --json "$out/suite.json" > "$out/suite.txt" 2>&1 ) 2> "$out/times.txt" || true
( time "$build"/vkbench --quiet --wide > /dev/null 2>&1 ) 2>> "$out/times.txt" || true
for k in peak_fma_f32 peak_fma_f16 peak_fma_f16x2 peak_dot_u8x4 peak_coopmat_f16_f32; do
    python3 tools/sass_diff.py /tmp/peaks-sass "$k" >> "$out/sass_diff.txt" 2>&1 || true
done
cat "$out/gpu.txt" "$out/peak.txt"
grep -A40 "== matmul" "$out/suite.txt" | head -45
cat "$out/times.txt"
