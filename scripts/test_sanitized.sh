#!/usr/bin/env bash
# The CPU code under AddressSanitizer + UndefinedBehaviorSanitizer: a CPU-only build
# (-DGPUOFDM_SANITIZE=ON -DGPUOFDM_CUDA=OFF) of the core, the blocks, their C++ tests and the
# Python bindings in a build folder of its own, then the core and block tests and the Python
# QA. Any finding stops the test that hit it (halt_on_error) and fails the script.
#   scripts/test_sanitized.sh [gtest args]        (build folder: $GPUOFDM_SANITIZE_BUILD,
#                                                   default build-sanitize)
# SPDX-License-Identifier: GPL-3.0-or-later
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
build="${GPUOFDM_SANITIZE_BUILD:-$GPUOFDM_SRC/build-sanitize}"
"$GPUOFDM_SRC/scripts/install_deps.sh"
# -O1: the sanitizers' usual level, a shorter build than -O2 and tests still fast enough.
cmake -S "$GPUOFDM_SRC" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
    -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DGPUOFDM_CUDA=OFF -DGPUOFDM_SANITIZE=ON -DGPUOFDM_WERROR=ON \
    ${GPUOFDM_CMAKE_ARGS:-}
cmake --build "$build" -j "$GPUOFDM_JOBS" --target test_gpuofdm_core test_gpuofdm_blocks gpuofdm_python
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# The two test binaries side by side (one process each, not one per test as ctest would).
# Left out: the bit error rate curves and the 10000-frame streams, statistical runs of code
# the other tests cover, minutes each under the sanitizers.
core_filter="${GPUOFDM_SANITIZE_CORE_FILTER:--viterbi_ber.*:*10000_frames*}"
status=0
"$build/lib/tests/test_gpuofdm_core" --gtest_filter="$core_filter" "$@" \
    >"$build/sanitized-core.log" 2>&1 &
core=$!
"$build/lib/tests/blocks/test_gpuofdm_blocks" "$@" >"$build/sanitized-blocks.log" 2>&1 || status=1
wait "$core" || status=1
for log in "$build"/sanitized-core.log "$build"/sanitized-blocks.log; do
    tail -n 3 "$log"
done
if [ "$status" -ne 0 ]; then
    grep -h -B2 -A30 -E 'ERROR: (Address|Leak)Sanitizer|runtime error:|\[  FAILED  \]' \
        "$build"/sanitized-*.log | head -n 200 >&2
    echo "test_sanitized: FAILED (logs: $build/sanitized-*.log)" >&2
    exit 1
fi
# The Python QA (not the GRC examples) on the sanitized module: Debian's interpreter is not
# instrumented, so the runtimes are preloaded and leak detection is off (the interpreter's
# own allocations at exit are not the module's).
preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
failed=()
for qa in "$GPUOFDM_SRC"/python/gpuofdm/qa_*.py; do
    [ "$(basename "$qa")" = qa_examples.py ] && continue
    log="$build/sanitized-$(basename "$qa" .py).log"
    if ! LD_PRELOAD="$preload" ASAN_OPTIONS="detect_leaks=0:halt_on_error=1" \
        PYTHONPATH="$build/python" GPUOFDM_SOURCE_DIR="$GPUOFDM_SRC" GPUOFDM_BUILD_DIR="$build" \
        /usr/bin/python3 -B "$qa" >"$log" 2>&1; then
        failed+=("$(basename "$qa")")
        tail -n 40 "$log" >&2
    fi
done
if [ "${#failed[@]}" -ne 0 ]; then
    echo "test_sanitized: Python QA FAILED under ASan + UBSan: ${failed[*]}" >&2
    exit 1
fi
echo "test_sanitized: core and block tests and the Python QA clean under ASan + UBSan"
