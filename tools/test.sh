#!/bin/sh
# test.sh: set up (Debian packages), build, and run every test with ctest on the default Vulkan device
# (lavapipe where there is no GPU), with the validation layer on; then the sanitizer build (AddressSanitizer
# and UBSan, no CUDA) and, in it, the unit tests, the bad-input battery, the argument fuzzer and one validate
# of each family. Exits non-zero on any failure.
set -eu
cd "$(dirname "$0")/.."
tools/setup.sh
tools/setup.sh --plot   # the tests draw charts (plot.py, report.py --html)
# the newer shader compiler (Debian 13's glslang 15, in .glslang/): CI compiles the cooperative-matrix shaders
# and checks them with its spirv-val; where Debian's archive is out of reach the build goes on without them
# (CMake says which; their rows skip naming tools/setup-glslang.sh)
tools/setup-glslang.sh >/dev/null || echo "test.sh: tools/setup-glslang.sh failed: cooperative-matrix shaders not built" >&2
# glslang 16 (Debian forky, in .glslang16/) for the bf16 and fp8 shaders; offline likewise (their rows skip)
tools/setup-glslang.sh --16 >/dev/null || echo "test.sh: tools/setup-glslang.sh --16 failed: bf16 and fp8 shaders not built" >&2
# a second Vulkan implementation, Mesa 26's lavapipe with cooperative matrices (in .lvp/): the lvp26 tests validate
# every family and the tensor-core rows on it; offline they skip (its one line says why), except in CI (CI=true,
# .ci/run), where the second implementation is required: its absence fails the run
if ! tools/setup-lavapipe26.sh >/dev/null; then
    if [ "${CI:-}" = true ]; then
        echo "test.sh: CI=true: tools/setup-lavapipe26.sh failed: the second implementation (Mesa 26's lavapipe) is required in CI" >&2
        exit 1
    fi
    echo "test.sh: tools/setup-lavapipe26.sh failed: the lvp26 tests skip" >&2
fi
start=$(date +%s)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
ctest --test-dir build -j "$(nproc)" --output-on-failure
echo "test.sh: build/ built and tested in $(( $(date +%s) - start )) s"
start=$(date +%s)
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKB_SANITIZE=ON -DVKB_CUDA=OFF >/dev/null
cmake --build build-asan -j "$(nproc)"
# less two that repeat one path many times (the Release pass runs them whole; under the sanitizers they are
# half its time): 200 clean products of the f16 check, and transpose's 65536-tile row (the reduced battery of
# every family at every subgroup width, vkb.vk.validate.sg*, still runs the transposes here)
ctest --test-dir build-asan -j "$(nproc)" --output-on-failure -L 'unit|bad|validate' \
    -E '^(vkb.unit.product.f16_deep_clean|vkb.vk.transpose.sg8)$'
echo "test.sh: build-asan/ (AddressSanitizer, UBSan) built and tested in $(( $(date +%s) - start )) s"
