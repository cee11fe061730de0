/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_PRACH_SOURCE_C_H
#define INCLUDED_GPUOFDM_PRACH_SOURCE_C_H

#include <gnuradio/gpuofdm/api.h>
#include <gnuradio/sync_block.h>

#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * \brief 5G NR PRACH preambles of UEs (3GPP TS 38.211 6.3.3, 5.3.2) as received on several
 * antennas, plus white noise: tests, demos and trying prach_detector_c.
 * \ingroup gpuofdm
 *
 * \details
 * One cell (logical root, zeroCorrelationZoneConfig, restricted set) sends its occasions at
 * start_sample + k period_samples (one occasion when period_samples is 0); in each, every
 * UE sends the preamble of its index, delayed, with its frequency offset, power and
 * per-antenna complex gain. Each preamble is the sum of its subcarriers at the sample
 * instants (any delay, fractions included). Power is per PRACH subcarrier relative to
 * noise of unit variance per sample: power_db is the per-subcarrier SNR (38.104's SNR)
 * when noise is on. One output per antenna.
 */
class GPUOFDM_API prach_source_c : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<prach_source_c> sptr;

    /*!
     * \param samp_rate sample rate: a multiple of the PRACH subcarrier spacing at which
     *        the CP is whole samples (30.72 MHz x 2^k, or 1.92 MHz for format 0).
     * \param format "0", "1", "2", "3", "A1", "A2", "A3", "B1".."B4", "C0", "C2".
     * \param scs_khz PRACH subcarrier spacing of the short formats, 15, 30, 60 or 120;
     *        ignored for the long formats.
     * \param n_antennas outputs, 1..64.
     * \param logical_root prach-RootSequenceIndex (0..837 long, 0..137 short).
     * \param zero_correlation_zone zeroCorrelationZoneConfig, 0..15.
     * \param restricted_set "unrestricted", "A" or "B" (long formats).
     * \param offset_hz the PRACH sequence's first subcarrier from the centre, a multiple
     *        of the PRACH subcarrier spacing.
     * \param start_sample the first occasion's first CP sample.
     * \param period_samples samples between occasions; 0: one occasion.
     * \param preambles each UE's preamble index, 0..63; one entry per UE (may be empty).
     * \param delays_samples each UE's delay (empty: 0), 0..one sequence period.
     * \param cfo_hz each UE's frequency offset (empty: 0).
     * \param power_db each UE's per-subcarrier power in dB (empty: 0).
     * \param gains per-antenna complex gains, UE by UE (n_antennas each); empty: 1.
     * \param noise whether unit-variance white noise is added.
     * \param seed the noise.
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter.
     */
    static sptr make(double samp_rate = 30.72e6,
                     const std::string& format = "0",
                     int scs_khz = 30,
                     int n_antennas = 1,
                     int logical_root = 0,
                     int zero_correlation_zone = 1,
                     const std::string& restricted_set = "unrestricted",
                     double offset_hz = 0,
                     int start_sample = 0,
                     int period_samples = 0,
                     const std::vector<int>& preambles = { 0 },
                     const std::vector<double>& delays_samples = {},
                     const std::vector<double>& cfo_hz = {},
                     const std::vector<double>& power_db = {},
                     const std::vector<gr_complex>& gains = {},
                     bool noise = true,
                     int seed = 1);

    //! Samples of one preamble (CP and repetitions).
    virtual int preamble_samples() const = 0;
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_PRACH_SOURCE_C_H */
