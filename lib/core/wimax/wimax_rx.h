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
#include "fec/reed_solomon.h"
#include "ofdm/constellation.h"
#include "runtime/device.h"
#include "runtime/stream_batcher.h"
#include "wimax/wimax_sync.h"
#include "runtime/worker_pool.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gr::gpuofdm::core {

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
     * of 2^18 and 4 bursts; else at least one burst plus the synchronizer's lookback plus
     * 4096, at most 2^26.
     */
    size_t batch_samples = 0;

    /*!
     * The ranges above (rate_id as wimax_profile(), the sync parameters as
     * wimax_sync_params::validate()); throws std::invalid_argument("name: range, got value").
     */
    void validate() const;
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
    //! chain through the Viterbi decoder, and the finishing (coded errors, RS decoding,
    //! derandomizing: finish_bursts()): where a batch's time goes.
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
    //! Validates \p p (wimax_rx_params::validate()).
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
    //! Backend: the buffer the next calls read (valid until then), its non-finite samples
    //! already 0.
    virtual void load(const cfloat* x, size_t n) = 0;
    /*!
     * Backend: the synchronizer's bursts in the first \p n samples of the last load() from
     * search_from on (wimax_sync::detect(); the CUDA backend detects on its device copy,
     * detect_device(), so the batch goes up once).
     */
    virtual std::vector<wimax_sync_result> find_bursts(size_t n, size_t search_from) = 0;

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
     * The rest of the chain for \p n bursts at once: coded errors (the decoded bits
     * re-encoded against the hard decisions, per burst on the host threads), RS decoding
     * of every block of every burst in one call (on the device given to use_rs_device(),
     * else on the host threads), derandomizing (the randomizer restarts from the seed every
     * burst: one keystream XORed onto every burst), payload and ok.
     */
    struct finisher;
    void finish_bursts(const uint8_t* bits, const uint8_t* hard, wimax_rx_burst* out, size_t n);
    //! RS-decodes on \p dev (a backend's constructor; the host threads by default).
    void use_rs_device(const device_spec& dev);
    //! Runs the synchronizer on \p dev (a backend's constructor; the CPU twin by default),
    //! on CUDA on the backend's context \p ctx.
    void use_sync_device(const device_spec& dev, const cuda_context_ptr& ctx = nullptr)
    {
        d_sync = make_wimax_sync(d_params.sync, dev, ctx);
    }

    wimax_sync& sync() const { return *d_sync; }

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
    //! Host threads for finish_bursts(), and a finisher for each.
    std::unique_ptr<worker_pool> d_pool = make_worker_pool(8);
    std::vector<std::shared_ptr<finisher>> d_finishers;
    std::unique_ptr<reed_solomon> d_rs_device; //!< null: RS on the host threads
    std::vector<uint8_t> d_keystream; //!< the randomizer's output, a burst's octets but the tail
    std::vector<uint8_t> d_rs_in, d_rs_out; //!< a batch's RS blocks
    std::vector<int32_t> d_rs_status;
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
 * many bursts a launch; only decoded bits and hard decisions come back; the synchronizer's
 * matched filter; RS decoding of a batch's bursts in one launch). The synchronizer's CFO
 * refinement, the coded-error count and derandomizing run on the host for both. Throws std::invalid_argument for a bad parameter (wimax_rx_params::validate(),
 * before any backend is built).
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
