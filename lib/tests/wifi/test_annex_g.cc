/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// IEEE 802.11a-1999 Annex G (36 Mb/s, 100-octet PSDU, seed 1011101), reproduced stage by
// stage with the CPU twins: SIGNAL (G7, G8, G9) and the first DATA symbol (G13/G14,
// G16/G17, G18, G21, G22). Every expected value is a table of the standard.

#include "fec/conv_encoder.h"
#include "fec/interleaver.h"
#include "ofdm/mapper.h"
#include "fec/scrambler.h"
#include "tx_test_vectors.h"

using namespace gr::gpuofdm;
using test::bit_errors;
using test::bits_lsb_first;
using test::bits_msb_first;

namespace {

const char* annex = "ieee80211a-annex-g";
const core::device_spec cpu{};

// 36 Mb/s: 16-QAM, R = 3/4, N_CBPS = 192, N_DBPS = 144 (Table 17-3); LENGTH = 100.
constexpr int n_cbps = 192;
constexpr int n_dbps = 144;
constexpr int length = 100;
constexpr int n_sym = (16 + 8 * length + 6 + n_dbps - 1) / n_dbps; // 6 (17.3.5.3)

// SIGNAL (17.3.4): RATE R1..R4, reserved, LENGTH LSB first, even parity, 6 tail zeros.
std::vector<uint8_t> signal_bits()
{
    std::vector<uint8_t> b = { 1, 0, 1, 1, 0 }; // RATE 1011 (36 Mb/s, Table 17-5), reserved
    for (int i = 0; i < 12; i++)
        b.push_back(uint8_t((length >> i) & 1));
    uint8_t parity = 0;
    for (auto x : b)
        parity ^= x;
    b.push_back(parity);
    b.resize(24, 0);
    return b;
}

// DATA bits (17.3.5.2): SERVICE (16 zeros), PSDU LSB first, 6 tail zeros, pad zeros.
std::vector<uint8_t> data_bits(const std::vector<uint8_t>& psdu)
{
    std::vector<uint8_t> b(16, 0);
    const auto p = bits_lsb_first(psdu);
    b.insert(b.end(), p.begin(), p.end());
    b.resize(size_t(n_sym) * n_dbps, 0);
    return b;
}

// Scrambled with seed 1011101, then the six tail bits set back to zero (17.3.5.2).
std::vector<uint8_t> scrambled_data(const std::vector<uint8_t>& psdu)
{
    auto bits = data_bits(psdu);
    core::scrambler_params p;
    p.standard = core::phy_standard::ieee80211a;
    p.seed = 0b1011101;
    auto s = core::make_scrambler(p, cpu);
    auto st = s->initial_state();
    s->process(bits.data(), bits.data(), bits.size(), st);
    const size_t tail = 16 + 8 * psdu.size();
    std::fill(bits.begin() + tail, bits.begin() + tail + 6, 0);
    return bits;
}

std::vector<uint8_t> encode(const std::vector<uint8_t>& in, core::code_rate rate)
{
    auto enc = core::make_conv_encoder({ core::phy_standard::ieee80211a, rate, 0 }, cpu);
    core::conv_encoder_state st;
    std::vector<uint8_t> out(enc->output_len(in.size(), st));
    EXPECT_EQ(enc->process(in.data(), out.data(), in.size(), st), out.size());
    return out;
}

std::vector<uint8_t> interleave(const std::vector<uint8_t>& in, int cbps, int bpsc)
{
    auto il = core::make_interleaver({ core::phy_standard::ieee80211a, cbps, bpsc, 0 }, cpu);
    std::vector<uint8_t> out(in.size());
    il->interleave(in.data(), out.data(), in.size() / cbps);
    return out;
}

// 802.11a data subcarrier of data index k (17.3.5.9, M(k)).
int data_carrier(int k)
{
    if (k <= 4)
        return k - 26;
    if (k <= 17)
        return k - 25;
    if (k <= 23)
        return k - 24;
    if (k <= 29)
        return k - 23;
    if (k <= 42)
        return k - 22;
    return k - 21;
}

} // namespace

TEST(annex_g, signal_bits_g7)
{
    GPUOFDM_LOAD_OCTETS(g7, annex, "G7.txt");
    EXPECT_EQ(bit_errors(signal_bits(), bits_msb_first(g7)), 0u);
}

TEST(annex_g, signal_coded_g8)
{
    GPUOFDM_LOAD_OCTETS(g7, annex, "G7.txt");
    GPUOFDM_LOAD_OCTETS(g8, annex, "G8.txt");
    EXPECT_EQ(bit_errors(encode(bits_msb_first(g7), core::code_rate::r1_2), bits_msb_first(g8)),
              0u);
}

TEST(annex_g, signal_interleaved_g9)
{
    GPUOFDM_LOAD_OCTETS(g8, annex, "G8.txt");
    GPUOFDM_LOAD_OCTETS(g9, annex, "G9.txt");
    // SIGNAL is BPSK: N_CBPS = 48, N_BPSC = 1.
    EXPECT_EQ(bit_errors(interleave(bits_msb_first(g8), 48, 1), bits_msb_first(g9)), 0u);
}

TEST(annex_g, data_bits_g13_g14)
{
    GPUOFDM_LOAD_OCTETS(g1, annex, "G1.txt");
    GPUOFDM_LOAD_OCTETS(g13, annex, "G13.txt");
    GPUOFDM_LOAD_OCTETS(g14, annex, "G14.txt");
    ASSERT_EQ(g1.size(), size_t(length));
    const auto bits = data_bits(g1);
    ASSERT_EQ(bits.size(), 864u); // 6 symbols x 144, 42 pad bits
    EXPECT_EQ(bit_errors({ bits.begin(), bits.begin() + 144 }, bits_msb_first(g13)), 0u);
    EXPECT_EQ(bit_errors({ bits.end() - 144, bits.end() }, bits_msb_first(g14)), 0u);
}

TEST(annex_g, scrambled_g16_g17)
{
    GPUOFDM_LOAD_OCTETS(g1, annex, "G1.txt");
    GPUOFDM_LOAD_OCTETS(g16, annex, "G16.txt");
    GPUOFDM_LOAD_OCTETS(g17, annex, "G17.txt");
    const auto bits = scrambled_data(g1);
    EXPECT_EQ(bit_errors({ bits.begin(), bits.begin() + 144 }, bits_msb_first(g16)), 0u);
    EXPECT_EQ(bit_errors({ bits.end() - 144, bits.end() }, bits_msb_first(g17)), 0u);
}

TEST(annex_g, coded_g18)
{
    GPUOFDM_LOAD_OCTETS(g1, annex, "G1.txt");
    GPUOFDM_LOAD_OCTETS(g18, annex, "G18.txt");
    const auto coded = encode(scrambled_data(g1), core::code_rate::r3_4);
    ASSERT_EQ(coded.size(), size_t(n_sym) * n_cbps);
    EXPECT_EQ(bit_errors({ coded.begin(), coded.begin() + n_cbps }, bits_msb_first(g18)), 0u);
}

TEST(annex_g, interleaved_g21)
{
    GPUOFDM_LOAD_OCTETS(g18, annex, "G18.txt");
    GPUOFDM_LOAD_OCTETS(g21, annex, "G21.txt");
    EXPECT_EQ(bit_errors(interleave(bits_msb_first(g18), n_cbps, 4), bits_msb_first(g21)), 0u);
}

TEST(annex_g, mapped_g22_data_carriers)
{
    GPUOFDM_LOAD_OCTETS(g21, annex, "G21.txt");
    std::vector<std::complex<float>> g22;
    const std::string path = test::vector_path(annex, "G22.txt");
    if (!test::read_complex_lines(path, g22))
        GTEST_SKIP() << "test vector absent: " << path;
    ASSERT_EQ(g22.size(), 64u);
    auto m = core::make_mapper({ core::modulation::qam16, 0 }, cpu);
    std::vector<core::cfloat> points(48);
    m->process(bits_msb_first(g21).data(), points.data(), 48);
    for (int k = 0; k < 48; k++) {
        const int bin = (data_carrier(k) + 64) % 64; // bin 0 = DC, -32..-1 in 32..63
        // Printed to 3 decimals (0.316, 0.949 for 1/sqrt(10), 3/sqrt(10)).
        EXPECT_NEAR(points[k].real(), g22[bin].real(), 1e-3) << "data carrier " << k;
        EXPECT_NEAR(points[k].imag(), g22[bin].imag(), 1e-3) << "data carrier " << k;
    }
}
