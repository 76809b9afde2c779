#!/bin/sh
# tools_test.sh VKBENCH PYTHON TOOLS_DIR: the results tooling on real runs of vkbench:
# a sweep streams valid JSON; compare calls two runs of the same thing "same" and flags an injected
# 2x slowdown (exit 1); plot writes non-empty PNG and SVG charts; report writes markdown.
set -eu
vkbench=$1 py=$2 tools=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() { "$vkbench" run copy --variant vec4 --n 64K --reps 200 --warmup-ms 100 --quiet --json "$1"; }

"$vkbench" run copy --n 1K:64K:x4 --reps 3 --warmup-ms 0 --quiet --json "$dir/sweep.json" >/dev/null || exit $?
"$py" "$(dirname "$0")/check_json.py" "$dir/sweep.json" copy
"$py" -c "import json,sys; d=json.load(open(sys.argv[1])); n={r['shape_text'] for r in d['results']}; assert len(n)==4, n" "$dir/sweep.json"

run "$dir/a.json" >/dev/null
run "$dir/b.json" >/dev/null
# lavapipe shares two cores with other tests: run-to-run drift reaches tens of percent, so both compares
# use a 50% noise floor; a 2x slowdown must still be flagged through it
"$py" "$tools/compare.py" --noise-floor 50 "$dir/a.json" "$dir/b.json" | tee "$dir/same.txt"
grep -q "vec4 n=65536 vulkan .* same" "$dir/same.txt"

# inject a 2x slowdown into a copy of run a: times doubled, metric halved
"$py" - "$dir/a.json" "$dir/slow.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["time_ms"]:
        r["time_ms"] = {k: 2 * v for k, v in r["time_ms"].items()}
        r["metric"]["value"] /= 2
json.dump(d, open(sys.argv[2], "w"))
PY
if "$py" "$tools/compare.py" --noise-floor 50 "$dir/a.json" "$dir/slow.json" > "$dir/slow.txt"; then
    echo "compare did not fail on a 2x slowdown"; cat "$dir/slow.txt"; exit 1
fi
grep -q "vec4 n=65536 vulkan .* SLOWER" "$dir/slow.txt"

"$py" "$tools/plot.py" "$dir/sweep.json" --out "$dir/plots" > "$dir/plots.txt"
grep -q "copy_sweep.png" "$dir/plots.txt"
for f in $(cat "$dir/plots.txt"); do [ -s "$f" ] && [ "$(wc -c < "$f")" -gt 1000 ] || { echo "empty chart $f"; exit 1; }; done

"$py" "$tools/report.py" "$dir/sweep.json" > "$dir/report.md"
grep -q "^## copy" "$dir/report.md" && grep -q "| vec4 | n=1024 |" "$dir/report.md"
echo "tools ok"
