/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The integer blocks (scrambler_bb, conv_encoder_bb, interleaver_bb/ff, rs_encoder_bb,
// rs_decoder_bb, viterbi_decoder_fb) in C++ flowgraphs: CUDA bit-exact against the CPU
// twin with small batches and partial ends, tags too; CPU properties (round trips, batch
// independence) that run without a GPU.

#include "block_test_util.h"

#include <gnuradio/gpuofdm/conv_encoder_bb.h>
#include <gnuradio/gpuofdm/interleaver_bb.h>
#include <gnuradio/gpuofdm/interleaver_ff.h>
#include <gnuradio/gpuofdm/rs_decoder_bb.h>
#include <gnuradio/gpuofdm/rs_encoder_bb.h>
#include <gnuradio/gpuofdm/scrambler_bb.h>
#include <gnuradio/gpuofdm/viterbi_decoder_fb.h>

#include <tuple>

using namespace gr::gpuofdm;
using namespace gr::gpuofdm::block_test;

namespace {

// ---------------------------------------------------------------- scrambler_bb

struct scrambler_case {
    std::string standard;
    int seed;
};

flow_out<uint8_t> run_scrambler(const scrambler_case& c,
                                const std::vector<uint8_t>& bits,
                                const std::vector<gr::tag_t>& tags,
                                const std::string& device,
                                int batch)
{
    return run_block<uint8_t, uint8_t>(
        scrambler_bb::make(c.standard, c.seed, "frame", batch, device), bits, tags);
}

std::vector<gr::tag_t> frame_tags(std::initializer_list<uint64_t> offsets)
{
    std::vector<gr::tag_t> tags;
    for (auto o : offsets)
        tags.push_back(make_tag(o, "frame", pmt::from_long(long(o))));
    return tags;
}

const scrambler_case scrambler_cases[] = { { "802.11a", 93 }, { "802.16", 0x4A80 } };

TEST(ScramblerBlock, CpuScramblingTwiceIsIdentityAndBatchIndependent)
{
    const auto bits = random_bits(20011, 101);
    const auto tags = frame_tags({ 0, 17, 4096, 10000, 20010 });
    for (const auto& c : scrambler_cases) {
        SCOPED_TRACE(c.standard);
        const auto once = run_scrambler(c, bits, tags, "cpu", 0);
        ASSERT_EQ(once.data.size(), bits.size());
        EXPECT_NE(once.data, bits);
        EXPECT_EQ(tag_strings(once.tags), tag_strings(tags));
        const auto twice = run_scrambler(c, once.data, tags, "cpu", 0);
        EXPECT_EQ(twice.data, bits);
        EXPECT_EQ(run_scrambler(c, bits, tags, "cpu", 1000).data, once.data);
    }
}

TEST(ScramblerBlock, CudaMatchesCpu)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    const auto bits = random_bits(200003, 102);
    const auto tags = frame_tags({ 0, 17, 65536, 100000, 199999 });
    for (const auto& c : scrambler_cases) {
        const auto want = run_scrambler(c, bits, tags, "cpu", 0);
        for (int batch : { 0, 1000, 4096 }) {
            SCOPED_TRACE(c.standard + " batch " + std::to_string(batch));
            const auto got = run_scrambler(c, bits, tags, gpu_device(), batch);
            EXPECT_EQ(got.data, want.data);
            EXPECT_EQ(tag_strings(got.tags), tag_strings(want.tags));
        }
    }
}

// ---------------------------------------------------------------- conv_encoder_bb

std::vector<gr::tag_t> len_tags(const std::vector<int>& frames, const std::string& key)
{
    std::vector<gr::tag_t> tags;
    uint64_t off = 0;
    for (int n : frames) {
        tags.push_back(make_tag(off, key, pmt::from_long(n)));
        off += uint64_t(n);
    }
    return tags;
}

size_t total(const std::vector<int>& frames)
{
    size_t s = 0;
    for (int n : frames)
        s += size_t(n);
    return s;
}

// frames empty: continuous stream.
flow_out<uint8_t> run_conv(const std::string& standard,
                           const std::string& rate,
                           const std::vector<int>& frames,
                           const std::vector<uint8_t>& bits,
                           const std::string& device,
                           int batch,
                           conv_encoder_bb::sptr* keep = nullptr)
{
    auto tags = frames.empty() ? std::vector<gr::tag_t>{} : len_tags(frames, "packet_len");
    tags.push_back(make_tag(bits.size() / 2 + 1, "mark", pmt::from_long(5)));
    auto blk =
        conv_encoder_bb::make(standard, rate, frames.empty() ? "" : "packet_len", batch, device);
    if (keep)
        *keep = blk;
    return run_block<uint8_t, uint8_t>(blk, bits, tags);
}

const std::tuple<std::string, std::string> conv_rates[] = {
    { "802.11a", "1/2" }, { "802.11a", "2/3" }, { "802.11a", "3/4" }, { "802.16", "5/6" }
};

TEST(ConvEncoderBlock, CpuFrameLengthsAndBatchIndependence)
{
    const std::vector<int> frames = { 1, 2, 999, 4096, 1234, 7 };
    const auto bits = random_bits(total(frames), 201);
    for (const auto& [standard, rate] : conv_rates) {
        SCOPED_TRACE(standard + " " + rate);
        conv_encoder_bb::sptr blk;
        const auto framed = run_conv(standard, rate, frames, bits, "cpu", 0, &blk);
        std::vector<std::string> want_len;
        uint64_t out = 0;
        for (int n : frames) {
            want_len.push_back(std::to_string(out) + " packet_len " +
                               std::to_string(blk->output_len(n)));
            out += uint64_t(blk->output_len(n));
        }
        EXPECT_EQ(framed.data.size(), out);
        EXPECT_EQ(tag_strings(framed.tags, "packet_len"), want_len);
        EXPECT_EQ(run_conv(standard, rate, frames, bits, "cpu", 100).data, framed.data);
        const auto stream = run_conv(standard, rate, {}, bits, "cpu", 0);
        EXPECT_EQ(run_conv(standard, rate, {}, bits, "cpu", 4099).data, stream.data);
        EXPECT_EQ(tag_strings(stream.tags, "mark").size(), 1u);
    }
}

TEST(ConvEncoderBlock, CpuEncodeThenViterbiIsIdentity)
{
    // A stream that ends in the 6 tail zeros, a whole number of puncturing periods.
    for (const auto& [standard, rate, steps] :
         { std::make_tuple("802.11a", "1/2", 3000), std::make_tuple("802.11a", "3/4", 3000),
           std::make_tuple("802.16", "2/3", 3000), std::make_tuple("802.16", "5/6", 3000) }) {
        SCOPED_TRACE(std::string(standard) + " " + rate);
        auto bits = random_bits(size_t(steps), 202);
        std::fill(bits.end() - 6, bits.end(), 0);
        const auto coded =
            run_block<uint8_t, uint8_t>(conv_encoder_bb::make(standard, rate, "", 0, "cpu"), bits)
                .data;
        std::vector<float> llr(coded.size());
        for (size_t i = 0; i < coded.size(); i++)
            llr[i] = coded[i] ? -4.0f : 4.0f;
        const auto back = run_block<float, uint8_t>(
            viterbi_decoder_fb::make(standard, rate, "stream", "", 0, "cpu"), llr);
        EXPECT_EQ(back.data, bits);
    }
}

TEST(ConvEncoderBlock, CudaMatchesCpuBothModes)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    const std::vector<int> frames = { 1, 2, 999, 4096, 12345, 7 };
    const auto bits = random_bits(total(frames), 203);
    for (const auto& [standard, rate] : conv_rates) {
        for (bool framed : { true, false }) {
            const auto& fr = framed ? frames : std::vector<int>{};
            const auto want = run_conv(standard, rate, fr, bits, "cpu", 0);
            for (int batch : { 0, 100, 4099 }) {
                SCOPED_TRACE(standard + " " + rate + (framed ? " frames" : " stream") + " batch " +
                             std::to_string(batch));
                const auto got = run_conv(standard, rate, fr, bits, gpu_device(), batch);
                EXPECT_EQ(got.data, want.data);
                EXPECT_EQ(tag_strings(got.tags), tag_strings(want.tags));
            }
        }
    }
}

// ---------------------------------------------------------------- interleaver_bb / _ff

const std::tuple<std::string, int, int> interleaver_modes[] = { { "802.11a", 48, 1 },
                                                                { "802.11a", 192, 4 },
                                                                { "802.11a", 288, 6 },
                                                                { "802.16", 192, 2 },
                                                                { "802.16", 1152, 6 } };

template <typename T>
flow_out<T> run_interleaver(const std::tuple<std::string, int, int>& m,
                            bool deinterleave,
                            const std::vector<T>& in,
                            const std::string& device,
                            int batch)
{
    const auto& [standard, n_cbps, n_bpsc] = m;
    const std::vector<gr::tag_t> tags = { make_tag(0, "mark", pmt::from_long(0)),
                                          make_tag(size_t(n_cbps) + 5, "mark", pmt::from_long(1)),
                                          make_tag(in.size() - 3, "mark", pmt::from_long(2)) };
    gr::basic_block_sptr blk;
    if constexpr (std::is_same_v<T, float>)
        blk = interleaver_ff::make(standard, n_cbps, n_bpsc, deinterleave, batch, device);
    else
        blk = interleaver_bb::make(standard, n_cbps, n_bpsc, deinterleave, batch, device);
    return run_block<T, T>(blk, in, tags);
}

TEST(InterleaverBlock, CpuRoundTripIsIdentityAndPartialSymbolDropped)
{
    for (const auto& m : interleaver_modes) {
        const int n_cbps = std::get<1>(m);
        SCOPED_TRACE(std::get<0>(m) + " " + std::to_string(n_cbps));
        const auto bits = random_bits(size_t(n_cbps) * 21 + 5, 301);
        const auto il = run_interleaver<uint8_t>(m, false, bits, "cpu", 0);
        ASSERT_EQ(il.data.size(), size_t(n_cbps) * 21);
        EXPECT_EQ(run_interleaver<uint8_t>(m, false, bits, "cpu", 1).data, il.data);
        const auto de = run_interleaver<uint8_t>(m, true, il.data, "cpu", 7);
        EXPECT_EQ(de.data, std::vector<uint8_t>(bits.begin(), bits.end() - 5));
        EXPECT_EQ(tag_strings(il.tags, "mark").size(), 2u); // the one in the dropped tail goes
    }
}

TEST(InterleaverBlock, CudaMatchesCpu)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    for (const auto& m : interleaver_modes) {
        const int n_cbps = std::get<1>(m);
        const auto bits = random_bits(size_t(n_cbps) * 2001 + 7, 302);
        const auto llr = random_floats(size_t(n_cbps) * 2001 + 7, 303);
        for (bool deint : { false, true }) {
            const auto want = run_interleaver<uint8_t>(m, deint, bits, "cpu", 0);
            for (int batch : { 0, 1, 100 }) {
                SCOPED_TRACE(std::get<0>(m) + " " + std::to_string(n_cbps) +
                             (deint ? " deinterleave" : " interleave") + " batch " +
                             std::to_string(batch));
                const auto got = run_interleaver<uint8_t>(m, deint, bits, gpu_device(), batch);
                EXPECT_EQ(got.data, want.data);
                EXPECT_EQ(tag_strings(got.tags), tag_strings(want.tags));
            }
        }
        SCOPED_TRACE(std::get<0>(m) + " " + std::to_string(n_cbps) + " soft");
        const auto want = run_interleaver<float>(m, true, llr, "cpu", 0);
        const auto got = run_interleaver<float>(m, true, llr, gpu_device(), 7);
        EXPECT_EQ(got.data, want.data);
        EXPECT_EQ(tag_strings(got.tags), tag_strings(want.tags));
    }
}

// ---------------------------------------------------------------- rs_encoder_bb / decoder

struct rs_profile {
    int n, k, t;
};
const rs_profile rs_profiles[] = { { 40, 36, 2 }, { 64, 48, 8 }, { 120, 108, 6 } };

// Errors in codeword cw: cw % (t + 1) (all correctable), and t + 3 in every 13th.
std::vector<uint8_t> with_errors(std::vector<uint8_t> coded, const rs_profile& p, uint32_t seed)
{
    std::mt19937 rng(seed);
    const size_t n_cw = coded.size() / size_t(p.n);
    for (size_t cw = 0; cw < n_cw; cw++) {
        const int e = cw % 13 == 7 ? p.t + 3 : int(cw % size_t(p.t + 1));
        std::vector<int> pos(size_t(p.n));
        for (int i = 0; i < p.n; i++)
            pos[size_t(i)] = i;
        std::shuffle(pos.begin(), pos.end(), rng);
        for (int i = 0; i < e; i++)
            coded[cw * size_t(p.n) + size_t(pos[size_t(i)])] ^= uint8_t(1 + rng() % 255);
    }
    return coded;
}

TEST(ReedSolomonBlocks, CpuDecodeCorrectsUpToTAndTagsTheRest)
{
    for (const auto& p : rs_profiles) {
        SCOPED_TRACE(std::to_string(p.n) + "," + std::to_string(p.k) + "," + std::to_string(p.t));
        const size_t n_cw = 40;
        const auto data = random_bytes(n_cw * size_t(p.k) + 5, 401); // partial end held
        const auto coded =
            run_block<uint8_t, uint8_t>(rs_encoder_bb::make(p.n, p.k, p.t, 0, "cpu"), data).data;
        ASSERT_EQ(coded.size(), n_cw * size_t(p.n));
        const auto coded3 =
            run_block<uint8_t, uint8_t>(rs_encoder_bb::make(p.n, p.k, p.t, 3, "cpu"), data).data;
        EXPECT_EQ(coded3, coded);
        auto dec = rs_decoder_bb::make(p.n, p.k, p.t, 0, "cpu");
        const auto out = run_block<uint8_t, uint8_t>(dec, with_errors(coded, p, 402));
        ASSERT_EQ(out.data.size(), n_cw * size_t(p.k));
        for (size_t cw = 0; cw < n_cw; cw++) {
            if (cw % 13 == 7)
                continue;
            EXPECT_TRUE(std::equal(data.begin() + long(cw) * p.k, data.begin() + long(cw + 1) * p.k,
                                   out.data.begin() + long(cw) * p.k))
                << "codeword " << cw;
        }
        EXPECT_EQ(dec->codewords(), n_cw);
        EXPECT_EQ(dec->uncorrectable(), tag_strings(out.tags, "rs_uncorrectable").size());
    }
}

TEST(ReedSolomonBlocks, CudaMatchesCpu)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    for (const auto& p : rs_profiles) {
        const size_t n_cw = 3001;
        const auto data = random_bytes(n_cw * size_t(p.k) + 11, 403);
        const auto enc_want =
            run_block<uint8_t, uint8_t>(rs_encoder_bb::make(p.n, p.k, p.t, 0, "cpu"), data);
        const auto noisy = with_errors(enc_want.data, p, 404);
        auto dec_cpu = rs_decoder_bb::make(p.n, p.k, p.t, 0, "cpu");
        const auto dec_want = run_block<uint8_t, uint8_t>(dec_cpu, noisy);
        for (int batch : { 0, 7, 1000 }) {
            SCOPED_TRACE(std::to_string(p.n) + "," + std::to_string(p.k) + "," +
                         std::to_string(p.t) + " batch " + std::to_string(batch));
            const auto enc = run_block<uint8_t, uint8_t>(
                rs_encoder_bb::make(p.n, p.k, p.t, batch, gpu_device()), data);
            EXPECT_EQ(enc.data, enc_want.data);
            auto dec_gpu = rs_decoder_bb::make(p.n, p.k, p.t, batch, gpu_device());
            const auto dec = run_block<uint8_t, uint8_t>(dec_gpu, noisy);
            EXPECT_EQ(dec.data, dec_want.data);
            EXPECT_EQ(tag_strings(dec.tags), tag_strings(dec_want.tags));
            EXPECT_EQ(dec_gpu->corrected_bytes(), dec_cpu->corrected_bytes());
            EXPECT_EQ(dec_gpu->uncorrectable(), dec_cpu->uncorrectable());
        }
    }
}

// ---------------------------------------------------------------- viterbi_decoder_fb

struct viterbi_rate {
    std::string standard, rate;
    int kept;  // LLRs per puncturing period
    int steps; // steps per period
};
const viterbi_rate viterbi_rates[] = { { "802.11a", "1/2", 2, 1 },
                                       { "802.11a", "2/3", 3, 2 },
                                       { "802.11a", "3/4", 4, 3 },
                                       { "802.16", "5/6", 6, 5 } };

flow_out<uint8_t> run_viterbi_stream(const viterbi_rate& r,
                                     const std::vector<float>& llr,
                                     const std::string& device,
                                     int batch,
                                     int max_noutput = 0)
{
    const std::vector<gr::tag_t> tags = { make_tag(4321, "mark", pmt::from_long(1)),
                                          make_tag(llr.size() - 1, "mark", pmt::from_long(2)) };
    return run_block<float, uint8_t>(
        viterbi_decoder_fb::make(r.standard, r.rate, "stream", "", batch, device), llr, tags, 1, 1,
        max_noutput);
}

// Frames of whole periods, of mixed lengths, one bad (not whole periods: dropped).
std::vector<int> viterbi_frames(const viterbi_rate& r)
{
    return { 300 * r.kept, 300 * r.kept,  450 * r.kept, 100 * r.kept + 1,
             7 * r.kept,   2000 * r.kept, 300 * r.kept };
}

flow_out<uint8_t> run_viterbi_frames(const viterbi_rate& r,
                                     const std::vector<float>& llr,
                                     const std::vector<int>& frames,
                                     const std::string& device,
                                     int batch)
{
    auto tags = len_tags(frames, "packet_len");
    uint64_t off = 0;
    for (size_t i = 0; i < frames.size(); i++) {
        tags.push_back(make_tag(off + 7, "mark", pmt::from_long(long(i))));
        off += uint64_t(frames[i]);
    }
    return run_block<float, uint8_t>(
        viterbi_decoder_fb::make(r.standard, r.rate, "frame", "packet_len", batch, device), llr,
        tags);
}

TEST(ViterbiBlock, CpuStreamIndependentOfCallSizesAndBatch)
{
    for (const auto& r : viterbi_rates) {
        SCOPED_TRACE(r.standard + " " + r.rate);
        const auto llr = random_floats(size_t(6000 * r.kept + 1), 501, 2.0f);
        const auto ref = run_viterbi_stream(r, llr, "cpu", 0);
        EXPECT_EQ(ref.data.size(), size_t(6000 * r.steps));
        EXPECT_EQ(tag_strings(ref.tags, "mark").size(), 2u);
        const auto small = run_viterbi_stream(r, llr, "cpu", 576, 1024);
        EXPECT_EQ(small.data, ref.data);
        EXPECT_EQ(tag_strings(small.tags), tag_strings(ref.tags));
    }
}

TEST(ViterbiBlock, CpuFramesDecodedOneByOne)
{
    const auto& r = viterbi_rates[2]; // 3/4
    const auto frames = viterbi_frames(r);
    const auto llr = random_floats(total(frames), 502, 2.0f);
    const auto all = run_viterbi_frames(r, llr, frames, "cpu", 0);
    std::vector<uint8_t> want;
    size_t pos = 0;
    for (int n : frames) {
        if (n % r.kept == 0) {
            const std::vector<float> one(llr.begin() + long(pos), llr.begin() + long(pos + n));
            const auto d = run_viterbi_frames(r, one, { n }, "cpu", 0).data;
            EXPECT_EQ(d.size(), size_t(n / r.kept * r.steps));
            want.insert(want.end(), d.begin(), d.end());
        }
        pos += size_t(n);
    }
    EXPECT_EQ(all.data, want);
    EXPECT_EQ(tag_strings(all.tags, "packet_len").size(), frames.size() - 1);
}

TEST(ViterbiBlock, CudaMatchesCpuStreamAndFrames)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    for (const auto& r : viterbi_rates) {
        const auto llr = random_floats(size_t(30000 * r.kept + 1), 503, 1.5f, 1.0f);
        const auto want = run_viterbi_stream(r, llr, "cpu", 0);
        const auto frames = viterbi_frames(r);
        const auto fllr = random_floats(total(frames), 504, 1.5f, 1.0f);
        for (int batch : { 0, 576, 1 << 14 }) {
            SCOPED_TRACE(r.standard + " " + r.rate + " batch " + std::to_string(batch));
            const auto got = run_viterbi_stream(r, llr, gpu_device(), batch);
            EXPECT_EQ(got.data, want.data);
            EXPECT_EQ(tag_strings(got.tags), tag_strings(want.tags));
            // A frame longer than batch steps is dropped: the twin runs with the same batch.
            const auto fwant = run_viterbi_frames(r, fllr, frames, "cpu", batch);
            const auto fgot = run_viterbi_frames(r, fllr, frames, gpu_device(), batch);
            EXPECT_EQ(fgot.data, fwant.data);
            EXPECT_EQ(tag_strings(fgot.tags), tag_strings(fwant.tags));
        }
        SCOPED_TRACE(r.standard + " " + r.rate + " short calls");
        EXPECT_EQ(run_viterbi_stream(r, llr, gpu_device(), 576, 1024).data, want.data);
    }
}

TEST(ViterbiBlock, CudaMatchesCpuWithoutPinnedBuffers)
{
    GPUOFDM_BLOCKS_REQUIRE_GPU();
    scoped_env no_pin("GPUOFDM_PIN_BUFFERS", "0");
    const auto& r = viterbi_rates[0];
    const auto llr = random_floats(size_t(50000 * r.kept + 1), 505, 1.5f, 1.0f);
    const auto want = run_viterbi_stream(r, llr, "cpu", 0);
    for (int batch : { 0, 4096 }) {
        SCOPED_TRACE("batch " + std::to_string(batch));
        const auto got = run_viterbi_stream(r, llr, gpu_device(), batch);
        EXPECT_EQ(got.data, want.data);
        EXPECT_EQ(tag_strings(got.tags), tag_strings(want.tags));
    }
}

} // namespace
