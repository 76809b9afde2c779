#!/bin/sh
# new_family_test.sh SOURCE_DIR WORK_DIR [PYTHON [BUILD_DIR]] - a family added by tools/new-family.sh is one
# new folder that builds, lists, validates and times.
#
# On a copy of SOURCE_DIR's tree (git's tracked and unignored files, else host shaders cuda tests tools
# CMakeLists.txt) under WORK_DIR: tools/new-family.sh refuses bad names with exit 2 and writes demo, the copy
# differs from the pristine tree by host/families/demo/ alone, it configures (-DVKB_CUDA=OFF) and builds
# vkbench, `vkbench list` shows demo, `vkbench validate demo` passes, `vkbench run demo --json` times it with
# its rows in the JSON, and its test.cmake's tests pass under ctest. Then two planted bugs in the generated
# shader (a wrong value, 1e-4 off; the last element never written) make validate exit 1: the generated check
# is not vacuous. Then demo declares a second dim, a name no family has (depth): it lists and runs with
# --demo.depth 7 and --depth 7, and another family refuses the flag. Where nvcc is, the CUDA twin demo.cu
# compiles. BUILD_DIR (the calling build, when inside SOURCE_DIR and not ignored by git) is left out of the copy.
# Exit 3 (ctest's skip) where vkbench finds no Vulkan device, after the checks that need none.
set -u
src=$(cd "$1" && pwd)
work=$2
py=${3:-python3}
skip=${4:-}
[ -z "$skip" ] || skip=$(cd "$skip" && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
fail() {
    echo "FAIL: $*"
    exit 1
}
step() {
    echo "== $* ($(date +%H:%M:%S))"
}

rm -rf "$work"
mkdir -p "$work/orig" || fail "cannot make $work"
step "copy the tree of $src"
if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1; then
    (cd "$src" && git ls-files -z --cached --others --exclude-standard | xargs -0 sh -c \
        'for f; do [ -f "$f" ] && case "$PWD/$f" in "$0"/*) ;; *) printf "%s\0" "$f" ;; esac; done' \
        "${skip:-/nonexistent}" | xargs -0 cp --parents -t "$work/orig") || fail "copy of the git tree"
else
    (cd "$src" && cp -R host shaders cuda tests tools CMakeLists.txt "$work/orig") || fail "copy of the tree"
fi
cp -R "$work/orig" "$work/src" || fail "second copy"
tree=$work/src
build=$work/build
new=$tree/tools/new-family.sh

step "names refused"
for bad in Demo 9demo de-mo "de mo" copy latency memory_width ""; do
    out=$(sh "$new" "$bad" 2>&1 >/dev/null)
    rc=$?
    [ "$rc" -eq 2 ] || fail "new-family.sh '$bad': exit $rc, not 2 ($out)"
    [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "new-family.sh '$bad': not one line: $out"
    echo "refused '$bad': $out"
done
mkdir "$work/elsewhere" && sh "$new" demo --dir "$work/elsewhere" >/dev/null &&
    [ -f "$work/elsewhere/demo/demo.c" ] && [ -f "$work/elsewhere/demo/family.cmake" ] ||
    fail "new-family.sh demo --dir did not write there"

step "tools/new-family.sh demo"
(cd "$tree" && sh tools/new-family.sh demo) || fail "new-family.sh demo"
sh "$new" demo 2>/dev/null >/dev/null
[ $? -eq 2 ] || fail "new-family.sh demo a second time: not refused with exit 2"
diffs=$(diff -rq "$work/orig" "$tree")
echo "diff -rq pristine copy: $diffs"
[ "$diffs" = "Only in $tree/host/families: demo" ] || fail "the tree changed beyond host/families/demo/: $diffs"
# the same files but for the ORDER, past the families there (none in elsewhere/)
diff -r -x family.cmake "$work/elsewhere/demo" "$tree/host/families/demo" >/dev/null || fail "--dir wrote other files"

nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ -x "$nvcc" ]; then
    step "the CUDA twin compiles ($nvcc)"
    "$nvcc" -std=c++17 -c "$tree/host/families/demo/demo.cu" -I "$tree/cuda" -I "$tree/host/families" \
        -I "$tree/shaders/common" -o "$work/demo_cu.o" || fail "demo.cu does not compile"
fi

step "configure and build vkbench ($jobs jobs)"
cmake -S "$tree" -B "$build" -DVKB_CUDA=OFF -DCMAKE_BUILD_TYPE=Release > "$work/configure.log" 2>&1 ||
    { cat "$work/configure.log"; fail "configure"; }
if grep -q "no row names a shader" "$work/configure.log"; then   # a .comp of demo that no row compiles
    cat "$work/configure.log"
    fail "configure warned of a shader no row names"
fi
cmake --build "$build" --target vkbench -j "$jobs" > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build"; }
if grep -E "warning:" "$work/build.log" | grep -q "families/demo"; then
    grep -E -A3 "warning:" "$work/build.log"
    fail "the skeleton compiles with warnings"
fi
vkbench=$build/vkbench

step "vkbench list"
"$vkbench" list > "$work/list.txt" || fail "vkbench list"
grep -E '^demo: ' "$work/list.txt" && grep -E '^  axpy ' "$work/list.txt" || fail "vkbench list shows no demo/axpy"
[ "$(grep -E '^[^ ]' "$work/list.txt" | tail -n 1 | cut -d: -f1)" = demo ] || fail "demo is not listed last (ORDER)"

step "vkbench validate demo"
cd "$work" || fail "cd $work"
"$vkbench" -v validate demo --quiet > validate.txt 2> validate.err
rc=$?
cat validate.txt
if [ "$rc" -eq 3 ]; then
    cat validate.err
    echo "skip: no Vulkan device (the build and the listing passed)"
    exit 3
fi
[ "$rc" -eq 0 ] || { cat validate.err; fail "vkbench validate demo: exit $rc"; }
grep -Eq '^axpy +vulkan +1000003 +ok ' validate.txt || fail "validate ran no axpy at n=1000003"
grep -Eq '^axpy +vulkan +257 +ok ' validate.txt || fail "validate ran no axpy at n=257"

step "vkbench run demo --json"
"$vkbench" run demo --reps 3 --warmup-ms 0 --quiet --json x.json > run.txt 2> run.err ||
    { cat run.txt run.err; fail "vkbench run demo"; }
cat run.txt
"$py" "$tree/tests/check_json.py" x.json demo || fail "x.json: check_json.py"
"$py" -c "
import json, sys
r = [x for x in json.load(open('x.json'))['results'] if x['family'] == 'demo']
assert r and all(x['variant'] == 'axpy' and x['status'] == 'ok' for x in r), r
print('x.json: %d rows of demo, all ok' % len(r))
" || fail "x.json: no demo rows, or not ok"

step "the generated test.cmake under ctest"
ctest --test-dir "$build" -R '^vkb\.vk\.demo\.(validate|poison_detected)$' --output-on-failure > ctest.txt 2>&1 ||
    { cat ctest.txt; fail "ctest of demo's tests"; }
grep -q "100% tests passed, 0 tests failed out of 2" ctest.txt || { cat ctest.txt; fail "demo's 2 tests did not run"; }

# plant BUG (a sed expression) in the generated shader: validate must exit 1
plant() {
    comp=$tree/host/families/demo/demo_axpy.comp
    cp "$comp" "$work/comp.orig"
    sed -i "$1" "$comp"
    ! cmp -s "$comp" "$work/comp.orig" || fail "planted bug '$1' changed nothing"
    cmake --build "$build" --target vkbench -j "$jobs" > "$work/build.log" 2>&1 ||
        { cat "$work/build.log"; fail "build"; }
    "$vkbench" validate demo --quiet > planted.txt 2>&1
    rc=$?
    grep -E 'FAIL|failed' planted.txt | head -n 3
    [ "$rc" -eq 1 ] || { cat planted.txt; fail "planted bug '$1': validate exit $rc, not 1"; }
    cp "$work/comp.orig" "$comp"
}
step "planted: a wrong value (y scaled by 1 + 1e-4)"
plant 's/pc\.a \* x\[i\] + y\[i\]/pc.a * x[i] + y[i] * 1.0001/'
step "planted: the last element never written"
plant 's/i < pc\.n;/i + 1u < pc.n;/'
# a dim name no other family has is a size flag of its own, plain and --demo.depth, from the family's table alone
step "a new dimension name: --depth"
demo_c=$tree/host/families/demo/demo.c
sed -i 's/\.dims = {"n"},/.dims = {"n", "depth"},/; s/\.ndims = 1,/.ndims = 2,/; s/\.units = {"4-byte words"},/.units = {"4-byte words", "layers"},/' "$demo_c"
grep -q '"depth"' "$demo_c" || fail "demo.c: the dims line was not found to add depth to"
cmake --build "$build" --target vkbench -j "$jobs" > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build with depth"; }
"$vkbench" list > list.txt || fail "vkbench list with depth"
grep -Eq '^demo: .*--n --depth' list.txt || { cat list.txt; fail "vkbench list does not show demo's --depth"; }
"$vkbench" run --help > help.txt || fail "vkbench run --help"
grep -Eq -- '--depth: layers' help.txt || { cat help.txt; fail "vkbench run --help does not say what --depth counts"; }
for flag in --demo.depth --depth; do
    "$vkbench" run demo $flag 7 --n 257 --reps 3 --warmup-ms 0 --quiet --json depth.json > depth.txt 2>&1 ||
        { cat depth.txt; fail "vkbench run demo $flag 7"; }
    "$py" -c "
import json
r = [x for x in json.load(open('depth.json'))['results'] if x['family'] == 'demo']
assert r and all(x['status'] == 'ok' and x['shape'].get('depth') == 7 for x in r), r
" || { cat depth.txt; fail "run demo $flag 7: no ok row at depth 7"; }
    echo "run demo $flag 7: ok"
done
"$vkbench" run copy --depth 7 > depth.txt 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q "copy takes no --depth" depth.txt || { cat depth.txt; fail "run copy --depth 7: exit $rc, not 2"; }

step "passed"
