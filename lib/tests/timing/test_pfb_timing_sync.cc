/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The polyphase timing recovery core: parameters, the banks, a stream cut into calls of
// any size (both modes), the chunked mode against the sequential loop on long drifting
// streams (no symbol lost or repeated at chunk edges, the same symbol error rate), many
// channels against each alone, and CUDA against the CPU twin. GNU Radio's own block is
// the reference of python/gpuofdm/qa_pfb_timing_sync_ccf.py.

#include "timing/pfb_timing_sync.h"
#include "timing/rrc_prototype.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace gr::gpuofdm::test {
namespace {

using core::pfb_timing_io;
using core::pfb_timing_params;
using core::pfb_timing_state;
using core::pfb_timing_sync;
using core::timing_mode;

constexpr double pi = 3.14159265358979323846;

//! A matched-filter prototype at nfilts*sps, 11*sps*nfilts taps, summing to nfilts.
std::vector<float> prototype(int sps, unsigned nfilts, double beta)
{
    return core::rrc_prototype(double(sps * int(nfilts)), size_t(11 * sps) * nfilts, nfilts, beta);
}

struct psk_stream {
    std::vector<cfloat> x;
    std::vector<int> sym; //!< symbol indices 0..3 (QPSK)
};

/*!
 * QPSK through the RRC pulse (tabulated, 2048 points a symbol, linear interpolation),
 * sampled every (1 + ppm 1e-6)/sps symbols from \p delay, AWGN at Es/N0 (Es = sps: the
 * pulse energy over the samples of a symbol).
 */
psk_stream qpsk(
    size_t n_sym, int sps, double beta, double delay, double ppm, double esn0_db, unsigned seed)
{
    constexpr int span = 8, res = 2048;
    std::vector<double> table(size_t(2 * span * res + 2));
    for (size_t i = 0; i < table.size(); i++)
        table[i] = core::rrc_pulse(double(i) / res - span, beta);
    std::mt19937 rng(seed);
    psk_stream s;
    s.sym.resize(n_sym);
    std::vector<cfloat> c(n_sym);
    for (size_t k = 0; k < n_sym; k++) {
        s.sym[k] = int(rng() & 3u);
        const double ph = pi / 4 + pi / 2 * s.sym[k];
        c[k] = cfloat(float(std::cos(ph)), float(std::sin(ph)));
    }
    const size_t n = size_t((double(n_sym) - 2 * span - 3 - double(n_sym) * 1e-4) * sps);
    s.x.resize(n);
    const double sigma = std::sqrt(sps / std::pow(10.0, esn0_db / 10.0) / 2.0);
    std::normal_distribution<double> noise(0.0, sigma);
    for (size_t i = 0; i < n; i++) {
        const double t = double(i) / sps * (1.0 + ppm * 1e-6) + delay + span;
        const long k0 = long(std::floor(t));
        std::complex<double> acc = 0.0;
        for (long k = k0 - span + 1; k <= k0 + span; k++) {
            const double u = (t - double(k) + span) * res;
            const size_t j = size_t(u);
            const double f = u - double(j);
            const double p = table[j] * (1.0 - f) + table[j + 1] * f;
            acc += std::complex<double>(c[size_t(k)]) * p;
        }
        s.x[i] = cfloat(float(acc.real() + noise(rng)), float(acc.imag() + noise(rng)));
    }
    return s;
}

int decide(cfloat y)
{
    // QPSK at pi/4 + pi/2 m.
    if (y.real() >= 0)
        return y.imag() >= 0 ? 0 : 3;
    return y.imag() >= 0 ? 1 : 2;
}

pfb_timing_params params(int sps, timing_mode mode, size_t n_channels = 1)
{
    pfb_timing_params p;
    p.sps = sps;
    p.loop_bw = float(2 * pi / 100);
    p.nfilts = 32;
    p.taps = prototype(sps, p.nfilts, 0.35);
    p.init_phase = 16.0f;
    p.max_rate_deviation = 1.5f;
    p.mode = mode;
    p.chunk_samples = 8192;
    p.warmup_samples = 2048;
    p.n_channels = n_channels;
    p.max_input_samples = 1 << 16;
    return p;
}

struct stream_result {
    std::vector<cfloat> y;
    std::vector<int64_t> pos;
};

/*!
 * Runs one channel's stream through \p sync in calls of the sizes \p cut picks (input
 * handed in pieces, at most max_out symbols a call), as a block does: keep the window,
 * drop what consumable() allows. The last call says finish.
 */
template <typename Cut>
stream_result run_stream(pfb_timing_sync& sync, const std::vector<cfloat>& x, Cut cut)
{
    stream_result r;
    pfb_timing_state st = sync.initial_state();
    std::vector<cfloat> win;
    std::vector<cfloat> out;
    std::vector<int64_t> pos;
    size_t fed = 0;
    const size_t cap = sync.params().max_input_samples;
    for (int guard = 0; guard < 100000000; guard++) {
        const auto [n_feed, max_out] = cut();
        const size_t take = std::min({ n_feed, x.size() - fed, cap - win.size() });
        win.insert(win.end(), x.begin() + long(fed), x.begin() + long(fed + take));
        fed += take;
        const bool finish = fed == x.size();
        out.resize(max_out * size_t(sync.params().osps));
        size_t n_in = win.size(), n_sym = 0;
        pfb_timing_io io;
        io.in = win.data();
        io.in_stride = n_in;
        io.n_in = &n_in;
        io.out = out.data();
        io.out_stride = out.size();
        io.max_symbols = max_out;
        io.n_symbols = &n_sym;
        io.symbol_pos = &pos;
        io.finish = finish;
        sync.process(io, &st);
        r.y.insert(r.y.end(), out.begin(), out.begin() + long(n_sym * sync.params().osps));
        r.pos.insert(r.pos.end(), pos.begin(), pos.end());
        const size_t drop = sync.consumable(st, n_in);
        win.erase(win.begin(), win.begin() + long(drop));
        pfb_timing_sync::advance(st, drop);
        if (finish && n_sym < max_out)
            break;
    }
    return r;
}

stream_result run_whole(pfb_timing_sync& sync, const std::vector<cfloat>& x)
{
    return run_stream(sync, x, [] { return std::pair<size_t, size_t>(1 << 14, 1 << 14); });
}

//! The offset d with sym[i + d] the transmitted symbol of output i, from outputs 500..1500.
long align(const std::vector<cfloat>& y, const std::vector<int>& sym)
{
    long best = 0;
    int most = -1;
    for (long d = -40; d <= 40; d++) {
        int hits = 0;
        for (long i = 500; i < 1500; i++)
            if (i + d >= 0 && size_t(i + d) < sym.size() &&
                decide(y[size_t(i)]) == sym[size_t(i + d)])
                hits++;
        if (hits > most) {
            most = hits;
            best = d;
        }
    }
    return best;
}

//! Symbol errors from output \p from on, and the count compared.
std::pair<size_t, size_t> symbol_errors(const std::vector<cfloat>& y,
                                        const std::vector<int>& sym,
                                        long d,
                                        size_t from)
{
    size_t err = 0, n = 0;
    for (size_t i = from; i < y.size() && long(i) + d < long(sym.size()); i++, n++)
        err += decide(y[i]) != sym[size_t(long(i) + d)];
    return { err, n };
}

//! Every call's symbols and err/rate/phase of each channel, and the states at the end.
struct channels_result {
    std::vector<std::vector<cfloat>> y;
    std::vector<std::vector<float>> err, rate, phase;
    std::vector<pfb_timing_state> st;
    size_t calls = 0;
};

/*!
 * Runs C channels' streams through \p sync as pfb_timing_sync_multi_ccf does: channel c
 * gets feed + (37 c mod 101) new samples a call (so the channels' windows differ), at most
 * \p max_out symbols a call, what consumable() allows dropped; the last calls say finish.
 */
channels_result run_channels(pfb_timing_sync& sync,
                             const std::vector<std::vector<cfloat>>& x,
                             size_t feed,
                             size_t max_out)
{
    const size_t C = x.size(), osps = size_t(sync.params().osps);
    const size_t stride = sync.params().max_input_samples, row = max_out * osps;
    std::vector<cfloat> rows(C * stride), out(C * row);
    std::vector<float> aux(3 * C * row);
    std::vector<size_t> len(C, 0), fed(C, 0), n_sym(C);
    channels_result r;
    r.y.resize(C);
    r.err.resize(C);
    r.rate.resize(C);
    r.phase.resize(C);
    r.st.assign(C, sync.initial_state());
    for (int guard = 0; guard < 100000; guard++) {
        bool all_fed = true;
        for (size_t c = 0; c < C; c++) {
            const size_t take =
                std::min({ feed + (37 * c) % 101, x[c].size() - fed[c], stride - len[c] });
            std::copy(x[c].begin() + long(fed[c]), x[c].begin() + long(fed[c] + take),
                      rows.begin() + long(c * stride + len[c]));
            len[c] += take;
            fed[c] += take;
            all_fed = all_fed && fed[c] == x[c].size();
        }
        pfb_timing_io io;
        io.in = rows.data();
        io.in_stride = stride;
        io.n_in = len.data();
        io.out = out.data();
        io.out_stride = row;
        io.err = aux.data();
        io.rate = io.err + C * row;
        io.phase = io.rate + C * row;
        io.max_symbols = max_out;
        io.n_symbols = n_sym.data();
        io.finish = all_fed;
        sync.process(io, r.st.data());
        r.calls++;
        bool more = false;
        for (size_t c = 0; c < C; c++) {
            const long a = long(c * row), n = long(n_sym[c] * osps);
            r.y[c].insert(r.y[c].end(), out.begin() + a, out.begin() + a + n);
            r.err[c].insert(r.err[c].end(), io.err + a, io.err + a + n);
            r.rate[c].insert(r.rate[c].end(), io.rate + a, io.rate + a + n);
            r.phase[c].insert(r.phase[c].end(), io.phase + a, io.phase + a + n);
            const size_t drop = sync.consumable(r.st[c], len[c]);
            std::copy(rows.begin() + long(c * stride + drop),
                      rows.begin() + long(c * stride + len[c]), rows.begin() + long(c * stride));
            len[c] -= drop;
            pfb_timing_sync::advance(r.st[c], drop);
            more = more || n_sym[c] == max_out;
        }
        if (all_fed && !more)
            break;
    }
    return r;
}

//! C channels of QPSK, each its own delay, clock offset (up to +-100 ppm) and length.
std::vector<std::vector<cfloat>> channel_streams(size_t C, size_t n_sym, int sps, unsigned seed)
{
    std::vector<std::vector<cfloat>> x;
    for (size_t c = 0; c < C; c++)
        x.push_back(qpsk(n_sym + (c * 13) % 97, sps, 0.35, double(c % 17) / 17.0,
                         double(c % 9) * 25.0 - 100.0, 12.0, seed + unsigned(c))
                        .x);
    return x;
}

//! Whether two runs gave the same floats, symbols and states, channel by channel.
::testing::AssertionResult same_channels(const channels_result& a, const channels_result& b)
{
    for (size_t c = 0; c < a.y.size(); c++) {
        if (a.y[c].size() != b.y[c].size())
            return ::testing::AssertionFailure() << "channel " << c << ": " << a.y[c].size()
                                                 << " against " << b.y[c].size() << " outputs";
        if (a.y[c] != b.y[c] || a.err[c] != b.err[c] || a.rate[c] != b.rate[c] ||
            a.phase[c] != b.phase[c])
            return ::testing::AssertionFailure() << "channel " << c << ": other floats";
        const auto &s = a.st[c].loop, &t = b.st[c].loop;
        if (s.k != t.k || s.rate_f != t.rate_f || s.error != t.error || s.pos != t.pos ||
            a.st[c].window_pos != b.st[c].window_pos || a.st[c].chunk_pos != b.st[c].chunk_pos)
            return ::testing::AssertionFailure() << "channel " << c << ": another state";
    }
    return ::testing::AssertionSuccess();
}

} // namespace

TEST(PfbTimingSync, ParamsRanges)
{
    const auto ok = params(2, timing_mode::sequential);
    EXPECT_NO_THROW(ok.validate());
    const auto expect_bad = [&](auto change, const std::string& name) {
        auto p = ok;
        change(p);
        try {
            p.validate();
            ADD_FAILURE() << name << " accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(std::string(e.what()).rfind(name + ":", 0), 0u) << e.what();
        }
    };
    expect_bad([](auto& p) { p.sps = 0.5; }, "sps");
    expect_bad([](auto& p) { p.sps = std::nan(""); }, "sps");
    expect_bad([](auto& p) { p.loop_bw = -0.1f; }, "loop_bw");
    expect_bad([](auto& p) { p.nfilts = 0; }, "filter_size");
    expect_bad([](auto& p) { p.nfilts = 2000; }, "filter_size");
    expect_bad([](auto& p) { p.taps = { 1.0f, 2.0f }; }, "taps");
    expect_bad([](auto& p) { p.taps[3] = INFINITY; }, "taps");
    expect_bad([](auto& p) { p.init_phase = NAN; }, "init_phase");
    expect_bad([](auto& p) { p.max_rate_deviation = 33.0f; }, "max_rate_deviation");
    expect_bad([](auto& p) { p.osps = 3; }, "osps");
    expect_bad([](auto& p) { p.chunk_samples = 100; }, "chunk_samples");
    expect_bad([](auto& p) { p.n_channels = 0; }, "n_channels");
    expect_bad([](auto& p) { p.max_input_samples = 100; }, "max_input_samples");
    expect_bad([](auto& p) { p.overlap_pieces = 17; }, "overlap_pieces");
    EXPECT_THROW(core::parse_timing_mode("fast"), std::invalid_argument);
    // A prototype with an all-zero derivative cannot steer the loop.
    auto flat = ok;
    flat.taps.assign(64, 0.0f);
    EXPECT_THROW(core::make_pfb_timing_sync(flat, {}), std::invalid_argument);
}

TEST(PfbTimingSync, BanksPartitionThePrototype)
{
    // 10 taps, 4 filters: 3 taps a filter, zero-padded; filter i = taps[i + 4j].
    const std::vector<float> taps = { 1, 3, 6, 10, 15, 21, 28, 36, 45, 55 };
    const auto b = core::make_pfb_timing_banks(taps, 4);
    ASSERT_EQ(b.taps_per_filter, 3u);
    EXPECT_EQ(b.filters[0], (std::vector<float>{ 1, 15, 45 }));
    EXPECT_EQ(b.filters[1], (std::vector<float>{ 3, 21, 55 }));
    EXPECT_EQ(b.filters[3], (std::vector<float>{ 10, 36, 0 }));
    // Differences taps[i+2] - taps[i] = 5, 7, ..., 19 (i < 8), framed by zeros; their
    // absolute sum is 96, so the scale is 4 / 96.
    std::vector<float> d = { 0 };
    for (int i = 0; i < 8; i++)
        d.push_back(float(taps[size_t(i) + 2] - taps[size_t(i)]) * (4.0f / 96.0f));
    d.push_back(0);
    for (size_t f = 0; f < 4; f++)
        for (size_t j = 0; j < 3; j++) {
            const size_t t = f + 4 * j;
            EXPECT_FLOAT_EQ(b.diff_filters[f][j], t < d.size() ? d[t] : 0.0f) << f << "," << j;
        }
}

TEST(PfbTimingSync, AnyCutGivesTheSameSymbols)
{
    const auto s = qpsk(6000, 2, 0.35, 0.3, 100.0, 12.0, 5);
    for (auto mode : { timing_mode::sequential, timing_mode::chunked }) {
        auto sync = core::make_pfb_timing_sync(params(2, mode), {});
        const auto whole = run_whole(*sync, s.x);
        ASSERT_GT(whole.y.size(), 5800u);
        std::mt19937 rng(11);
        const auto cut = [&rng] {
            return std::pair<size_t, size_t>(1 + rng() % 3000, 1 + rng() % 700);
        };
        const auto pieces = run_stream(*sync, s.x, cut);
        ASSERT_EQ(pieces.y.size(), whole.y.size()) << core::to_string(mode);
        EXPECT_TRUE(pieces.y == whole.y) << core::to_string(mode);
    }
}

TEST(PfbTimingSync, HybridGivesTheSequentialSymbols)
{
    // The grid of every filter at every sample, walked on the host: the sequential loop's
    // symbols and optional outputs bit for bit, however the stream is cut.
    const auto s = qpsk(8000, 4, 0.5, 0.65, -100.0, 8.0, 15);
    auto seq = core::make_pfb_timing_sync(params(4, timing_mode::sequential), {});
    auto hyb = core::make_pfb_timing_sync(params(4, timing_mode::hybrid), {});
    const auto a = run_whole(*seq, s.x);
    std::mt19937 rng(5);
    const auto b = run_stream(
        *hyb, s.x, [&rng] { return std::pair<size_t, size_t>(1 + rng() % 5000, 1 + rng() % 900); });
    ASSERT_GT(a.y.size(), 7800u);
    EXPECT_TRUE(a.y == b.y);
    EXPECT_TRUE(a.pos == b.pos);
    auto p = params(4, timing_mode::hybrid, 2);
    EXPECT_THROW(p.validate(), std::invalid_argument);
}

TEST(PfbTimingSync, ChunkedLosesAndRepeatsNoSymbolUnderDrift)
{
    // 10^6 symbols by default (GPUOFDM_TIMING_LONG_SYMBOLS sets another count, e.g. 10^7),
    // sps 2, +100 ppm and -100 ppm, Es/N0 20 dB: every chunked output after acquisition is
    // the transmitted symbol it aligns with at the start, so no symbol is lost or repeated
    // at any of the ~250 chunk edges; consecutive symbols are sps +- 1 samples apart; as
    // many symbols as the sequential loop gives.
    size_t n_sym = 1000000;
    if (const char* e = std::getenv("GPUOFDM_TIMING_LONG_SYMBOLS"))
        n_sym = size_t(std::strtoull(e, nullptr, 10));
    for (double ppm : { 100.0, -100.0 }) {
        const auto s = qpsk(n_sym, 2, 0.35, 0.45, ppm, 20.0, 7);
        auto sync = core::make_pfb_timing_sync(params(2, timing_mode::chunked), {});
        auto seq = core::make_pfb_timing_sync(params(2, timing_mode::sequential), {});
        const auto r = run_whole(*sync, s.x);
        const size_t n_seq = run_whole(*seq, s.x).y.size();
        const long d = align(r.y, s.sym);
        const auto [err, n] = symbol_errors(r.y, s.sym, d, 500);
        EXPECT_EQ(err, 0u) << ppm << " ppm";
        // The stream holds n_sym - 19 - n_sym/10^4 symbols' samples, -100 ppm a further
        // n_sym/10^4 fewer symbols; the first 500 outputs are not compared.
        EXPECT_GT(n, n_sym - 600 - 3 * n_sym / 10000) << ppm << " ppm";
        EXPECT_LE(std::max(r.y.size(), n_seq) - std::min(r.y.size(), n_seq), 1u) << ppm;
        size_t bad_gaps = 0;
        for (size_t i = 1; i < r.pos.size(); i++) {
            const int64_t gap = r.pos[i] - r.pos[i - 1];
            bad_gaps += gap < 1 || gap > 3;
        }
        EXPECT_EQ(bad_gaps, 0u) << ppm << " ppm";
    }
}

TEST(PfbTimingSync, ChunkedSymbolErrorRateIsTheSequentialOne)
{
    // QPSK at Es/N0 7 dB, +100 ppm, 400000 symbols: the two error counts differ by less
    // than 4 standard deviations of their difference (binomial, the two nearly the same).
    const auto s = qpsk(400000, 2, 0.35, 0.7, 100.0, 7.0, 9);
    std::vector<double> ser;
    for (auto mode : { timing_mode::sequential, timing_mode::chunked }) {
        auto sync = core::make_pfb_timing_sync(params(2, mode), {});
        const auto r = run_whole(*sync, s.x);
        const long d = align(r.y, s.sym);
        const auto [err, n] = symbol_errors(r.y, s.sym, d, 1000);
        ASSERT_GT(n, 390000u);
        ser.push_back(double(err) / double(n));
    }
    const double p = (ser[0] + ser[1]) / 2;
    const double sd = std::sqrt(2.0 * p * (1 - p) / 390000.0);
    EXPECT_GT(ser[0], 0.005); // the noise matters at 7 dB
    EXPECT_LT(std::fabs(ser[0] - ser[1]), 4 * sd) << ser[0] << " " << ser[1];
}

TEST(PfbTimingSync, ChannelsAreIndependent)
{
    // 5 channels, each its own delay, drift and length, in one call: each as if alone.
    constexpr size_t C = 5;
    for (auto mode : { timing_mode::sequential, timing_mode::chunked }) {
        auto multi = core::make_pfb_timing_sync(params(4, mode, C), {});
        auto single = core::make_pfb_timing_sync(params(4, mode, 1), {});
        std::vector<psk_stream> s;
        size_t stride = 0;
        for (size_t c = 0; c < C; c++) {
            s.push_back(qpsk(3000 + 200 * c, 4, 0.35, 0.2 * double(c), 50.0 * double(c) - 100.0,
                             15.0, unsigned(20 + c)));
            stride = std::max(stride, s.back().x.size());
        }
        std::vector<cfloat> in(C * stride);
        std::vector<size_t> n_in(C), n_sym(C);
        for (size_t c = 0; c < C; c++) {
            std::copy(s[c].x.begin(), s[c].x.end(), in.begin() + long(c * stride));
            n_in[c] = s[c].x.size();
        }
        const size_t max_out = 8000;
        std::vector<cfloat> out(C * max_out);
        std::vector<pfb_timing_state> st(C, multi->initial_state());
        pfb_timing_io io;
        io.in = in.data();
        io.in_stride = stride;
        io.n_in = n_in.data();
        io.out = out.data();
        io.out_stride = max_out;
        io.max_symbols = max_out;
        io.n_symbols = n_sym.data();
        io.finish = true;
        multi->process(io, st.data());
        for (size_t c = 0; c < C; c++) {
            const auto alone = run_whole(*single, s[c].x);
            ASSERT_EQ(n_sym[c], alone.y.size()) << c;
            EXPECT_TRUE(std::equal(alone.y.begin(), alone.y.end(), out.begin() + long(c * max_out)))
                << c;
        }
    }
}

TEST(PfbTimingSync, TimeEstEventSetsThePhase)
{
    // An event at sample e with centre c: the next symbol starting within sps samples
    // before e gets k = nfilts * (c + e - start). Without noise and with the loop still,
    // (loop_bw 0) the phase output after that symbol is k + osps*rate (rate 0).
    auto p = params(4, timing_mode::sequential);
    p.loop_bw = 0.0f;
    auto sync = core::make_pfb_timing_sync(p, {});
    const auto s = qpsk(400, 4, 0.35, 0.0, 0.0, 60.0, 3);
    pfb_timing_state st = sync->initial_state();
    const int64_t e = 1001;
    const core::timing_event_in ev{ 0, e, 0.25f };
    size_t n_in = s.x.size(), n_sym = 0;
    std::vector<cfloat> out(2000);
    std::vector<float> err(2000), rate(2000), phase(2000);
    std::vector<int64_t> pos;
    pfb_timing_io io;
    io.in = s.x.data();
    io.in_stride = n_in;
    io.n_in = &n_in;
    io.out = out.data();
    io.out_stride = out.size();
    io.err = err.data();
    io.rate = rate.data();
    io.phase = phase.data();
    io.max_symbols = 2000;
    io.n_symbols = &n_sym;
    io.symbol_pos = &pos;
    io.events = &ev;
    io.n_events = 1;
    sync->process(io, &st);
    ASSERT_GT(n_sym, 300u);
    // Symbol starts are init_phase 16 < 32: no wrap, start at 0, 4, 8, ...: the event is
    // taken by the symbol starting at 1000 (1000 <= 1001 < 1004), k = 32 * 1.25 = 40,
    // which wraps to filter 8 one sample later.
    const size_t i = 250;
    EXPECT_EQ(pos[i - 1], 996);
    EXPECT_EQ(pos[i], 1001);
    EXPECT_FLOAT_EQ(phase[i], 8.0f);
    EXPECT_FLOAT_EQ(phase[i - 1], 16.0f);
}

TEST(PfbTimingSync, JobResumedWithMoreSamplesGivesOneRun)
{
    // What the CUDA backend does to overlap its copies and loops: a job run over a window
    // whose samples grow in steps (stopping where they end, going on in the next run) gives
    // the symbols, floats and state of one run over the whole window; a small cap stops it
    // full mid-way the same in both.
    for (const auto& [sps, osps, cap] :
         { std::tuple{ 2, 1, 20000 }, std::tuple{ 4, 2, 20000 }, std::tuple{ 2, 1, 1500 } }) {
        auto p = params(sps, timing_mode::sequential);
        p.osps = osps;
        auto sync = core::make_pfb_timing_sync(p, {});
        const auto s = qpsk(5000, sps, 0.35, 0.4, 80.0, 12.0, 31);
        const auto& b = sync->banks();
        const size_t T = b.taps_per_filter;
        std::vector<float> bank(p.nfilts * T), dbank(p.nfilts * T);
        for (size_t f = 0; f < p.nfilts; f++)
            for (size_t j = 0; j < T; j++) {
                bank[f * T + j] = b.filters[f][T - 1 - j];
                dbank[f * T + j] = b.diff_filters[f][T - 1 - j];
            }
        const auto* row = reinterpret_cast<const core::rounded::cpx*>(s.x.data());
        const auto dot = [row, T](const float* h, int64_t i) {
            return core::timing_dot_host(h, int(T), row, i);
        };
        const auto dot2 = [row, T](const float* h1, const float* h2, int64_t i,
                                   core::rounded::cpx& y1, core::rounded::cpx& y2) {
            y1 = core::timing_dot_host(h1, int(T), row, i);
            y2 = core::timing_dot_host(h2, int(T), row, i);
        };
        struct run {
            core::timing_job job;
            std::vector<core::rounded::cpx> y;
            std::vector<float> aux;
            std::vector<int64_t> pos;
            std::vector<float> k;
            core::timing_job_outputs o;
        };
        const auto start = [&](run& r) {
            r.job.window_pos = int64_t(p.history()) - 1;
            r.job.n_in = int64_t(s.x.size());
            r.job.st = sync->initial_state().loop;
            r.y.assign(size_t(cap * osps), { 0.0f, 0.0f });
            r.aux.assign(3 * size_t(cap * osps), 0.0f);
            r.pos.assign(size_t(cap), 0);
            r.k.assign(size_t(cap), 0.0f);
            r.o.out = r.y.data();
            r.o.err = r.aux.data();
            r.o.rate = r.o.err + cap * osps;
            r.o.phase = r.o.rate + cap * osps;
            r.o.pos = r.pos.data();
            r.o.k = r.k.data();
            r.o.cap = uint64_t(cap);
            r.o.stride = uint64_t(cap * osps);
        };
        run whole, steps;
        start(whole);
        start(steps);
        core::timing_run_job(sync->loop_consts(), bank.data(), dbank.data(), nullptr, whole.job, 0,
                             whole.o, dot, dot2, true);
        ASSERT_GT(whole.job.n_out, 1000u);
        // Uneven steps, some shorter than a filter, the last the whole window.
        const int64_t n = int64_t(s.x.size());
        for (int64_t limit : { int64_t(5), int64_t(40), n / 7, n / 7 + 3, n / 2, n - 11, n }) {
            const int64_t full = steps.job.n_in;
            steps.job.n_in = limit;
            core::timing_run_job(sync->loop_consts(), bank.data(), dbank.data(), nullptr, steps.job,
                                 0, steps.o, dot, dot2, true);
            steps.job.n_in = full;
        }
        EXPECT_EQ(steps.job.n_out, whole.job.n_out) << sps << " " << cap;
        EXPECT_EQ(steps.job.status, whole.job.status);
        EXPECT_EQ(steps.job.st.pos, whole.job.st.pos);
        EXPECT_EQ(steps.job.st.k, whole.job.st.k);
        EXPECT_EQ(steps.job.st.rate_f, whole.job.st.rate_f);
        EXPECT_EQ(steps.job.st.error, whole.job.st.error);
        EXPECT_EQ(0,
                  std::memcmp(steps.y.data(), whole.y.data(), steps.y.size() * sizeof(steps.y[0])));
        EXPECT_TRUE(steps.aux == whole.aux);
        EXPECT_TRUE(steps.pos == whole.pos);
        EXPECT_TRUE(steps.k == whole.k);
    }
}

TEST(PfbTimingSync, CudaMatchesCpu)
{
    GPUOFDM_REQUIRE_GPU();
    // 64 channels sequential, and one long channel chunked: the same floats.
    constexpr size_t C = 64;
    auto p = params(2, timing_mode::sequential, C);
    auto cpu = core::make_pfb_timing_sync(p, {});
    auto gpu = core::make_pfb_timing_sync(p, core::resolve_device("cuda"));
    std::vector<psk_stream> s;
    size_t stride = 0;
    for (size_t c = 0; c < C; c++) {
        s.push_back(qpsk(4000, 2, 0.35, double(c) / C, double(c % 5) * 50.0 - 100.0, 10.0,
                         unsigned(100 + c)));
        stride = std::max(stride, s.back().x.size());
    }
    std::vector<cfloat> in(C * stride);
    std::vector<size_t> n_in(C);
    for (size_t c = 0; c < C; c++) {
        std::copy(s[c].x.begin(), s[c].x.end(), in.begin() + long(c * stride));
        n_in[c] = s[c].x.size() - c; // different lengths
    }
    const size_t max_out = 4100;
    std::vector<std::vector<cfloat>> out(2, std::vector<cfloat>(C * max_out));
    std::vector<std::vector<float>> aux(2, std::vector<float>(3 * C * max_out));
    std::vector<std::vector<size_t>> n_sym(2, std::vector<size_t>(C));
    std::vector<std::vector<pfb_timing_state>> st(2);
    pfb_timing_sync* both[2] = { cpu.get(), gpu.get() };
    for (int b = 0; b < 2; b++) {
        st[size_t(b)].assign(C, both[b]->initial_state());
        pfb_timing_io io;
        io.in = in.data();
        io.in_stride = stride;
        io.n_in = n_in.data();
        io.out = out[size_t(b)].data();
        io.out_stride = max_out;
        io.err = aux[size_t(b)].data();
        io.rate = io.err + C * max_out;
        io.phase = io.rate + C * max_out;
        io.max_symbols = max_out;
        io.n_symbols = n_sym[size_t(b)].data();
        both[b]->process(io, st[size_t(b)].data());
    }
    EXPECT_EQ(n_sym[0], n_sym[1]);
    for (size_t c = 0; c < C; c++) {
        const long o = long(c * max_out), n = long(n_sym[0][c]);
        EXPECT_TRUE(std::equal(out[0].begin() + o, out[0].begin() + o + n, out[1].begin() + o))
            << c;
        EXPECT_EQ(st[0][c].loop.k, st[1][c].loop.k) << c;
        EXPECT_EQ(st[0][c].loop.pos, st[1][c].loop.pos) << c;
    }
    EXPECT_TRUE(aux[0] == aux[1]);

    const auto longer = qpsk(300000, 2, 0.35, 0.6, 100.0, 10.0, 77);
    auto pc = params(2, timing_mode::chunked);
    auto cpu_c = core::make_pfb_timing_sync(pc, {});
    auto gpu_c = core::make_pfb_timing_sync(pc, core::resolve_device("cuda"));
    const auto a = run_whole(*cpu_c, longer.x);
    const auto b = run_whole(*gpu_c, longer.x);
    ASSERT_EQ(a.y.size(), b.y.size());
    EXPECT_TRUE(a.y == b.y);
    EXPECT_TRUE(a.pos == b.pos);

    // hybrid: the GPU's grid gives the CPU twin's grid, so the same symbols.
    const auto h = qpsk(20000, 2, 0.35, 0.3, 50.0, 10.0, 78);
    auto cpu_h = core::make_pfb_timing_sync(params(2, timing_mode::hybrid), {});
    auto gpu_h =
        core::make_pfb_timing_sync(params(2, timing_mode::hybrid), core::resolve_device("cuda"));
    const auto ha = run_whole(*cpu_h, h.x);
    const auto hb = run_whole(*gpu_h, h.x);
    ASSERT_EQ(ha.y.size(), hb.y.size());
    EXPECT_TRUE(ha.y == hb.y);
}

TEST(PfbTimingSync, CudaAnyCutMatchesCpu)
{
    GPUOFDM_REQUIRE_GPU();
    // Calls of any size and outputs that fill mid-call, as a block in a busy flowgraph
    // gets them, on a QPSK stream and on plain noise (the loop wanders at its rate
    // limits): the CPU twin's symbols in both modes.
    std::mt19937 noise_rng(3);
    std::normal_distribution<float> g(0.0f, 1.0f);
    std::vector<cfloat> noise(120000);
    for (auto& v : noise)
        v = cfloat(g(noise_rng), g(noise_rng));
    const auto qpsk_x = qpsk(60000, 2, 0.35, 0.3, 100.0, 12.0, 9).x;
    for (const std::vector<cfloat>* x :
         { &qpsk_x, static_cast<const std::vector<cfloat>*>(&noise) })
        for (auto mode : { timing_mode::sequential, timing_mode::chunked }) {
            auto cpu = core::make_pfb_timing_sync(params(2, mode), {});
            auto gpu = core::make_pfb_timing_sync(params(2, mode), core::resolve_device("cuda"));
            std::mt19937 r1(21), r2(21);
            const auto cut1 = [&r1] {
                return std::pair<size_t, size_t>(1 + r1() % 20000, 1 + r1() % 9000);
            };
            const auto cut2 = [&r2] {
                return std::pair<size_t, size_t>(1 + r2() % 20000, 1 + r2() % 9000);
            };
            const auto a = run_stream(*cpu, *x, cut1);
            const auto b = run_stream(*gpu, *x, cut2);
            ASSERT_EQ(a.y.size(), b.y.size()) << core::to_string(mode);
            EXPECT_TRUE(a.y == b.y) << core::to_string(mode);
            EXPECT_TRUE(a.pos == b.pos) << core::to_string(mode);
        }
}

TEST(PfbTimingSync, CudaOverlappedSpansMatchCpu)
{
    GPUOFDM_REQUIRE_GPU();
    // The copies and loops overlapped over 1 (none), 3, 7, 16 and the automatic number of
    // spans: the CPU twin's floats, symbols and states, over calls of any length (the
    // spans do not divide them), channel counts that are odd, channels whose windows differ,
    // outputs that fill mid-call, and the stream's end.
    const auto cuda = core::resolve_device("cuda");
    for (const size_t C : { size_t(1), size_t(37), size_t(1021) }) {
        const auto x = channel_streams(C, C > 100 ? 1800 : 6000, 2, 500);
        auto p = params(2, timing_mode::sequential, C);
        p.max_input_samples = 4099;
        auto cpu = core::make_pfb_timing_sync(p, {});
        const auto want = run_channels(*cpu, x, 1500, 611);
        ASSERT_GT(want.calls, 3u);
        for (const size_t spans : { 1, 3, 7, 16, 0 }) {
            p.overlap_pieces = spans;
            auto gpu = core::make_pfb_timing_sync(p, cuda);
            EXPECT_TRUE(same_channels(run_channels(*gpu, x, 1500, 611), want))
                << C << " channels, " << spans << " spans";
        }
    }
    // osps 2 at sps 4, and the chunked mode (several loops a channel, resumed in the spans).
    {
        const auto x = channel_streams(5, 9000, 4, 600);
        auto p = params(4, timing_mode::sequential, 5);
        p.osps = 2;
        auto cpu = core::make_pfb_timing_sync(p, {});
        const auto want = run_channels(*cpu, x, 3000, 900);
        p.overlap_pieces = 5;
        auto gpu = core::make_pfb_timing_sync(p, cuda);
        EXPECT_TRUE(same_channels(run_channels(*gpu, x, 3000, 900), want)) << "osps 2";
    }
    {
        const auto x = channel_streams(3, 40000, 2, 700);
        auto p = params(2, timing_mode::chunked, 3);
        p.chunk_samples = 4096;
        p.warmup_samples = 1024;
        p.max_input_samples = 30011;
        auto cpu = core::make_pfb_timing_sync(p, {});
        const auto want = run_channels(*cpu, x, 20000, 7000);
        for (const size_t spans : { 1, 6, 0 }) {
            p.overlap_pieces = spans;
            auto gpu = core::make_pfb_timing_sync(p, cuda);
            EXPECT_TRUE(same_channels(run_channels(*gpu, x, 20000, 7000), want))
                << "chunked, " << spans << " spans";
        }
    }
    // One channel's symbol positions (the pos/k rows) through the spans.
    {
        const auto s = qpsk(30000, 2, 0.35, 0.2, -60.0, 10.0, 81);
        auto p = params(2, timing_mode::sequential);
        const auto a = run_whole(*core::make_pfb_timing_sync(p, {}), s.x);
        p.overlap_pieces = 9;
        const auto b = run_whole(*core::make_pfb_timing_sync(p, cuda), s.x);
        EXPECT_TRUE(a.y == b.y);
        EXPECT_TRUE(a.pos == b.pos);
    }
}

} // namespace gr::gpuofdm::test
