#!/bin/sh
# setup-lavapipe26.sh - a second Vulkan implementation: Mesa 26's lavapipe (Debian 13 "trixie-backports") in a
# private folder, for running vkbench's tensor-core rows on a CPU.
#
# Debian 12's lavapipe (Mesa 22) has no cooperative matrices, so every tensor-core row skips on it. Mesa 26's
# lavapipe lists VK_KHR_cooperative_matrix with 8x8x8 fragments (fp16->fp32, fp16->fp16, s8->s32, u8->u32, at
# subgroup 8): shapes unlike NVIDIA's 16x16x16, which is what the device-shaped kernels must be tested against.
# This takes trixie-backports' mesa-vulkan-drivers (26.1.x, built against Debian 13's libraries), the Vulkan
# loader and everything they need from Debian's archive through a private apt (own sources, lists and cache, as
# tools/setup-glslang.sh does), unpacks them into DEST (default .lvp/ in the project root, ignored by git) and
# writes DEST/lvp_icd.json, a driver manifest naming that folder's libvulkan_lvp.so. tools/lvp26.sh runs a
# Debian 12 build of vkbench under it (its own loader and libraries); nothing in the system changes.
# Why backports and not sid: the same Mesa 26 with the same 8x8x8 list, changing only with Debian 13's point
# releases instead of every day.
# Needs: apt-get and dpkg, network access to deb.debian.org (or MIRROR).
# Usage: tools/setup-lavapipe26.sh [--force] [DEST]
#   exit 0 ok (already there: nothing done), 1 failure (offline: one line says so)
set -eu
force=0
if [ "${1:-}" = "--force" ]; then force=1; shift; fi

root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-$root/.lvp}
mirror=${MIRROR:-http://deb.debian.org/debian}
# the driver, the loader (the Debian 12 build links libvulkan.so.1: it must be trixie's, beside trixie's libc)
top="mesa-vulkan-drivers/trixie-backports libvulkan1"

mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
if [ "$force" = 0 ] && [ -f "$dest/lvp_icd.json" ] && "$root/tools/lvp26.sh" --check 2>/dev/null; then
    exit 0   # installed and loading
fi
work=$dest/apt
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/debs" "$work/state"
rm -rf "$dest/root"; mkdir -p "$dest/root"
printf 'deb %s trixie main\ndeb %s trixie-backports main\n' "$mirror" "$mirror" >"$work/sources.list"
: >"$work/state/status"
set -- -o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null \
    -o Dir::State::Lists="$work/lists" -o Dir::State::status="$work/state/status" -o Dir::Cache="$work/cache" \
    -o APT::Architecture=amd64 -o APT::Architectures=amd64 -o APT::Sandbox::User=root
if ! apt-get "$@" -q update >"$work/update.log" 2>&1 || grep -q '^\(W\|E\): Failed to fetch' "$work/update.log"; then
    echo "setup-lavapipe26: Debian's archive ($mirror) is out of reach: Mesa 26 lavapipe not installed" >&2
    exit 1
fi
# the packages: the dependency closure (no recommends) of the driver and the loader, the driver from backports;
# an empty dpkg status makes apt resolve against nothing installed, so the closure is complete
apt-get "$@" -q -s --no-install-recommends install $top 2>"$work/resolve.log" \
    | sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1=\2/p' >"$work/packages"
if [ ! -s "$work/packages" ]; then
    echo "setup-lavapipe26: apt could not resolve $top (see $work/resolve.log)" >&2
    exit 1
fi
(cd "$work/debs" && rm -f ./*.deb && xargs apt-get "$@" -q download <"$work/packages" >/dev/null)
for f in "$work/debs"/*.deb; do
    dpkg-deb -x "$f" "$dest/root"
done
lib=$dest/root/usr/lib/x86_64-linux-gnu
[ -f "$lib/libvulkan_lvp.so" ] || { echo "setup-lavapipe26: no libvulkan_lvp.so in the unpacked packages" >&2; exit 1; }
cat >"$dest/lvp_icd.json" <<JSON
{
    "ICD": {
        "api_version": "1.4.0",
        "library_path": "$lib/libvulkan_lvp.so"
    },
    "file_format_version": "1.0.0"
}
JSON
rm -rf "$work/lists" "$work/cache"   # keep only the .deb files it unpacked
echo "setup-lavapipe26: Mesa $(sed -n 's/^mesa-vulkan-drivers=//p' "$work/packages") lavapipe installed in $dest"
