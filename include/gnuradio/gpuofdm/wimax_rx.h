/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_WIMAX_RX_H
#define INCLUDED_GPUOFDM_WIMAX_RX_H

#include <gnuradio/sync_block.h>
#include <gnuradio/gpuofdm/api.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gpuofdm {

/*!
 * \brief IEEE 802.16-2004 WirelessMAN-OFDM (OFDM-256) burst receiver: complex baseband in,
 * decoded bursts out as PDUs, on the GPU (the front end of a batch of samples and all its
 * bursts per launch) or on the CPU twin. The counterpart of wimax_tx with the long preamble.
 * \ingroup gpuofdm
 *
 * \details
 * Input: one stream of gr_complex at \p sample_rate (only used to give the CFO in Hz and
 * to say the latency). No stream output.
 *
 * The bursts are those of wimax_tx with the same \p rate_id, \p cp_div, \p uplink, \p pad,
 * \p seed and preamble "long": wimax_tx sends no FCH / DL-MAP that would announce the
 * profile and length, so both are given here, and every burst is \p burst_bytes octets.
 * Per burst: detection on the first preamble symbol (period 64), fine timing and CFO on
 * both preamble symbols, channel and noise estimate on the preamble (the least-squares
 * channel on the even carriers fitted by \p channel_taps taps, or interpolated with 0),
 * the data symbols equalized with the 8 pilots' common phase removed (or, with
 * \p pilot_interpolation, their phase and amplitude interpolated across the band), soft
 * demapped, deinterleaved, depunctured, Viterbi decoded, RS decoded and derandomized.
 *
 * Output: PDUs on the message port "pdus": a pair (metadata dict, u8vector of the burst's
 * burst_bytes data octets, as wimax_tx was given them). Metadata keys: "profile" (the
 * rate_id, long), "burst_bytes" (long), "rs_corrected" (byte errors the RS decoder
 * corrected, all blocks, long), "rs_uncorrectable" (RS blocks it could not correct, long),
 * "ok" (bool), "snr_db" (double, on the preamble), "cfo_hz" (double: radians per sample x
 * sample_rate / 2 pi), "start" (uint64: stream index of the burst's first sample, the
 * preamble's first cyclic prefix), "sync_metric" and "preamble_metric" (double, 0..1),
 * "coded_errors" and "coded_bits" (long: re-encoded decoded bits that differ from the
 * received hard decisions, and how many coded bits the burst has).
 *
 * A burst is ok when no RS block was uncorrectable and its tail byte (and, with pad, the
 * 0xFF fill) decoded right; for BPSK 1/2 (no RS) also when coded_errors <= 6 % of the
 * coded bits. Ok bursts are always published. Bad ones are counted (bad_bursts()) and
 * published, with "ok" false, only when \p pass_bad is set.
 *
 * Batching and latency: the receiver decodes when it holds batch_samples() samples
 * (\p batch_samples, or with 0 the larger of 2^18 and 4 bursts), so a burst is published
 * up to batch_samples() / sample_rate s after it ended, plus the decoding time. Bursts
 * that straddle a batch boundary are kept for the next batch, never lost.
 *
 * End of stream, as wifi_rx: when the upstream block has finished (a file or vector
 * source at its end) the block decodes every complete burst it holds and publishes them
 * before it ends; a burst cut off by the end is counted in truncated(). To see the end in
 * work() the block leaves the newest sample of each call unread until the next call (or
 * the end). If the flowgraph is stopped instead (tb.stop()), the bursts held are decoded
 * in stop(): they are counted, but PDUs posted then may not reach blocks that have
 * already stopped.
 *
 * Errors in work() are never thrown to the scheduler: they are logged; after 10 failed
 * calls in a row the block stops (as if its input had ended).
 */
class GPUOFDM_API wimax_rx : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<wimax_rx> sptr;

    /*!
     * \param rate_id the bursts' profile, 0..6 (BPSK 1/2, QPSK 1/2, QPSK 3/4, 16-QAM 1/2,
     *        16-QAM 3/4, 64-QAM 2/3, 64-QAM 3/4).
     * \param burst_bytes data octets per burst, 1..65535; without pad, burst_bytes + 1 must
     *        be a multiple of the profile's block (12, 24, 36, 48, 72, 96, 108 octets).
     * \param cp_div 1/G: 4, 8, 16 or 32 (CP of 64, 32, 16 or 8 samples).
     * \param uplink the uplink pilot PRBS start and polarity (8.3.3.4.2).
     * \param pad the transmitter filled the last block with 0xFF (wimax_tx's pad).
     * \param seed randomizer register reg1..reg15, 1..32767 (19072 = 100101010000000).
     * \param pass_bad also publish bursts that are not ok ("ok" false).
     * \param sample_rate samples per second, > 0 (4e6: 8/7 x 3.5 MHz); gives cfo_hz.
     * \param batch_samples samples per decoding batch: 0 (automatic) or one burst plus its
     *        synchronizer lookback plus 4096 .. 2^26.
     * \param device "auto", "cpu", "cuda" or "cuda:N".
     * \param threshold detection threshold on the normalized delay-64 correlation,
     *        0.2..0.8.
     * \param fft_backoff the FFT window of every symbol starts this many samples before
     *        its useful part, 0 .. 256 / cp_div.
     * \param channel_taps 0 (least squares, odd carriers interpolated) or 8..64 (the
     *        estimate fitted by a channel of this many taps).
     * \param pilot_interpolation false: the common phase of the 8 pilots is removed from
     *        every data symbol; true: the pilots' channel ratios (phase and amplitude) are
     *        interpolated linearly across the subcarriers, every symbol (follows a
     *        sampling-clock offset; noisier at low SNR).
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter;
     *         std::runtime_error when "cuda" is asked for and no GPU is usable.
     */
    static sptr make(int rate_id = 1,
                     int burst_bytes = 95,
                     int cp_div = 4,
                     bool uplink = false,
                     bool pad = true,
                     int seed = 19072,
                     bool pass_bad = false,
                     double sample_rate = 4e6,
                     int batch_samples = 0,
                     const std::string& device = "auto",
                     float threshold = 0.5f,
                     int fft_backoff = 4,
                     int channel_taps = 24,
                     bool pilot_interpolation = false);

    //! The device the block runs on: "cpu" or "cuda:N".
    virtual std::string device() const = 0;

    //! Bursts decoded ok so far.
    virtual uint64_t bursts_received() const = 0;
    //! Bursts decoded not ok so far (published or not).
    virtual uint64_t bad_bursts() const = 0;
    //! Bursts cut off by the end of the stream.
    virtual uint64_t truncated() const = 0;
    //! Samples handed to the receiver so far.
    virtual uint64_t samples() const = 0;
    //! PDUs published on "pdus" so far.
    virtual uint64_t pdus_published() const = 0;

    //! Publish bursts that are not ok too (from the next decoded batch on).
    virtual void set_pass_bad(bool pass) = 0;
    virtual bool pass_bad() const = 0;

    virtual int rate_id() const = 0;
    virtual int burst_bytes() const = 0;
    virtual int cp_div() const = 0;
    virtual bool uplink() const = 0;
    virtual bool pad() const = 0;
    virtual int seed() const = 0;
    virtual double sample_rate() const = 0;
    //! The batch in use (the automatic one when made with 0).
    virtual int batch_samples() const = 0;
    virtual float threshold() const = 0;
    virtual int fft_backoff() const = 0;
    virtual int channel_taps() const = 0;
    virtual bool pilot_interpolation() const = 0;
    //! Samples of one burst (preamble included, no gap).
    virtual int burst_samples() const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_WIMAX_RX_H */
