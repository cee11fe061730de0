#!/usr/bin/env bash
# Builds the Debian package (cpack -G DEB, prefix /usr) in $GPUOFDM_BUILD-deb, unpacks it
# into a temporary root (dpkg -x: no root rights, the system untouched) and checks what
# it holds: the library, the headers under include/gnuradio/gpuofdm, the Python package,
# the GRC blocks, the apps and the examples; then imports `from gnuradio import gpuofdm`
# from there with Debian's /usr/bin/python3 and runs a block, and runs the installed
# gpuofdm_demo. A CUDA build needs the CUDA toolkit's cuFFT (not in the package) on the
# library path: /usr/local/cuda/lib64 is added when it exists.
#   scripts/test_package.sh            the .deb is left in $GPUOFDM_BUILD-deb
# SPDX-License-Identifier: GPL-3.0-or-later
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
deb_build="${GPUOFDM_BUILD}-deb"
cuda=ON
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    cuda=OFF
fi
cmake -S "$GPUOFDM_SRC" -B "$deb_build" -DCMAKE_BUILD_TYPE=Release -DGPUOFDM_CUDA=$cuda \
    -DCMAKE_INSTALL_PREFIX=/usr -DENABLE_TESTING=OFF ${GPUOFDM_CMAKE_ARGS:-} >/dev/null
cmake --build "$deb_build" -j "$GPUOFDM_JOBS"
(cd "$deb_build" && rm -f ./*.deb && cpack -G DEB >/dev/null)
deb="$(ls "$deb_build"/gr-gpuofdm_*.deb)"
echo "package: $deb"
dpkg-deb --info "$deb" | sed -n '/Package:/,/Description:/p'

root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
dpkg -x "$deb" "$root"
fail=0
need() { # a path the package must hold (a glob)
    if ! compgen -G "$root/$1" >/dev/null; then
        echo "test_package: missing $1" >&2
        fail=1
    fi
}
need "usr/lib/libgnuradio-gpuofdm.so*"
need "usr/include/gnuradio/gpuofdm/api.h"
need "usr/include/gnuradio/gpuofdm/wifi_rx.h"
need "usr/lib/cmake/gnuradio-gpuofdm/gnuradio-gpuofdmConfig.cmake"
need "usr/lib/python3/dist-packages/gnuradio/gpuofdm/__init__.py"
need "usr/lib/python3/dist-packages/gnuradio/gpuofdm/sigmf.py"
need "usr/lib/python3/dist-packages/gnuradio/gpuofdm/gpuofdm_python*.so"
need "usr/share/gnuradio/grc/blocks/gpuofdm_wifi_rx.block.yml"
need "usr/share/gnuradio/grc/blocks/gpuofdm.tree.yml"
need "usr/share/gr-gpuofdm/examples/wifi_loopback.grc"
need "usr/bin/gpuofdm_demo"
if compgen -G "$root/usr/include/gr-gpuofdm*" >/dev/null; then
    echo "test_package: headers under the old include/gr-gpuofdm" >&2
    fail=1
fi

libs="$root/usr/lib"
[ "$cuda" = ON ] && [ -d /usr/local/cuda/lib64 ] && libs="$libs:/usr/local/cuda/lib64"
export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONPATH="$root/usr/lib/python3/dist-packages"
cd "$root" # nothing of the source tree on the path
/usr/bin/python3 - <<'PY' || fail=1
import os
from gnuradio import blocks, gr, gpuofdm
assert gpuofdm.__file__.startswith(os.environ["PYTHONPATH"]), gpuofdm.__file__
tb = gr.top_block()
src = blocks.vector_source_c([1j] * 64 * 10, False, 64)
ifft = gpuofdm.ofdm_ifft(64, [16], shift=True, scale=1.0 / 64, device="cpu")
fft = gpuofdm.ofdm_fft(64, [16], shift=True, scale=1.0, device="cpu")
dst = blocks.vector_sink_c(64)
tb.connect(src, ifft, fft, dst)
tb.run()
err = max(abs(v - 1j) for v in dst.data())
assert len(dst.data()) == 640 and err < 1e-5, (len(dst.data()), err)
print("import from the package: ok ({}), ofdm_ifft -> ofdm_fft max error {:.1e}".format(
    gpuofdm.__file__, err))
PY
"$root/usr/bin/gpuofdm_demo" --mode ofdm --device cpu --symbols 1000 | tail -n 1 || fail=1
if [ "$fail" -ne 0 ]; then
    echo "FAIL: the package $deb" >&2
    exit 1
fi
echo "PASS: $deb installs into a root and imports from there"
