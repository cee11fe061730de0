/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PRACH_SYNTH_H
#define GPUOFDM_CORE_PRACH_SYNTH_H

// PRACH preambles of UEs in the time domain, per antenna, plus white noise: the signal
// of tests, demos and the prach_source_c block (CPU only, like sync_signal_synth).
//
// Each occasion starts at start_sample + k period_samples (one occasion when period_samples
// is 0). A UE's preamble is 38.211 5.3.2's sum over the sequence's subcarriers,
//   s(t) = a sum_k y_{u,v}(k) exp(j 2 pi (k + k0) Delta f_RA (t - tau - T_CP)),
// k0 = offset_hz / Delta f_RA, for t - tau in [0, T_CP + N_u) (CP and repetitions), then
// times exp(j 2 pi cfo t) and the antenna's gain. The sum is periodic in 1 / Delta f_RA,
// so one inverse DFT of n_fft = sample_rate / Delta f_RA points gives it for any delay
// (the delay as a linear phase). a makes the per-bin power of the PRACH front end's
// 1 / sqrt(n_fft) DFT 10^(power_db / 10): noise of variance noise_power per sample has
// that power per bin, so power_db - 10 log10(noise_power) is the per-bin SNR.

#include "ofdm/ofdm_layout.h"
#include "prach/prach_tables.h"

#include <cstdint>
#include <random>
#include <vector>

namespace gr::gpuofdm::core {

//! One UE's preamble.
struct prach_synth_ue {
    int u = 1;                 //!< physical root (1..L_RA-1)
    int cv = 0;                //!< cyclic shift C_v, 0..L_RA-1
    double delay_samples = 0;  //!< round-trip delay at sample_rate, 0..period (fractions allowed)
    double cfo_hz = 0;         //!< frequency offset, |cfo| < sample_rate / 2
    double power_db = 0;       //!< per-bin power (see the top of this file)
    std::vector<cfloat> gains; //!< per antenna; empty: 1 on every antenna
};

struct prach_synth_params {
    prach_format format = prach_format::f0;
    int mu = 0;                   //!< short formats 0..3; 0 for the long ones
    double sample_rate = 30.72e6; //!< Hz, <= 491.52e6: a multiple of Delta f_RA, whole CPs
    double offset_hz = 0;         //!< sequence bin 0 from the centre, a multiple of Delta f_RA
    int n_antennas = 1;           //!< 1..64
    uint64_t start_sample = 0;    //!< the first occasion's first CP sample
    uint64_t period_samples = 0;  //!< between occasions (0: one occasion), >= the preamble
    int extra_cp_kappa = 0;       //!< 0, 16, .., 64 (38.211 5.3.2's 16 kappa)
    std::vector<prach_synth_ue> ues;
    double noise_power = 0; //!< variance per sample, >= 0
    uint64_t seed = 1;

    //! The ranges above; throws std::invalid_argument("name: range, got value").
    void validate() const;
};

class prach_synth
{
public:
    explicit prach_synth(const prach_synth_params& p);

    const prach_synth_params& params() const { return d_params; }
    //! Samples of one preamble: CP and repetitions.
    size_t preamble_samples() const { return d_len; }
    int fft_size() const { return d_fft; }
    int cp_samples() const { return d_cp; }

    /*!
     * \brief The next \p n samples of every antenna: out[a] for antenna a (n_antennas
     * pointers). Throws std::invalid_argument for a null pointer.
     */
    void generate(cfloat* const* out, size_t n);

private:
    prach_synth_params d_params;
    int d_fft = 0;
    int d_cp = 0;
    size_t d_len = 0;
    //! Per UE: its waveform from the occasion's start, CFO applied, unit gain.
    std::vector<std::vector<cfloat>> d_wave;
    std::vector<std::mt19937_64> d_rng; //!< per antenna
    uint64_t d_pos = 0;
};

} // namespace gr::gpuofdm::core

#endif
