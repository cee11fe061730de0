/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The OFDM synchronizer block in C++ flowgraphs: wifi_tx -> (recorded stream, CFO, noise)
// -> ofdm_sync_cc -> vector_sink, on "cpu" and on the GPU: one "ofdm_sync" tag per frame
// near its wifi_start, the CFO, as many samples out as in, the same tags for every batch
// size (frames across batch edges found once), CUDA and CPU giving the same tags and
// output within tolerance, noise alone giving no tag, bad parameters refused.

#include "block_test_util.h"

#include <gnuradio/gpuofdm/ofdm_sync_cc.h>
#include <gnuradio/gpuofdm/wifi_tx.h>

#include <stdexcept>

namespace {

using namespace gr::gpuofdm;
using namespace gr::gpuofdm::block_test;

pmt::pmt_t pdu_of(const std::vector<uint8_t>& psdu, int rate)
{
    pmt::pmt_t d = pmt::dict_add(pmt::make_dict(), pmt::mp("rate"), pmt::from_long(rate));
    return pmt::cons(d, pmt::init_u8vector(psdu.size(), psdu));
}

//! n short frames (all rates) through wifi_tx on the CPU, lead zeros in front: the
//! samples and the frames' wifi_start offsets.
std::vector<gr_complex> transmit(
    size_t n, int gap, size_t lead, uint32_t seed, std::vector<uint64_t>& starts)
{
    const int rates[] = { 6, 9, 12, 18, 24, 36, 48, 54 };
    std::mt19937 rng(seed);
    std::vector<pmt::pmt_t> msgs;
    for (size_t i = 0; i < n; i++)
        msgs.push_back(pdu_of(random_bytes(1 + rng() % 200, seed + uint32_t(i)), rates[i % 8]));
    const auto out = run_pdus(wifi_tx::make(54, 0, gap, 8.87520336f, 64, "cpu"), msgs);
    starts.clear();
    for (const auto& t : out.tags)
        if (pmt::symbol_to_string(t.key) == "wifi_start")
            starts.push_back(lead + t.offset);
    std::sort(starts.begin(), starts.end());
    EXPECT_EQ(starts.size(), n);
    std::vector<gr_complex> x(lead, gr_complex(0));
    x.insert(x.end(), out.data.begin(), out.data.end());
    return x;
}

void impair(std::vector<gr_complex>& x, float n0, double cfo, uint32_t seed)
{
    const auto g = random_floats(2 * x.size(), seed, std::sqrt(n0 / 2));
    for (size_t i = 0; i < x.size(); i++)
        x[i] = x[i] * gr_complex(std::polar(1.0, cfo * double(i))) +
               gr_complex(g[2 * i], g[2 * i + 1]);
}

struct sync_tag {
    uint64_t offset;
    double cfo, cfo_hz, metric, ltf_metric;
    uint64_t ltf_start;
};

std::vector<sync_tag> sync_tags(const std::vector<gr::tag_t>& tags)
{
    std::vector<sync_tag> v;
    for (const auto& t : tags) {
        if (pmt::symbol_to_string(t.key) != "ofdm_sync")
            continue;
        auto get = [&](const char* k) { return pmt::dict_ref(t.value, pmt::mp(k), pmt::PMT_NIL); };
        v.push_back({ t.offset, pmt::to_double(get("cfo")), pmt::to_double(get("cfo_hz")),
                      pmt::to_double(get("metric")), pmt::to_double(get("ltf_metric")),
                      pmt::to_uint64(get("ltf_start")) });
    }
    std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.offset < b.offset; });
    return v;
}

void expect_frames(const std::vector<sync_tag>& got,
                   const std::vector<uint64_t>& starts,
                   double cfo_hz)
{
    ASSERT_EQ(got.size(), starts.size());
    for (size_t i = 0; i < got.size(); i++) {
        EXPECT_LE(got[i].offset, starts[i] + 2) << "frame " << i;
        EXPECT_GE(got[i].offset + 2, starts[i]) << "frame " << i;
        EXPECT_EQ(got[i].ltf_start, got[i].offset + 192);
        EXPECT_NEAR(got[i].cfo_hz, cfo_hz, 3e3) << "frame " << i;
        EXPECT_GT(got[i].metric, 0.56);
        EXPECT_GT(got[i].ltf_metric, 0.35);
    }
}

TEST(OfdmSyncBlock, CpuFindsEveryFrameOnceAcrossBatchEdges)
{
    std::vector<uint64_t> starts;
    auto x = transmit(60, 120, 600, 2100, starts);
    const double cfo = 2 * M_PI * 80e3 / 20e6;
    impair(x, 1e-3f, cfo, 7);
    std::vector<sync_tag> ref;
    for (int batch : { 1024, 3000, 65536 }) {
        auto out = run_block<gr_complex, gr_complex>(
            ofdm_sync_cc::make("802.11a", 0.56f, 32, batch, 20e6, "cpu"), x);
        EXPECT_EQ(out.data.size(), x.size()) << "batch " << batch;
        const auto got = sync_tags(out.tags);
        expect_frames(got, starts, 80e3);
        if (ref.empty()) {
            ref = got;
            continue;
        }
        ASSERT_EQ(got.size(), ref.size());
        for (size_t i = 0; i < got.size(); i++) {
            EXPECT_EQ(got[i].offset, ref[i].offset);
            EXPECT_NEAR(got[i].cfo, ref[i].cfo, 1e-7);
        }
    }
}

TEST(OfdmSyncBlock, CudaAndCpuGiveTheSameTagsAndOutput)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    std::vector<uint64_t> starts;
    auto x = transmit(50, 150, 500, 2200, starts);
    impair(x, 2e-3f, 2 * M_PI * -60e3 / 20e6, 8);
    for (int batch : { 4096, 65536 }) {
        auto blk = ofdm_sync_cc::make("802.11a", 0.56f, 32, batch, 20e6, gpu_device());
        EXPECT_EQ(blk->device(), gpu_device_name());
        const auto a = run_block<gr_complex, gr_complex>(
            ofdm_sync_cc::make("802.11a", 0.56f, 32, batch, 20e6, "cpu"), x);
        const auto b = run_block<gr_complex, gr_complex>(blk, x);
        ASSERT_EQ(a.data.size(), x.size());
        ASSERT_EQ(b.data.size(), x.size());
        const auto ta = sync_tags(a.tags), tb = sync_tags(b.tags);
        expect_frames(ta, starts, -60e3);
        ASSERT_EQ(ta.size(), tb.size());
        for (size_t i = 0; i < ta.size(); i++) {
            EXPECT_EQ(ta[i].offset, tb[i].offset) << "frame " << i;
            EXPECT_EQ(ta[i].ltf_start, tb[i].ltf_start) << "frame " << i;
            EXPECT_NEAR(ta[i].cfo, tb[i].cfo, 1e-5) << "frame " << i;
            EXPECT_NEAR(ta[i].metric, tb[i].metric, 1e-3);
            EXPECT_NEAR(ta[i].ltf_metric, tb[i].ltf_metric, 1e-3);
        }
        // The CFO estimates agree to float rounding: the outputs within 1e-3 of the
        // signal's RMS over the few hundred samples from a frame start to the next.
        EXPECT_TRUE(near_rms(b.data, a.data, 1e-3)) << "batch " << batch;
    }
}

TEST(OfdmSyncBlock, NoiseAloneGivesNoTagAndUnchangedSamples)
{
    const auto g = random_floats(2 * 200000, 9, std::sqrt(0.5f));
    std::vector<gr_complex> x(200000);
    for (size_t i = 0; i < x.size(); i++)
        x[i] = gr_complex(g[2 * i], g[2 * i + 1]);
    std::vector<std::string> devices = { "cpu" };
    if (gpu_unusable_reason(0).empty() || gpu_device() == "cpu")
        devices.push_back(gpu_device());
    for (const auto& device : devices) {
        auto out = run_block<gr_complex, gr_complex>(
            ofdm_sync_cc::make("802.11a", 0.56f, 32, 8192, 20e6, device), x);
        EXPECT_TRUE(sync_tags(out.tags).empty()) << device;
        EXPECT_EQ(out.data, x) << device;
    }
}

TEST(OfdmSyncBlock, BadParametersNameThemselves)
{
    auto expect_invalid = [](auto f, const std::string& name) {
        try {
            f();
            ADD_FAILURE() << "no exception for " << name;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    };
    expect_invalid([] { ofdm_sync_cc::make("802.11g"); }, "standard");
    expect_invalid([] { ofdm_sync_cc::make("802.11a", 1.0f); }, "threshold");
    expect_invalid([] { ofdm_sync_cc::make("802.11a", 0.56f, 8); }, "min_plateau");
    expect_invalid([] { ofdm_sync_cc::make("802.11a", 0.56f, 32, 512); }, "batch_samples");
    expect_invalid([] { ofdm_sync_cc::make("802.11a", 0.56f, 32, 4096, -1.0); }, "sample_rate");
    expect_invalid([] { ofdm_sync_cc::make("802.11a", 0.56f, 32, 4096, 20e6, "gpu"); }, "device");
    expect_invalid([] { ofdm_sync_cc::make("802.16", 0.56f, 32, 4096, 4e6, "gpu"); }, "device");
    expect_invalid([] { ofdm_sync_cc::make("802.11a", 0.56f, -32); }, "min_plateau");
    expect_invalid([] { ofdm_sync_cc::make("802.11a", 0.56f, 32, -4096); }, "batch_samples");
    expect_invalid([] { ofdm_sync_cc::make("802.16", 0.5f, 32, 1969, 4e6, "cpu"); },
                   "batch_samples");
    expect_invalid([] { ofdm_sync_cc::make("802.16", 0.56f, 32, 4096, 4e6, "cpu", 3); }, "cp_div");
}

} // namespace
