#!/bin/sh
# gpu-speed.sh BUILD [OUTDIR]: issue 28's measurements on one NVIDIA GPU (through the device tool, carrying .gl
# and BUILD): the changed kernels validated through both APIs at the awkward battery, then the tops of the ladders
# beside their ceilings in one process each (transposes at 8192^2, SGEMM at 4096^3 and 8192^3, reduce from 2^12
# to 2^28, the tensor-core GEMMs at 8192^3, 4096^3 and 4097^3), the SM clock and board power sampled beside them,
# and the machine code of the new pipelines and their twins. Seven files under OUTDIR ($OUT), the device tool's
# limit being 8: devices.txt, smi.csv, validate.txt.gz, tables.txt, oob_nobc.txt, json.tgz (every --json file) and
# sass.tgz.
#   run: command "sh tools/gpu-speed.sh build", carry [".gl", "build"]
set -e
build=${1:-build}
out=${2:-${OUT:-speed-out}}
mkdir -p "$out"
js=/tmp/speed-json
rm -rf "$js" && mkdir -p "$js"
. "$(dirname "$0")/gpu-loader.sh"
gpu_loader "$build"/vkbench
vk="$build/vkbench"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv; } \
    > "$out/devices.txt" 2>&1 || true
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv -lms 250 > "$out/smi.csv" 2>&1 &
smi=$!
# conformance of every kernel issue 28 added or changed, both APIs, the awkward battery
"$vk" validate transpose reduce --backend all --quiet > "$out/validate.txt" 2>&1 || true
"$vk" validate matmul --variant "${SGEMM_ROWS:-warptile},subgroup,dbuf,coopmat2,coopmat2_interior,coopmat2_interior_acc16" \
    --backend all --quiet >> "$out/validate.txt" 2>&1 || true
# the ladders' tops, each in one process with its ceilings
"$vk" run transpose --size 8192 --variant copy,padded,padded_rows4,tile64,vec4,vec4_tile64,tile64_pipe,\
vec4_tile64_pipe,api_copy --backend all --wide --json "$js/transpose.json" > "$out/tables.txt" 2>&1 || true
"$vk" run matmul --size 4096,8192 --variant "${SGEMM_ROWS:-warptile},subgroup,dbuf,cublas_sgemm" --backend all --wide \
    --json "$js/sgemm.json" >> "$out/tables.txt" 2>&1 || true
"$vk" run latency --backend all --wide >> "$out/tables.txt" 2>&1 || true
"$vk" run reduce --n 2^12:2^28:x4 --variant "${REDUCE_ROWS:-subgroup_lastblock},subgroup,vec4,cub_sum,api_copy" \
    --backend all --wide --json "$js/reduce.json" >> "$out/tables.txt" 2>&1 || true
"$vk" run matmul --size 8192,4096,4097 --variant coopmat_khr,coopmat2,coopmat2_interior,coopmat2_interior_acc16,\
coopmat2_staged_acc16,tc_peak,cublas_hgemm,cublas_hgemm_acc16 --backend all --wide --json "$js/tc.json" \
    >> "$out/tables.txt" 2>&1 || true
# the transposes' ratios to their twins and to memcpy against the size (2^24 to 2^28 elements)
"$vk" run transpose --size 4096,16384 --variant copy,padded,tile64,vec4_tile64,vec4_tile64_pipe,api_copy --backend all \
    --wide --json "$js/transpose_sizes.json" >> "$out/tables.txt" 2>&1 || true
# the same tops without the driver's bounds checks (--robustness disabled), and the planted out-of-bounds write
# caught by the guard bands without them
"$vk" run transpose --size 8192 --variant copy,padded_rows4,tile64,vec4,vec4_tile64,vec4_tile64_pipe,api_copy \
    --backend all --robustness disabled --wide --json "$js/nobc.json" >> "$out/tables.txt" 2>&1 || true
"$vk" run matmul --size 8192 --variant "${SGEMM_ROWS:-warptile},dbuf,coopmat_khr,cublas_sgemm,cublas_hgemm" \
    --backend all --robustness disabled --wide >> "$out/tables.txt" 2>&1 || true
python3 tests/cli/verify_faults.py "$vk" oob-write guard validate copy transpose reduce matmul --robustness disabled \
    > "$out/oob_nobc.txt" 2>&1 && echo "oob-write with --robustness disabled: caught (exit 1)" \
    || echo "oob-write with --robustness disabled: NOT as expected (see oob_nobc.txt)"
# machine code of the new pipelines beside their twins
"$vk" run matmul transpose --size 2048 --variant "${SGEMM_ROWS:-warptile},tile64,copy,vec4_tile64,vec4_tile64_pipe" \
    --backend all --reps 3 --sass /tmp/speed-sass -v > /dev/null 2>&1 || true
tar czf "$out/sass.tgz" -C /tmp speed-sass 2>/dev/null || true
tar czf "$out/json.tgz" -C /tmp speed-json 2>/dev/null || true
kill "$smi" 2>/dev/null || true
grep -E "^(validate|[a-z.]+:) .*(passed|failed)" "$out/validate.txt" || true
gzip -f "$out/validate.txt" # thousands of lines: compressed, so it comes back under the tool's size limit
grep -v '^  ' "$out/tables.txt" | grep -v '^vkbench:' | grep -v '^device:' || true
