/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.11a receiver block in C++ flowgraphs: wifi_tx -> (recorded stream) -> wifi_rx ->
// message_debug, on "cpu" and on the GPU: every PSDU back exactly once with crc_ok and its
// metadata, the last frame of the stream (ending on its very last sample) not lost, a
// frame cut off by the end counted, noise alone giving nothing, the PCAP file holding one
// record per PDU, bad parameters refused.

#include "block_test_util.h"

#include <gnuradio/gpuofdm/wifi_rx.h>
#include <gnuradio/gpuofdm/wifi_tx.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <unistd.h>

namespace {

using namespace gr::gpuofdm;
using namespace gr::gpuofdm::block_test;

//! CRC-32 (IEEE 802.3, reflected 0xEDB88320), the 802.11 FCS, written here independently.
uint32_t crc32(const uint8_t* p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

//! len random octets, the last 4 the FCS of the others (least significant octet first).
std::vector<uint8_t> psdu_with_fcs(size_t len, uint32_t seed)
{
    auto p = random_bytes(len, seed);
    const uint32_t c = crc32(p.data(), len - 4);
    for (int i = 0; i < 4; i++)
        p[len - 4 + i] = uint8_t(c >> (8 * i));
    return p;
}

pmt::pmt_t pdu_of(const std::vector<uint8_t>& psdu, int rate)
{
    pmt::pmt_t d = pmt::dict_add(pmt::make_dict(), pmt::mp("rate"), pmt::from_long(rate));
    return pmt::cons(d, pmt::init_u8vector(psdu.size(), psdu));
}

struct sent {
    std::vector<uint8_t> psdu;
    int rate;
    uint64_t start = 0; //!< offset of its wifi_start tag in the stream
};

//! wifi_tx on the CPU: the frames back to back with gap zeros after each (none after the
//! last when last_gap is false), and a lead of zeros in front.
std::vector<gr_complex> transmit(std::vector<sent>& frames,
                                 int gap,
                                 size_t lead,
                                 bool last_gap = true)
{
    std::vector<pmt::pmt_t> msgs;
    for (const auto& f : frames)
        msgs.push_back(pdu_of(f.psdu, f.rate));
    const auto out = run_pdus(wifi_tx::make(54, 0, gap, 8.87520336f, 64, "cpu"), msgs);
    std::vector<uint64_t> starts;
    for (const auto& t : out.tags)
        if (pmt::symbol_to_string(t.key) == "wifi_start")
            starts.push_back(t.offset);
    std::sort(starts.begin(), starts.end());
    EXPECT_EQ(starts.size(), frames.size());
    for (size_t i = 0; i < frames.size() && i < starts.size(); i++)
        frames[i].start = lead + starts[i];
    std::vector<gr_complex> x(lead, gr_complex(0));
    x.insert(x.end(), out.data.begin(), out.data.end());
    if (!last_gap)
        x.resize(x.size() - size_t(gap));
    return x;
}

using received = received_pdu;

//! vector_source -> rx -> message_debug, run to the end of the stream.
std::vector<received> receive(const wifi_rx::sptr& rx, const std::vector<gr_complex>& x)
{
    return run_receiver(rx, x);
}

//! Every frame back once, in order, with crc_ok and its metadata; cfo_hz near cfo_hz.
void expect_all_back(const std::vector<sent>& frames,
                     const std::vector<received>& got,
                     double cfo_hz,
                     uint64_t start_tol)
{
    ASSERT_EQ(got.size(), frames.size());
    for (size_t i = 0; i < frames.size(); i++) {
        const auto& g = got[i];
        const auto& f = frames[i];
        EXPECT_EQ(g.payload, f.psdu) << "frame " << i;
        for (const char* k :
             { "rate", "psdu_len", "crc_ok", "seed", "snr_db", "cfo_hz", "start", "sync_metric" })
            ASSERT_TRUE(g.meta.count(k)) << "frame " << i << " has no " << k;
        EXPECT_EQ(pmt::to_long(g.meta.at("rate")), f.rate) << "frame " << i;
        EXPECT_EQ(pmt::to_long(g.meta.at("psdu_len")), long(f.psdu.size()));
        EXPECT_TRUE(pmt::is_bool(g.meta.at("crc_ok")) && pmt::to_bool(g.meta.at("crc_ok")));
        const long seed = pmt::to_long(g.meta.at("seed"));
        EXPECT_TRUE(seed >= 1 && seed <= 127) << seed;
        EXPECT_TRUE(pmt::is_uint64(g.meta.at("start")));
        const uint64_t start = pmt::to_uint64(g.meta.at("start"));
        EXPECT_LE(start, f.start + start_tol) << "frame " << i;
        EXPECT_GE(start + start_tol, f.start) << "frame " << i;
        EXPECT_NEAR(pmt::to_double(g.meta.at("cfo_hz")), cfo_hz, 2e3) << "frame " << i;
        EXPECT_GT(pmt::to_double(g.meta.at("sync_metric")), 0.56);
        EXPECT_GT(pmt::to_double(g.meta.at("snr_db")), 10.0);
    }
}

std::vector<sent> some_frames(size_t n, uint32_t seed)
{
    const int rates[] = { 6, 9, 12, 18, 24, 36, 48, 54 };
    std::mt19937 rng(seed);
    std::vector<sent> v;
    for (size_t i = 0; i < n; i++)
        v.push_back({ psdu_with_fcs(24 + rng() % 1500, seed + uint32_t(i)), rates[i % 8] });
    return v;
}

void round_trip(const std::string& device)
{
    // 24 frames at every rate over several batches (131072 samples), a CFO of 50 kHz, AWGN
    // at 30 dB SNR; the last frame ends on the stream's last sample.
    auto frames = some_frames(24, 1100);
    frames.push_back({ psdu_with_fcs(4095, 77), 6 }); // the longest frame
    frames.push_back({ psdu_with_fcs(100, 78), 54 });
    auto x = transmit(frames, 300, 1000, false);
    const double cfo = 2 * M_PI * 50e3 / 20e6;
    impair(x, 1e-3f, cfo, 5);
    auto rx = wifi_rx::make(131072, 0.56f, false, "", device);
    EXPECT_EQ(rx->device(), device == "cpu" ? "cpu" : gpu_device_name());
    const auto got = receive(rx, x);
    expect_all_back(frames, got, 50e3, 2);
    EXPECT_EQ(rx->frames_received(), frames.size());
    EXPECT_EQ(rx->crc_errors(), 0u);
    EXPECT_EQ(rx->truncated(), 0u);
    EXPECT_EQ(rx->samples(), x.size());
    EXPECT_EQ(rx->pdus_published(), frames.size());
}

TEST(WifiRxBlock, CpuEveryPsduBackWithMetadata) { round_trip("cpu"); }

TEST(WifiRxBlock, CudaEveryPsduBackWithMetadata)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    round_trip(gpu_device());
}

TEST(WifiRxBlock, CudaAndCpuGiveTheSamePdus)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    auto frames = some_frames(40, 1200);
    auto x = transmit(frames, 200, 500);
    // 25 dB: every frame decodes on both (marginal frames could differ in float rounding).
    impair(x, 3e-3f, 2 * M_PI * -20e3 / 20e6, 6);
    const auto a = receive(wifi_rx::make(131072, 0.56f, true, "", "cpu"), x);
    const auto b = receive(wifi_rx::make(131072, 0.56f, true, "", gpu_device()), x);
    expect_all_back(frames, a, -20e3, 2);
    expect_all_back(frames, b, -20e3, 2);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); i++) {
        EXPECT_EQ(a[i].payload, b[i].payload) << "PDU " << i;
        for (const char* k : { "rate", "psdu_len", "seed", "start" })
            EXPECT_TRUE(pmt::equal(a[i].meta.at(k), b[i].meta.at(k))) << k << ", PDU " << i;
        EXPECT_EQ(pmt::to_bool(a[i].meta.at("crc_ok")), pmt::to_bool(b[i].meta.at("crc_ok")));
        EXPECT_NEAR(pmt::to_double(a[i].meta.at("cfo_hz")), pmt::to_double(b[i].meta.at("cfo_hz")),
                    50.0);
        EXPECT_NEAR(pmt::to_double(a[i].meta.at("snr_db")), pmt::to_double(b[i].meta.at("snr_db")),
                    0.05);
    }
}

TEST(WifiRxBlock, NoFrameLostAtTheEndOfTheStream)
{
    // One batch is larger than the whole stream: every frame is decoded at the end of the
    // stream only; the last one ends on the last sample. Different input call sizes too.
    std::vector<std::string> devices = { "cpu" };
    if (gpu_unusable_reason(0).empty() || gpu_device() == "cpu")
        devices.push_back(gpu_device());
    for (const auto& device : devices) {
        auto frames = some_frames(5, 1300);
        auto x = transmit(frames, 100, 0, false);
        ASSERT_LT(x.size(), size_t(262144));
        auto rx = wifi_rx::make(262144, 0.56f, false, "", device);
        const auto got = receive(rx, x);
        expect_all_back(frames, got, 0.0, 0);
        EXPECT_EQ(rx->truncated(), 0u);
        EXPECT_EQ(rx->samples(), x.size());
    }
}

TEST(WifiRxBlock, FrameCutByTheEndIsCountedNotPublished)
{
    auto frames = some_frames(3, 1400);
    auto x = transmit(frames, 100, 0, false);
    x.resize(x.size() - 500); // the last frame loses its last 500 samples
    auto rx = wifi_rx::make(131072, 0.56f, true, "", "cpu");
    const auto got = receive(rx, x);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].payload, frames[0].psdu);
    EXPECT_EQ(got[1].payload, frames[1].psdu);
    EXPECT_EQ(rx->truncated(), 1u);
    EXPECT_EQ(rx->frames_received(), 2u);
}

TEST(WifiRxBlock, NoiseAloneGivesNoPdu)
{
    const auto g = random_floats(2 * 400000, 9, std::sqrt(0.5f));
    std::vector<gr_complex> x(400000);
    for (size_t i = 0; i < x.size(); i++)
        x[i] = gr_complex(g[2 * i], g[2 * i + 1]);
    auto rx = wifi_rx::make(131072, 0.56f, true, "", "cpu");
    EXPECT_TRUE(receive(rx, x).empty());
    EXPECT_EQ(rx->frames_received(), 0u);
    EXPECT_EQ(rx->samples(), x.size());
    // And all zeros (digital silence).
    auto rx0 = wifi_rx::make(131072, 0.56f, true, "", "cpu");
    EXPECT_TRUE(receive(rx0, std::vector<gr_complex>(300000)).empty());
}

TEST(WifiRxBlock, PcapHasOneRecordPerPdu)
{
    const std::string path = "/tmp/gpuofdm_test_wifi_rx_" + std::to_string(::getpid()) + ".pcap";
    auto frames = some_frames(6, 1500);
    auto x = transmit(frames, 1000, 2000);
    std::vector<received> got;
    {
        auto rx = wifi_rx::make(131072, 0.56f, false, path, "cpu");
        EXPECT_EQ(rx->pcap_file(), path);
        got = receive(rx, x);
    }
    ASSERT_EQ(got.size(), frames.size());
    std::ifstream f(path, std::ios::binary);
    const std::vector<uint8_t> b((std::istreambuf_iterator<char>(f)),
                                 std::istreambuf_iterator<char>());
    std::remove(path.c_str());
    auto le32 = [&](size_t at) {
        return uint32_t(b.at(at)) | uint32_t(b.at(at + 1)) << 8 | uint32_t(b.at(at + 2)) << 16 |
               uint32_t(b.at(at + 3)) << 24;
    };
    ASSERT_GE(b.size(), 24u);
    EXPECT_EQ(le32(0), 0xa1b2c3d4u);
    EXPECT_EQ(le32(20), 105u);
    size_t at = 24, n = 0;
    while (at + 16 <= b.size()) {
        const uint32_t sec = le32(at), usec = le32(at + 4), incl = le32(at + 8);
        ASSERT_LT(n, frames.size());
        const double t = double(pmt::to_uint64(got[n].meta.at("start"))) / 20e6;
        EXPECT_NEAR(sec + usec * 1e-6, t, 1e-6);
        ASSERT_LE(at + 16 + incl, b.size());
        EXPECT_EQ(std::vector<uint8_t>(b.begin() + long(at + 16), b.begin() + long(at + 16 + incl)),
                  frames[n].psdu);
        at += 16 + incl;
        n++;
    }
    EXPECT_EQ(at, b.size());
    EXPECT_EQ(n, frames.size());
}

TEST(WifiRxBlock, BadParametersNameThemselves)
{
    auto expect_invalid = [](auto f, const std::string& name) {
        try {
            f();
            ADD_FAILURE() << "no exception for " << name;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    };
    expect_invalid([] { wifi_rx::make(1000); }, "batch_samples");
    expect_invalid([] { wifi_rx::make((1 << 24) + 1); }, "batch_samples");
    expect_invalid([] { wifi_rx::make(262144, 0.0f); }, "threshold");
    expect_invalid([] { wifi_rx::make(262144, 1.0f); }, "threshold");
    expect_invalid([] { wifi_rx::make(262144, 0.56f, false, "", "gpu"); }, "device");
    expect_invalid([] { wifi_rx::make(262144, 0.56f, false, "", "cpu", 9); }, "fft_backoff");
    expect_invalid([] { wifi_rx::make(-1); }, "batch_samples");
    // The block quotes the core's message (wifi_rx_params::validate()) as it is.
    try {
        wifi_rx::make(131071, 0.56f, false, "", "cpu");
        ADD_FAILURE() << "no exception for batch_samples 131071";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), "batch_samples: must be 131072..16777216 (the longest "
                                         "frame, 109681 samples, must fit), got 131071");
    }
    try {
        wifi_rx::make(262144, 0.56f, false, "/nonexistent-dir/x.pcap", "cpu");
        ADD_FAILURE() << "no exception for an unwritable PCAP file";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/x.pcap"), std::string::npos);
    }
}

} // namespace
