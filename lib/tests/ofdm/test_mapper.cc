/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Mapper: every point against 802.11a Tables 17-8 .. 17-11 and K_MOD (Table 17-7), unit
// power, Gray neighbours, CUDA against the CPU twin, parameter checks. (The Annex G symbol
// is checked in test_annex_g.cc.)

#include "ofdm/mapper.h"
#include "tx_test_vectors.h"

#include <cmath>
#include <cstring>
#include <map>

using namespace gr::gpuofdm;
using core::modulation;
using test::random_bits;

namespace {

const core::device_spec cpu{};
const modulation all_mods[] = { modulation::bpsk, modulation::qpsk, modulation::qam16,
                                modulation::qam64 };

// Tables 17-8 .. 17-11: the per-axis level of the axis bits, first bit first.
const std::map<std::string, int> axis_table = {
    { "0", -1 },   { "1", 1 },                                  // BPSK, QPSK
    { "00", -3 },  { "01", -1 },  { "11", 1 },   { "10", 3 },   // 16-QAM
    { "000", -7 }, { "001", -5 }, { "011", -3 }, { "010", -1 }, // 64-QAM
    { "110", 1 },  { "111", 3 },  { "101", 5 },  { "100", 7 },
};

unsigned bits_of(modulation m)
{
    return m == modulation::bpsk ? 1 : m == modulation::qpsk ? 2 : m == modulation::qam16 ? 4 : 6;
}
double kmod(modulation m)
{
    return m == modulation::bpsk    ? 1
           : m == modulation::qpsk  ? 1 / std::sqrt(2.0)
           : m == modulation::qam16 ? 1 / std::sqrt(10.0)
                                    : 1 / std::sqrt(42.0);
}

} // namespace

TEST(mapper, every_point_matches_the_802_11a_tables)
{
    for (auto m : all_mods) {
        const unsigned n = bits_of(m);
        auto mp = core::make_mapper({ m, 0 }, cpu);
        ASSERT_EQ(mp->bits_per_point(), n);
        for (unsigned label = 0; label < (1u << n); label++) {
            std::vector<uint8_t> bits(n);
            std::string s;
            for (unsigned i = 0; i < n; i++) {
                bits[i] = uint8_t((label >> (n - 1 - i)) & 1);
                s += char('0' + bits[i]);
            }
            core::cfloat got;
            mp->process(bits.data(), &got, 1);
            const double want_i = n == 1 ? axis_table.at(s) : axis_table.at(s.substr(0, n / 2));
            const double want_q = n == 1 ? 0 : axis_table.at(s.substr(n / 2));
            EXPECT_NEAR(got.real(), kmod(m) * want_i, 1e-6) << "bits " << s;
            EXPECT_NEAR(got.imag(), kmod(m) * want_q, 1e-6) << "bits " << s;
            EXPECT_EQ(core::constellation_points(m)[label], got) << "bits " << s;
        }
    }
}

TEST(mapper, unit_average_power_and_gray_neighbours)
{
    for (auto m : all_mods) {
        const auto pts = core::constellation_points(m);
        double power = 0;
        for (auto p : pts)
            power += std::norm(p);
        EXPECT_NEAR(power / pts.size(), 1.0, 1e-6);
        // Nearest neighbours (one grid step apart) differ in exactly one bit.
        const double step = 2 * kmod(m);
        for (size_t a = 0; a < pts.size(); a++)
            for (size_t b = 0; b < pts.size(); b++)
                if (std::abs(std::abs(pts[a] - pts[b]) - step) < 1e-4) {
                    EXPECT_EQ(__builtin_popcount(unsigned(a ^ b)), 1) << a << " " << b;
                }
    }
}

TEST(mapper, bad_parameters_throw)
{
    using test::throws_invalid;
    EXPECT_TRUE(throws_invalid([] { core::make_mapper({ modulation(7), 0 }, cpu); }, "mod"));
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_mapper({ modulation::qpsk, size_t(1) << 40 }, cpu);
        },
        "batch"));
}

TEST(mapper, cuda_matches_cpu)
{
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    for (auto m : all_mods) {
        auto ref = core::make_mapper({ m, 0 }, cpu);
        for (size_t batch : { size_t(0), size_t(1), size_t(333) }) {
            auto dut = core::make_mapper({ m, batch }, gpu);
            for (size_t n : { size_t(1), size_t(48), size_t(1001), size_t(100003) }) {
                if (batch == 1 && n > 1001)
                    continue;
                const auto bits = random_bits(n * bits_of(m), uint32_t(n + batch));
                std::vector<core::cfloat> want(n), got(n);
                ref->process(bits.data(), want.data(), n);
                dut->process(bits.data(), got.data(), n);
                EXPECT_EQ(std::memcmp(got.data(), want.data(), n * sizeof(core::cfloat)), 0)
                    << "modulation " << int(m) << " batch " << batch << " n " << n;
            }
        }
    }
}

// 802.16-2004 8.3.3.4.1 (Figure 203) labels as the open 802.16d model phthinh/OFDM_802_16
// (OFDM_TX_802_16/MATLAB/OFDM_TX_tb.m) maps them, first axis bit the sign (0: positive);
// b0 = 0 -> +I also in chemeris/wimax-scanner (matlab/demodulate_QPSK.m). The QPSK Q bit and
// the 16/64-QAM labels rest on the first source only (see constellation.h).
namespace {
const std::map<std::string, int> axis_table_80216 = {
    { "0", 1 },    { "1", -1 },                                // BPSK, QPSK
    { "00", 1 },   { "01", 3 },   { "10", -1 },  { "11", -3 }, // 16-QAM
    { "000", 3 },  { "001", 1 },  { "010", 5 },  { "011", 7 }, // 64-QAM
    { "100", -3 }, { "101", -1 }, { "110", -5 }, { "111", -7 },
};
} // namespace

TEST(mapper, every_point_matches_the_802_16_labels)
{
    for (auto m : all_mods) {
        const unsigned n = bits_of(m);
        auto mp = core::make_mapper({ m, 0, core::phy_standard::ieee80216 }, cpu);
        for (unsigned label = 0; label < (1u << n); label++) {
            std::vector<uint8_t> bits(n);
            std::string s;
            for (unsigned i = 0; i < n; i++) {
                bits[i] = uint8_t((label >> (n - 1 - i)) & 1);
                s += char('0' + bits[i]);
            }
            core::cfloat got;
            mp->process(bits.data(), &got, 1);
            const double want_i =
                n == 1 ? axis_table_80216.at(s) : axis_table_80216.at(s.substr(0, n / 2));
            const double want_q = n == 1 ? 0 : axis_table_80216.at(s.substr(n / 2));
            EXPECT_NEAR(got.real(), kmod(m) * want_i, 1e-6) << "bits " << s;
            EXPECT_NEAR(got.imag(), kmod(m) * want_q, 1e-6) << "bits " << s;
            EXPECT_EQ(core::constellation_points(m, core::phy_standard::ieee80216)[label], got);
        }
        // Still Gray-labelled with unit average power.
        const auto pts = core::constellation_points(m, core::phy_standard::ieee80216);
        double power = 0;
        for (auto p : pts)
            power += std::norm(p);
        EXPECT_NEAR(power / pts.size(), 1.0, 1e-6);
        for (size_t a = 0; a < pts.size(); a++)
            for (size_t b = 0; b < pts.size(); b++)
                if (std::abs(std::abs(pts[a] - pts[b]) - 2 * kmod(m)) < 1e-4) {
                    EXPECT_EQ(__builtin_popcount(unsigned(a ^ b)), 1) << a << " " << b;
                }
    }
    EXPECT_TRUE(test::throws_invalid(
        [] {
            core::make_mapper({ modulation::qpsk, 0, core::phy_standard(9) }, cpu);
        },
        "standard"));
}

TEST(mapper, cuda_matches_cpu_802_16)
{
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    for (auto m : all_mods) {
        auto ref = core::make_mapper({ m, 0, core::phy_standard::ieee80216 }, cpu);
        auto dut = core::make_mapper({ m, 0, core::phy_standard::ieee80216 }, gpu);
        const size_t n = 10007;
        const auto bits = random_bits(n * bits_of(m), uint32_t(n) + unsigned(m));
        std::vector<core::cfloat> want(n), got(n);
        ref->process(bits.data(), want.data(), n);
        dut->process(bits.data(), got.data(), n);
        EXPECT_EQ(std::memcmp(got.data(), want.data(), n * sizeof(core::cfloat)), 0)
            << "modulation " << int(m);
    }
}
