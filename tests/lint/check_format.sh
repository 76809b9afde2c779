#!/bin/sh
# check_format.sh SRC: every C and CUDA file of the tree is formatted as .clang-format says (clang-format 14,
# Debian 12's: another version formats some lines differently). Fix with: clang-format -i FILE
set -eu
cd "$1"
cf=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$cf" ]; then
    echo "check_format: clang-format not found (tools/setup.sh installs it)" >&2
    exit 1
fi
files=$(find host cuda shaders tests tools -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) | sort)
bad=0
for f in $files; do
    if ! "$cf" --dry-run -Werror "$f" >/dev/null 2>&1; then
        echo "check_format: $f differs from .clang-format (clang-format -i $f)" >&2
        bad=$((bad + 1))
    fi
done
[ "$bad" -eq 0 ] || { echo "check_format: $bad of $(echo "$files" | wc -l) files differ ($("$cf" --version))" >&2; exit 1; }
echo "check_format: $(echo "$files" | wc -l) files formatted"
