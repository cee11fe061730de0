/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_PRACH_DETECTOR_C_H
#define INCLUDED_GPUOFDM_PRACH_DETECTOR_C_H

#include <gnuradio/gpuofdm/api.h>
#include <gnuradio/sync_block.h>

#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * \brief 5G NR PRACH detector (3GPP TS 38.211 6.3.3): every preamble of one or several
 * cells, from one input per antenna.
 * \ingroup gpuofdm
 *
 * \details
 * The occasions start at start_sample + k period_samples (one occasion when
 * period_samples is 0), at the first sample of the preamble's CP; or, with a
 * config_index, where its row of 38.211 Table 6.3.3.2-2 / -3 puts them (38.211 5.3.2) in
 * the frames counted from frame_start, or from the last rx_time tag. Each occasion of each
 * cell (and of its msg1-FDM frequency occasions) is cut from every antenna, taken to the
 * PRACH bins, correlated with the cell's roots and searched per preamble window (the
 * core's prach_frontend and prach_detector, docs/blocks/prach_detector_c.md). Each
 * detection is a PMT dict on message port "detections": cell, sfn, slot, occasion (the
 * time occasion's number k), fd_occasion, sample (the occasion's first sample),
 * preamble, logical_root, delay_samples, delay_us, timing_advance (38.213 4.2, for the
 * uplink numerology of scs_khz), power_db, noise_db, snr_db, metric, threshold.
 * SFN and slot count from frame_start (the first sample of an SFN 0 frame), in slots of
 * scs_khz; once an `rx_time` tag (UHD's tuple of whole and fractional seconds) has come
 * on input 0 before an occasion's last sample, from that time instead (frames of 10 ms
 * counted from time 0, SFN modulo 1024); with a config_index the tag also moves the
 * occasions that start after it. Up to max_batch complete time occasions are detected together, on a
 * thread of the block's own, so the upstream is not held up while they are. On CUDA the
 * occasions' samples go straight from GNU Radio's (page-locked) input buffers to the
 * device, where the batch is detected.
 */
class GPUOFDM_API prach_detector_c : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<prach_detector_c> sptr;

    /*!
     * \param samp_rate sample rate: a multiple of the PRACH subcarrier spacing at which
     *        the CP is whole samples (30.72 MHz x 2^k).
     * \param format "0", "1", "2", "3", "A1", "A2", "A3", "B1".."B4", "C0", "C2".
     * \param scs_khz the uplink subcarrier spacing, 15, 30, 60 or 120: the short formats'
     *        PRACH spacing, and the slots and timing advance of every format.
     * \param n_antennas inputs, 1..64.
     * \param logical_roots one per cell: prach-RootSequenceIndex.
     * \param zero_correlation_zones one per cell (or one for all): 0..15.
     * \param restricted_sets one per cell (or one for all, or empty: unrestricted).
     * \param offsets_hz one per cell (or one for all): the PRACH sequence's first
     *        subcarrier from the centre, a multiple of the PRACH subcarrier spacing.
     * \param n_fd_occasions msg1-FDM: 1, 2, 4 or 8.
     * \param fd_spacing_hz between frequency occasions (N_RB x 12 x PUSCH spacing).
     * \param start_sample the first occasion's first CP sample, >= 0.
     * \param period_samples samples between occasions; 0: one occasion.
     * \param frame_start the first sample of a frame with SFN 0 (may be negative).
     * \param false_alarm the target false-alarm probability per (cell, occasion).
     * \param device "auto", "cpu", "cuda" or "cuda:N".
     * \param max_batch time occasions detected in one call of the front end and the
     *        detector, 1..64 / n_fd_occasions: detections come up to max_batch - 1
     *        periods later than the occasion's last sample (the end of the stream detects
     *        what is held); 1 detects each occasion as it completes.
     * \param config_index -1: the occasions are start_sample + k period_samples; 0..255:
     *        prach-ConfigurationIndex, the occasions of its row of 38.211 Table 6.3.3.2-2
     *        or -3 in the frames from frame_start (or from an rx_time tag), with
     *        start_sample and period_samples 0. For A1/B1, A2/B2, A3/B3 rows give the A
     *        format: the last occasion of each PRACH slot, in the B format, is read too.
     * \param spectrum "paired" (FDD, Table 6.3.3.2-2) or "unpaired" (TDD, 6.3.3.2-3), for
     *        config_index.
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter.
     */
    static sptr make(double samp_rate = 30.72e6,
                     const std::string& format = "0",
                     int scs_khz = 30,
                     int n_antennas = 1,
                     const std::vector<int>& logical_roots = { 0 },
                     const std::vector<int>& zero_correlation_zones = { 1 },
                     const std::vector<std::string>& restricted_sets = {},
                     const std::vector<double>& offsets_hz = { 0.0 },
                     int n_fd_occasions = 1,
                     double fd_spacing_hz = 0,
                     int start_sample = 0,
                     int period_samples = 0,
                     int frame_start = 0,
                     double false_alarm = 1e-3,
                     const std::string& device = "auto",
                     int max_batch = 8,
                     int config_index = -1,
                     const std::string& spectrum = "paired");

    //! The device the detector runs on: "cpu" or "cuda:N".
    virtual std::string device() const = 0;
    //! Time occasions detected together, at most (1 when period_samples is 0).
    virtual int max_batch() const = 0;
    //! Occasions (time occasions) processed so far.
    virtual uint64_t occasions() const = 0;
    //! Preambles reported so far.
    virtual uint64_t detections() const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_PRACH_DETECTOR_C_H */
