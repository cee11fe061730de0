/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIFI_SYNC_H
#define GPUOFDM_CORE_WIFI_SYNC_H

// 802.11a (clause 17) packet detection and synchronization over a buffer of complex
// samples at 20 Msps, on the CPU twin or a CUDA device: the short training field's
// delay-16 autocorrelation against power (detection and coarse CFO), the long training
// field's matched filter (fine timing) and its delay-64 autocorrelation (fine CFO).

#include "ofdm/constellation.h"
#include "runtime/device.h"
#include "runtime/rounded_math.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

//! Synchronizer parameters.
struct wifi_sync_params {
    /*!
     * Detection threshold on m[n] = |c[n]| / p[n], in (0, 1) exclusive, with
     * c[n] = sum_{k<48} x[n+k] conj(x[n+k+16]) and p[n] the larger of the powers of the
     * two windows, sum_{k<48} |x[n+k]|^2 and sum_{k<48} |x[n+k+16]|^2 (so m <= 1, and the
     * end of a loud burst followed by quiet, where |c| / the later power alone grows as
     * the square root of the SNR, does not look like a plateau): about SNR / (1 + SNR) on
     * the short training field, about 0 on noise and on OFDM data. gr-ieee802-11 uses 0.56.
     */
    float threshold = 0.56f;
    //! Consecutive samples with m[n] > threshold that make a detection: 16 .. 96.
    size_t min_plateau = 32;
    /*!
     * p[n] below this (mean power per sample times 48) is never a detection, so digital
     * silence (all zeros) does not trigger: >= 0.
     */
    float min_power = 1e-12f;
    /*!
     * A detection whose long training matched filter peaks below this (ltf_metric, 0 .. 1)
     * is not a frame: real frames give about sqrt(SNR / (1 + SNR)) (0.7 at 0 dB), bursts
     * that merely repeat every 16 samples far less. 0 .. 1 exclusive of 1.
     */
    float min_ltf_metric = 0.35f;
    /*!
     * The CUDA backend allocates for buffers of at most this many samples (9 bytes of
     * device memory and 8 pinned a sample, plus the candidate lists); detect() cuts longer
     * buffers into such pieces, overlapping by min_plateau + 352 samples so that every
     * detection point is decided and timed inside one piece. 4096 .. 2^26.
     */
    size_t max_samples_per_batch = size_t(1) << 22;

    //! The ranges above; throws std::invalid_argument("name: range, got value").
    void validate() const;
};

//! A detection point and its fine timing, as a backend finds it (wifi_sync_common.h).
struct wifi_sync_candidate;

//! One detected frame.
struct wifi_sync_result {
    /*!
     * Index (in the buffer given to detect()) of the first sample of the first long
     * training symbol T1, the sample right after the 32-sample GI2: the standard's frame
     * then has its SIGNAL symbol's cyclic prefix at ltf_start + 128.
     */
    size_t ltf_start = 0;
    /*!
     * Carrier frequency offset in radians per sample (coarse from the short training
     * field plus fine from the long one): the receiver derotates sample i by
     * exp(-j cfo i). At 20 Msps, cfo = 2 pi f / 20e6 (f in Hz).
     */
    float cfo = 0.0f;
    //! The detection plateau's metric m (0 .. 1) at the detection point.
    float metric = 0.0f;
    /*!
     * Normalized long-training matched-filter peak (0 .. 1): |sum y conj(L)| over the
     * 64 samples of T1 / sqrt(sum |y|^2 sum |L|^2) after the CFO correction.
     */
    float ltf_metric = 0.0f;
};

/*!
 * \brief 802.11a synchronizer (17.3.3): finds frames in a buffer.
 *
 * A detection is the first sample n where the run of m[k] > threshold (and p[k] >=
 * min_power) reaches min_plateau samples; the coarse CFO is -arg(c[n]) / 16. Then, on
 * samples derotated by the coarse CFO, the 64-sample time-domain long training symbol is
 * matched over a window that holds T1 for any detection point on the plateau; the peak
 * gives ltf_start (T2 = ltf_start + 64 is checked to correlate too); the fine CFO is
 * -arg(sum_{k<64} y[s+k] conj(y[s+k+64])) / 64 added to the coarse one. After a frame,
 * the search resumes at ltf_start + 128 + 80 (after SIGNAL), so one short training field
 * gives one frame.
 *
 * Details (wifi_sync_common.h has the exact arithmetic both backends share): non-finite
 * samples count as 0; the coarse CFO uses c[n] at the detection point alone (48 samples of
 * it, no averaging over the run: its error, about 2e-3 rad/sample at 10 dB, is far inside
 * the +-pi/64 the fine estimate can correct); the T1 search covers ltf_start = n + 56 ..
 * n + 224 for a detection point n, maximizing |corr(s)| + |corr(s + 64)| (T1 and T2 jointly,
 * the first maximum on a tie); ltf_metric is taken after the coarse CFO correction. A
 * detection point is used only when its whole search window, T1 and T2 included, is in
 * the buffer (n + 353 <= buffer length); see lookback().
 *
 * Both backends give the same frames (same ltf_start; CFO and metrics equal within
 * float rounding), frames in increasing ltf_start.
 */
class wifi_sync
{
public:
    virtual ~wifi_sync() = default;

    const wifi_sync_params& params() const { return d_params; }
    virtual device_spec device() const = 0;

    /*!
     * Frames in x[0 .. n) whose long training field lies wholly inside the buffer
     * (ltf_start + 128 <= n) and whose ltf_start >= search_from. Detection points need
     * the 353 samples after them (their T1 search window), so a frame that starts less
     * than lookback() samples before the end may not be found: call again with the tail
     * kept (the receiver keeps the last lookback() samples). A frame before search_from
     * is not returned but still holds the search until its resume point, so a frame
     * already reported from the kept tail is not reported twice. Throws
     * std::invalid_argument ("x: ") for a null pointer with n > 0.
     */
    std::vector<wifi_sync_result> detect(const cfloat* x, size_t n, size_t search_from = 0);

    /*!
     * \brief As detect(), but \p d_x is device memory of this synchronizer's GPU holding
     * samples already free of non-finite values (a receiver's uploaded batch), so nothing
     * is copied in. The work is queued on the synchronizer's stream after what the caller
     * queued there (a chain whose stages share one cuda_context: the upload need not be
     * waited for); it returns once the detections are back. The CUDA backend only; the
     * CPU twin throws std::logic_error.
     */
    std::vector<wifi_sync_result> detect_device(const cfloat* d_x,
                                                size_t n,
                                                size_t search_from = 0);

    /*!
     * Samples before the end of a buffer where a frame may start but not be found yet: a
     * frame whose short training field starts at least lookback() samples before the end
     * is found. The detection point lies up to about 90 samples into the short training
     * field (min_plateau 96, low SNR; about 30 with the default 32) and its fine timing
     * reads the 353 samples from there (the T1 search window of 169 offsets 56 samples on,
     * then T1 and T2): about 440 samples, rounded up to 512 for margin. (The preamble and
     * SIGNAL alone, 400, are not enough for min_plateau >= 64.)
     */
    static constexpr size_t lookback() { return 512; }

protected:
    //! Validates \p p and builds the long training symbol both backends match against.
    explicit wifi_sync(const wifi_sync_params& p);

    /*!
     * Backend: appends, in increasing n, every candidate n < n_end of x[0 .. n_samples),
     * with its fine timing (n_end + cand_span - 1 <= n_samples; wifi_sync_common.h).
     */
    virtual void find_candidates(const cfloat* x,
                                 size_t n_samples,
                                 size_t n_end,
                                 std::vector<wifi_sync_candidate>& out) = 0;
    //! As find_candidates(), x clean device memory (detect_device()); by default throws.
    virtual void find_candidates_device(const cfloat* x,
                                        size_t n_samples,
                                        size_t n_end,
                                        std::vector<wifi_sync_candidate>& out);

    wifi_sync_params d_params;
    //! The time-domain long training symbol.
    std::vector<rounded::cpx> d_ltf;
    //! sum |L|^2 in the order ltf_quality() expects.
    float d_ltf_energy = 0.0f;

private:
    //! What detect() and detect_device() share: checks x, works out which detection points
    //! have room for their fine timing, asks the backend for its candidates and applies
    //! wifi_sync_select() (wifi_sync_common.h), so both backends take the same frames.
    std::vector<wifi_sync_result> detect_any(const cfloat* x,
                                             size_t n,
                                             size_t search_from,
                                             bool on_device);
};

//! The CPU twin or the CUDA backend (on \p ctx, the chain's context, when given); throws
//! std::invalid_argument for a bad parameter.
std::unique_ptr<wifi_sync> make_wifi_sync(const wifi_sync_params& p,
                                          const device_spec& dev,
                                          const cuda_context_ptr& ctx = nullptr);

//! The backends make_wifi_sync() picks (wifi_sync_cpu.cc, wifi_sync_cuda.cu); callers use
//! make_wifi_sync().
std::unique_ptr<wifi_sync> make_wifi_sync_cpu(const wifi_sync_params& p);
#ifdef GPUOFDM_HAVE_CUDA
std::unique_ptr<wifi_sync> make_wifi_sync_cuda(const wifi_sync_params& p,
                                               const device_spec& dev,
                                               const cuda_context_ptr& ctx = nullptr);
#endif

//! The 64 samples of one long training symbol in time (17.3.3, Table G.6 without the
//! GI2), at the level of wifi_tx with scale 1.
std::vector<cfloat> wifi_long_training_time();

} // namespace gr::gpuofdm::core

#endif
