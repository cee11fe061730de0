/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The sync-signal synthesizer: each symbol, demodulated by a direct DFT at the standard's
// own rate at the symbol times worked out by hand from 38.211 / 36.211 / V5G.211, gives
// the sequences on the right subcarriers; streams do not depend on how calls are cut;
// noise power, raster offsets, parameter checks.

#include "sync/sync_signal_synth.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <stdexcept>
#include <vector>

using namespace gr::gpuofdm;
using core::cell_standard;
using cf = std::complex<float>;

namespace {

std::vector<cf> synthesize(const core::synth_params& p, size_t n)
{
    core::sync_signal_synth synth(p);
    std::vector<cf> out(n);
    synth.generate(out.data(), n);
    return out;
}

// Bin b of the N-point DFT of x[start .. start+N), scaled by 1/N (a unit tone gives 1).
std::complex<double> dft_bin(const std::vector<cf>& x, size_t start, int n_fft, int bin)
{
    std::complex<double> sum = 0;
    for (int t = 0; t < n_fft; t++) {
        sum += std::complex<double>(x[start + t]) * std::polar(1.0, -2 * M_PI * bin * t / n_fft);
    }
    return sum / static_cast<double>(n_fft);
}

int wrap(int k, int n) { return ((k % n) + n) % n; }

} // namespace

// NR, 30 kHz, case C, SSB 0 at symbols 2..5 of the half frame. At 7.68 Msps (256 x 30 kHz)
// a symbol is 256 samples with a CP of 18 (the first of each 0.5 ms: 18 + 4): symbol 2's
// CP starts at 22 + 256 + 18 + 256 = 552, its useful part at 570.
TEST(sync_signal_synth, nr_ssb_on_its_subcarriers)
{
    core::synth_params p;
    p.standard = cell_standard::nr;
    p.sample_rate = 7.68e6;
    p.scs_khz = 30;
    p.cells = { { 457, 0, 0, 0, 0 } };
    const auto x = synthesize(p, 4000);
    const int nid1 = 457 / 3, nid2 = 457 % 3;
    const auto pss = core::nr_pss(nid2);
    const auto sss = core::nr_sss(nid1, nid2);
    const size_t pss_useful = 570;
    const size_t sss_useful = pss_useful + 2 * (18 + 256);
    for (int n = 0; n < 127; n++) {
        const int bin = wrap(56 + n - 120, 256);
        EXPECT_NEAR(std::abs(dft_bin(x, pss_useful, 256, bin) - double(pss[n])), 0, 1e-4) << n;
        EXPECT_NEAR(std::abs(dft_bin(x, sss_useful, 256, bin) - double(sss[n])), 0, 1e-4) << n;
    }
    // Outside the SSB's 240 subcarriers nothing; inside the PSS symbol nothing but the PSS.
    EXPECT_NEAR(std::abs(dft_bin(x, pss_useful, 256, wrap(-121, 256))), 0, 1e-4);
    EXPECT_NEAR(std::abs(dft_bin(x, pss_useful, 256, wrap(55 - 120, 256))), 0, 1e-4);
    // The PBCH DM-RS of symbol 1 on k = 4m + (cell_id mod 4), QPSK of unit power.
    const size_t pbch_useful = pss_useful + 18 + 256;
    for (int k = 457 % 4; k < 240; k += 4) {
        EXPECT_NEAR(std::abs(dft_bin(x, pbch_useful, 256, wrap(k - 120, 256))), 1.0, 1e-4);
    }
    // Before symbol 2 the half frame is silent.
    for (size_t i = 0; i < 552; i++) {
        ASSERT_EQ(x[i], cf(0, 0)) << i;
    }
    EXPECT_NE(x[552], cf(0, 0));
}

// LTE FDD normal CP at 1.92 Msps (128 x 15 kHz): slot 0's symbol 6 starts at
// (10 + 128) + 5 x (9 + 128) = 823 samples, its useful part at 832; the SSS one symbol before.
TEST(sync_signal_synth, lte_pss_sss_positions)
{
    core::synth_params p;
    p.standard = cell_standard::lte;
    p.sample_rate = 1.92e6;
    p.cells = { { 301, 0, 0, 0, 0 } };
    const auto x = synthesize(p, 19200);
    const auto pss = core::lte_pss(301 % 3);
    const auto sss0 = core::lte_sss(301 / 3, 301 % 3, core::sss_half::first);
    const auto sss5 = core::lte_sss(301 / 3, 301 % 3, core::sss_half::second);
    for (int n = 0; n < 62; n++) {
        const int bin = wrap(n < 31 ? n - 31 : n - 30, 128);
        EXPECT_NEAR(std::abs(dft_bin(x, 832, 128, bin) - std::complex<double>(pss[n])), 0, 1e-4);
        EXPECT_NEAR(std::abs(dft_bin(x, 832 - 137, 128, bin) - double(sss0[n])), 0, 1e-4);
        // Subframe 5: 9600 samples later, the other SSS.
        EXPECT_NEAR(std::abs(dft_bin(x, 9600 + 832 - 137, 128, bin) - double(sss5[n])), 0, 1e-4);
    }
    EXPECT_NEAR(std::abs(dft_bin(x, 832, 128, 0)), 0, 1e-4); // DC left out
}

// 5GTF at 153.6 Msps: symbol 0 of subframe 0 has a CP of 160; PSS at -31..-1, +1..+31,
// SSS at +42..+103, ESS at -104..-42 (V5G.211 6.8); symbol 8 (long CP in the thesis's
// reading) starts at 160 + 8 x 2048 + 7 x 144 = 17552, its useful part at 17712.
TEST(sync_signal_synth, fivegtf_subframe)
{
    core::synth_params p;
    p.standard = cell_standard::fivegtf;
    p.sample_rate = 153.6e6;
    p.fivegtf_cp = core::fivegtf_long_cp::symbols_0_and_8;
    p.cells = { { 77, 0, 0, 0, 0 } };
    const auto x = synthesize(p, 20000);
    const auto pss = core::fivegtf_pss(77 % 3);
    const auto sss = core::fivegtf_sss(77 / 3, 77 % 3, core::sss_half::first);
    for (int symbol : { 0, 8 }) {
        const size_t useful = symbol == 0 ? 160 : 17712;
        const auto ess = core::fivegtf_ess(77, symbol, core::sss_half::first,
                                           core::fivegtf_ess_index::subframe_number);
        for (int n = 0; n < 62; n++) {
            const int pbin = wrap(n < 31 ? n - 31 : n - 30, 2048);
            EXPECT_NEAR(std::abs(dft_bin(x, useful, 2048, pbin) - std::complex<double>(pss[n])), 0,
                        1e-4);
            EXPECT_NEAR(std::abs(dft_bin(x, useful, 2048, n + 42) - double(sss[n])), 0, 1e-4);
        }
        for (int n = 0; n < 63; n++) {
            EXPECT_NEAR(std::abs(dft_bin(x, useful, 2048, wrap(n - 104, 2048)) -
                                 std::complex<double>(ess[n])),
                        0, 1e-4);
        }
    }
}

// A raster offset of k subcarriers moves the PSS k bins; a CFO of a whole subcarrier too.
TEST(sync_signal_synth, offset_moves_the_bins)
{
    core::synth_params p;
    p.standard = cell_standard::lte;
    p.sample_rate = 1.92e6;
    p.cells = { { 0, 0, 300e3, 0, 0 } }; // 20 subcarriers up
    auto x = synthesize(p, 2000);
    const auto pss = core::lte_pss(0);
    for (int n = 0; n < 62; n++) {
        const int bin = wrap((n < 31 ? n - 31 : n - 30) + 20, 128);
        EXPECT_NEAR(std::abs(std::abs(dft_bin(x, 832, 128, bin)) - std::abs(pss[n])), 0, 1e-4);
    }
    p.cells = { { 0, 0, 285e3, 15e3, 0 } };
    const auto y = synthesize(p, 2000);
    for (size_t i = 0; i < 2000; i++) {
        ASSERT_NEAR(std::abs(x[i] - y[i]), 0, 1e-4) << i;
    }
}

// The same stream in one call or in pieces (noise included); measured noise power.
TEST(sync_signal_synth, cut_invariant_and_noise_power)
{
    core::synth_params p;
    p.standard = cell_standard::nr;
    p.sample_rate = 15.36e6;
    p.scs_khz = 30;
    p.ssb_count = 4;
    p.center_hz = 3.5e9;
    p.noise_power = 0.25;
    p.sro_ppm = 20;
    p.cells = { { 5, -3, 1.2e6, 4e3, 1e-4 }, { 900, 0, -2e6, -7e3, 2.5e-3 } };
    const size_t n = 60000;
    const auto whole = synthesize(p, n);
    core::sync_signal_synth synth(p);
    std::vector<cf> pieces(n);
    size_t done = 0;
    for (size_t len : { 1u, 999u, 4096u, 30000u, 24904u }) {
        synth.generate(pieces.data() + done, len);
        done += len;
    }
    ASSERT_EQ(done, n);
    for (size_t i = 0; i < n; i++) {
        ASSERT_NEAR(std::abs(whole[i] - pieces[i]), 0, 1e-5) << i;
    }
    p.cells.clear();
    const auto noise = synthesize(p, 200000);
    double power = 0;
    for (const auto& v : noise) {
        power += std::norm(v);
    }
    EXPECT_NEAR(power / noise.size(), 0.25, 0.25 * 0.02);
}

TEST(sync_signal_synth, bad_parameters)
{
    core::synth_params p;
    p.sample_rate = 500e6;
    EXPECT_THROW(core::sync_signal_synth{ p }, std::invalid_argument);
    p = {};
    p.scs_khz = 15;
    p.nr_case = 'C';
    EXPECT_THROW(core::sync_signal_synth{ p }, std::invalid_argument);
    p = {};
    p.cells = { { 1008, 0, 0, 0, 0 } };
    EXPECT_THROW(core::sync_signal_synth{ p }, std::invalid_argument);
    p.cells = { { 0, 0, 0, 0, 0, 1008 } }; // its PBCH DM-RS's ID
    EXPECT_THROW(core::sync_signal_synth{ p }, std::invalid_argument);
    p.cells = { { 0, 0, 0, 0, 0, -2 } };
    EXPECT_THROW(core::sync_signal_synth{ p }, std::invalid_argument);
    p.standard = cell_standard::lte;
    p.cells = { { 504, 0, 0, 0, 0 } };
    EXPECT_THROW(core::sync_signal_synth{ p }, std::invalid_argument);
    p.cells = { { 0, 0, 20e6, 0, 0 } };
    EXPECT_THROW(core::sync_signal_synth{ p }, std::invalid_argument);
    p.cells = { { 0, 0, 0, 0, 2e4 } }; // a frame start far outside any recording
    EXPECT_THROW(core::sync_signal_synth{ p }, std::invalid_argument);
    p.cells = { { 0, 400, 0, 0, 0 } }; // 400 dB: the amplitude overflows a float
    EXPECT_THROW(core::sync_signal_synth{ p }, std::invalid_argument);
    p.cells.clear();
    p.standard = static_cast<cell_standard>(3);
    EXPECT_THROW(core::sync_signal_synth{ p }, std::invalid_argument);
}
