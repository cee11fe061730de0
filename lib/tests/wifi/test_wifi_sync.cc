/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.11a synchronizer against frames made by the core transmitter: every frame found
// once at its true long training start with its CFO, in AWGN (10 .. 30 dB), with a CFO of
// up to +-100 kHz and through a 3-tap channel; a stream cut into buffers with lookback()
// kept loses nothing; search_from; noise, zeros, NaN and Inf give nothing; bad parameters
// throw naming themselves; CUDA equals the CPU twin (also with small batches whose piece
// edges fall everywhere around the frames).

#include "test_util.h"
#include "tx_test_vectors.h"
#include "wifi/wifi_sync.h"
#include "wifi/wifi_tx.h"

#include <cmath>
#include <limits>
#include <random>

using namespace gr::gpuofdm;
using core::cfloat;

namespace {

const core::device_spec cpu{};

//! A test signal: the samples and the true T1 start of every frame.
struct sync_signal {
    std::vector<cfloat> x;
    std::vector<size_t> t1;
};

struct channel {
    double snr_db = 20;     //!< frame power 1 against the noise
    float cfo = 0.0f;       //!< radians per sample
    bool multipath = false; //!< 3 taps: 1, 0.5 j, -0.3 (normalized)
    size_t min_gap = 200;   //!< noise samples before each frame, min_gap .. max_gap
    size_t max_gap = 1500;
};

/*!
 * n_frames random frames (PSDU 1 .. 300 octets, random rate and seed) at unit power,
 * separated by gaps of noise, a CFO, the channel, AWGN.
 */
sync_signal make_signal(size_t n_frames, const channel& ch, uint32_t seed)
{
    std::mt19937 rng(seed);
    core::wifi_tx_params tp;
    tp.scale = 64.0f / std::sqrt(52.0f);
    auto tx = core::make_wifi_tx(tp, cpu);
    const auto& rates = core::wifi_rates();
    sync_signal s;
    for (size_t f = 0; f < n_frames; f++) {
        s.x.resize(s.x.size() + ch.min_gap + rng() % (ch.max_gap - ch.min_gap + 1));
        std::vector<uint8_t> psdu(1 + rng() % 300);
        for (auto& b : psdu)
            b = uint8_t(rng());
        core::wifi_frame_request r;
        r.psdu = psdu.data();
        r.len = psdu.size();
        r.rate_mbps = rates[rng() % rates.size()].mbps;
        r.seed = 1 + int(rng() % 127);
        const size_t at = s.x.size();
        s.x.resize(at + tx->frame_samples(r.len, r.rate_mbps));
        tx->process(&r, 1, s.x.data() + at);
        s.t1.push_back(at + 192);
    }
    s.x.resize(s.x.size() + ch.min_gap + 600);
    if (ch.multipath) {
        const cfloat h[3] = { 1.0f, cfloat(0.0f, 0.5f), -0.3f };
        const float g = 1.0f / std::sqrt(1.0f + 0.25f + 0.09f);
        std::vector<cfloat> y(s.x.size());
        for (size_t i = 0; i < y.size(); i++)
            for (size_t k = 0; k < 3 && k <= i; k++)
                y[i] += g * h[k] * s.x[i - k];
        s.x = y;
    }
    for (size_t i = 0; i < s.x.size(); i++)
        s.x[i] *= cfloat(std::polar(1.0, double(ch.cfo) * double(i)));
    const float sigma = float(std::sqrt(std::pow(10.0, -ch.snr_db / 10.0) / 2.0));
    std::normal_distribution<float> g(0.0f, sigma);
    for (auto& v : s.x)
        v += cfloat(g(rng), g(rng));
    return s;
}

//! Every true frame found exactly once, ltf_start within [t1 - early, t1 + late], CFO
//! within cfo_tol, and nothing else.
::testing::AssertionResult frames_found(const std::vector<core::wifi_sync_result>& got,
                                        const std::vector<size_t>& t1,
                                        long early,
                                        long late,
                                        float cfo,
                                        float cfo_tol)
{
    if (got.size() != t1.size()) {
        auto r = ::testing::AssertionFailure()
                 << "found " << got.size() << " frames, sent " << t1.size() << "; found at";
        for (const auto& f : got)
            r << " " << f.ltf_start;
        r << "; sent at";
        for (size_t t : t1)
            r << " " << t;
        return r;
    }
    for (size_t i = 0; i < t1.size(); i++) {
        const long d = long(got[i].ltf_start) - long(t1[i]);
        if (d < -early || d > late)
            return ::testing::AssertionFailure()
                   << "frame " << i << ": ltf_start " << got[i].ltf_start << ", true " << t1[i];
        if (!(std::abs(got[i].cfo - cfo) <= cfo_tol))
            return ::testing::AssertionFailure()
                   << "frame " << i << ": cfo " << got[i].cfo << ", true " << cfo;
        if (!(got[i].metric > 0.56f) || !(got[i].ltf_metric > 0.0f && got[i].ltf_metric <= 1.0f))
            return ::testing::AssertionFailure() << "frame " << i << ": metric " << got[i].metric
                                                 << ", ltf_metric " << got[i].ltf_metric;
    }
    return ::testing::AssertionSuccess();
}

std::vector<core::wifi_sync_result> run(const core::device_spec& dev,
                                        const sync_signal& s,
                                        core::wifi_sync_params p = {},
                                        size_t from = 0)
{
    return core::make_wifi_sync(p, dev)->detect(s.x.data(), s.x.size(), from);
}

} // namespace

TEST(wifi_sync, long_training_time_matches_transmitter)
{
    const auto l = core::wifi_long_training_time();
    ASSERT_EQ(l.size(), 64u);
    auto tx = core::make_wifi_tx(core::wifi_tx_params{}, cpu);
    uint8_t psdu[10] = {};
    core::wifi_frame_request r;
    r.psdu = psdu;
    r.len = sizeof psdu;
    std::vector<cfloat> x(tx->frame_samples(r.len, r.rate_mbps));
    tx->process(&r, 1, x.data());
    double e = 0;
    for (size_t k = 0; k < 64; k++) {
        EXPECT_NEAR(std::abs(x[192 + k] - l[k]), 0.0, 1e-6) << "T1 sample " << k;
        EXPECT_NEAR(std::abs(x[256 + k] - l[k]), 0.0, 1e-6) << "T2 sample " << k;
        if (k > 0 && k < 32) { // GI2 (its first sample is windowed)
            EXPECT_NEAR(std::abs(x[160 + k] - l[32 + k]), 0.0, 1e-6) << "GI2 sample " << k;
        }
        e += std::norm(l[k]);
    }
    EXPECT_NEAR(e, 52.0 / 64.0, 1e-5); // 52 unit carriers, 1/64 scaling
}

TEST(wifi_sync, high_snr_exact_timing_every_cfo)
{
    for (float cfo : { 0.0f, 0.0314f, -0.0314f, 0.012f }) {
        channel ch;
        ch.snr_db = 30;
        ch.cfo = cfo;
        const sync_signal s = make_signal(12, ch, 11);
        EXPECT_TRUE(frames_found(run(cpu, s), s.t1, 0, 0, cfo, 3e-4f)) << "cfo " << cfo;
    }
}

TEST(wifi_sync, level_independent)
{
    // Scaling by a power of two scales every intermediate exactly: the same frames, the
    // same floats, from 2^-16 (power 2^-32, above min_power) to 2^40 (sums near 2^88).
    channel ch;
    ch.snr_db = 15;
    ch.cfo = -0.02f;
    const sync_signal s = make_signal(8, ch, 23);
    const auto ref = run(cpu, s);
    ASSERT_TRUE(frames_found(ref, s.t1, 1, 1, ch.cfo, 2e-3f));
    for (float scale : { 0x1p-16f, 0x1p40f }) {
        sync_signal t = s;
        for (auto& v : t.x)
            v *= scale;
        const auto got = run(cpu, t);
        ASSERT_EQ(got.size(), ref.size()) << "scale " << scale;
        for (size_t i = 0; i < got.size(); i++) {
            EXPECT_EQ(got[i].ltf_start, ref[i].ltf_start) << "scale " << scale;
            EXPECT_EQ(got[i].cfo, ref[i].cfo) << "scale " << scale;
            EXPECT_EQ(got[i].metric, ref[i].metric) << "scale " << scale;
        }
    }
}

TEST(wifi_sync, awgn_20db_and_10db)
{
    {
        channel ch;
        ch.snr_db = 20;
        ch.cfo = 0.025f;
        const sync_signal s = make_signal(30, ch, 12);
        EXPECT_TRUE(frames_found(run(cpu, s), s.t1, 1, 1, ch.cfo, 1e-3f));
    }
    {
        channel ch;
        ch.snr_db = 10;
        ch.cfo = -0.03f;
        const sync_signal s = make_signal(30, ch, 13);
        EXPECT_TRUE(frames_found(run(cpu, s), s.t1, 2, 2, ch.cfo, 3e-3f));
    }
}

TEST(wifi_sync, multipath_three_taps)
{
    channel ch;
    ch.snr_db = 20;
    ch.cfo = 0.02f;
    ch.multipath = true;
    const sync_signal s = make_signal(30, ch, 14);
    EXPECT_TRUE(frames_found(run(cpu, s), s.t1, 1, 3, ch.cfo, 2e-3f));
}

namespace {

//! The channels of the CUDA comparison (checked against the truth on the CPU below).
channel comparison_channel(int snr, bool multipath)
{
    channel ch;
    ch.snr_db = snr;
    ch.cfo = multipath ? -0.0314f : 0.0314f;
    ch.multipath = multipath;
    return ch;
}

} // namespace

TEST(wifi_sync, extreme_cfo_low_snr_multipath)
{
    for (int snr : { 30, 10 })
        for (bool mp : { false, true }) {
            const channel ch = comparison_channel(snr, mp);
            const sync_signal s = make_signal(40, ch, 30 + snr + mp);
            EXPECT_TRUE(frames_found(run(cpu, s), s.t1, 2, 3, ch.cfo, 3e-3f))
                << "snr " << snr << " multipath " << mp;
        }
}

namespace {

//! Frames close together (gaps 1 .. 700 samples) for the CUDA piece-edge test.
channel dense_channel()
{
    channel ch;
    ch.snr_db = 20;
    ch.cfo = 0.015f;
    ch.min_gap = 1;
    ch.max_gap = 700;
    return ch;
}

} // namespace

TEST(wifi_sync, dense_frames)
{
    const channel ch = dense_channel();
    const sync_signal s = make_signal(60, ch, 40);
    EXPECT_TRUE(frames_found(run(cpu, s), s.t1, 1, 1, ch.cfo, 1e-3f));
}

TEST(wifi_sync, every_min_plateau_finds_the_frames)
{
    channel ch;
    ch.snr_db = 15;
    ch.cfo = -0.02f;
    const sync_signal s = make_signal(10, ch, 15);
    for (size_t L : { 16, 32, 64, 96 }) {
        core::wifi_sync_params p;
        p.min_plateau = L;
        EXPECT_TRUE(frames_found(run(cpu, s, p), s.t1, 1, 1, ch.cfo, 2e-3f)) << "min_plateau " << L;
    }
}

TEST(wifi_sync, back_to_back_frames)
{
    channel ch;
    ch.snr_db = 25;
    ch.min_gap = 1;
    ch.max_gap = 40;
    const sync_signal s = make_signal(20, ch, 16);
    EXPECT_TRUE(frames_found(run(cpu, s), s.t1, 0, 1, 0.0f, 1e-3f));
}

TEST(wifi_sync, search_from)
{
    channel ch;
    ch.snr_db = 25;
    const sync_signal s = make_signal(6, ch, 17);
    const auto all = run(cpu, s);
    ASSERT_TRUE(frames_found(all, s.t1, 0, 1, 0.0f, 1e-3f));
    for (size_t k = 0; k < all.size(); k++) {
        for (size_t from : { all[k].ltf_start, all[k].ltf_start + 1 }) {
            const auto got = run(cpu, s, {}, from);
            const size_t first = from == all[k].ltf_start ? k : k + 1;
            ASSERT_EQ(got.size(), all.size() - first) << "from " << from;
            for (size_t i = 0; i < got.size(); i++)
                EXPECT_EQ(got[i].ltf_start, all[first + i].ltf_start);
        }
    }
}

TEST(wifi_sync, stream_with_lookback_loses_nothing)
{
    // Buffers of random length; the receiver keeps the last lookback() samples and asks for
    // frames after the last one it has. min_plateau 96 detects latest, so it needs the
    // longest tail.
    channel ch;
    ch.snr_db = 10;
    ch.cfo = 0.01f;
    ch.min_gap = 50;
    ch.max_gap = 900;
    const sync_signal s = make_signal(60, ch, 18);
    for (size_t L : { 16, 32, 96 }) {
        core::wifi_sync_params p;
        p.min_plateau = L;
        auto sync = core::make_wifi_sync(p, cpu);
        std::mt19937 rng(19);
        std::vector<core::wifi_sync_result> found;
        size_t pos = 0, end = 0, from_abs = 0;
        while (end < s.x.size()) {
            end = std::min(s.x.size(), end + 100 + rng() % 2500);
            const size_t from = from_abs > pos ? from_abs - pos : 0;
            for (auto f : sync->detect(s.x.data() + pos, end - pos, from)) {
                f.ltf_start += pos;
                found.push_back(f);
                from_abs = f.ltf_start + 1;
            }
            if (end - pos > core::wifi_sync::lookback())
                pos = end - core::wifi_sync::lookback();
        }
        EXPECT_TRUE(frames_found(found, s.t1, 2, 2, ch.cfo, 3e-3f)) << "min_plateau " << L;
    }
}

TEST(wifi_sync, lookback_is_enough)
{
    // The lookback() contract: a frame that starts lookback() samples before the end of the
    // buffer is found in it (so one starting later is whole in the next buffer).
    channel ch;
    ch.snr_db = 5;
    ch.min_gap = 300;
    const sync_signal s = make_signal(20, ch, 22);
    for (size_t L : { 16, 32, 64, 96 }) {
        core::wifi_sync_params p;
        p.min_plateau = L;
        auto sync = core::make_wifi_sync(p, cpu);
        for (size_t t : s.t1) {
            const size_t start = t - 192;
            const auto got = sync->detect(s.x.data(), start + core::wifi_sync::lookback());
            EXPECT_TRUE(!got.empty() && got.back().ltf_start + 2 >= t &&
                        got.back().ltf_start <= t + 2)
                << "min_plateau " << L << ", frame at " << start;
        }
    }
}

TEST(wifi_sync, noise_zeros_nan_inf_give_nothing)
{
    auto sync = core::make_wifi_sync({}, cpu);
    const auto noise = test::random_complex(200000, 20);
    EXPECT_TRUE(sync->detect(noise.data(), noise.size()).empty());
    for (float scale : { 1e-15f, 1e-3f, 1e15f }) {
        auto scaled = noise;
        for (auto& v : scaled)
            v *= scale;
        EXPECT_TRUE(sync->detect(scaled.data(), scaled.size()).empty()) << "scale " << scale;
    }
    const std::vector<cfloat> zeros(50000);
    EXPECT_TRUE(sync->detect(zeros.data(), zeros.size()).empty());
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<cfloat> nans(50000, cfloat(nan, nan));
    EXPECT_TRUE(sync->detect(nans.data(), nans.size()).empty());
    const std::vector<cfloat> infs(50000, cfloat(inf, -inf));
    EXPECT_TRUE(sync->detect(infs.data(), infs.size()).empty());
    auto mixed = noise;
    for (size_t i = 0; i < mixed.size(); i += 97)
        mixed[i] = (i / 97) % 3 == 0   ? cfloat(nan, 0.0f)
                   : (i / 97) % 3 == 1 ? cfloat(inf, 1.0f)
                                       : cfloat(1.0f, -inf);
    EXPECT_TRUE(sync->detect(mixed.data(), mixed.size()).empty());
    EXPECT_TRUE(sync->detect(nullptr, 0).empty());
    EXPECT_TRUE(sync->detect(noise.data(), 100).empty());
    EXPECT_TRUE(sync->detect(noise.data(), core::wifi_sync::lookback()).empty());
}

TEST(wifi_sync, frames_survive_nan_elsewhere)
{
    channel ch;
    ch.snr_db = 20;
    sync_signal s = make_signal(8, ch, 21);
    // NaN and Inf bursts in the gaps (300 .. 150 samples before each preamble's T1 - 192).
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (size_t t : s.t1)
        for (size_t i = t - 192 - 190; i < t - 192 - 160; i++)
            s.x[i] = i % 2 ? cfloat(nan, nan) : cfloat(std::numeric_limits<float>::infinity(), 0);
    EXPECT_TRUE(frames_found(run(cpu, s), s.t1, 1, 1, 0.0f, 1e-3f));
}

TEST(wifi_sync, bad_parameters_throw_naming_them)
{
    auto with = [](auto change) {
        return [change] {
            core::wifi_sync_params p;
            change(p);
            core::make_wifi_sync(p, cpu);
        };
    };
    EXPECT_TRUE(test::throws_invalid(with([](auto& p) { p.threshold = 0.0f; }), "threshold"));
    EXPECT_TRUE(test::throws_invalid(with([](auto& p) { p.threshold = 1.0f; }), "threshold"));
    EXPECT_TRUE(test::throws_invalid(with([](auto& p) { p.threshold = NAN; }), "threshold"));
    EXPECT_TRUE(test::throws_invalid(with([](auto& p) { p.min_plateau = 15; }), "min_plateau"));
    EXPECT_TRUE(test::throws_invalid(with([](auto& p) { p.min_plateau = 97; }), "min_plateau"));
    EXPECT_TRUE(test::throws_invalid(with([](auto& p) { p.min_power = -1.0f; }), "min_power"));
    EXPECT_TRUE(test::throws_invalid(with([](auto& p) { p.min_power = INFINITY; }), "min_power"));
    EXPECT_TRUE(test::throws_invalid(with([](auto& p) { p.max_samples_per_batch = 4095; }),
                                     "max_samples_per_batch"));
    EXPECT_TRUE(
        test::throws_invalid(with([](auto& p) { p.max_samples_per_batch = (size_t(1) << 26) + 1; }),
                             "max_samples_per_batch"));
    auto sync = core::make_wifi_sync({}, cpu);
    EXPECT_TRUE(test::throws_invalid([&] { sync->detect(nullptr, 10); }, "x"));
}

#ifdef GPUOFDM_HAVE_CUDA
namespace {

::testing::AssertionResult same_frames(const std::vector<core::wifi_sync_result>& gpu,
                                       const std::vector<core::wifi_sync_result>& cpu_r)
{
    if (gpu.size() != cpu_r.size())
        return ::testing::AssertionFailure()
               << "CUDA found " << gpu.size() << ", CPU " << cpu_r.size();
    for (size_t i = 0; i < gpu.size(); i++) {
        if (gpu[i].ltf_start != cpu_r[i].ltf_start)
            return ::testing::AssertionFailure()
                   << "frame " << i << ": CUDA ltf_start " << gpu[i].ltf_start << ", CPU "
                   << cpu_r[i].ltf_start;
        if (!(std::abs(gpu[i].cfo - cpu_r[i].cfo) <= 1e-4f) ||
            !(std::abs(gpu[i].metric - cpu_r[i].metric) <= 1e-5f) ||
            !(std::abs(gpu[i].ltf_metric - cpu_r[i].ltf_metric) <= 1e-5f))
            return ::testing::AssertionFailure()
                   << "frame " << i << ": CUDA cfo " << gpu[i].cfo << " metric " << gpu[i].metric
                   << " ltf " << gpu[i].ltf_metric << ", CPU " << cpu_r[i].cfo << " "
                   << cpu_r[i].metric << " " << cpu_r[i].ltf_metric;
    }
    return ::testing::AssertionSuccess() << gpu.size() << " frames";
}

} // namespace

TEST(wifi_sync, cuda_equals_cpu)
{
    GPUOFDM_REQUIRE_GPU();
    const auto gpu = core::resolve_device("cuda");
    for (int snr : { 30, 10 }) {
        for (bool mp : { false, true }) {
            const channel ch = comparison_channel(snr, mp);
            const sync_signal s = make_signal(40, ch, 30 + snr + mp);
            const auto c = run(cpu, s);
            EXPECT_TRUE(frames_found(c, s.t1, 2, 3, ch.cfo, 3e-3f));
            EXPECT_TRUE(same_frames(run(gpu, s), c)) << "snr " << snr << " multipath " << mp;
            for (size_t L : { 16, 96 }) {
                core::wifi_sync_params p;
                p.min_plateau = L;
                EXPECT_TRUE(same_frames(run(gpu, s, p), run(cpu, s, p))) << "min_plateau " << L;
            }
        }
    }
}

TEST(wifi_sync, cuda_small_batches_piece_edges)
{
    GPUOFDM_REQUIRE_GPU();
    const auto gpu = core::resolve_device("cuda");
    const channel ch = dense_channel();
    const sync_signal s = make_signal(60, ch, 40);
    const auto c = run(cpu, s);
    ASSERT_TRUE(frames_found(c, s.t1, 1, 1, ch.cfo, 1e-3f));
    for (size_t batch : { 4096, 4097, 5000, 6151, 1 << 16 }) {
        core::wifi_sync_params p;
        p.max_samples_per_batch = batch;
        auto sync = core::make_wifi_sync(p, gpu);
        EXPECT_TRUE(same_frames(sync->detect(s.x.data(), s.x.size()), c)) << "batch " << batch;
        // The same object again, and with search_from.
        EXPECT_TRUE(same_frames(sync->detect(s.x.data(), s.x.size()), c)) << "batch " << batch;
        const auto from = sync->detect(s.x.data(), s.x.size(), c[10].ltf_start);
        EXPECT_TRUE(
            same_frames(from, std::vector<core::wifi_sync_result>(c.begin() + 10, c.end())));
    }
}

TEST(wifi_sync, cuda_noise_zeros_nan_give_nothing)
{
    GPUOFDM_REQUIRE_GPU();
    core::wifi_sync_params p;
    p.max_samples_per_batch = 1 << 16;
    auto sync = core::make_wifi_sync(p, core::resolve_device("cuda"));
    const auto noise = test::random_complex(300000, 41);
    EXPECT_TRUE(sync->detect(noise.data(), noise.size()).empty());
    const std::vector<cfloat> zeros(100000);
    EXPECT_TRUE(sync->detect(zeros.data(), zeros.size()).empty());
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<cfloat> nans(100000, cfloat(nan, 1.0f));
    EXPECT_TRUE(sync->detect(nans.data(), nans.size()).empty());
    EXPECT_TRUE(sync->detect(noise.data(), 100).empty());
    EXPECT_TRUE(sync->detect(nullptr, 0).empty());
    EXPECT_TRUE(test::throws_invalid([&] { sync->detect(nullptr, 10); }, "x"));
}
#endif
