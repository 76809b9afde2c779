#!/bin/sh
# gpu-s38.sh BUILD [OUTDIR]: issue 38's measurements on one NVIDIA GPU (through the device tool, carrying .gl and
# BUILD, a build with CUDA): the new rows validated through both APIs at the awkward battery, then each beside
# today's row and its CUDA twin in one process: latency's submit_spin beside submit_fence and CUDA's launch and
# synchronize; transfer's shader_both, staging_both_1q and staging_both_dma beside staging_both and
# cuda_pinned_both (and the queues each copy went to); matmul's warptile_fixed and warptile_named beside warptile,
# warptile_64x64, subgroup and cublas_sgemm at 4096^3 and 8192^3; every transpose row at 8192^2 and
# vec4_tile64_deep's DEPTH (the H200's bytes in flight); the machine code of the SGEMM pipelines and their twins
# (--sass, tools/sass_diff.py). Files under
# OUTDIR ($OUT): devices.txt, validate.txt, tables.txt, sass_diff.txt, json.tgz, sass.tgz. Prints the summary
# table last: each new row's ratio to its ceiling and to its CUDA twin.
#   run: command "sh tools/gpu-s38.sh build", carry [".gl", "build"]
set -e
build=${1:-build}
out=${2:-${OUT:-s38-out}}
mkdir -p "$out"
js=/tmp/s38-json
sass=/tmp/s38-sass
rm -rf "$js" "$sass" && mkdir -p "$js"
. "$(dirname "$0")/gpu-loader.sh"
gpu_loader "$build"/vkbench
vk="$build/vkbench"
sgemm="warptile,warptile_fixed,warptile_named,warptile_64x64,subgroup"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv;
  vulkaninfo 2>/dev/null | grep -E "queueFlags|queueCount" || true; } > "$out/devices.txt" 2>&1 || true
# conformance: the new rows through both APIs, the awkward battery and the shapes of the lavapipe test
"$vk" validate latency --backend all --quiet > "$out/validate.txt" 2>&1 || true
"$vk" validate transfer --variant staging_both,staging_both_dma,staging_both_1q,shader_both,cuda_pinned_both --backend all --quiet \
    >> "$out/validate.txt" 2>&1 || true
"$vk" validate matmul --variant warptile,warptile_named,warptile_fixed --backend all --quiet >> "$out/validate.txt" 2>&1 || true
"$vk" validate transpose --backend all --quiet >> "$out/validate.txt" 2>&1 || true
"$vk" validate matmul --variant warptile_named --m 1,31,33,1000 --n 1,17,33,65 --k 1,31,33 --backend all --quiet \
    >> "$out/validate.txt" 2>&1 || true
# submission to fence: one dispatch, 2000 repetitions (host clock), the old wait, the spin, CUDA's synchronize
"$vk" run latency --variant submit_fence,submit_spin --n 1 --reps 2000 --backend all --wide \
    --json "$js/latency.json" > "$out/tables.txt" 2>&1 || true
# both directions at once, 64 MiB and 256 MiB each way (M = 2^20), beside CUDA's two streams
"$vk" run transfer --n 64M,256M --variant staging_both,staging_both_dma,staging_both_1q,shader_both,staging_h2d,staging_d2h,cuda_pinned_both,\
cuda_pinned_h2d,cuda_pinned_d2h --backend all --wide --json "$js/transfer.json" >> "$out/tables.txt" 2>&1 || true
# SGEMM beside cuBLAS (pedantic) and the twins
"$vk" run matmul --size 4096,8192 --variant "$sgemm,cublas_sgemm" --backend all --wide --json "$js/sgemm.json" \
    >> "$out/tables.txt" 2>&1 || true
# transposes with DEPTH tiles in flight (the H200's question), every row both APIs, and the DEPTH sweep
"$vk" run transpose --size 8192 --backend all --budget-ms 300 --wide --json "$js/transpose.json" >> "$out/tables.txt" 2>&1 || true
python3 "$(dirname "$0")/tune.py" --vkbench "$vk" transpose vec4_tile64_deep DEPTH=1 DEPTH=3 TILES_PER_GROUP=16 \
    TILES_PER_GROUP=16,DEPTH=1 -- --size 8192 --budget-ms 300 >> "$out/tables.txt" 2>&1 || true
# machine code of the SGEMM pipelines and their twins
"$vk" run matmul --size 2048 --variant "$sgemm" --backend all --reps 3 --sass "$sass" > /dev/null 2>&1 || true
for name in matmul_warptile_named matmul_warptile; do
    echo "== $name" && python3 "$(dirname "$0")/sass_diff.py" "$sass" "$name[" 2>&1 | head -60
done > "$out/sass_diff.txt" || true
tar czf "$out/sass.tgz" -C /tmp s38-sass 2>/dev/null || true
tar czf "$out/json.tgz" -C /tmp s38-json 2>/dev/null || true
grep -E "^(validate|[a-z.]+:) .*(passed|failed)" "$out/validate.txt" || true
python3 - "$js" <<'EOF'
# The summary: each row's median, its fraction of the ceiling (transfer, SGEMM) and its ratio to the CUDA twin
# (latency: Vulkan / CUDA, lower is better; the others CUDA's metric as the denominator, higher is better).
import json, os, sys
rows = []
for name in ("latency", "transfer", "sgemm", "transpose"):
    path = os.path.join(sys.argv[1], name + ".json")
    if os.path.exists(path):
        rows += [r for r in json.load(open(path))["results"] if r["status"] == "ok"]
cuda = {(r["variant"], r["shape_text"]): r["metric"]["value"] for r in rows if r["backend"] == "cuda"}
print("\n== issue 38 summary (%s)" % ", ".join(sorted({d for d in (r["device"] for r in rows)})))
print("%-8s %-18s %-14s %12s %-6s %8s %10s  %s" % ("family", "variant", "shape", "value", "unit", "ceil%", "vs twin",
                                                 "queues"))
for r in rows:
    if r["backend"] != "vulkan":
        continue
    m = r["metric"]
    twin = cuda.get((r["variant"], r["shape_text"]))
    if r["family"] == "latency":   # CUDA's launch and synchronize is the twin of both submission rows
        twin = cuda.get(("submit_fence", r["shape_text"]))
    ratio = "%.2fx" % (m["value"] / twin) if twin else "-"
    if r["family"] == "transfer":
        ratio = "%.2f" % (m["value"] / cuda[("cuda_pinned_both", r["shape_text"])]) \
            if "both" in r["variant"] and ("cuda_pinned_both", r["shape_text"]) in cuda else ratio
    frac = "%.1f" % (100 * m["fraction"]) if m.get("fraction") else "-"
    print("%-8s %-18s %-14s %12.4g %-6s %8s %10s  %s" % (r["family"], r["variant"], r["shape_text"], m["value"],
                                                       m["name"], frac, ratio, r.get("queues") or ""))
print("latency: vs twin = Vulkan / CUDA launch+synchronize (target <= 2x); transfer: both-way rows / "
      "cuda_pinned_both (target >= 0.85); matmul: ceil% of cublas_sgemm (target >= 85), vs twin = Vulkan / CUDA")
EOF
