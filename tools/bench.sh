#!/bin/sh
# bench.sh [ARGS...]: set up (Debian packages), build, and run vkbench (the default suite unless ARGS
# say otherwise) on the default device.
set -eu
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" >/dev/null
exec ./build/vkbench "$@"
