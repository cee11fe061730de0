/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The float/complex blocks (ofdm_fft, ofdm_ifft, mapper_bc, demapper_cf) and the
// transmitters (wifi_tx, wimax_tx) in C++ flowgraphs: CUDA within 1e-5 of the output RMS
// of the CPU twin (demapper_cf hard: exact), tags exact; CPU properties that run without
// a GPU.

#include "block_test_util.h"

#include <gnuradio/gpuofdm/demapper_cf.h>
#include <gnuradio/gpuofdm/mapper_bc.h>
#include <gnuradio/gpuofdm/ofdm_fft.h>
#include <gnuradio/gpuofdm/ofdm_ifft.h>
#include <gnuradio/gpuofdm/wifi_tx.h>
#include <gnuradio/gpuofdm/wimax_tx.h>

#include <map>

using namespace gr::gpuofdm;
using namespace gr::gpuofdm::block_test;

namespace {

constexpr double tol_rms = 1e-5; // CUDA vs CPU twin, relative to the output RMS

// ---------------------------------------------------------------- ofdm_fft / ofdm_ifft

flow_out<gr_complex> run_fft(const std::vector<gr_complex>& x,
                             int fft_len,
                             const std::vector<int>& cps,
                             const std::string& device,
                             int batch,
                             bool shift = true,
                             float scale = 1.0f)
{
    std::vector<gr::tag_t> tags;
    for (uint64_t off : { uint64_t(0), uint64_t(15), uint64_t(16), uint64_t(159),
                          uint64_t(x.size() / 2), uint64_t(x.size() - 1) })
        tags.push_back(make_tag(off, "k", pmt::from_long(long(off))));
    return run_block<gr_complex, gr_complex>(
        ofdm_fft::make(fft_len, cps, shift, scale, batch, device), x, tags, 1, unsigned(fft_len));
}

flow_out<gr_complex> run_ifft(const std::vector<gr_complex>& bins,
                              int fft_len,
                              const std::vector<int>& cps,
                              const std::string& device,
                              int batch,
                              float scale = 1.0f)
{
    const size_t n_sym = bins.size() / size_t(fft_len);
    const std::vector<gr::tag_t> tags = { make_tag(0, "k", pmt::from_long(0)),
                                          make_tag(3, "k", pmt::from_long(3)),
                                          make_tag(n_sym - 1, "k", pmt::from_long(9)) };
    return run_block<gr_complex, gr_complex>(
        ofdm_ifft::make(fft_len, cps, true, scale, batch, device), bins, tags, unsigned(fft_len),
        1);
}

TEST(OfdmFftBlock, CpuHandCaseAndPartialSymbolDropped)
{
    // fft_len 4, CP 1: an impulse at t = 1 gives e^{-j pi k / 2}; the CP sample is dropped.
    const std::vector<gr_complex> x = { 9, 0, 1, 0, 0, 5, 5 };
    const auto got = run_block<gr_complex, gr_complex>(
        ofdm_fft::make(4, { 1 }, false, 1.0f, 0, "cpu"), x, {}, 1, 4);
    const std::vector<gr_complex> want = { 1, { 0, -1 }, -1, { 0, 1 } };
    EXPECT_TRUE(near_rms(got.data, want, 1e-6));
    const auto x2 = random_complex(80 * 100 + 37, 601);
    const auto a = run_fft(x2, 64, { 16 }, "cpu", 0);
    EXPECT_EQ(a.data.size(), 100u * 64);
    EXPECT_EQ(run_fft(x2, 64, { 16 }, "cpu", 7).data, a.data);
    const std::vector<std::string> want_tags = { "0 k 0", "0 k 15", "0 k 16", "1 k 159",
                                                 "50 k 4018" };
    EXPECT_EQ(tag_strings(a.tags), want_tags); // the one in the dropped tail goes
}

TEST(OfdmIfftBlock, CpuRoundTripThroughFftWithCpList)
{
    const std::vector<int> cps = { 10, 9, 9 };
    const auto bins = random_complex(128 * 31, 602);
    const auto tx = run_ifft(bins, 128, cps, "cpu", 0, 1.0f / 16);
    EXPECT_EQ(tx.data.size(), 31u * 128 + 11 * 10 + 20 * 9);
    EXPECT_EQ(run_ifft(bins, 128, cps, "cpu", 5, 1.0f / 16).data, tx.data);
    const auto rx = run_fft(tx.data, 128, cps, "cpu", 0, true, 1.0f / 8);
    EXPECT_TRUE(near_rms(rx.data, bins, 1e-5));
}

TEST(OfdmFftBlock, CudaMatchesCpu)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    for (const auto& [fft_len, cps] :
         { std::make_pair(64, std::vector<int>{ 16 }),
           std::make_pair(2048, std::vector<int>{ 160, 144, 144, 144, 144, 144, 144 }) }) {
        const size_t sym = size_t(fft_len) + size_t(cps[0]);
        const auto x = random_complex(fft_len == 64 ? 80 * 5000 + 11 : sym * 60 + 100, 603);
        const auto want = run_fft(x, fft_len, cps, "cpu", 0);
        for (int batch : { 0, 1, 7, 1000 }) {
            SCOPED_TRACE("fft_len " + std::to_string(fft_len) + " batch " + std::to_string(batch));
            const auto got = run_fft(x, fft_len, cps, gpu_device(), batch);
            EXPECT_TRUE(near_rms(got.data, want.data, tol_rms));
            EXPECT_EQ(tag_strings(got.tags), tag_strings(want.tags));
        }
    }
}

TEST(OfdmFftBlock, CudaMatchesCpuWithoutPinnedBuffers)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    scoped_env no_pin("GPUOFDM_PIN_BUFFERS", "0");
    const auto x = random_complex(80 * 20000 + 11, 604);
    const auto want = run_fft(x, 64, { 16 }, "cpu", 0);
    for (int batch : { 0, 7, 1000 }) {
        SCOPED_TRACE("batch " + std::to_string(batch));
        const auto got = run_fft(x, 64, { 16 }, gpu_device(), batch);
        EXPECT_TRUE(near_rms(got.data, want.data, tol_rms));
        EXPECT_EQ(tag_strings(got.tags), tag_strings(want.tags));
    }
}

TEST(OfdmIfftBlock, CudaMatchesCpuWithCpList)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    for (const auto& [fft_len, cps] :
         { std::make_pair(64, std::vector<int>{ 16 }),
           std::make_pair(128, std::vector<int>{ 10, 9, 9, 9, 9, 9, 9 }) }) {
        const auto bins = random_complex(size_t(fft_len) * 3001, 605);
        const auto want = run_ifft(bins, fft_len, cps, "cpu", 0);
        for (int batch : { 0, 1, 7, 1000 }) {
            SCOPED_TRACE("fft_len " + std::to_string(fft_len) + " batch " + std::to_string(batch));
            const auto got = run_ifft(bins, fft_len, cps, gpu_device(), batch);
            EXPECT_TRUE(near_rms(got.data, want.data, tol_rms));
            EXPECT_EQ(tag_strings(got.tags), tag_strings(want.tags));
        }
    }
}

// ---------------------------------------------------------------- mapper_bc / demapper_cf

const char* const modulations[] = { "BPSK", "QPSK", "16QAM", "64QAM" };

flow_out<gr_complex> run_mapper(const std::string& mod,
                                const std::vector<uint8_t>& bits,
                                const std::string& device,
                                int batch)
{
    const std::vector<gr::tag_t> tags = { make_tag(0, "m", pmt::from_long(0)),
                                          make_tag(13, "m", pmt::from_long(13)),
                                          make_tag(bits.size() - 1, "m", pmt::from_long(1)) };
    return run_block<uint8_t, gr_complex>(mapper_bc::make(mod, batch, device), bits, tags);
}

flow_out<float> run_demapper(const std::string& mod,
                             const std::vector<gr_complex>& y,
                             bool hard,
                             const std::string& device,
                             int batch)
{
    const std::vector<gr::tag_t> tags = { make_tag(0, "m", pmt::from_long(0)),
                                          make_tag(y.size() - 1, "m", pmt::from_long(1)) };
    return run_block<gr_complex, float>(demapper_cf::make(mod, 0.3f, hard, batch, device), y, tags);
}

TEST(MapperDemapperBlocks, CpuPointsFromTheTableAndHardDemappingGivesTheBitsBack)
{
    for (const char* mod : modulations) {
        SCOPED_TRACE(mod);
        auto mapper = mapper_bc::make(mod, 0, "cpu");
        const int bpp = mapper->bits_per_point();
        const auto table = mapper->points();
        const size_t n_pts = 1001;
        const auto bits = random_bits(n_pts * size_t(bpp) + size_t(bpp - 1), 701); // + partial
        const auto pts = run_mapper(mod, bits, "cpu", 0);
        ASSERT_EQ(pts.data.size(), n_pts);
        std::vector<gr_complex> want(n_pts);
        for (size_t i = 0; i < n_pts; i++) {
            int label = 0;
            for (int b = 0; b < bpp; b++)
                label = label * 2 + bits[i * size_t(bpp) + size_t(b)];
            want[i] = table[size_t(label)];
        }
        EXPECT_EQ(pts.data, want);
        EXPECT_EQ(run_mapper(mod, bits, "cpu", 7).data, pts.data);
        const auto hard = run_demapper(mod, pts.data, true, "cpu", 0);
        ASSERT_EQ(hard.data.size(), n_pts * size_t(bpp));
        for (size_t i = 0; i < hard.data.size(); i++)
            ASSERT_EQ(hard.data[i], bits[i] ? -1.0f : 1.0f) << "bit " << i;
        const auto soft = run_demapper(mod, pts.data, false, "cpu", 0);
        for (size_t i = 0; i < soft.data.size(); i++)
            ASSERT_EQ(soft.data[i] < 0, bits[i] == 1) << "LLR " << i;
        EXPECT_EQ(tag_strings(soft.tags).size(), 2u);
    }
}

TEST(MapperDemapperBlocks, CudaMatchesCpu)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    const auto y = random_complex(50001, 702);
    for (const char* mod : modulations) {
        const int bpp = mapper_bc::make(mod, 0, "cpu")->bits_per_point();
        const auto bits = random_bits(size_t(bpp) * 100003 + size_t(bpp - 1), 703);
        const auto want = run_mapper(mod, bits, "cpu", 0);
        const auto want_soft = run_demapper(mod, y, false, "cpu", 0);
        const auto want_hard = run_demapper(mod, y, true, "cpu", 0);
        for (int batch : { 0, 7, 1000, 65536 }) {
            SCOPED_TRACE(std::string(mod) + " batch " + std::to_string(batch));
            const auto got = run_mapper(mod, bits, gpu_device(), batch);
            EXPECT_TRUE(near_rms(got.data, want.data, tol_rms));
            EXPECT_EQ(tag_strings(got.tags), tag_strings(want.tags));
            const auto soft = run_demapper(mod, y, false, gpu_device(), batch);
            EXPECT_TRUE(near_rms(soft.data, want_soft.data, tol_rms));
            EXPECT_EQ(tag_strings(soft.tags), tag_strings(want_soft.tags));
            const auto hard = run_demapper(mod, y, true, gpu_device(), batch);
            EXPECT_EQ(hard.data, want_hard.data);
            EXPECT_EQ(tag_strings(hard.tags), tag_strings(want_hard.tags));
        }
    }
}

// ---------------------------------------------------------------- wifi_tx / wimax_tx

pmt::pmt_t make_pdu(const std::vector<uint8_t>& data, const std::map<std::string, long>& meta)
{
    pmt::pmt_t d = pmt::make_dict();
    for (const auto& [k, v] : meta)
        d = pmt::dict_add(d, pmt::mp(k), pmt::from_long(v));
    return pmt::cons(d, pmt::init_u8vector(data.size(), data));
}

struct start_tag {
    uint64_t offset;
    long n_samples;
};

std::vector<start_tag> start_tags(const std::vector<gr::tag_t>& tags, const std::string& key)
{
    std::vector<start_tag> out;
    for (const auto& t : tags)
        if (pmt::symbol_to_string(t.key) == key)
            out.push_back({ t.offset, pmt::to_long(pmt::dict_ref(t.value, pmt::mp("n_samples"),
                                                                 pmt::PMT_NIL)) });
    std::sort(out.begin(), out.end(),
              [](const start_tag& a, const start_tag& b) { return a.offset < b.offset; });
    return out;
}

// Each frame/burst within tol_rms of its own RMS; the gaps exactly zero.
void expect_frames_match(const flow_out<gr_complex>& got,
                         const flow_out<gr_complex>& want,
                         const std::string& key)
{
    ASSERT_EQ(got.data.size(), want.data.size());
    EXPECT_EQ(tag_strings(got.tags), tag_strings(want.tags));
    const auto frames = start_tags(want.tags, key);
    std::vector<bool> in_frame(want.data.size(), false);
    for (const auto& f : frames) {
        EXPECT_TRUE(near_rms(got.data, want.data, tol_rms, f.offset, size_t(f.n_samples)))
            << key << " at " << f.offset;
        for (size_t i = f.offset; i < f.offset + size_t(f.n_samples) && i < in_frame.size(); i++)
            in_frame[i] = true;
    }
    for (size_t i = 0; i < got.data.size(); i++)
        if (!in_frame[i]) {
            ASSERT_EQ(got.data[i], gr_complex(0)) << "gap sample " << i;
        }
}

const int wifi_rates[] = { 6, 9, 12, 18, 24, 36, 48, 54 };
const std::map<int, int> wifi_n_dbps = { { 6, 24 },  { 9, 36 },   { 12, 48 },  { 18, 72 },
                                         { 24, 96 }, { 36, 144 }, { 48, 192 }, { 54, 216 } };

std::vector<pmt::pmt_t> wifi_pdus(size_t n,
                                  uint32_t seed,
                                  std::vector<size_t>* lens = nullptr,
                                  std::vector<int>* rates = nullptr)
{
    std::mt19937 rng(seed);
    std::vector<pmt::pmt_t> msgs;
    for (size_t i = 0; i < n; i++) {
        const size_t len = 1 + rng() % 1500;
        const int rate = wifi_rates[i % 8];
        msgs.push_back(make_pdu(random_bytes(len, seed + uint32_t(i)), { { "rate", rate } }));
        if (lens)
            lens->push_back(len);
        if (rates)
            rates->push_back(rate);
    }
    return msgs;
}

TEST(WifiTxBlock, CpuFrameLengthsTagsAndGaps)
{
    std::vector<size_t> lens;
    std::vector<int> rates;
    const auto msgs = wifi_pdus(16, 801, &lens, &rates);
    const int gap = 123;
    auto blk = wifi_tx::make(54, 0, gap, 8.87520336f, 5, "cpu");
    const auto out = run_pdus(blk, msgs);
    const auto tags = start_tags(out.tags, "wifi_start");
    ASSERT_EQ(tags.size(), msgs.size());
    uint64_t pos = 0;
    for (size_t i = 0; i < msgs.size(); i++) {
        const long n_sym =
            (16 + 8 * long(lens[i]) + 6 + wifi_n_dbps.at(rates[i]) - 1) / wifi_n_dbps.at(rates[i]);
        const long n = 320 + 80 * (1 + n_sym) + 1;
        EXPECT_EQ(tags[i].offset, pos) << "frame " << i;
        EXPECT_EQ(tags[i].n_samples, n) << "frame " << i;
        pos += uint64_t(n + gap);
    }
    EXPECT_EQ(out.data.size(), pos);
    EXPECT_EQ(blk->frames_sent(), msgs.size());
    // The batch size changes nothing.
    const auto one = run_pdus(wifi_tx::make(54, 0, gap, 8.87520336f, 1, "cpu"), msgs);
    EXPECT_EQ(one.data, out.data);
    EXPECT_EQ(tag_strings(one.tags), tag_strings(out.tags));
}

TEST(WifiTxBlock, CudaMatchesCpuAtEveryRateWithBatching)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    auto msgs = wifi_pdus(100, 802);
    msgs.push_back(make_pdu(random_bytes(4095, 803), { { "rate", 6 } }));
    msgs.push_back(make_pdu(random_bytes(1, 804), { { "rate", 54 }, { "seed", 5 } }));
    const auto want = run_pdus(wifi_tx::make(54, 0, 400, 8.87520336f, 64, "cpu"), msgs);
    for (int batch : { 1, 5, 16, 64 }) {
        SCOPED_TRACE("max_frames_per_batch " + std::to_string(batch));
        auto blk = wifi_tx::make(54, 0, 400, 8.87520336f, batch, gpu_device());
        EXPECT_EQ(blk->device(), gpu_device_name());
        const auto got = run_pdus(blk, msgs);
        expect_frames_match(got, want, "wifi_start");
        EXPECT_EQ(blk->frames_sent(), msgs.size());
    }
}

struct wimax_config {
    int cp_div;
    std::string preamble;
    bool uplink, pad;
};
const wimax_config wimax_configs[] = { { 4, "long", false, true },
                                       { 8, "short", true, true },
                                       { 32, "none", false, false } };

std::vector<pmt::pmt_t> wimax_pdus(size_t n, uint32_t seed)
{
    // Odd PDUs fill whole RS blocks (K of Table 215 per rate_id, less the tail byte), so
    // pad = false keeps them; the even ones, of any length, it drops (on both devices).
    static const size_t block[7] = { 12, 24, 36, 48, 72, 96, 108 };
    std::mt19937 rng(seed);
    std::vector<pmt::pmt_t> msgs;
    for (size_t i = 0; i < n; i++) {
        const size_t len = i % 2 ? block[i % 7] * (1 + rng() % 12) - 1 : 1 + rng() % 1500;
        msgs.push_back(
            make_pdu(random_bytes(len, seed + uint32_t(i)), { { "rate_id", long(i % 7) } }));
    }
    return msgs;
}

wimax_tx::sptr make_wimax(const wimax_config& c, int batch, const std::string& device)
{
    return wimax_tx::make(1, c.cp_div, c.preamble, c.uplink, c.pad, 19072, 100, 18.1019336f, batch,
                          device);
}

TEST(WimaxTxBlock, CpuBurstTagsCoverTheOutputAndBatchChangesNothing)
{
    const auto msgs = wimax_pdus(14, 901);
    for (const auto& c : wimax_configs) {
        SCOPED_TRACE("cp_div " + std::to_string(c.cp_div) + " " + c.preamble);
        auto blk = make_wimax(c, 8, "cpu");
        const auto out = run_pdus(blk, msgs);
        const auto tags = start_tags(out.tags, "wimax_start");
        ASSERT_FALSE(tags.empty());
        uint64_t pos = 0;
        for (const auto& t : tags) {
            EXPECT_EQ(t.offset, pos);
            pos += uint64_t(t.n_samples + 100);
        }
        EXPECT_EQ(out.data.size(), pos);
        EXPECT_EQ(blk->bursts_sent(), tags.size());
        const auto one = run_pdus(make_wimax(c, 1, "cpu"), msgs);
        EXPECT_EQ(one.data, out.data);
        EXPECT_EQ(tag_strings(one.tags), tag_strings(out.tags));
    }
}

TEST(WimaxTxBlock, CudaMatchesCpuEveryProfile)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    const auto msgs = wimax_pdus(30, 902);
    for (const auto& c : wimax_configs) {
        const auto want = run_pdus(make_wimax(c, 64, "cpu"), msgs);
        for (int batch : { 1, 8, 64 }) {
            SCOPED_TRACE("cp_div " + std::to_string(c.cp_div) + " " + c.preamble +
                         " max_bursts_per_batch " + std::to_string(batch));
            auto blk = make_wimax(c, batch, gpu_device());
            EXPECT_EQ(blk->device(), gpu_device_name());
            const auto got = run_pdus(blk, msgs);
            expect_frames_match(got, want, "wimax_start");
        }
    }
}

} // namespace
