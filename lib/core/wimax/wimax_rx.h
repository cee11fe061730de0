/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIMAX_RX_H
#define GPUOFDM_CORE_WIMAX_RX_H

// The IEEE 802.16-2004 WirelessMAN-OFDM (OFDM-256) burst receiver, the exact inverse of
// wimax_tx with the long (downlink) preamble: complex samples in, burst payloads out.
// wimax_sync finds the bursts on the preamble; the front end estimates the channel on it,
// equalizes the data symbols with the 8 pilots' common phase removed (or, with
// pilot_interpolation, their phase and amplitude interpolated across the band) and demaps
// them with per-carrier gains; the decoding chain deinterleaves, depunctures,
// Viterbi-decodes the zero-tailed code, RS-decodes and derandomizes. The burst profile and
// length are given: wimax_tx sends no FCH / DL-MAP that would announce them.

#include "ofdm/channel_fit.h"
#include "ofdm/constellation.h"
#include "runtime/device.h"
#include "runtime/stream_batcher.h"
#include "runtime/worker_pool.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

/*!
 * \brief Synchronizer parameters (802.16 long preamble). cp_div and hold are the
 * receiver's to set (from wimax_rx_params) when it builds its synchronizer.
 */
struct wimax_sync_params {
    int cp_div = 4; //!< 1/G: 4, 8, 16 or 32
    /*!
     * Detection threshold on m[n] = |c[n]| / p[n] with c[n] = sum_{k<128} x[n+k]
     * conj(x[n+k+64]) and p[n] the larger of the two windows' powers (m <= 1; see
     * wifi_sync_params::threshold for why the larger): about SNR / (1 + SNR) on the first
     * preamble symbol (period 64), about 0 on noise, data and the second symbol.
     * 0.2 .. 0.8.
     */
    float threshold = 0.5f;
    //! Consecutive samples with m > threshold that make a detection point: 16 .. 96.
    size_t min_plateau = 32;
    //! p[n] below this is never a detection (digital silence): >= 0, finite.
    float min_power = 1e-12f;
    /*!
     * A detection whose preamble matched filter (preamble_metric, 0 .. 1: the mean of the
     * two symbols' normalized correlations at the chosen timing and CFO) is below this is
     * dropped: bursts give about sqrt(SNR / (1 + SNR)) times the main tap's share of a
     * dispersive channel, noise about 0.1. 0 .. 1 (1 excluded).
     */
    float min_preamble_metric = 0.4f;
    /*!
     * The delay-64 phase gives the CFO modulo 2 pi / 64 rad/sample (Fs / 64: 62.5 kHz at
     * 4 Msps); the matched filter then tries the coarse value plus h 2 pi / 64 for
     * |h| <= cfo_search and keeps the best: CFOs up to (cfo_search + 1/2) Fs / 64 are
     * found (+-156 kHz at 4 Msps with 2). 0 .. 4.
     */
    int cfo_search = 2;
    /*!
     * Samples a burst occupies from its start: detections before start + hold belong to it
     * (0: the preamble, 2 symbols). The receiver sets the burst's length.
     */
    size_t hold = 0;
};

//! One detected burst.
struct wimax_sync_result {
    size_t start = 0;    //!< first sample of the preamble (its first cyclic prefix)
    float cfo = 0.0f;    //!< radians per sample; derotate sample i by exp(-j cfo i)
    float metric = 0.0f; //!< m at the detection point
    float preamble_metric = 0.0f;
};

/*!
 * \brief 802.16 OFDM-256 long-preamble synchronizer: this class is the CPU twin;
 * make_wimax_sync gives it or the CUDA backend (the same bursts: wimax_sync_common.h).
 *
 * The first preamble symbol repeats every 64 samples (cyclic prefix included: 256 / cp_div
 * <= 64), the second every 128. A detection point is the first sample n where the run of
 * m[k] > threshold (p[k] >= min_power) reaches min_plateau; the coarse CFO is
 * -arg(c[n]) / 64. Fine timing: for each CFO hypothesis (coarse + h 2 pi / 64, |h| <=
 * cfo_search) the time-domain useful parts of both preamble symbols are matched over every
 * start that puts the plateau's run around n (back() samples before n to fwd() after), the
 * joint |C1| + |C2| maximized (the first maximum on a tie). The CFO is then refined on the
 * found burst: the delay-64 phase over the first symbol (all 256 / cp_div + 192 pairs),
 * unwrapped to the hypothesis, then the delay-128 phase over the second symbol (+-pi / 128
 * around it). After a burst the search resumes at start + hold. Non-finite samples count
 * as 0. The detection metric's window sums are exact at every multiple of 128 samples
 * from the buffer's start and slid by one sample between (wimax_sync_common.h).
 */
class wimax_sync
{
public:
    //! Checks every parameter; throws std::invalid_argument naming the bad one.
    explicit wimax_sync(const wimax_sync_params& p);
    virtual ~wimax_sync() = default;

    const wimax_sync_params& params() const { return d_params; }
    //! Where the detection metric runs (the CPU for this class).
    virtual device_spec device() const { return device_spec{}; }

    /*!
     * Bursts in x[0 .. n) with start >= search_from whose detection point has its whole
     * timing window in the buffer; a burst before search_from is not returned but holds
     * the search until start + hold. Throws std::invalid_argument ("x: ") for a null
     * pointer with n > 0.
     */
    virtual std::vector<wimax_sync_result> detect(const cfloat* x,
                                                  size_t n,
                                                  size_t search_from = 0);

    //! Samples before a buffer's end in which a burst may start but not be found yet.
    size_t lookback() const;
    //! Cyclic prefix and preamble symbol length (256 + CP).
    size_t cp_len() const { return 256 / size_t(d_params.cp_div); }
    size_t symbol_len() const { return 256 + cp_len(); }

    //! The time-domain useful parts (256 samples each) of the two preamble symbols, at the
    //! level of wimax_tx with scale 1.
    const std::vector<cfloat>& preamble_time(int symbol) const { return d_time[symbol & 1]; }

protected:
    //! A detection point: its sample, the sums' c there and m (wimax_sync_common.h).
    struct candidate {
        size_t i = 0;
        double cr = 0.0, ci = 0.0;
        double m = 0.0;
    };

    int back() const;
    int fwd() const;
    //! Detection points lie in [0, detect_end(n)) (<= 0: none): their timing window fits.
    long detect_end(size_t n) const;
    //! The clean samples a candidate i's fine timing reads: [i - back(), i + fwd() + 2 L1).
    size_t window_len() const { return size_t(back() + fwd()) + 2 * symbol_len(); }
    /*!
     * The rule for candidates cand[0 .. n), in increasing i: fine timing from search
     * position \p resume on, the preamble metric check; a burst is appended to \p out and
     * moves resume to its start + hold. w[k][j - base[k]] is the clean sample j for every j
     * candidate k's window holds (j >= 0). The fine timing (about a millisecond a
     * candidate) runs for all candidates at once on the host threads, as if no burst
     * came before; a candidate whose window the rule then clips is timed again alone, so
     * the result is the sequential rule's.
     */
    void take_candidates(const cfloat* const* w,
                         const long* base,
                         const candidate* cand,
                         size_t n,
                         size_t& resume,
                         std::vector<wimax_sync_result>& out);

    wimax_sync_params d_params;
    std::vector<cfloat> d_time[2];
    double d_energy[2] = { 0.0, 0.0 };
    std::vector<cfloat> d_clean;
    std::unique_ptr<worker_pool> d_pool = make_worker_pool(8);

private:
    //! A burst's start, CFO and preamble metric from fine timing over [lo, hi].
    struct fine_result {
        long s = 0;
        double cfo = 0.0;
        double q = 0.0;
    };
    //! Fine timing of \p cand over starts [lo, hi]; c[j] is the clean sample j.
    fine_result fine_timing(const cfloat* c, long lo, long hi, const candidate& cand) const;
};

/*!
 * \brief The CPU twin (this class itself) or the CUDA backend (detection metric and
 * candidates on the device, fine timing on the host: wimax_sync_cuda.cu) for dev.
 * Throws std::invalid_argument for a bad parameter, std::runtime_error for a CUDA device
 * on a build without CUDA.
 */
std::unique_ptr<wimax_sync> make_wimax_sync(const wimax_sync_params& p, const device_spec& dev);
#ifdef GPUOFDM_HAVE_CUDA
std::unique_ptr<wimax_sync> make_wimax_sync_cuda(const wimax_sync_params& p,
                                                 const device_spec& dev);
#endif

//! Where a burst is and what its channel is, when they are known (a reference receiver).
struct wimax_rx_known {
    size_t start = 0; //!< first sample of the preamble in the buffer
    float cfo = 0.0f; //!< radians per sample (derotation from start on)
    /*!
     * nullptr: estimated on the preamble; else the 256 bins (IFFT order) of the channel
     * as the front end sees it: Y_k = H_k X_k + noise, X at the level of the unit-power
     * points, Y the 256-point FFT (no scaling) of the window that starts fft_backoff
     * samples before a symbol's useful part, derotated from start on.
     */
    const cfloat* channel = nullptr;
    float noise_var = 0.0f; //!< with channel: noise variance per FFT bin of Y
};

//! Receiver parameters: what the bursts are (as wimax_tx sent them), sync, front end.
struct wimax_rx_params {
    int rate_id = 1;         //!< the burst profile, 0..6 (wimax_profiles())
    size_t burst_bytes = 95; //!< data octets per burst, 1 .. 65535 (wimax_burst_request::len)
    int seed = 0x4A80;       //!< randomizer seed, 1 .. 32767 (wimax_default_seed)
    bool pad = false;    //!< the transmitter padded a short last block (else len + 1 = blocks x K)
    bool uplink = false; //!< pilot PRBS and polarity (wimax_tx_params::uplink)
    //! Synchronizer; its cp_div must equal the transmitter's (4, 8, 16, 32), hold is set here.
    wimax_sync_params sync;
    /*!
     * The FFT window of every symbol starts this many samples before its useful part
     * (0 .. 256 / cp_div): margin against early timing and the channel's spread.
     */
    int fft_backoff = 4;
    bool pilot_tracking = true; //!< common phase of the 8 pilots removed per symbol
    /*!
     * Instead of the common phase: per symbol, the 8 pilots' channel ratios (phase and
     * amplitude against the preamble's estimate) interpolated linearly across the
     * subcarriers (held beyond -88 and 88), and the channel of every data carrier corrected
     * by its ratio, as wifi_rx_params::pilot_interpolation (the same code:
     * wifi_rx_common.h). Follows drifts that differ across the band (a sampling-clock
     * offset's phase slope); noisier than the common phase at low SNR.
     */
    bool pilot_interpolation = false;
    /*!
     * BPSK 1/2 has no RS code to tell a bad burst: there, ok also needs coded_errors <=
     * max_coded_ber x coded_bits (the raw channel bit error rate, about 2 % at 3 dB SNR,
     * where Viterbi decoding of such bursts is still error-free; noise and bursts hit by
     * interference or cut by NaNs give 10 .. 30 %). (0, 0.5].
     */
    float max_coded_ber = 0.06f;
    /*!
     * 0: least squares on the preamble's even carriers (the first symbol's multiples of 4
     * averaged in), the odd carriers interpolated linearly. 8 .. 64: that estimate fitted
     * by a channel of this many taps (delays from 4 samples before the FFT window's start,
     * which itself starts fft_backoff samples early), which interpolates and removes most of
     * the estimation noise.
     */
    int channel_taps = 24;
    /*!
     * The receiver decodes when it holds this many samples (or at finish()). 0: the larger
     * of 2^18 and 4 bursts; else at least one burst plus 4096, at most 2^26.
     */
    size_t batch_samples = 0;
};

//! One received burst.
struct wimax_rx_burst {
    uint64_t start = 0;     //!< stream index of the preamble's first sample
    float cfo = 0.0f;       //!< radians per sample (Hz = cfo Fs / 2 pi)
    float snr_db = 0.0f;    //!< mean |H|^2 over the 200 used carriers / noise, on the preamble
    float noise_var = 0.0f; //!< per FFT bin
    float sync_metric = 0.0f;
    float preamble_metric = 0.0f;
    std::vector<uint8_t> payload; //!< burst_bytes octets, derandomized
    size_t rs_blocks = 0;         //!< RS-CC blocks (= data symbols)
    size_t rs_corrected = 0;      //!< byte errors corrected, all blocks
    size_t rs_uncorrectable = 0;  //!< blocks the RS decoder could not correct
    /*!
     * Re-encoded decoded bits that differ from the hard decisions of the received coded
     * bits, and how many coded bits there are: a channel bit error rate estimate (also
     * where there is no RS, BPSK 1/2).
     */
    size_t coded_errors = 0;
    size_t coded_bits = 0;
    /*!
     * rs_uncorrectable == 0 and the tail byte decoded as 0x00 (and, with pad, the 0xFF
     * fill); for BPSK 1/2 (no RS) also coded_errors <= max_coded_ber x coded_bits.
     */
    bool ok = false;
};

//! Counters since construction.
struct wimax_rx_stats {
    uint64_t detected = 0;  //!< bursts the synchronizer found and the receiver decoded
    uint64_t ok = 0;        //!< decoded with ok
    uint64_t failed = 0;    //!< decoded, not ok
    uint64_t truncated = 0; //!< the stream ended inside the burst
    uint64_t samples = 0;   //!< samples fed
    //! Wall time spent, seconds: taking samples in, the synchronizer, the front end and the
    //! chain through the Viterbi decoder, and the host's finishing (coded errors, RS,
    //! derandomizing): where a batch's time goes.
    double t_input = 0, t_sync = 0, t_decode = 0, t_finish = 0;
};

/*!
 * \brief The 802.16 OFDM-256 receiver over a stream (long preamble, one burst profile and
 * length, given).
 *
 * Per burst: derotation by the synchronizer's CFO; the two preamble symbols give the
 * least-squares channel on the even carriers (H_k = Y_k / X_k, the first symbol's
 * multiples of 4 averaged in by their power) and the noise variance on their empty
 * carriers within -100..100 (DC excluded); the channel is interpolated to every used
 * carrier (channel_taps); each data symbol is equalized Y_k / H_k after the common phase
 * of its 8 pilots (wimax_pilot_value polarity) is removed, or, with pilot_interpolation,
 * Y_k / (H_k r_k), r_k the pilots' ratios Y_p P_p / H_p interpolated linearly between them;
 * max-log LLRs with the 802.16 labels and weights |H_k|^2 / noise; then the decoding
 * chain, exactly inverse to wimax_tx: 802.16 deinterleaving per symbol, depuncturing, the
 * Viterbi decoder over the whole burst as one terminated frame (the 0x00 tail byte brings
 * the encoder to state 0), RS decoding per block, derandomizing all but the tail byte.
 * After a burst the search resumes at its end.
 */
class wimax_receiver
{
public:
    virtual ~wimax_receiver() = default;

    const wimax_rx_params& params() const { return d_params; }
    virtual device_spec device() const = 0;
    const wimax_rx_stats& stats() const { return d_stats; }

    //! RS-CC blocks (= data symbols) of a burst, and its samples (preamble included).
    size_t burst_symbols() const { return d_n_sym; }
    size_t burst_samples() const { return (2 + d_n_sym) * d_sym_len; }
    size_t batch_samples() const { return d_batch; }

    /*!
     * Feeds the next \p n samples; returns the bursts completed (decoded when
     * batch_samples() samples are held). Non-finite samples are read as 0.
     */
    std::vector<wimax_rx_burst> process(const cfloat* x, size_t n);
    //! End of stream: decodes every complete burst held; bursts cut off are counted.
    std::vector<wimax_rx_burst> finish();

    /*!
     * One buffer (at most batch_samples()), no stream: bursts as the synchronizer finds
     * them (known == nullptr) or at the given places (n_known, in order, not overlapping).
     */
    std::vector<wimax_rx_burst> decode_buffer(const cfloat* x,
                                              size_t n,
                                              const wimax_rx_known* known = nullptr,
                                              size_t n_known = 0);

    /*!
     * \brief Verification switch: true runs the decoding chain's deinterleaver, depuncturer
     * and Viterbi decoder on the CPU stages for every backend (the CUDA backend then copies
     * its LLRs back, as it did before the chain moved to the device); false (the default)
     * lets a backend that can keep the LLRs on the device do so. The results are the same
     * either way (the stages' CUDA versions are bit-exact with their CPU twins): the tests
     * compare the two.
     */
    void set_host_chain(bool on) { d_host_chain = on; }
    bool host_chain() const { return d_host_chain; }

protected:
    //! Checks every parameter; throws std::invalid_argument naming the bad one.
    explicit wimax_receiver(const wimax_rx_params& p);

    //! Per burst: where it is and what is known.
    struct burst_job {
        size_t start = 0;
        float cfo = 0.0f;
        const cfloat* channel = nullptr;
        float noise_var = 0.0f;
    };
    /*!
     * Backend: the front end of \p n bursts of the buffer of the last load() (each wholly
     * inside it): out[i] gets noise_var, snr_db, and \p llr the burst's LLRs,
     * burst_symbols() x N_cbps values a burst (interleaved order, positive: bit 0).
     */
    virtual void front_end(const burst_job* jobs, size_t n, wimax_rx_burst* out, float* llr) = 0;
    /*!
     * Backend, optional: the front end and the decoding chain through the Viterbi decoder
     * of \p n bursts with the LLRs kept where they are made: out[i] gets noise_var and
     * snr_db as from front_end(); \p bits decoded_steps() decoded bits a burst (one a
     * byte), \p hard hard_bytes() bytes a burst: the hard decisions of the deinterleaved
     * coded bits (bit i of a burst, 1 where its LLR is < 0, in byte i / 8 at bit i % 8),
     * exactly what chain_bits() gives for the same LLRs. Returns false where the backend
     * does not (the CPU twin): the receiver then calls front_end() and chain_bits().
     */
    virtual bool front_end_to_bits(
        const burst_job* jobs, size_t n, wimax_rx_burst* out, uint8_t* bits, uint8_t* hard)
    {
        (void)jobs, (void)n, (void)out, (void)bits, (void)hard;
        return false;
    }
    //! Backend: the buffer the next calls read (valid until then).
    virtual void load(const cfloat* x, size_t n) = 0;

    //! Trellis steps of a burst: 8 x its RS-coded octets (the tail byte included).
    size_t decoded_steps() const;
    //! Coded bits of a burst (burst_symbols() x N_cbps) and the bytes their packed hard
    //! decisions take.
    size_t coded_bits() const;
    size_t hard_bytes() const { return (coded_bits() + 7) / 8; }

    /*!
     * The decoding chain's soft part on the CPU stages: one burst's LLRs deinterleaved,
     * depunctured and Viterbi-decoded into \p bits, the deinterleaved LLRs' hard decisions
     * packed into \p hard (as front_end_to_bits()).
     */
    void chain_bits(const float* llr, uint8_t* bits, uint8_t* hard);
    /*!
     * The rest of the chain, on the host for every backend: coded errors (the decoded bits
     * re-encoded against \p hard), RS decoding per block, derandomizing, payload and ok;
     * with \p f's stages and scratch (one finisher per host thread).
     */
    struct finisher;
    void finish_burst(const uint8_t* bits,
                      const uint8_t* hard,
                      wimax_rx_burst& out,
                      finisher& f) const;
    //! Runs the synchronizer on \p dev (a backend's constructor; the CPU twin by default).
    void use_sync_device(const device_spec& dev) { d_sync = make_wimax_sync(d_params.sync, dev); }

    //! pilot_mode of d_params (wifi_rx_common.h).
    int pilot_mode() const
    {
        return d_params.pilot_interpolation ? 2 : d_params.pilot_tracking ? 1 : 0;
    }

    wimax_rx_params d_params;
    size_t d_n_sym = 0;   //!< data symbols a burst
    size_t d_sym_len = 0; //!< 256 + CP
    size_t d_batch = 0;

private:
    //! The batcher's calls: the samples into d_buf, and decode_batch().
    stream_detector<wimax_rx_burst> stream_hooks();
    //! Decodes the bursts of the batch held from b.search_from on, and where to resume.
    batch_decision decode_batch(const stream_batch& b, std::vector<wimax_rx_burst>& out);
    std::vector<wimax_rx_burst> decode_jobs(const std::vector<burst_job>& jobs,
                                            const std::vector<wimax_sync_result>* sync);

    struct chain;
    std::shared_ptr<chain> d_chain; //!< the CPU decoding stages
    //! Host threads for finish_burst(), and a finisher for each.
    std::unique_ptr<worker_pool> d_pool = make_worker_pool(8);
    std::vector<std::shared_ptr<finisher>> d_finishers;
    std::unique_ptr<wimax_sync> d_sync;
    wimax_rx_stats d_stats;
    std::vector<cfloat> d_buf;                                 //!< the batch's samples held (clean)
    std::unique_ptr<stream_batcher<wimax_rx_burst>> d_batcher; //!< sized in the constructor
    bool d_host_chain = false;
    std::vector<float> d_llr;
    std::vector<uint8_t> d_bits, d_hard; //!< decoded bits and hard decisions of a batch
};

//! The 200 used subcarriers, -100..-1 then 1..100.
const std::vector<int>& wimax_used_carriers();
//! The 100 even ones, where the long preamble's second symbol observes the channel.
const std::vector<int>& wimax_observed_carriers();
/*!
 * \brief The channel fit of the front end (taps >= 1): from the observed carriers to the
 * used ones, delays from 4 samples before the FFT window's start (make_channel_tap_fit).
 */
channel_tap_fit wimax_channel_smoother(int taps);

/*!
 * \brief The CPU twin or the CUDA backend (the front end on the device: windows, batched
 * cuFFT, estimates, equalizer and demapper, and the synchronizer's detection metric; then,
 * the LLRs staying on the device, deinterleaving, depuncturing and the Viterbi decoder over
 * many bursts a launch; only decoded bits and hard decisions come back). The synchronizer's
 * fine timing, the coded-error count, RS decoding and derandomizing run on the host for
 * both. Throws std::invalid_argument for a bad parameter (its name first).
 */
std::unique_ptr<wimax_receiver> make_wimax_receiver(const wimax_rx_params& p,
                                                    const device_spec& dev);

//! CPU twin (wimax_rx_cpu.cc).
std::unique_ptr<wimax_receiver> make_wimax_receiver_cpu(const wimax_rx_params& p);
#ifdef GPUOFDM_HAVE_CUDA
//! CUDA backend (wimax_rx_cuda.cu).
std::unique_ptr<wimax_receiver> make_wimax_receiver_cuda(const wimax_rx_params& p,
                                                         const device_spec& dev);
#endif

} // namespace gr::gpuofdm::core

#endif
