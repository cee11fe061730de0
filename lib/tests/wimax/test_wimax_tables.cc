/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.16-2004 tables the module builds against the confirmed tables of the test vectors
// (ieee80216-ofdm/README.md): the Figure 203 constellation labels and normalisation (8.3.3.2),
// point by point, and P_ALL of 8.3.3.6 through the two preambles built from it. Each table
// there agrees point by point between two open implementations independent of the one the
// module's tables were first transcribed from.

#include "ofdm/constellation.h"
#include "test_util.h"
#include "wimax/wimax_tx.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

using namespace gr::gpuofdm;
using core::cfloat;

namespace {

std::string table_path(const char* name)
{
    return test::testvector_dir() + "/ieee80216-ofdm/" + name;
}

//! The lines of a table file without its '#' comments; empty when the file is missing.
std::vector<std::string> table_lines(const std::string& path)
{
    std::vector<std::string> lines;
    std::ifstream f(path);
    for (std::string line; std::getline(f, line);)
        if (!line.empty() && line[0] != '#')
            lines.push_back(line);
    return lines;
}

size_t bin(int k) { return size_t((k + 256) % 256); }

} // namespace

TEST(wimax_tables, constellation_matches_figure_203_labels)
{
    const auto lines = table_lines(table_path("constellation_labels.txt"));
    if (lines.empty())
        GTEST_SKIP() << "802.16 test vectors not found: " << table_path("constellation_labels.txt");
    const std::map<std::string, core::modulation> mods = { { "BPSK", core::modulation::bpsk },
                                                           { "QPSK", core::modulation::qpsk },
                                                           { "16QAM", core::modulation::qam16 },
                                                           { "64QAM", core::modulation::qam64 } };
    std::map<std::string, size_t> seen;
    for (const auto& line : lines) {
        // modulation, bits b0 b1 .., I, Q, c, then the point I*c, Q*c.
        std::istringstream s(line);
        std::string mod, bits, i_level, q_level, c;
        double re = 0, im = 0;
        s >> mod >> bits >> i_level >> q_level >> c >> re >> im;
        ASSERT_FALSE(s.fail()) << "unreadable line: " << line;
        ASSERT_TRUE(mods.count(mod)) << line;
        const auto pts = core::constellation_points(mods.at(mod), core::phy_standard::ieee80216);
        ASSERT_EQ(bits.size(), size_t(core::bits_per_symbol(mods.at(mod)))) << line;
        const size_t label = std::stoul(bits, nullptr, 2); // b0 the MSB, as the table indexes
        EXPECT_NEAR(pts[label].real(), re, 1e-5) << mod << " " << bits;
        EXPECT_NEAR(pts[label].imag(), im, 1e-5) << mod << " " << bits;
        seen[mod]++;
    }
    EXPECT_EQ(seen["BPSK"], 2u);
    EXPECT_EQ(seen["QPSK"], 4u);
    EXPECT_EQ(seen["16QAM"], 16u);
    EXPECT_EQ(seen["64QAM"], 64u);
}

TEST(wimax_tables, preambles_follow_p_all)
{
    const auto lines = table_lines(table_path("p_all.txt"));
    if (lines.empty())
        GTEST_SKIP() << "802.16 test vectors not found: " << table_path("p_all.txt");
    std::map<int, std::complex<double>> p_all;
    for (const auto& line : lines) {
        std::istringstream s(line);
        int k = 0;
        double re = 0, im = 0;
        s >> k >> re >> im;
        ASSERT_FALSE(s.fail()) << "unreadable line: " << line;
        p_all[k] = { re, im };
    }
    ASSERT_EQ(p_all.size(), 201u);
    ASSERT_EQ(p_all.begin()->first, -100);
    ASSERT_EQ(p_all.rbegin()->first, 100);

    // Long preamble: P_4x64(k) = 2 conj(P_ALL(k)) on k mod 4 = 0 (all sources agree), then
    // P_EVEN(k) = sqrt(2) P_ALL(k) on even k (three of four sources; one conjugates).
    const auto bins = core::wimax_preamble_bins(core::wimax_preamble::long_dl);
    ASSERT_EQ(bins.size(), 512u);
    const double r2 = std::sqrt(2.0);
    for (int k = -128; k < 128; k++) {
        const auto p = k >= -100 && k <= 100 ? p_all[k] : std::complex<double>();
        const auto want_4x64 = k % 4 == 0 ? 2.0 * std::conj(p) : std::complex<double>();
        const auto want_even = k % 2 == 0 ? r2 * p : std::complex<double>();
        EXPECT_NEAR(std::abs(std::complex<double>(bins[bin(k)]) - want_4x64), 0.0, 1e-6)
            << "P_4x64 at k = " << k;
        EXPECT_NEAR(std::abs(std::complex<double>(bins[256 + bin(k)]) - want_even), 0.0, 1e-6)
            << "P_EVEN at k = " << k;
    }
    // The short (uplink) preamble is P_EVEN alone.
    const auto short_bins = core::wimax_preamble_bins(core::wimax_preamble::short_ul);
    ASSERT_EQ(short_bins.size(), 256u);
    for (size_t i = 0; i < 256; i++)
        EXPECT_EQ(short_bins[i], bins[256 + i]) << "bin " << i;
}
