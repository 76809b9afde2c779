#!/bin/sh
# gpu-transfer.sh [BUILD]: issue 27's measurements on an NVIDIA GPU, both APIs in the same runs: transfers at 4 KiB
# to 1 GiB beside cudaMemcpy, dispatch latency beside CUDA launches, the cache sweep (cache.chase, cache.read) and
# the Vulkan-only cache probe beside CUDA's L2 size, the reduce floor at small n, and the planted faults that must
# fail. Run from the repository root of the device machine (the device tool: carry [".gl", "BUILD"]; BUILD defaults
# to build); the results, in one archive, go to $OUT/gpu-transfer.tar.gz (default: the current folder; the device
# tool brings back only a few files), a short table last.
set -u
B=${1:-build}
OUT=${OUT:-.}
W=$(mktemp -d)
. "$(dirname "$0")/gpu-loader.sh"
gpu_loader "$B/vkbench"
export XDG_CACHE_HOME="$W/xdg"
V="$B/vkbench"
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv > "$W/gpu.txt" 2>&1
"$V" devices > "$W/devices.txt" 2>&1
"$V" validate transfer latency cache --backend all > "$W/validate.txt" 2>&1; echo "validate exit $?" >> "$W/summary.txt"
"$V" run transfer --backend all --n 4K,1M,64M,256M,1G --budget-ms 300 --json "$W/transfer.json" \
    > "$W/transfer.txt" 2>&1; echo "transfer exit $?" >> "$W/summary.txt"
# small transfers hot and cold (--cold evicts the L2, which otherwise serves the repeated host buffer)
"$V" run transfer --backend all --n 1M,16M --cold --variant staging_h2d,staging_d2h,shader_h2d --budget-ms 300 \
    --json "$W/transfer-cold.json" > "$W/transfer-cold.txt" 2>&1; echo "transfer --cold exit $?" >> "$W/summary.txt"
# the slope: n = 1, 2, 4 and 1024 dispatches in one command buffer
"$V" run latency --backend all --n 1,2,4,1024 --json "$W/latency.json" > "$W/latency.txt" 2>&1
echo "latency exit $?" >> "$W/summary.txt"
VKB_CACHE_PROBE=refresh "$V" run cache --backend all --budget-ms 100 --warmup-ms 20 --json "$W/cache.json" \
    > "$W/cache.txt" 2>&1; echo "cache exit $?" >> "$W/summary.txt"
"$V" run reduce --backend all --n 1K,64K,256K --json "$W/reduce-small.json" > "$W/reduce-small.txt" 2>&1
echo "reduce exit $?" >> "$W/summary.txt"
# the default suite with the new families in it: its time
t0=$(date +%s.%N)
"$V" --json "$W/suite.json" > "$W/suite.txt" 2>&1
rc=$?
echo "suite exit $rc, wall $(awk "BEGIN { print $(date +%s.%N) - $t0 }") s" >> "$W/summary.txt"
# planted faults: each run must exit 1
for fault in transfer-byte:transfer:1M chase-skip:cache.chase:1M drop-dispatch:latency:64; do
    spec=${fault#*:}
    VKB_FAULT_INJECT=${fault%%:*} "$V" run ${spec%%:*} --backend all --n ${spec#*:} --reps 2 --warmup-ms 0 \
        --variant all > "$W/fault-${fault%%:*}.txt" 2>&1
    echo "fault ${fault%%:*} exit $? (want 1)" >> "$W/summary.txt"
done
tar czf "$OUT/gpu-transfer.tar.gz" -C "$W" --exclude xdg/nvidia .
cd "$W"
cat summary.txt
grep -h "measured\|probe" cache.txt | head -5
cat xdg/vkbench/*.json
grep -v "^vkbench: \[" transfer.txt | grep -E "^(staging|cuda_pinned|shader|bar|memcpy)" | grep -E " (1048576|268435456) "
grep -v "^vkbench: \[" latency.txt | head -24
grep -v "^vkbench: \[" transfer-cold.txt | head -16
