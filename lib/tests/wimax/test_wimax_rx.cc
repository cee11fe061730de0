/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.16 OFDM-256 receiver against the core transmitter: bursts of every profile come
// back exactly through AWGN, CFO up to +-100 kHz at 4 Msps (8.3.2.3's 3.5 MHz channel) and
// a 3-tap channel, with the receiver's own sync and estimates; the interpolating pilot
// tracker follows a sampling-clock offset that the common phase cannot; the 8.3.3.5.1 burst
// decodes to its input; a stream fed in random pieces loses no burst; noise, NaNs and
// truncated bursts give no false good burst, NaNs in the gaps lose none; the known-timing
// path; bad parameters; CUDA against the CPU twin.

#include "rx_test_util.h"
#include "test_util.h"
#include "tx_test_vectors.h"
#include "wimax/wimax_rx.h"
#include "wimax/wimax_tx.h"

#include <cmath>
#include <complex>
#include <limits>
#include <random>

using namespace gr::gpuofdm;
using core::cfloat;
using test::apply_channel;
using test::move_starts_with_clock;
using test::resample;

namespace {

const core::device_spec cpu{};
constexpr double two_pi = 6.283185307179586;
constexpr double fs = 4e6; //!< 8.3.2.3: 8/7 x 3.5 MHz

double hz_to_rad(double hz) { return two_pi * hz / fs; }

std::vector<uint8_t> random_octets(size_t n, std::mt19937& rng)
{
    std::vector<uint8_t> v(n);
    for (auto& b : v)
        b = uint8_t(rng());
    return v;
}

struct sent {
    std::vector<uint8_t> data;
    size_t start = 0; //!< first sample of the preamble in the stream
};

//! Bursts at unit average power (scale 256 / sqrt(200)) after \p lead zeros, gap_of(i)
//! zeros after burst i.
template <typename GapOf>
std::vector<cfloat> make_stream_gaps(std::vector<sent>& bursts,
                                     const core::wimax_rx_params& rp,
                                     GapOf gap_of,
                                     size_t lead)
{
    core::wimax_tx_params tp;
    tp.cp_div = rp.sync.cp_div;
    tp.uplink = rp.uplink;
    tp.pad = rp.pad;
    tp.max_burst_bytes = 65535;
    tp.scale = float(256.0 / std::sqrt(200.0));
    auto tx = core::make_wimax_tx(tp, cpu);
    std::vector<cfloat> out(lead);
    for (size_t i = 0; i < bursts.size(); i++) {
        sent& b = bursts[i];
        core::wimax_burst_request r{ b.data.data(), b.data.size(), rp.rate_id, rp.seed };
        b.start = out.size();
        out.resize(out.size() + tx->burst_samples(r.len, r.rate_id));
        tx->process(&r, 1, out.data() + b.start);
        out.resize(out.size() + size_t(gap_of(i)));
    }
    return out;
}

//! The same with \p gap zeros after every burst.
std::vector<cfloat> make_stream(std::vector<sent>& bursts,
                                const core::wimax_rx_params& rp,
                                size_t gap,
                                size_t lead)
{
    return make_stream_gaps(
        bursts, rp, [gap](size_t) { return gap; }, lead);
}

//! How many sent bursts came back exactly (payload, ok, start within 4 samples), each once.
size_t count_received(const std::vector<sent>& bursts,
                      const std::vector<core::wimax_rx_burst>& got,
                      size_t* false_ok = nullptr)
{
    return test::count_matches(
        bursts, got, [](const core::wimax_rx_burst& p) { return p.ok; },
        [](const core::wimax_rx_burst& p, const sent& b) {
            return p.payload == b.data && p.start + 4 >= b.start && p.start <= b.start + 4;
        },
        false_ok);
}

//! Feeds \p x in random pieces of 1 .. max_piece samples, then finishes.
std::vector<core::wimax_rx_burst> feed_in_pieces(core::wimax_receiver& rx,
                                                 const std::vector<cfloat>& x,
                                                 size_t max_piece,
                                                 std::mt19937& rng)
{
    std::vector<core::wimax_rx_burst> got;
    size_t at = 0;
    while (at < x.size()) {
        const size_t n = std::min(x.size() - at, size_t(1 + rng() % max_piece));
        auto r = rx.process(x.data() + at, n);
        got.insert(got.end(), r.begin(), r.end());
        at += n;
    }
    auto r = rx.finish();
    got.insert(got.end(), r.begin(), r.end());
    return got;
}

core::wimax_rx_params rx_params(int rate_id, size_t blocks, int cp_div = 4)
{
    core::wimax_rx_params p;
    p.rate_id = rate_id;
    p.burst_bytes = blocks * core::wimax_profile(rate_id).rs.k - 1;
    p.seed = 1 + rate_id * 1000;
    p.sync.cp_div = cp_div;
    return p;
}

} // namespace

TEST(wimax_rx, every_profile_through_awgn_cfo_and_three_taps)
{
    const double cfo_hz[] = { -100e3, -61e3, 0.0, 37e3, 100e3 };
    const int cp_divs[] = { 4, 8, 16, 32 };
    const std::vector<cfloat> taps = { { 0.9f, 0.1f }, { 0.35f, -0.25f }, { -0.1f, 0.15f } };
    std::mt19937 rng(42);
    for (int rate = 0; rate < 7; rate++) {
        for (int v = 0; v < 2; v++) {
            const double cfo = hz_to_rad(cfo_hz[(rate + 3 * v) % 5]);
            const int cp_div = cp_divs[(rate + v) % 4];
            auto p = rx_params(rate, 3 + size_t(rate % 3), cp_div);
            p.uplink = v == 1;
            std::vector<sent> bursts(4);
            for (auto& b : bursts)
                b.data = random_octets(p.burst_bytes, rng);
            auto x = make_stream(bursts, p, 700, 500);
            apply_channel(x, taps, cfo, 1e-3f, uint32_t(rate * 10 + v)); // 30 dB
            auto rx = core::make_wimax_receiver(p, cpu);
            const auto got = rx->decode_buffer(x.data(), x.size());
            size_t false_ok = 0;
            EXPECT_EQ(count_received(bursts, got, &false_ok), bursts.size())
                << core::wimax_profile(rate).name << " cp_div " << cp_div << " cfo "
                << cfo * fs / two_pi;
            EXPECT_EQ(false_ok, 0u);
            for (const auto& b : got) {
                EXPECT_NEAR(b.cfo, cfo, hz_to_rad(300)) << core::wimax_profile(rate).name;
                EXPECT_GT(b.snr_db, 20.0f);
                EXPECT_EQ(b.rs_uncorrectable, 0u);
                EXPECT_LT(double(b.coded_errors), 0.01 * double(b.coded_bits));
            }
        }
    }
}

TEST(wimax_rx, plain_least_squares_and_no_tracking_also_decode)
{
    std::mt19937 rng(7);
    auto p = rx_params(4, 4);
    p.channel_taps = 0;
    p.pilot_tracking = false;
    std::vector<sent> bursts(3);
    for (auto& b : bursts)
        b.data = random_octets(p.burst_bytes, rng);
    auto x = make_stream(bursts, p, 300, 300);
    apply_channel(x, { { 1.0f, 0.0f }, { 0.3f, 0.2f } }, hz_to_rad(20e3), 1e-3f, 3);
    auto rx = core::make_wimax_receiver(p, cpu);
    EXPECT_EQ(count_received(bursts, rx->decode_buffer(x.data(), x.size())), bursts.size());
}

TEST(wimax_rx, pilot_interpolation_follows_a_sampling_clock_offset)
{
    // 2159-octet bursts at 64-QAM 3/4 (20 data symbols, 7040 samples), a 100 ppm clock
    // offset: the FFT window drifts 0.7 samples over a burst, a phase slope of +-1.7 rad at
    // the band's edges by its end, which one common phase cannot follow (5 % coded bit
    // errors: no burst decodes; it loses them all from 20 ppm on); the pilots' ratios
    // interpolated across the band can (0.1 %; all decode up to about 150 ppm).
    std::mt19937 rng(53);
    auto p = rx_params(6, 20);
    std::vector<sent> bursts(8);
    for (auto& b : bursts)
        b.data = random_octets(p.burst_bytes, rng);
    const double ppm = 100.0;
    auto x = resample(make_stream(bursts, p, 600, 400), ppm);
    move_starts_with_clock(bursts, ppm);
    apply_channel(x, { { 1.0f, 0.0f }, { 0.2f, -0.1f } }, hz_to_rad(10e3), 1e-3f, 54);
    p.pilot_interpolation = true;
    auto interp = core::make_wimax_receiver(p, cpu);
    size_t false_ok = 0;
    EXPECT_EQ(count_received(bursts, interp->decode_buffer(x.data(), x.size()), &false_ok),
              bursts.size());
    EXPECT_EQ(false_ok, 0u);
    p.pilot_interpolation = false;
    auto common = core::make_wimax_receiver(p, cpu);
    EXPECT_EQ(count_received(bursts, common->decode_buffer(x.data(), x.size())), 0u)
        << "the common phase alone should not follow this clock offset";
}

TEST(wimax_rx, example_8_3_3_5_1_decodes_to_its_input)
{
    GPUOFDM_LOAD_OCTETS(input, "ieee80216-ofdm", "input.txt");
    core::wimax_rx_params p;
    p.rate_id = 2;
    p.burst_bytes = input.size();
    p.seed = core::wimax_randomizer_seed(1, 7, 1);
    std::vector<sent> bursts(1);
    bursts[0].data = input;
    auto x = make_stream(bursts, p, 400, 400);
    apply_channel(x, { { 1.0f, 0.0f } }, hz_to_rad(-12e3), 1e-3f, 1);
    auto rx = core::make_wimax_receiver(p, cpu);
    const auto got = rx->decode_buffer(x.data(), x.size());
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].payload, input);
    EXPECT_TRUE(got[0].ok);
    EXPECT_EQ(got[0].start, bursts[0].start);
    EXPECT_EQ(got[0].rs_blocks, 1u);
}

TEST(wimax_rx, padded_bursts_come_back)
{
    std::mt19937 rng(9);
    auto p = rx_params(3, 2);
    p.pad = true;
    p.burst_bytes = 50; // 2 blocks of 48, 45 octets of 0xFF fill
    std::vector<sent> bursts(2);
    for (auto& b : bursts)
        b.data = random_octets(p.burst_bytes, rng);
    auto x = make_stream(bursts, p, 200, 200);
    apply_channel(x, { { 1.0f, 0.0f } }, 0.0, 1e-3f, 4);
    auto rx = core::make_wimax_receiver(p, cpu);
    EXPECT_EQ(rx->burst_symbols(), 2u);
    EXPECT_EQ(count_received(bursts, rx->decode_buffer(x.data(), x.size())), 2u);
}

TEST(wimax_rx, stream_in_random_pieces_loses_no_burst)
{
    std::mt19937 rng(11);
    auto p = rx_params(5, 6);
    auto probe = core::make_wimax_receiver(p, cpu);
    p.batch_samples = probe->burst_samples() + 8192; // small batches: many edges
    std::vector<sent> bursts(24);
    for (auto& b : bursts)
        b.data = random_octets(p.burst_bytes, rng);
    // Gaps from none (back to back) to long.
    auto x = make_stream_gaps(
        bursts, p, [&](size_t i) { return i % 4 == 0 ? size_t(0) : size_t(rng() % 5000); }, 0);
    apply_channel(x, { { 0.9f, 0.0f }, { 0.0f, 0.3f }, { 0.1f, 0.0f } }, hz_to_rad(45e3), 1e-3f, 5);

    auto rx = core::make_wimax_receiver(p, cpu);
    const auto got = feed_in_pieces(*rx, x, 9000, rng);
    size_t false_ok = 0;
    EXPECT_EQ(count_received(bursts, got, &false_ok), bursts.size());
    EXPECT_EQ(false_ok, 0u);
    EXPECT_EQ(got.size(), bursts.size());
    EXPECT_EQ(rx->stats().ok, bursts.size());
    EXPECT_EQ(rx->stats().samples, x.size());
    EXPECT_EQ(rx->stats().truncated, 0u);
}

TEST(wimax_rx, noise_nans_and_truncation_give_no_false_burst)
{
    std::mt19937 rng(13);
    for (int rate : { 0, 1, 6 }) {
        auto p = rx_params(rate, 2);
        // Noise only.
        std::vector<cfloat> x(200000);
        apply_channel(x, { { 1.0f, 0.0f } }, 0.0, 1.0f, uint32_t(rate));
        auto rx = core::make_wimax_receiver(p, cpu);
        auto got = rx->process(x.data(), x.size());
        auto tail = rx->finish();
        got.insert(got.end(), tail.begin(), tail.end());
        for (const auto& b : got)
            EXPECT_FALSE(b.ok) << "noise gave a good burst, rate " << rate;
        EXPECT_EQ(rx->stats().ok, 0u);

        // NaNs and infinities: every other sample, and a block of them, in noise and zeros.
        std::vector<cfloat> z(50000);
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const float inf = std::numeric_limits<float>::infinity();
        for (size_t i = 0; i < z.size(); i += 2)
            z[i] = cfloat(nan, 0.0f);
        for (size_t i = 20000; i < 30000; i++)
            z[i] = cfloat(inf, -inf);
        got = rx->decode_buffer(z.data(), z.size());
        EXPECT_TRUE(got.empty());

        // A burst cut in the middle at the end of the stream, NaNs inside another.
        std::vector<sent> bursts(2);
        for (auto& b : bursts)
            b.data = random_octets(p.burst_bytes, rng);
        auto s = make_stream(bursts, p, 0, 1000);
        apply_channel(s, { { 1.0f, 0.0f } }, 0.0, 1e-3f, 17);
        const size_t cut = bursts[1].start + (s.size() - bursts[1].start) * 7 / 8;
        s.resize(cut);
        for (size_t i = bursts[0].start + 700; i < bursts[0].start + 900; i++) // in data symbol 0
            s[i] = cfloat(nan, nan);
        auto rx2 = core::make_wimax_receiver(p, cpu);
        got = rx2->process(s.data(), s.size());
        tail = rx2->finish();
        got.insert(got.end(), tail.begin(), tail.end());
        for (const auto& b : got)
            EXPECT_NE(b.start, bursts[1].start) << "the truncated burst was decoded";
        size_t false_ok = 0;
        count_received(bursts, got, &false_ok);
        EXPECT_EQ(false_ok, 0u) << "rate " << rate;
        EXPECT_EQ(rx2->stats().truncated, 1u);
    }
}

namespace {

//! Bursts of \p p with random gaps, through noise and a 2-tap channel with CFO, then
//! NaN and infinite samples in the gaps (about one in 30, and a run of 500 NaNs).
std::vector<cfloat> stream_with_dirty_gaps(std::vector<sent>& bursts,
                                           const core::wimax_rx_params& p,
                                           std::mt19937& rng)
{
    auto x = make_stream_gaps(
        bursts, p, [&](size_t i) { return i % 3 == 0 ? size_t(700) : size_t(700 + rng() % 3000); },
        1500);
    apply_channel(x, { { 0.9f, 0.1f }, { 0.3f, -0.2f } }, hz_to_rad(25e3), 1e-3f, uint32_t(rng()));
    auto rx = core::make_wimax_receiver(p, cpu);
    std::vector<bool> in_burst(x.size(), false);
    for (const auto& b : bursts)
        for (size_t i = b.start; i < b.start + rx->burst_samples(); i++)
            in_burst[i] = true;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const cfloat bad[] = { { nan, 0.0f }, { 0.5f, inf }, { -inf, -inf }, { nan, nan } };
    for (size_t i = 0; i < x.size(); i++)
        if (!in_burst[i] && rng() % 30 == 0)
            x[i] = bad[rng() % 4];
    for (size_t i = 200; i < 700; i++) // in the lead
        x[i] = cfloat(nan, 1.0f);
    return x;
}

} // namespace

TEST(wimax_rx, nans_in_gaps_lose_no_burst)
{
    std::mt19937 rng(23);
    for (int rate : { 1, 5 }) {
        auto p = rx_params(rate, 3, rate == 5 ? 16 : 4);
        std::vector<sent> bursts(10);
        for (auto& b : bursts)
            b.data = random_octets(p.burst_bytes, rng);
        const auto x = stream_with_dirty_gaps(bursts, p, rng);
        auto rx = core::make_wimax_receiver(p, cpu);
        const auto got = feed_in_pieces(*rx, x, 9000, rng);
        size_t false_ok = 0;
        EXPECT_EQ(count_received(bursts, got, &false_ok), bursts.size()) << "rate " << rate;
        EXPECT_EQ(false_ok, 0u);
    }
}

TEST(wimax_rx, known_timing_cfo_and_channel)
{
    std::mt19937 rng(19);
    auto p = rx_params(6, 3);
    std::vector<sent> bursts(2);
    for (auto& b : bursts)
        b.data = random_octets(p.burst_bytes, rng);
    auto x = make_stream(bursts, p, 500, 500);
    const double cfo = hz_to_rad(70e3);
    const std::vector<cfloat> taps = { { 0.8f, 0.2f }, { 0.3f, 0.1f } };
    apply_channel(x, taps, cfo, 1e-4f, 23);
    auto rx = core::make_wimax_receiver(p, cpu);

    // Timing and CFO known, the channel estimated.
    std::vector<core::wimax_rx_known> k(2);
    for (size_t i = 0; i < 2; i++) {
        k[i].start = bursts[i].start;
        k[i].cfo = float(cfo);
    }
    EXPECT_EQ(count_received(bursts, rx->decode_buffer(x.data(), x.size(), k.data(), 2)), 2u);

    // The channel known too: H_k = scale sum_t g_t e^{-j 2 pi k (backoff + t) / 256} times
    // the CFO's phase at the burst's start (the derotation starts there).
    const double scale = 256.0 / std::sqrt(200.0);
    std::vector<std::vector<cfloat>> h(2, std::vector<cfloat>(256));
    for (size_t i = 0; i < 2; i++) {
        for (int b = 0; b < 256; b++) {
            std::complex<double> acc = 0;
            for (size_t t = 0; t < taps.size(); t++)
                acc += std::complex<double>(taps[t]) *
                       std::polar(1.0, -two_pi * b * double(p.fft_backoff + int(t)) / 256.0);
            h[i][size_t(b)] = cfloat(scale * acc * std::polar(1.0, cfo * double(bursts[i].start)));
        }
        k[i].channel = h[i].data();
        k[i].noise_var = 256.0f * 1e-4f;
    }
    const auto got = rx->decode_buffer(x.data(), x.size(), k.data(), 2);
    EXPECT_EQ(count_received(bursts, got), 2u);
    for (const auto& b : got)
        EXPECT_NEAR(b.snr_db, 40.0f, 1.0f);
}

TEST(wimax_rx, bad_parameters_throw_naming_them)
{
    using params = core::wimax_rx_params;
    const std::vector<std::pair<const char*, void (*)(params&)>> bad = {
        { "rate_id", [](params& p) { p.rate_id = 7; } },
        { "burst_bytes", [](params& p) { p.burst_bytes = 0; } },
        { "burst_bytes", [](params& p) { p.burst_bytes = 24; } }, // QPSK 1/2: 25 != k x 24
        { "seed", [](params& p) { p.seed = 0; } },
        { "cp_div", [](params& p) { p.sync.cp_div = 5; } },
        { "threshold", [](params& p) { p.sync.threshold = 0.9f; } },
        { "min_plateau", [](params& p) { p.sync.min_plateau = 8; } },
        { "min_power", [](params& p) { p.sync.min_power = -1.0f; } },
        { "min_preamble_metric", [](params& p) { p.sync.min_preamble_metric = 1.0f; } },
        { "cfo_search", [](params& p) { p.sync.cfo_search = 5; } },
        { "fft_backoff", [](params& p) { p.fft_backoff = 65; } },
        { "fft_backoff",
          [](params& p) {
              p.sync.cp_div = 32;
              p.fft_backoff = 9;
          } },
        { "channel_taps", [](params& p) { p.channel_taps = 4; } },
        { "max_coded_ber", [](params& p) { p.max_coded_ber = 0.0f; } },
        { "batch_samples", [](params& p) { p.batch_samples = 1000; } },
    };
    for (const auto& [name, spoil] : bad) {
        params p;
        spoil(p);
        EXPECT_TRUE(test::throws_invalid([p] { core::make_wimax_receiver(p, cpu); }, name));
        // The same check before "not yet on CUDA".
        EXPECT_TRUE(test::throws_invalid(
            [p] {
                core::make_wimax_receiver(p, { core::backend::cuda, 0 });
            },
            name));
    }

    auto rx = core::make_wimax_receiver({}, cpu);
    EXPECT_TRUE(test::throws_invalid([&] { rx->process(nullptr, 5); }, "x"));
    EXPECT_TRUE(test::throws_invalid([&] { rx->decode_buffer(nullptr, 5); }, "x"));
    std::vector<cfloat> x(1000);
    EXPECT_TRUE(
        test::throws_invalid([&] { rx->decode_buffer(x.data(), x.size(), nullptr, 1); }, "known"));
    core::wimax_rx_known k;
    std::vector<cfloat> h(256, cfloat(1, 0));
    k.channel = h.data();
    EXPECT_TRUE(
        test::throws_invalid([&] { rx->decode_buffer(x.data(), x.size(), &k, 1); }, "known"));
    std::vector<cfloat> big(rx->batch_samples() + 1);
    EXPECT_TRUE(test::throws_invalid([&] { rx->decode_buffer(big.data(), big.size()); }, "n"));
}

namespace {

//! The CUDA backend's bursts (b) against the CPU twin's (a): the same bursts, payloads and
//! decisions; SNR and the coded-error estimate within rounding (cuFFT against FFTW).
void expect_same_bursts(const std::vector<core::wimax_rx_burst>& a,
                        const std::vector<core::wimax_rx_burst>& b)
{
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); i++) {
        EXPECT_EQ(a[i].start, b[i].start);
        EXPECT_EQ(a[i].cfo, b[i].cfo);
        EXPECT_EQ(a[i].payload, b[i].payload);
        EXPECT_EQ(a[i].ok, b[i].ok);
        EXPECT_NEAR(a[i].snr_db, b[i].snr_db, 0.01);
        EXPECT_NEAR(double(a[i].coded_errors), double(b[i].coded_errors),
                    1e-3 * double(a[i].coded_bits) + 2);
    }
}

} // namespace

TEST(wimax_rx, cuda_matches_cpu)
{
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    std::mt19937 rng(29);
    for (int rate = 0; rate < 7; rate++) {
        for (int taps : { 0, 24 }) {
            auto p = rx_params(rate, 2 + size_t(rate % 3), rate % 2 ? 32 : 4);
            p.channel_taps = taps;
            p.uplink = rate % 3 == 0;
            std::vector<sent> bursts(12);
            for (auto& b : bursts)
                b.data = random_octets(p.burst_bytes, rng);
            auto x = make_stream_gaps(
                bursts, p, [&](size_t i) { return i % 3 == 0 ? size_t(0) : size_t(rng() % 2000); },
                300);
            apply_channel(x, { { 0.9f, 0.1f }, { 0.3f, -0.2f }, { 0.1f, 0.1f } },
                          hz_to_rad(-80e3 + 20e3 * rate), 1e-3f, uint32_t(rate));
            auto cpu_rx = core::make_wimax_receiver(p, cpu);
            auto gpu_rx = core::make_wimax_receiver(p, gpu);
            ASSERT_EQ(gpu_rx->device().kind, core::backend::cuda);
            // A stream in pieces, and one buffer with known timing and channel estimated.
            std::mt19937 r1(rate), r2(rate);
            const auto a = feed_in_pieces(*cpu_rx, x, 7000, r1);
            const auto b = feed_in_pieces(*gpu_rx, x, 7000, r2);
            ASSERT_EQ(a.size(), b.size()) << "rate " << rate;
            EXPECT_EQ(count_received(bursts, b), bursts.size()) << "rate " << rate;
            expect_same_bursts(a, b);
            std::vector<core::wimax_rx_known> k(bursts.size());
            for (size_t i = 0; i < k.size(); i++) {
                k[i].start = bursts[i].start;
                k[i].cfo = float(hz_to_rad(-80e3 + 20e3 * rate));
            }
            const size_t n = std::min(x.size(), gpu_rx->batch_samples());
            const auto c = cpu_rx->decode_buffer(x.data(), n, k.data(), k.size());
            const auto d = gpu_rx->decode_buffer(x.data(), n, k.data(), k.size());
            ASSERT_EQ(c.size(), d.size());
            for (size_t i = 0; i < c.size(); i++) {
                EXPECT_EQ(c[i].payload, d[i].payload);
                EXPECT_NEAR(c[i].snr_db, d[i].snr_db, 0.01);
            }
        }
    }
}

TEST(wimax_rx, cuda_detects_on_its_device_copy_with_nans_in_gaps)
{
    // The CUDA synchronizer reads the front end's device copy of the batch (cleaned on the
    // host before the upload); NaNs and infinities in the gaps, around the detection
    // windows, must give the CPU twin's bursts and sync metrics, in a stream with small
    // and default batches, and in one buffer.
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    std::mt19937 rng(71);
    for (int rate : { 1, 5 }) {
        for (bool small_batches : { false, true }) {
            SCOPED_TRACE("rate " + std::to_string(rate) + (small_batches ? " small" : ""));
            auto p = rx_params(rate, 3, rate == 5 ? 16 : 4);
            std::vector<sent> bursts(10);
            for (auto& b : bursts)
                b.data = random_octets(p.burst_bytes, rng);
            const auto x = stream_with_dirty_gaps(bursts, p, rng);
            if (small_batches) {
                auto probe = core::make_wimax_receiver(p, cpu);
                p.batch_samples = probe->burst_samples() +
                                  core::make_wimax_sync(probe->params().sync, {})->lookback() +
                                  4096;
            }
            auto cpu_rx = core::make_wimax_receiver(p, cpu);
            auto gpu_rx = core::make_wimax_receiver(p, gpu);
            std::mt19937 r1(rate), r2(rate);
            const auto a = feed_in_pieces(*cpu_rx, x, 7000, r1);
            const auto b = feed_in_pieces(*gpu_rx, x, 7000, r2);
            EXPECT_EQ(count_received(bursts, b), bursts.size());
            expect_same_bursts(a, b);
            for (size_t i = 0; i < std::min(a.size(), b.size()); i++) {
                EXPECT_NEAR(a[i].sync_metric, b[i].sync_metric, 1e-5);
                EXPECT_NEAR(a[i].preamble_metric, b[i].preamble_metric, 1e-5);
            }
            const size_t n = std::min(x.size(), gpu_rx->batch_samples());
            expect_same_bursts(cpu_rx->decode_buffer(x.data(), n),
                               gpu_rx->decode_buffer(x.data(), n));
        }
    }
}

TEST(wimax_rx, cuda_pilot_interpolation_equals_cpu_twin)
{
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    std::mt19937 rng(59);
    for (int rate : { 1, 4, 6 }) {
        auto p = rx_params(rate, 6 + size_t(rate), rate == 4 ? 8 : 4);
        p.pilot_interpolation = true;
        p.uplink = rate == 4;
        std::vector<sent> bursts(12);
        for (auto& b : bursts)
            b.data = random_octets(p.burst_bytes, rng);
        const double ppm = 60.0;
        auto x = resample(
            make_stream_gaps(
                bursts, p, [&](size_t i) { return i % 3 == 0 ? size_t(0) : size_t(rng() % 2000); },
                300),
            ppm);
        move_starts_with_clock(bursts, ppm);
        apply_channel(x, { { 0.9f, 0.1f }, { 0.3f, -0.2f }, { 0.1f, 0.1f } }, hz_to_rad(-35e3),
                      1e-3f, uint32_t(rate));
        auto cpu_rx = core::make_wimax_receiver(p, cpu);
        auto gpu_rx = core::make_wimax_receiver(p, gpu);
        ASSERT_EQ(gpu_rx->device().kind, core::backend::cuda);
        std::mt19937 r1(rate), r2(rate);
        const auto a = feed_in_pieces(*cpu_rx, x, 7000, r1);
        const auto b = feed_in_pieces(*gpu_rx, x, 7000, r2);
        ASSERT_EQ(a.size(), b.size()) << "rate " << rate;
        EXPECT_EQ(count_received(bursts, b), bursts.size()) << "rate " << rate;
        expect_same_bursts(a, b);
    }
}

TEST(wimax_rx, cuda_device_chain_matches_host_chain)
{
    // The CUDA backend's device-resident chain (deinterleaver, depuncturer, Viterbi over
    // many bursts a launch) against the same backend with the chain on the CPU stages
    // (set_host_chain): the same LLRs, so every field must be identical, at SNRs where
    // some bursts carry channel errors, RS corrections or fail. Every profile; short and
    // long bursts; many bursts in one batch and batches of a few.
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    std::mt19937 rng(31);
    for (int rate = 0; rate < 7; rate++) {
        for (size_t blocks : { size_t(2), size_t(9 + rate), size_t(40) }) {
            auto p = rx_params(rate, blocks, rate % 2 ? 8 : 4);
            p.uplink = rate % 3 == 1;
            std::vector<sent> bursts(blocks == 40 ? 6 : 30);
            for (auto& b : bursts)
                b.data = random_octets(p.burst_bytes, rng);
            auto x = make_stream_gaps(
                bursts, p, [&](size_t i) { return i % 4 == 0 ? size_t(0) : size_t(rng() % 900); },
                500);
            const float n0 = float(std::pow(10.0, -(3.0 + 3.0 * rate) / 10.0));
            apply_channel(x, { { 0.9f, 0.1f }, { 0.3f, -0.2f } }, hz_to_rad(15e3 * rate - 40e3), n0,
                          uint32_t(100 + rate));
            for (bool small_batches : { false, true }) {
                auto q = p;
                if (small_batches) {
                    // The smallest batch: one or two bursts a batch.
                    auto probe = core::make_wimax_receiver(q, cpu);
                    q.batch_samples = probe->burst_samples() +
                                      core::make_wimax_sync(probe->params().sync, {})->lookback() +
                                      4096;
                }
                auto dev_rx = core::make_wimax_receiver(q, gpu);
                auto host_rx = core::make_wimax_receiver(q, gpu);
                host_rx->set_host_chain(true);
                EXPECT_FALSE(dev_rx->host_chain());
                std::mt19937 r1(rate), r2(rate);
                const auto a = feed_in_pieces(*dev_rx, x, 9000, r1);
                const auto b = feed_in_pieces(*host_rx, x, 9000, r2);
                ASSERT_EQ(a.size(), b.size()) << "rate " << rate << " blocks " << blocks;
                size_t with_errors = 0;
                for (size_t i = 0; i < a.size(); i++) {
                    SCOPED_TRACE("rate " + std::to_string(rate) + " blocks " +
                                 std::to_string(blocks) + " burst " + std::to_string(i));
                    EXPECT_EQ(a[i].start, b[i].start);
                    EXPECT_EQ(a[i].snr_db, b[i].snr_db);
                    EXPECT_EQ(a[i].noise_var, b[i].noise_var);
                    EXPECT_EQ(a[i].payload, b[i].payload);
                    EXPECT_EQ(a[i].rs_blocks, b[i].rs_blocks);
                    EXPECT_EQ(a[i].rs_corrected, b[i].rs_corrected);
                    EXPECT_EQ(a[i].rs_uncorrectable, b[i].rs_uncorrectable);
                    EXPECT_EQ(a[i].coded_errors, b[i].coded_errors);
                    EXPECT_EQ(a[i].coded_bits, b[i].coded_bits);
                    EXPECT_EQ(a[i].ok, b[i].ok);
                    with_errors += a[i].coded_errors > 0;
                }
                EXPECT_GT(with_errors, 0u) << "rate " << rate << ": no channel errors to compare";
                // One buffer at the known places: every burst in one front-end batch.
                std::vector<core::wimax_rx_known> k;
                for (const auto& s : bursts)
                    if (s.start + dev_rx->burst_samples() <= dev_rx->batch_samples())
                        k.push_back({ s.start, float(hz_to_rad(15e3 * rate - 40e3)) });
                const size_t n = std::min(x.size(), dev_rx->batch_samples());
                const auto c = dev_rx->decode_buffer(x.data(), n, k.data(), k.size());
                const auto d = host_rx->decode_buffer(x.data(), n, k.data(), k.size());
                ASSERT_EQ(c.size(), d.size());
                for (size_t i = 0; i < c.size(); i++) {
                    EXPECT_EQ(c[i].payload, d[i].payload);
                    EXPECT_EQ(c[i].coded_errors, d[i].coded_errors);
                    EXPECT_EQ(c[i].rs_corrected, d[i].rs_corrected);
                    EXPECT_EQ(c[i].ok, d[i].ok);
                }
            }
        }
    }
}

TEST(wimax_rx, host_chain_switch_changes_nothing_on_the_cpu_twin)
{
    std::mt19937 rng(37);
    for (int rate : { 0, 3, 6 }) {
        auto p = rx_params(rate, 3);
        std::vector<sent> bursts(5);
        for (auto& b : bursts)
            b.data = random_octets(p.burst_bytes, rng);
        auto x = make_stream(bursts, p, 200, 300);
        apply_channel(x, { { 1.0f, 0.0f } }, 0.0, float(std::pow(10.0, -(4.0 + 3.0 * rate) / 10.0)),
                      uint32_t(rate));
        auto a_rx = core::make_wimax_receiver(p, cpu);
        auto b_rx = core::make_wimax_receiver(p, cpu);
        b_rx->set_host_chain(true);
        EXPECT_TRUE(b_rx->host_chain());
        const auto a = a_rx->decode_buffer(x.data(), x.size());
        const auto b = b_rx->decode_buffer(x.data(), x.size());
        ASSERT_EQ(a.size(), b.size());
        ASSERT_EQ(a.size(), bursts.size());
        for (size_t i = 0; i < a.size(); i++) {
            EXPECT_EQ(a[i].payload, b[i].payload);
            EXPECT_EQ(a[i].coded_errors, b[i].coded_errors);
            EXPECT_EQ(a[i].coded_bits, b[i].coded_bits);
            EXPECT_EQ(a[i].rs_corrected, b[i].rs_corrected);
            EXPECT_EQ(a[i].ok, b[i].ok);
        }
        EXPECT_EQ(count_received(bursts, a), bursts.size()) << "rate " << rate;
    }
}

TEST(wimax_rx, streams_of_short_and_long_prefixes_and_profiles_in_pieces)
{
    // Batches of one to three bursts, pieces up to 6000 samples, back-to-back bursts.
    for (uint32_t seed = 1; seed <= 2; seed++)
        for (int cp_div : { 4, 32 })
            for (int rate : { 0, 2, 6 }) {
                std::mt19937 rng(seed * 100 + uint32_t(rate));
                auto p = rx_params(rate, 1 + seed % 5, cp_div);
                auto probe = core::make_wimax_receiver(p, cpu);
                p.batch_samples =
                    probe->burst_samples() + probe->burst_samples() * (seed % 3) + 4096 + 3000;
                std::vector<sent> bursts(30);
                for (auto& b : bursts)
                    b.data = random_octets(p.burst_bytes, rng);
                const size_t lead = rng() % 3000;
                auto x = make_stream_gaps(
                    bursts, p,
                    [&](size_t i) { return i % 3 == 0 ? size_t(0) : size_t(rng() % 3000); }, lead);
                apply_channel(x, { { 0.9f, 0.0f }, { 0.0f, 0.3f }, { 0.1f, 0.0f } },
                              hz_to_rad(-90e3 + 30e3 * seed), 3e-3f, seed);
                auto rx = core::make_wimax_receiver(p, cpu);
                const auto got = feed_in_pieces(*rx, x, seed * 3000, rng);
                size_t false_ok = 0;
                EXPECT_EQ(count_received(bursts, got, &false_ok), bursts.size())
                    << seed << " " << cp_div << " " << rate;
                EXPECT_EQ(false_ok, 0u);
                EXPECT_EQ(got.size(), bursts.size()) << seed << " " << cp_div << " " << rate;
            }
}

TEST(wimax_rx, cuda_sync_decisions_are_the_cpu_twins_at_batch_edges)
{
    // The receiver's synchronizer on the device (the matched filter included) against the
    // CPU twin's: the same bursts with bit-identical start, CFO and metrics, over 200
    // bursts each with its own CFO (up to +-120 kHz: other CFO hypotheses than the coarse
    // one win), back to back or apart, in the smallest batches (a burst at almost every
    // batch edge, decided again from the next batch) and random pieces; at 30 dB every
    // burst decodes to the CPU twin's payload; at 3 dB (close matched-filter values) the
    // synchronizer's decisions still agree exactly.
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    for (float n0 : { 1e-3f, 0.5f }) {
        for (int cp_div : { 4, 16 }) {
            SCOPED_TRACE("n0 " + std::to_string(n0) + " cp_div " + std::to_string(cp_div));
            std::mt19937 rng(uint32_t(cp_div) + (n0 > 0.1f ? 100u : 0u));
            auto p = rx_params(n0 > 0.1f ? 0 : 3, 2, cp_div);
            auto probe = core::make_wimax_receiver(p, cpu);
            p.batch_samples = probe->burst_samples() +
                              core::make_wimax_sync(probe->params().sync, {})->lookback() + 4096;
            std::vector<sent> bursts(200);
            for (auto& b : bursts)
                b.data = random_octets(p.burst_bytes, rng);
            auto x = make_stream_gaps(
                bursts, p, [&](size_t i) { return i % 3 == 0 ? size_t(0) : size_t(rng() % 2500); },
                700);
            std::uniform_real_distribution<double> cfo(-hz_to_rad(120e3), hz_to_rad(120e3));
            for (const auto& b : bursts) {
                const double w = cfo(rng);
                for (size_t t = 0; t < probe->burst_samples(); t++)
                    x[b.start + t] *= cfloat(std::polar(1.0, w * double(t)));
            }
            apply_channel(x, { { 0.9f, 0.1f }, { 0.3f, -0.2f }, { 0.1f, 0.1f } }, 0.0, n0,
                          uint32_t(rng()));
            auto cpu_rx = core::make_wimax_receiver(p, cpu);
            auto gpu_rx = core::make_wimax_receiver(p, gpu);
            std::mt19937 r1(7), r2(7);
            const auto a = feed_in_pieces(*cpu_rx, x, 9000, r1);
            const auto b = feed_in_pieces(*gpu_rx, x, 9000, r2);
            ASSERT_EQ(a.size(), b.size());
            for (size_t i = 0; i < a.size(); i++) {
                EXPECT_EQ(a[i].start, b[i].start) << "burst " << i;
                EXPECT_EQ(a[i].cfo, b[i].cfo) << "burst " << i;
                EXPECT_EQ(a[i].sync_metric, b[i].sync_metric) << "burst " << i;
                EXPECT_EQ(a[i].preamble_metric, b[i].preamble_metric) << "burst " << i;
            }
            if (n0 < 0.1f) {
                EXPECT_EQ(count_received(bursts, a), bursts.size());
                expect_same_bursts(a, b);
            }
        }
    }
}
