/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_WIFI_RX_H
#define INCLUDED_GPUOFDM_WIFI_RX_H

#include <gnuradio/sync_block.h>
#include <gnuradio/gpuofdm/api.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gpuofdm {

/*!
 * \brief IEEE 802.11a receiver: complex baseband at 20 Msps in, decoded PSDUs out as PDUs,
 * on the GPU (a batch of samples and all its frames per launch) or on the CPU twin.
 * \ingroup gpuofdm
 *
 * \details
 * Input: one stream of gr_complex at 20 Msps. No stream output.
 *
 * Per frame: packet detection on the short training field (delay-16 autocorrelation over
 * power above \p threshold), coarse and fine CFO, fine timing on the long training field,
 * least-squares channel estimate and noise variance from the two long training symbols,
 * SIGNAL (rate, length, parity), then the DATA symbols equalized with pilot phase
 * tracking, soft demapped, deinterleaved, Viterbi decoded, descrambled, and the FCS
 * (CRC-32 over the PSDU) checked.
 *
 * Output: PDUs on the message port "pdus": a pair (metadata dict, u8vector of the PSDU,
 * FCS included). Metadata keys: "rate" (Mb/s, long), "psdu_len" (octets, long), "crc_ok"
 * (bool), "seed" (the scrambler seed recovered from SERVICE, long), "snr_db" (double, on
 * the long training field), "cfo_hz" (double), "start" (uint64: stream index of the frame's
 * first sample, the start of its short training field, = T1's index - 192), "sync_metric"
 * (double, the detection metric 0..1).
 *
 * Frames with a good FCS are always published. Frames with a bad FCS are counted
 * (crc_errors()) and published, with "crc_ok" false, only when \p pass_bad_crc is set.
 * Detections whose SIGNAL fails (parity, rate, length) are only counted (signal_errors()).
 * When \p pcap_file is set every published frame is also appended to that libpcap file
 * (link type 105, IEEE 802.11 with FCS; timestamp = start / 20e6 s).
 *
 * Batching and latency: the receiver decodes when it holds \p batch_samples samples, so a
 * frame is published up to batch_samples / 20e6 s (13 ms at the default 262144) after it
 * ended, plus the decoding time. Frames that straddle a batch boundary are kept for the next
 * batch, never lost.
 *
 * End of stream: when the upstream block has finished (a file or vector source at its
 * end), the block decodes every complete frame it holds and publishes them before it
 * ends, so the last frame of a file is not lost; a frame cut off by the end of the stream
 * is counted in truncated(). To see the end in work(), the block leaves the newest sample
 * of each call unread until the next call (or the end). If the flowgraph is stopped
 * instead (tb.stop()), the frames held are decoded in stop(): they are counted and written
 * to the PCAP file, but PDUs posted then may not reach blocks that have already stopped.
 *
 * Errors in work() are never thrown to the scheduler: they are logged; after 10 failed
 * calls in a row the block stops (as if its input had ended).
 */
class GPUOFDM_API wifi_rx : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<wifi_rx> sptr;

    /*!
     * \param batch_samples samples per decoding batch (one GPU launch sequence):
     *        131072 .. 16777216 (a longest frame, 109681 samples, must fit).
     * \param threshold detection threshold on the normalized short-training
     *        autocorrelation, in (0, 1); 0.56 as gr-ieee802-11.
     * \param pass_bad_crc also publish frames whose FCS is wrong ("crc_ok" false).
     * \param pcap_file "" or a path: every published frame is appended to this libpcap
     *        file, created (truncated) when the block is made.
     * \param device "auto", "cpu", "cuda" or "cuda:N".
     * \param fft_backoff the FFT window of every OFDM symbol starts this many samples
     *        before the end of its cyclic prefix, 0 .. 8 (margin against early timing and
     *        the channel's delay spread).
     * \param pilot_interpolation false: the common phase of the four pilots is removed
     *        from every symbol; true: the pilots' channel ratios (phase and amplitude) are
     *        interpolated linearly across the subcarriers, every symbol (follows a
     *        sampling-clock offset; noisier at low SNR).
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter;
     *         std::runtime_error when "cuda" is asked for and no GPU is usable, or when
     *         the PCAP file cannot be created (the message names the path).
     */
    static sptr make(int batch_samples = 262144,
                     float threshold = 0.56f,
                     bool pass_bad_crc = false,
                     const std::string& pcap_file = "",
                     const std::string& device = "auto",
                     int fft_backoff = 3,
                     bool pilot_interpolation = false);

    //! The device the block runs on: "cpu" or "cuda:N".
    virtual std::string device() const = 0;

    //! Frames decoded with a good FCS so far.
    virtual uint64_t frames_received() const = 0;
    //! Frames decoded with a bad FCS so far (published or not).
    virtual uint64_t crc_errors() const = 0;
    //! Detections whose SIGNAL field failed (parity, rate, length).
    virtual uint64_t signal_errors() const = 0;
    //! Frames cut off by the end of the stream.
    virtual uint64_t truncated() const = 0;
    //! Samples handed to the receiver so far.
    virtual uint64_t samples() const = 0;
    //! PDUs published on "pdus" so far.
    virtual uint64_t pdus_published() const = 0;

    //! Publish frames with a bad FCS too (from the next decoded batch on).
    virtual void set_pass_bad_crc(bool pass) = 0;
    virtual bool pass_bad_crc() const = 0;
    virtual int batch_samples() const = 0;
    virtual float threshold() const = 0;
    virtual std::string pcap_file() const = 0;
    virtual int fft_backoff() const = 0;
    virtual bool pilot_interpolation() const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_WIFI_RX_H */
