/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.16 receiver block in C++ flowgraphs: wimax_tx -> (recorded stream) -> wimax_rx ->
// message_debug, on "cpu" and on the GPU: every burst back exactly once with ok and its
// metadata, for several profiles, the last burst of the stream (ending on its very last
// sample) not lost, a burst cut off by the end counted, noise alone giving nothing, bad
// parameters refused.

#include "block_test_util.h"

#include <gnuradio/gpuofdm/wimax_rx.h>
#include <gnuradio/gpuofdm/wimax_tx.h>

#include <stdexcept>

namespace {

using namespace gr::gpuofdm;
using namespace gr::gpuofdm::block_test;

constexpr double fs = 4e6;

struct sent {
    std::vector<uint8_t> data;
    uint64_t start = 0; //!< offset of its wimax_start tag in the stream
};

std::vector<sent> some_bursts(size_t n, size_t n_bytes, uint32_t seed)
{
    std::vector<sent> v;
    for (size_t i = 0; i < n; i++)
        v.push_back({ random_bytes(n_bytes, seed + uint32_t(i)) });
    return v;
}

//! wimax_tx on the CPU (long preamble, pad): the bursts with gap zeros after each (none after
//! the last when last_gap is false), and a lead of zeros in front.
std::vector<gr_complex> transmit(
    std::vector<sent>& bursts, int rate_id, int cp_div, int gap, size_t lead, bool last_gap = true)
{
    std::vector<pmt::pmt_t> msgs;
    for (const auto& b : bursts)
        msgs.push_back(pmt::cons(pmt::make_dict(), pmt::init_u8vector(b.data.size(), b.data)));
    const auto out = run_pdus(
        wimax_tx::make(rate_id, cp_div, "long", false, true, 19072, gap, 18.1019336f, 64, "cpu"),
        msgs);
    std::vector<uint64_t> starts;
    for (const auto& t : out.tags)
        if (pmt::symbol_to_string(t.key) == "wimax_start")
            starts.push_back(t.offset);
    std::sort(starts.begin(), starts.end());
    EXPECT_EQ(starts.size(), bursts.size());
    for (size_t i = 0; i < bursts.size() && i < starts.size(); i++)
        bursts[i].start = lead + starts[i];
    std::vector<gr_complex> x(lead, gr_complex(0));
    x.insert(x.end(), out.data.begin(), out.data.end());
    if (!last_gap)
        x.resize(x.size() - size_t(gap));
    return x;
}

//! Every burst back once, in order, ok, with its metadata; cfo_hz near cfo_hz.
void expect_all_back(const std::vector<sent>& bursts,
                     const std::vector<received_pdu>& got,
                     int rate_id,
                     double cfo_hz,
                     uint64_t start_tol)
{
    ASSERT_EQ(got.size(), bursts.size());
    for (size_t i = 0; i < bursts.size(); i++) {
        const auto& g = got[i];
        const auto& b = bursts[i];
        EXPECT_EQ(g.payload, b.data) << "burst " << i;
        for (const char* k :
             { "profile", "burst_bytes", "rs_corrected", "rs_uncorrectable", "ok", "snr_db",
               "cfo_hz", "start", "sync_metric", "preamble_metric", "coded_errors", "coded_bits" })
            ASSERT_TRUE(g.meta.count(k)) << "burst " << i << " has no " << k;
        EXPECT_EQ(pmt::to_long(g.meta.at("profile")), rate_id);
        EXPECT_EQ(pmt::to_long(g.meta.at("burst_bytes")), long(b.data.size()));
        EXPECT_TRUE(pmt::is_bool(g.meta.at("ok")) && pmt::to_bool(g.meta.at("ok")));
        EXPECT_EQ(pmt::to_long(g.meta.at("rs_uncorrectable")), 0);
        EXPECT_TRUE(pmt::is_uint64(g.meta.at("start")));
        const uint64_t start = pmt::to_uint64(g.meta.at("start"));
        EXPECT_LE(start, b.start + start_tol) << "burst " << i;
        EXPECT_GE(start + start_tol, b.start) << "burst " << i;
        EXPECT_NEAR(pmt::to_double(g.meta.at("cfo_hz")), cfo_hz, 300.0) << "burst " << i;
        EXPECT_GT(pmt::to_double(g.meta.at("snr_db")), 15.0);
    }
}

void round_trip(const std::string& device)
{
    // Several profiles and prefixes, 16 bursts each over several batches, a CFO of 8 kHz,
    // AWGN at 30 dB SNR; the last burst ends on the stream's last sample.
    const int cases[][3] = { { 0, 4, 30 }, { 1, 8, 95 }, { 3, 4, 400 }, { 6, 16, 1200 } };
    for (const auto& c : cases) {
        const int rate_id = c[0], cp_div = c[1];
        auto bursts = some_bursts(16, size_t(c[2]), uint32_t(1000 + rate_id));
        auto x = transmit(bursts, rate_id, cp_div, 300, 1000, false);
        impair(x, 1e-3f, 2 * M_PI * 8e3 / fs, uint32_t(5 + rate_id));
        auto rx =
            wimax_rx::make(rate_id, c[2], cp_div, false, true, 19072, false, fs, 30000, device);
        EXPECT_EQ(rx->device(), device == "cpu" ? "cpu" : gpu_device_name());
        EXPECT_EQ(rx->batch_samples(), 30000);
        const auto got = run_receiver(rx, x);
        SCOPED_TRACE("rate_id " + std::to_string(rate_id) + ", cp_div " + std::to_string(cp_div));
        expect_all_back(bursts, got, rate_id, 8e3, 2);
        EXPECT_EQ(rx->bursts_received(), bursts.size());
        EXPECT_EQ(rx->bad_bursts(), 0u);
        EXPECT_EQ(rx->truncated(), 0u);
        EXPECT_EQ(rx->samples(), x.size());
        EXPECT_EQ(rx->pdus_published(), bursts.size());
    }
}

TEST(WimaxRxBlock, CpuEveryBurstBackWithMetadata) { round_trip("cpu"); }

TEST(WimaxRxBlock, CudaEveryBurstBackWithMetadata)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    round_trip(gpu_device());
}

TEST(WimaxRxBlock, CudaAndCpuGiveTheSamePdus)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    auto bursts = some_bursts(40, 300, 1200);
    auto x = transmit(bursts, 4, 4, 200, 500);
    impair(x, 1e-3f, 2 * M_PI * -5e3 / fs, 6);
    auto make = [](const std::string& dev) {
        return wimax_rx::make(4, 300, 4, false, true, 19072, true, fs, 40000, dev);
    };
    const auto a = run_receiver(make("cpu"), x);
    const auto b = run_receiver(make(gpu_device()), x);
    expect_all_back(bursts, a, 4, -5e3, 2);
    expect_all_back(bursts, b, 4, -5e3, 2);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); i++) {
        EXPECT_EQ(a[i].payload, b[i].payload) << "PDU " << i;
        for (const char* k : { "profile", "burst_bytes", "ok", "start", "rs_uncorrectable" })
            EXPECT_TRUE(pmt::equal(a[i].meta.at(k), b[i].meta.at(k))) << k << ", PDU " << i;
        EXPECT_NEAR(pmt::to_double(a[i].meta.at("cfo_hz")), pmt::to_double(b[i].meta.at("cfo_hz")),
                    20.0);
        EXPECT_NEAR(pmt::to_double(a[i].meta.at("snr_db")), pmt::to_double(b[i].meta.at("snr_db")),
                    0.05);
    }
}

TEST(WimaxRxBlock, NoBurstLostAtTheEndOfTheStream)
{
    // The automatic batch (2^18) is larger than the whole stream: every burst is decoded at
    // the end of the stream only; the last one ends on the last sample.
    std::vector<std::string> devices = { "cpu" };
    if (gpu_unusable_reason(0).empty() || gpu_device() == "cpu")
        devices.push_back(gpu_device());
    for (const auto& device : devices) {
        auto bursts = some_bursts(8, 200, 1300);
        auto x = transmit(bursts, 2, 4, 0, 0, false);
        ASSERT_LT(x.size(), size_t(1) << 18);
        auto rx = wimax_rx::make(2, 200, 4, false, true, 19072, false, fs, 0, device);
        const auto got = run_receiver(rx, x);
        expect_all_back(bursts, got, 2, 0.0, 0);
        EXPECT_EQ(rx->truncated(), 0u);
        EXPECT_EQ(rx->samples(), x.size());
    }
}

TEST(WimaxRxBlock, BurstCutByTheEndIsCountedNotPublished)
{
    auto bursts = some_bursts(3, 95, 1400);
    auto x = transmit(bursts, 1, 4, 100, 0, false);
    x.resize(x.size() - 500); // the last burst loses its last 500 samples
    auto rx = wimax_rx::make(1, 95, 4, false, true, 19072, true, fs, 0, "cpu");
    const auto got = run_receiver(rx, x);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].payload, bursts[0].data);
    EXPECT_EQ(got[1].payload, bursts[1].data);
    EXPECT_EQ(rx->truncated(), 1u);
    EXPECT_EQ(rx->bursts_received(), 2u);
}

TEST(WimaxRxBlock, NoiseAloneGivesNoPdu)
{
    const auto g = random_floats(2 * 400000, 9, std::sqrt(0.5f));
    std::vector<gr_complex> x(400000);
    for (size_t i = 0; i < x.size(); i++)
        x[i] = gr_complex(g[2 * i], g[2 * i + 1]);
    auto rx = wimax_rx::make(1, 95, 4, false, true, 19072, true, fs, 0, "cpu");
    EXPECT_TRUE(run_receiver(rx, x).empty());
    EXPECT_EQ(rx->bursts_received() + rx->bad_bursts(), 0u);
    EXPECT_EQ(rx->samples(), x.size());
    auto rx0 = wimax_rx::make(1, 95, 4, false, true, 19072, true, fs, 0, "cpu");
    EXPECT_TRUE(run_receiver(rx0, std::vector<gr_complex>(300000)).empty());
}

TEST(WimaxRxBlock, BadParametersNameThemselves)
{
    auto expect_invalid = [](auto f, const std::string& name) {
        try {
            f();
            ADD_FAILURE() << "no exception for " << name;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    };
    expect_invalid([] { wimax_rx::make(7); }, "rate_id");
    expect_invalid([] { wimax_rx::make(1, 0); }, "burst_bytes");
    expect_invalid([] { wimax_rx::make(1, 100, 4, false, false); }, "burst_bytes");
    expect_invalid([] { wimax_rx::make(1, 95, 3); }, "cp_div");
    expect_invalid([] { wimax_rx::make(1, 95, 4, false, true, 0); }, "seed");
    expect_invalid([] { wimax_rx::make(1, 95, 4, false, true, 19072, false, 0.0); }, "sample_rate");
    expect_invalid([] { wimax_rx::make(1, 95, 4, false, true, 19072, false, fs, 100, "cpu"); },
                   "batch_samples");
    expect_invalid([] { wimax_rx::make(1, 95, 4, false, true, 19072, false, fs, 0, "gpu"); },
                   "device");
    expect_invalid([] { wimax_rx::make(1, 95, 4, false, true, 19072, false, fs, 0, "cpu", 0.9f); },
                   "threshold");
    expect_invalid(
        [] { wimax_rx::make(1, 95, 32, false, true, 19072, false, fs, 0, "cpu", 0.5f, 9); },
        "fft_backoff");
    expect_invalid(
        [] { wimax_rx::make(1, 95, 4, false, true, 19072, false, fs, 0, "cpu", 0.5f, 4, 7); },
        "channel_taps");
    expect_invalid([] { wimax_rx::make(1, -95); }, "burst_bytes");
    expect_invalid([] { wimax_rx::make(1, 95, 4, false, true, 19072, false, fs, -1, "cpu"); },
                   "batch_samples");
    // The block quotes the core's message (wimax_rx_params::validate()) as it is.
    try {
        wimax_rx::make(1, 100, 4, false, false, 19072, false, fs, 0, "cpu");
        ADD_FAILURE() << "no exception for burst_bytes 100 without pad";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), "burst_bytes: with its tail byte the burst must fill "
                                         "whole blocks of 24 octets (QPSK 1/2, or set pad), got "
                                         "100");
    }
}

} // namespace
