/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The timing-recovery blocks in C++ flowgraphs: pfb_timing_sync_ccf (sequential and
// chunked, with the optional outputs' sinks absent) and pfb_timing_sync_multi_ccf on CUDA
// give the CPU twin's symbols bit for bit, tags at the same offsets.

#include "block_test_util.h"
#include "timing/rrc_prototype.h"

#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/gpuofdm/pfb_timing_sync_ccf.h>
#include <gnuradio/gpuofdm/pfb_timing_sync_multi_ccf.h>

using namespace gr::gpuofdm;
using namespace gr::gpuofdm::block_test;

namespace {

constexpr int sps = 2;
constexpr unsigned nfilts = 32;
constexpr float loop_bw = 0.0628f;

//! The RRC (roll-off 0.35) matched filter at nfilts*sps, 11*sps*nfilts taps, summing to nfilts.
std::vector<float> prototype()
{
    return gr::gpuofdm::core::rrc_prototype(sps * nfilts, 11 * sps * nfilts, nfilts, 0.35);
}

//! RRC QPSK at sps samples a symbol with a fractional delay, small noise.
std::vector<gr_complex> qpsk(size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<float> g(0.0f, 0.05f);
    std::vector<gr_complex> sym(n / sps + 20);
    for (auto& s : sym)
        s = gr_complex(rng() & 1 ? 0.7071f : -0.7071f, rng() & 1 ? 0.7071f : -0.7071f);
    std::vector<gr_complex> x(n);
    const double delay = double(seed % 7) / 7.0;
    for (size_t i = 0; i < n; i++) {
        const double t = double(i) / sps + delay + 8;
        gr_complex acc(0, 0);
        for (long k = long(t) - 7; k <= long(t) + 8; k++)
            acc += sym[size_t(k)] * float(gr::gpuofdm::core::rrc_pulse(t - double(k), 0.35));
        x[i] = acc + gr_complex(g(rng), g(rng));
    }
    return x;
}

} // namespace

TEST(PfbTimingSyncBlock, CudaMatchesCpu)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    const auto x = qpsk(300000, 3);
    const std::vector<gr::tag_t> tags = { make_tag(1000, "burst", pmt::from_long(1)),
                                          make_tag(150001, "burst", pmt::from_long(2)),
                                          make_tag(20001, "time_est", pmt::from_double(0.4)) };
    for (const char* mode : { "sequential", "chunked" }) {
        std::vector<flow_out<gr_complex>> out;
        for (const std::string& dev : { std::string("cpu"), gpu_device() })
            out.push_back(run_block<gr_complex, gr_complex>(
                pfb_timing_sync_ccf::make(sps, loop_bw, prototype(), nfilts, 16, 1.5f, 1, dev, mode,
                                          8192, 2048),
                x, tags));
        ASSERT_GT(out[0].data.size(), 149000u) << mode;
        EXPECT_TRUE(out[0].data == out[1].data) << mode;
        ASSERT_EQ(out[0].tags.size(), out[1].tags.size()) << mode;
        for (size_t i = 0; i < out[0].tags.size(); i++)
            EXPECT_EQ(out[0].tags[i].offset, out[1].tags[i].offset) << mode;
    }
}

TEST(PfbTimingSyncMultiBlock, CudaMatchesCpu)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    constexpr int C = 16;
    std::vector<std::vector<gr_complex>> x;
    for (int c = 0; c < C; c++)
        x.push_back(qpsk(40000 + 1000 * size_t(c), unsigned(10 + c)));
    std::vector<std::vector<std::vector<gr_complex>>> got(2);
    int b = 0;
    for (const std::string& dev : { std::string("cpu"), gpu_device() }) {
        auto tb = gr::make_top_block("timing_multi");
        auto blk = pfb_timing_sync_multi_ccf::make(C, sps, loop_bw, prototype(), nfilts, 16, 1.5f,
                                                   1, dev, "sequential");
        std::vector<gr::blocks::vector_sink_c::sptr> sinks;
        for (int c = 0; c < C; c++) {
            auto src = gr::blocks::vector_source_c::make(x[size_t(c)]);
            sinks.push_back(gr::blocks::vector_sink_c::make());
            tb->connect(src, 0, blk, c);
            tb->connect(blk, c, sinks.back(), 0);
        }
        run_bounded(tb);
        for (auto& s : sinks)
            got[size_t(b)].push_back(s->data());
        b++;
    }
    for (int c = 0; c < C; c++) {
        EXPECT_GT(got[0][size_t(c)].size(), 19000u) << c;
        EXPECT_TRUE(got[0][size_t(c)] == got[1][size_t(c)]) << c;
    }
}

namespace {

//! C streams of n samples (each its own data and delay) as one stream of C-sample items.
std::vector<gr_complex> interleaved(int C, size_t n, std::vector<std::vector<gr_complex>>& x)
{
    x.clear();
    for (int c = 0; c < C; c++)
        x.push_back(qpsk(n, unsigned(200 + c)));
    std::vector<gr_complex> v(n * size_t(C));
    for (size_t t = 0; t < n; t++)
        for (size_t c = 0; c < size_t(C); c++)
            v[t * size_t(C) + c] = x[c][t];
    return v;
}

//! pfb_timing_sync_multi_ccf on one vector port of C channels: the output items.
std::vector<gr_complex> run_vector(int C, const std::vector<gr_complex>& v, const std::string& dev)
{
    auto tb = gr::make_top_block("timing_multi_vector");
    auto src = gr::blocks::vector_source_c::make(v, false, unsigned(C));
    auto blk = pfb_timing_sync_multi_ccf::make(C, sps, loop_bw, prototype(), nfilts, 16, 1.5f, 1,
                                               dev, "sequential", 16384, 4096, true);
    auto snk = gr::blocks::vector_sink_c::make(unsigned(C));
    tb->connect(src, 0, blk, 0);
    tb->connect(blk, 0, snk, 0);
    run_bounded(tb);
    return snk->data();
}

} // namespace

TEST(PfbTimingSyncMultiBlock, VectorPortIsThePortsOutput)
{
    // 67 channels (no multiple of the transposes' tile) on one vector port: channel c of
    // output item t is output t of port c of the same block on 67 ports, zeros after a
    // channel's last symbol.
    constexpr int C = 67;
    std::vector<std::vector<gr_complex>> x;
    const auto v = interleaved(C, 30000, x);
    const auto got = run_vector(C, v, "cpu");
    auto tb = gr::make_top_block("timing_multi_ports");
    auto blk = pfb_timing_sync_multi_ccf::make(C, sps, loop_bw, prototype(), nfilts, 16, 1.5f, 1,
                                               "cpu", "sequential");
    std::vector<gr::blocks::vector_sink_c::sptr> sinks;
    for (int c = 0; c < C; c++) {
        tb->connect(gr::blocks::vector_source_c::make(x[size_t(c)]), 0, blk, c);
        sinks.push_back(gr::blocks::vector_sink_c::make());
        tb->connect(blk, c, sinks.back(), 0);
    }
    run_bounded(tb);
    size_t longest = 0;
    for (const auto& s : sinks)
        longest = std::max(longest, s->data().size());
    ASSERT_GT(longest, 14000u);
    ASSERT_EQ(got.size(), longest * size_t(C));
    for (size_t c = 0; c < size_t(C); c++) {
        const auto want = sinks[c]->data();
        size_t bad = 0;
        for (size_t t = 0; t < longest; t++)
            bad += got[t * size_t(C) + c] != (t < want.size() ? want[t] : gr_complex(0, 0));
        EXPECT_EQ(bad, 0u) << "channel " << c;
    }
}

TEST(PfbTimingSyncMultiBlock, CudaVectorPortMatchesCpu)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    // 257 channels on one vector port: the CUDA stage's copies overlapped with its loops
    // (several time spans a call) from the block's page-locked rows, the CPU's symbols.
    constexpr int C = 257;
    std::vector<std::vector<gr_complex>> x;
    const auto v = interleaved(C, 60000, x);
    const auto want = run_vector(C, v, "cpu");
    const auto got = run_vector(C, v, gpu_device());
    ASSERT_GT(want.size(), size_t(C) * 29000);
    ASSERT_EQ(got.size(), want.size());
    EXPECT_TRUE(got == want);
}
