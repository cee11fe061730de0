/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// int8 LLR input and the 16-bit packed metrics of the CUDA kernel (viterbi_packed.h).
//
// On the host: the kernel's packed steps, run here for two, four and eight threads a chunk
// exactly as the kernel orders them (threads in lockstep, exchanges from the metrics before
// the step, decision words, best state, traceback), make the float CPU twin's decisions on
// the same LLRs as floats (whose metrics are renormalised every step, the kernel's every
// six): every phase, both standards' generators, odd chunk geometries,
// full-range and saturated LLRs. On a GPU: the int8 entry points equal the CPU twin.

#include "fec/conv_encoder.h"
#include "fec/viterbi.h"
#include "fec/viterbi_packed.h"
#include "test_util.h"

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

using namespace gr::gpuofdm;

namespace {

template <unsigned G, unsigned P0, unsigned P1>
uint32_t step_at(unsigned phi,
                 uint32_t (&u)[32 / G],
                 const uint32_t (&partner)[32 / G],
                 const core::packed_branch& br,
                 unsigned tau)
{
    switch (phi) {
    case 0:
        return core::packed_step<G, P0, P1, 0>(u, partner, br, tau);
    case 1:
        return core::packed_step<G, P0, P1, 1>(u, partner, br, tau);
    case 2:
        return core::packed_step<G, P0, P1, 2>(u, partner, br, tau);
    case 3:
        return core::packed_step<G, P0, P1, 3>(u, partner, br, tau);
    case 4:
        return core::packed_step<G, P0, P1, 4>(u, partner, br, tau);
    default:
        return core::packed_step<G, P0, P1, 5>(u, partner, br, tau);
    }
}

/*!
 * One chunk of \p job as the int8 kernel decodes it with G threads, on the host: the same
 * packed steps, decision words (thread tau's 64 / G bits at bit 64 / G x tau), best state
 * and traceback in positions.
 */
template <unsigned G, unsigned P0, unsigned P1>
void packed_chunk(const int8_t* llr, const core::viterbi_job& job, uint64_t chunk, uint8_t* out)
{
    constexpr unsigned W = 32 / G;
    constexpr unsigned S = 64 / G;
    constexpr unsigned LB = core::local_bits<G>;
    const uint64_t n_chunks = core::viterbi_chunks_per_segment(job);
    const uint64_t seg = chunk / n_chunks;
    const core::viterbi_chunk k = core::viterbi_chunk_at(job, chunk % n_chunks);
    uint32_t u[G][W];
    unsigned flips[G];
    for (unsigned tau = 0; tau < G; tau++) {
        core::packed_start<G>(u[tau], tau, k.known_start);
        flips[tau] = core::position_flips<G, P0, P1>(tau);
    }
    uint32_t norm = core::packed_bias;
    std::vector<uint64_t> dec(k.fwd_end - k.out_begin);
    const int8_t* lp = llr + 2 * (seg * job.seg_steps + (k.fwd_begin - job.base));
    for (uint64_t t = k.fwd_begin; t < k.fwd_end; t++, lp += 2) {
        const unsigned phi = unsigned((t - k.fwd_begin) % 6);
        uint32_t before[G][W];
        std::copy(&u[0][0], &u[0][0] + G * W, &before[0][0]);
        uint64_t word = 0;
        for (unsigned tau = 0; tau < G; tau++) {
            const auto br = core::packed_branches(lp[0], lp[1], flips[tau], phi,
                                                  phi == 0 ? norm : core::packed_bias);
            const unsigned other = phi >= LB ? tau ^ (1u << (phi - LB)) : tau;
            word |= uint64_t(step_at<G, P0, P1>(phi, u[tau], before[other], br, tau)) << (S * tau);
        }
        if (phi == 4)
            norm = u[0][0] & 0xffffu;
        if (t >= k.out_begin)
            dec[t - k.out_begin] = word;
    }
    const unsigned rem = unsigned((k.fwd_end - k.fwd_begin) % 6);
    uint32_t bv = 0;
    unsigned bs = 64;
    for (unsigned tau = 0; tau < G; tau++)
        for (unsigned L = 0; L < S; L++) {
            const uint32_t v = core::packed_metric<G>(u[tau], L);
            const unsigned s = core::rotr6((tau << LB) | L, rem);
            if (bs == 64 || v > bv || (v == bv && s < bs)) {
                bv = v;
                bs = s;
            }
        }
    uint8_t* o = out + seg * (job.out_end - job.out_begin) + (k.out_begin - job.out_begin);
    unsigned pos = core::rotl6(k.zero_end ? 0u : bs, rem);
    unsigned r = rem == 0 ? 5u : rem - 1u;
    for (uint64_t s = k.fwd_end; s-- > k.out_begin;) {
        const uint64_t w = dec[s - k.out_begin];
        if (s < k.out_end)
            o[s - k.out_begin] = uint8_t((pos >> r) & 1u);
        pos = (pos & ~(1u << r)) | (unsigned((w >> (pos ^ (S - 1u))) & 1u) << r);
        r = r == 0 ? 5u : r - 1u;
    }
}

template <unsigned P0, unsigned P1>
std::vector<uint8_t> packed_job(unsigned g,
                                const std::vector<int8_t>& llr,
                                const core::viterbi_job& job)
{
    std::vector<uint8_t> out(job.n_segments * (job.out_end - job.out_begin), 7);
    const uint64_t total = job.n_segments * core::viterbi_chunks_per_segment(job);
    for (uint64_t c = 0; c < total; c++) {
        if (g == 2)
            packed_chunk<2, P0, P1>(llr.data(), job, c, out.data());
        else if (g == 4)
            packed_chunk<4, P0, P1>(llr.data(), job, c, out.data());
        else
            packed_chunk<8, P0, P1>(llr.data(), job, c, out.data());
    }
    return out;
}

std::vector<float> widen(const std::vector<int8_t>& v) { return { v.begin(), v.end() }; }

//! LLRs of a random terminated frame's codeword (802.11a code) at high SNR, int8.
std::vector<int8_t> codeword_llrs(size_t steps, std::mt19937& rng, std::vector<uint8_t>& bits)
{
    bits.assign(steps, 0);
    for (size_t i = 0; i + 6 < steps; i++)
        bits[i] = uint8_t(rng() & 1u);
    core::conv_encoder_params ep;
    auto enc = core::make_conv_encoder(ep, core::device_spec{});
    core::conv_encoder_state st;
    std::vector<uint8_t> coded(enc->output_len(steps, st));
    enc->process(bits.data(), coded.data(), steps, st);
    std::normal_distribution<float> noise(0.0f, 0.35f);
    std::vector<float> llr(coded.size());
    for (size_t i = 0; i < coded.size(); i++)
        llr[i] = (coded[i] ? -1.0f : 1.0f) + noise(rng);
    std::vector<int8_t> q(llr.size());
    core::llr_quantize(llr.data(), llr.size(), 40.0f, q.data());
    return q;
}

std::vector<int8_t> random_llrs(size_t n, std::mt19937& rng, int lo, int hi)
{
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<int8_t> v(n);
    for (auto& x : v)
        x = int8_t(d(rng));
    return v;
}

} // namespace

TEST(viterbi_int8, llr_quantize_rounds_and_clamps)
{
    const float in[] = { 0.0f,    0.49f,    0.5f,
                         -0.5f,   1.26f,    -1.26f,
                         1000.0f, -1000.0f, std::numeric_limits<float>::quiet_NaN() };
    int8_t out[9];
    core::llr_quantize(in, 9, 100.0f, out);
    const int8_t want[] = { 0, 49, 50, -50, 126, -126, 127, -127, 0 };
    for (int i = 0; i < 9; i++)
        EXPECT_EQ(out[i], want[i]) << i;
    EXPECT_THROW(core::llr_quantize(in, 1, 0.0f, out), std::invalid_argument);
    EXPECT_THROW(core::llr_quantize(in, 1, -1.0f, out), std::invalid_argument);
}

// The packed steps against the float twin: both standards' generators, G = 2, 4, 8, frames
// (known start, zero end) and stream pieces (neither), chunks of one step up to longer than
// the job, LLRs over the whole int8 range, at its ends only (the largest branch metrics:
// the bound on the metric spread), and in -1 .. 1 (many exact ties).
TEST(viterbi_int8, packed_steps_make_the_float_twins_decisions)
{
    std::mt19937 rng(2026);
    for (const bool wifi : { true, false })
        for (const unsigned g : { 2u, 4u, 8u })
            for (int trial = 0; trial < 12; trial++) {
                core::viterbi_params p =
                    core::viterbi_params::for_protocol(wifi ? "80211a" : "80216", "1/2");
                p.chunk_len = trial == 0 ? 1 : 1 + rng() % 300;
                p.warmup = trial == 1 ? 0 : rng() % 100;
                p.traceback = trial == 2 ? 0 : rng() % 100;
                p.max_steps = 1 << 16;
                auto cpu = core::make_viterbi_decoder(p, core::device_spec{});
                core::viterbi_job job{};
                job.n_segments = 1 + rng() % 3;
                job.seg_steps = 20 + rng() % 900;
                job.base = trial % 2 ? 0 : rng() % 500;
                job.out_begin = job.base;
                job.out_end = job.base + job.seg_steps - (trial % 3 == 0 ? 0 : rng() % 8);
                job.chunk_len = uint32_t(p.chunk_len);
                job.warmup = uint32_t(p.warmup);
                job.traceback = uint32_t(p.traceback);
                job.poly0 = p.poly0;
                job.poly1 = p.poly1;
                job.known_start = job.base == 0 && trial % 4 != 3;
                job.zero_end = trial % 5 != 4;
                const size_t n = 2 * job.n_segments * job.seg_steps;
                const std::vector<int8_t> llr = trial % 3 == 0   ? random_llrs(n, rng, -128, 127)
                                                : trial % 3 == 1 ? random_llrs(n, rng, -1, 1)
                                                                 : random_llrs(n, rng, 0, 1);
                std::vector<int8_t> ends = llr;
                for (auto& x : ends)
                    x = x > 0 ? 127 : -128;
                SCOPED_TRACE((wifi ? "80211a g " : "80216 g ") + std::to_string(g) + " trial " +
                             std::to_string(trial) + " chunk " + std::to_string(p.chunk_len) +
                             " steps " + std::to_string(job.seg_steps));
                for (const std::vector<int8_t>* in :
                     { &llr, static_cast<const std::vector<int8_t>*>(&ends) }) {
                    std::vector<uint8_t> want(job.n_segments * (job.out_end - job.out_begin), 9);
                    const auto wide = widen(*in);
                    cpu->run(wide.data(), job, want.data());
                    const auto got = wifi ? packed_job<0133, 0171>(g, *in, job)
                                          : packed_job<0171, 0133>(g, *in, job);
                    EXPECT_EQ(got, want);
                }
            }
}

// The int8 entry point decodes a noisy codeword, and its bits are the float path's.
TEST(viterbi_int8, cpu_twin_decodes_codewords)
{
    std::mt19937 rng(7);
    std::vector<uint8_t> bits;
    const size_t steps = 3000;
    const auto llr = codeword_llrs(steps, rng, bits);
    auto dec = core::make_viterbi_decoder(core::viterbi_params::for_protocol("80211a", "1/2"),
                                          core::device_spec{});
    std::vector<uint8_t> out(steps);
    dec->decode_frames(llr.data(), llr.size(), steps, out.data());
    EXPECT_EQ(out, bits);
    const auto wide = widen(llr);
    EXPECT_EQ(core::viterbi_decode_reference(wide.data(), steps, 0133, 0171, true), bits);
    EXPECT_THROW(dec->decode_frames(llr.data(), llr.size() - 2, steps, out.data()),
                 std::invalid_argument);
    EXPECT_THROW(dec->device_load_int8(llr.data(), 2), std::logic_error);
    EXPECT_THROW(dec->device_decode_frames_int8(steps, 1), std::logic_error);
    EXPECT_THROW(dec->enqueue_decode_frames_int8(steps, 1), std::logic_error);
}

#ifdef GPUOFDM_HAVE_CUDA
// Every thread count (0 = automatic, 1 runs the two-thread kernel), the standards' generators
// (int8 kernel) and another pair (widened to float for the general kernel), odd geometries,
// full-range, saturated and tied LLRs: the CPU twin's bits, by decode_frames() and by the
// device-resident entry points.
TEST(viterbi_int8_cuda, matches_cpu_twin_bit_exact)
{
    GPUOFDM_REQUIRE_GPU();
    std::mt19937 rng(99);
    const std::pair<unsigned, unsigned> polys[] = { { 0133, 0171 },
                                                    { 0171, 0133 },
                                                    { 0155, 0117 } };
    for (const auto& [p0, p1] : polys)
        for (const unsigned g : { 0u, 1u, 2u, 4u, 8u })
            for (int trial = 0; trial < 3; trial++) {
                core::viterbi_params p;
                p.poly0 = p0;
                p.poly1 = p1;
                p.chunk_len = trial == 0 ? 1 : 1 + rng() % 400;
                p.warmup = rng() % 100;
                p.traceback = trial == 1 ? 0 : rng() % 100;
                p.max_steps = 1 << 15;
                p.cuda_threads_per_chunk = g;
                SCOPED_TRACE("poly " + std::to_string(p0) + " g " + std::to_string(g) + " trial " +
                             std::to_string(trial));
                auto cpu = core::make_viterbi_decoder(p, core::device_spec{});
                auto gpu = core::make_viterbi_decoder(p, core::resolve_device("cuda"));
                const size_t steps = 50 + rng() % 2000;
                const size_t frames = std::max<size_t>(1, p.max_steps / steps / 2);
                for (const auto& llr : { random_llrs(2 * steps * frames, rng, -128, 127),
                                         random_llrs(2 * steps * frames, rng, -1, 1) }) {
                    std::vector<uint8_t> want(steps * frames), got(steps * frames, 7);
                    cpu->decode_frames(llr.data(), llr.size(), steps, want.data());
                    gpu->decode_frames(llr.data(), llr.size(), steps, got.data());
                    EXPECT_EQ(got, want);
                    std::fill(got.begin(), got.end(), 7);
                    gpu->device_load_int8(llr.data(), llr.size());
                    gpu->device_decode_frames_int8(steps, frames);
                    gpu->device_fetch(got.data(), got.size());
                    EXPECT_EQ(got, want);
                }
            }
}

// A launch as large as the benchmark's, one frame and many, and chunks whose decisions do not
// fit in shared memory (the general kernel on widened LLRs).
TEST(viterbi_int8_cuda, large_launches_match_cpu_twin_bit_exact)
{
    GPUOFDM_REQUIRE_GPU();
    std::mt19937 rng(5);
    std::vector<uint8_t> bits;
    const size_t steps = size_t(1) << 20;
    const auto llr = codeword_llrs(steps, rng, bits);
    auto p = core::viterbi_params::for_protocol("80211a", "1/2");
    p.max_steps = steps;
    p.cpu_threads = 0;
    auto cpu = core::make_viterbi_decoder(p, core::device_spec{});
    auto gpu = core::make_viterbi_decoder(p, core::resolve_device("cuda"));
    std::vector<uint8_t> want(steps), got(steps);
    cpu->decode_frames(llr.data(), llr.size(), steps, want.data());
    gpu->decode_frames(llr.data(), llr.size(), steps, got.data());
    EXPECT_EQ(got, want);
    EXPECT_EQ(got, bits);
    cpu->decode_frames(llr.data(), llr.size(), 1024, want.data());
    gpu->decode_frames(llr.data(), llr.size(), 1024, got.data());
    EXPECT_EQ(got, want);
    p.chunk_len = 20000;
    p.max_steps = 1 << 17;
    auto cpu2 = core::make_viterbi_decoder(p, core::device_spec{});
    auto gpu2 = core::make_viterbi_decoder(p, core::resolve_device("cuda"));
    const std::vector<int8_t> part(llr.begin(), llr.begin() + (size_t(2) << 17));
    want.resize(size_t(1) << 17);
    got.resize(size_t(1) << 17);
    cpu2->decode_frames(part.data(), part.size(), 1 << 17, want.data());
    gpu2->decode_frames(part.data(), part.size(), 1 << 17, got.data());
    EXPECT_EQ(got, want);
}
#endif
