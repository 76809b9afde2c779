#!/bin/sh
# gpu-run.sh [ARGS...]: on the NVIDIA test machine, unpack the carried Vulkan loader (.gl/, from
# ../shared/gpu/fetch-loader.sh) and run ./build/vkbench with ARGS. Used through the device tool:
#   run: command "sh tools/gpu-run.sh run copy --backend all", carry [".gl", "build"]
set -e
. "$(dirname "$0")/gpu-loader.sh"
gpu_loader ./build/vkbench
exec ./build/vkbench "$@"
