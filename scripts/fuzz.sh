#!/usr/bin/env bash
# The libFuzzer harnesses of fuzz/: a CPU-only clang build (-DGPUOFDM_FUZZ=ON) in a build
# folder of its own, then each harness for a bounded time, starting from its seed corpus
# (fuzz/corpus/<name>, copied: new inputs stay in the build folder). A crash, a leak, a
# sanitizer report, a timeout or a failed check stops that harness with its input saved and
# fails the script.
#   scripts/fuzz.sh [SECONDS_EACH] [HARNESS...]     (default 20 s, every harness; build
#                                                    folder: $GPUOFDM_FUZZ_BUILD, default build-fuzz)
# Prints one line a harness: executions, corpus entries, coverage. With SECONDS_EACH 0 it
# only builds.
# SPDX-License-Identifier: GPL-3.0-or-later
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
build="${GPUOFDM_FUZZ_BUILD:-$GPUOFDM_SRC/build-fuzz}"
seconds="${1:-20}"
shift || true
"$GPUOFDM_SRC/scripts/install_deps.sh"
command -v clang++-14 >/dev/null 2>&1 || command -v clang++ >/dev/null 2>&1 || {
    echo "fuzz: clang is missing (apt-get install clang-14)" >&2
    exit 1
}
cxx="$(command -v clang++-14 || command -v clang++)"
cc="$(command -v clang-14 || command -v clang)"
harnesses=("$@")
if [ "${#harnesses[@]}" -eq 0 ]; then
    for f in "$GPUOFDM_SRC"/fuzz/fuzz_*.cc; do
        harnesses+=("$(basename "$f" .cc)")
    done
fi
cmake -S "$GPUOFDM_SRC" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
    -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" \
    -DGPUOFDM_CUDA=OFF -DGPUOFDM_FUZZ=ON -DENABLE_TESTING=OFF -DGPUOFDM_WERROR=ON \
    ${GPUOFDM_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$GPUOFDM_JOBS" --target "${harnesses[@]}"
[ "$seconds" -gt 0 ] || exit 0

export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
status=0
printf '%-20s %10s %8s %8s %6s\n' harness executions exec/s corpus cov
for h in "${harnesses[@]}"; do
    corpus="$build/corpus/${h#fuzz_}"
    mkdir -p "$corpus" "$build/artifacts"
    [ -d "$GPUOFDM_SRC/fuzz/corpus/${h#fuzz_}" ] && cp -n "$GPUOFDM_SRC/fuzz/corpus/${h#fuzz_}"/* "$corpus"/ 2>/dev/null
    log="$build/$h.log"
    if ! "$build/fuzz/$h" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$build/artifacts/$h-" \
        "$corpus" >"$log" 2>&1; then
        status=1
        tail -n 60 "$log" >&2
        echo "fuzz: $h FAILED (log $log, input in $build/artifacts/)" >&2
    fi
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
    printf '%-20s %10s %8s %8s %6s\n' "$h" "$execs" "$rate" "$(ls "$corpus" | wc -l)" "$cov"
done
exit "$status"
