/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_SYNC_SIGNAL_SYNTH_H
#define GPUOFDM_CORE_SYNC_SIGNAL_SYNTH_H

// Synthesis of cells' synchronization signals at any sample rate, for tests, demos and the
// sync_signal_source_c block: NR SS/PBCH blocks (PSS, SSS, PBCH DM-RS with the SSB index,
// QPSK PBCH data), LTE PSS/SSS (FDD or TDD, normal or extended CP), 5GTF PSS/SSS/ESS in all
// 14 symbols of subframes 0 and 25.
//
// Each OFDM symbol that carries a sync signal is evaluated as its sum of subcarriers at the
// receiver's sample instants (38.211 5.3.1 / 36.211 6.12: the CP is the symbol's own
// continuation), not by an IFFT at the standard's rate: so any sample rate, any raster
// offset, a carrier offset and a sample-clock offset come out exact, and the searcher's
// FFT-based processing is checked against a different route. Symbols without sync signals
// are silent (no other channels).

#include "sync/sync_raster.h"
#include "sync/sync_sequences.h"

#include <complex>
#include <cstdint>
#include <vector>

namespace gr::gpuofdm::core {

//! One cell to synthesize.
struct synth_cell {
    int cell_id = 0;      //!< NR 0..1007, LTE / 5GTF 0..503
    double power_db = 0;  //!< power of its sync signal's subcarriers, dB (0: unit power each)
    double offset_hz = 0; //!< its raster position from the capture's centre
    double cfo_hz = 0;    //!< carrier frequency offset on top of offset_hz
    double start_s = 0;   //!< time of its radio frame's start relative to sample 0, seconds
    //! NR: the cell ID its PBCH DM-RS is made from; -1 its own. Another ID makes an SSB
    //! whose PBCH does not match its PSS and SSS (tests of the DM-RS's check).
    int pbch_cell_id = -1;
};

struct synth_params {
    cell_standard standard = cell_standard::nr;
    double sample_rate = 30.72e6; //!< 1.92e6..245.76e6
    //! The capture's centre frequency (0: unknown). NR resets each symbol's phase at the
    //! carrier frequency (38.211 5.4); this sets that carrier (center_hz + offset_hz).
    double center_hz = 0;
    int scs_khz = 30; //!< NR SSB subcarrier spacing 15 or 30 (LTE 15, 5GTF 75 fixed)
    //! NR: SSB pattern case 'A' (15 kHz), 'B' or 'C' (30 kHz); the first L_max SSBs of the
    //! half frame are sent (L_max = 4 below 3 GHz, 8 above; here: ssb_count 1..8).
    char nr_case = 'C';
    int ssb_count = 1;            //!< NR SSBs per burst, 1..8
    double sync_period_s = 20e-3; //!< NR SSB burst period (5, 10, 20, 40, 80, 160 ms)
    bool lte_tdd = false;         //!< LTE: TDD places the PSS in subframes 1 and 6
    bool lte_extended_cp = false;
    fivegtf_long_cp fivegtf_cp = fivegtf_long_cp::symbols_0_and_7;
    fivegtf_ess_index fivegtf_ess = fivegtf_ess_index::subframe_number;
    double sro_ppm = 0;     //!< receiver sample clock error: sample n at n / (fs (1 + ppm))
    double noise_power = 0; //!< complex white noise power per sample (over the full rate)
    uint64_t seed = 1;      //!< noise and PBCH data
    std::vector<synth_cell> cells;

    void validate() const;
};

//! The sync signal's noise power per sample that gives \p snr_db over the sync signal's own
//! bandwidth (its subcarriers x spacing), for a cell of power_db 0.
double synth_noise_power_for_snr(const synth_params& params, double snr_db);

/*!
 * \brief A synthesizer that produces consecutive samples: the same stream however the
 * calls are cut.
 */
class sync_signal_synth
{
public:
    explicit sync_signal_synth(const synth_params& params);

    //! The next \p n samples.
    void generate(std::complex<float>* out, size_t n);
    uint64_t samples_done() const { return d_next; }

    //! A sync symbol as sent: its start (CP start) in seconds within the frame, its CP and
    //! useful durations, and which signals it carries, for tests.
    struct symbol_slot {
        double start_s = 0, cp_s = 0, useful_s = 0;
        int ssb_index = -1; //!< NR: the SSB index; LTE/5GTF: -1
        int subframe = 0;   //!< subframe of the frame
        int symbol = 0;     //!< OFDM symbol index in its subframe (5GTF: the ESS symbol)
        //! NR: the symbol's place in the SSB 0..3 (PSS, PBCH, SSS, PBCH); LTE: 0 SSS, 1 PSS;
        //! 5GTF: 0 (PSS, SSS and ESS share each symbol)
        int part = 0;
        sss_half half = sss_half::first; //!< LTE/5GTF: subframe 0 or 5 / 25
    };
    const std::vector<symbol_slot>& slots_in_period() const { return d_slots; }
    double period_s() const { return d_period; }

private:
    struct tone {
        double freq_hz;             //!< from the cell's raster position
        std::complex<double> value; //!< amplitude and phase
    };
    std::vector<tone> symbol_tones(const synth_cell& cell, const symbol_slot& slot);
    void add_symbol(const synth_cell& cell,
                    const std::vector<tone>& tones,
                    double symbol_start_s,
                    const symbol_slot& slot,
                    std::complex<double>* acc,
                    size_t n);

    synth_params d_params;
    std::vector<symbol_slot> d_slots;
    double d_period = 0;
    uint64_t d_next = 0;
    uint64_t d_noise_state;
    std::vector<std::vector<std::vector<tone>>> d_tones; // [cell][slot]
};

} // namespace gr::gpuofdm::core

#endif // GPUOFDM_CORE_SYNC_SIGNAL_SYNTH_H
