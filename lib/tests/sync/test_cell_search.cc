/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The cell search at one candidate, on signals from the synthesizer (each symbol evaluated
// as its subcarriers at the sample instants, not by the searcher's FFTs): cell ID, timing,
// CFO and the per-standard fields at moderate SNR; noise alone; two cells; combining.

#include "sync/cell_search.h"
#include "sync/cell_search_common.h"
#include "sync/sync_signal_synth.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

#ifdef GPUOFDM_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

using namespace gr::gpuofdm;
using core::cell_standard;
using cf = std::complex<float>;

namespace {

const core::device_spec cpu{};

std::vector<cf> capture(const core::synth_params& p, size_t n)
{
    core::sync_signal_synth synth(p);
    std::vector<cf> x(n);
    synth.generate(x.data(), n);
    return x;
}

// The candidate-rate sample of the CP start of the PSS symbol of slot \p slot.
double pss_sample(const core::synth_params& p, const core::synth_cell& cell, size_t slot)
{
    core::sync_signal_synth synth(p);
    return (cell.start_s + synth.slots_in_period()[slot].start_s) * p.sample_rate;
}

std::vector<core::cell_detection> search(const core::cell_search_params& sp,
                                         const std::vector<cf>& x)
{
    auto s = core::make_cell_search(sp, cpu);
    return s->search(x.data(), x.size(), 1, x.size(), 0);
}

} // namespace

TEST(cell_search, nr_finds_cell_timing_cfo_ssb)
{
    std::mt19937 rng(11);
    for (int trial = 0; trial < 6; trial++) {
        core::synth_params p;
        p.standard = cell_standard::nr;
        p.sample_rate = 7.68e6;
        p.scs_khz = 30;
        p.ssb_count = 8;
        p.center_hz = 3.5e9;
        const int id = std::uniform_int_distribution<int>(0, 1007)(rng);
        const double cfo = std::uniform_real_distribution<double>(-25e3, 25e3)(rng);
        const double start = std::uniform_real_distribution<double>(0.2e-3, 4e-3)(rng);
        p.cells = { { id, 0, 0, cfo, start } };
        p.noise_power = core::synth_noise_power_for_snr(p, 0.0);
        p.seed = 100 + trial;
        const auto x = capture(p, 7.68e6 * 8e-3);
        core::cell_search_params sp;
        sp.standard = cell_standard::nr;
        sp.scs_khz = 30;
        const auto dets = search(sp, x);
        // Eight SSBs in the half frame: each one found with its index.
        ASSERT_EQ(dets.size(), 8u) << "trial " << trial << " id " << id;
        std::vector<bool> seen(8, false);
        double cfo_sum = 0;
        for (const auto& d : dets) {
            EXPECT_EQ(d.cell_id, id);
            ASSERT_GE(d.ssb_index, 0);
            seen[d.ssb_index] = true;
            const double expected = pss_sample(p, p.cells[0], 4 * d.ssb_index);
            EXPECT_NEAR(static_cast<double>(d.sample), expected, 1.0) << "ssb " << d.ssb_index;
            // One 256-sample PSS at 0 dB over its band: the estimate's spread is about
            // 1.3 kHz (the bound from one symbol is about 1 kHz); 5 kHz is near 4 sigma.
            EXPECT_NEAR(d.cfo_hz, cfo, 5e3);
            cfo_sum += d.cfo_hz;
            // Spread about 0.8 dB at 0 dB, and a fractional timing offset costs up to 0.9 dB.
            EXPECT_NEAR(d.snr_db, 0.0, 3.0);
        }
        EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 8);
        EXPECT_NEAR(cfo_sum / 8, cfo, 1.5e3); // eight estimates
    }
}

// At 30 dB the timing is exact to a sample and the CFO to tens of Hz, anywhere in the
// default range (+- one subcarrier), at 15 kHz SSB spacing with case A.
TEST(cell_search, nr_15khz_high_snr_accuracy)
{
    for (double cfo : { -14.9e3, -7.5e3, 0.0, 3.3e3, 14.9e3 }) {
        core::synth_params p;
        p.standard = cell_standard::nr;
        p.sample_rate = 3.84e6;
        p.scs_khz = 15;
        p.nr_case = 'A';
        p.ssb_count = 4;
        p.cells = { { 1007, 0, 0, cfo, 1.37e-3 } };
        p.noise_power = core::synth_noise_power_for_snr(p, 30.0);
        const auto x = capture(p, 3.84e6 * 8e-3);
        core::cell_search_params sp;
        sp.standard = cell_standard::nr;
        sp.scs_khz = 15;
        sp.ssb_lmax = 4;
        const auto dets = search(sp, x);
        ASSERT_EQ(dets.size(), 4u) << "cfo " << cfo;
        for (const auto& d : dets) {
            EXPECT_EQ(d.cell_id, 1007);
            EXPECT_EQ(d.half_frame, 0);
            EXPECT_NEAR(static_cast<double>(d.sample), pss_sample(p, p.cells[0], 4 * d.ssb_index),
                        0.5);
            EXPECT_NEAR(d.cfo_hz, cfo, 100.0); // about 20 Hz spread at 30 dB
        }
    }
}

// LTE: FDD and TDD, normal and extended CP, both half frames: the subframe of the PSS, the
// CP and the duplex come from where the SSS was found and which SSS it was.
TEST(cell_search, lte_frame_structures)
{
    for (bool tdd : { false, true }) {
        for (bool ext : { false, true }) {
            core::synth_params p;
            p.standard = cell_standard::lte;
            p.sample_rate = 1.92e6;
            p.lte_tdd = tdd;
            p.lte_extended_cp = ext;
            const int id = tdd ? (ext ? 503 : 17) : (ext ? 250 : 0);
            p.cells = { { id, 0, 0, -4.1e3, 2.3e-3 } };
            p.noise_power = core::synth_noise_power_for_snr(p, 5.0);
            const auto x = capture(p, 1.92e6 * 12e-3);
            core::cell_search_params sp;
            sp.standard = cell_standard::lte;
            const auto dets = search(sp, x);
            ASSERT_GE(dets.size(), 2u) << "tdd " << tdd << " ext " << ext;
            for (const auto& d : dets) {
                EXPECT_EQ(d.cell_id, id);
                EXPECT_EQ(d.tdd, tdd ? 1 : 0);
                EXPECT_EQ(d.extended_cp, ext ? 1 : 0);
                // The slot list holds SSS, PSS of the first half, then of the second.
                const bool second = d.subframe == 5 || d.subframe == 6;
                EXPECT_EQ(d.subframe, (second ? 5 : 0) + (tdd ? 1 : 0));
                const double expected = pss_sample(p, p.cells[0], second ? 3 : 1);
                EXPECT_NEAR(static_cast<double>(d.sample), expected, 1.0);
                EXPECT_NEAR(d.cfo_hz, -4.1e3, 1.5e3);
            }
        }
    }
}

// LTE's CFO refined by the SSS's turn from the PSS (1 symbol before it, 3 with TDD): at
// 10 dB over the sync band, with a carrier frequency given (36.211 upconverts without a
// phase per symbol), the error's RMS over 10 cells is well under the 344 Hz of the PSS's
// halves alone (gpuofdm_cellsearch_pd at 10 dB: 85 Hz refined).
TEST(cell_search, lte_cfo_refined_by_the_sss)
{
    std::mt19937 rng(5);
    for (bool tdd : { false, true }) {
        double squares = 0;
        int count = 0;
        for (int trial = 0; trial < 10; trial++) {
            core::synth_params p;
            p.standard = cell_standard::lte;
            p.sample_rate = 1.92e6;
            p.center_hz = 2.14e9;
            p.lte_tdd = tdd;
            const int id = std::uniform_int_distribution<int>(0, 503)(rng);
            const double cfo = std::uniform_real_distribution<double>(-14e3, 14e3)(rng);
            core::synth_cell cell;
            cell.cell_id = id;
            cell.cfo_hz = cfo;
            cell.start_s = 1.1e-3 + 0.3e-3 * trial;
            p.cells.push_back(cell);
            p.noise_power = core::synth_noise_power_for_snr(p, 10.0);
            p.seed = 300 + static_cast<uint64_t>(trial);
            const auto x = capture(p, 1.92e6 * 7e-3);
            core::cell_search_params sp;
            sp.standard = cell_standard::lte;
            for (const auto& d : search(sp, x)) {
                ASSERT_EQ(d.cell_id, id);
                squares += (d.cfo_hz - cfo) * (d.cfo_hz - cfo);
                count++;
            }
        }
        ASSERT_GE(count, 10) << "tdd " << tdd;
        EXPECT_LT(std::sqrt(squares / count), 150.0) << "tdd " << tdd;
    }
}

// 5GTF at 19.2 Msps: each of the 14 symbols of subframes 0 and 25 carries PSS, SSS and ESS;
// the ESS tells the symbol, the SSS the subframe, under both readings of the ESS index.
TEST(cell_search, fivegtf_symbol_and_subframe)
{
    for (auto reading : { core::fivegtf_ess_index::subframe_number,
                          core::fivegtf_ess_index::sync_subframe_order }) {
        core::synth_params p;
        p.standard = cell_standard::fivegtf;
        p.sample_rate = 19.2e6;
        p.fivegtf_ess = reading;
        p.cells = { { 311, 0, 0, 20e3, 0.1e-3 } };
        p.noise_power = core::synth_noise_power_for_snr(p, 5.0);
        const auto x = capture(p, 19.2e6 * 6e-3);
        core::cell_search_params sp;
        sp.standard = cell_standard::fivegtf;
        sp.fivegtf_ess = reading;
        const auto dets = search(sp, x);
        std::vector<int> found(28, 0);
        core::sync_signal_synth synth(p);
        for (const auto& d : dets) {
            EXPECT_EQ(d.cell_id, 311);
            ASSERT_TRUE(d.subframe == 0 || d.subframe == 25);
            ASSERT_GE(d.symbol, 0);
            const size_t slot = (d.subframe == 25 ? 14 : 0) + d.symbol;
            found[slot]++;
            EXPECT_NEAR(static_cast<double>(d.sample), pss_sample(p, p.cells[0], slot), 1.0)
                << "subframe " << d.subframe << " symbol " << d.symbol;
        }
        // All 28 sync symbols in the 6 ms, each once.
        for (size_t s = 0; s < found.size(); s++) {
            EXPECT_EQ(found[s], 1) << "slot " << s;
        }
    }
}

// The alias timing's sign and size, against a brute-force search: the LTE PSS (tones at
// 128 and 256 points, with its normal CP, silence around) moved up by +-1 and +-2
// subcarriers, correlated with the unmoved PSS at every timing: the peak lies where
// zadoff_chu_alias_timing says, to the nearest sample.
TEST(cell_search, zadoff_chu_alias_timing_sign)
{
    using cd = std::complex<double>;
    for (int n : { 128, 256 }) {
        const int cp = n * 144 / 2048;
        for (int nid2 = 0; nid2 < 3; nid2++) {
            const auto d = core::lte_pss(nid2);
            auto symbol = [&](int shift, int from, int to) {
                std::vector<cd> x;
                for (int t = from; t < to; t++) {
                    cd v = 0;
                    for (int e = 0; e < core::lte_sync_length; e++) {
                        const int sub = (e < 31 ? e - 31 : e - 30) + shift;
                        v += cd(d[e]) * std::polar(1.0, 2 * M_PI * sub * t / n);
                    }
                    x.push_back(v);
                }
                return x;
            };
            const auto replica = symbol(0, 0, n);
            for (int shift : { -2, -1, 1, 2 }) {
                // The received symbol's useful part starts at sample n of rx.
                std::vector<cd> rx(3 * n, 0.0);
                const auto sym = symbol(shift, -cp, n);
                std::copy(sym.begin(), sym.end(), rx.begin() + n - cp);
                int peak = 0;
                double best = -1;
                for (int tau = -n + 1; tau < n; tau++) {
                    cd c = 0;
                    for (int t = 0; t < n; t++) {
                        c += rx[n + tau + t] * std::conj(replica[t]);
                    }
                    if (std::norm(c) > best) {
                        best = std::norm(c);
                        peak = tau;
                    }
                }
                EXPECT_NEAR(peak, core::zadoff_chu_alias_timing(core::lte_pss_root(nid2), shift, n),
                            1)
                    << "N " << n << " nid2 " << nid2 << " shift " << shift;
            }
        }
    }
}

// LTE and 5GTF with the CFO 0.9 of a subcarrier either way, at 20 dB, the frame start at
// fractions of a sample: the PSS (a Zadoff-Chu sequence) two subcarriers off matches itself
// 10 to 26 samples away (LTE), so a PSS whose own match loses to a fractional timing can
// lose its peak to the hypothesis at the range's other end (LTE at half a sample: N_ID^(2)
// 1 at -0.9, 2 at +0.9); the SSS at the aliases settles it. Every PSS found with the
// right ID, timing and CFO.
TEST(cell_search, zadoff_chu_cfo_alias)
{
    for (auto standard : { cell_standard::lte, cell_standard::fivegtf }) {
        const auto layout = core::make_cell_search_layout(standard, 15);
        for (int nid2 = 0; nid2 < 3; nid2++) {
            for (double frac : { 0.0, 0.25, 0.5, 0.75 }) {
                for (double sign : { -1.0, 1.0 }) {
                    core::synth_params p;
                    p.standard = standard;
                    p.sample_rate = layout.rate_hz;
                    const int id = 3 * (40 + 37 * nid2) + nid2;
                    const double cfo = sign * 0.9 * layout.scs_hz;
                    core::synth_cell cell;
                    cell.cell_id = id;
                    cell.cfo_hz = cfo;
                    cell.start_s = 0.7e-3 + frac / layout.rate_hz;
                    p.cells.push_back(cell);
                    p.noise_power = core::synth_noise_power_for_snr(p, 20.0);
                    p.seed = 3 + nid2;
                    const auto x = capture(p, static_cast<size_t>(layout.rate_hz * 6e-3));
                    core::cell_search_params sp;
                    sp.standard = standard;
                    auto searcher = core::make_cell_search(sp, cpu);
                    const auto dets = searcher->search(x.data(), x.size(), 1, x.size(), 0);
                    const std::string what = std::string(core::cell_standard_name(standard)) +
                                             " id " + std::to_string(id) + " cfo " +
                                             std::to_string(cfo) + " frac " + std::to_string(frac);
                    // The PSS symbols (CP starts) whose useful part starts in the searched span.
                    core::sync_signal_synth synth(p);
                    std::vector<double> truth;
                    for (int k = 0; k < 2; k++) {
                        const auto& slots = synth.slots_in_period();
                        for (size_t s = 0; s < slots.size(); s++) {
                            const bool pss = standard == cell_standard::lte ? slots[s].part == 1
                                                                            : slots[s].part == 0;
                            const double at =
                                pss_sample(p, p.cells[0], s) + k * synth.period_s() * p.sample_rate;
                            const double useful = at + slots[s].cp_s * p.sample_rate;
                            if (pss && useful >= searcher->history() &&
                                useful < x.size() - searcher->lookahead()) {
                                truth.push_back(at);
                            }
                        }
                    }
                    EXPECT_EQ(dets.size(), truth.size()) << what;
                    for (const auto& d : dets) {
                        EXPECT_EQ(d.cell_id, id) << what;
                        EXPECT_NEAR(d.cfo_hz, cfo, 0.1 * layout.scs_hz) << what;
                        double nearest = 1e30;
                        for (double at : truth) {
                            if (std::fabs(at - d.sample) < std::fabs(nearest)) {
                                nearest = at - d.sample;
                            }
                        }
                        EXPECT_NEAR(nearest, 0.0, 1.0) << what << " sample " << d.sample;
                    }
                }
            }
        }
    }
}

// Two NR cells at one raster position, 0 and -6 dB, their SSBs 1 ms apart: both reported.
TEST(cell_search, two_cells_one_raster_position)
{
    core::synth_params p;
    p.standard = cell_standard::nr;
    p.sample_rate = 7.68e6;
    p.cells = { { 100, 0, 0, 2e3, 0.5e-3 }, { 731, -6, 0, -3e3, 1.5e-3 } };
    p.noise_power = core::synth_noise_power_for_snr(p, 10.0);
    const auto x = capture(p, 7.68e6 * 5e-3);
    core::cell_search_params sp;
    const auto dets = search(sp, x);
    int first = 0, second = 0;
    for (const auto& d : dets) {
        first += d.cell_id == 100;
        second += d.cell_id == 731;
    }
    EXPECT_EQ(first, 1);
    EXPECT_EQ(second, 1);
    EXPECT_EQ(dets.size(), 2u);
}

// Noise alone, at the default thresholds: nothing, in any standard.
TEST(cell_search, noise_only_no_detection)
{
    for (auto standard : { cell_standard::nr, cell_standard::lte, cell_standard::fivegtf }) {
        core::cell_search_params sp;
        sp.standard = standard;
        const auto layout = core::make_cell_search_layout(standard, sp.scs_khz);
        core::synth_params p;
        p.standard = standard;
        p.sample_rate = layout.rate_hz;
        p.noise_power = 1.0;
        p.seed = 77;
        const auto x = capture(p, static_cast<size_t>(layout.rate_hz * 20e-3));
        EXPECT_TRUE(search(sp, x).empty()) << core::cell_standard_name(standard);
        if (standard == cell_standard::fivegtf) {
            sp.combine_symbols = true;
            EXPECT_TRUE(search(sp, x).empty()) << "5GTF, symbols combined";
        }
    }
}

// At -10 dB four periods combined find the cell at its timing (the per-period metric, about
// 13 on average, is under the single-period threshold of 18).
TEST(cell_search, combining_periods_at_low_snr)
{
    core::synth_params p;
    p.standard = cell_standard::nr;
    p.sample_rate = 7.68e6;
    p.sync_period_s = 20e-3;
    p.cells = { { 612, 0, 0, 1e3, 3e-3 } };
    p.noise_power = core::synth_noise_power_for_snr(p, -10.0);
    const auto x = capture(p, 7.68e6 * 82e-3);
    core::cell_search_params sp;
    sp.combine_periods = 4;
    const auto dets = search(sp, x);
    ASSERT_EQ(dets.size(), 1u);
    EXPECT_EQ(dets[0].cell_id, 612);
    EXPECT_EQ(dets[0].ssb_index, 0);
    EXPECT_NEAR(static_cast<double>(dets[0].sample), pss_sample(p, p.cells[0], 0), 1.0);
}

// In noise the SSS metric of K periods (each period's correlation over the root of its
// equalized power, added as complex numbers, |sum|^2 / K) has nearly one period's law, which
// is what its threshold assumes. LTE noise searched at low thresholds, so that noise peaks
// reach the SSS and are reported with their best hypothesis's SSS metric: its mean for 4
// periods must be that for 1 within 0.75. (A sum of 4 self-normalized terms has a tail a
// little heavier than one's: 0.4 higher here. The mean of the periods' |correlation|^2, as
// read before, has a far narrower law: 3.6 against 8.3 here; the sum counting a period
// whose channel estimate kept nothing, 6.5.)
TEST(cell_search, sss_metric_in_noise_has_one_law_for_any_periods)
{
    const auto layout = core::make_cell_search_layout(cell_standard::lte, 15);
    core::synth_params p;
    p.standard = cell_standard::lte;
    p.sample_rate = layout.rate_hz;
    p.noise_power = 1.0;
    const auto mean_sss = [&](int periods, size_t& count) {
        core::cell_search_params sp;
        sp.standard = cell_standard::lte;
        sp.combine_periods = periods;
        sp.pss_threshold = 10;
        sp.sss_threshold = 1.0001;
        double sum = 0;
        count = 0;
        for (uint64_t seed = 1; count < 300 && seed < 200; seed++) {
            p.seed = seed;
            for (const auto& d :
                 search(sp, capture(p, static_cast<size_t>(p.sample_rate * 30e-3)))) {
                sum += d.sss_metric;
                count++;
            }
        }
        return sum / static_cast<double>(count);
    };
    size_t n1 = 0, n4 = 0;
    const double one = mean_sss(1, n1), four = mean_sss(4, n4);
    ASSERT_GE(std::min(n1, n4), 300u) << "too few noise peaks reached the SSS";
    // The best of a few thousand unit exponentials: mean about 8, spread about 1.3, so the
    // mean of 300 or more within 0.1 or so of its own.
    EXPECT_GT(one, 6.0) << n1;
    EXPECT_LT(one, 10.0) << n1;
    EXPECT_NEAR(four, one, 0.75) << n1 << " and " << n4 << " noise peaks";
}

// The levels the metrics are held to. One period: the parameters' (the SSS's by default the
// standard's: 14.75, LTE's 13.5). NR's and LTE's SSS added coherently over K periods: where
// a unit exponential passes as rarely as one period's law, N Beta(1, N - 1), passes the SSS
// threshold T, (N - 1) log(N / (N - T)); from K N >= 248 subcarriers 2 higher, the PSS's 2
// lower (the budget moved to the SSS); 5GTF's mean of K powers and LTE's 10 ms frame
// (2 x 62) without the shift.
TEST(cell_search, metric_thresholds_of_combined_periods)
{
    const auto thresholds = [](cell_standard standard, int periods) {
        core::cell_search_params sp;
        sp.standard = standard;
        sp.combine_periods = periods;
        const auto s = core::make_cell_search(sp, cpu);
        return std::make_pair(s->pss_metric_threshold(), s->sss_metric_threshold());
    };
    const auto coherent = [](double n, double t) { return (n - 1) * std::log(n / (n - t)); };
    EXPECT_EQ(thresholds(cell_standard::nr, 1), std::make_pair(16.0, 14.75));
    EXPECT_EQ(thresholds(cell_standard::lte, 1), std::make_pair(16.0, 13.5));
    EXPECT_EQ(thresholds(cell_standard::fivegtf, 1), std::make_pair(16.0, 14.75));
    EXPECT_NEAR(thresholds(cell_standard::lte, 2).second, coherent(62, 13.5), 1e-9);
    EXPECT_NEAR(thresholds(cell_standard::lte, 4).second, coherent(62, 13.5) + 2, 1e-9);
    EXPECT_NEAR(thresholds(cell_standard::nr, 2).second, coherent(127, 14.75) + 2, 1e-9);
    EXPECT_NEAR(thresholds(cell_standard::nr, 4).second, coherent(127, 14.75) + 2, 1e-9);
    EXPECT_LT(thresholds(cell_standard::fivegtf, 4).second, 14.75);
    // A mean of K metrics of noise is near 1 with a tail that falls about K times as fast as
    // one's: its level lies between.
    for (int periods : { 2, 4 }) {
        const double pss = thresholds(cell_standard::nr, periods).first;
        EXPECT_GT(pss, 1.0);
        EXPECT_LT(pss, 16.0);
    }
}

namespace {

// The CPU twin's search of \p periods periods of \p standard at \p pss_threshold with
// \p pss_steps, the rest by default.
std::unique_ptr<core::cell_search> cpu_search(cell_standard standard,
                                              int periods,
                                              double pss_threshold,
                                              int pss_steps)
{
    core::cell_search_params sp;
    sp.standard = standard;
    sp.combine_periods = periods;
    sp.pss_threshold = pss_threshold;
    sp.pss_steps = pss_steps;
    return core::make_cell_search(sp, cpu);
}

} // namespace

// NR's and LTE's coherent periods: three more steps, step j holding the PSS to the level of
// a search whose PSS threshold is j lower (the same law) and the SSS to 3 j more; one
// period and 5GTF: one step, the thresholds.
TEST(cell_search, metric_steps_of_combined_periods)
{
    const auto search = [](cell_standard standard, int periods, double pss_threshold) {
        return cpu_search(standard, periods, pss_threshold, -1);
    };
    for (auto [standard, periods] :
         { std::pair{ cell_standard::nr, 2 }, std::pair{ cell_standard::nr, 4 },
           std::pair{ cell_standard::lte, 2 }, std::pair{ cell_standard::lte, 4 } }) {
        const auto s = search(standard, periods, 16);
        const auto& steps = s->metric_steps();
        ASSERT_EQ(steps.size(), 4u);
        EXPECT_EQ(steps[0].pss, s->pss_metric_threshold());
        EXPECT_EQ(steps[0].sss, s->sss_metric_threshold());
        for (size_t j = 1; j < steps.size(); j++) {
            EXPECT_FLOAT_EQ(steps[j].pss,
                            search(standard, periods, 16.0 - j)->pss_metric_threshold());
            EXPECT_LT(steps[j].pss, steps[j - 1].pss);
            EXPECT_NEAR(steps[j].sss, s->sss_metric_threshold() + 3.0 * j, 1e-9);
        }
        EXPECT_GT(steps.back().pss, 1.0);
    }
    for (auto [standard, periods] :
         { std::pair{ cell_standard::nr, 1 }, std::pair{ cell_standard::lte, 1 },
           std::pair{ cell_standard::fivegtf, 1 }, std::pair{ cell_standard::fivegtf, 4 } }) {
        EXPECT_EQ(search(standard, periods, 16)->metric_steps().size(), 1u);
    }
    // No step takes a single period's threshold under 1, noise's mean.
    EXPECT_EQ(search(cell_standard::nr, 4, 4.5)->metric_steps().size(), 2u);
}

// Steps asked for (cell_search_params::pss_steps): one period's step j holds the PSS to 16 -
// j and the SSS to its threshold + 2 j; combined periods take as many as asked, of 3; 0
// leaves the one pair; 5GTF's combined metrics take none.
TEST(cell_search, metric_steps_asked_for)
{
    const auto steps_of = [](cell_standard standard, int periods, int pss_steps) {
        return cpu_search(standard, periods, 16, pss_steps)->metric_steps();
    };
    for (auto standard : { cell_standard::nr, cell_standard::lte, cell_standard::fivegtf }) {
        const auto steps = steps_of(standard, 1, 4);
        ASSERT_EQ(steps.size(), 5u);
        for (size_t j = 0; j < steps.size(); j++) {
            EXPECT_FLOAT_EQ(steps[j].pss, 16.0 - j);
            EXPECT_NEAR(steps[j].sss, core::default_sss_threshold(standard) + 2.0 * j, 1e-9);
        }
    }
    const auto four = steps_of(cell_standard::nr, 4, -1);
    const auto six = steps_of(cell_standard::nr, 4, 5);
    ASSERT_EQ(six.size(), 6u);
    for (size_t j = 0; j < four.size(); j++) {
        EXPECT_EQ(six[j].pss, four[j].pss);
        EXPECT_EQ(six[j].sss, four[j].sss);
    }
    EXPECT_NEAR(six[5].sss, six[0].sss + 15, 1e-9);
    EXPECT_EQ(steps_of(cell_standard::nr, 4, 0).size(), 1u);
    EXPECT_EQ(steps_of(cell_standard::lte, 1, 0).size(), 1u);
    EXPECT_EQ(steps_of(cell_standard::fivegtf, 4, 0).size(), 1u);
    core::cell_search_params bad;
    bad.standard = cell_standard::fivegtf;
    bad.combine_periods = 2;
    bad.pss_steps = 1;
    EXPECT_THROW(core::make_cell_search(bad, cpu), std::invalid_argument);
    bad.standard = cell_standard::nr;
    bad.pss_steps = 7;
    EXPECT_THROW(core::make_cell_search(bad, cpu), std::invalid_argument);
}

// Four periods under a 20 ppm sample-clock offset either way: the PSS moves 9 samples over
// the 60 ms from the first period to the fourth at 7.68 Msps, more than its correlation
// peak is wide. At -10 dB one period rarely finds the cell (at -8 dB, with the PBCH DM-RS
// confirming weak SSS, it found half); four, each taken where its metric peaks within the
// drift, find it in every trial at its first period's timing.
TEST(cell_search, combining_periods_under_clock_offset)
{
    int found_single = 0, found_combined = 0, trials = 0;
    for (double ppm : { -20.0, 20.0 }) {
        for (int seed = 0; seed < 3; seed++) {
            core::synth_params p;
            p.standard = cell_standard::nr;
            p.sample_rate = 7.68e6;
            p.sync_period_s = 20e-3;
            p.sro_ppm = ppm;
            core::synth_cell cell;
            cell.cell_id = 101 + 97 * seed + (ppm > 0 ? 500 : 0);
            cell.cfo_hz = 4e3 * seed - 5e3;
            cell.start_s = 1.3e-3 + 2.9e-3 * seed;
            p.cells.push_back(cell);
            p.noise_power = core::synth_noise_power_for_snr(p, -10.0);
            p.seed = 40 + seed + (ppm > 0 ? 10 : 0);
            const auto x = capture(p, static_cast<size_t>(7.68e6 * 82e-3));
            const double truth = pss_sample(p, cell, 0) * (1 + ppm * 1e-6);
            trials++;
            for (int periods : { 1, 4 }) {
                core::cell_search_params sp;
                sp.combine_periods = periods;
                auto s = core::make_cell_search(sp, cpu);
                // The first period's timings only: the PSS at truth.
                const size_t n = s->history() + sp.period_samples() / 2 + s->lookahead();
                const auto dets = s->search(x.data(), x.size(), 1, n, 0);
                const bool found = std::any_of(dets.begin(), dets.end(), [&](const auto& d) {
                    return d.cell_id == cell.cell_id && d.ssb_index == 0 &&
                           std::fabs(static_cast<double>(d.sample) - truth) <= 1.0;
                });
                (periods == 1 ? found_single : found_combined) += found;
            }
        }
    }
    EXPECT_EQ(found_combined, trials);
    EXPECT_LT(found_single, trials / 2);
}

TEST(cell_search, bad_parameters)
{
    core::cell_search_params sp;
    sp.scs_khz = 60;
    EXPECT_THROW(sp.validate(), std::invalid_argument);
    sp = {};
    sp.pss_threshold = 0.5;
    EXPECT_THROW(sp.validate(), std::invalid_argument);
    sp = {};
    sp.sss_threshold = 0.5; // 0 is the standard's own; 0 < T <= 1 is below noise's mean
    EXPECT_THROW(sp.validate(), std::invalid_argument);
    sp.sss_threshold = -1;
    EXPECT_THROW(sp.validate(), std::invalid_argument);
    sp = {};
    sp.combine_periods = 17;
    EXPECT_THROW(sp.validate(), std::invalid_argument);
    sp = {};
    sp.cfo_range_hz = 65 * 30e3;
    EXPECT_THROW(sp.validate(), std::invalid_argument);
    sp = {};
    sp.sro_ppm = -1;
    EXPECT_THROW(sp.validate(), std::invalid_argument);
    sp.sro_ppm = 101;
    EXPECT_THROW(sp.validate(), std::invalid_argument);
    sp = {};
    sp.combine_symbols = true; // 5GTF's only
    EXPECT_THROW(sp.validate(), std::invalid_argument);
    sp.standard = cell_standard::fivegtf;
    EXPECT_NO_THROW(sp.validate());
    // Too short a row is no detection, not an error; NaN samples are silence.
    auto s = core::make_cell_search(core::cell_search_params{}, cpu);
    std::vector<cf> x(100, cf(NAN, INFINITY));
    EXPECT_TRUE(s->search(x.data(), x.size(), 1, x.size(), 0).empty());
    x.assign(s->history() + s->lookahead() + 5000, cf(NAN, 0));
    EXPECT_TRUE(s->search(x.data(), x.size(), 1, x.size(), 0).empty());
}

namespace {

void expect_same_detections(const std::vector<core::cell_detection>& a,
                            const std::vector<core::cell_detection>& b,
                            const std::string& what)
{
    ASSERT_EQ(a.size(), b.size()) << what;
    for (size_t i = 0; i < a.size(); i++) {
        EXPECT_EQ(a[i].channel, b[i].channel) << what;
        EXPECT_EQ(a[i].cell_id, b[i].cell_id) << what;
        EXPECT_EQ(a[i].sample, b[i].sample) << what;
        EXPECT_EQ(a[i].ssb_index, b[i].ssb_index) << what;
        EXPECT_EQ(a[i].subframe, b[i].subframe) << what;
        EXPECT_EQ(a[i].symbol, b[i].symbol) << what;
        EXPECT_NEAR(a[i].pss_metric, b[i].pss_metric, 1e-3 * a[i].pss_metric) << what;
        EXPECT_NEAR(a[i].cfo_hz, b[i].cfo_hz, 1.0) << what;
        EXPECT_NEAR(a[i].dmrs_metric, b[i].dmrs_metric, 1e-3 * std::max(1.0, a[i].dmrs_metric))
            << what;
    }
}

// \p rows rows of \p n samples at \p layout's rate, one after another: row c synthesized
// with seed \p seed + c (NR: 4 SSBs), the cells that \p cells_of(c, p) puts in p, at
// \p snr_db.
std::vector<cf> synthesized_rows(cell_standard standard,
                                 const core::cell_search_layout& layout,
                                 int rows,
                                 size_t n,
                                 uint64_t seed,
                                 double snr_db,
                                 const std::function<void(int, core::synth_params&)>& cells_of)
{
    std::vector<cf> x(rows * n);
    for (int c = 0; c < rows; c++) {
        core::synth_params p;
        p.standard = standard;
        p.sample_rate = layout.rate_hz;
        p.ssb_count = 4;
        p.seed = seed + c;
        cells_of(c, p);
        p.noise_power = core::synth_noise_power_for_snr(p, snr_db);
        core::sync_signal_synth(p).generate(x.data() + c * n, n);
    }
    return x;
}

} // namespace

// CUDA against the CPU twin: 24 candidate rows of NR (three cells, noise, NaN samples in
// one row), LTE and 5GTF rows; the same detections with the same fields, metrics to float
// rounding. The rows from the host (search) and already on the device, a pitch wider than
// a row apart (search_device: the kernels read and sanitize them there).
TEST(cell_search, cuda_matches_cpu)
{
    GPUOFDM_REQUIRE_GPU();
    for (auto standard : { cell_standard::nr, cell_standard::lte, cell_standard::fivegtf }) {
        core::cell_search_params sp;
        sp.standard = standard;
        const auto layout = core::make_cell_search_layout(standard, sp.scs_khz);
        const size_t n = static_cast<size_t>(layout.rate_hz * 11e-3);
        const int rows = 24;
        auto x = synthesized_rows(standard, layout, rows, n, 500, 2.0, [&](int c, auto& p) {
            if (c % 5 == 1) {
                p.cells.push_back({ 7 * c + 1, 0, 0, 1e3 * c - 9e3, 1e-4 * c + 0.2e-3 });
            }
            if (c == 16) {
                p.cells.push_back({ 300, -5, 0, 2e3, 2.2e-3 });
            }
            if (c == 11) {
                // LTE: its PSS peak goes to the Zadoff-Chu alias (zadoff_chu_cfo_alias).
                p.cells.clear(); // (GCC 12 warns wrongly on assigning a list here)
                p.cells.push_back(
                    { 232, 0, 0, -0.9 * layout.scs_hz, 0.7e-3 + 0.5 / layout.rate_hz });
            }
        });
        for (size_t i = 1000; i < 1100; i++) {
            x[3 * n + i] = cf(NAN, INFINITY);
        }
        auto on_cpu = core::make_cell_search(sp, cpu);
        auto on_gpu = core::make_cell_search(sp, core::device_spec{ core::backend::cuda, 0 });
        const auto a = on_cpu->search(x.data(), n, rows, n, 1000);
        ASSERT_FALSE(a.empty()) << core::cell_standard_name(standard);
        const std::string name = core::cell_standard_name(standard);
        expect_same_detections(a, on_gpu->search(x.data(), n, rows, n, 1000), name + ", host rows");
#ifdef GPUOFDM_HAVE_CUDA
        const size_t pitch = n + 37;
        void* d_rows = nullptr;
        ASSERT_EQ(cudaMalloc(&d_rows, rows * pitch * sizeof(cf)), cudaSuccess);
        ASSERT_EQ(cudaMemcpy2D(d_rows, pitch * sizeof(cf), x.data(), n * sizeof(cf), n * sizeof(cf),
                               rows, cudaMemcpyHostToDevice),
                  cudaSuccess);
        const auto b = on_gpu->search_device(static_cast<const cf*>(d_rows), pitch, rows, n, 1000);
        cudaFree(d_rows);
        expect_same_detections(a, b, name + ", device rows");
#endif
    }
}

// The same with three periods combined along the drift paths: NR and 5GTF rows with cells
// under a +-20 ppm sample clock at -3 dB, and noise; and 5GTF with its sync symbols
// combined as well.
TEST(cell_search, cuda_matches_cpu_combining)
{
    GPUOFDM_REQUIRE_GPU();
    for (int run = 0; run < 3; run++) {
        const auto standard = run == 0 ? cell_standard::nr : cell_standard::fivegtf;
        core::cell_search_params sp;
        sp.standard = standard;
        sp.combine_periods = 3;
        sp.combine_symbols = run == 2;
        const auto layout = core::make_cell_search_layout(standard, sp.scs_khz);
        auto on_cpu = core::make_cell_search(sp, cpu);
        auto on_gpu = core::make_cell_search(sp, core::device_spec{ core::backend::cuda, 0 });
        const size_t n = on_cpu->history() + sp.period_samples() / 2 + on_cpu->lookahead();
        const int rows = 4;
        std::vector<cf> x(rows * n);
        for (int c = 0; c < rows; c++) {
            core::synth_params p;
            p.standard = standard;
            p.sample_rate = layout.rate_hz;
            p.seed = 700 + c;
            p.sro_ppm = c % 2 == 0 ? 20 : -20;
            if (c != 3) {
                p.cells = { { 50 * c + 17, 0, 0, 3e3 * c - 4e3, 0.3e-3 + 0.6e-3 * c } };
            }
            p.noise_power = core::synth_noise_power_for_snr(p, -3.0);
            core::sync_signal_synth(p).generate(x.data() + c * n, n);
        }
        const auto a = on_cpu->search(x.data(), n, rows, n, 0);
        ASSERT_FALSE(a.empty()) << core::cell_standard_name(standard);
        expect_same_detections(a, on_gpu->search(x.data(), n, rows, n, 0),
                               core::cell_standard_name(standard));
    }
}

namespace {

// The DM-RS tests' rows: 24 of NR at its candidate rate (30 kHz SSBs), 11 ms each.
constexpr int dmrs_test_rows = 24;
size_t dmrs_test_row_length(const core::cell_search_params& sp)
{
    return static_cast<size_t>(core::make_cell_search_layout(sp.standard, sp.scs_khz).rate_hz *
                               11e-3);
}
std::vector<cf> dmrs_test_rows_of(const core::cell_search_params& sp,
                                  uint64_t seed,
                                  double snr_db,
                                  const std::function<void(int, core::synth_params&)>& cells_of)
{
    return synthesized_rows(sp.standard, core::make_cell_search_layout(sp.standard, sp.scs_khz),
                            dmrs_test_rows, dmrs_test_row_length(sp), seed, snr_db, cells_of);
}

} // namespace

// NR: an SSS up to dmrs_sss_relief (5) under its level passes where its cell's PBCH DM-RS
// confirms it. Weak cells (-7 dB, 4 SSBs each) in 24 rows: some are found that way, none
// is a wrong cell, and every detection's DM-RS stands out of noise; CUDA finds the same.
TEST(cell_search, nr_dmrs_confirms_weak_sss)
{
    const core::cell_search_params sp; // NR, one period
    const size_t n = dmrs_test_row_length(sp);
    const int rows = dmrs_test_rows;
    const auto cell_of = [](int c) { return 41 * c + 3; };
    const auto x = dmrs_test_rows_of(sp, 1300, -7.0, [&](int c, auto& p) {
        p.cells.push_back({ cell_of(c), 0, 0, 900.0 * c - 10e3, 0.2e-3 + 0.15e-3 * c });
    });
    auto on_cpu = core::make_cell_search(sp, cpu);
    const double sss_level = on_cpu->sss_metric_threshold();
    const auto a = on_cpu->search(x.data(), n, rows, n, 0);
    int confirmed = 0;
    for (const auto& d : a) {
        EXPECT_EQ(d.cell_id, cell_of(d.channel)) << "row " << d.channel;
        EXPECT_GE(d.sss_metric, sss_level - 5) << "row " << d.channel;
        EXPECT_GE(d.dmrs_metric, 0) << "row " << d.channel;
        confirmed += d.sss_metric < sss_level;
        if (d.sss_metric < sss_level) {
            EXPECT_GE(d.dmrs_metric, -std::log(3e-4)) << "row " << d.channel;
        }
    }
    EXPECT_GT(a.size(), 40u);
    EXPECT_GE(confirmed, 1) << "no detection confirmed by its DM-RS";
    GPUOFDM_REQUIRE_GPU();
    auto on_gpu = core::make_cell_search(sp, core::device_spec{ core::backend::cuda, 0 });
    expect_same_detections(a, on_gpu->search(x.data(), n, rows, n, 0), "nr");
}

// NR: every detection needs a PBCH DM-RS metric of at least dmrs_floor (1), which noise's
// reaches about 1 time in 4. Strong cells (0 dB, 4 SSBs each) in 24 rows: with their own
// DM-RS every SSB is reported; with another cell's (on other subcarriers) most are not.
TEST(cell_search, nr_pbch_dmrs_must_match)
{
    const core::cell_search_params sp; // NR, one period
    const size_t n = dmrs_test_row_length(sp);
    const int rows = dmrs_test_rows;
    const auto cell_of = [](int c) { return 17 * c + 5; };
    const auto rows_with = [&](bool other_dmrs) {
        return dmrs_test_rows_of(sp, 1500, 0.0, [&](int c, auto& p) {
            core::synth_cell cell{ cell_of(c), 0, 0, 500.0 * c - 6e3, 0.3e-3 + 0.1e-3 * c };
            cell.pbch_cell_id = other_dmrs ? cell_of(c) + 1 : -1;
            p.cells.push_back(cell);
        });
    };
    const auto found = [&](const std::vector<core::cell_detection>& dets) {
        int count = 0;
        for (const auto& d : dets) {
            count += d.cell_id == cell_of(d.channel);
            EXPECT_GE(d.dmrs_metric, 1) << "row " << d.channel;
        }
        return count;
    };
    auto on_cpu = core::make_cell_search(sp, cpu);
    const auto own = rows_with(false), other = rows_with(true);
    EXPECT_EQ(found(on_cpu->search(own.data(), n, rows, n, 0)), 4 * rows);
    const auto a = on_cpu->search(other.data(), n, rows, n, 0);
    EXPECT_LE(found(a), 4 * rows * 45 / 100);
    GPUOFDM_REQUIRE_GPU();
    auto on_gpu = core::make_cell_search(sp, core::device_spec{ core::backend::cuda, 0 });
    expect_same_detections(a, on_gpu->search(other.data(), n, rows, n, 0), "nr, other DM-RS");
}

// One period with 4 steps of levels (pss_steps): weak cells (NR -7 dB, LTE -3 dB) in 24 rows,
// some found on a step (a PSS under 16, which the device gathers down to 12); CUDA finds
// the CPU twin's detections.
TEST(cell_search, cuda_matches_cpu_steps)
{
    for (auto standard : { cell_standard::nr, cell_standard::lte }) {
        core::cell_search_params sp;
        sp.standard = standard;
        sp.pss_steps = 4;
        const double snr_db = standard == cell_standard::nr ? -7.0 : -3.0;
        const auto layout = core::make_cell_search_layout(standard, sp.scs_khz);
        const size_t n = static_cast<size_t>(layout.rate_hz * 11e-3);
        const int rows = 24;
        const auto x = synthesized_rows(standard, layout, rows, n, 900, snr_db, [](int c, auto& p) {
            p.cells.push_back({ 19 * c + 5, 0, 0, 700.0 * c - 8e3, 0.3e-3 + 0.2e-3 * c });
        });
        const std::string name = core::cell_standard_name(standard);
        const auto a = core::make_cell_search(sp, cpu)->search(x.data(), n, rows, n, 0);
        ASSERT_TRUE(std::any_of(a.begin(), a.end(),
                                [](const core::cell_detection& d) { return d.pss_metric < 16; }))
            << name << ": no detection on a step";
        GPUOFDM_REQUIRE_GPU();
        auto on_gpu = core::make_cell_search(sp, core::device_spec{ core::backend::cuda, 0 });
        expect_same_detections(a, on_gpu->search(x.data(), n, rows, n, 0), name);
    }
}

// 5GTF with its sync symbols combined, strong cells: the other N_ID^(2)'s PSS
// cross-correlate with a strong cell's at a fifth of its metric or so, over the combined
// thresholds, with SSS and ESS sidelobes that pass theirs; only the cell's own ID is
// reported. Two co-timed cells 3 dB apart (other N_ID^(2)) are both.
TEST(cell_search, fivegtf_symbols_combined_strong_cells)
{
    int ghosts = 0;
    for (int trial = 0; trial < 6; trial++) {
        core::synth_params p;
        p.standard = cell_standard::fivegtf;
        p.sample_rate = 19.2e6;
        p.cells.push_back({ 100 + trial, 0, 0, 2e3 * trial - 5e3, 0.5e-3 });
        p.noise_power = core::synth_noise_power_for_snr(p, trial % 2 ? 20.0 : 5.0);
        p.seed = 90 + trial;
        core::cell_search_params sp;
        sp.standard = cell_standard::fivegtf;
        sp.combine_symbols = true;
        const auto dets = search(sp, capture(p, 19.2e6 * 6e-3));
        EXPECT_EQ(dets.size(), 2u) << "trial " << trial; // subframes 0 and 25
        for (const auto& d : dets) {
            ghosts += d.cell_id != p.cells[0].cell_id;
        }
    }
    EXPECT_EQ(ghosts, 0);

    core::synth_params p;
    p.standard = cell_standard::fivegtf;
    p.sample_rate = 19.2e6;
    p.cells.push_back({ 100, 0, 0, 2e3, 0.5e-3 });
    p.cells.push_back({ 201, -3, 0, -3e3, 0.5e-3 });
    p.noise_power = core::synth_noise_power_for_snr(p, 10.0);
    core::cell_search_params sp;
    sp.standard = cell_standard::fivegtf;
    sp.combine_symbols = true;
    const auto dets = search(sp, capture(p, 19.2e6 * 6e-3));
    std::vector<int> ids;
    for (const auto& d : dets) {
        ids.push_back(d.cell_id);
    }
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(ids, (std::vector<int>{ 100, 100, 201, 201 }));
}

TEST(cell_search, mean_max_exponential_tail_matches_closed_forms)
{
    // h = 1: the mean of m unit exponentials, a gamma's tail, summed term by term.
    const auto gamma_tail = [](int m, double t) {
        double sum = 0;
        for (int i = 0; i < m; i++) {
            sum += std::exp(i * std::log(m * t) - std::lgamma(i + 1));
        }
        return -m * t + std::log(sum);
    };
    for (const int m : { 1, 4, 14, 56 }) {
        for (const double t : { 2.0, 4.0, 8.0 }) {
            EXPECT_NEAR(core::log_mean_max_exponential_tail(m, 1, t), gamma_tail(m, t), 0.03)
                << m << " " << t;
        }
    }
    // m = 1: the largest of h, 1 - (1 - e^-t)^h.
    for (const int h : { 2, 5, 15 }) {
        for (const double t : { 4.0, 8.0, 16.0 }) {
            EXPECT_NEAR(core::log_mean_max_exponential_tail(1, h, t),
                        std::log(-std::expm1(h * std::log1p(-std::exp(-t)))), 0.05)
                << h << " " << t;
        }
    }
    // m = 2, h = 2: the sum of two maxima is Y + Z, Y = E1 + E2 and Z = (E3 + E4) / 2
    // (Renyi), integrated directly: P(Y >= x) + the integral over y < x of Y's density
    // y e^-y times P(Z >= x - y), by the midpoint rule.
    const auto tail_2_2 = [](double x) {
        const int steps = 200000;
        const double dy = x / steps;
        double p = 0;
        for (int i = 0; i < steps; i++) {
            const double y = (i + 0.5) * dy, z = x - y;
            // P(Z >= z) for Z = (E3 + E4) / 2: e^-2z (1 + 2z).
            p += y * std::exp(-y) * std::exp(-2 * z) * (1 + 2 * z) * dy;
        }
        return std::log(p + std::exp(-x) * (1 + x)); // + P(E1 + E2 >= x)
    };
    for (const double t : { 3.0, 6.0, 10.0 }) {
        EXPECT_NEAR(core::log_mean_max_exponential_tail(2, 2, t), tail_2_2(2 * t), 0.05) << t;
    }
}

// The law 5GTF's combined SSS and ESS thresholds come from, against closed forms: one
// Beta(a, b) term by its binomial sum, P(X > x) = sum_{j<a} C(a+b-1, j) x^j (1-x)^(a+b-1-j);
// sums of uniforms (Beta(1, 1)) by the Irwin-Hall law.
TEST(cell_search, beta_sum_tail_matches_closed_forms)
{
    const auto binomial_tail = [](int a, int b, double x) {
        const int n = a + b - 1;
        double sum = 0;
        for (int j = 0; j < a; j++) {
            sum += std::exp(std::lgamma(n + 1) - std::lgamma(j + 1) - std::lgamma(n - j + 1) +
                            j * std::log(x) + (n - j) * std::log1p(-x));
        }
        return std::log(sum);
    };
    const core::beta_sum_tail sss(9, 53, 4);
    for (const double x : { 0.15, 0.25, 0.35, 0.4329 }) {
        EXPECT_NEAR(sss.log_tail(1, x), binomial_tail(9, 53, x), 0.02) << x;
    }
    // The one-period threshold: where a unit exponential's e^-14.75 falls.
    EXPECT_NEAR(sss.threshold(1, -14.75), 0.4329, 0.002);

    const core::beta_sum_tail uniform(1, 1, 4);
    const auto irwin_hall_tail = [](int m, double t) {
        double cdf = 0;
        for (int k = 0; k <= static_cast<int>(std::floor(t)); k++) {
            cdf += (k % 2 ? -1.0 : 1.0) *
                   std::exp(std::lgamma(m + 1) - std::lgamma(k + 1) - std::lgamma(m - k + 1)) *
                   std::pow(t - k, m);
        }
        return std::log(1 - cdf / std::exp(std::lgamma(m + 1)));
    };
    for (const int m : { 2, 4 }) {
        for (const double t : { 0.5 * m, 0.7 * m, 0.9 * m }) {
            EXPECT_NEAR(uniform.log_tail(m, t), irwin_hall_tail(m, t), 0.03) << m << " " << t;
        }
    }
    EXPECT_EQ(sss.log_tail(2, 0.0), 0.0);
}
