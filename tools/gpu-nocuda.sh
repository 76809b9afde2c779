#!/bin/sh
# gpu-nocuda.sh BUILD [OUTDIR]: issue 40's measurement on one NVIDIA GPU (through the device tool, carrying .gl
# and BUILD): the default suite twice in one call, first with the CUDA module beside the binary
# (libvkbench_cuda.so, in reach), then with it moved out of reach, as on a device without CUDA, each with a cache
# file of its own (a fresh XDG_CACHE_HOME: the first run of a new user). Prints last a table: the first family's
# copy GB/s both ways, the Vulkan bandwidth ceiling (the faster of api_copy and stream_copy at copy's shape)
# beside cudaMemcpy, the SUSPECT count, the exit codes, and the cache probe's result. Files under OUTDIR ($OUT):
# devices.txt, smi.csv, with.txt, without.txt, with.json, without.json.
#   run: command "sh tools/gpu-nocuda.sh build", carry [".gl", "build"]
set -u
build=${1:-build}
out=${2:-${OUT:-nocuda-out}}
mkdir -p "$out"
. "$(dirname "$0")/gpu-loader.sh"
gpu_loader "$build"/vkbench
vk="$build/vkbench"
mod="$build/libvkbench_cuda.so"
aside=/tmp/nocuda-module
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv; } \
    > "$out/devices.txt" 2>&1 || true
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv -lms 250 > "$out/smi.csv" 2>&1 &
smi=$!
# with CUDA in reach
XDG_CACHE_HOME=/tmp/nocuda-cache-with "$vk" --wide --json "$out/with.json" > "$out/with.txt" 2>&1
rc_with=$?
# with the module out of reach (moved, and put back whatever happens)
mkdir -p "$aside"
[ -f "$mod" ] && mv "$mod" "$aside/"
trap '[ -f "$aside/libvkbench_cuda.so" ] && mv "$aside/libvkbench_cuda.so" "$mod"' EXIT INT TERM
XDG_CACHE_HOME=/tmp/nocuda-cache-without "$vk" --wide --json "$out/without.json" > "$out/without.txt" 2>&1
rc_without=$?
[ -f "$aside/libvkbench_cuda.so" ] && mv "$aside/libvkbench_cuda.so" "$mod"
kill "$smi" 2>/dev/null || true
python3 - "$out/with.json" "$out/without.json" "$rc_with" "$rc_without" "$out/with.txt" "$out/without.txt" <<'PY'
import json, re, sys
docs = [json.load(open(p)) for p in sys.argv[1:3]]
texts = [open(p, errors="replace").read() for p in sys.argv[5:7]]
def val(doc, fam, var, backend="vulkan"):
    for r in doc["results"]:
        if r["family"] == fam and r["variant"] == var and r["backend"] == backend and r["status"] == "ok":
            return r["metric"]["value"]
    return None
def fmt(x):
    return "-" if x is None else f"{x:.1f}"
def ceil_pct_max(doc):
    f = [r["metric"]["fraction"] for r in doc["results"] if r["status"] == "ok" and r["metric"]
         and r["metric"]["name"] == "GB/s" and r["metric"]["ceiling_variant"] in ("api_copy", "stream_copy")
         and r["metric"]["fraction"] is not None]
    return f"{100 * max(f):.0f}%" if f else "-"
def probe(text):
    m = re.findall(r"(cache probe[^\n]*)", text)
    return m[-1][:90] if m else "(no probe line: CUDA's L2 or a kept file)"
print(f"{'':34} {'with CUDA':>12} {'without CUDA':>14}")
rows = [("copy/vec4 GB/s (first family)", [fmt(val(d, "copy", "vec4")) for d in docs]),
        ("copy/api_copy (vkCmdCopyBuffer)", [fmt(val(d, "copy", "api_copy")) for d in docs]),
        ("copy/stream_copy (Vulkan shader)", [fmt(val(d, "copy", "stream_copy")) for d in docs]),
        ("Vulkan ceiling = max of the two", [fmt(max([x for x in (val(d, "copy", "api_copy"),
                                             val(d, "copy", "stream_copy")) if x is not None], default=None))
                                             for d in docs]),
        ("cudaMemcpy (copy/api_copy, cuda)", [fmt(val(docs[0], "copy", "api_copy", "cuda")), "-"]),
        ("largest memory-row ceil%", [ceil_pct_max(d) for d in docs]),
        ("SUSPECT rows", [str(sum(r["suspect"] for r in d["results"])) for d in docs]),
        ("exit code", sys.argv[3:5])]
for name, v in rows:
    print(f"{name:34} {v[0]:>12} {v[1]:>14}")
for label, t in zip(("with", "without"), texts):
    print(f"cache probe {label}: {probe(t)}")
PY
