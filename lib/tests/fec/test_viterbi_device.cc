/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The Viterbi decoder's device-resident entry points (device_load, device_load_from_device,
// device_decode_frames, device_fetch, decode_window_device): the same bits as
// decode_frames() and decode_window() on the CPU twin; the twin refuses them. frames_per_launch() keeps one launch within the buffers.

#include "test_util.h"
#include "fec/viterbi.h"

#include <iterator>
#include <random>
#include <stdexcept>

#ifdef GPUOFDM_HAVE_CUDA
#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#endif

using namespace gr::gpuofdm;

TEST(viterbi_device, cpu_twin_refuses_device_entry_points)
{
    auto dec = core::make_viterbi_decoder(core::viterbi_params{}, core::device_spec{});
    float llr[2] = { 1, 1 };
    uint8_t bit;
    EXPECT_THROW(dec->device_load(llr, 2), std::logic_error);
    EXPECT_THROW(dec->device_decode_frames(1, 1), std::logic_error);
    EXPECT_THROW(dec->enqueue_decode_frames(1, 1), std::logic_error);
    EXPECT_THROW(dec->device_fetch(&bit, 1), std::logic_error);
}

TEST(viterbi_device, device_frames_match_cpu_twin)
{
    GPUOFDM_REQUIRE_GPU();
    core::viterbi_params p;
    p.max_steps = 1u << 16;
    const size_t frame_steps = 1000, n_frames = 40;
    std::mt19937 rng(4242);
    std::normal_distribution<float> g(0.5f, 1.5f);
    std::vector<float> llr(2 * frame_steps * n_frames);
    for (auto& v : llr)
        v = g(rng);
    auto cpu = core::make_viterbi_decoder(p, core::device_spec{});
    auto gpu = core::make_viterbi_decoder(p, core::resolve_device("cuda:0"));
    std::vector<uint8_t> want(frame_steps * n_frames), got(frame_steps * n_frames, 7);
    cpu->decode_frames(llr.data(), llr.size(), frame_steps, want.data());
    gpu->device_load(llr.data(), llr.size());
    gpu->device_decode_frames(frame_steps, n_frames);
    gpu->device_fetch(got.data(), got.size());
    EXPECT_EQ(got, want);
    EXPECT_THROW(gpu->device_decode_frames(frame_steps, 1000), std::invalid_argument);
}

TEST(viterbi_device, cpu_twin_refuses_device_to_device_load)
{
    auto dec = core::make_viterbi_decoder(core::viterbi_params{}, core::device_spec{});
    float llr[2] = { 1, 1 };
    EXPECT_THROW(dec->device_load_from_device(llr, 2), std::logic_error);
    EXPECT_THROW(dec->device_load_from_device(llr, 2, 4), std::logic_error);
}

TEST(viterbi_device, cpu_twin_refuses_device_window)
{
    auto dec = core::make_viterbi_decoder(core::viterbi_params{}, core::device_spec{});
    std::vector<float> llr(2000, 1.0f);
    std::vector<uint8_t> out(1000);
    EXPECT_THROW(
        dec->decode_window_device(llr.data(), 0, 1000, 0, true, true, true, out.data(), 1000),
        std::logic_error);
    EXPECT_EQ(dec->context(), nullptr);
}

#ifdef GPUOFDM_HAVE_CUDA
TEST(viterbi_device, device_window_matches_cpu_twin)
{
    // decode_window_device() on LLRs already on the device (queued on the decoder's stream,
    // not waited for) against decode_window() on the CPU twin: windows from stream
    // position 0 and later ones, many launches a window (small max_steps), a room that
    // cuts the window, the end with and without state 0, an unknown start.
    GPUOFDM_REQUIRE_GPU();
    for (const char* rate : { "1/2", "3/4" }) {
        auto p = core::viterbi_params::for_protocol("80216", rate);
        p.max_steps = 3000;
        const size_t n_steps = 20000;
        std::mt19937 rng(99);
        std::normal_distribution<float> g(0.3f, 1.2f);
        std::vector<float> llr(2 * n_steps);
        for (auto& v : llr)
            v = g(rng);
        auto cpu = core::make_viterbi_decoder(p, core::device_spec{});
        auto gpu = core::make_viterbi_decoder(p, core::resolve_device("cuda:0"));
        ASSERT_NE(gpu->context(), nullptr);
        core::device_buffer<float> d_llr(llr.size());
        gpu->context()->activate();
        GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_llr.get(), llr.data(), llr.size() * sizeof(float),
                                           cudaMemcpyHostToDevice, gpu->context()->stream()));
        struct window {
            uint64_t base;
            size_t n_steps;
            uint64_t next_out;
            bool zero_start, end, zero_end;
            size_t max_bits;
        };
        const window windows[] = {
            { 0, n_steps, 0, true, false, false, n_steps },
            { 0, n_steps, 0, true, true, true, n_steps },
            { 0, n_steps, 0, false, true, false, n_steps },
            { 1000, 15000, 1024, true, false, false, n_steps },
            { 4000, 16000, 4096, true, true, false, n_steps },
            { 4000, 16000, 4096, true, false, false, 700 },
            { 0, 300, 0, true, false, false, n_steps }, // no whole chunk ready: nothing
        };
        for (size_t w = 0; w < std::size(windows); w++) {
            const window& x = windows[w];
            SCOPED_TRACE(std::string(rate) + " window " + std::to_string(w));
            std::vector<uint8_t> want(n_steps, 2), got(n_steps, 3);
            const size_t a =
                cpu->decode_window(llr.data() + 2 * x.base, x.base, x.n_steps, x.next_out,
                                   x.zero_start, x.end, x.zero_end, want.data(), x.max_bits);
            const size_t b =
                gpu->decode_window_device(d_llr.get() + 2 * x.base, x.base, x.n_steps, x.next_out,
                                          x.zero_start, x.end, x.zero_end, got.data(), x.max_bits);
            ASSERT_EQ(a, b);
            want.resize(a);
            got.resize(b);
            EXPECT_EQ(got, want);
        }
    }
}
#endif

// One launch of frames_per_launch(frame_steps) frames fits max_steps and the chunk
// (decision memory) limit of 2 ceil(max_steps / chunk_len) chunks, and is at least 1.
TEST(viterbi_device, frames_per_launch_fits_the_buffers)
{
    for (const char* rate : { "1/2", "2/3", "3/4" }) {
        auto p = core::viterbi_params::for_protocol("80211a", rate);
        p.max_steps = 5000;
        p.chunk_len = 100;
        auto dec = core::make_viterbi_decoder(p, core::device_spec{});
        const size_t max_chunks = 2 * ((p.max_steps + p.chunk_len - 1) / p.chunk_len);
        for (size_t fs : { size_t(1), size_t(2), size_t(30), size_t(99), size_t(100), size_t(101),
                           size_t(2500), size_t(2501), size_t(5000) }) {
            const size_t n = dec->frames_per_launch(fs);
            const size_t chunks = (fs + p.chunk_len - 1) / p.chunk_len;
            EXPECT_GE(n, 1u) << fs;
            EXPECT_LE(n * fs, p.max_steps) << fs;
            EXPECT_LE(n * chunks, max_chunks) << fs;
            // The largest such count: one more frame would break a limit.
            EXPECT_TRUE((n + 1) * fs > p.max_steps || (n + 1) * chunks > max_chunks) << fs;
        }
        EXPECT_THROW(dec->frames_per_launch(0), std::invalid_argument);
        EXPECT_THROW(dec->frames_per_launch(p.max_steps + 1), std::invalid_argument);
    }
}

#ifdef GPUOFDM_HAVE_CUDA
// Frames gathered device-to-device from scattered places (as wifi_decode does from its
// mother-code LLRs) decode to the CPU twin's bits; a load past the buffer is refused.
TEST(viterbi_device, device_to_device_gather_matches_cpu_twin)
{
    GPUOFDM_REQUIRE_GPU();
    core::viterbi_params p = core::viterbi_params::for_protocol("80211a", "3/4");
    p.max_steps = 1u << 14;
    const size_t frame_steps = 830, n_frames = 9, gap = 77; // gap: values between frames
    std::mt19937 rng(5151);
    std::normal_distribution<float> g(0.5f, 1.5f);
    std::vector<float> scattered(n_frames * (2 * frame_steps + gap));
    for (auto& v : scattered)
        v = g(rng);
    std::vector<float> packed;
    for (size_t f = 0; f < n_frames; f++) {
        const float* src = scattered.data() + f * (2 * frame_steps + gap);
        packed.insert(packed.end(), src, src + 2 * frame_steps);
    }
    auto cpu = core::make_viterbi_decoder(p, core::device_spec{});
    auto gpu = core::make_viterbi_decoder(p, core::resolve_device("cuda:0"));
    std::vector<uint8_t> want(frame_steps * n_frames), got(want.size(), 7);
    cpu->decode_frames(packed.data(), packed.size(), frame_steps, want.data());
    ASSERT_GE(gpu->frames_per_launch(frame_steps), n_frames);

    core::use_device(0);
    core::device_buffer<float> d_src(scattered.size());
    GPUOFDM_CUDA_CHECK(
        cudaMemcpy(d_src.get(), scattered.data(), scattered.size() * 4, cudaMemcpyHostToDevice));
    // Loaded in reverse order, so each copy lands at its own offset.
    for (size_t f = n_frames; f-- > 0;)
        gpu->device_load_from_device(d_src.get() + f * (2 * frame_steps + gap), 2 * frame_steps,
                                     2 * frame_steps * f);
    gpu->device_decode_frames(frame_steps, n_frames);
    gpu->device_fetch(got.data(), got.size());
    EXPECT_EQ(got, want);

    // The same frames in one strided copy (rows = frames, pitch = frame + gap).
    std::fill(got.begin(), got.end(), 7);
    gpu->device_load_from_device(d_src.get(), 2 * frame_steps, 0, n_frames, 2 * frame_steps + gap);
    gpu->device_decode_frames(frame_steps, n_frames);
    gpu->device_fetch(got.data(), got.size());
    EXPECT_EQ(got, want);
    EXPECT_THROW(gpu->device_load_from_device(d_src.get(), 8, 0, 2, 7), std::invalid_argument);

    EXPECT_THROW(gpu->device_load_from_device(d_src.get(), 2, 2 * p.max_steps - 1),
                 std::invalid_argument);
    EXPECT_THROW(gpu->device_load_from_device(d_src.get(), 1, 2 * p.max_steps + 1),
                 std::invalid_argument);
}

// A chain's way: the LLRs are uploaded on the context's stream and, without any host
// synchronization, the decoder (on the same context) gathers, decodes and fetches them:
// the stream orders it all, and the bits are the CPU twin's.
TEST(viterbi_device, chain_on_a_shared_context_needs_no_host_synchronization)
{
    GPUOFDM_REQUIRE_GPU();
    const auto dev = core::resolve_device("cuda:0");
    const auto ctx = core::make_cuda_context(dev);
    core::viterbi_params p = core::viterbi_params::for_protocol("80211a", "1/2");
    p.max_steps = 1u << 18;
    const size_t frame_steps = 4000, n_frames = 60;
    std::mt19937 rng(6262);
    std::normal_distribution<float> g(0.5f, 1.5f);
    const size_t n_llr = 2 * frame_steps * n_frames;
    core::pinned_buffer<float> llr(n_llr);
    for (size_t i = 0; i < n_llr; i++)
        llr.get()[i] = g(rng);
    auto cpu = core::make_viterbi_decoder(p, core::device_spec{});
    auto gpu = core::make_viterbi_decoder(p, dev, ctx);
    ASSERT_GE(gpu->frames_per_launch(frame_steps), n_frames);
    std::vector<uint8_t> want(frame_steps * n_frames), got(want.size(), 7);
    cpu->decode_frames(llr.get(), n_llr, frame_steps, want.data());

    core::device_buffer<float> d_llr(n_llr);
    GPUOFDM_CUDA_CHECK(cudaMemsetAsync(d_llr.get(), 0, n_llr * sizeof(float), ctx->stream()));
    GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_llr.get(), llr.get(), n_llr * sizeof(float),
                                       cudaMemcpyHostToDevice, ctx->stream()));
    gpu->device_load_from_device(d_llr.get(), n_llr);
    gpu->enqueue_decode_frames(frame_steps, n_frames);
    gpu->device_fetch(got.data(), got.size());
    EXPECT_EQ(got, want);
}
#endif
