/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_SYNC_SIGNAL_SOURCE_C_H
#define INCLUDED_GPUOFDM_SYNC_SIGNAL_SOURCE_C_H

#include <gnuradio/gpuofdm/api.h>
#include <gnuradio/sync_block.h>

#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * \brief Synchronization signals of cells, for tests, demos and trying the cell searcher:
 * 5G NR SS/PBCH blocks (PSS, SSS, PBCH DM-RS with the SSB index, QPSK PBCH data), LTE
 * PSS/SSS (FDD), or Verizon 5GTF PSS/SSS/ESS, plus white noise.
 * \ingroup gpuofdm
 *
 * \details
 * Each cell has its ID, power, raster offset from the stream's centre, carrier frequency
 * offset and frame start; the per-cell lists may be empty (all 0) or as long as cell_ids.
 * Each OFDM symbol carrying a sync signal is computed as its sum of subcarriers at the
 * sample instants, so any sample rate, offset and sample-clock offset come out exact. NR
 * sends the first SSB of a case C (30 kHz) or case A (15 kHz) burst every 20 ms; LTE
 * and 5GTF their frames every 10 ms. Other channels are silent.
 */
class GPUOFDM_API sync_signal_source_c : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<sync_signal_source_c> sptr;

    /*!
     * \param standard "nr", "lte" or "5gtf".
     * \param samp_rate sample rate, 1.92e6..245.76e6.
     * \param cell_ids NR 0..1007, LTE / 5GTF 0..503; one entry per cell.
     * \param power_db each cell's power in dB (empty: 0 dB, unit power per subcarrier).
     * \param offsets_hz each cell's raster position from the centre (empty: 0).
     * \param cfo_hz each cell's carrier frequency offset (empty: 0).
     * \param start_s each cell's frame start relative to the first sample (empty: 0).
     * \param snr_db the SNR of a 0 dB cell over its sync signal's band (NR 127, LTE / 5GTF
     *        62 subcarriers); infinity for no noise.
     * \param ssb_scs_khz NR SSB subcarrier spacing, 15 or 30.
     * \param sro_ppm sample-clock offset of the receiver, -1000..1000 ppm.
     * \param center_freq the carrier frequency (NR resets each symbol's phase at it); 0.
     * \param seed noise and PBCH data.
     * \throws std::invalid_argument (Python ValueError) naming a bad parameter.
     */
    static sptr make(const std::string& standard = "nr",
                     double samp_rate = 7.68e6,
                     const std::vector<int>& cell_ids = { 0 },
                     const std::vector<double>& power_db = {},
                     const std::vector<double>& offsets_hz = {},
                     const std::vector<double>& cfo_hz = {},
                     const std::vector<double>& start_s = {},
                     double snr_db = 10,
                     int ssb_scs_khz = 30,
                     double sro_ppm = 0,
                     double center_freq = 0,
                     int seed = 1);
};

} // namespace gpuofdm
} // namespace gr

#endif /* INCLUDED_GPUOFDM_SYNC_SIGNAL_SOURCE_C_H */
