/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.11a DATA-field decoder against the core transmitter: frames made by wifi_tx at
// every rate decode to their PSDU, seed and FCS without noise and at a moderate SNR (also
// through a fading channel with per-carrier gains), bad frames fail the FCS, the Annex G
// PSDU (G.1, corrected FCS) comes back, bad requests throw, and CUDA equals the CPU twin.

#include "tx_test_vectors.h"
#include "wifi/wifi_decode.h"
#include "wifi/wifi_rx_bits.h"
#include "wifi/wifi_tx.h"
#include "wifi/wifi_tx_common.h"

#include <cmath>
#include <random>

using namespace gr::gpuofdm;
using core::cfloat;

namespace {

const char* annex = "ieee80211a-annex-g";
const core::device_spec cpu{};

//! A frame to send and what the receiver gets.
struct tx_frame {
    std::vector<uint8_t> psdu;
    int rate = 6;
    int seed = 93;
    std::vector<cfloat> data; //!< N_SYM x 48 data carriers
    std::vector<float> gain;  //!< empty, or 48 gains
    float noise_var = 1.0f;
};

//! A random PSDU of len octets whose last four are its FCS (crc32_ieee, LSB first).
std::vector<uint8_t> random_psdu(size_t len, std::mt19937& rng)
{
    std::vector<uint8_t> p(len);
    for (auto& b : p)
        b = uint8_t(rng());
    if (len >= 4) {
        const uint32_t c = core::crc32_ieee(p.data(), len - 4);
        for (int i = 0; i < 4; i++)
            p[len - 4 + i] = uint8_t(c >> (8 * i));
    }
    return p;
}

//! Transmits f.psdu with the core wifi_tx and keeps the 48 data carriers of each DATA
//! symbol (17.3.5.9: M(k), pilots and DC removed).
void transmit(tx_frame& f)
{
    auto tx = core::make_wifi_tx(core::wifi_tx_params{}, cpu);
    core::wifi_frame_request req;
    req.psdu = f.psdu.data();
    req.len = f.psdu.size();
    req.rate_mbps = f.rate;
    req.seed = f.seed;
    const size_t n_symbols = core::wifi_tx::frame_symbols(req.len, req.rate_mbps);
    std::vector<cfloat> bins(64 * n_symbols);
    tx->process_bins(&req, 1, bins.data());
    f.data.resize(48 * (n_symbols - 1));
    for (size_t s = 1; s < n_symbols; s++)
        for (unsigned k = 0; k < 48; k++)
            f.data[48 * (s - 1) + k] = bins[64 * s + core::wifi_bin(core::wifi_data_subcarrier(k))];
}

//! Adds complex Gaussian noise of variance n0 (E|n|^2) and sets noise_var.
void add_awgn(tx_frame& f, float n0, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<float> g(0.0f, std::sqrt(n0 / 2));
    for (auto& v : f.data)
        v += cfloat(g(rng), g(rng));
    f.noise_var = n0;
}

core::wifi_rx_frame rx_of(const tx_frame& f)
{
    core::wifi_rx_frame r;
    r.symbols = f.data.data();
    r.n_symbols = f.data.size() / 48;
    r.gain = f.gain.empty() ? nullptr : f.gain.data();
    r.noise_var = f.noise_var;
    r.rate_mbps = f.rate;
    r.len = f.psdu.size();
    return r;
}

core::wifi_rx_result decode_one(core::wifi_decoder& dec, const tx_frame& f)
{
    const core::wifi_rx_frame r = rx_of(f);
    core::wifi_rx_result out;
    dec.process(&r, 1, &out);
    return out;
}

//! Es/N0 in dB at which a short frame of each rate is still decoded (comfortably above the
//! waterfall of Table 17-3's rates).
float moderate_snr_db(int rate)
{
    switch (rate) {
    case 6:
        return 4.0f;
    case 9:
        return 7.0f;
    case 12:
        return 7.0f;
    case 18:
        return 10.0f;
    case 24:
        return 13.0f;
    case 36:
        return 17.0f;
    case 48:
        return 21.0f;
    default:
        return 23.0f;
    }
}

} // namespace

TEST(wifi_decode, every_rate_without_noise)
{
    auto dec = core::make_wifi_decoder(core::wifi_decode_params{}, cpu);
    std::mt19937 rng(11);
    for (const auto& r : core::wifi_rates()) {
        for (size_t len : { size_t(4), size_t(5), size_t(1 + rng() % 300), size_t(1500) }) {
            tx_frame f;
            f.psdu = random_psdu(len, rng);
            f.rate = r.mbps;
            f.seed = int(1 + rng() % 127);
            transmit(f);
            const auto out = decode_one(*dec, f);
            SCOPED_TRACE("rate " + std::to_string(r.mbps) + " len " + std::to_string(len));
            EXPECT_EQ(out.psdu, f.psdu);
            EXPECT_TRUE(out.fcs_ok);
            EXPECT_EQ(out.seed, unsigned(f.seed));
        }
    }
}

TEST(wifi_decode, every_seed_and_short_lengths)
{
    // Seeds 1..127 at 54 Mb/s (every pad length 0..N_DBPS-1 occurs among the lengths).
    auto dec = core::make_wifi_decoder(core::wifi_decode_params{}, cpu);
    std::mt19937 rng(12);
    for (int seed = 1; seed < 128; seed++) {
        tx_frame f;
        f.psdu = random_psdu(size_t(1 + seed % 40), rng);
        f.rate = 54;
        f.seed = seed;
        transmit(f);
        const auto out = decode_one(*dec, f);
        EXPECT_EQ(out.psdu, f.psdu) << "seed " << seed;
        EXPECT_EQ(out.seed, unsigned(seed));
        EXPECT_EQ(out.fcs_ok, f.psdu.size() >= 4) << "seed " << seed; // len < 4: no FCS
    }
}

TEST(wifi_decode, max_length_frame)
{
    auto dec = core::make_wifi_decoder(core::wifi_decode_params{}, cpu);
    std::mt19937 rng(13);
    tx_frame f;
    f.psdu = random_psdu(4095, rng);
    f.rate = 6;
    f.seed = 77;
    transmit(f);
    ASSERT_EQ(f.data.size(), 48 * core::wifi_n_sym(4095, 6));
    const auto out = decode_one(*dec, f);
    EXPECT_EQ(out.psdu, f.psdu);
    EXPECT_TRUE(out.fcs_ok);
}

TEST(wifi_decode, awgn_moderate_snr_every_rate)
{
    auto dec = core::make_wifi_decoder(core::wifi_decode_params{}, cpu);
    std::mt19937 rng(21);
    for (const auto& r : core::wifi_rates()) {
        // The noise must matter: points pushed past a decision boundary (half the minimum
        // distance, modulation_scale()) on I or Q, over the rate's frames.
        size_t symbol_errors = 0;
        const float half_dmin = core::modulation_scale(r.mod);
        for (int trial = 0; trial < 3; trial++) {
            tx_frame f;
            f.psdu = random_psdu(400, rng);
            f.rate = r.mbps;
            f.seed = int(1 + rng() % 127);
            transmit(f);
            const tx_frame clean = f;
            const float n0 = std::pow(10.0f, -moderate_snr_db(r.mbps) / 10.0f); // Es = 1
            add_awgn(f, n0, rng());
            for (size_t i = 0; i < f.data.size(); i++) {
                const cfloat e = f.data[i] - clean.data[i];
                symbol_errors += std::abs(e.real()) > half_dmin ||
                                 (r.n_bpsc > 1 && std::abs(e.imag()) > half_dmin);
            }
            const auto out = decode_one(*dec, f);
            SCOPED_TRACE("rate " + std::to_string(r.mbps) + " trial " + std::to_string(trial));
            EXPECT_EQ(out.psdu, f.psdu);
            EXPECT_TRUE(out.fcs_ok);
            EXPECT_EQ(out.seed, unsigned(f.seed));
        }
        EXPECT_GT(symbol_errors, 0u) << "rate " << r.mbps;
    }
}

TEST(wifi_decode, fading_channel_with_gains)
{
    // y = H x + n per carrier, equalized y / H, gains |H|^2: the LLRs of faded carriers
    // count less, and the frame decodes.
    auto dec = core::make_wifi_decoder(core::wifi_decode_params{}, cpu);
    std::mt19937 rng(31);
    for (int rate : { 6, 12, 24, 36 }) {
        tx_frame f;
        f.psdu = random_psdu(300, rng);
        f.rate = rate;
        f.seed = int(1 + rng() % 127);
        transmit(f);
        std::normal_distribution<float> g(0.0f, std::sqrt(0.5f));
        std::vector<cfloat> h(48);
        f.gain.resize(48);
        for (int k = 0; k < 48; k++) {
            h[k] = cfloat(g(rng), g(rng));
            f.gain[k] = std::norm(h[k]);
        }
        const float n0 = std::pow(10.0f, -(moderate_snr_db(rate) + 6.0f) / 10.0f);
        std::normal_distribution<float> n(0.0f, std::sqrt(n0 / 2));
        for (size_t i = 0; i < f.data.size(); i++)
            f.data[i] = (h[i % 48] * f.data[i] + cfloat(n(rng), n(rng))) / h[i % 48];
        f.noise_var = n0;
        const auto out = decode_one(*dec, f);
        EXPECT_EQ(out.psdu, f.psdu) << "rate " << rate;
        EXPECT_TRUE(out.fcs_ok) << "rate " << rate;
    }
}

TEST(wifi_decode, bad_frames_fail_the_fcs)
{
    auto dec = core::make_wifi_decoder(core::wifi_decode_params{}, cpu);
    std::mt19937 rng(41);
    // A PSDU whose FCS does not match its body: decoded exactly, reported as failing.
    tx_frame f;
    f.psdu = random_psdu(120, rng);
    f.psdu[17] ^= 0x04;
    f.rate = 24;
    f.seed = 5;
    transmit(f);
    auto out = decode_one(*dec, f);
    EXPECT_EQ(out.psdu, f.psdu);
    EXPECT_EQ(out.seed, 5u);
    EXPECT_FALSE(out.fcs_ok);

    // Far below the rate's SNR: the decoded octets are wrong and the FCS says so.
    tx_frame g;
    g.psdu = random_psdu(120, rng);
    g.rate = 54;
    g.seed = 99;
    transmit(g);
    add_awgn(g, std::pow(10.0f, -5.0f / 10.0f), 42);
    out = decode_one(*dec, g);
    EXPECT_NE(out.psdu, g.psdu);
    EXPECT_FALSE(out.fcs_ok);
}

TEST(wifi_decode, annex_g_psdu_round_trip)
{
    GPUOFDM_LOAD_OCTETS(g1, annex, "G1.txt");
    ASSERT_EQ(g1.size(), 100u);
    auto dec = core::make_wifi_decoder(core::wifi_decode_params{}, cpu);
    // G.1 as printed (its FCS does not check: README of the vectors) and with the
    // corrected FCS 67 33 21 b6; 36 Mb/s, seed 1011101 (G.16).
    std::vector<uint8_t> fixed(g1.begin(), g1.begin() + 96);
    for (uint8_t o : { 0x67, 0x33, 0x21, 0xb6 })
        fixed.push_back(o);
    for (const auto* psdu : { &g1, &fixed }) {
        tx_frame f;
        f.psdu = *psdu;
        f.rate = 36;
        f.seed = 93;
        transmit(f);
        ASSERT_EQ(f.data.size(), 48u * 6); // Annex G: six DATA symbols
        const auto out = decode_one(*dec, f);
        EXPECT_EQ(out.psdu, *psdu);
        EXPECT_EQ(out.seed, 93u);
        EXPECT_EQ(out.fcs_ok, psdu == &fixed);
    }
}

TEST(wifi_decode, several_frames_in_batches)
{
    // Small batches: the frames are cut over several run() calls, results in order.
    core::wifi_decode_params p;
    p.max_frames_per_batch = 3;
    p.max_symbols_per_batch = 1400;
    auto dec = core::make_wifi_decoder(p, cpu);
    std::mt19937 rng(51);
    std::vector<tx_frame> frames(10);
    std::vector<core::wifi_rx_frame> rx;
    for (size_t i = 0; i < frames.size(); i++) {
        frames[i].psdu = random_psdu(i == 4 ? 4095 : 20 + rng() % 400, rng);
        frames[i].rate = core::wifi_rates()[i % 8].mbps;
        frames[i].seed = int(1 + rng() % 127);
        transmit(frames[i]);
    }
    for (const auto& f : frames)
        rx.push_back(rx_of(f));
    const auto out = dec->process(rx);
    ASSERT_EQ(out.size(), frames.size());
    for (size_t i = 0; i < frames.size(); i++) {
        EXPECT_EQ(out[i].psdu, frames[i].psdu) << "frame " << i;
        EXPECT_TRUE(out[i].fcs_ok) << "frame " << i;
        EXPECT_EQ(out[i].seed, unsigned(frames[i].seed)) << "frame " << i;
    }
}

TEST(wifi_decode, bad_requests_throw)
{
    auto dec = core::make_wifi_decoder(core::wifi_decode_params{}, cpu);
    std::mt19937 rng(61);
    tx_frame f;
    f.psdu = random_psdu(50, rng);
    f.rate = 12;
    transmit(f);
    const core::wifi_rx_frame good = rx_of(f);
    core::wifi_rx_result out;
    auto with = [&](auto change) {
        core::wifi_rx_frame r = good;
        change(r);
        return [&dec, r, &out] { dec->process(&r, 1, &out); };
    };
    EXPECT_TRUE(test::throws_invalid(with([](auto& r) { r.rate_mbps = 7; }), "rate_mbps"));
    EXPECT_TRUE(test::throws_invalid(with([](auto& r) { r.len = 0; }), "len"));
    EXPECT_TRUE(test::throws_invalid(with([](auto& r) { r.len = 4096; }), "len"));
    EXPECT_TRUE(test::throws_invalid(with([](auto& r) {
                                         r.len = 51;
                                         r.n_symbols = 0;
                                     }),
                                     "n_symbols"));
    // 50 octets at 12 Mb/s take 9 symbols (422 bits), 60 octets 11 (502 bits).
    EXPECT_TRUE(test::throws_invalid(with([](auto& r) { r.len = 60; }), "n_symbols"));
    EXPECT_TRUE(test::throws_invalid(with([](auto& r) { r.symbols = nullptr; }), "symbols"));
    EXPECT_TRUE(test::throws_invalid(with([](auto& r) { r.noise_var = 0.0f; }), "noise_var"));
    EXPECT_TRUE(test::throws_invalid(with([](auto& r) { r.noise_var = NAN; }), "noise_var"));
    core::wifi_decode_params p;
    p.max_frames_per_batch = 0;
    EXPECT_TRUE(
        test::throws_invalid([&] { core::make_wifi_decoder(p, cpu); }, "max_frames_per_batch"));
    p = {};
    p.max_symbols_per_batch = 1000;
    EXPECT_TRUE(
        test::throws_invalid([&] { core::make_wifi_decoder(p, cpu); }, "max_symbols_per_batch"));
    // The good frame itself decodes.
    dec->process(&good, 1, &out);
    EXPECT_EQ(out.psdu, f.psdu);
}

#ifdef GPUOFDM_HAVE_CUDA
TEST(wifi_decode, cuda_equals_cpu_mixed_batch)
{
    GPUOFDM_REQUIRE_GPU();
    core::wifi_decode_params p;
    p.max_frames_per_batch = 16; // 40 frames: three batches
    auto cpu_dec = core::make_wifi_decoder(p, cpu);
    auto gpu_dec = core::make_wifi_decoder(p, core::resolve_device("cuda"));
    std::mt19937 rng(71);
    std::vector<tx_frame> frames(40);
    for (size_t i = 0; i < frames.size(); i++) {
        tx_frame& f = frames[i];
        f.psdu = random_psdu(i == 7 ? 4095 : 1 + rng() % 700, rng);
        f.rate = core::wifi_rates()[rng() % 8].mbps;
        f.seed = int(1 + rng() % 127);
        transmit(f);
        // Noise near the waterfall on some frames (some may fail: both must agree),
        // per-carrier gains on others.
        if (i % 3 == 1)
            add_awgn(f, std::pow(10.0f, -(moderate_snr_db(f.rate) - 3.0f) / 10.0f), rng());
        if (i % 4 == 2) {
            f.gain.resize(48);
            for (auto& gk : f.gain)
                gk = 0.1f + float(rng() % 1000) / 500.0f;
            add_awgn(f, 0.05f, rng());
        }
    }
    std::vector<core::wifi_rx_frame> rx;
    for (const auto& f : frames)
        rx.push_back(rx_of(f));
    const auto want = cpu_dec->process(rx);
    const auto got = gpu_dec->process(rx);
    ASSERT_EQ(got.size(), want.size());
    size_t ok = 0;
    for (size_t i = 0; i < frames.size(); i++) {
        EXPECT_EQ(got[i].psdu, want[i].psdu) << "frame " << i;
        EXPECT_EQ(got[i].seed, want[i].seed) << "frame " << i;
        EXPECT_EQ(got[i].fcs_ok, want[i].fcs_ok) << "frame " << i;
        ok += want[i].fcs_ok;
    }
    EXPECT_GT(ok, frames.size() / 2); // most frames decode, so the comparison means something
}
// Many frames of one code rate and length: the CUDA backend gathers each group's LLRs
// device-to-device into the Viterbi decoder, in several launches when the group is larger
// than one launch takes (40 frames of 4095 octets: at most 31 per launch of 2^20 steps).
TEST(wifi_decode, cuda_equals_cpu_large_groups)
{
    GPUOFDM_REQUIRE_GPU();
    core::wifi_decode_params p; // 64 frames, 16384 symbols a batch: one batch here
    auto cpu_dec = core::make_wifi_decoder(p, cpu);
    auto gpu_dec = core::make_wifi_decoder(p, core::resolve_device("cuda"));
    std::mt19937 rng(72);
    std::vector<tx_frame> frames(60);
    for (size_t i = 0; i < frames.size(); i++) {
        tx_frame& f = frames[i];
        const bool big = i % 3 != 2; // 40 big frames, 20 small ones between them
        f.psdu = random_psdu(big ? 4095 : 100, rng);
        f.rate = big ? 54 : 24;
        f.seed = int(1 + rng() % 127);
        transmit(f);
        if (i % 5 == 1)
            add_awgn(f, std::pow(10.0f, -(moderate_snr_db(f.rate) - 3.0f) / 10.0f), rng());
    }
    std::vector<core::wifi_rx_frame> rx;
    for (const auto& f : frames)
        rx.push_back(rx_of(f));
    const auto want = cpu_dec->process(rx);
    const auto got = gpu_dec->process(rx);
    ASSERT_EQ(got.size(), want.size());
    size_t ok = 0;
    for (size_t i = 0; i < frames.size(); i++) {
        EXPECT_EQ(got[i].psdu, want[i].psdu) << "frame " << i;
        EXPECT_EQ(got[i].seed, want[i].seed) << "frame " << i;
        EXPECT_EQ(got[i].fcs_ok, want[i].fcs_ok) << "frame " << i;
        ok += want[i].fcs_ok;
    }
    EXPECT_GT(ok, frames.size() / 2);
}
#endif
