#!/bin/sh
# gpu-transfer.sh [BUILD]: issue 27's measurements on an NVIDIA GPU, both APIs in the same runs: transfers at 4 KiB
# to 1 GiB beside cudaMemcpy, dispatch latency beside CUDA launches, the cache sweep (cache.chase, cache.read) and
# the Vulkan-only cache probe beside CUDA's L2 size, the reduce floor at small n, and the planted faults that must
# fail. Run from the repository root of the device machine (the device tool: carry [".gl", "BUILD"]; BUILD defaults
# to build); results go under $OUT (default: gpu-transfer-out/), a short table last.
set -u
B=${1:-build}
OUT=${OUT:-gpu-transfer-out}
mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
if ! "$B/vkbench" devices >/dev/null 2>&1; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
export XDG_CACHE_HOME="$OUT/xdg"
V="$B/vkbench"
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv > "$OUT/gpu.txt" 2>&1
"$V" devices > "$OUT/devices.txt" 2>&1
"$V" validate transfer latency cache --backend all > "$OUT/validate.txt" 2>&1; echo "validate exit $?" >> "$OUT/summary.txt"
"$V" run transfer --backend all --n 4K,1M,64M,256M,1G --budget-ms 300 --json "$OUT/transfer.json" \
    > "$OUT/transfer.txt" 2>&1; echo "transfer exit $?" >> "$OUT/summary.txt"
"$V" run latency --backend all --json "$OUT/latency.json" > "$OUT/latency.txt" 2>&1
echo "latency exit $?" >> "$OUT/summary.txt"
VKB_CACHE_PROBE=refresh "$V" run cache --backend all --budget-ms 100 --warmup-ms 20 --json "$OUT/cache.json" \
    > "$OUT/cache.txt" 2>&1; echo "cache exit $?" >> "$OUT/summary.txt"
cp -r "$OUT/xdg/vkbench" "$OUT/probe" 2>/dev/null
"$V" run reduce --backend all --n 1K,64K,256K --json "$OUT/reduce-small.json" > "$OUT/reduce-small.txt" 2>&1
echo "reduce exit $?" >> "$OUT/summary.txt"
# planted faults: each run must exit 1
for fault in transfer-byte:transfer:1M chase-skip:cache.chase:1M drop-dispatch:latency:64; do
    spec=${fault#*:}
    VKB_FAULT_INJECT=${fault%%:*} "$V" run ${spec%%:*} --backend all --n ${spec#*:} --reps 2 --warmup-ms 0 \
        --variant all > "$OUT/fault-${fault%%:*}.txt" 2>&1
    echo "fault ${fault%%:*} exit $? (want 1)" >> "$OUT/summary.txt"
done
cat "$OUT/summary.txt"
grep -h "measured\|probe" "$OUT/cache.txt" | head -5
grep -A16 "^== transfer" "$OUT/transfer.txt" | tail -14
grep -A8 "^== latency" "$OUT/latency.txt"
