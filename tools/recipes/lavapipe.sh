#!/bin/sh
# lavapipe.sh fetch | unpack | drivers | libs: lavapipe beside the NVIDIA driver in one process (two-drivers.recipe).
#   fetch   (with network) Debian 12's mesa-vulkan-drivers and the libraries it needs there, as .deb files, into
#           .lvp12/ at the repository root (ignored by git; .lvp/ is Mesa 26, tools/setup-lavapipe26.sh)
#   unpack  (no network) those .deb files into .lvp12/root, with a driver manifest naming its libvulkan_lvp.so
#   drivers VK_DRIVER_FILES: the NVIDIA driver's manifest (NVIDIA_ICD, else where the driver put it) and lavapipe's
#   libs    the folder of lavapipe's libraries, for LD_LIBRARY_PATH
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
lvp=$root/.lvp12
lib=$lvp/root/usr/lib/x86_64-linux-gnu
pkgs="mesa-vulkan-drivers libllvm15 libdrm2 libdrm-amdgpu1 libwayland-client0 libx11-6 libx11-xcb1 libxcb1
libxcb-dri3-0 libxcb-present0 libxcb-sync1 libxcb-xfixes0 libxcb-randr0 libxcb-shm0 libxshmfence1 libxau6 libxdmcp6
libbsd0 libmd0 libz3-4 libelf1 libedit2 libsensors5 libxml2 libicu72 libffi8 libzstd1 libexpat1"
case ${1:-} in
fetch)
    mkdir -p "$lvp"
    # shellcheck disable=SC2086
    (cd "$lvp" && apt-get download $pkgs)
    echo "lavapipe.sh: $(ls -1 "$lvp"/*.deb | wc -l) .deb files in $lvp"
    ;;
unpack)
    rm -rf "$lvp/root"
    for f in "$lvp"/*.deb; do dpkg -x "$f" "$lvp/root"; done
    printf '{"file_format_version": "1.0.0", "ICD": {"library_path": "%s/libvulkan_lvp.so", "api_version": "1.3.230"}}\n' \
        "$lib" > "$lvp/root/lvp_icd.json"
    ;;
drivers)
    nv=${NVIDIA_ICD:-/usr/share/vulkan/icd.d/nvidia_icd.json}
    [ -f "$nv" ] || nv=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    echo "$nv:$lvp/root/lvp_icd.json"
    ;;
libs) echo "$lib" ;;
*) echo "usage: lavapipe.sh fetch | unpack | drivers | libs" >&2; exit 2 ;;
esac
