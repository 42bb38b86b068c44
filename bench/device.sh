#!/usr/bin/env bash
# device.sh - set up an NVIDIA GPU machine as shared/DEVICE.md describes (the
# OpenCL ICD loader and headers from .dev/debs, the NVIDIA ICD), build
# sortnet with core + OpenCL only into $SN_BUILD (default /tmp/snb), then run
# the given command with $SN (the binary) in its environment, e.g.
#
#   bench/device.sh '$SN gpu bench bitonic --sizes 2^20,2^24 --type u32'
#
# Fetch the .debs once beside the checkout (shared/DEVICE.md):
#   mkdir -p .dev/debs && (cd .dev/debs && apt-get download \
#       ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers clinfo)
set -euo pipefail
cd "$(dirname "$0")/.."
for f in .dev/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
mkdir -p /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
clinfo -l
build=${SN_BUILD:-/tmp/snb}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSORTNET_WITH_SDL=OFF \
    -DSORTNET_WITH_CAIRO=OFF -DSORTNET_WITH_JANSSON=OFF -DSORTNET_BUILD_BENCH=OFF -DSORTNET_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
export SN="$build/src/cli/sortnet"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader || true
[ $# -gt 0 ] && eval "$@"
