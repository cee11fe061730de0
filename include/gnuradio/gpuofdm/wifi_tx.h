/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_WIFI_TX_H
#define INCLUDED_GPUOFDM_WIFI_TX_H

#include <gnuradio/block.h>
#include <gnuradio/gpuofdm/api.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gpuofdm {

/*!
 * \brief IEEE 802.11a transmitter: PSDUs in as PDUs, complex baseband PPDUs out at
 * 20 Msps, on the GPU (many frames per launch) or on the CPU twin.
 * \ingroup gpuofdm
 *
 * \details
 * Input: PDUs on the message port "pdus": a pair (metadata dict, u8vector of the PSDU,
 * FCS included: the block adds none). The metadata may carry "rate" (Mb/s: 6, 9, 12, 18,
 * 24, 36, 48 or 54) and "seed" (1..127) for this frame only; other keys are ignored.
 *
 * Output: each frame is the PLCP preamble, SIGNAL and the DATA symbols of 802.11a-1999
 * clause 17 with Annex G windowing, 320 + 80 (1 + N_SYM) + 1 samples, N_SYM =
 * ceil((22 + 8 LENGTH) / N_DBPS), times \p scale, followed by \p gap_samples zeros. The
 * first sample of every frame carries the tag "wifi_start" whose value is a dict: "rate"
 * (Mb/s), "psdu_len" (octets), "seed" (the scrambler seed used) and "n_samples" (the
 * frame's samples, gap not counted).
 *
 * The block is a source driven by its message port: when no PDU is waiting it produces
 * nothing and sleeps until one arrives (GNU Radio's scheduler wakes it), without spinning.
 * When several PDUs are waiting it encodes up to \p max_frames_per_batch of them in one
 * call (one launch on the GPU), as many as fit the output buffer; a frame longer than
 * the free output space is written out over several calls. It ends when the flowgraph
 * stops, or when every block that sends it PDUs has finished and it has written all
 * the frames it received.
 *
 * Bad PDUs are dropped with a warning in the log and counted (pdus_dropped()), never an
 * exception: not a pair, metadata not a dict, a payload that is not a u8vector, an empty
 * PSDU or one over 4095 octets, an unknown "rate" or a "seed" outside 1..127. At most
 * 8192 PDUs wait in the block; PDUs beyond that are dropped and counted the same way.
 */
class GPUOFDM_API wifi_tx : virtual public gr::block
{
public:
    typedef std::shared_ptr<wifi_tx> sptr;

    /*!
     * \param rate default rate in Mb/s: 6, 9, 12, 18, 24, 36, 48 or 54.
     * \param seed default scrambler seed x7..x1, 1..127 (93 = 1011101, Annex G); 0: a new
     *        seed for every frame, 1, 2, .., 127, 1, .. (as gr-ieee802-11).
     * \param gap_samples zeros after each frame, 0..2^24.
     * \param scale multiplies the waveform (|scale| 1e-30..1e30): 1 is the level of the Annex G
     *        tables; 64 / sqrt(52) (the default) gives unit average power over SIGNAL
     *        and DATA.
     * \param max_frames_per_batch most frames per call (per GPU launch), 1..4096.
     * \param device "auto", "cpu", "cuda" or "cuda:N".
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter;
     *         std::runtime_error when "cuda" is asked for and no GPU is usable.
     */
    static sptr make(int rate = 54,
                     int seed = 93,
                     int gap_samples = 400,
                     float scale = 8.87520336f,
                     int max_frames_per_batch = 64,
                     const std::string& device = "auto");

    //! The device the block runs on: "cpu" or "cuda:N".
    virtual std::string device() const = 0;
    //! Frames written out so far (complete frames, gap included).
    virtual uint64_t frames_sent() const = 0;
    //! PDUs dropped so far (bad PDUs and PDUs beyond the queue limit).
    virtual uint64_t pdus_dropped() const = 0;

    //! Default rate for PDUs without "rate" (Mb/s); throws std::invalid_argument.
    virtual void set_rate(int rate) = 0;
    virtual int rate() const = 0;
    //! Default seed for PDUs without "seed" (0: incrementing); throws std::invalid_argument.
    virtual void set_seed(int seed) = 0;
    virtual int seed() const = 0;
    virtual int gap_samples() const = 0;
    virtual float scale() const = 0;
    virtual int max_frames_per_batch() const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_WIFI_TX_H */
