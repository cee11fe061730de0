/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_WIMAX_TX_H
#define INCLUDED_GPUOFDM_WIMAX_TX_H

#include <gnuradio/block.h>
#include <gnuradio/gpuofdm/api.h>

#include <cstdint>
#include <string>

namespace gr {
namespace gpuofdm {

/*!
 * \brief IEEE 802.16-2004 WirelessMAN-OFDM (OFDM-256) burst transmitter: data bursts in
 * as PDUs, complex baseband out, on the GPU (many bursts per launch) or on the CPU twin.
 * \ingroup gpuofdm
 *
 * \details
 * Input: PDUs on the message port "pdus": a pair (metadata dict, u8vector of the burst's
 * data octets, each sent MSB first). The metadata may carry "rate_id" (0..6: BPSK 1/2,
 * QPSK 1/2, QPSK 3/4, 16-QAM 1/2, 16-QAM 3/4, 64-QAM 2/3, 64-QAM 3/4) and "seed" (the
 * randomizer's reg1..reg15, 1..32767) for this burst only; other keys are ignored.
 *
 * Output: each burst is randomized (8.3.3.1), given its 0x00 tail byte, RS encoded and
 * convolutionally encoded per its profile (8.3.3.2, Table 215), interleaved (8.3.3.3),
 * mapped (8.3.3.4.1) onto the 192 data subcarriers of one OFDM symbol per RS-CC block,
 * with the 8 pilots of 8.3.3.4.2, DC and guards zero, IFFT 256 and a cyclic prefix of
 * 256 / cp_div; the preamble (8.3.3.6) goes first. A burst is (P + n_symbols) (256 + CP)
 * samples (P = 2, 1 or 0 preamble symbols), times \p scale / 256 per IFFT, followed by
 * \p gap_samples zeros. The first sample of every burst carries the tag "wimax_start"
 * whose value is a dict: "profile" (the rate_id), "n_bytes" (data octets), "n_symbols"
 * (OFDM data symbols), "seed" and "n_samples" (the burst's samples, gap not counted).
 *
 * With \p pad the last RS-CC block is filled with 0xFF (8.3.3.1); without it a burst whose
 * length + 1 is not a multiple of the profile's block (12, 24, 36, 48, 72, 96, 108 octets)
 * is dropped.
 *
 * The block is a source driven by its message port, as wifi_tx: it sleeps while no PDU
 * waits, encodes up to \p max_bursts_per_batch waiting bursts per call (one launch on
 * the GPU), writes a burst longer than the free output space over several calls, and ends
 * when the flowgraph stops or its PDU senders are done and every burst is out.
 *
 * Bad PDUs are dropped with a warning in the log and counted (pdus_dropped()), never an
 * exception: not a pair, metadata not a dict, a payload that is not a u8vector, an empty
 * burst or one over 4095 octets, a partial block without pad, an unknown "rate_id" or a
 * "seed" outside 1..32767. At most 8192 PDUs wait; more are dropped and counted.
 *
 * The 802.16 constellation labels (8.3.3.4.1, Figure 203) and the preamble sequence P_ALL
 * come from open implementations, each confirmed by two independent ones, not from the
 * standard's own figure and table; whether P_EVEN conjugates P_ALL stays open: see
 * docs/blocks/wimax_tx.md.
 */
class GPUOFDM_API wimax_tx : virtual public gr::block
{
public:
    typedef std::shared_ptr<wimax_tx> sptr;

    /*!
     * \param rate_id default burst profile, 0..6.
     * \param cp_div 1/G: 4, 8, 16 or 32 (CP of 64, 32, 16 or 8 samples).
     * \param preamble "long" (two symbols, downlink), "short" (one symbol, uplink) or "none".
     * \param uplink the uplink pilot PRBS start and polarity (8.3.3.4.2) instead of downlink.
     * \param pad fill the last block with 0xFF instead of dropping a partial burst.
     * \param seed default randomizer register reg1..reg15, 1..32767 (19072 = 100101010000000).
     * \param gap_samples zeros after each burst, 0..2^24.
     * \param scale multiplies the waveform (|scale| 1e-30..1e30); 256 / sqrt(200) (the default)
     *        gives unit average power over the data symbols.
     * \param max_bursts_per_batch most bursts per call (per GPU launch), 1..4096.
     * \param device "auto", "cpu", "cuda" or "cuda:N".
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter;
     *         std::runtime_error when "cuda" is asked for and no GPU is usable.
     */
    static sptr make(int rate_id = 1,
                     int cp_div = 4,
                     const std::string& preamble = "long",
                     bool uplink = false,
                     bool pad = true,
                     int seed = 19072,
                     int gap_samples = 400,
                     float scale = 18.1019336f,
                     int max_bursts_per_batch = 64,
                     const std::string& device = "auto");

    //! The device the block runs on: "cpu" or "cuda:N".
    virtual std::string device() const = 0;
    //! Bursts written out so far (complete bursts, gap included).
    virtual uint64_t bursts_sent() const = 0;
    //! PDUs dropped so far (bad PDUs and PDUs beyond the queue limit).
    virtual uint64_t pdus_dropped() const = 0;

    //! Default profile for PDUs without "rate_id"; throws std::invalid_argument.
    virtual void set_rate_id(int rate_id) = 0;
    virtual int rate_id() const = 0;
    //! Default seed for PDUs without "seed"; throws std::invalid_argument.
    virtual void set_seed(int seed) = 0;
    virtual int seed() const = 0;
    virtual int cp_div() const = 0;
    virtual int gap_samples() const = 0;
    virtual float scale() const = 0;
    virtual int max_bursts_per_batch() const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_WIMAX_TX_H */
