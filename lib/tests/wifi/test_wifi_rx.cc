/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.11a receiver against the core transmitter: the Annex G packet (G.24 as the
// standard prints it) is received exactly; frames of every rate come back through AWGN,
// CFO and a 3-tap channel with the receiver's own sync and estimates; a stream fed in
// small pieces gives the frames of the whole buffer, none lost at a batch edge; noise,
// NaNs, truncated frames and a bad SIGNAL give no false PDU; CUDA equals the CPU twin.

#include "ofdm/demapper.h"
#include "rx_test_util.h"
#include "test_util.h"
#include "tx_test_vectors.h"
#include "fec/viterbi.h"
#include "wifi/wifi_rx.h"
#include "wifi/wifi_rx_common.h"
#include "wifi/wifi_rx_bits.h"
#include "wifi/wifi_tx.h"

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

const char* annex = "ieee80211a-annex-g";
const core::device_spec cpu{};
constexpr double two_pi = 6.283185307179586;

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

struct sent {
    std::vector<uint8_t> psdu;
    int rate;
    size_t start; //!< first sample of the frame in the stream
};

//! A stream of frames at unit power (scale 64/sqrt(52)) with gaps of \p gap zeros.
std::vector<cfloat> make_stream(std::vector<sent>& frames, size_t gap, size_t lead)
{
    core::wifi_tx_params tp;
    tp.scale = float(64.0 / std::sqrt(52.0));
    auto tx = core::make_wifi_tx(tp, cpu);
    std::vector<cfloat> out(lead);
    for (auto& f : frames) {
        core::wifi_frame_request r;
        r.psdu = f.psdu.data();
        r.len = f.psdu.size();
        r.rate_mbps = f.rate;
        r.seed = 1 + int(f.psdu[0] % 127);
        f.start = out.size();
        const size_t n = tx->frame_samples(r.len, r.rate_mbps);
        out.resize(out.size() + n);
        tx->process(&r, 1, out.data() + f.start);
        out.resize(out.size() + gap);
    }
    return out;
}

//! Runs f and expects std::invalid_argument whose message contains what.
template <typename F>
void expect_invalid(F f, const std::string& what)
{
    try {
        f();
        ADD_FAILURE() << "no exception, expected one naming " << what;
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
}

//! How many sent frames came back with their exact PSDU and a good FCS, each once.
size_t count_received(const std::vector<sent>& frames,
                      const std::vector<core::wifi_rx_packet>& got,
                      size_t* false_ok = nullptr)
{
    return test::count_matches(
        frames, got, [](const core::wifi_rx_packet& p) { return p.data.fcs_ok; },
        [](const core::wifi_rx_packet& p, const sent& f) {
            return p.data.psdu == f.psdu && p.ltf_start + 2 >= f.start + 192 &&
                   p.ltf_start <= f.start + 194;
        },
        false_ok);
}

std::vector<sent> random_frames(size_t n, size_t len, std::mt19937& rng)
{
    std::vector<sent> f;
    const auto& rates = core::wifi_rates();
    for (size_t i = 0; i < n; i++)
        f.push_back({ random_psdu(len, rng), rates[i % rates.size()].mbps, 0 });
    return f;
}

} // namespace

TEST(wifi_rx, signal_field_decodes_and_rejects_bad_parity)
{
    // SIGNAL of Annex G (36 Mb/s, 100 octets) through the transmitter's bins.
    auto tx = core::make_wifi_tx(core::wifi_tx_params{}, cpu);
    std::vector<uint8_t> psdu(100, 0x55);
    core::wifi_frame_request r;
    r.psdu = psdu.data();
    r.len = psdu.size();
    r.rate_mbps = 36;
    std::vector<cfloat> bins(64 * core::wifi_tx::frame_symbols(100, 36));
    tx->process_bins(&r, 1, bins.data());
    cfloat pts[48];
    float w[48];
    for (int k = 0; k < 48; k++) {
        pts[k] = bins[core::wifi_rx_detail::data_bin(k)];
        w[k] = 10.0f;
    }
    auto f = core::wifi_decode_signal(pts, w);
    EXPECT_TRUE(f.ok);
    EXPECT_EQ(f.rate_mbps, 36);
    EXPECT_EQ(f.len, 100u);
    // Every single flipped coded bit is corrected; flipping a whole SIGNAL to its
    // negation is not a valid SIGNAL.
    for (int k = 0; k < 48; k++)
        pts[k] = -pts[k];
    EXPECT_FALSE(core::wifi_decode_signal(pts, w).ok);
}

TEST(wifi_rx, signal_decoder_equals_the_full_length_reference)
{
    // The receivers' SIGNAL decoder (one add-compare-select per state, shared by the CPU
    // twin and the kernel) against the independent full-length reference decoder on the
    // same BPSK LLRs: noisy points, weak and strong weights, ties included (zero points).
    std::mt19937 rng(48);
    std::normal_distribution<float> g(0.0f, 1.0f);
    const uint32_t* perm = core::wifi_signal_permutation();
    for (int trial = 0; trial < 2000; trial++) {
        cfloat pts[48];
        float w[48], llr[48], deint[48];
        for (int k = 0; k < 48; k++) {
            pts[k] = trial % 10 == 0 && k % 3 == 0
                         ? cfloat(0, 0)
                         : cfloat((rng() & 1 ? 1.0f : -1.0f) + g(rng), g(rng));
            w[k] = 0.1f + 20.0f * float(rng() % 1000) / 1000.0f;
            core::demap_point(pts[k].real(), pts[k].imag(), core::modulation::bpsk, w[k], false,
                              &llr[k]);
        }
        for (int k = 0; k < 48; k++)
            deint[k] = llr[perm[k]];
        const auto ref = core::viterbi_decode_reference(deint, 24, 0133, 0171, true);
        uint32_t ref_bits = 0;
        for (int i = 0; i < 24; i++)
            ref_bits |= uint32_t(ref[size_t(i)]) << i;
        const uint32_t bits = core::wifi_rx_detail::decode_signal_bits(
            reinterpret_cast<const core::wifi_rx_detail::cpx*>(pts), w, perm);
        ASSERT_EQ(bits, ref_bits) << "trial " << trial;
        const auto f = core::wifi_decode_signal(pts, w);
        const auto fb = core::wifi_signal_from_bits(ref_bits);
        EXPECT_EQ(f.ok, fb.ok);
        EXPECT_EQ(f.rate_mbps, fb.rate_mbps);
        EXPECT_EQ(f.len, fb.len);
    }
}

TEST(wifi_rx, annex_g_packet_received_exactly)
{
    GPUOFDM_LOAD_OCTETS(psdu, annex, "G1.txt");
    std::vector<cfloat> g24;
    const std::string path = test::vector_path(annex, "G24.txt");
    if (!test::read_complex_lines(path, g24))
        GTEST_SKIP() << "test vector absent: " << path
                     << " (set GPUOFDM_TESTVECTORS to the testvectors folder)";
    // G.24 scaled to about unit power, with zeros around it.
    std::vector<cfloat> x(500, cfloat(0, 0));
    for (const auto& v : g24)
        x.push_back(v * 8.875f);
    x.resize(x.size() + 500);
    for (int pass = 0; pass < 2; pass++) {
        auto rx = core::make_wifi_receiver(core::wifi_rx_params{}, cpu);
        core::wifi_rx_known k;
        k.ltf_start = 500 + 192;
        const auto got = pass == 0 ? rx->decode_buffer(x.data(), x.size())
                                   : rx->decode_buffer(x.data(), x.size(), &k, 1);
        ASSERT_EQ(got.size(), 1u) << "pass " << pass;
        EXPECT_EQ(got[0].ltf_start, 500u + 192u);
        EXPECT_TRUE(got[0].signal.ok);
        EXPECT_EQ(got[0].signal.rate_mbps, 36);
        EXPECT_EQ(got[0].signal.len, 100u);
        EXPECT_EQ(got[0].data.seed, 93u);
        // The PSDU bits exactly (Annex G's printed FCS is known to be wrong, so the FCS
        // flag is not asserted).
        EXPECT_EQ(got[0].data.psdu, psdu) << "pass " << pass;
    }
}

TEST(wifi_rx, every_rate_awgn_cfo_multipath)
{
    std::mt19937 rng(7);
    auto frames = random_frames(16, 200, rng);
    auto x = make_stream(frames, 300, 1000);
    // 3 taps, CFO 100 kHz at 20 Msps, 30 dB SNR: every rate decodes.
    apply_channel(x, { cfloat(0.9f, 0.1f), cfloat(0.3f, -0.2f), cfloat(0.1f, 0.05f) },
                  two_pi * 100e3 / 20e6, 1e-3f, 11);
    auto rx = core::make_wifi_receiver(core::wifi_rx_params{}, cpu);
    size_t false_ok = 0;
    const auto got = rx->decode_buffer(x.data(), x.size());
    EXPECT_EQ(count_received(frames, got, &false_ok), frames.size());
    EXPECT_EQ(false_ok, 0u);
    for (const auto& p : got) {
        EXPECT_NEAR(p.cfo, two_pi * 100e3 / 20e6, 2e-4);
        EXPECT_GT(p.snr_db, 20.0f);
    }
}

TEST(wifi_rx, negative_cfo_and_low_rate_at_low_snr)
{
    std::mt19937 rng(8);
    std::vector<sent> frames;
    for (int i = 0; i < 8; i++)
        frames.push_back({ random_psdu(100, rng), 6, 0 });
    auto x = make_stream(frames, 200, 700);
    // 6 Mb/s needs about 5 dB; at 10 dB SNR with -100 kHz every frame comes through.
    apply_channel(x, { cfloat(1, 0) }, -two_pi * 100e3 / 20e6, 0.1f, 12);
    auto rx = core::make_wifi_receiver(core::wifi_rx_params{}, cpu);
    EXPECT_EQ(count_received(frames, rx->decode_buffer(x.data(), x.size())), frames.size());
}

TEST(wifi_rx, stream_in_pieces_loses_no_frame_at_batch_edges)
{
    std::mt19937 rng(9);
    // 400 frames of 300 octets at mixed rates: about 1.1 M samples, so many batch edges
    // at the smallest batch (131072 samples).
    auto frames = random_frames(400, 300, rng);
    auto x = make_stream(frames, 37, 100);
    apply_channel(x, { cfloat(1, 0) }, two_pi * 30e3 / 20e6, 1e-3f, 13);
    core::wifi_rx_params p;
    p.batch_samples = size_t(1) << 17;
    auto rx = core::make_wifi_receiver(p, cpu);
    std::vector<core::wifi_rx_packet> got;
    size_t at = 0;
    std::mt19937 cut(3);
    while (at < x.size()) {
        const size_t n = std::min<size_t>(x.size() - at, 1 + cut() % 20000);
        auto g = rx->process(x.data() + at, n);
        got.insert(got.end(), g.begin(), g.end());
        at += n;
    }
    auto g = rx->finish();
    got.insert(got.end(), g.begin(), g.end());
    size_t false_ok = 0;
    EXPECT_EQ(count_received(frames, got, &false_ok), frames.size());
    EXPECT_EQ(false_ok, 0u);
    EXPECT_EQ(rx->stats().fcs_ok, frames.size());
    EXPECT_EQ(rx->stats().truncated, 0u);
}

TEST(wifi_rx, bad_input_gives_no_false_frame)
{
    std::mt19937 rng(10);
    auto rx = core::make_wifi_receiver(core::wifi_rx_params{}, cpu);
    // Noise only.
    std::vector<cfloat> noise(200000);
    std::normal_distribution<float> g(0.0f, 1.0f);
    for (auto& v : noise)
        v = cfloat(g(rng), g(rng));
    auto got = rx->decode_buffer(noise.data(), noise.size());
    for (const auto& p : got)
        EXPECT_FALSE(p.data.fcs_ok);
    // NaNs and infinities inside a stream with frames: the frames away from them decode.
    auto frames = random_frames(6, 100, rng);
    auto x = make_stream(frames, 3000, 1000);
    for (size_t i = 0; i < 500; i++)
        x[200 + i] = cfloat(NAN, INFINITY);
    for (auto& v : x)
        v += cfloat(1e-3f * g(rng), 1e-3f * g(rng));
    got = rx->process(x.data(), x.size());
    auto tail = rx->finish();
    got.insert(got.end(), tail.begin(), tail.end());
    size_t false_ok = 0;
    EXPECT_EQ(count_received(frames, got, &false_ok), frames.size());
    EXPECT_EQ(false_ok, 0u);
    // A truncated last frame: counted, not passed on as good.
    auto rx2 = core::make_wifi_receiver(core::wifi_rx_params{}, cpu);
    auto cut = x;
    cut.resize(frames.back().start + 600); // SIGNAL held, DATA cut
    got = rx2->process(cut.data(), cut.size());
    tail = rx2->finish();
    got.insert(got.end(), tail.begin(), tail.end());
    EXPECT_EQ(count_received(frames, got, &false_ok), frames.size() - 1);
    EXPECT_EQ(false_ok, 0u);
    EXPECT_EQ(rx2->stats().truncated, 1u);
}

TEST(wifi_rx, bad_parameters_throw_naming_them)
{
    core::wifi_rx_params p;
    p.fft_backoff = 9;
    expect_invalid([&] { core::make_wifi_receiver(p, cpu); }, "fft_backoff");
    p = {};
    p.batch_samples = 1000;
    expect_invalid([&] { core::make_wifi_receiver(p, cpu); }, "batch_samples");
    auto rx = core::make_wifi_receiver(core::wifi_rx_params{}, cpu);
    expect_invalid([&] { rx->process(nullptr, 5); }, "x:");
}

TEST(wifi_rx, cuda_equals_cpu_twin)
{
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec dev = core::resolve_device("cuda");
    std::mt19937 rng(12);
    auto frames = random_frames(64, 400, rng);
    auto x = make_stream(frames, 50, 300);
    apply_channel(x, { cfloat(0.9f, 0.1f), cfloat(0.3f, -0.2f), cfloat(0.1f, 0.05f) },
                  two_pi * 60e3 / 20e6, 3e-3f, 21);
    // Non-finite values in gaps between frames: both backends must read them as 0 alike
    // (a NaN real part leaves the imaginary part as it is).
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (size_t f = 1; f < frames.size(); f += 7) {
        x[frames[f].start - 20] = cfloat(nan, 0.5f);
        x[frames[f].start - 19] = cfloat(-0.25f, inf);
        x[frames[f].start - 18] = cfloat(-inf, nan);
    }
    core::wifi_rx_params p;
    p.batch_samples = size_t(1) << 17;
    auto run = [&](const core::device_spec& d, bool pin) {
        auto rx = core::make_wifi_receiver(p, d);
        // Page-locked, the samples go straight to the device (as from a block's buffer).
        if (pin) {
            EXPECT_TRUE(rx->pin_host_range(x.data(), x.size() * sizeof(cfloat)));
        }
        std::vector<core::wifi_rx_packet> got;
        for (size_t at = 0; at < x.size(); at += 50000) {
            auto g = rx->process(x.data() + at, std::min<size_t>(50000, x.size() - at));
            got.insert(got.end(), g.begin(), g.end());
        }
        auto g = rx->finish();
        got.insert(got.end(), g.begin(), g.end());
        rx->unpin_host_ranges();
        return got;
    };
    const auto a = run(cpu, false);
    for (bool pin : { false, true }) {
        const auto b = run(dev, pin);
        ASSERT_EQ(a.size(), b.size()) << "pinned " << pin;
        for (size_t i = 0; i < a.size(); i++) {
            EXPECT_EQ(a[i].ltf_start, b[i].ltf_start);
            EXPECT_NEAR(a[i].cfo, b[i].cfo, 1e-4);
            EXPECT_NEAR(a[i].snr_db, b[i].snr_db, 0.05);
            EXPECT_EQ(a[i].signal.ok, b[i].signal.ok);
            EXPECT_EQ(a[i].data.psdu, b[i].data.psdu);
            EXPECT_EQ(a[i].data.fcs_ok, b[i].data.fcs_ok);
        }
        EXPECT_EQ(count_received(frames, b), frames.size()) << "pinned " << pin;
    }
}

// Frames at given places, one with its channel given: the CUDA front end keeps every
// estimate on the device and equalizes the frames taken through their estimate slots. An
// extra place inside the first frame is estimated but not taken (the search resumes after
// the first frame), so the taken frames' slots skip one: each frame must still be
// equalized with its own channel, as on the CPU twin.
TEST(wifi_rx, cuda_known_places_and_channel_equal_cpu_twin)
{
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec dev = core::resolve_device("cuda");
    std::mt19937 rng(31);
    std::vector<sent> frames = { { random_psdu(300, rng), 54, 0 },
                                 { random_psdu(200, rng), 6, 0 },
                                 { random_psdu(250, rng), 24, 0 },
                                 { random_psdu(120, rng), 12, 0 } };
    auto x = make_stream(frames, 400, 500);
    // No multipath and no CFO: with the FFT window at the end of the prefix (backoff 0),
    // the channel is flat, real and positive, so 1 on every bin decodes BPSK (frame 1).
    apply_channel(x, { cfloat(1.0f, 0.0f) }, 0.0, 1e-3f, 32);
    const std::vector<cfloat> flat(64, cfloat(1.0f, 0.0f));
    std::vector<core::wifi_rx_known> known(frames.size() + 1);
    for (size_t i = 0, k = 0; i < frames.size(); i++, k++) {
        known[k].ltf_start = frames[i].start + 192;
        if (i == 0) // inside frame 0's DATA field
            known[++k].ltf_start = frames[0].start + 192 + 600;
    }
    known[2].channel = flat.data(); // frame 1
    known[2].noise_var = 1e-2f;
    core::wifi_rx_params p;
    p.fft_backoff = 0;
    p.batch_samples = size_t(1) << 17;
    ASSERT_LE(x.size(), p.batch_samples);
    const auto a = core::make_wifi_receiver(p, cpu)->decode_buffer(x.data(), x.size(), known.data(),
                                                                   known.size());
    const auto b = core::make_wifi_receiver(p, dev)->decode_buffer(x.data(), x.size(), known.data(),
                                                                   known.size());
    EXPECT_EQ(count_received(frames, a), frames.size());
    EXPECT_EQ(count_received(frames, b), frames.size());
    ASSERT_EQ(a.size(), frames.size()); // the place inside frame 0 is not taken
    ASSERT_EQ(b.size(), a.size());
    for (size_t i = 0; i < a.size(); i++) {
        EXPECT_EQ(a[i].ltf_start, b[i].ltf_start);
        EXPECT_NEAR(a[i].snr_db, b[i].snr_db, 0.05) << i;
        EXPECT_EQ(a[i].signal.rate_mbps, b[i].signal.rate_mbps) << i;
        EXPECT_EQ(a[i].data.psdu, b[i].data.psdu) << i;
        EXPECT_EQ(a[i].data.fcs_ok, b[i].data.fcs_ok) << i;
    }
}

namespace {

//! 10,000 short frames at every rate, back to back (gaps of 0 to 60 samples), through
//! a 3-tap channel with CFO at 30 dB, fed in random pieces with the smallest batch:
//! about 80 batch edges. Every frame must come back once.
void ten_thousand_frames(const core::device_spec& dev, bool pin = false)
{
    std::mt19937 rng(10000);
    std::vector<sent> frames;
    const auto& rates = core::wifi_rates();
    for (size_t i = 0; i < 10000; i++)
        frames.push_back(
            { random_psdu(24 + rng() % 40, rng), rates[rng() % rates.size()].mbps, 0 });
    core::wifi_tx_params tp;
    tp.scale = float(64.0 / std::sqrt(52.0));
    tp.max_frames_per_batch = 1024;
    auto tx = core::make_wifi_tx(tp, cpu);
    std::vector<core::wifi_frame_request> req;
    for (auto& f : frames)
        req.push_back({ f.psdu.data(), f.psdu.size(), f.rate, 1 + int(f.psdu[0] % 127) });
    // Frames one after the other, each followed by its own gap.
    std::vector<cfloat> x(300, cfloat(0, 0));
    for (size_t i = 0; i < frames.size(); i++) {
        frames[i].start = x.size();
        const size_t n = tx->frame_samples(req[i].len, req[i].rate_mbps);
        x.resize(x.size() + n + rng() % 61, cfloat(0, 0));
        tx->process(&req[i], 1, x.data() + frames[i].start);
    }
    x.resize(x.size() + 300, cfloat(0, 0));
    apply_channel(x, { cfloat(0.9f, 0.1f), cfloat(0.3f, -0.2f), cfloat(0.1f, 0.05f) },
                  two_pi * 70e3 / 20e6, 1e-3f, 14);
    core::wifi_rx_params p;
    p.batch_samples = size_t(1) << 17;
    auto rx = core::make_wifi_receiver(p, dev);
    if (pin) {
        ASSERT_TRUE(rx->pin_host_range(x.data(), x.size() * sizeof(cfloat)));
    }
    std::vector<core::wifi_rx_packet> got;
    std::mt19937 cut(5);
    for (size_t at = 0; at < x.size();) {
        const size_t n = std::min<size_t>(x.size() - at, 1 + cut() % 70000);
        auto g = rx->process(x.data() + at, n);
        got.insert(got.end(), std::make_move_iterator(g.begin()), std::make_move_iterator(g.end()));
        at += n;
    }
    auto g = rx->finish();
    got.insert(got.end(), g.begin(), g.end());
    size_t false_ok = 0;
    EXPECT_EQ(count_received(frames, got, &false_ok), frames.size()) << dev.to_string();
    EXPECT_EQ(false_ok, 0u);
    EXPECT_EQ(rx->stats().fcs_ok, frames.size());
    EXPECT_EQ(rx->stats().truncated, 0u);
    EXPECT_GT(x.size(), 60 * p.batch_samples); // many batch edges
}

} // namespace

TEST(wifi_rx, stream_of_10000_frames_loses_none) { ten_thousand_frames(cpu); }

TEST(wifi_rx, cuda_stream_of_10000_frames_loses_none)
{
    GPUOFDM_REQUIRE_GPU();
    ten_thousand_frames(core::resolve_device("cuda"));
    ten_thousand_frames(core::resolve_device("cuda"), true); // straight from page-locked memory
}

TEST(wifi_rx, pilot_interpolation_follows_a_sampling_clock_offset)
{
    // 1500-octet frames at 36 Mb/s (84 DATA symbols), a 100 ppm clock offset: the FFT
    // window drifts about 0.7 samples over a frame, a phase slope of about 1.7 rad across
    // the band by its end that one common phase cannot follow; the interpolated pilots do.
    std::mt19937 rng(36);
    std::vector<sent> frames;
    for (int i = 0; i < 6; i++)
        frames.push_back({ random_psdu(1500, rng), 36, 0 });
    const auto clean = make_stream(frames, 400, 600);
    auto x = resample(clean, 100.0);
    move_starts_with_clock(frames, 100.0);
    apply_channel(x, { cfloat(1, 0) }, two_pi * 20e3 / 20e6, 1e-4f, 15);
    core::wifi_rx_params p;
    p.pilot_interpolation = true;
    auto interp = core::make_wifi_receiver(p, cpu);
    size_t false_ok = 0;
    EXPECT_EQ(count_received(frames, interp->decode_buffer(x.data(), x.size()), &false_ok),
              frames.size());
    EXPECT_EQ(false_ok, 0u);
    auto common = core::make_wifi_receiver(core::wifi_rx_params{}, cpu);
    EXPECT_LT(count_received(frames, common->decode_buffer(x.data(), x.size())), frames.size())
        << "the common phase alone should not follow this clock offset";
}

TEST(wifi_rx, cuda_pilot_interpolation_equals_cpu_twin)
{
    GPUOFDM_REQUIRE_GPU();
    std::mt19937 rng(37);
    std::vector<sent> frames;
    for (int i = 0; i < 12; i++)
        frames.push_back({ random_psdu(800, rng), core::wifi_rates()[size_t(i) % 8].mbps, 0 });
    auto x = resample(make_stream(frames, 300, 500), 60.0);
    apply_channel(x, { cfloat(0.9f, 0.1f), cfloat(0.3f, -0.2f) }, two_pi * 40e3 / 20e6, 1e-3f, 16);
    core::wifi_rx_params p;
    p.pilot_interpolation = true;
    const auto a = core::make_wifi_receiver(p, cpu)->decode_buffer(x.data(), x.size());
    const auto b = core::make_wifi_receiver(p, core::resolve_device("cuda"))
                       ->decode_buffer(x.data(), x.size());
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); i++) {
        EXPECT_EQ(a[i].ltf_start, b[i].ltf_start);
        EXPECT_EQ(a[i].data.psdu, b[i].data.psdu);
        EXPECT_EQ(a[i].data.fcs_ok, b[i].data.fcs_ok);
    }
    size_t ok = 0;
    for (const auto& r : b)
        ok += r.data.fcs_ok;
    EXPECT_EQ(ok, frames.size());
}
