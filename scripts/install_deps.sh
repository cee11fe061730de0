#!/usr/bin/env bash
# Installs the Debian 12 packages gr-gpuofdm builds and tests with. The CUDA toolkit is
# not a Debian main package: it is expected at /usr/local/cuda (without it the module
# builds its CPU twins only). With "screenshots": also what scripts/grc_screenshots.sh and
# the layout test of the examples need (Xvfb, GTK for Python: GRC's canvas).
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
packages=(
    build-essential cmake pkg-config git
    gnuradio-dev libvolk2-dev libfftw3-dev libspdlog-dev libfmt-dev libgmp-dev zlib1g-dev
    libboost-dev libboost-program-options-dev libboost-thread-dev
    pybind11-dev python3-dev python3-numpy
    libgtest-dev
)
if [ "${1:-}" = "screenshots" ]; then
    packages+=(xvfb xauth python3-gi python3-gi-cairo gir1.2-gtk-3.0)
fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "gr-gpuofdm: Debian packages present"
    exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "gr-gpuofdm: installing ${missing[*]}"
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
