/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// 802.16-2004 OFDM-256 transmitter: the 8.3.3.5.1 example through the chain's bit stages,
// the pilots (8.3.3.4.2) and the preamble (8.3.3.6) against the equations written here,
// the data subcarriers against an independent 802.16 QPSK map, the OFDM symbols against a
// direct inverse DFT, padding, bad input, and CUDA against the CPU twin (process() and the
// device-resident batch).

#include "tx_test_vectors.h"
#include "runtime/burst_batch.h"
#include "wimax/wimax_tx.h"

#include <cmath>
#include <complex>
#include <cstring>
#include <sstream>
#include <stdexcept>

using namespace gr::gpuofdm;
using core::cfloat;
using core::wimax_burst_request;
using core::wimax_preamble;
using core::wimax_tx_params;
using test::bits_msb_first;
using test::throws_invalid;

namespace {

const core::device_spec cpu{};
const char* vec = "ieee80216-ofdm";

// P_ALL(-100..100) of 8.3.3.6 as printed by the open model phthinh/OFDM_802_16
// (MATLAB/preamble_802_16.m), parsed here independently of the core's table.
const char* p_all_text = R"(
 1-1i, 1-1i,-1-1i, 1+1i, 1-1i, 1-1i,-1+1i, 1-1i, 1-1i, 1-1i,
  1+1i,-1-1i, 1+1i, 1+1i,-1-1i, 1+1i,-1-1i,-1-1i, 1-1i,-1+1i,
  1-1i, 1-1i,-1-1i, 1+1i, 1-1i, 1-1i,-1+1i, 1-1i, 1-1i, 1-1i,
  1+1i,-1-1i, 1+1i, 1+1i,-1-1i, 1+1i,-1-1i,-1-1i, 1-1i,-1+1i,
  1-1i, 1-1i,-1-1i, 1+1i, 1-1i, 1-1i,-1+1i, 1-1i, 1-1i, 1-1i,
  1+1i,-1-1i, 1+1i, 1+1i,-1-1i, 1+1i,-1-1i,-1-1i, 1-1i,-1+1i,
  1+1i, 1+1i, 1-1i,-1+1i, 1+1i, 1+1i,-1-1i, 1+1i, 1+1i, 1+1i,
 -1+1i, 1-1i,-1+1i,-1+1i, 1-1i,-1+1i, 1-1i, 1-1i, 1+1i,-1-1i,
 -1-1i,-1-1i,-1+1i, 1-1i,-1-1i,-1-1i, 1+1i,-1-1i,-1-1i,-1-1i,
  1-1i,-1+1i, 1-1i, 1-1i,-1+1i, 1-1i,-1+1i,-1+1i,-1-1i, 1+1i,
  0+0i,
 -1-1i, 1+1i,-1+1i,-1+1i,-1-1i, 1+1i, 1+1i, 1+1i,-1-1i,
  1+1i, 1-1i, 1-1i, 1-1i,-1+1i,-1+1i,-1+1i,-1+1i, 1-1i,-1-1i,
 -1-1i,-1+1i, 1-1i, 1+1i, 1+1i,-1+1i, 1-1i, 1-1i, 1-1i,-1+1i,
  1-1i,-1-1i,-1-1i,-1-1i, 1+1i, 1+1i, 1+1i, 1+1i,-1-1i,-1+1i,
 -1+1i, 1+1i,-1-1i, 1-1i, 1-1i, 1+1i,-1-1i,-1-1i,-1-1i, 1+1i,
 -1-1i,-1+1i,-1+1i,-1+1i, 1-1i, 1-1i, 1-1i, 1-1i,-1+1i, 1+1i,
  1+1i,-1-1i, 1+1i,-1+1i,-1+1i,-1-1i, 1+1i, 1+1i, 1+1i,-1-1i,
  1+1i, 1-1i, 1-1i, 1-1i,-1+1i,-1+1i,-1+1i,-1+1i, 1-1i,-1-1i,
 -1-1i, 1-1i,-1+1i,-1-1i,-1-1i, 1-1i,-1+1i,-1+1i,-1+1i, 1-1i,
 -1+1i, 1+1i, 1+1i, 1+1i,-1-1i,-1-1i,-1-1i,-1-1i, 1+1i, 1-1i, 1-1i
)";

std::vector<std::complex<double>> p_all()
{
    std::vector<std::complex<double>> v;
    std::string s(p_all_text);
    std::stringstream ss(s);
    std::string tok;
    while (std::getline(ss, tok, ',')) {
        std::string t;
        for (char c : tok)
            if (!std::isspace(static_cast<unsigned char>(c)))
                t += c;
        if (t.empty())
            continue;
        // "a+bi" / "a-bi" with a, b in {0, 1, -1}.
        const size_t split = t.find_first_of("+-", 1);
        const double re = std::stod(t.substr(0, split));
        const double im = std::stod(t.substr(split, t.size() - split - 1));
        v.emplace_back(re, im);
    }
    return v;
}

size_t bin(int c) { return size_t((c + 256) % 256); }

// w_k of 8.3.3.4.2 written from the text: X^11 + X^9 + 1, w_k the register's output.
std::vector<int> prbs_w(size_t n, bool uplink)
{
    int r[12]; // r[1..11]
    for (int i = 1; i <= 11; i++)
        r[i] = uplink ? (i % 2) : 1; // 10101010101 or 11111111111
    std::vector<int> w;
    for (size_t k = 0; k < n; k++) {
        w.push_back(r[11]);
        const int fb = r[9] ^ r[11];
        for (int i = 11; i > 1; i--)
            r[i] = r[i - 1];
        r[1] = fb;
    }
    return w;
}

// The 8 pilot values of symbol k per 8.3.3.4.2 (carriers -88, -63, -38, -13, 13, 38, 63, 88).
std::vector<double> pilots(int w, bool uplink)
{
    const double a = 1 - 2 * w, b = 1 - 2 * (1 - w);
    if (uplink)
        return { a, b, a, b, a, a, a, a };
    return { a, b, a, b, b, b, a, a };
}

std::vector<std::complex<double>> idft(const cfloat* bins, double scale)
{
    std::vector<std::complex<double>> x(256);
    for (int t = 0; t < 256; t++) {
        std::complex<double> acc;
        for (int k = 0; k < 256; k++)
            acc += std::complex<double>(bins[k]) * std::polar(1.0, 2 * M_PI * k * t / 256.0);
        x[t] = scale * acc;
    }
    return x;
}

std::vector<uint8_t> random_octets(size_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<uint8_t> v(n);
    for (auto& b : v)
        b = uint8_t(rng());
    return v;
}

} // namespace

TEST(wimax_tx, profiles_fill_one_symbol_per_block)
{
    // Table 215: N bytes of RS output at CC rate R give exactly N_cbps = 192 N_bpsc bits.
    const int n[7] = { 12, 32, 40, 64, 80, 108, 120 }, k[7] = { 12, 24, 36, 48, 72, 96, 108 };
    const double r[7] = { 1.0 / 2, 2.0 / 3, 5.0 / 6, 2.0 / 3, 5.0 / 6, 3.0 / 4, 5.0 / 6 };
    const int bpsc[7] = { 1, 2, 2, 4, 4, 6, 6 };
    ASSERT_EQ(core::wimax_profiles().size(), 7u);
    for (int i = 0; i < 7; i++) {
        const auto& p = core::wimax_profile(i);
        EXPECT_EQ(int(p.rs.n), n[i]);
        EXPECT_EQ(int(p.rs.k), k[i]);
        EXPECT_EQ(p.n_bpsc, bpsc[i]);
        EXPECT_EQ(p.n_cbps, 192 * bpsc[i]);
        EXPECT_NEAR(8.0 * n[i] / r[i], 192.0 * bpsc[i], 1e-9);
    }
    EXPECT_TRUE(throws_invalid([] { core::wimax_profile(7); }, "rate_id"));
}

TEST(wimax_tx, randomizer_seed_of_figure_204)
{
    // 8.3.3.5.1 starts from reg1..reg15 = 000111011110001: BSID 1, 11, IUC 7, 1, frame 1.
    EXPECT_EQ(core::wimax_randomizer_seed(1, 7, 1), 0b000111011110001);
    EXPECT_EQ(core::wimax_randomizer_seed(0x31, 0, 0x12), 0b000111000010010); // 4 LSBs only
    EXPECT_EQ(core::wimax_default_seed, 0b100101010000000);
    EXPECT_TRUE(throws_invalid([] { core::wimax_randomizer_seed(0, 16, 0); }, "iuc"));
}

TEST(wimax_tx, example_8_3_3_5_1_through_the_chain)
{
    GPUOFDM_LOAD_OCTETS(input, vec, "input.txt");
    GPUOFDM_LOAD_OCTETS(randomized, vec, "randomized.txt");
    GPUOFDM_LOAD_OCTETS(rs, vec, "rs_encoded.txt");
    GPUOFDM_LOAD_OCTETS(cc, vec, "cc_encoded.txt");
    GPUOFDM_LOAD_OCTETS(il, vec, "interleaved.txt");
    std::vector<core::device_spec> devs{ cpu };
    if (core::cuda_unusable_reason(0).empty())
        devs.push_back({ core::backend::cuda, 0 });
    for (const auto& dev : devs) {
        auto tx = core::make_wimax_tx({}, dev);
        wimax_burst_request b{ input.data(), input.size(), 2,
                               core::wimax_randomizer_seed(1, 7, 1) };
        ASSERT_EQ(tx->burst_symbols(b.len, b.rate_id), 1u);
        core::wimax_burst_trace t;
        tx->trace(b, t);
        EXPECT_EQ(t.randomized, randomized) << "device " << int(dev.kind);
        EXPECT_EQ(t.rs_encoded, rs) << "device " << int(dev.kind);
        EXPECT_EQ(t.cc_encoded, bits_msb_first(cc)) << "device " << int(dev.kind);
        EXPECT_EQ(t.interleaved, bits_msb_first(il)) << "device " << int(dev.kind);
    }
}

TEST(wimax_tx, example_data_subcarriers_and_nulls)
{
    GPUOFDM_LOAD_OCTETS(input, vec, "input.txt");
    GPUOFDM_LOAD_OCTETS(il, vec, "interleaved.txt");
    auto tx = core::make_wimax_tx({}, cpu);
    wimax_burst_request b{ input.data(), input.size(), 2, core::wimax_randomizer_seed(1, 7, 1) };
    std::vector<cfloat> bins(256);
    tx->process_bins(&b, 1, bins.data());
    // QPSK of 8.3.3.4.1 as the sources label it: b0 -> I, b1 -> Q, 0 -> +1/sqrt(2); the
    // first point on the lowest data subcarrier, upwards (8.3.3.4.1).
    const auto bits = bits_msb_first(il);
    size_t d = 0;
    const double a = 1 / std::sqrt(2.0);
    for (int c = -128; c < 128; c++) {
        const bool pilot = c == -88 || c == -63 || c == -38 || c == -13 || c == 13 || c == 38 ||
                           c == 63 || c == 88;
        if (c < -100 || c > 100 || c == 0) {
            EXPECT_EQ(bins[bin(c)], cfloat()) << "null subcarrier " << c;
        } else if (!pilot) {
            const double i = bits[2 * d] ? -a : a, q = bits[2 * d + 1] ? -a : a;
            EXPECT_NEAR(bins[bin(c)].real(), i, 1e-6) << "subcarrier " << c;
            EXPECT_NEAR(bins[bin(c)].imag(), q, 1e-6) << "subcarrier " << c;
            d++;
        }
    }
    EXPECT_EQ(d, 192u);
}

TEST(wimax_tx, pilots_follow_8_3_3_4_2)
{
    for (bool uplink : { false, true }) {
        for (auto pre :
             { wimax_preamble::long_dl, wimax_preamble::short_ul, wimax_preamble::none }) {
            wimax_tx_params p;
            p.uplink = uplink;
            p.preamble = pre;
            auto tx = core::make_wimax_tx(p, cpu);
            // 40 BPSK blocks: 12 x 40 - 1 octets.
            const auto data = random_octets(479, 5);
            wimax_burst_request b{ data.data(), data.size(), 0, 77 };
            const size_t n_sym = tx->burst_symbols(b.len, b.rate_id);
            ASSERT_EQ(n_sym, 40u);
            std::vector<cfloat> bins(256 * n_sym);
            tx->process_bins(&b, 1, bins.data());
            const size_t n_pre = pre == wimax_preamble::long_dl    ? 2
                                 : pre == wimax_preamble::short_ul ? 1
                                                                   : 0;
            const auto w = prbs_w(n_pre + n_sym, uplink);
            const int carriers[8] = { -88, -63, -38, -13, 13, 38, 63, 88 };
            for (size_t j = 0; j < n_sym; j++) {
                const auto want = pilots(w[n_pre + j], uplink);
                for (int i = 0; i < 8; i++) {
                    EXPECT_EQ(bins[256 * j + bin(carriers[i])], cfloat(float(want[i]), 0.0f))
                        << "uplink " << uplink << " symbol " << j << " pilot " << carriers[i];
                    EXPECT_EQ(core::wimax_pilot_value(unsigned(i), unsigned(n_pre + j), uplink),
                              int(want[i]));
                }
            }
        }
    }
    // The PRBS starts with eleven ones on the downlink and has period 2047.
    const auto w = prbs_w(2047 + 20, false);
    for (int k = 0; k < 11; k++)
        EXPECT_EQ(w[size_t(k)], 1);
    for (size_t k = 0; k < 20; k++)
        EXPECT_EQ(w[k], w[k + 2047]);
}

TEST(wimax_tx, preamble_follows_8_3_3_6)
{
    const auto pall = p_all();
    ASSERT_EQ(pall.size(), 201u);
    EXPECT_EQ(pall[100], std::complex<double>(0, 0));
    const double r2 = std::sqrt(2.0);
    for (int cp_div : { 4, 32 }) {
        for (auto pre : { wimax_preamble::long_dl, wimax_preamble::short_ul }) {
            const size_t n_pre = pre == wimax_preamble::long_dl ? 2 : 1;
            std::vector<cfloat> want_bins(256 * n_pre);
            cfloat* even = want_bins.data() + 256 * (n_pre - 1);
            for (int k = -100; k <= 100; k++) {
                const auto v = pall[size_t(k + 100)];
                if (n_pre == 2 && k % 4 == 0)
                    want_bins[bin(k)] = cfloat(2.0 * std::conj(v)); // sqrt(2) sqrt(2) conj(P_ALL)
                if (k % 2 == 0)
                    even[bin(k)] = cfloat(r2 * v);
            }
            const auto got_bins = core::wimax_preamble_bins(pre);
            ASSERT_EQ(got_bins.size(), want_bins.size());
            for (size_t i = 0; i < want_bins.size(); i++)
                EXPECT_NEAR(std::abs(got_bins[i] - want_bins[i]), 0.0, 1e-6) << "bin " << i;

            // In the waveform: CP + IDFT(bins) (scale 1/256), 4 x 64 and 2 x 128 repetitions.
            wimax_tx_params p;
            p.cp_div = cp_div;
            p.preamble = pre;
            auto tx = core::make_wimax_tx(p, cpu);
            const auto data = random_octets(11, 3);
            wimax_burst_request b{ data.data(), data.size(), 0, 1 };
            std::vector<cfloat> out(tx->burst_samples(b.len, b.rate_id));
            tx->process(&b, 1, out.data());
            const size_t cp = 256 / size_t(cp_div), sym = 256 + cp;
            ASSERT_EQ(out.size(), (n_pre + 1) * sym);
            std::vector<cfloat> got, want;
            for (size_t s = 0; s < n_pre; s++) {
                const auto x = idft(want_bins.data() + 256 * s, 1.0 / 256);
                for (size_t t = 0; t < sym; t++) {
                    got.push_back(out[s * sym + t]);
                    want.push_back(cfloat(x[(t + 256 - cp) % 256]));
                }
                const size_t period = (n_pre == 2 && s == 0) ? 64 : 128;
                for (size_t t = 0; t + period < 256; t++)
                    EXPECT_NEAR(std::abs(x[t] - x[t + period]), 0.0, 1e-9);
            }
            EXPECT_TRUE(test::near_relative(got, want, 2e-5));
        }
    }
    // A transcription check: the designed sequences have a PAPR of about 3 dB (random QPSK
    // on the same carriers: about 7 dB).
    for (auto pre : { wimax_preamble::long_dl, wimax_preamble::short_ul }) {
        const auto bins = core::wimax_preamble_bins(pre);
        for (size_t s = 0; s < bins.size() / 256; s++) {
            const auto x = idft(bins.data() + 256 * s, 1.0);
            double peak = 0, mean = 0;
            for (auto v : x) {
                peak = std::max(peak, std::norm(v));
                mean += std::norm(v) / 256;
            }
            EXPECT_LT(10 * std::log10(peak / mean), 3.2) << "symbol " << s;
        }
    }
}

TEST(wimax_tx, data_symbols_are_the_inverse_dft_with_cp)
{
    for (int cp_div : { 4, 8, 16, 32 }) {
        wimax_tx_params p;
        p.cp_div = cp_div;
        p.scale = 3.0f;
        auto tx = core::make_wimax_tx(p, cpu);
        const auto data = random_octets(3 * 72 - 1, 9);
        wimax_burst_request b{ data.data(), data.size(), 4, 1234 };
        const size_t n_sym = tx->burst_symbols(b.len, b.rate_id);
        std::vector<cfloat> bins(256 * n_sym), out(tx->burst_samples(b.len, b.rate_id));
        tx->process_bins(&b, 1, bins.data());
        tx->process(&b, 1, out.data());
        const size_t cp = 256 / size_t(cp_div), sym = 256 + cp;
        std::vector<cfloat> got(out.begin() + long(2 * sym), out.end()), want;
        for (size_t j = 0; j < n_sym; j++) {
            const auto x = idft(bins.data() + 256 * j, 3.0 / 256);
            for (size_t t = 0; t < sym; t++)
                want.push_back(cfloat(x[(t + 256 - cp) % 256]));
        }
        EXPECT_TRUE(test::near_relative(got, want, 2e-5)) << "cp_div " << cp_div;
    }
}

TEST(wimax_tx, padding_fills_with_ff_before_randomization)
{
    wimax_tx_params pad;
    pad.pad = true;
    auto with_pad = core::make_wimax_tx(pad, cpu);
    auto plain = core::make_wimax_tx({}, cpu);
    const auto data = random_octets(50, 11); // 16-QAM 1/2: K = 48 -> 2 blocks
    auto full = data;
    full.resize(2 * 48 - 1, 0xFF);
    core::wimax_burst_trace a, b;
    with_pad->trace({ data.data(), data.size(), 3, 99 }, a);
    plain->trace({ full.data(), full.size(), 3, 99 }, b);
    EXPECT_EQ(a.randomized, b.randomized);
    EXPECT_EQ(a.rs_encoded, b.rs_encoded);
    EXPECT_EQ(a.interleaved, b.interleaved);
    EXPECT_EQ(a.rs_encoded.size(), 2u * 64);
    EXPECT_EQ(a.rs_encoded.back(), 0x00); // the tail byte ends the last block
}

TEST(wimax_tx, bad_input_throws)
{
    auto tx = core::make_wimax_tx({}, cpu);
    const auto data = random_octets(5000, 1);
    std::vector<cfloat> out(100000);
    auto run = [&](wimax_burst_request b) {
        return [&tx, b, &out] { tx->process(&b, 1, out.data()); };
    };
    EXPECT_TRUE(throws_invalid(run({ data.data(), 0, 0, 1 }), "len"));    // empty
    EXPECT_TRUE(throws_invalid(run({ data.data(), 12, 0, 1 }), "len"));   // 13 != k x 12
    EXPECT_TRUE(throws_invalid(run({ data.data(), 4199, 0, 1 }), "len")); // > max_burst_bytes
    EXPECT_TRUE(throws_invalid(run({ data.data(), 11, 7, 1 }), "rate_id"));
    EXPECT_TRUE(throws_invalid(run({ data.data(), 11, -1, 1 }), "rate_id"));
    EXPECT_TRUE(throws_invalid(run({ nullptr, 11, 0, 1 }), "data"));
    EXPECT_TRUE(throws_invalid(run({ data.data(), 11, 0, 0 }), "seed"));
    EXPECT_TRUE(throws_invalid(run({ data.data(), 11, 0, 32768 }), "seed"));
    auto make = [](wimax_tx_params p) { return [p] { core::make_wimax_tx(p, cpu); }; };
    wimax_tx_params p;
    p.cp_div = 5;
    EXPECT_TRUE(throws_invalid(make(p), "cp_div"));
    p = {};
    p.max_bursts_per_batch = 0;
    EXPECT_TRUE(throws_invalid(make(p), "max_bursts_per_batch"));
    p = {};
    p.max_burst_bytes = 70000;
    EXPECT_TRUE(throws_invalid(make(p), "max_burst_bytes"));
    p = {};
    p.max_symbols_per_batch = 3;
    EXPECT_TRUE(throws_invalid(make(p), "max_symbols_per_batch"));
    p = {};
    p.scale = 0.0f;
    EXPECT_TRUE(throws_invalid(make(p), "scale"));
    p = {};
    p.preamble = wimax_preamble(9);
    EXPECT_TRUE(throws_invalid(make(p), "preamble"));
}

TEST(wimax_tx, cuda_matches_cpu_every_profile)
{
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    for (bool uplink : { false, true }) {
        wimax_tx_params p;
        p.uplink = uplink;
        p.preamble = uplink ? wimax_preamble::short_ul : wimax_preamble::long_dl;
        p.cp_div = uplink ? 16 : 4;
        p.max_bursts_per_batch = 5; // several batches per call
        p.max_burst_bytes = 1500;
        p.pad = true;
        auto ref = core::make_wimax_tx(p, cpu);
        auto dut = core::make_wimax_tx(p, gpu);
        std::mt19937 rng(17);
        std::vector<std::vector<uint8_t>> payloads;
        std::vector<wimax_burst_request> bursts;
        for (int i = 0; i < 21; i++) {
            const int rid = i % 7;
            payloads.push_back(random_octets(1 + rng() % 1500, uint32_t(i)));
            bursts.push_back({ nullptr, payloads.back().size(), rid, int(1 + rng() % 32767) });
        }
        for (size_t i = 0; i < bursts.size(); i++)
            bursts[i].data = payloads[i].data();
        const size_t n = ref->total_samples(bursts);
        std::vector<cfloat> want(n), got(n);
        ref->process(bursts, want.data());
        dut->process(bursts, got.data());
        EXPECT_TRUE(test::near_relative(got, want, 2e-5)) << "uplink " << uplink;
        size_t n_bins = 0;
        for (const auto& b : bursts)
            n_bins += 256 * ref->burst_symbols(b.len, b.rate_id);
        std::vector<cfloat> wb(n_bins), gb(n_bins);
        ref->process_bins(bursts, wb.data());
        dut->process_bins(bursts, gb.data());
        EXPECT_EQ(std::memcmp(wb.data(), gb.data(), n_bins * sizeof(cfloat)), 0)
            << "uplink " << uplink;
        for (size_t i = 0; i < 7; i++) {
            core::wimax_burst_trace a, b;
            ref->trace(bursts[i], a);
            dut->trace(bursts[i], b);
            EXPECT_EQ(a.randomized, b.randomized) << "profile " << i;
            EXPECT_EQ(a.rs_encoded, b.rs_encoded) << "profile " << i;
            EXPECT_EQ(a.cc_encoded, b.cc_encoded) << "profile " << i;
            EXPECT_EQ(a.interleaved, b.interleaved) << "profile " << i;
        }
    }
}

TEST(wimax_tx, cuda_device_resident_relaunch)
{
    GPUOFDM_REQUIRE_GPU();
    // Stage once, launch repeatedly, fetch: the same samples as process().
    wimax_tx_params p;
    p.max_bursts_per_batch = 3;
    p.max_burst_bytes = 600;
    auto tx = core::make_wimax_tx(p, core::device_spec{ core::backend::cuda, 0 });
    auto* batch = dynamic_cast<core::device_burst_batch<wimax_burst_request>*>(tx.get());
    ASSERT_NE(batch, nullptr);
    std::vector<std::vector<uint8_t>> payloads;
    std::vector<wimax_burst_request> bursts;
    for (int i = 0; i < 3; i++) {
        payloads.push_back(random_octets(size_t(12 * (i + 1) * 10 - 1), uint32_t(40 + i)));
        bursts.push_back({ payloads.back().data(), payloads.back().size(), 0, 1 + i });
    }
    std::vector<cfloat> want(tx->total_samples(bursts));
    tx->process(bursts, want.data());
    ASSERT_EQ(batch->batch_size(bursts.data(), bursts.size()), 3u);
    batch->stage(bursts.data(), 3);
    EXPECT_EQ(batch->staged_samples(), want.size());
    batch->launch();
    batch->launch();
    std::vector<cfloat> got(batch->staged_samples());
    batch->fetch(got.data());
    EXPECT_EQ(got, want);
    EXPECT_THROW(batch->stage(bursts.data(), 0), std::invalid_argument);
}
