#!/bin/sh
# Branch coverage of the host (gcovr) and the tools (python3-coverage) under a chosen ctest subset, and the
# branches on lines changed since REV that no test of the subset reaches:
#     tools/coverage.sh [--rev REV] [--build DIR] [CTEST_REGEX]     (default: --rev HEAD~1, build-cov, -L unit)
# C: a Debug build with --coverage into DIR (its own folder: never the Release build); Python: every python3
# the tests start loads DIR/pycov/sitecustomize.py, which starts coverage (branch mode) in that process.
# Output: the totals, then one line per changed line with a branch never taken (file:line: taken/all: text).
# Exit 0 whatever the coverage; 2 usage, 1 a step failed (the build, or gcovr / python3-coverage missing:
# tools/setup.sh --coverage installs them). The tests' own verdicts are printed but do not change the exit code.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
rev=HEAD~1 build="$root/build-cov" sel="-L unit"
while [ $# -gt 0 ]; do
    case "$1" in
        --rev) [ $# -ge 2 ] || { echo "coverage: --rev needs a revision" >&2; exit 2; }; rev=$2; shift 2 ;;
        --build) [ $# -ge 2 ] || { echo "coverage: --build needs a folder" >&2; exit 2; }; build=$2; shift 2 ;;
        -*) echo "coverage: unknown option $1 (--rev REV, --build DIR, a ctest regular expression)" >&2; exit 2 ;;
        *) sel="-R $1"; shift ;;
    esac
done
for tool in gcovr python3-coverage; do
    command -v $tool >/dev/null || { echo "coverage: no $tool (tools/setup.sh --coverage installs it)" >&2; exit 1; }
done
git -C "$root" rev-parse --verify -q "$rev^{commit}" >/dev/null || { echo "coverage: $rev: not a revision" >&2; exit 2; }
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DVKB_CUDA=OFF -DCMAKE_C_FLAGS=--coverage \
      -DCMAKE_EXE_LINKER_FLAGS=--coverage -DCMAKE_SHARED_LINKER_FLAGS=--coverage >/dev/null ||
    { echo "coverage: cmake failed in $build" >&2; exit 1; }
cmake --build "$build" -j2 >"$build/build.log" 2>&1 || { echo "coverage: the build failed ($build/build.log)" >&2; exit 1; }
find "$build" -name '*.gcda' -delete
py="$build/pycov"
rm -rf "$py" && mkdir -p "$py"
printf '[run]\nbranch = True\nparallel = True\ndata_file = %s/.coverage\nsource = %s/tools\n' "$py" "$root" >"$py/rc"
printf 'import coverage\ncoverage.process_startup()\n' >"$py/sitecustomize.py"
# shellcheck disable=SC2086
COVERAGE_PROCESS_START="$py/rc" PYTHONPATH="$py${PYTHONPATH:+:$PYTHONPATH}" \
    ctest --test-dir "$build" $sel -j2 --timeout 600 >"$build/ctest.log" 2>&1 || true
tail -n 3 "$build/ctest.log" | sed 's/^/ctest: /'
gcovr -r "$root" --object-directory "$build" --filter "$root/host/" --json -o "$build/c.json" "$build" 2>"$build/gcovr.log" ||
    { echo "coverage: gcovr failed ($build/gcovr.log)" >&2; exit 1; }
(cd "$py" && python3-coverage combine --rcfile=rc -q >/dev/null 2>&1 && python3-coverage json --rcfile=rc -q -o "$build/py.json") ||
    echo '{"files": {}}' >"$build/py.json"
git -C "$root" diff -w -U0 --no-color "$rev" -- '*.c' '*.h' '*.comp' '*.glsl' '*.py' >"$build/changed.diff"
python3 - "$root" "$build" "$rev" <<'PY'
import json, os, sys
root, build, rev = sys.argv[1:]
sys.path.insert(0, os.path.join(root, "tools"))
from mutate import parse_diff
changed = parse_diff(open(os.path.join(build, "changed.diff")).read())
new, c_all, c_taken = [], 0, 0
for f in json.load(open(os.path.join(build, "c.json")))["files"]:
    path = os.path.relpath(os.path.join(root, f["file"]), root)
    text = open(os.path.join(root, path), errors="replace").read().split("\n")
    for ln in f["lines"]:
        b = ln.get("branches") or []
        c_all += len(b)
        c_taken += sum(1 for x in b if x["count"] > 0)
        if b and ln["line_number"] in changed.get(path, ()) and any(x["count"] == 0 for x in b):
            taken = sum(1 for x in b if x["count"] > 0)
            new.append(f'{path}:{ln["line_number"]}: {taken}/{len(b)} branches: {text[ln["line_number"] - 1].strip()}')
p_all = p_miss = 0
for path, f in json.load(open(os.path.join(build, "py.json")))["files"].items():
    rel = os.path.relpath(path if os.path.isabs(path) else os.path.join(root, path), root)
    text = open(os.path.join(root, rel), errors="replace").read().split("\n")
    p_all += f["summary"].get("num_branches", 0)
    p_miss += f["summary"].get("missing_branches", 0)
    missing = {}
    for a, b in f.get("missing_branches", []):
        missing.setdefault(a, []).append("exit" if b < 0 else str(b))
    for a in sorted(missing):
        if a in changed.get(rel, ()):
            new.append(f'{rel}:{a}: never to line {", ".join(missing[a])}: {text[a - 1].strip()}')
print(f"C branches taken: {c_taken} of {c_all} ({100 * c_taken / max(c_all, 1):.0f}%); "
      f"Python branches taken: {p_all - p_miss} of {p_all} ({100 * (p_all - p_miss) / max(p_all, 1):.0f}%)")
print(f"{len(new)} changed lines since {rev} with a branch no test of the subset takes:")
for n in new:
    print("  " + n)
PY
