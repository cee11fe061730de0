/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.16 long-preamble synchronizer's backends: make_wimax_sync gives the CPU twin for
// the CPU; the CUDA backend gives the CPU twin's bursts (same start, CFO within 1e-4
// rad/sample, same metrics) on streams of bursts with noise, CFO and multipath, on noise
// alone, with NaNs, on small pieces with search_from, for every cyclic prefix; its
// detect_device() on clean samples already on the device gives the same bursts (the CPU
// twin refuses it).

#include "rx_test_util.h"
#include "test_util.h"
#include "tx_test_vectors.h"
#include "wimax/wimax_rx.h"
#include "wimax/wimax_sync_common.h"
#include "wimax/wimax_tx.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#ifdef GPUOFDM_HAVE_CUDA
#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#endif

using namespace gr::gpuofdm;
using core::cfloat;

namespace {

const core::device_spec cpu{};

//! n_bursts bursts of rate 1 with random gaps (some 0), after lead zeros, through a 3-tap
//! channel with CFO and noise.
std::vector<cfloat> burst_stream(int cp_div,
                                 size_t n_bursts,
                                 double cfo,
                                 float n0,
                                 uint32_t seed,
                                 std::vector<size_t>* starts = nullptr)
{
    std::mt19937 rng(seed);
    core::wimax_tx_params tp;
    tp.cp_div = cp_div;
    tp.pad = true;
    tp.max_burst_bytes = 65535;
    tp.scale = float(256.0 / std::sqrt(200.0));
    auto tx = core::make_wimax_tx(tp, cpu);
    std::vector<cfloat> out(500 + rng() % 300);
    for (size_t i = 0; i < n_bursts; i++) {
        std::vector<uint8_t> data(10 + rng() % 150);
        for (auto& b : data)
            b = uint8_t(rng());
        core::wimax_burst_request r{ data.data(), data.size(), 1, 7 };
        const size_t at = out.size();
        if (starts)
            starts->push_back(at);
        out.resize(at + tx->burst_samples(r.len, r.rate_id));
        tx->process(&r, 1, out.data() + at);
        out.resize(out.size() + (i % 3 == 0 ? 0 : rng() % 1500));
    }
    out.resize(out.size() + 600);
    test::apply_channel(out, { { 0.9f, 0.1f }, { 0.3f, -0.2f }, { 0.1f, 0.1f } }, cfo, n0, seed);
    return out;
}

core::wimax_sync_params sync_params(int cp_div)
{
    core::wimax_sync_params p;
    p.cp_div = cp_div;
    p.hold = 0; // the preamble only: bursts follow back to back
    return p;
}

} // namespace

TEST(wimax_sync, cpu_twin_finds_every_burst)
{
    for (int cp_div : { 4, 32 }) {
        std::vector<size_t> starts;
        const auto x = burst_stream(cp_div, 6, 0.01, 1e-2f, uint32_t(cp_div), &starts);
        auto s = core::make_wimax_sync(sync_params(cp_div), cpu);
        EXPECT_EQ(s->device().kind, core::backend::cpu);
        const auto a = s->detect(x.data(), x.size());
        ASSERT_EQ(a.size(), starts.size());
        for (size_t i = 0; i < a.size(); i++) {
            EXPECT_LE(std::abs(long(a[i].start) - long(starts[i])), 4) << "burst " << i;
            EXPECT_NEAR(a[i].cfo, 0.01, 2e-3);
        }
    }
    EXPECT_TRUE(test::throws_invalid([] { core::make_wimax_sync(sync_params(5), cpu); }, "cp_div"));
}

TEST(wimax_sync, cpu_twin_refuses_device_input)
{
    auto s = core::make_wimax_sync(sync_params(4), cpu);
    std::vector<cfloat> x(4000);
    EXPECT_THROW(s->detect_device(x.data(), x.size()), std::logic_error);
}

TEST(wimax_sync, shared_cos_sin_is_libm_within_rounding)
{
    // The fine timing's phase rotation (wimax_sync_common.h), written with rounded
    // operations only so the host and the device agree bit for bit, against libm's cos and
    // sin over the phases the matched filter uses (|w t| < 250 rad) and beyond.
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    double worst = 0.0;
    for (int k = 0; k < 200000; k++) {
        const double x = u(rng) * (k % 2 ? 300.0 : 1e5);
        double c, s;
        core::wimax_sync_detail::cos_sin(x, c, s);
        worst = std::max({ worst, std::abs(c - std::cos(x)), std::abs(s - std::sin(x)) });
    }
    EXPECT_LT(worst, 1e-11);        // the reduction's error grows with |x|; 1e-15 near 0
    for (int q = -8; q <= 8; q++) { // every quadrant, at its edges
        for (double d : { -1e-9, 0.0, 1e-9, 0.7853, -0.7853 }) {
            const double x = q * 1.5707963267948966 + d;
            double c, s;
            core::wimax_sync_detail::cos_sin(x, c, s);
            EXPECT_NEAR(c, std::cos(x), 1e-15) << x;
            EXPECT_NEAR(s, std::sin(x), 1e-15) << x;
        }
    }
}

namespace {

//! \p x with a NaN, an Inf or a -Inf part in about one sample of 40 outside the
//! preambles [starts[i], starts[i] + len), and a run of 300 NaNs in the longest gap.
void dirty_gaps(std::vector<cfloat>& x,
                const std::vector<size_t>& starts,
                size_t len,
                uint32_t seed)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const cfloat bad[] = { { nan, 0.0f }, { 0.5f, inf }, { -inf, -inf }, { nan, nan } };
    std::vector<bool> in_burst(x.size(), false);
    for (size_t s : starts)
        for (size_t i = s; i < std::min(x.size(), s + len); i++)
            in_burst[i] = true;
    std::mt19937 rng(seed);
    size_t run_at = 0, run_len = 0, gap_at = 0;
    for (size_t i = 0; i <= x.size(); i++) {
        if (i < x.size() && !in_burst[i]) {
            if (rng() % 40 == 0)
                x[i] = bad[rng() % 4];
            continue;
        }
        if (i - gap_at > run_len) {
            run_at = gap_at;
            run_len = i - gap_at;
        }
        gap_at = i + 1;
    }
    for (size_t i = run_at; i < run_at + std::min<size_t>(run_len, 300); i++)
        x[i] = cfloat(nan, 1.0f);
}

//! x with every sample that has a non-finite part as 0.
std::vector<cfloat> cleaned(const std::vector<cfloat>& x)
{
    std::vector<cfloat> c(x.size());
    for (size_t i = 0; i < x.size(); i++)
        c[i] = std::isfinite(x[i].real()) && std::isfinite(x[i].imag()) ? x[i] : cfloat();
    return c;
}

} // namespace

TEST(wimax_sync, cpu_twin_reads_non_finite_samples_as_zero)
{
    for (int cp_div : { 4, 8, 16, 32 }) {
        std::vector<size_t> starts;
        auto x = burst_stream(cp_div, 9, 0.05, 1e-2f, uint32_t(cp_div * 3 + 1), &starts);
        dirty_gaps(x, starts, 2 * (256 + 256 / size_t(cp_div)), uint32_t(cp_div));
        const auto clean = cleaned(x);
        auto s = core::make_wimax_sync(sync_params(cp_div), cpu);
        const auto a = s->detect(x.data(), x.size());
        const auto b = s->detect(clean.data(), clean.size());
        EXPECT_EQ(a.size(), starts.size()) << "cp_div " << cp_div;
        ASSERT_EQ(a.size(), b.size());
        for (size_t i = 0; i < a.size(); i++) {
            EXPECT_EQ(a[i].start, b[i].start);
            EXPECT_EQ(a[i].cfo, b[i].cfo);
            EXPECT_EQ(a[i].preamble_metric, b[i].preamble_metric);
        }
    }
}

#ifdef GPUOFDM_HAVE_CUDA

namespace {

::testing::AssertionResult same_bursts(const std::vector<core::wimax_sync_result>& gpu,
                                       const std::vector<core::wimax_sync_result>& ref)
{
    if (gpu.size() != ref.size())
        return ::testing::AssertionFailure()
               << "CUDA found " << gpu.size() << ", CPU " << ref.size();
    for (size_t i = 0; i < gpu.size(); i++) {
        if (gpu[i].start != ref[i].start)
            return ::testing::AssertionFailure()
                   << "burst " << i << ": CUDA start " << gpu[i].start << ", CPU " << ref[i].start;
        if (!(std::abs(gpu[i].cfo - ref[i].cfo) <= 1e-4f) ||
            !(std::abs(gpu[i].metric - ref[i].metric) <= 1e-5f) ||
            !(std::abs(gpu[i].preamble_metric - ref[i].preamble_metric) <= 1e-5f))
            return ::testing::AssertionFailure()
                   << "burst " << i << ": CUDA cfo " << gpu[i].cfo << " metric " << gpu[i].metric
                   << ", CPU " << ref[i].cfo << " " << ref[i].metric;
    }
    return ::testing::AssertionSuccess();
}

} // namespace

TEST(wimax_sync, cuda_device_input_matches_cpu_with_nans_in_gaps)
{
    // detect_device() on the clean samples a receiver uploads (non-finite ones as 0,
    // cleaned here on the host) against the CPU twin's detect() on the raw samples: the
    // same bursts, for every prefix, from several search positions and pieces; detect()
    // between the calls (the device memory is shared); the upload queued on the shared
    // context's stream and not waited for.
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    std::mt19937 rng(77);
    for (int cp_div : { 4, 8, 16, 32 }) {
        SCOPED_TRACE("cp_div " + std::to_string(cp_div));
        std::vector<size_t> starts;
        auto x = burst_stream(cp_div, 9, 0.05, 1e-2f, uint32_t(cp_div * 3 + 1), &starts);
        const size_t l1 = 256 + 256 / size_t(cp_div);
        dirty_gaps(x, starts, 2 * l1, uint32_t(cp_div));
        const auto clean = cleaned(x);

        auto ctx = core::make_cuda_context(gpu);
        auto g = core::make_wimax_sync(sync_params(cp_div), gpu, ctx);
        auto c = core::make_wimax_sync(sync_params(cp_div), cpu);
        core::device_buffer<cfloat> d_x(x.size());
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_x.get(), clean.data(), x.size() * sizeof(cfloat),
                                           cudaMemcpyHostToDevice, ctx->stream()));
        const auto a = c->detect(x.data(), x.size());
        EXPECT_EQ(a.size(), starts.size());
        EXPECT_TRUE(same_bursts(g->detect_device(d_x.get(), x.size()), a));
        EXPECT_TRUE(same_bursts(g->detect(x.data(), x.size()), a));
        const size_t from = starts[starts.size() / 2] + 1;
        EXPECT_TRUE(same_bursts(g->detect_device(d_x.get(), x.size(), from),
                                c->detect(x.data(), x.size(), from)));
        // Pieces at odd offsets (the sums' grid moves with the piece).
        for (int k = 0; k < 12; k++) {
            const size_t at = rng() % (x.size() / 2);
            const size_t n = std::min(x.size() - at, size_t(c->lookback() + rng() % 20000));
            const size_t piece_from = k % 3 == 0 ? size_t(rng() % 700) : 0;
            EXPECT_TRUE(same_bursts(g->detect_device(d_x.get() + at, n, piece_from),
                                    c->detect(x.data() + at, n, piece_from)))
                << "piece at " << at << " of " << n;
        }
        EXPECT_TRUE(g->detect_device(d_x.get(), 100).empty()); // shorter than any window
        EXPECT_TRUE(test::throws_invalid([&] { g->detect_device(nullptr, 10); }, "x"));
    }
}

TEST(wimax_sync, cuda_matches_cpu_on_bursts_noise_and_nans)
{
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    for (int cp_div : { 4, 8, 16, 32 }) {
        for (double cfo : { -0.12, 0.0, 0.07 }) {
            std::vector<size_t> starts;
            auto x = burst_stream(cp_div, 10, cfo, 3e-2f, uint32_t(cp_div * 100 + 7), &starts);
            auto g = core::make_wimax_sync(sync_params(cp_div), gpu);
            ASSERT_EQ(g->device().kind, core::backend::cuda);
            auto c = core::make_wimax_sync(sync_params(cp_div), cpu);
            const auto a = c->detect(x.data(), x.size());
            EXPECT_EQ(a.size(), starts.size()) << "cp_div " << cp_div << " cfo " << cfo;
            EXPECT_TRUE(same_bursts(g->detect(x.data(), x.size()), a));
            // search_from in the middle, and again (the device memory is reused).
            const size_t from = starts[starts.size() / 2] + 1;
            EXPECT_TRUE(same_bursts(g->detect(x.data(), x.size(), from),
                                    c->detect(x.data(), x.size(), from)));
            // NaNs and Infs sprinkled in.
            std::mt19937 rng{ uint32_t(cp_div) };
            for (int k = 0; k < 40; k++)
                x[rng() % x.size()] = k % 2 ? cfloat(std::numeric_limits<float>::quiet_NaN(), 0)
                                            : cfloat(1, std::numeric_limits<float>::infinity());
            EXPECT_TRUE(same_bursts(g->detect(x.data(), x.size()), c->detect(x.data(), x.size())));
        }
    }
    // Noise only, and digital silence after loud samples: no burst on either.
    std::mt19937 rng(5);
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::vector<cfloat> noise(300000);
    for (auto& v : noise)
        v = cfloat(nd(rng), nd(rng));
    for (size_t i = 200000; i < noise.size(); i++)
        noise[i] = 0;
    auto g = core::make_wimax_sync(sync_params(4), gpu);
    auto c = core::make_wimax_sync(sync_params(4), cpu);
    const auto a = c->detect(noise.data(), noise.size());
    EXPECT_TRUE(a.empty());
    EXPECT_TRUE(same_bursts(g->detect(noise.data(), noise.size()), a));
    EXPECT_TRUE(g->detect(noise.data(), 100).empty()); // shorter than any timing window
}

TEST(wimax_sync, cuda_matches_cpu_on_small_pieces)
{
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    std::mt19937 rng(3);
    for (int cp_div : { 4, 32 }) {
        const auto x = burst_stream(cp_div, 8, 0.03, 1e-2f, uint32_t(cp_div + 1));
        auto g = core::make_wimax_sync(sync_params(cp_div), gpu);
        auto c = core::make_wimax_sync(sync_params(cp_div), cpu);
        // Pieces at every offset (not multiples of 128: the sums' grid moves with the
        // piece on both backends), of sizes around the lookback.
        size_t at = 0;
        while (at < x.size()) {
            const size_t n = std::min(x.size() - at, size_t(c->lookback() + rng() % 4000));
            const size_t from = rng() % 3 == 0 ? size_t(rng() % 500) : 0;
            EXPECT_TRUE(
                same_bursts(g->detect(x.data() + at, n, from), c->detect(x.data() + at, n, from)))
                << "piece at " << at << " of " << n;
            at += 1 + rng() % 3000;
        }
    }
}


namespace {

/*!
 * n_bursts bursts of rate_id with \p bytes octets, each with its own CFO (uniform in
 * +-max_cfo rad/sample: beyond +-pi / 64, so other hypotheses than the coarse one win),
 * a gap of 0 (every third) or up to 1500 samples after each, then noise n0 per sample.
 */
std::vector<cfloat> cfo_burst_stream(int cp_div,
                                     size_t n_bursts,
                                     size_t bytes,
                                     double max_cfo,
                                     float n0,
                                     uint32_t seed,
                                     std::vector<size_t>& starts,
                                     size_t& burst_len)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> cfo(-max_cfo, max_cfo);
    core::wimax_tx_params tp;
    tp.cp_div = cp_div;
    tp.pad = true;
    tp.scale = float(256.0 / std::sqrt(200.0));
    auto tx = core::make_wimax_tx(tp, cpu);
    std::vector<uint8_t> data(bytes);
    core::wimax_burst_request r{ data.data(), data.size(), 1, 7 };
    burst_len = tx->burst_samples(r.len, r.rate_id);
    std::vector<cfloat> out(300 + rng() % 300);
    for (size_t i = 0; i < n_bursts; i++) {
        for (auto& b : data)
            b = uint8_t(rng());
        const size_t at = out.size();
        starts.push_back(at);
        out.resize(at + burst_len);
        tx->process(&r, 1, out.data() + at);
        const double w = cfo(rng);
        for (size_t t = 0; t < burst_len; t++)
            out[at + t] *= cfloat(std::polar(1.0, w * double(t)));
        out.resize(out.size() + (i % 3 == 0 ? 0 : rng() % 1500));
    }
    out.resize(out.size() + 600);
    test::apply_channel(out, { { 0.9f, 0.1f }, { 0.3f, -0.2f }, { 0.1f, 0.1f } }, 0.0, n0, seed);
    return out;
}

//! The CUDA backend's bursts against the CPU twin's, bit for bit.
::testing::AssertionResult identical_bursts(const std::vector<core::wimax_sync_result>& gpu,
                                            const std::vector<core::wimax_sync_result>& ref)
{
    if (gpu.size() != ref.size())
        return ::testing::AssertionFailure()
               << "CUDA found " << gpu.size() << ", CPU " << ref.size();
    for (size_t i = 0; i < gpu.size(); i++)
        if (gpu[i].start != ref[i].start || gpu[i].cfo != ref[i].cfo ||
            gpu[i].metric != ref[i].metric || gpu[i].preamble_metric != ref[i].preamble_metric)
            return ::testing::AssertionFailure()
                   << "burst " << i << ": CUDA start " << gpu[i].start << " cfo " << gpu[i].cfo
                   << " metric " << gpu[i].metric << " preamble " << gpu[i].preamble_metric
                   << ", CPU " << ref[i].start << " " << ref[i].cfo << " " << ref[i].metric << " "
                   << ref[i].preamble_metric;
    return ::testing::AssertionSuccess();
}

} // namespace

TEST(wimax_sync, cuda_fine_timing_is_the_cpu_twins_bit_for_bit)
{
    // The matched filter on the device: the same starts, CFOs and metrics as the CPU twin,
    // exactly, over many bursts with their own CFOs (every hypothesis wins somewhere), at a
    // high and a low SNR (near ties between starts and hypotheses), with the hold of a
    // burst so back-to-back bursts clip the next one's timing window (matched again
    // alone), more candidates than one device launch takes (1024), in pieces at odd
    // offsets with search_from, and on the device copy.
    GPUOFDM_REQUIRE_GPU();
    const core::device_spec gpu{ core::backend::cuda, 0 };
    struct config {
        int cp_div;
        size_t bursts;
        float n0;
    };
    for (const config& cf : { config{ 4, 1100, 0.02f }, config{ 16, 200, 0.3f },
                              config{ 32, 200, 1e-3f }, config{ 8, 150, 0.6f } }) {
        SCOPED_TRACE("cp_div " + std::to_string(cf.cp_div) + " n0 " + std::to_string(cf.n0));
        std::vector<size_t> starts;
        size_t burst_len = 0;
        const auto x = cfo_burst_stream(cf.cp_div, cf.bursts, 20, 0.2, cf.n0,
                                        uint32_t(cf.cp_div * 31 + cf.bursts), starts, burst_len);
        auto p = sync_params(cf.cp_div);
        p.hold = burst_len;
        auto ctx = core::make_cuda_context(gpu);
        auto g = core::make_wimax_sync(p, gpu, ctx);
        auto c = core::make_wimax_sync(p, cpu);
        const auto a = c->detect(x.data(), x.size());
        if (cf.n0 < 0.1f) {
            EXPECT_GE(a.size(), cf.bursts * 98 / 100); // the test sees real bursts
        }
        EXPECT_TRUE(identical_bursts(g->detect(x.data(), x.size()), a));
        core::device_buffer<cfloat> d_x(x.size());
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_x.get(), x.data(), x.size() * sizeof(cfloat),
                                           cudaMemcpyHostToDevice, ctx->stream()));
        EXPECT_TRUE(identical_bursts(g->detect_device(d_x.get(), x.size()), a));
        std::mt19937 rng(uint32_t(cf.cp_div));
        for (int k = 0; k < 10; k++) {
            const size_t at = rng() % (x.size() / 2);
            const size_t n = std::min(x.size() - at, size_t(c->lookback() + rng() % 60000));
            const size_t from = k % 2 ? size_t(rng() % 3000) : 0;
            EXPECT_TRUE(identical_bursts(g->detect(x.data() + at, n, from),
                                         c->detect(x.data() + at, n, from)))
                << "piece at " << at << " of " << n << " from " << from;
        }
    }
    // The timing window's extremes (threshold and plateau at both ends of their ranges:
    // fwd() < 0 at 0.8 and 96), on short pieces where windows meet the buffer's ends.
    std::vector<size_t> starts;
    size_t burst_len = 0;
    const auto x = cfo_burst_stream(4, 40, 20, 0.2, 0.01f, 99, starts, burst_len);
    for (const auto& [thr, plateau] :
         { std::pair{ 0.8f, size_t(96) }, std::pair{ 0.2f, size_t(16) } }) {
        auto p = sync_params(4);
        p.threshold = thr;
        p.min_plateau = plateau;
        auto g = core::make_wimax_sync(p, gpu);
        auto c = core::make_wimax_sync(p, cpu);
        for (size_t k = 0; k < starts.size(); k += 2) {
            for (size_t n : { size_t(600), size_t(900), size_t(1500) }) {
                const size_t at = starts[k] + k % 7 * 50;
                if (at + n > x.size())
                    continue;
                EXPECT_TRUE(
                    identical_bursts(g->detect(x.data() + at, n), c->detect(x.data() + at, n)))
                    << "threshold " << thr << " piece at " << at << " of " << n;
            }
        }
    }
}

#endif
