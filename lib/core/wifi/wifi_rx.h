/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIFI_RX_H
#define GPUOFDM_CORE_WIFI_RX_H

// The 802.11a (clause 17) receiver: complex samples at 20 Msps in, decoded PSDUs out.
// wifi_sync finds the frames; the front end (this file) estimates the channel on the long
// training field, decodes SIGNAL and equalizes the DATA symbols with pilot phase
// tracking; wifi_decoder decodes the DATA field. CPU twin, or CUDA from the synchronizer
// on (samples copied to the device once a batch, frames decoded many per launch).

#include "ofdm/channel_fit.h"
#include "ofdm/constellation.h"
#include "runtime/device.h"
#include "runtime/stream_batcher.h"
#include "wifi/wifi_decode.h"
#include "wifi/wifi_sync.h"
#include "runtime/worker_pool.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

//! The SIGNAL field (17.3.4) as decoded.
struct wifi_signal_field {
    bool ok = false;   //!< RATE known, reserved bit 0, even parity, LENGTH 1..4095, tail 0
    int rate_mbps = 0; //!< 0 when RATE is not one of Table 17-5's
    size_t len = 0;    //!< LENGTH
};

/*!
 * \brief The SIGNAL fields from its 24 decoded bits (bit i is the i-th bit sent: RATE R1
 * first).
 */
wifi_signal_field wifi_signal_from_bits(uint32_t bits);

/*!
 * \brief Decodes the 24 bits of SIGNAL from its 48 equalized BPSK points (data carriers in
 * the order of wifi_rx_frame, pilot polarity removed) and their gains |H|^2 / noise:
 * BPSK LLRs, deinterleaving (N_CBPS 48), the full-length Viterbi decoder over 24 steps
 * ending in state 0, then the fields.
 */
wifi_signal_field wifi_decode_signal(const cfloat* points, const float* weight);

//! SIGNAL's deinterleaver (N_CBPS 48: coded bit k is point [k]), 48 entries.
const uint32_t* wifi_signal_permutation();

//! The 52 used bins of 802.11a (the long training field's nonzero bins), increasing.
std::vector<int> wifi_used_bins();

/*!
 * \brief The channel model of the estimator: channels sum_t g_t e^{-j 2 pi k t / 64} with
 * delays t in [-4, taps - 4) samples of the FFT window, fitted and evaluated on the 52
 * used bins k (channel_fit.h).
 */
using wifi_channel_fit = channel_tap_fit;

//! The fit for \p taps delays (taps >= 1; least squares, in double).
wifi_channel_fit wifi_channel_smoother(int taps);

//! Where a frame is and what its channel is, when they are known (a reference receiver).
struct wifi_rx_known {
    size_t ltf_start = 0; //!< first sample of T1 in the buffer
    float cfo = 0.0f;     //!< radians per sample
    /*!
     * nullptr: estimated on the long training field; else the 64 bins (IFFT order) of
     * the channel as the front end sees it: Y_k = H_k X_k + noise, X at the level of the
     * standard's points (BPSK +-1), Y the 64-point FFT (no scaling) of the received T1.
     */
    const cfloat* channel = nullptr;
    float noise_var = 0.0f; //!< with channel: noise variance per FFT bin of Y
};

//! Receiver parameters.
struct wifi_rx_params {
    wifi_sync_params sync;
    wifi_decode_params decode;
    /*!
     * The FFT window of every symbol starts this many samples before the end of its
     * cyclic prefix (0 .. 8): a margin against early timing and the channel's spread; the
     * channel estimate takes the same offset, so it costs only delay-spread margin.
     */
    int fft_backoff = 3;
    //! Common phase error from the 4 pilots, removed per symbol (17.3.5.9).
    bool pilot_tracking = true;
    /*!
     * Instead of the common phase: per symbol, the four pilots' channel ratios (phase and
     * amplitude against the long-training estimate) interpolated linearly across the
     * subcarriers (held beyond the outer pilots), and the channel of every data carrier
     * corrected by its ratio: the pilot-based linear interpolation of seed 004, in
     * frequency; in time it is updated every symbol (802.11a has pilots in every symbol).
     * Follows drifts that differ across the band (a sampling-clock offset's phase slope);
     * noisier than the common phase at low SNR.
     */
    bool pilot_interpolation = false;
    /*!
     * 0: the channel is the plain least-squares estimate on the long training field.
     * 8 .. 48: that estimate fitted (least squares) by a channel of this many taps
     * (delays from 4 samples before the FFT window's start; the cyclic prefix is 16
     * samples): the estimation noise drops to taps / 52 of it. Measured with gpuofdm_per
     * (1000-octet frames, 3 taps): 16 taps gain about 0.8 dB over plain least squares at
     * 6 and 54 Mb/s.
     */
    int channel_taps = 16;
    /*!
     * The receiver decodes when it holds this many samples (or at finish()): the batch,
     * and so the latency (at 20 Msps, 2^18 samples are 13 ms). 2^17 .. 2^24: the longest
     * frame (109681 samples) must fit.
     */
    size_t batch_samples = size_t(1) << 18;

    /*!
     * The ranges above and sync.validate(), decode.validate(); throws
     * std::invalid_argument("name: range, got value").
     */
    void validate() const;
};

//! One received frame.
struct wifi_rx_packet {
    uint64_t ltf_start = 0; //!< stream index of T1's first sample (the frame starts 192 before)
    float cfo = 0.0f;       //!< radians per sample (Hz = cfo * 20e6 / 2 pi)
    float snr_db = 0.0f;    //!< mean |H|^2 over the 52 used carriers / noise, on the LTF
    float sync_metric = 0.0f;
    float ltf_metric = 0.0f;
    wifi_signal_field signal;
    //! The DATA field decoded (empty psdu, fcs_ok false when SIGNAL failed).
    wifi_rx_result data;
};

//! Counters since construction.
struct wifi_rx_stats {
    uint64_t detected = 0;      //!< synchronizer detections
    uint64_t signal_errors = 0; //!< SIGNAL failed (parity, rate, length)
    uint64_t fcs_ok = 0;        //!< decoded with a good FCS
    uint64_t fcs_errors = 0;    //!< decoded, bad FCS
    uint64_t truncated = 0;     //!< the stream ended inside the frame
    uint64_t samples = 0;       //!< samples fed
    //! Wall time spent, seconds: taking samples in (copies), the synchronizer, the
    //! buffer's upload and the channel/SIGNAL estimates, SIGNAL decoding, and the DATA
    //! fields (equalization and decoding): where a batch's time goes.
    double t_input = 0, t_sync = 0, t_estimate = 0, t_signal = 0, t_data = 0;
    //! Of t_data: the DATA-field decoder (wifi_decoder) alone.
    double t_decode = 0;
};

/*!
 * \brief The 802.11a receiver over a stream.
 *
 * Per frame: derotation by the synchronizer's CFO; the two long training symbols
 * (averaged) give the least-squares channel H_k = Y_k / L_k and their difference the
 * noise variance; SIGNAL (pilot polarity p_0) is equalized and decoded; if it is valid,
 * the N_SYM DATA symbols (pilot polarity p_1 ..) are equalized Y_k / H_k with the common
 * phase of the four pilots removed, and handed to wifi_decoder with the gains |H_k|^2 and
 * the noise variance. After a frame with a valid SIGNAL, the search resumes at its end.
 */
class wifi_receiver
{
public:
    virtual ~wifi_receiver() = default;

    const wifi_rx_params& params() const { return d_params; }
    virtual device_spec device() const = 0;
    const wifi_rx_stats& stats() const { return d_stats; }

    /*!
     * Feeds the next \p n samples of the stream; returns the frames completed (decoded
     * when batch_samples samples are held). Non-finite samples are read as 0.
     */
    std::vector<wifi_rx_packet> process(const cfloat* x, size_t n);
    //! End of stream: decodes every complete frame held; frames cut off are counted.
    std::vector<wifi_rx_packet> finish();

    /*!
     * Page-locks caller memory that process() will read (the block's sample chunks), so the CUDA
     * backend sends samples from there to the device without a host copy; false where
     * that is refused or there is no GPU (it only costs speed). unpin_host_ranges()
     * undoes it before the memory goes away.
     */
    virtual bool pin_host_range(const void* /*p*/, size_t /*bytes*/) { return false; }
    virtual void unpin_host_ranges() {}

    /*!
     * One buffer, no stream: frames as wifi_sync finds them (known == nullptr) or at the
     * given places (n_known of them, in order, not overlapping). n <= batch_samples; the
     * samples are copied in as process() takes them, so no stream may be held (throws
     * std::logic_error until finish()).
     */
    std::vector<wifi_rx_packet> decode_buffer(const cfloat* x,
                                              size_t n,
                                              const wifi_rx_known* known = nullptr,
                                              size_t n_known = 0);

protected:
    /*!
     * Validates \p p (wifi_rx_params::validate()). \p ctx: the CUDA backend's context,
     * which the synchronizer shares (null: its own).
     */
    explicit wifi_receiver(const wifi_rx_params& p,
                           const device_spec& dev,
                           const cuda_context_ptr& ctx = nullptr);

    //! Per frame after the synchronizer: what the front end needs.
    struct frame_job {
        size_t ltf_start = 0; //!< in the buffer
        float cfo = 0.0f;
        const cfloat* channel = nullptr; //!< known channel, or nullptr
        float noise_var = 0.0f;
    };
    //! Front end, part 1: channel and noise estimates, SIGNAL points, per frame.
    struct frame_estimate {
        cfloat h[64]; //!< the CPU twin's (the CUDA backend keeps its channels on the device)
        float noise_var = 0.0f;
        float snr = 0.0f;         //!< linear
        uint32_t signal_bits = 0; //!< SIGNAL decoded (wifi_rx_detail::decode_signal_bits)
        //! The CUDA backend's: which of estimate()'s frames this is (its index there), where
        //! equalize_and_decode() finds the frame's channel on the device.
        uint32_t slot = 0;
    };
    /*!
     * Backend: estimates for \p n frames of buffer x (every LTF and SIGNAL inside the
     * buffer). The buffer is the one of the last load().
     */
    virtual void estimate(const frame_job* jobs, size_t n, frame_estimate* out) = 0;
    /*!
     * Backend: equalizes the DATA symbols of each frame (jobs[i], est[i], n_sym[i]
     * symbols) and decodes them with the given SIGNAL fields into out[i]. The frames are
     * some of the last estimate()'s, in its order (est[i].slot says which).
     */
    virtual void equalize_and_decode(const frame_job* jobs,
                                     const frame_estimate* est,
                                     const wifi_signal_field* sig,
                                     size_t n,
                                     wifi_rx_result* out) = 0;
    /*!
     * Backend: the \p n samples become samples [at, at + n) of the batch, non-finite
     * values read as 0 (the CPU twin copies them to its buffer; CUDA sends them to the
     * device, straight from \p x when it is page-locked through pin_host_range()).
     */
    virtual void append(const cfloat* x, size_t n, size_t at) = 0;
    //! Backend: samples [from, from + n) of the batch become its first n.
    virtual void keep(size_t from, size_t n) = 0;
    //! Backend: the batch's first \p n samples are all there; the next calls read them.
    virtual void load(size_t n) = 0;
    //! Backend: the synchronizer on the batch of the last load().
    virtual std::vector<wifi_sync_result> find_frames(size_t n, size_t search_from) = 0;

    wifi_rx_params d_params;
    std::unique_ptr<wifi_sync> d_sync;
    wifi_rx_stats d_stats;
    //! pilot_mode of d_params (wifi_rx_common.h).
    int pilot_mode() const
    {
        return d_params.pilot_interpolation ? 2 : d_params.pilot_tracking ? 1 : 0;
    }
    //! Host threads for the per-frame host steps and input copies.
    std::unique_ptr<worker_pool> d_pool = make_worker_pool(8);
    //! Copies n samples to out, non-finite values as 0 (rounded::finite_bits), on d_pool.
    void copy_finite(const cfloat* x, size_t n, cfloat* out);

private:
    //! The batcher's calls: the backend's append() and keep(), and decode_batch().
    stream_detector<wifi_rx_packet> stream_hooks();
    //! Decodes the batch held from b.search_from on: the frames, and where to resume.
    batch_decision decode_batch(const stream_batch& b, std::vector<wifi_rx_packet>& out);
    /*!
     * Decodes the frames of \p jobs (in stream order) from decision.resume on, moving it
     * past each frame taken; a frame not wholly held (unless \p at_end) becomes
     * decision.held_back and ends the batch.
     */
    std::vector<wifi_rx_packet> decode_jobs(const std::vector<frame_job>& jobs,
                                            const std::vector<wifi_sync_result>* sync,
                                            size_t n_buf,
                                            bool at_end,
                                            batch_decision& decision);

    stream_batcher<wifi_rx_packet> d_batcher;
};

/*!
 * \brief The CPU twin or the CUDA backend; throws std::invalid_argument for a bad
 * parameter (wifi_rx_params::validate(), before any backend is built).
 */
std::unique_ptr<wifi_receiver> make_wifi_receiver(const wifi_rx_params& p, const device_spec& dev);

//! CPU twin (wifi_rx_cpu.cc).
std::unique_ptr<wifi_receiver> make_wifi_receiver_cpu(const wifi_rx_params& p);
#ifdef GPUOFDM_HAVE_CUDA
//! CUDA backend (wifi_rx_cuda.cu).
std::unique_ptr<wifi_receiver> make_wifi_receiver_cuda(const wifi_rx_params& p,
                                                       const device_spec& dev);
#endif

} // namespace gr::gpuofdm::core

#endif
