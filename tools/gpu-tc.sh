#!/bin/sh
# gpu-tc.sh BUILD [OUTDIR]: issue 39's measurements on one NVIDIA GPU (through the device tool, carrying .gl and
# BUILD): the tensor-core rows shaped by the device validated through both APIs (matmul's at the awkward battery,
# the peak family's cooperative-matrix rows), then coopmat_khr at 8192^3 at its device-chosen shape beside its
# fp16-accumulate twin and cuBLAS, and a bf16 GEMM row beside the fp16 one where this build has one (rows named
# *bf16* in `vkbench list`; else the table says "not built"), and the bf16 cooperative-matrix peak beside the fp16
# one and their CUDA twins (the fp8 rows validated too: they skip naming what the device lacks). Files under OUTDIR
# ($OUT): validate.txt, tables.txt, tc.json, peak.json; a table last: row, backend, shape, TFLOP/s, and the
# constants the plan chose (the JSON's planned: subgroup tile, fragment, k-step).
#   run: command "sh tools/gpu-tc.sh build", carry [".gl", "build"]
set -e
build=${1:-build}
out=${2:-${OUT:-tc-out}}
mkdir -p "$out"
. "$(dirname "$0")/gpu-loader.sh"
gpu_loader "$build"/vkbench
vk="$build/vkbench"
"$vk" devices > "$out/devices.txt" 2>&1 || true
bf16=$("$vk" list 2>/dev/null | awk '/^ *[a-z0-9_]*bf16[a-z0-9_]* / && /matmul|coopmat_khr/ {print $1}' | grep '^coopmat_khr' | paste -sd, -)
tc_rows=coopmat_khr,coopmat_khr_acc16,tc_peak,tc_peak_acc16${bf16:+,$bf16}
"$vk" validate matmul --variant "$tc_rows" --backend all --quiet > "$out/validate.txt" 2>&1 || true
"$vk" validate peak --variant coopmat_f16_f32,coopmat_f16_f16,coopmat_s8_s32,coopmat_u8_u32,coopmat_bf16_f32,coopmat_e4m3_f32,coopmat_e5m2_f32 \
    --backend all --quiet >> "$out/validate.txt" 2>&1 || true
"$vk" run matmul --size 8192 --variant "coopmat_khr,coopmat_khr_acc16${bf16:+,$bf16},cublas_hgemm,cublas_hgemm_acc16" \
    --backend all --wide --json "$out/tc.json" > "$out/tables.txt" 2>&1 || true
"$vk" run peak --variant coopmat_f16_f32,coopmat_bf16_f32 --backend all --wide --json "$out/peak.json" \
    >> "$out/tables.txt" 2>&1 || true
# -v: the constants each pipeline was built with (the plan's choice)
"$vk" -v list > "$out/list.txt" 2>&1 || true
echo "== validate (last lines) =="
grep -E "^(matmul|peak|validate):" "$out/validate.txt" || tail -5 "$out/validate.txt"
python3 - "$out/tc.json" "$bf16" "$out/peak.json" <<'PY'
import json, sys
path, bf16, peak = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    rows = json.load(open(path))["results"]
except (OSError, ValueError, KeyError) as e:
    sys.exit(f"gpu-tc: no results in {path}: {e}")
try:
    rows += json.load(open(peak))["results"]
except (OSError, ValueError, KeyError) as e:
    print(f"gpu-tc: no peak results in {peak}: {e}")
rate = {}
print(f"{'row':<22} {'backend':<7} {'shape':<16} {'TFLOP/s':>8}  status / constants")
for r in rows:
    m = (r.get("metric") or {}).get("value")
    tf = m / 1e3 if isinstance(m, (int, float)) else None
    rate[(r["variant"], r["backend"])] = tf
    print(f"{r['variant']:<22} {r['backend']:<7} {r['shape_text']:<16} {tf if tf is None else round(tf, 1)!s:>8}  "
          f"{r['status']} {r.get('skip_reason') or (r.get('planned') or {}).get('constants') or ''}")
fp16 = rate.get(("coopmat_khr", "vulkan"))
if not bf16:
    print("bf16 GEMM: not built (no coopmat_khr bf16 row in this build)")
for name in filter(None, bf16.split(",")):
    b = rate.get((name, "vulkan"))
    print(f"{name} / coopmat_khr (vulkan): {b / fp16:.3f}" if b and fp16 else f"{name}: no rate")
for api in ("vulkan", "cuda"):
    b, h = rate.get(("coopmat_bf16_f32", api)), rate.get(("coopmat_f16_f32", api))
    print(f"peak coopmat_bf16_f32 / coopmat_f16_f32 ({api}): {b / h:.3f}" if b and h else
          f"peak coopmat_bf16_f32 ({api}): no rate")
PY
