#!/bin/sh
# tune_test.sh VKBENCH PYTHON TOOLS_DIR: tools/tune.py runs the variant's defaults and each --spec set of it
# (validated; README's example sets), lists them with their unit, three significant digits, spread and ratio
# to the defaults, names a set the family refuses with the reason, and writes one results document.
set -eu
vkbench=$1 py=$2 tools=$3
"$vkbench" devices >/dev/null 2>&1 || exit $?   # 3: no Vulkan device here, a skip
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$py" "$tools/tune.py" --vkbench "$vkbench" --json "$dir/tune.json" --rounds 2 matmul dbuf \
    BM=64,BN=64,WM=64,WN=64,TM=4,TN=4 BK=16 BM=64 -- --m 70 --n 67 --k 129 --reps 3 --warmup-ms 0 \
    > "$dir/out.txt" 2>/dev/null
cat "$dir/out.txt"
# a row: value (3 significant digits), of ceiling (peak/fma_f32 for the defaults, which run its fallback; none
# where --spec is given), spread, ratio to the defaults with its interval (two rounds, interleaved)
num='(0\.0*[1-9][0-9]{2}|[1-9]\.[0-9]{2}|[1-9][0-9]\.[0-9]|[1-9][0-9]{2,})'
grep -Eq "^constants +backend +GFLOP/s +of ceil +spread +vs defaults " "$dir/out.txt"
grep -Eq "^\(defaults\) +vulkan +$num +(-|[0-9.]+%) +[0-9.]+% +1\.00 ± [0-9.]+x " "$dir/out.txt"
grep -Eq "^BM=64,BN=64,WM=64,WN=64,TM=4,TN=4 +vulkan +$num +- +[0-9.]+% +[0-9.]+ ± [0-9.]+x " "$dir/out.txt"
grep -Eq "^BK=16 +vulkan +$num +- +[0-9.]+% +[0-9.]+ ± [0-9.]+x " "$dir/out.txt"
# a shape the family refuses: vkbench exits 2 with the reason (WM must divide BM), no result
grep -Eq '^BM=64 +- +- .*exit 2: .*WM dividing BM' "$dir/out.txt"
! grep -q nan "$dir/out.txt"
"$py" - "$dir/tune.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["tool"] == "vkbench" and doc["devices"] and doc["tune"]["variant"] == "dbuf", doc.keys()
ok = [r for r in doc["results"] if r["variant"] == "dbuf" and r["status"] == "ok"]
assert sorted((r["repeat"], str(r["constants"])) for r in ok) == [
    (k, c) for k in range(2) for c in ("BK=16", "BM=64,BN=64,WM=64,WN=64,TM=4,TN=4", "None")], ok
assert [c["constants"] for c in doc["tune"]["configs"]] == [None, "BM=64,BN=64,WM=64,WN=64,TM=4,TN=4", "BK=16",
                                                            "BM=64"]
refused = doc["tune"]["configs"][3]
assert refused["exit_code"] == 2 and "WM dividing BM" in refused["message"], refused
PY
