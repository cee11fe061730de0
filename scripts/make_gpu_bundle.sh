#!/usr/bin/env bash
# Gathers the core test, the block test, the benchmark and the demo with the non-system
# shared libraries they load (GNU Radio, VOLK, Boost, spdlog, fmt, FFTW, ...) into one
# folder, so they run on a machine that has the CUDA driver and toolkit but no GNU Radio.
#   scripts/make_gpu_bundle.sh [BUILD_DIR] [OUT_DIR]      (defaults: build, gpu-bundle)
# Then, there:  OUT_DIR/run.sh test_gpuofdm_core | test_gpuofdm_blocks | gpuofdm_bench ... |
#                  gpuofdm_demo ... | gpuofdm_cycles ...;  OUT_DIR/gpu_sanitize.sh
# libc, libm, libstdc++, libgcc_s, the loader and the CUDA libraries stay behind: the
# target machine's own are used.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$src/build}"
out="${2:-$src/gpu-bundle}"
bins=(lib/tests/test_gpuofdm_core lib/tests/blocks/test_gpuofdm_blocks apps/gpuofdm_bench/gpuofdm_bench apps/gpuofdm_demo/gpuofdm_demo apps/gpuofdm_per/gpuofdm_per
      apps/gpuofdm_cycles/gpuofdm_cycles apps/gpuofdm_cellsearch/gpuofdm_cellsearch
      apps/gpuofdm_prach/gpuofdm_prach apps/gpuofdm_cellsearch/gpuofdm_cellsearch_pd)

rm -rf "$out"
mkdir -p "$out/lib"
system='^(linux-vdso|ld-linux|libc|libm|libstdc\+\+|libgcc_s|libdl|libpthread|librt|libcuda|libcudart|libcufft|libnvrtc|libnvJitLink)\.'
for b in "${bins[@]}"; do
    if [ ! -x "$build/$b" ]; then
        echo "make_gpu_bundle: $build/$b is missing; build first" >&2
        exit 1
    fi
    cp "$build/$b" "$out/"
    # Process substitution, not a pipe: an exit here must end the script, not a subshell.
    while read -r name path; do
        [[ "$name" =~ $system ]] && continue
        [ -f "$path" ] || { echo "make_gpu_bundle: $name not found" >&2; exit 1; }
        cp -nL "$path" "$out/lib/$name"
    done < <(ldd "$build/$b" | awk '/=>/ { print $1, $3 }')
done
# The standards' vectors travel too (they stay out of the repository), for the vector tests.
vectors="${GPUOFDM_TESTVECTORS:-$src/../shared/testvectors}"
[ -d "$vectors" ] && cp -r "$vectors" "$out/testvectors"
cat > "$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs one of the bundled programs with the bundled libraries and the machine's CUDA.
here="$(cd "$(dirname "$0")" && pwd)"
export LD_LIBRARY_PATH="$here/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
[ -d "$here/testvectors" ] && export GPUOFDM_TESTVECTORS="${GPUOFDM_TESTVECTORS:-$here/testvectors}"
prog="$1"; shift
exec "$here/$prog" "$@"
RUN
chmod +x "$out/run.sh"
# The checks run there (docs/RELIABILITY.md): compute-sanitizer over the CUDA tests.
cp "$src/scripts/gpu_sanitize.sh" "$out/"
echo "gpu bundle: $out ($(du -sh "$out" | cut -f1)): ${bins[*]##*/}"
