#!/bin/sh
# lvp26.sh - run a Debian 12 build of vkbench (or any program) on Mesa 26's lavapipe from tools/setup-lavapipe26.sh.
#
# The program runs through Debian 13's own dynamic loader with the unpacked libraries first on its path, so the
# Vulkan loader, libc and LLVM it gets are the ones that Mesa was built against; VK_DRIVER_FILES makes lavapipe 26
# its only Vulkan device. Nothing in the system changes.
# Usage: tools/lvp26.sh PROGRAM [ARG...]    the program's exit status
#        tools/lvp26.sh --check             exit 0 where installed
#   exit 77 where .lvp/ (or LVP26_DIR) holds no Mesa 26 lavapipe: one line says so (tests skip on 77); with
#   CI=true exit 1 instead: in CI the second implementation is required, and its absence fails every lvp26 test
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${LVP26_DIR:-$root/.lvp}
lib=$dest/root/usr/lib/x86_64-linux-gnu
ldso=$lib/ld-linux-x86-64.so.2
[ -x "$ldso" ] || ldso=$dest/root/lib64/ld-linux-x86-64.so.2
if [ ! -f "$dest/lvp_icd.json" ] || [ ! -x "$ldso" ] || [ ! -f "$lib/libvulkan_lvp.so" ]; then
    if [ "${CI:-}" = true ]; then
        echo "lvp26: CI=true: Mesa 26 lavapipe, required in CI, not installed in $dest (tools/setup-lavapipe26.sh failed?)" >&2
        exit 1
    fi
    echo "lvp26: Mesa 26 lavapipe not installed in $dest (run tools/setup-lavapipe26.sh)" >&2
    exit 77
fi
if [ "${1:-}" = "--check" ]; then exit 0; fi
if [ $# = 0 ]; then echo "usage: tools/lvp26.sh PROGRAM [ARG...]" >&2; exit 2; fi
prog=$1; shift
# the loader takes a path, not a name to look up in PATH
case $prog in */*) ;; *) p=$(command -v "$prog") || { echo "lvp26: no program $prog" >&2; exit 2; }; prog=$p ;; esac
export VK_DRIVER_FILES="$dest/lvp_icd.json" VK_ICD_FILENAMES="$dest/lvp_icd.json"
exec "$ldso" --library-path "$lib:$dest/root/lib/x86_64-linux-gnu" "$prog" "$@"
