/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The wideband channelizer: tones come out at their offset from the channel's centre with
// amplitude and phase kept, whatever the rates' ratio; a cell synthesized at the capture
// rate comes out as the same cell synthesized at the channel rate; every capture sample
// reaches the outputs however the stream is cut; the search finds cells at two raster
// positions of one capture in one pass.

#include "sync/cell_search.h"
#include "sync/sync_signal_synth.h"
#include "sync/wideband_channelizer.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

#ifdef GPUOFDM_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

using namespace gr::gpuofdm;
using core::cell_standard;
using cf = std::complex<float>;

namespace {

const core::device_spec cpu{};

std::vector<cf> run(core::wideband_channelizer& ch,
                    const std::vector<cf>& x,
                    size_t& produced,
                    size_t piece)
{
    std::vector<std::vector<cf>> rows(ch.channels());
    for (size_t at = 0; at < x.size(); at += piece) {
        size_t got = 0;
        const auto out = ch.push(x.data() + at, std::min(piece, x.size() - at), got);
        for (int c = 0; c < ch.channels(); c++) {
            rows[c].insert(rows[c].end(), out.begin() + c * got, out.begin() + (c + 1) * got);
        }
    }
    size_t got = 0;
    const auto out = ch.flush(got);
    for (int c = 0; c < ch.channels(); c++) {
        rows[c].insert(rows[c].end(), out.begin() + c * got, out.begin() + (c + 1) * got);
    }
    produced = rows[0].size();
    std::vector<cf> flat;
    for (const auto& r : rows) {
        flat.insert(flat.end(), r.begin(), r.end());
    }
    return flat;
}

} // namespace

// A tone at offset + 100 kHz leaves each channel as exp(j 2 pi 100 kHz t) at the channel
// rate: 122.88 -> 7.68 Msps (16:1), 25 -> 7.68 Msps (625:192), 19.2 -> 1.92 Msps; the
// offsets fall between capture bins.
TEST(wideband_channelizer, tones_keep_amplitude_and_phase)
{
    const std::vector<std::array<double, 2>> rates{ { 122.88e6, 7.68e6 },
                                                    { 25e6, 7.68e6 },
                                                    { 19.2e6, 1.92e6 } };
    for (const auto& r : rates) {
        core::channelizer_params p;
        p.sample_rate = r[0];
        p.output_rate = r[1];
        p.offsets_hz = { -0.2 * r[0] + 1234.5, 0.0, 0.3 * r[0] - 777.0 };
        auto ch = core::make_wideband_channelizer(p, cpu);
        const size_t n = static_cast<size_t>(r[0] * 3e-3);
        for (size_t c = 0; c < p.offsets_hz.size(); c++) {
            const double f = p.offsets_hz[c] + 100e3;
            std::vector<cf> x(n);
            for (size_t i = 0; i < n; i++) {
                x[i] =
                    std::polar(1.0f, static_cast<float>(2 * M_PI * std::fmod(f * i / r[0], 1.0)));
            }
            auto one = core::make_wideband_channelizer(p, cpu);
            size_t produced = 0;
            const auto out = run(*one, x, produced, 70001);
            EXPECT_EQ(produced, static_cast<size_t>(std::ceil(n * r[1] / r[0])));
            // Away from the ends (where the zeros before and after the capture are seen):
            double worst = 0;
            for (size_t j = 200; j + 200 < produced; j++) {
                const cf expected = std::polar(
                    1.0f, static_cast<float>(2 * M_PI * std::fmod(100e3 * j / r[1], 1.0)));
                worst = std::max(worst, double(std::abs(out[c * produced + j] - expected)));
            }
            EXPECT_LT(worst, 1e-4) << r[0] << " -> " << r[1] << " channel " << c;
        }
    }
}

// NR at 122.88 Msps with a cell 20.16 MHz up: its channel equals the cell synthesized at
// 7.68 Msps on the channel's centre (no noise), to the window's edge effects.
TEST(wideband_channelizer, cell_equals_cell_at_channel_rate)
{
    core::synth_params wide;
    wide.standard = cell_standard::nr;
    wide.sample_rate = 122.88e6;
    wide.ssb_count = 2;
    wide.cells = { { 321, 0, 20.16e6, 3e3, 0.2e-3 } };
    core::synth_params narrow = wide;
    narrow.sample_rate = 7.68e6;
    narrow.cells[0].offset_hz = 0;

    const size_t n = static_cast<size_t>(122.88e6 * 2e-3);
    std::vector<cf> x(n);
    core::sync_signal_synth(wide).generate(x.data(), n);
    std::vector<cf> y(n / 16);
    core::sync_signal_synth(narrow).generate(y.data(), y.size());

    core::channelizer_params p;
    p.sample_rate = 122.88e6;
    p.output_rate = 7.68e6;
    p.offsets_hz = { 20.16e6 };
    auto ch = core::make_wideband_channelizer(p, cpu);
    size_t produced = 0;
    const auto out = run(*ch, x, produced, 1 << 16);
    ASSERT_EQ(produced, y.size());
    double err = 0, sig = 0;
    for (size_t j = 0; j < produced; j++) {
        err += std::norm(out[j] - y[j]);
        sig += std::norm(y[j]);
    }
    ASSERT_GT(sig, 0);
    // The low-rate synthesis aliases the symbols' edges, the channelizer filters them.
    EXPECT_LT(10 * std::log10(err / sig), -25.0);
}

// Two NR cells at two GSCNs of a 61.44 Msps capture at 3.5 GHz, found in one pass: each in
// its channel, timing converted back to capture samples.
TEST(wideband_channelizer, search_two_raster_positions)
{
    core::raster_params rp;
    rp.standard = cell_standard::nr;
    rp.sample_rate = 61.44e6;
    rp.center_hz = 3.5e9;
    const auto candidates = core::raster_candidates(rp);
    ASSERT_GT(candidates.size(), 20u);
    const auto& a = candidates[3];
    const auto& b = candidates[candidates.size() - 5];

    core::synth_params s;
    s.standard = cell_standard::nr;
    s.sample_rate = 61.44e6;
    s.center_hz = 3.5e9;
    s.cells = { { 11, 0, a.offset_hz, 2e3, 0.7e-3 }, { 999, -3, b.offset_hz, -5e3, 1.9e-3 } };
    s.noise_power = core::synth_noise_power_for_snr(s, 3.0);
    const size_t n = static_cast<size_t>(61.44e6 * 5e-3);
    std::vector<cf> x(n);
    core::sync_signal_synth(s).generate(x.data(), n);

    core::channelizer_params p;
    p.sample_rate = 61.44e6;
    p.output_rate = 7.68e6;
    for (const auto& c : candidates) {
        p.offsets_hz.push_back(c.offset_hz);
    }
    auto ch = core::make_wideband_channelizer(p, cpu);
    size_t produced = 0;
    const auto rows = run(*ch, x, produced, 1 << 18);
    auto search = core::make_cell_search(core::cell_search_params{}, cpu);
    const auto dets =
        search->search(rows.data(), produced, static_cast<int>(candidates.size()), produced, 0);
    ASSERT_EQ(dets.size(), 2u);
    for (const auto& d : dets) {
        const bool first = d.cell_id == 11;
        EXPECT_TRUE(first || d.cell_id == 999);
        EXPECT_EQ(candidates[d.channel].raster_number, first ? a.raster_number : b.raster_number);
        core::sync_signal_synth synth(s);
        const double expected =
            (s.cells[first ? 0 : 1].start_s + synth.slots_in_period()[0].start_s) * 61.44e6;
        EXPECT_NEAR(static_cast<double>(d.sample) * 8, expected, 8.0);
    }
}

// One LTE cell heard at the raster points around its own (100 kHz apart, its PSS 930 kHz
// wide), a second one 2 MHz away at the same timing: with the channels' offsets given, each
// PSS is reported once, at its cell's own raster point, as a search of those two points
// alone reports it; a wrong count of offsets is refused.
TEST(wideband_channelizer, one_cell_at_neighbouring_raster_points)
{
    core::synth_params s;
    s.standard = cell_standard::lte;
    s.sample_rate = 7.68e6;
    s.cells = { { 123, 0, 0.0, 1e3, 1.2e-3 }, { 301, -3, 2e6, -1e3, 1.2e-3 } };
    s.noise_power = core::synth_noise_power_for_snr(s, 10.0);
    const size_t n = static_cast<size_t>(7.68e6 * 10e-3);
    std::vector<cf> x(n);
    core::sync_signal_synth(s).generate(x.data(), n);

    const auto detect = [&](const std::vector<double>& offsets, bool give_offsets) {
        core::channelizer_params p;
        p.sample_rate = 7.68e6;
        p.output_rate = 1.92e6;
        p.offsets_hz = offsets;
        auto ch = core::make_wideband_channelizer(p, cpu);
        size_t produced = 0;
        const auto rows = run(*ch, x, produced, 1 << 16);
        core::cell_search_params sp;
        sp.standard = cell_standard::lte;
        if (give_offsets) {
            sp.channel_offsets_hz = offsets;
        }
        auto search = core::make_cell_search(sp, cpu);
        auto dets =
            search->search(rows.data(), produced, static_cast<int>(offsets.size()), produced, 0);
        std::vector<std::tuple<double, int, int64_t>> found; // (offset, cell, sample)
        for (const auto& d : dets) {
            found.emplace_back(offsets[static_cast<size_t>(d.channel)], d.cell_id, d.sample);
        }
        std::sort(found.begin(), found.end());
        return found;
    };
    std::vector<double> raster;
    for (int k = -4; k <= 4; k++) {
        raster.push_back(k * 100e3);
        raster.push_back(2e6 + k * 100e3);
    }
    std::sort(raster.begin(), raster.end());
    const auto alone = detect({ 0.0, 2e6 }, true);
    ASSERT_EQ(alone.size(), 4u); // two PSS of each cell in 10 ms
    EXPECT_EQ(detect(raster, true), alone);
    EXPECT_EQ(detect({ 0.0, 2e6 }, false), alone);

    core::cell_search_params sp;
    sp.standard = cell_standard::lte;
    sp.channel_offsets_hz = { 0.0 }; // one offset for two channels
    auto search = core::make_cell_search(sp, cpu);
    const std::vector<cf> rows(2 * 20000, cf(0.5f, 0.0f));
    EXPECT_THROW(search->search(rows.data(), 20000, 2, 20000, 0), std::invalid_argument);
    sp.channel_offsets_hz = { 0.0, std::nan("") };
    EXPECT_THROW(sp.validate(), std::invalid_argument);
}

// CUDA against the CPU twin: 40 NR candidates of a 122.88 Msps capture with two cells and
// noise, the stream cut unevenly, flush included; equal to float rounding of the FFTs.
TEST(wideband_channelizer, cuda_matches_cpu)
{
    GPUOFDM_REQUIRE_GPU();
    core::synth_params s;
    s.standard = cell_standard::nr;
    s.sample_rate = 122.88e6;
    s.cells = { { 5, 0, -30.3e6, 1e3, 0.3e-3 }, { 600, -4, 12.5e6, -2e3, 1.1e-3 } };
    s.noise_power = 0.3;
    const size_t n = static_cast<size_t>(122.88e6 * 3e-3) + 12345;
    std::vector<cf> x(n);
    core::sync_signal_synth(s).generate(x.data(), n);
    core::channelizer_params p;
    p.sample_rate = 122.88e6;
    p.output_rate = 7.68e6;
    for (int c = 0; c < 40; c++) {
        p.offsets_hz.push_back(-50e6 + c * 2.5e6 + 7.0);
    }
    auto cpu_ch = core::make_wideband_channelizer(p, cpu);
    auto gpu_ch = core::make_wideband_channelizer(p, core::device_spec{ core::backend::cuda, 0 });
    size_t n_cpu = 0, n_gpu = 0;
    const auto a = run(*cpu_ch, x, n_cpu, 100003);
    const auto b = run(*gpu_ch, x, n_gpu, 100003);
    ASSERT_EQ(n_cpu, n_gpu);
    ASSERT_EQ(a.size(), b.size());
    double worst = 0, peak = 0;
    for (size_t i = 0; i < a.size(); i++) {
        worst = std::max(worst, double(std::abs(a[i] - b[i])));
        peak = std::max(peak, double(std::abs(a[i])));
    }
    EXPECT_LT(worst, 1e-4 * peak);
}

#ifdef GPUOFDM_HAVE_CUDA
// push_device() in pieces, the blocks run only once several are complete, and
// flush_device(): the rows the CPU twin's push() and flush() give, in device memory.
TEST(wideband_channelizer, push_device_matches_cpu)
{
    GPUOFDM_REQUIRE_GPU();
    core::synth_params s;
    s.standard = cell_standard::nr;
    s.sample_rate = 61.44e6;
    s.cells = { { 5, 0, -10.3e6, 1e3, 0.3e-3 } };
    s.noise_power = 0.3;
    const size_t n = static_cast<size_t>(61.44e6 * 4e-3) + 777;
    std::vector<cf> x(n);
    core::sync_signal_synth(s).generate(x.data(), n);
    core::channelizer_params p;
    p.sample_rate = 61.44e6;
    p.output_rate = 7.68e6;
    for (int c = 0; c < 9; c++) {
        p.offsets_hz.push_back(-20e6 + c * 5e6 + 3.0);
    }
    auto cpu_ch = core::make_wideband_channelizer(p, cpu);
    size_t n_cpu = 0;
    const auto want = run(*cpu_ch, x, n_cpu, 100003);

    auto gpu_ch = core::make_wideband_channelizer(p, core::device_spec{ core::backend::cuda, 0 });
    const size_t ch = p.offsets_hz.size();
    std::vector<std::vector<cf>> rows(ch);
    auto fetch = [&](const core::wideband_channelizer::device_rows& r) {
        if (r.count == 0) {
            return;
        }
        std::vector<cf> host(ch * r.count);
        // push_device() queues its work on the channelizer's stream and returns.
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        ASSERT_EQ(cudaMemcpy2D(host.data(), r.count * sizeof(cf), r.rows, r.stride * sizeof(cf),
                               r.count * sizeof(cf), ch, cudaMemcpyDeviceToHost),
                  cudaSuccess);
        for (size_t c = 0; c < ch; c++) {
            rows[c].insert(rows[c].end(), host.begin() + c * r.count,
                           host.begin() + (c + 1) * r.count);
        }
    };
    size_t empty_pushes = 0;
    for (size_t at = 0; at < n; at += 20011) {
        const auto r = gpu_ch->push_device(x.data() + at, std::min<size_t>(20011, n - at), 5);
        empty_pushes += r.count == 0;
        fetch(r);
    }
    EXPECT_GT(empty_pushes, 0u); // the samples waited for five blocks
    fetch(gpu_ch->flush_device());
    ASSERT_EQ(rows[0].size(), n_cpu);
    double worst = 0, peak = 0;
    for (size_t c = 0; c < ch; c++) {
        for (size_t i = 0; i < n_cpu; i++) {
            const cf a = want[c * n_cpu + i];
            worst = std::max(worst, double(std::abs(a - rows[c][i])));
            peak = std::max(peak, double(std::abs(a)));
        }
    }
    EXPECT_LT(worst, 1e-4 * peak);
}
#endif

// The device path (capture_device() -> search_device(), the rows never leave the GPU)
// against the CPU twins end to end: an LTE 20 MHz capture with every raster point, three
// cells; the same detections.
TEST(wideband_channelizer, device_path_matches_cpu)
{
    GPUOFDM_REQUIRE_GPU();
    core::raster_params rp;
    rp.standard = cell_standard::lte;
    rp.sample_rate = 30.72e6;
    const auto candidates = core::raster_candidates(rp);
    core::synth_params s;
    s.standard = cell_standard::lte;
    s.sample_rate = 30.72e6;
    s.cells = { { 1, 0, candidates[10].offset_hz, 1e3, 0.4e-3 },
                { 222, -2, candidates[130].offset_hz, -2e3, 1.7e-3 },
                { 503, 0, candidates[250].offset_hz, 0, 3.1e-3 } };
    s.noise_power = core::synth_noise_power_for_snr(s, 4.0);
    const size_t n = static_cast<size_t>(30.72e6 * 12e-3);
    std::vector<cf> x(n);
    core::sync_signal_synth(s).generate(x.data(), n);
    core::channelizer_params p;
    p.sample_rate = 30.72e6;
    p.output_rate = 1.92e6;
    for (const auto& c : candidates) {
        p.offsets_hz.push_back(c.offset_hz);
    }
    core::cell_search_params sp;
    sp.standard = cell_standard::lte;

    auto cpu_ch = core::make_wideband_channelizer(p, cpu);
    size_t produced = 0;
    const auto rows = run(*cpu_ch, x, produced, 1 << 20);
    const auto want = core::make_cell_search(sp, cpu)->search(
        rows.data(), produced, static_cast<int>(candidates.size()), produced, 0);
    ASSERT_EQ(want.size(), 7u); // three cells, two PSS each in 12 ms, the first a third

    const core::device_spec gpu{ core::backend::cuda, 0 };
    auto gpu_ch = core::make_wideband_channelizer(p, gpu);
    const auto dev_rows = gpu_ch->capture_device(x.data(), n);
    ASSERT_EQ(dev_rows.count, produced);
    const auto got = core::make_cell_search(sp, gpu)->search_device(
        dev_rows.rows, dev_rows.stride, static_cast<int>(candidates.size()), dev_rows.count, 0);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); i++) {
        EXPECT_EQ(got[i].channel, want[i].channel);
        EXPECT_EQ(got[i].cell_id, want[i].cell_id);
        EXPECT_EQ(got[i].sample, want[i].sample);
        EXPECT_EQ(got[i].subframe, want[i].subframe);
        EXPECT_NEAR(got[i].cfo_hz, want[i].cfo_hz, 5.0);
    }
    // The CPU twins have no device path.
    EXPECT_THROW(cpu_ch->capture_device(x.data(), n), std::logic_error);
}

TEST(wideband_channelizer, bad_parameters)
{
    core::channelizer_params p;
    p.offsets_hz = {};
    EXPECT_THROW(p.validate(), std::invalid_argument);
    p.offsets_hz = { 15e6 }; // 15 + 0.96 MHz beyond 15.36
    EXPECT_THROW(p.validate(), std::invalid_argument);
    p.offsets_hz = { 0 };
    p.sample_rate = 30.72e6 + 0.5;
    EXPECT_THROW(p.validate(), std::invalid_argument);
    p.sample_rate = 30.72e6;
    p.output_rate = 40e6;
    EXPECT_THROW(p.validate(), std::invalid_argument);
    // A ratio whose output FFT (a multiple of the denominator) needs an input FFT over 2^22:
    // refused by validate(), not later by the plan (122.88 MHz to 1.000003 MHz: L / M =
    // 122880000 / 1000003).
    p.sample_rate = 122.88e6;
    p.output_rate = 1000003;
    EXPECT_THROW(p.validate(), std::invalid_argument);
    p.output_rate = 1.92e6; // 64 / 1
    EXPECT_NO_THROW(p.validate());
    EXPECT_EQ(core::make_channelizer_plan(p).fft_in, size_t(64 * 1024));
}
