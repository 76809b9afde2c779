# gpu-loader.sh - sourced by the tools/gpu-*.sh scripts on the NVIDIA test machine: gpu_loader VKBENCH unpacks the
# carried Vulkan loader (.gl/, from ../shared/gpu/fetch-loader.sh) and, where the loader finds no driver for
# VKBENCH, points it at the NVIDIA driver's manifest.
gpu_loader()
{
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
    if ! "$1" devices >/dev/null 2>&1; then
        export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    fi
}
