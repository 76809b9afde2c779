#!/bin/sh
# glslang16_test.sh - the glslang 16 tier of shaders/CMakeLists.txt, configured (not built) in a scratch folder:
# without glslang 16 (-DVKB_GLSLANG16=OFF) one status line names the shaders left out and their entries are empty
# (their rows skip naming tools/setup-glslang.sh --16); a VKB_GLSLANG16 older than 16 stops the configure step.
# Usage: glslang16_test.sh SOURCE_DIR   exit 0 ok, 1 a check failed
set -u
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "glslang16_test: $*" >&2; exit 1; }

cmake -S "$src" -B "$tmp/off" -DVKB_CUDA=OFF -DVKB_GLSLANG16=OFF >"$tmp/off.log" 2>&1 || { cat "$tmp/off.log"; fail "configure with VKB_GLSLANG16=OFF failed"; }
line=$(grep -- '-- vkbench: no glslang 16' "$tmp/off.log")
[ "$(printf '%s\n' "$line" | grep -c .)" = 1 ] || fail "not one status line about glslang 16: $line"
for row in peak/coopmat_bf16_f32 peak/coopmat_e4m3_f32 matmul/coopmat_khr_bf16; do
    echo "$line" | grep -q "run tools/setup-glslang.sh --16).* $row\( \|\$\)" || fail "status line lacks $row: $line"
done
grep -q '"glslang 16 (bf16, fp8): run tools/setup-glslang.sh --16"' "$tmp/off/spv/peak_coopmat_bf16_f32.c" ||
    fail "peak_coopmat_bf16_f32's entry does not name the set-up step"

# a compiler that says it is 15: refused with one line naming it
printf '#!/bin/sh\necho "Glslang Version: 11:15.2.0"\n' >"$tmp/glslang15"
chmod +x "$tmp/glslang15"
if cmake -S "$src" -B "$tmp/old" -DVKB_CUDA=OFF -DVKB_GLSLANG16="$tmp/glslang15" >"$tmp/old.log" 2>&1; then
    fail "a glslang 15 given as VKB_GLSLANG16 was accepted"
fi
# CMake wraps its errors: the log's lines joined
tr -s '\n ' '  ' <"$tmp/old.log" | grep -q 'glslang15 is not glslang 16 or newer (it says 15' ||
    { cat "$tmp/old.log"; fail "no reason given"; }
echo "glslang16_test: ok"
