#!/bin/sh
# gpu-fleet.sh fetch | run [BUILD]: --device all on the NVIDIA test machine with lavapipe beside the NVIDIA driver
# (two Vulkan devices of different vendors in one process, as ../shared/gpu/README.md's 2026-11-24 notes say).
#   fetch (here, with network): Debian 12's mesa-vulkan-drivers and the libraries it needs there as .deb files
#         into .lvp/ (ignored by git);
#   run   (there, no network; carry .gl, .lvp and BUILD, default build): the loader from .gl/ into /, lavapipe from
#         .lvp/ into a private folder with its own driver manifest, VK_DRIVER_FILES naming NVIDIA's and that one;
#         then `validate --device all` (every result right) and the same timed work with --device all and on each
#         device alone; full results under $OUT (or ./gpu-fleet-out), a table of per-device ratios last
#         (metric with --device all / metric alone: 1.00 = no cost of running beside the other device).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
pkgs="mesa-vulkan-drivers libllvm15 libdrm2 libdrm-amdgpu1 libwayland-client0 libx11-6 libx11-xcb1 libxcb1
libxcb-dri3-0 libxcb-present0 libxcb-sync1 libxcb-xfixes0 libxcb-randr0 libxcb-shm0 libxshmfence1 libxau6 libxdmcp6
libbsd0 libmd0 libz3-4 libelf1 libedit2 libsensors5 libxml2 libicu72 libffi8 libzstd1 libexpat1"
timing="--reps 30 --warmup-ms 200"
work1="${GPU_FLEET_WORK1:-run copy reduce --n 16M --variant api_copy,vec4,subgroup,cub_sum $timing}"
work2="${GPU_FLEET_WORK2:-run transpose matmul --size 2048 --variant api_copy,padded,tiled16,cublas_sgemm $timing}"

case "${1:-}" in
fetch)
    mkdir -p .lvp
    # shellcheck disable=SC2086
    (cd .lvp && apt-get download $pkgs)
    ls -1 .lvp | wc -l | xargs echo "gpu-fleet: .deb files in .lvp:"
    ;;
run)
    build=${2:-build}
    out=${OUT:-$here/gpu-fleet-out}
    mkdir -p "$out"
    for f in .gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
    ldconfig
    rm -rf "$here/.lvp/root"
    root="$here/.lvp/root"
    for f in .lvp/*.deb; do dpkg -x "$f" "$root"; done
    lib="$root/usr/lib/x86_64-linux-gnu"
    printf '{"file_format_version": "1.0.0", "ICD": {"library_path": "%s/libvulkan_lvp.so", "api_version": "1.3.230"}}\n' \
        "$lib" > "$root/lvp_icd.json"
    nv=${GPU_FLEET_ICD:-/usr/share/vulkan/icd.d/nvidia_icd.json}   # GPU_FLEET_*: a smoke test on another machine
    [ -f "$nv" ] || nv=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    export VK_DRIVER_FILES="$nv:$root/lvp_icd.json" LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    vkb="$build/vkbench"
    "$vkb" devices > "$out/devices.txt" 2>&1
    grep -E '^[0-9]+: ' "$out/devices.txt"
    "$vkb" validate copy transpose reduce --device all --json "$out/validate-all.json" > "$out/validate-all.txt" 2>&1
    echo "validate --device all: exit $?"
    for w in 1 2; do
        eval "work=\$work$w"
        # shellcheck disable=SC2086
        "$vkb" $work --device all --json "$out/all-$w.json" > "$out/all-$w.txt" 2>&1
        echo "$work --device all: exit $?"
        for d in 0 1; do
            # shellcheck disable=SC2086
            "$vkb" $work --device "$d" --json "$out/alone-$w-$d.json" > "$out/alone-$w-$d.txt" 2>&1
            echo "$work --device $d alone: exit $?"
        done
    done
    python3 - "$out" <<'EOF'
import json, statistics, sys
out = sys.argv[1]
def rows(path, index=None):
    doc = json.load(open(path))
    names = {(d["backend"], d.get("index", 0)): d["name"] for d in doc["devices"]}
    res = {}
    for r in doc["results"]:
        i = r.get("device_index", 0)
        if index is not None and i != index or r["status"] != "ok" or not (r.get("metric") or {}).get("value"):
            continue
        res[(i, r["family"], r["variant"], r["shape_text"], r["backend"])] = (r["metric"]["value"], names.get((r["backend"], i)))
    return res
together, alone = {}, {}
for w in (1, 2):
    together.update(rows(f"{out}/all-{w}.json"))
    for d in (0, 1):
        alone.update(rows(f"{out}/alone-{w}-{d}.json", d))
print(f"{'device':<34} {'row':<44} {'alone':>10} {'all':>10} {'all/alone':>9}")
per = {}
for k in sorted(set(together) & set(alone)):
    a, name = alone[k]
    t, _ = together[k]
    per.setdefault((k[0], name), []).append(t / a)
    print(f"{k[0]}: {name[:30]:<31} {' '.join(k[1:]):<44} {a:10.4g} {t:10.4g} {t / a:9.3f}")
print()
for (i, name), rs in per.items():
    print(f"device {i} ({name}): {len(rs)} rows, all/alone median {statistics.median(rs):.3f}, "
          f"min {min(rs):.3f}, max {max(rs):.3f}; within 3%: {sum(abs(r - 1) <= 0.03 for r in rs)} of {len(rs)}")
EOF
    ;;
*)
    echo "usage: gpu-fleet.sh fetch | run [BUILD]" >&2
    exit 2
    ;;
esac
