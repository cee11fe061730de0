/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// depuncturing_decoder (punctured values in, bits out) against the two steps it replaces,
// depuncturer::process() on the host then the Viterbi decoder, on the CPU twin; a stream cut
// into windows as the block cuts it; and its CUDA backend (depuncturing on the device, for
// frames and stream windows) against the CPU twin.

#include "fec/conv_encoder.h"
#include "fec/depuncture.h"
#include "fec/viterbi.h"
#include "test_util.h"

#include <algorithm>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gr::gpuofdm;
using core::viterbi_params;

namespace {

struct punctured_case {
    const char* protocol;
    core::phy_standard standard;
    core::code_rate rate;
};

const punctured_case cases[] = {
    { "80211a", core::phy_standard::ieee80211a, core::code_rate::r1_2 },
    { "80211a", core::phy_standard::ieee80211a, core::code_rate::r2_3 },
    { "80211a", core::phy_standard::ieee80211a, core::code_rate::r3_4 },
    { "80216", core::phy_standard::ieee80216, core::code_rate::r2_3 },
    { "80216", core::phy_standard::ieee80216, core::code_rate::r3_4 },
    { "80216", core::phy_standard::ieee80216, core::code_rate::r5_6 },
};

// n_frames terminated frames of frame_steps steps (random data, six zero tail bits), each
// encoded and punctured from the zero state, as noisy LLRs (positive for a 0 bit).
std::vector<float> noisy_frames(const punctured_case& c,
                                size_t frame_steps,
                                size_t n_frames,
                                unsigned seed)
{
    auto enc = core::make_conv_encoder({ c.standard, c.rate, 0 }, core::device_spec{});
    std::mt19937 gen(seed);
    std::normal_distribution<float> noise(0.0f, 0.8f);
    std::vector<uint8_t> bits(frame_steps), coded(2 * frame_steps);
    std::vector<float> llr;
    for (size_t f = 0; f < n_frames; f++) {
        for (size_t i = 0; i < frame_steps; i++)
            bits[i] = i + 6 < frame_steps ? uint8_t(gen() & 1u) : uint8_t(0);
        core::conv_encoder_state st;
        const size_t n = enc->process(bits.data(), coded.data(), frame_steps, st);
        for (size_t i = 0; i < n; i++)
            llr.push_back((coded[i] ? -1.0f : 1.0f) + noise(gen));
    }
    return llr;
}

//! Every protocol and rate the depuncturer knows, rate 1/2 included.
const punctured_case all_rates[] = {
    { "80211a", core::phy_standard::ieee80211a, core::code_rate::r1_2 },
    { "80211a", core::phy_standard::ieee80211a, core::code_rate::r2_3 },
    { "80211a", core::phy_standard::ieee80211a, core::code_rate::r3_4 },
    { "80211a", core::phy_standard::ieee80211a, core::code_rate::r5_6 },
    { "80216", core::phy_standard::ieee80216, core::code_rate::r1_2 },
    { "80216", core::phy_standard::ieee80216, core::code_rate::r2_3 },
    { "80216", core::phy_standard::ieee80216, core::code_rate::r3_4 },
    { "80216", core::phy_standard::ieee80216, core::code_rate::r5_6 },
};

/*!
 * A stream through depuncturing_decoder::decode_window() as the Viterbi block drives it:
 * the input arrives in random pieces (whole periods); each call gets the window from base
 * (whole periods, the next chunk's warm-up kept) to what has arrived and a random room
 * for bits (sometimes less than a chunk: nothing decoded), the last call the end. The
 * bits, and in \p counts what each call wrote.
 */
std::vector<uint8_t> stream_in_windows(core::depuncturing_decoder& dec,
                                       const std::vector<float>& in,
                                       bool zero_start,
                                       bool zero_end,
                                       unsigned seed,
                                       size_t max_piece,
                                       std::vector<size_t>& counts)
{
    const auto& pat = dec.pattern();
    const auto& vit = dec.decoder();
    const size_t L = vit.params().chunk_len, P = pat.period;
    const size_t total = in.size() / pat.kept; // periods
    std::vector<uint8_t> out(total * P, 2);
    std::mt19937 rng(seed);
    uint64_t base = 0, next_out = 0;
    size_t arrived = 0;
    counts.clear();
    while (true) {
        arrived = std::min(total, arrived + 1 + rng() % max_piece);
        const bool end = arrived == total;
        const size_t left = out.size() - size_t(next_out);
        size_t room = left;
        if (!end && rng() % 4 == 0)
            room = std::min(left, size_t(rng() % (3 * L)));
        const size_t first = size_t(base / P);
        const size_t n =
            dec.decode_window(in.data() + first * pat.kept, base, arrived - first, next_out,
                              zero_start, end, zero_end, out.data() + next_out, room);
        counts.push_back(n);
        next_out += n;
        base = std::max<uint64_t>(base, vit.window_begin(next_out) / P * P);
        if (end)
            break;
    }
    out.resize(size_t(next_out));
    return out;
}

viterbi_params params_of(const char* protocol, core::code_rate rate, size_t max_steps)
{
    auto p = viterbi_params::for_protocol(protocol, core::to_string(rate));
    p.max_steps = max_steps;
    return p;
}

} // namespace

TEST(depuncturing_decoder, frames_equal_host_depuncturing_then_decoding)
{
    const size_t frame_steps = 600; // whole periods of 1, 2, 3 and 5 steps
    for (const auto& c : cases) {
        SCOPED_TRACE(std::string(c.protocol) + " " + core::to_string(c.rate));
        // Three frames per launch: seven frames take three launches.
        const auto p = params_of(c.protocol, c.rate, 3 * frame_steps);
        const auto pattern = core::depuncture_pattern::make(c.protocol, core::to_string(c.rate));
        const auto in = noisy_frames(c, frame_steps, 7, 11);

        core::depuncturer dp(c.protocol, core::to_string(c.rate));
        std::vector<float> mother(dp.output_len(in.size()));
        dp.process(in.data(), in.size(), mother.data());
        std::vector<uint8_t> want(7 * frame_steps);
        core::make_viterbi_decoder(p, {})->decode_frames(mother.data(), mother.size(), frame_steps,
                                                         want.data());

        core::depuncturing_decoder dec(core::make_viterbi_decoder(p, {}), pattern);
        std::vector<uint8_t> got(want.size(), 2);
        dec.decode_frames(in.data(), in.size(), frame_steps, got.data());
        EXPECT_EQ(got, want);
    }
}

TEST(depuncturing_decoder, window_equals_host_depuncturing_then_decoding)
{
    for (const auto& c : cases) {
        SCOPED_TRACE(std::string(c.protocol) + " " + core::to_string(c.rate));
        const auto p = params_of(c.protocol, c.rate, size_t(1) << 14);
        const auto pattern = core::depuncture_pattern::make(c.protocol, core::to_string(c.rate));
        const auto in = noisy_frames(c, 3000, 1, 12);
        const size_t n_periods = in.size() / pattern.kept;

        core::depuncturer dp(c.protocol, core::to_string(c.rate));
        std::vector<float> mother(dp.output_len(in.size()));
        dp.process(in.data(), in.size(), mother.data());
        std::vector<uint8_t> want(3000 + p.chunk_len + p.traceback);
        const size_t n_want = core::make_viterbi_decoder(p, {})->decode_window(
            mother.data(), 0, mother.size() / 2, 0, true, true, true, want.data(), want.size());
        want.resize(n_want);

        core::depuncturing_decoder dec(core::make_viterbi_decoder(p, {}), pattern);
        std::vector<uint8_t> got(3000 + p.chunk_len + p.traceback, 2);
        got.resize(dec.decode_window(in.data(), 0, n_periods, 0, true, true, true, got.data(),
                                     got.size()));
        EXPECT_EQ(n_want, 3000u);
        EXPECT_EQ(got, want);
    }
}

TEST(depuncturing_decoder, rejects_partial_periods_and_frames)
{
    const auto pattern = core::depuncture_pattern::make("80211a", "3/4");
    core::depuncturing_decoder dec(
        core::make_viterbi_decoder(params_of("80211a", core::code_rate::r3_4, 4096), {}), pattern);
    std::vector<float> in(400);
    std::vector<uint8_t> out(400);
    // 100 steps are no whole number of 3-step periods; 101 values no whole number of 4.
    EXPECT_THROW(dec.decode_frames(in.data(), 100, 100, out.data()), std::invalid_argument);
    EXPECT_THROW(dec.decode_frames(in.data(), 101, 99, out.data()), std::invalid_argument);
}

TEST(depuncturing_decoder, cuda_depuncturing_on_the_device_matches_cpu)
{
    GPUOFDM_REQUIRE_GPU();
    const size_t frame_steps = 600;
    for (const auto& c : cases) {
        SCOPED_TRACE(std::string(c.protocol) + " " + core::to_string(c.rate));
        const auto p = params_of(c.protocol, c.rate, 3 * frame_steps);
        const auto pattern = core::depuncture_pattern::make(c.protocol, core::to_string(c.rate));
        const auto in = noisy_frames(c, frame_steps, 7, 13);

        core::depuncturing_decoder cpu(core::make_viterbi_decoder(p, {}), pattern);
        std::vector<uint8_t> want(7 * frame_steps);
        cpu.decode_frames(in.data(), in.size(), frame_steps, want.data());

        core::depuncturing_decoder gpu(core::make_viterbi_decoder(p, core::resolve_device("cuda")),
                                       pattern);
        std::vector<uint8_t> got(want.size(), 2);
        gpu.decode_frames(in.data(), in.size(), frame_steps, got.data());
        EXPECT_EQ(got, want);
    }
}

TEST(depuncturing_decoder, window_stream_in_pieces_equals_one_window)
{
    // The CPU twin: the bits do not depend on how the block cuts the stream into windows.
    for (const auto& c : all_rates) {
        SCOPED_TRACE(std::string(c.protocol) + " " + core::to_string(c.rate));
        const auto p = params_of(c.protocol, c.rate, 4096);
        const auto pattern = core::depuncture_pattern::make(c.protocol, core::to_string(c.rate));
        const auto in = noisy_frames(c, 6000, 2, 21);
        core::depuncturing_decoder whole(core::make_viterbi_decoder(p, {}), pattern);
        std::vector<uint8_t> want(12000, 2);
        want.resize(whole.decode_window(in.data(), 0, in.size() / pattern.kept, 0, true, true,
                                        false, want.data(), want.size()));
        ASSERT_EQ(want.size(), 12000u);
        core::depuncturing_decoder dec(core::make_viterbi_decoder(p, {}), pattern);
        std::vector<size_t> counts;
        EXPECT_EQ(stream_in_windows(dec, in, true, false, 5, 200, counts), want);
        EXPECT_GT(counts.size(), 10u);
    }
}

TEST(depuncturing_decoder, cuda_window_depunctured_on_the_device_matches_cpu_twin)
{
    // The CUDA window path (the punctured values up once, depunctured and decoded on the
    // device) against the CPU twin (depunctured on the host), call by call: every rate of
    // both standards; windows from a few periods to many launches (max_steps 4096, 3000
    // and 600: one chunk a launch), rooms below a chunk (nothing decoded), buffers reserved too
    // small (they grow) or not at all; starts and ends known or not.
    GPUOFDM_REQUIRE_GPU();
    struct edge {
        size_t max_steps, max_piece;
        bool zero_start, zero_end;
        size_t reserve_periods;
    };
    const edge edges[] = {
        { 4096, 900, true, true, 0 },
        { 4096, 40, true, false, 10 },
        { 3000, 5000, false, true, 100000 },
        { 600, 700, true, true, 0 }, // one chunk a launch at every rate
        { 1u << 16, 20000, true, true, 0 },
    };
    for (const auto& c : all_rates) {
        const auto pattern = core::depuncture_pattern::make(c.protocol, core::to_string(c.rate));
        const auto in = noisy_frames(c, 7200, 3, 23);
        for (size_t e = 0; e < std::size(edges); e++) {
            const edge& g = edges[e];
            SCOPED_TRACE(std::string(c.protocol) + " " + core::to_string(c.rate) + " edge " +
                         std::to_string(e));
            const auto p = params_of(c.protocol, c.rate, g.max_steps);
            core::depuncturing_decoder cpu(core::make_viterbi_decoder(p, {}), pattern);
            core::depuncturing_decoder gpu(
                core::make_viterbi_decoder(p, core::resolve_device("cuda")), pattern);
            if (g.reserve_periods)
                gpu.reserve(g.reserve_periods);
            std::vector<size_t> want_counts, got_counts;
            const auto want = stream_in_windows(cpu, in, g.zero_start, g.zero_end, 31 + unsigned(e),
                                                g.max_piece, want_counts);
            const auto got = stream_in_windows(gpu, in, g.zero_start, g.zero_end, 31 + unsigned(e),
                                               g.max_piece, got_counts);
            EXPECT_EQ(want.size(), 3 * 7200u);
            EXPECT_EQ(got_counts, want_counts);
            EXPECT_EQ(got, want);
        }
    }
}
