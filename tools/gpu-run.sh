#!/bin/sh
# gpu-run.sh [ARGS...]: on the NVIDIA test machine, unpack the carried Vulkan loader (.gl/, from
# ../shared/gpu/fetch-loader.sh) and run ./build/vkbench with ARGS. Used through the device tool:
#   run: command "sh tools/gpu-run.sh run copy --backend all", carry [".gl", "build"]
set -e
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
if ! ./build/vkbench devices >/dev/null 2>&1; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
exec ./build/vkbench "$@"
