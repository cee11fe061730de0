/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The synchronization sequences of NR, LTE and 5GTF: against values written out by hand
// from the standards' recursions, against the properties the standards choose them for
// (m-sequence and Gold cross-correlations, ZC conjugate roots), and parameter checks.

#include "sync/sync_sequences.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gr::gpuofdm;
using core::sss_half;

namespace {

std::vector<float> from_signs(const std::string& signs)
{
    std::vector<float> v;
    for (char ch : signs) {
        v.push_back(ch == '+' ? 1.0f : -1.0f);
    }
    return v;
}

template <typename A, typename B>
float dot(const A& a, const B& b)
{
    float sum = 0;
    for (size_t i = 0; i < a.size(); i++) {
        sum += a[i] * b[i];
    }
    return sum;
}

} // namespace

// The first eleven values of d_PSS for N_ID^(2) = 0, stepped by hand from 38.211 7.4.2.2:
// x(0..6) = 0 1 1 0 1 1 1, x(7) = x(4)+x(0) = 1, x(8) = x(5)+x(1) = 0, x(9) = x(6)+x(2) = 0,
// x(10) = x(7)+x(3) = 1.
TEST(sync_sequences, nr_pss_first_values)
{
    const auto d = core::nr_pss(0);
    const auto expected = from_signs("+--+----++-");
    for (size_t n = 0; n < expected.size(); n++) {
        EXPECT_EQ(d[n], expected[n]) << "n " << n;
    }
}

// An m-sequence's periodic autocorrelation is 127 at lag 0 and -1 at every other lag; the
// three PSS are the same sequence shifted by 43.
TEST(sync_sequences, nr_pss_is_a_shifted_m_sequence)
{
    for (int nid2 = 0; nid2 < 3; nid2++) {
        const auto d = core::nr_pss(nid2);
        for (int lag = 0; lag < 127; lag++) {
            float sum = 0;
            for (int n = 0; n < 127; n++) {
                sum += d[n] * d[(n + lag) % 127];
            }
            EXPECT_EQ(sum, lag == 0 ? 127.0f : -1.0f) << "nid2 " << nid2 << " lag " << lag;
        }
        const auto d0 = core::nr_pss(0);
        for (int n = 0; n < 127; n++) {
            EXPECT_EQ(d[n], d0[(n + 43 * nid2) % 127]);
        }
    }
}

// x0 (D^7+D^4+1) and x1 (D^7+D+1) are a preferred pair, so the 1008 SSS are a Gold family:
// every zero-lag cross-correlation of two different SSS is -1, 15 or -17. All distinct.
TEST(sync_sequences, nr_sss_gold_family)
{
    std::vector<std::array<float, 127>> all;
    for (int nid1 = 0; nid1 < core::nr_nid1_count; nid1++) {
        for (int nid2 = 0; nid2 < 3; nid2++) {
            all.push_back(core::nr_sss(nid1, nid2));
        }
    }
    std::set<int> values;
    for (size_t a = 0; a < all.size(); a++) {
        EXPECT_EQ(dot(all[a], all[a]), 127.0f);
        for (size_t b = a + 1; b < all.size(); b++) {
            values.insert(static_cast<int>(dot(all[a], all[b])));
        }
    }
    EXPECT_EQ(values, (std::set<int>{ -17, -1, 15 }));
}

// 38.211 7.4.2.3 by hand for N_ID^(1) = 0, N_ID^(2) = 0 (m0 = m1 = 0): d(n) = (1-2 x0(n))
// (1-2 x1(n)), x0 = 1000000 1001100 ..., x1 = 1000000 1100000 ... (x(i+7) from the taps).
TEST(sync_sequences, nr_sss_first_values)
{
    // x0: 1 0 0 0 0 0 0, then x0(7) = x0(4)+x0(0) = 1, x0(8) = x0(5)+x0(1) = 0,
    // x0(9) = x0(6)+x0(2) = 0, x0(10) = x0(7)+x0(3) = 1.
    // x1: 1 0 0 0 0 0 0, then x1(7) = x1(1)+x1(0) = 1, x1(8) = x1(2)+x1(1) = 0,
    // x1(9) = 0, x1(10) = 0.
    const std::vector<int> x0{ 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1 };
    const std::vector<int> x1{ 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 };
    const auto d = core::nr_sss(0, 0);
    for (size_t n = 0; n < x0.size(); n++) {
        EXPECT_EQ(d[n], (1 - 2 * x0[n]) * (1 - 2 * x1[n])) << "n " << n;
    }
}

// 36.211 Table 6.11.2.1-1 at a few rows.
TEST(sync_sequences, lte_sss_m0_m1_table)
{
    const std::vector<std::array<int, 3>> rows{ { 0, 0, 1 },     { 1, 1, 2 },  { 29, 29, 30 },
                                                { 30, 0, 2 },    { 59, 0, 3 }, { 60, 1, 4 },
                                                { 100, 13, 17 }, { 167, 2, 9 } };
    for (const auto& r : rows) {
        const auto m = core::lte_sss_m0_m1(r[0]);
        EXPECT_EQ(m[0], r[1]) << "nid1 " << r[0];
        EXPECT_EQ(m[1], r[2]) << "nid1 " << r[0];
    }
}

// The SSS built in the test from the three 31-chip m-sequences written out by hand from
// their recursions (x(i+5) = x(i+2)+x(i), x(i+3)+x(i), x(i+4)+x(i+2)+x(i+1)+x(i), from 00001)
// and 36.211 6.11.2.1's interleaving, for every N_ID^(1), N_ID^(2) and both halves.
TEST(sync_sequences, lte_sss_against_hand_sequences)
{
    const auto s = from_signs("++++-++-+--++-----+++--+---+-+-");
    const auto c = from_signs("++++-+-+---+--+++-----++--+-++-");
    const auto z = from_signs("++++---++--+-----+-+++-++-+-+--");
    for (int nid1 = 0; nid1 < core::lte_nid1_count; nid1++) {
        const auto m = core::lte_sss_m0_m1(nid1);
        for (int nid2 = 0; nid2 < 3; nid2++) {
            for (auto half : { sss_half::first, sss_half::second }) {
                const int a = half == sss_half::first ? m[0] : m[1];
                const int b = half == sss_half::first ? m[1] : m[0];
                const auto d = core::lte_sss(nid1, nid2, half);
                for (int n = 0; n < 31; n++) {
                    const float even = s[(n + a) % 31] * c[(n + nid2) % 31];
                    const float odd =
                        s[(n + b) % 31] * c[(n + nid2 + 3) % 31] * z[(n + a % 8) % 31];
                    ASSERT_EQ(d[2 * n], even) << nid1 << " " << nid2 << " n " << n;
                    ASSERT_EQ(d[2 * n + 1], odd) << nid1 << " " << nid2 << " n " << n;
                }
            }
        }
    }
}

// Subframe 0 and subframe 5 (25) SSS differ for every cell, so the SSS tells the half frame;
// all 2 x 504 sequences are distinct.
TEST(sync_sequences, lte_sss_distinct)
{
    std::set<std::vector<float>> seen;
    for (int nid1 = 0; nid1 < core::lte_nid1_count; nid1++) {
        for (int nid2 = 0; nid2 < 3; nid2++) {
            for (auto half : { sss_half::first, sss_half::second }) {
                const auto d = core::lte_sss(nid1, nid2, half);
                seen.insert(std::vector<float>(d.begin(), d.end()));
            }
        }
    }
    EXPECT_EQ(seen.size(), 2u * 504u);
}

// Roots 29 and 34 add to 63, so their sequences are complex conjugates (36.211's property
// that lets a receiver correlate two PSS for the price of one); every value on the unit
// circle; the full ZC-63 (centre put back) has zero periodic autocorrelation off lag 0.
TEST(sync_sequences, lte_pss_zadoff_chu)
{
    const auto p1 = core::lte_pss(1), p2 = core::lte_pss(2);
    for (int n = 0; n < 62; n++) {
        EXPECT_NEAR(std::abs(p1[n] - std::conj(p2[n])), 0.0f, 1e-6f);
        EXPECT_NEAR(std::abs(p1[n]), 1.0f, 1e-6f);
    }
    for (int nid2 = 0; nid2 < 3; nid2++) {
        const int u = std::array<int, 3>{ 25, 29, 34 }[nid2];
        const auto p = core::lte_pss(nid2);
        std::vector<std::complex<double>> full(63);
        for (int n = 0; n < 62; n++) {
            full[n < 31 ? n : n + 1] = p[n];
        }
        full[31] = std::polar(1.0, -M_PI * u * 31 * 32 / 63.0);
        for (int lag = 1; lag < 63; lag++) {
            std::complex<double> sum = 0;
            for (int n = 0; n < 63; n++) {
                sum += full[n] * std::conj(full[(n + lag) % 63]);
            }
            EXPECT_LT(std::abs(sum), 1e-4) << "root " << u << " lag " << lag;
        }
    }
}

// The ESS: its ZC part in symbol l is symbol 0's shifted by Table 6.8.3.1-1's value (the
// scrambling divided out), its 14 symbols are told apart by correlation, and the two
// readings of "i" agree in subframe 0 and differ in subframe 25.
TEST(sync_sequences, fivegtf_ess)
{
    const auto reading = core::fivegtf_ess_index::subframe_number;
    for (int cell : { 0, 1, 255, 503 }) {
        const auto e0 = core::fivegtf_ess(cell, 0, sss_half::first, reading);
        for (int l = 0; l < core::fivegtf_symbols; l++) {
            const auto el = core::fivegtf_ess(cell, l, sss_half::first, reading);
            // V5G.211 Table 6.8.3.1-1, written out here rather than read from the module.
            const int shift =
                std::array<int, 14>{ 0, 7, 14, 18, 21, 25, 32, 34, 38, 41, 45, 52, 59, 61 }[l];
            for (int n = 0; n < 63; n++) {
                // e_l(n) / e_0(n) = ZC(n + shift) / ZC(n): the same QPSK r(n) cancels.
                const auto zc = [](int k) {
                    return std::polar(1.0, -M_PI * 25 * k * (k + 1) / 63.0);
                };
                const auto expected = zc((n + shift) % 63) / zc(n);
                const auto ratio = std::complex<double>(el[n]) / std::complex<double>(e0[n]);
                EXPECT_NEAR(std::abs(ratio - expected), 0.0, 1e-5) << cell << " " << l << " " << n;
            }
            for (int other = 0; other < core::fivegtf_symbols; other++) {
                const auto eo = core::fivegtf_ess(cell, other, sss_half::first, reading);
                std::complex<float> sum = 0;
                for (int n = 0; n < 63; n++) {
                    sum += el[n] * std::conj(eo[n]);
                }
                if (other == l) {
                    EXPECT_NEAR(std::abs(sum), 63.0f, 1e-3f);
                } else {
                    EXPECT_LT(std::abs(sum), 63.0f * 0.5f) << cell << " " << l << " " << other;
                }
            }
        }
        const auto other_reading = core::fivegtf_ess_index::sync_subframe_order;
        EXPECT_EQ(e0, core::fivegtf_ess(cell, 0, sss_half::first, other_reading));
        EXPECT_NE(core::fivegtf_ess(cell, 0, sss_half::second, reading),
                  core::fivegtf_ess(cell, 0, sss_half::second, other_reading));
    }
}

// The Gold sequence is linear in x2's initial state: c(a ^ b) = c(a) ^ c(b) ^ c(0).
TEST(sync_sequences, gold_sequence_linear_in_c_init)
{
    const auto c0 = core::gold_sequence(0, 200);
    for (uint32_t a : { 1u, 0x1234u, 0x7fffffffu }) {
        for (uint32_t b : { 2u, 0x4321u, 0x55555555u }) {
            const auto ca = core::gold_sequence(a, 200), cb = core::gold_sequence(b, 200);
            const auto cab = core::gold_sequence(a ^ b, 200);
            for (size_t n = 0; n < 200; n++) {
                ASSERT_EQ(cab[n], ca[n] ^ cb[n] ^ c0[n]);
            }
        }
    }
}

// Both CP layouts fill a 0.2 ms subframe: 14 x 2048 + CPs = 30720 samples at 153.6 Msps.
TEST(sync_sequences, fivegtf_cp_layouts)
{
    for (auto layout :
         { core::fivegtf_long_cp::symbols_0_and_8, core::fivegtf_long_cp::symbols_0_and_7 }) {
        int total = 0;
        for (int l = 0; l < 14; l++) {
            total += 2048 + core::fivegtf_cp_length(l, layout);
        }
        EXPECT_EQ(total, 30720);
    }
    EXPECT_EQ(core::fivegtf_cp_length(7, core::fivegtf_long_cp::symbols_0_and_7), 160);
    EXPECT_EQ(core::fivegtf_cp_length(8, core::fivegtf_long_cp::symbols_0_and_8), 160);
}

TEST(sync_sequences, bad_identities)
{
    EXPECT_THROW(core::nr_pss(3), std::invalid_argument);
    EXPECT_THROW(core::nr_sss(336, 0), std::invalid_argument);
    EXPECT_THROW(core::nr_sss(0, -1), std::invalid_argument);
    EXPECT_THROW(core::lte_sss(168, 0, sss_half::first), std::invalid_argument);
    EXPECT_THROW(
        core::fivegtf_ess(504, 0, sss_half::first, core::fivegtf_ess_index::subframe_number),
        std::invalid_argument);
    EXPECT_THROW(core::fivegtf_ess_shift(14), std::invalid_argument);
    try {
        core::nr_sss(400, 0);
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("nid1: 0..335, got 400"), std::string::npos);
    }
}

// The Walsh-Hadamard correlator against the sums written out: every hypothesis of every
// N_ID^(2), NR and LTE, on random subcarriers (the sequences from nr_sss() / lte_sss()).
TEST(sync_sequences, sss_correlator_equals_direct_sums)
{
    std::mt19937 rng(7);
    std::normal_distribution<double> g;
    for (bool nr : { true, false }) {
        for (int nid2 = 0; nid2 < core::nid2_count; nid2++) {
            const core::sss_correlator corr(nr, nid2);
            ASSERT_EQ(corr.length(), nr ? 127u : 62u);
            ASSERT_EQ(corr.hypotheses(), 336u);
            std::vector<std::complex<double>> z(corr.length()), sums(corr.hypotheses());
            for (auto& v : z) {
                v = { g(rng), g(rng) };
            }
            corr.correlate(z.data(), sums.data());
            for (size_t h = 0; h < corr.hypotheses(); h++) {
                std::vector<float> d;
                if (nr) {
                    const auto s = core::nr_sss(static_cast<int>(h), nid2);
                    d.assign(s.begin(), s.end());
                } else {
                    const auto half = h % 2 == 0 ? sss_half::first : sss_half::second;
                    const auto s = core::lte_sss(static_cast<int>(h / 2), nid2, half);
                    d.assign(s.begin(), s.end());
                }
                std::complex<double> direct = 0;
                for (size_t n = 0; n < d.size(); n++) {
                    direct += z[n] * static_cast<double>(d[n]);
                }
                ASSERT_LT(std::abs(sums[h] - direct), 1e-9)
                    << (nr ? "NR" : "LTE") << " nid2 " << nid2 << " hypothesis " << h;
            }
        }
    }
    EXPECT_THROW(core::sss_correlator(true, 3), std::invalid_argument);
}
