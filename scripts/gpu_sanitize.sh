#!/usr/bin/env bash
# The CUDA code under NVIDIA's compute-sanitizer: memcheck (with the leak check), racecheck,
# synccheck and initcheck over the CUDA tests of test_gpuofdm_core and test_gpuofdm_blocks,
# run from the GPU bundle (scripts/make_gpu_bundle.sh copies this script into it). The
# filters keep each run to a few minutes on an H100; every run has a time limit. Exits
# non-zero on any error, a failed test or a run past its limit, and prints a summary.
#   gpu_sanitize.sh [TOOL...]      (memcheck racecheck synccheck initcheck; default all)
# $GPUOFDM_SANITIZE_RUNS, an extended regex, keeps the runs whose TOOL-NAME matches (e.g.
# 'racecheck-core-viterbi' or 'racecheck-(blocks|core-prach)'): a long tool in several calls.
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
core_all='*cuda*:*_device*:viterbi_device.*:ofdm_cuda_stage.*:cuda_context.*:PfbTimingSync.Cuda*:'\
'Prach*Cuda*'
core_long='wifi_rx.cuda_stream_of_10000_frames_loses_none:viterbi_ber_cuda.*'
blocks_all='*Cuda*:*Gpu:GpuFaults.*'
# racecheck costs most: one test a stage or chain, every kernel with shared memory in it,
# split by family into runs of their own (one list does not end within 480 s).
# The block tests' flowgraphs get more time than their usual 60 s.
export GPUOFDM_TEST_TIMEOUT_S="${GPUOFDM_TEST_TIMEOUT_S:-400}"
# (viterbi_cuda.* alone outlasts the limit under racecheck: the every-kernel test stands for
# them, one run a thread count.)
race_coding='scrambler.cuda*:conv_encoder.cuda*:interleaver.cuda*'
race_mapping='mapper.cuda_matches_cpu:demapper.cuda*'
race_rs='reed_solomon_cuda.*:depuncture_cuda.*'
for threads in 0 1 2 4 8; do
    declare "race_viterbi$threads=viterbi_cuda/viterbi_cuda_threads.*/threads$threads"
done
race_ofdm_wifi='ofdm_stage_test.*:wifi_sync.cuda_equals_cpu:wifi_decode.cuda_equals_cpu_mixed_batch:'\
'wifi_tx.cuda_matches_cpu_every_rate:wifi_rx.cuda_equals_cpu_twin'
race_wimax='wimax_sync.cuda_matches_cpu_on_small_pieces:wimax_tx.cuda_matches_cpu_every_profile:'\
'wimax_rx.cuda_matches_cpu'
race_timing='PfbTimingSync.Cuda*'
race_sync='wideband_channelizer.cuda_matches_cpu:cell_search.cuda_matches_cpu:'\
'wideband_channelizer.push_device_matches_cpu:cell_search_recordings.cuda_delay_line_*'
race_prach='PrachDetectorCuda.MatchesCpuFormat*:PrachFrontendCuda.MatchesCpu*'
blocks_race='ScramblerBlock.CudaMatchesCpu:OfdmFftBlock.CudaMatchesCpu:WifiRxBlock.CudaAndCpuGiveTheSamePdus'

tools=("$@")
[ "${#tools[@]}" -gt 0 ] || tools=(memcheck racecheck synccheck initcheck)
# The runs, one a line: tool, binary, a name for the log, gtest filter.
runs=()
for tool in "${tools[@]}"; do
    case "$tool" in
        memcheck)
            runs+=("$tool test_gpuofdm_core core $core_all-$core_long")
            runs+=("$tool test_gpuofdm_blocks blocks $blocks_all") ;;
        racecheck)
            for family in coding mapping viterbi0 viterbi1 viterbi2 viterbi4 viterbi8 rs ofdm_wifi \
                wimax timing sync prach; do
                filter_var="race_$family"
                runs+=("$tool test_gpuofdm_core core-$family ${!filter_var}")
            done
            runs+=("$tool test_gpuofdm_blocks blocks $blocks_race") ;;
        synccheck | initcheck)
            runs+=("$tool test_gpuofdm_core core $core_all-$core_long")
            runs+=("$tool test_gpuofdm_blocks blocks *Cuda*:*Gpu") ;;
        *) echo "gpu_sanitize: unknown tool $tool" >&2; exit 2 ;;
    esac
done

# One run: its summary line into $logs/NAME.summary, the sanitizer's output into NAME.log.
run_one() {
    local tool="$1" bin="$2" name="$3" filter="$4" extra=()
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    local log="$logs/$tool-$name.log" start rc secs errors tests failed result
    start=$(date +%s)
    timeout "$limit_s" "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 99 \
        --target-processes all "$bundle/run.sh" "$bin" --gtest_filter="$filter" \
        >"$log" 2>&1
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
        result="TIMEOUT after ${limit_s} s (last test started: $(grep -o '^\[ RUN      \] .*' "$log" |
            tail -1 | cut -c14-))"
    elif [ "$rc" -ne 0 ] || [ "${errors:-x}" != 0 ] || [ "$failed" -ne 0 ]; then
        result="FAILED (exit $rc)"
    fi
    printf '%-10s %-20s %4s tests passed  %5s sanitizer errors  %4s s  %s\n' \
        "$tool" "$name" "$tests" "${errors:-?}" "$secs" "$result" >"$logs/$tool-$name.summary"
    cat "$logs/$tool-$name.summary"
}

if [ -n "${GPUOFDM_SANITIZE_RUNS:-}" ]; then
    kept=()
    for r in "${runs[@]}"; do
        read -r tool bin name filter <<<"$r"
        if [[ "$tool-$name" =~ $GPUOFDM_SANITIZE_RUNS ]]; then kept+=("$r"); fi
    done
    [ "${#kept[@]}" -gt 0 ] || { echo "gpu_sanitize: no run matches $GPUOFDM_SANITIZE_RUNS" >&2; exit 2; }
    runs=("${kept[@]}")
fi

# Runs side by side: $GPUOFDM_SANITIZE_JOBS at a time (default 1). Keep it at 1 on one GPU:
# instrumented kernels of several processes time-share the device, and on an H100 seven
# runs at once did not end within 420 s where each alone takes 33 to 130 s.
jobs_max="${GPUOFDM_SANITIZE_JOBS:-1}"
rm -f "$logs"/*.summary
for r in "${runs[@]}"; do
    read -r tool bin name filter <<<"$r"
    run_one "$tool" "$bin" "$name" "$filter" &
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
        wait -n
    done
done
wait
summary=()
status=0
for r in "${runs[@]}"; do
    read -r tool bin name filter <<<"$r"
    line="$(cat "$logs/$tool-$name.summary" 2>/dev/null || echo "$tool $name: no summary")"
    summary+=("$line")
    case "$line" in *" ok") ;; *) status=1 ;; esac
done
echo
echo "compute-sanitizer summary ($("$sanitizer" --version | grep -o 'Version [0-9.]*' | head -1);" \
    "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)):"
printf '  %s\n' "${summary[@]}"
if [ "$status" -ne 0 ]; then
    echo "gpu_sanitize: FAILED; logs in $logs (grep -n 'Error\|Invalid\|Leaked\|FAILED')" >&2
fi
exit "$status"
