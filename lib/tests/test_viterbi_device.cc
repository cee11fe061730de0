/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The Viterbi decoder's device-resident entry points (device_load, device_decode_frames,
// device_fetch): the same bits as decode_frames() on the CPU twin; the twin refuses them.

#include "test_util.h"
#include "viterbi.h"

#include <random>
#include <stdexcept>

using namespace gr::gpuofdm;

TEST(viterbi_device, cpu_twin_refuses_device_entry_points)
{
    auto dec = core::make_viterbi_decoder(core::viterbi_params{}, core::device_spec{});
    float llr[2] = { 1, 1 };
    uint8_t bit;
    EXPECT_THROW(dec->device_load(llr, 2), std::logic_error);
    EXPECT_THROW(dec->device_decode_frames(1, 1), std::logic_error);
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
