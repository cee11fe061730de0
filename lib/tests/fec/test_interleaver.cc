/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Interleaver: the 802.16 vector, inverse and soft-value deinterleaving for every
// N_CBPS/N_BPSC of both standards, CUDA against the CPU twin, parameter checks.
// (Annex G G9 and G21 are in test_annex_g.cc.)

#include "fec/interleaver.h"
#include "tx_test_vectors.h"

#include <tuple>

using namespace gr::gpuofdm;
using core::phy_standard;
using test::bit_errors;
using test::bits_msb_first;
using test::random_bits;

namespace {

const core::device_spec cpu{};

// (standard, n_cbps, n_bpsc): 802.11a Table 17-3; 802.16 OFDM with all 16 subchannels
// (192 data carriers) and with one subchannel (12 carriers, 8.3.3.3 subchannelization).
std::vector<std::tuple<phy_standard, int, int>> all_configs()
{
    std::vector<std::tuple<phy_standard, int, int>> c;
    for (int bpsc : { 1, 2, 4, 6 }) {
        c.emplace_back(phy_standard::ieee80211a, 48 * bpsc, bpsc);
        c.emplace_back(phy_standard::ieee80216, 192 * bpsc, bpsc);
        c.emplace_back(phy_standard::ieee80216, 12 * bpsc, bpsc);
        c.emplace_back(phy_standard::ieee80216, 96 * bpsc, bpsc);
    }
    return c;
}

} // namespace

// 802.16-2004 8.3.3.5.1: the coded burst (QPSK, N_cbps = 384) interleaves to interleaved.txt.
TEST(interleaver, ieee80216_example_qpsk_384)
{
    GPUOFDM_LOAD_OCTETS(in, "ieee80216-ofdm", "cc_encoded.txt");
    GPUOFDM_LOAD_OCTETS(want, "ieee80216-ofdm", "interleaved.txt");
    auto il = core::make_interleaver({ phy_standard::ieee80216, 384, 2, 0 }, cpu);
    const auto bits = bits_msb_first(in);
    ASSERT_EQ(bits.size(), 384u);
    std::vector<uint8_t> out(384);
    il->interleave(bits.data(), out.data(), 1);
    EXPECT_EQ(bit_errors(out, bits_msb_first(want)), 0u);
}

// Deinterleaving undoes interleaving, on bits and on soft values alike.
TEST(interleaver, deinterleave_inverts_for_every_config)
{
    for (auto [s, cbps, bpsc] : all_configs()) {
        auto il = core::make_interleaver({ s, cbps, bpsc, 0 }, cpu);
        const size_t n_sym = 3;
        const auto in = random_bits(n_sym * cbps, uint32_t(cbps));
        std::vector<uint8_t> mid(in.size()), back(in.size());
        il->interleave(in.data(), mid.data(), n_sym);
        il->deinterleave(mid.data(), back.data(), n_sym);
        EXPECT_EQ(bit_errors(back, in), 0u) << to_string(s) << " " << cbps << "/" << bpsc;

        std::vector<float> soft(in.size()), soft_back(in.size());
        for (size_t i = 0; i < in.size(); i++)
            soft[i] = mid[i] ? -1.5f - float(i) : 1.5f + float(i); // distinct values
        il->deinterleave(soft.data(), soft_back.data(), n_sym);
        for (size_t i = 0; i < in.size(); i++) {
            const size_t src = (i / cbps) * cbps + il->permutation()[i % cbps];
            ASSERT_EQ(soft_back[i], soft[src]);
            ASSERT_EQ(soft_back[i] < 0, in[i] == 1);
        }
    }
}

// 17.3.5.6: the first permutation puts adjacent coded bits on non-adjacent subcarriers, so
// bits k and k+1 land N_CBPS/16 positions apart before the second permutation (which only
// moves bits within a group of s).
TEST(interleaver, adjacent_bits_land_a_column_apart)
{
    for (auto [s, cbps, bpsc] : all_configs()) {
        auto il = core::make_interleaver({ s, cbps, bpsc, 0 }, cpu);
        const int d = s == phy_standard::ieee80211a ? 16 : 12;
        const int group = std::max(bpsc / 2, 1);
        const auto& p = il->permutation();
        for (int k = 0; k + 1 < cbps; k++) {
            if ((k + 1) % d == 0)
                continue; // next row
            const int gap = int(p[k + 1] / group) - int(p[k] / group);
            EXPECT_EQ(gap, cbps / d / group)
                << to_string(s) << " " << cbps << "/" << bpsc << " k=" << k;
        }
    }
}

TEST(interleaver, bad_parameters_throw)
{
    using test::throws_invalid;
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_interleaver({ phy_standard(5), 192, 4, 0 }, cpu);
        },
        "standard"));
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_interleaver({ phy_standard::ieee80211a, 192, 3, 0 }, cpu);
        },
        "n_bpsc"));
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_interleaver({ phy_standard::ieee80211a, 200, 4, 0 }, cpu);
        },
        "n_cbps"));
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_interleaver({ phy_standard::ieee80216, 100, 2, 0 }, cpu);
        },
        "n_cbps"));
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_interleaver({ phy_standard::ieee80211a, 0, 1, 0 }, cpu);
        },
        "n_cbps"));
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_interleaver({ phy_standard::ieee80211a, 64, 6, 0 }, cpu);
        },
        "n_cbps"));
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_interleaver({ phy_standard::ieee80211a, 48, 1, size_t(1) << 40 }, cpu);
        },
        "batch"));
}

// CUDA against the CPU twin: every config, bits and soft values, batches that split the
// symbols unevenly.
TEST(interleaver, cuda_matches_cpu)
{
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    for (auto [s, cbps, bpsc] : all_configs()) {
        auto ref = core::make_interleaver({ s, cbps, bpsc, 0 }, cpu);
        for (size_t batch : { size_t(0), size_t(1), size_t(3) }) {
            auto dut = core::make_interleaver({ s, cbps, bpsc, batch }, gpu);
            for (size_t n_sym : { size_t(1), size_t(5), size_t(37) }) {
                const auto in = random_bits(n_sym * cbps, uint32_t(n_sym * cbps + batch));
                std::vector<uint8_t> want(in.size()), got(in.size());
                ref->interleave(in.data(), want.data(), n_sym);
                dut->interleave(in.data(), got.data(), n_sym);
                EXPECT_EQ(bit_errors(got, want), 0u) << to_string(s) << " " << cbps << "/" << bpsc;
                ref->deinterleave(in.data(), want.data(), n_sym);
                dut->deinterleave(in.data(), got.data(), n_sym);
                EXPECT_EQ(bit_errors(got, want), 0u) << to_string(s) << " " << cbps << "/" << bpsc;
                std::vector<float> soft(in.size()), fw(in.size()), fg(in.size());
                for (size_t i = 0; i < soft.size(); i++)
                    soft[i] = float(i) * 0.25f - 7.0f;
                ref->deinterleave(soft.data(), fw.data(), n_sym);
                dut->deinterleave(soft.data(), fg.data(), n_sym);
                EXPECT_EQ(fg, fw) << to_string(s) << " " << cbps << "/" << bpsc;
            }
        }
    }
}
