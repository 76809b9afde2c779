#!/bin/sh
# gpu-node.sh [BUILD]: issue 29's run on a multi-GPU node (the device tool's nvidia-h200-x2/-x4/-x8; carry .gl and
# BUILD): every GPU validated through both APIs with --device all; the default suite on every GPU at once and on
# GPU 0 alone (each GPU's numbers beside the single-GPU run, and the wall times); the fleet report over the node's
# results, clean and with a fault planted on the last GPU (it must flag that one and no other). Then, on GPU 0,
# the H200 rows of the peak family, the subgroup SGEMM and the transfer, latency and cache families beside their
# CUDA twins. Results under $OUT (default ./gpu-node-out), a short summary last.
set -u
B=${1:-build}
OUT=${OUT:-./gpu-node-out}
W=$(mktemp -d)
mkdir -p "$OUT"
V="$B/vkbench"
. "$(dirname "$0")/gpu-loader.sh"
gpu_loader "$V"
export XDG_CACHE_HOME="$W/xdg"
S="$W/summary.txt"
{ date -u; nvidia-smi --query-gpu=index,name,uuid,pci.bus_id,driver_version,clocks.sm --format=csv; } > "$S" 2>&1
"$V" devices > "$W/devices.txt" 2>&1
n=$(grep -cE '^[0-9]+: ' "$W/devices.txt")
last=$((n - 1))
secs() { awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $1 }"; }

# 1. conformance on every GPU, both APIs
t0=$(date +%s.%N)
timeout 240 "$V" validate --backend all --device all --json "$W/validate-all.json" > "$W/validate-all.txt" 2>&1
echo "validate --backend all --device all: exit $?, $(secs "$t0") s" >> "$S"
python3 - "$W/validate-all.json" >> "$S" 2>&1 <<'EOF'
import json, sys, collections
doc = json.load(open(sys.argv[1]))
c = collections.Counter((r.get("device_index"), r["backend"], r["status"]) for r in doc["results"])
for key in sorted(c, key=str):
    print("  validate device %s %-6s %-4s %d" % (key[0], key[1], key[2], c[key]))
EOF

# 2. the default suite on every GPU at once, and on GPU 0 alone
t0=$(date +%s.%N)
"$V" --device all --json "$W/suite-all.json" > "$W/suite-all.txt" 2>&1
echo "suite --device all: exit $?, $(secs "$t0") s wall" >> "$S"
t0=$(date +%s.%N)
"$V" --device 0 --json "$W/suite-0.json" > "$W/suite-0.txt" 2>&1
echo "suite --device 0 alone: exit $?, $(secs "$t0") s wall" >> "$S"
python3 - "$W/suite-all.json" "$W/suite-0.json" >> "$S" 2>&1 <<'EOF'
import json, sys, statistics
def rows(path, want=None):
    out = {}
    for r in json.load(open(path))["results"]:
        i = r.get("device_index", 0)
        m = r.get("metric") or {}
        if r["status"] == "ok" and m.get("value") and (want is None or i == want):
            out[(i, r["family"], r["variant"], r["shape_text"], r["backend"])] = (m["value"], m.get("better", "higher"))
    return out
together, alone = rows(sys.argv[1]), rows(sys.argv[2], 0)
by_family = {}
for k in set(together) & set(alone):
    if k[0] != 0:
        continue
    (a, better), (t, _) = alone[k], together[k]
    ratio = t / a if better == "higher" else a / t
    by_family.setdefault(k[1], []).append(ratio)
print("  GPU 0 with every GPU busy / GPU 0 alone, per family (median ratio of rates; >1: faster beside the others):")
for fam in sorted(by_family):
    v = by_family[fam]
    print("    %-26s %6.3f  (%d rows, %.3f-%.3f)" % (fam, statistics.median(v), len(v), min(v), max(v)))
EOF

# 3. the fleet report over the node: clean, then with the last GPU made wrong (a bit flipped) and slow
python3 tools/fleet.py "$W/suite-all.json" > "$W/fleet-clean.txt" 2>&1
echo "fleet.py on the clean node: exit $?" >> "$S"
head -12 "$W/fleet-clean.txt" | sed 's/^/  /' >> "$S"
VKB_FAULT_INJECT=wrong-device:$last "$V" --device all --json "$W/suite-wrong.json" > "$W/suite-wrong.txt" 2>&1
echo "suite with wrong-device:$last: exit $? (want 1)" >> "$S"
python3 tools/fleet.py "$W/suite-wrong.json" > "$W/fleet-wrong.txt" 2>&1
echo "fleet.py, wrong-device:$last planted: exit $? (want 1, GPU $last alone flagged)" >> "$S"
head -12 "$W/fleet-wrong.txt" | sed 's/^/  /' >> "$S"

# 4. the H200's own rows on GPU 0, both APIs
"$V" run peak --backend all --device 0 --wide --json "$W/peak.json" > "$W/peak.txt" 2>&1
echo "peak: exit $?" >> "$S"
"$V" run matmul --size 4096,8192 --variant dbuf,subgroup,cublas_sgemm --backend all --device 0 \
    --json "$W/sgemm.json" > "$W/sgemm.txt" 2>&1
echo "sgemm: exit $?" >> "$S"
"$V" run transfer --backend all --device 0 --n 64M,1G --budget-ms 300 --json "$W/transfer.json" > "$W/transfer.txt" 2>&1
echo "transfer: exit $?" >> "$S"
"$V" run latency --backend all --device 0 --n 1,1024 --json "$W/latency.json" > "$W/latency.txt" 2>&1
echo "latency: exit $?" >> "$S"
VKB_CACHE_PROBE=refresh "$V" devices > "$W/devices-probe.txt" 2>&1
"$V" run cache.chase --backend all --device 0 --budget-ms 100 --warmup-ms 20 --json "$W/cache.json" > "$W/cache.txt" 2>&1
echo "cache.chase: exit $?" >> "$S"

tar czf "$OUT/gpu-node.tar.gz" -C "$W" --exclude xdg .
cat "$S"
grep -hE "^(fma_|mad_|dot_|coopmat_)" "$W/peak.txt" | head -16
grep -hE "^(dbuf|subgroup|cublas_sgemm)" "$W/sgemm.txt"
grep -hE "^(staging_h2d|staging_d2h|cuda_pinned)" "$W/transfer.txt" | head -8
grep -hiE "cache|L2" "$W/devices-probe.txt" | head -4
