/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// 802.11a receive bit helpers: the FCS (CRC-32) on the Annex G PSDU and known CRC-32
// values, and the scrambler seed recovered from the scrambled SERVICE bits of G.16 and
// from every seed through the core scrambler's own LFSR.

#include "fec/scrambler.h"
#include "tx_test_vectors.h"
#include "wifi/wifi_rx_bits.h"

#include <cstring>

using namespace gr::gpuofdm;

namespace {
const char* annex_g = "ieee80211a-annex-g";

//! Octets to bits, first bit in time as the MSB (the packing of G.13 .. G.21).
std::vector<uint8_t> msb_first_bits(const std::vector<uint8_t>& octets)
{
    std::vector<uint8_t> bits;
    for (uint8_t o : octets)
        for (int i = 7; i >= 0; i--)
            bits.push_back(uint8_t((o >> i) & 1));
    return bits;
}
} // namespace

TEST(wifi_rx_bits, crc32_check_value)
{
    // The standard check value of CRC-32/ISO-HDLC (802.3): "123456789" -> 0xCBF43926.
    const char* s = "123456789";
    EXPECT_EQ(core::crc32_ieee(reinterpret_cast<const uint8_t*>(s), std::strlen(s)), 0xCBF43926u);
    EXPECT_EQ(core::crc32_ieee(nullptr, 0), 0u);
}

TEST(wifi_rx_bits, crc32_of_annex_g_psdu)
{
    GPUOFDM_LOAD_OCTETS(psdu, annex_g, "G1.txt");
    ASSERT_EQ(psdu.size(), 100u);
    // The corrected FCS (README of the vectors): on air 67 33 21 b6.
    const uint32_t c = core::crc32_ieee(psdu.data(), 96);
    EXPECT_EQ(c, 0xb6213367u);
    std::vector<uint8_t> fixed(psdu.begin(), psdu.begin() + 96);
    for (uint8_t o : { 0x67, 0x33, 0x21, 0xb6 })
        fixed.push_back(o);
    EXPECT_TRUE(core::wifi_fcs_ok(fixed.data(), fixed.size()));
    // The 1999 text's printed FCS (da 57 99 ed) does not check; nor does a flipped bit.
    EXPECT_FALSE(core::wifi_fcs_ok(psdu.data(), psdu.size()));
    fixed[40] ^= 0x10;
    EXPECT_FALSE(core::wifi_fcs_ok(fixed.data(), fixed.size()));
    EXPECT_FALSE(core::wifi_fcs_ok(fixed.data(), 3));
}

TEST(wifi_rx_bits, seed_from_annex_g_service_bits)
{
    GPUOFDM_LOAD_OCTETS(g13, annex_g, "G13.txt");
    GPUOFDM_LOAD_OCTETS(g16, annex_g, "G16.txt");
    const auto plain = msb_first_bits(g13);
    const auto scrambled = msb_first_bits(g16);
    for (int i = 0; i < 7; i++)
        ASSERT_EQ(plain[size_t(i)], 0) << "SERVICE bit " << i << " of G.13";
    EXPECT_EQ(core::wifi_scrambler_seed_from_service(scrambled.data()), 93u); // 1011101
    // The state after the 7 bits descrambles the rest of G.16 into G.13.
    unsigned reg = core::wifi_scrambler_state_after_service(scrambled.data());
    const core::lfsr_spec s = core::lfsr_for(core::phy_standard::ieee80211a);
    for (size_t i = 7; i < scrambled.size(); i++) {
        const unsigned b = core::lfsr_feedback(reg, s);
        reg = core::lfsr_step(reg, s);
        ASSERT_EQ(scrambled[i] ^ b, plain[i]) << "bit " << i;
    }
}

TEST(wifi_rx_bits, every_seed_is_recovered)
{
    const core::lfsr_spec s = core::lfsr_for(core::phy_standard::ieee80211a);
    for (unsigned seed = 1; seed < 128; seed++) {
        unsigned reg = seed;
        uint8_t out[7];
        for (auto& b : out) {
            b = uint8_t(core::lfsr_feedback(reg, s));
            reg = core::lfsr_step(reg, s);
        }
        EXPECT_EQ(core::wifi_scrambler_seed_from_service(out), seed);
        EXPECT_EQ(core::wifi_scrambler_state_after_service(out), reg);
    }
    const uint8_t zeros[7] = {};
    EXPECT_EQ(core::wifi_scrambler_seed_from_service(zeros), 0u);
}
