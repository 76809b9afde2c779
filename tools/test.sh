#!/bin/sh
# test.sh: set up (Debian packages), build, and run every test with ctest on the default Vulkan device
# (lavapipe where there is no GPU), with the validation layer on. Exits non-zero on any failure.
set -eu
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
ctest --test-dir build -j "$(nproc)" --output-on-failure
