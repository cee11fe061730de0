#!/usr/bin/env bash
# The CUDA code under NVIDIA's compute-sanitizer: memcheck (with the leak check), racecheck,
# synccheck and initcheck over the CUDA tests of test_gpuofdm_core and test_gpuofdm_blocks,
# run from the GPU bundle (scripts/make_gpu_bundle.sh copies this script into it). The
# filters keep each run to a few minutes on an H100; every run has a time limit. Exits
# non-zero on any error, a failed test or a run past its limit, and prints a summary.
#   gpu_sanitize.sh [TOOL...]      (memcheck racecheck synccheck initcheck; default all)
# Bundle: the folder of this script when it holds run.sh, else $GPUOFDM_BUNDLE (default
# gpu-bundle beside the scripts folder). Logs: $GPUOFDM_SANITIZE_LOGS (default
# BUNDLE/sanitize-logs). compute-sanitizer: on PATH or /usr/local/cuda/bin.
# SPDX-License-Identifier: GPL-3.0-or-later
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -x "$here/run.sh" ]; then
    bundle="$here"
else
    bundle="${GPUOFDM_BUNDLE:-$here/../gpu-bundle}"
fi
[ -x "$bundle/run.sh" ] || { echo "gpu_sanitize: no bundle at $bundle (scripts/make_gpu_bundle.sh)" >&2; exit 2; }
sanitizer="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
[ -x "$sanitizer" ] || { echo "gpu_sanitize: compute-sanitizer not found" >&2; exit 2; }
logs="${GPUOFDM_SANITIZE_LOGS:-$bundle/sanitize-logs}"
mkdir -p "$logs"
limit_s="${GPUOFDM_SANITIZE_LIMIT_S:-420}"

# The CUDA tests, without the long ones (a 10000-frame stream, a BER curve) that add no
# kernel or path the others do not run.
core_all='*cuda*:*_device*:viterbi_device.*:ofdm_cuda_stage.*:cuda_context.*:PfbTimingSync.Cuda*'
core_long='wifi_rx.cuda_stream_of_10000_frames_loses_none:viterbi_ber_cuda.*'
blocks_all='*Cuda*:GpuFaults.*'
# racecheck costs most: one test a stage or chain, every kernel with shared memory in it.
# (viterbi_cuda.* alone outlasts the limit under racecheck: one launch of each kernel shape,
# viterbi_cuda.every_kernel_matches_cpu_twin_bit_exact, stands for them.)
core_race='scrambler.cuda*:conv_encoder.cuda*:interleaver.cuda*:mapper.cuda_matches_cpu:'\
'demapper.cuda*:viterbi_cuda.every_kernel_matches_cpu_twin_bit_exact:reed_solomon_cuda.*:'\
'depuncture_cuda.*:'\
'ofdm_stage_test.*:wifi_sync.cuda_equals_cpu:wifi_decode.cuda_equals_cpu_mixed_batch:'\
'wifi_tx.cuda_matches_cpu_every_rate:wifi_rx.cuda_equals_cpu_twin:wimax_sync.cuda_matches_cpu_on_small_pieces:'\
'wimax_tx.cuda_matches_cpu_every_profile:wimax_rx.cuda_matches_cpu:'\
'PfbTimingSync.CudaMatchesCpu:wideband_channelizer.cuda_matches_cpu:cell_search.cuda_matches_cpu:'\
'PrachDetectorCuda.MatchesCpuFormat*:PrachFrontendCuda.MatchesCpu*'
blocks_race='ScramblerBlock.CudaMatchesCpu:OfdmFftBlock.CudaMatchesCpu:WifiRxBlock.CudaAndCpuGiveTheSamePdus'

tools=("$@")
[ "${#tools[@]}" -gt 0 ] || tools=(memcheck racecheck synccheck initcheck)
status=0
summary=()
for tool in "${tools[@]}"; do
    extra=()
    case "$tool" in
        memcheck) extra=(--leak-check full) ; cf="$core_all-$core_long" ; bf="$blocks_all" ;;
        racecheck) cf="$core_race" ; bf="$blocks_race" ;;
        synccheck | initcheck) cf="$core_all-$core_long" ; bf="*Cuda*" ;;
        *) echo "gpu_sanitize: unknown tool $tool" >&2; exit 2 ;;
    esac
    for bin in test_gpuofdm_core test_gpuofdm_blocks; do
        filter="$cf"
        [ "$bin" = test_gpuofdm_blocks ] && filter="$bf"
        log="$logs/$tool-$bin.log"
        start=$(date +%s)
        timeout "$limit_s" "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 99 \
            --target-processes all "$bundle/run.sh" "$bin" --gtest_filter="$filter" \
            --gtest_brief=1 >"$log" 2>&1
        rc=$?
        secs=$(( $(date +%s) - start ))
        errors=$(grep -o 'ERROR SUMMARY: [0-9]* error' "$log" | tail -1 | grep -o '[0-9]*' || true)
        # racecheck ends with its own line: "RACECHECK SUMMARY: H hazards displayed (E errors, ...)"
        [ -n "$errors" ] || errors=$(grep -o 'RACECHECK SUMMARY: [0-9]* hazards displayed ([0-9]* error' \
            "$log" | tail -1 | sed 's/.*(\([0-9]*\) error/\1/' || true)
        tests=$(grep -o '\[  PASSED  \] [0-9]* test' "$log" | grep -o '[0-9]*' || echo 0)
        failed=$(grep -c '^\[  FAILED  \]' "$log" || true)
        result=ok
        if [ "$rc" -eq 124 ]; then
            result="TIMEOUT after ${limit_s} s"
        elif [ "$rc" -ne 0 ] || [ "${errors:-x}" != 0 ] || [ "$failed" -ne 0 ]; then
            result="FAILED (exit $rc)"
        fi
        [ "$result" = ok ] || status=1
        summary+=("$(printf '%-10s %-20s %4s tests passed  %5s sanitizer errors  %4s s  %s' \
            "$tool" "$bin" "$tests" "${errors:-?}" "$secs" "$result")")
        echo "${summary[-1]}"
    done
done
echo
echo "compute-sanitizer summary ($("$sanitizer" --version | grep -o 'Version [0-9.]*' | head -1);" \
    "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)):"
printf '  %s\n' "${summary[@]}"
if [ "$status" -ne 0 ]; then
    echo "gpu_sanitize: FAILED; logs in $logs (grep -n 'Error\|Invalid\|Leaked\|FAILED')" >&2
fi
exit "$status"
