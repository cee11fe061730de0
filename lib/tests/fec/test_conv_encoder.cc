/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Convolutional encoder: the 802.16 vector (rate 5/6), the generator polynomials, the
// standards' puncturing patterns, state carried across calls, CUDA against the CPU twin,
// parameter checks. (Annex G rates 1/2 and 3/4 are in test_annex_g.cc.)

#include "fec/conv_encoder.h"
#include "tx_test_vectors.h"

#include <set>

using namespace gr::gpuofdm;
using core::code_rate;
using core::phy_standard;
using test::bit_errors;
using test::bits_msb_first;
using test::random_bits;

namespace {

const core::device_spec cpu{};
const code_rate all_rates[] = { code_rate::r1_2, code_rate::r2_3, code_rate::r3_4,
                                code_rate::r5_6 };
const phy_standard both[] = { phy_standard::ieee80211a, phy_standard::ieee80216 };

std::vector<uint8_t> encode(const std::vector<uint8_t>& in, phy_standard s, code_rate r)
{
    auto enc = core::make_conv_encoder({ s, r, 0 }, cpu);
    core::conv_encoder_state st;
    std::vector<uint8_t> out(enc->output_len(in.size(), st));
    EXPECT_EQ(enc->process(in.data(), out.data(), in.size(), st), out.size());
    return out;
}

// Positions kept within one period of the rate-1/2 stream (pairs first, second), as the
// standards draw them: 802.11a Figure 17-9 (A0 B0 A1 B1 ...; 5/6 from 802.11n), 802.16
// Table 215 (X1 Y1 X2 Y2 ...).
std::vector<size_t> kept_positions(phy_standard s, code_rate r)
{
    const bool wifi = s == phy_standard::ieee80211a;
    switch (r) {
    case code_rate::r1_2:
        return { 0, 1 };
    case code_rate::r2_3:
        return wifi ? std::vector<size_t>{ 0, 1, 2 }  // A0 B0 A1
                    : std::vector<size_t>{ 0, 1, 3 }; // X1 Y1 Y2
    case code_rate::r3_4:
        return wifi ? std::vector<size_t>{ 0, 1, 2, 5 }  // A0 B0 A1 B2
                    : std::vector<size_t>{ 0, 1, 3, 4 }; // X1 Y1 Y2 X3
    default:
        return wifi ? std::vector<size_t>{ 0, 1, 2, 5, 6, 9 }  // A0 B0 A1 B2 A3 B4
                    : std::vector<size_t>{ 0, 1, 3, 4, 7, 8 }; // X1 Y1 Y2 X3 Y4 X5
    }
}

size_t mother_period(code_rate r)
{
    switch (r) {
    case code_rate::r1_2:
        return 2;
    case code_rate::r2_3:
        return 4;
    case code_rate::r3_4:
        return 6;
    default:
        return 10;
    }
}

} // namespace

// 802.16-2004 8.3.3.5.1: the RS-coded burst with its 0x00 tail, rate 5/6, gives cc_encoded.
TEST(conv_encoder, ieee80216_example_rate_5_6)
{
    GPUOFDM_LOAD_OCTETS(in, "ieee80216-ofdm", "rs_encoded.txt");
    GPUOFDM_LOAD_OCTETS(want, "ieee80216-ofdm", "cc_encoded.txt");
    const auto got = encode(bits_msb_first(in), phy_standard::ieee80216, code_rate::r5_6);
    EXPECT_EQ(bit_errors(got, bits_msb_first(want)), 0u);
}

// The impulse response of the rate-1/2 code spells the generators, newest tap first:
// 133 octal = 1011011, 171 octal = 1111001; 802.11a sends A (133) first, 802.16 X (171).
TEST(conv_encoder, impulse_response_is_the_generators)
{
    std::vector<uint8_t> impulse(7, 0);
    impulse[0] = 1;
    const std::vector<uint8_t> g133 = { 1, 0, 1, 1, 0, 1, 1 }, g171 = { 1, 1, 1, 1, 0, 0, 1 };
    for (auto s : both) {
        const auto out = encode(impulse, s, code_rate::r1_2);
        ASSERT_EQ(out.size(), 14u);
        const auto& first = s == phy_standard::ieee80211a ? g133 : g171;
        const auto& second = s == phy_standard::ieee80211a ? g171 : g133;
        for (size_t t = 0; t < 7; t++) {
            EXPECT_EQ(out[2 * t], first[t]) << to_string(s) << " t=" << t;
            EXPECT_EQ(out[2 * t + 1], second[t]) << to_string(s) << " t=" << t;
        }
    }
}

TEST(conv_encoder, puncturing_keeps_the_standard_positions)
{
    const auto in = random_bits(3000, 21); // a multiple of every period
    for (auto s : both) {
        const auto mother = encode(in, s, code_rate::r1_2);
        for (auto r : all_rates) {
            const auto kept = kept_positions(s, r);
            const size_t p = mother_period(r);
            std::vector<uint8_t> want;
            for (size_t base = 0; base < mother.size(); base += p)
                for (size_t k : kept)
                    want.push_back(mother[base + k]);
            EXPECT_EQ(bit_errors(encode(in, s, r), want), 0u)
                << to_string(s) << " " << to_string(r);
        }
    }
}

TEST(conv_encoder, split_calls_equal_one_call)
{
    const auto in = random_bits(10007, 5);
    for (auto s : both) {
        for (auto r : all_rates) {
            auto enc = core::make_conv_encoder({ s, r, 0 }, cpu);
            const auto whole = encode(in, s, r);
            std::vector<uint8_t> parts;
            core::conv_encoder_state st;
            size_t pos = 0;
            for (size_t len : { 1, 2, 3, 4, 5, 6, 7, 1000, 13, 4097 }) {
                std::vector<uint8_t> out(enc->output_len(len, st));
                EXPECT_EQ(enc->process(in.data() + pos, out.data(), len, st), out.size());
                parts.insert(parts.end(), out.begin(), out.end());
                pos += len;
            }
            std::vector<uint8_t> out(enc->output_len(in.size() - pos, st));
            enc->process(in.data() + pos, out.data(), in.size() - pos, st);
            parts.insert(parts.end(), out.begin(), out.end());
            EXPECT_EQ(bit_errors(parts, whole), 0u) << to_string(s) << " " << to_string(r);
        }
    }
}

TEST(conv_encoder, bad_parameters_throw)
{
    using test::throws_invalid;
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_conv_encoder({ phy_standard(5), code_rate::r1_2, 0 }, cpu);
        },
        "standard"));
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_conv_encoder({ phy_standard::ieee80211a, code_rate(9), 0 }, cpu);
        },
        "rate"));
    EXPECT_TRUE(throws_invalid(
        [] {
            core::make_conv_encoder({ phy_standard::ieee80216, code_rate::r1_2, size_t(1) << 40 },
                                    cpu);
        },
        "batch"));
    auto enc = core::make_conv_encoder({ phy_standard::ieee80211a, code_rate::r3_4, 0 }, cpu);
    uint8_t bit = 0, out[2];
    core::conv_encoder_state bad_phase{ 0, 3 }, bad_reg{ 64, 0 };
    EXPECT_TRUE(throws_invalid([&] { enc->process(&bit, out, 1, bad_phase); }, "state"));
    EXPECT_TRUE(throws_invalid([&] { enc->process(&bit, out, 1, bad_reg); }, "state"));
}

// CUDA against the CPU twin for every standard and rate, odd lengths, batches that cut
// the stream inside the six-bit halo and inside a puncturing period.
TEST(conv_encoder, cuda_matches_cpu)
{
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    for (auto s : both) {
        for (auto r : all_rates) {
            for (size_t batch : { size_t(0), size_t(1), size_t(5), size_t(7), size_t(1021) }) {
                auto ref = core::make_conv_encoder({ s, r, 0 }, cpu);
                auto dut = core::make_conv_encoder({ s, r, batch }, gpu);
                for (size_t n : { size_t(1), size_t(6), size_t(37), size_t(1000), size_t(65537) }) {
                    // A launch every few bits: a few hundred launches cross enough batch
                    // edges (and keep the test short under compute-sanitizer).
                    if ((batch == 1 && n > 37) || (batch > 0 && batch < 1000 && n > 1000))
                        continue;
                    const auto in = random_bits(n, uint32_t(n * 7 + batch));
                    core::conv_encoder_state st_ref{ 0x2d, 0 }, st_dut{ 0x2d, 0 };
                    std::vector<uint8_t> want, got;
                    for (size_t a : { n / 3, n - n / 3 }) {
                        const size_t off = a == n / 3 ? 0 : n / 3;
                        std::vector<uint8_t> o1(ref->output_len(a, st_ref)),
                            o2(dut->output_len(a, st_dut));
                        ref->process(in.data() + off, o1.data(), a, st_ref);
                        EXPECT_EQ(dut->process(in.data() + off, o2.data(), a, st_dut), o2.size());
                        want.insert(want.end(), o1.begin(), o1.end());
                        got.insert(got.end(), o2.begin(), o2.end());
                    }
                    EXPECT_EQ(bit_errors(got, want), 0u)
                        << to_string(s) << " " << to_string(r) << " batch " << batch << " n " << n;
                    EXPECT_EQ(st_dut.reg, st_ref.reg);
                    EXPECT_EQ(st_dut.phase, st_ref.phase);
                }
            }
        }
    }
}
