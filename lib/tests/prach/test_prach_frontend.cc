/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The PRACH front end: bins of a preamble synthesised in the time domain by the formula
// of 38.211 5.3.2 (sum over the sequence's subcarriers, CP included), the chain into the
// detector, CUDA against the twin, the band offset of 5.3.2 by hand, bad parameters.

#include "prach/prach_detector.h"
#include "prach/prach_frontend.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <stdexcept>
#include <vector>

#ifdef GPUOFDM_HAVE_CUDA
#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#endif

namespace gr::gpuofdm::core {
namespace {

using cd = std::complex<double>;

/*!
 * Adds to \p row the preamble (u, C_v) placed at bin \p first (k + first, in Delta f_RA
 * from the centre), delayed by \p delay samples, with per-bin power \p power after the
 * front end's 1/sqrt(n_fft) DFT: x(n) = a sum_k y(k) exp(j 2 pi (k + first) (n - delay -
 * n_cp) / n_fft) over the CP and the repetitions (38.211 5.3.2; t = n / fs).
 */
void add_time_preamble(std::vector<cfloat>& row,
                       size_t offset,
                       const prach_frontend& fe,
                       int u,
                       int cv,
                       long first,
                       int delay,
                       double power,
                       double phase)
{
    const int L = fe.format().length;
    const int n_fft = fe.fft_size();
    const auto y = prach_sequence_freq(u, cv, L);
    const double a = std::sqrt(power / L) / std::sqrt(double(n_fft)); // |y| = sqrt(L)
    std::vector<cd> rot(static_cast<size_t>(L));
    for (size_t n = 0; n < fe.samples_per_row(); n++) {
        const long t = long(n) - delay - fe.cp_samples();
        cd acc = 0;
        for (int k = 0; k < L; k++) {
            const long m = (((k + first) * t) % n_fft + n_fft) % n_fft;
            acc += y[size_t(k)] * std::polar(1.0, 2 * M_PI * double(m) / n_fft);
        }
        row[offset + n] += cfloat(acc * a * std::polar(1.0, phase));
    }
}

TEST(PrachFrontend, BinsOfATimeDomainPreamble)
{
    struct cfg {
        prach_format format;
        int mu;
        double rate;
        double offset_bins; // occasion 0's bin 0, in Delta f_RA
        double spacing_bins;
        int fd;
    };
    // Format 0 at 1.92 Msps (n_fft 1536, CP 198); B4 at 30 kHz, 15.36 Msps (n_fft 512,
    // CP 936 / 2 / 2 = 234), two occasions 144 bins (12 RB of 30 kHz) apart.
    for (const cfg c : { cfg{ prach_format::f0, 0, 1.92e6, -700, 0, 1 },
                         cfg{ prach_format::b4, 1, 15.36e6, -200, 144, 2 } }) {
        prach_frontend_params p;
        p.format = c.format;
        p.mu = c.mu;
        p.sample_rate = c.rate;
        const double scs = prach_format_lookup(c.format, c.mu).scs_hz;
        p.offset_hz = { c.offset_bins * scs };
        p.occasion_spacing_hz = c.spacing_bins * scs;
        p.n_fd_occasions = c.fd;
        p.n_antennas = 2;
        auto fe = make_prach_frontend(p, device_spec{});
        const int L = fe->format().length;
        const int R = fe->format().repetitions;
        const size_t in_stride = fe->samples_per_row() + 5;
        std::vector<cfloat> in(fe->n_rows() * in_stride);
        // Antenna 0: u = 5, C_v = 26 in the last occasion, delayed by 3 samples;
        // antenna 1: nothing.
        const long first = long(c.offset_bins + (c.fd - 1) * c.spacing_bins);
        add_time_preamble(in, 0, *fe, 5, 26, first, 3, 1.0, 0.4);
        const size_t out_stride = fe->output_bins() + 2;
        std::vector<cfloat> out(fe->n_outputs() * out_stride);
        fe->process(in.data(), in_stride, out.data(), out_stride);
        // Expected: sqrt(power / L) y(k) exp(-j 2 pi (k + first) 3 / n_fft) e^{j 0.4}.
        const auto y = prach_sequence_freq(5, 26, L);
        std::vector<cfloat> want(size_t(R) * L), got(size_t(R) * L);
        const size_t ch = size_t(c.fd - 1); // row 0 (antenna 0), last occasion
        for (int r = 0; r < R; r++)
            for (int k = 0; k < L; k++) {
                const double ph = -2 * M_PI * double(k + first) * 3 / fe->fft_size() + 0.4;
                const size_t i = size_t(r) * size_t(L) + size_t(k);
                want[i] = cfloat(y[size_t(k)] / std::sqrt(double(L)) * std::polar(1.0, ph));
                got[i] = out[ch * out_stride + i];
            }
        EXPECT_TRUE(test::near_rms(got, want, 1e-4)) << to_string(c.format);
        // Every other channel holds (almost) nothing.
        for (size_t other = 0; other < fe->n_outputs(); other++) {
            if (other == ch)
                continue;
            double e = 0;
            for (size_t k = 0; k < fe->output_bins(); k++)
                e += std::norm(out[other * out_stride + k]);
            EXPECT_LT(e / double(fe->output_bins()), 1e-8) << "channel " << other;
        }
    }
}

TEST(PrachFrontend, FeedsTheDetector)
{
    // Format 0 at 1.92 Msps, two antennas, noise of unit power per sample, a preamble at
    // -12 dB per bin delayed by 7 samples (3.6 us): the detector finds it from the bins.
    prach_frontend_params fp;
    fp.sample_rate = 1.92e6;
    fp.offset_hz = { -300 * 1250.0 };
    fp.n_antennas = 2;
    auto fe = make_prach_frontend(fp, device_spec{});
    prach_detector_params dp;
    dp.cells = { { 22, 1, prach_restricted_set::unrestricted } };
    dp.n_antennas = 2;
    dp.sample_rate = fp.sample_rate;
    auto det = make_prach_detector(dp, device_spec{});
    const auto& pre = det->preambles(0)[32]; // the 38.141 test preamble: sequence 22, v 32
    std::vector<cfloat> in(fe->n_rows() * fe->samples_per_row());
    std::mt19937 rng(3);
    std::normal_distribution<float> g(0.0f, std::sqrt(0.5f));
    for (auto& x : in)
        x = cfloat(g(rng), g(rng));
    for (int a = 0; a < 2; a++)
        add_time_preamble(in, size_t(a) * fe->samples_per_row(), *fe, pre.u, pre.cv, -300, 7,
                          std::pow(10.0, -1.2), 1.1 * a);
    std::vector<cfloat> bins(fe->n_outputs() * fe->output_bins());
    fe->process(in.data(), fe->samples_per_row(), bins.data(), fe->output_bins());
    const auto found = det->detect(bins.data(), det->channel_bins());
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].preamble, 32);
    // One PDP sample is 1536 / 1024 = 1.5 samples at 1.92 Msps.
    EXPECT_NEAR(found[0].delay_samples, 7.0, 1.5);
    EXPECT_NEAR(found[0].noise, 1.0, 0.1);
}

TEST(PrachFrontend, BandOffsetByHand)
{
    // Format 0 with 15 kHz PUSCH: K = 12, k-bar = 7. 52 RB grid, BWP at 0, msg1 start 10:
    // k1 = 12 * 10 - 12 * 52 / 2 = -192; K k1 + k-bar = -2304 + 7 = -2297.
    EXPECT_EQ(prach_bin0_offset(prach_format_lookup(prach_format::f0), 15000, 52, 0, 10), -2297);
    // B4 at 30 kHz with 30 kHz PUSCH: K = 1, k-bar = 2. 273 RB, BWP at 4, msg1 start 5:
    // k1 = 12 * 9 - 1638 = -1530; -1530 + 2 = -1528.
    EXPECT_EQ(prach_bin0_offset(prach_format_lookup(prach_format::b4, 1), 30000, 273, 4, 5), -1528);
    // Format 3 (5 kHz) with 30 kHz PUSCH: K = 6, k-bar = 10; 106 RB, msg1 start 0:
    // k1 = -636, 6 * -636 + 10 = -3806.
    EXPECT_EQ(prach_bin0_offset(prach_format_lookup(prach_format::f3), 30000, 106, 0, 0), -3806);
}

TEST(PrachFrontend, BadParameters)
{
    auto throws_naming = [](const prach_frontend_params& p, const std::string& name) {
        try {
            make_prach_frontend(p, device_spec{});
        } catch (const std::invalid_argument& e) {
            return std::string(e.what()).rfind(name, 0) == 0
                       ? ::testing::AssertionSuccess()
                       : ::testing::AssertionFailure() << "message: " << e.what();
        }
        return ::testing::AssertionFailure() << "no throw";
    };
    auto with = [](auto change) {
        prach_frontend_params p;
        change(p);
        return p;
    };
    using P = prach_frontend_params;
    EXPECT_TRUE(throws_naming(with([](P& p) { p.sample_rate = 30.72e6 + 100; }), "sample_rate"));
    EXPECT_TRUE(throws_naming(with([](P& p) { p.sample_rate = 1.0e6; }), "sample_rate"));
    // 1.25 kHz x 1000 is a whole DFT, but 3168 kappa at 1.25 MHz is 128.9 samples.
    EXPECT_TRUE(throws_naming(with([](P& p) { p.sample_rate = 1.25e6; }), "sample_rate"));
    EXPECT_TRUE(throws_naming(with([](P& p) { p.sample_rate = 983.04e6; }), "sample_rate"));
    EXPECT_TRUE(throws_naming(with([](P& p) { p.offset_hz = { 1e300 }; }), "offset_hz[0]"));
    EXPECT_TRUE(throws_naming(with([](P& p) { p.offset_hz = { 100.0 }; }), "offset_hz[0]"));
    EXPECT_TRUE(throws_naming(with([](P& p) { p.offset_hz.clear(); }), "offset_hz"));
    EXPECT_TRUE(throws_naming(with([](P& p) {
                                  p.offset_hz = { 0.0, 12288 * 1250.0 };
                              }),
                              "offset_hz[1]"));
    EXPECT_TRUE(throws_naming(with([](P& p) { p.n_fd_occasions = 3; }), "n_fd_occasions"));
    EXPECT_TRUE(throws_naming(with([](P& p) {
                                  p.n_fd_occasions = 2;
                                  p.occasion_spacing_hz = 800 * 1250.0;
                              }),
                              "occasion_spacing_hz"));
    EXPECT_TRUE(throws_naming(with([](P& p) { p.extra_cp_kappa = 8; }), "extra_cp_kappa"));
    EXPECT_TRUE(throws_naming(with([](P& p) { p.n_antennas = 0; }), "n_antennas"));
    EXPECT_TRUE(throws_naming(with([](P& p) { p.n_time_occasions = 65; }), "n_time_occasions"));
    // At 1.92 Msps: 1536 bins, 3168 / 16 = 198 CP samples.
    auto fe = make_prach_frontend(with([](P& p) {
                                      p.sample_rate = 1.92e6;
                                      p.offset_hz = { -400 * 1250.0 };
                                  }),
                                  device_spec{});
    EXPECT_EQ(fe->fft_size(), 1536);
    EXPECT_EQ(fe->cp_samples(), 198);
    std::vector<cfloat> in(fe->samples_per_row()), out(fe->output_bins());
    EXPECT_THROW(fe->process(nullptr, in.size(), out.data(), out.size()), std::invalid_argument);
    EXPECT_THROW(fe->process(in.data(), in.size() - 1, out.data(), out.size()),
                 std::invalid_argument);
    EXPECT_THROW(fe->process(in.data(), in.size(), out.data(), out.size() - 1),
                 std::invalid_argument);
}

TEST(PrachFrontend, DevicePathsAreTheCudaBackendsOnly)
{
    prach_frontend_params fp;
    fp.sample_rate = 1.92e6;
    fp.offset_hz = { -400 * 1250.0 };
    auto fe = make_prach_frontend(fp, device_spec{});
    std::vector<cfloat> in(fe->samples_per_row()), out(fe->output_bins());
    EXPECT_THROW(fe->process_device(in.data(), in.size(), out.data(), out.size()),
                 std::logic_error);
    auto det = make_prach_detector(prach_detector_params{}, device_spec{});
    EXPECT_THROW(det->detect_device(out.data(), out.size()), std::logic_error);
}

#ifdef GPUOFDM_HAVE_CUDA
// CUDA against the twin: many cells x antennas x time occasions, two FD occasions, random
// samples; the bins within 1e-4 of their RMS (cuFFT against FFTW).
TEST(PrachFrontendCuda, MatchesCpu)
{
    GPUOFDM_REQUIRE_GPU();
    struct cfg {
        prach_format format;
        int mu;
        double rate;
        int extra_cp;
    };
    for (const cfg c :
         { cfg{ prach_format::f0, 0, 7.68e6, 0 }, cfg{ prach_format::f3, 0, 30.72e6, 0 },
           cfg{ prach_format::b4, 1, 61.44e6, 16 }, cfg{ prach_format::c2, 1, 30.72e6, 0 } }) {
        prach_frontend_params p;
        p.format = c.format;
        p.mu = c.mu;
        p.sample_rate = c.rate;
        const auto fmt = prach_format_lookup(c.format, c.mu);
        p.offset_hz = { -400 * fmt.scs_hz, 10 * fmt.scs_hz, -140 * fmt.scs_hz };
        p.n_fd_occasions = 2;
        p.occasion_spacing_hz = (fmt.length + 5) * fmt.scs_hz;
        p.n_antennas = 4;
        p.n_time_occasions = 2;
        p.extra_cp_kappa = c.extra_cp;
        auto cpu = make_prach_frontend(p, device_spec{});
        auto cuda = make_prach_frontend(p, device_spec{ backend::cuda, 0 });
        const size_t in_stride = cpu->samples_per_row() + 11;
        const auto in = test::random_complex(cpu->n_rows() * in_stride, 42);
        const size_t out_stride = cpu->output_bins() + 1;
        std::vector<cfloat> want(cpu->n_outputs() * out_stride), got(want.size());
        cpu->process(in.data(), in_stride, want.data(), out_stride);
        cuda->process(in.data(), in_stride, got.data(), out_stride);
        EXPECT_TRUE(test::near_rms(got, want, 1e-4)) << to_string(c.format);
    }
}

// The chain on the GPU: the samples uploaded once, the front end and the detector on one
// context, the bins never leaving the device; the same detections as the CPU chain.
TEST(PrachChainCuda, FrontendIntoDetectorOnOneContext)
{
    GPUOFDM_REQUIRE_GPU();
    prach_frontend_params fp;
    fp.sample_rate = 1.92e6;
    fp.offset_hz = { -300 * 1250.0, -600 * 1250.0 };
    fp.n_antennas = 2;
    fp.n_time_occasions = 2;
    prach_detector_params dp;
    dp.cells = { { 22, 1, prach_restricted_set::unrestricted },
                 { 100, 4, prach_restricted_set::unrestricted } };
    dp.n_antennas = 2;
    dp.n_occasions = 2;
    dp.sample_rate = fp.sample_rate;
    const device_spec gpu{ backend::cuda, 0 };
    auto ctx = make_cuda_context(gpu);
    auto fe_gpu = make_prach_frontend(fp, gpu, ctx);
    auto det_gpu = make_prach_detector(dp, gpu, ctx);
    auto fe_cpu = make_prach_frontend(fp, device_spec{});
    auto det_cpu = make_prach_detector(dp, device_spec{});
    const size_t in_stride = fe_cpu->samples_per_row();
    std::vector<cfloat> in(fe_cpu->n_rows() * in_stride);
    std::mt19937 rng(8);
    std::normal_distribution<float> g(0.0f, std::sqrt(0.5f));
    for (auto& x : in)
        x = cfloat(g(rng), g(rng));
    // Row (cell, antenna, time occasion): cell 0 preamble 32 in occasion 1, cell 1
    // preamble 9 in occasion 0.
    for (int a = 0; a < 2; a++) {
        const auto& p0 = det_cpu->preambles(0)[32];
        add_time_preamble(in, size_t((0 * 2 + a) * 2 + 1) * in_stride, *fe_cpu, p0.u, p0.cv, -300,
                          5, 0.1, 0.3 * a);
        const auto& p1 = det_cpu->preambles(1)[9];
        add_time_preamble(in, size_t((1 * 2 + a) * 2 + 0) * in_stride, *fe_cpu, p1.u, p1.cv, -600,
                          2, 0.1, 1.0 + a);
    }
    std::vector<cfloat> bins(fe_cpu->n_outputs() * fe_cpu->output_bins());
    fe_cpu->process(in.data(), in_stride, bins.data(), fe_cpu->output_bins());
    const auto want = det_cpu->detect(bins.data(), det_cpu->channel_bins());
    ASSERT_EQ(want.size(), 2u);

    device_buffer<cfloat> d_in(in.size()), d_bins(bins.size());
    GPUOFDM_CUDA_CHECK(
        cudaMemcpy(d_in.get(), in.data(), in.size() * sizeof(cfloat), cudaMemcpyHostToDevice));
    fe_gpu->process_device(d_in.get(), in_stride, d_bins.get(), fe_gpu->output_bins());
    const auto got = det_gpu->detect_device(d_bins.get(), det_gpu->channel_bins());
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); i++) {
        EXPECT_EQ(got[i].cell, want[i].cell);
        EXPECT_EQ(got[i].occasion, want[i].occasion);
        EXPECT_EQ(got[i].preamble, want[i].preamble);
        EXPECT_EQ(got[i].delay_bins, want[i].delay_bins);
        EXPECT_NEAR(got[i].metric, want[i].metric, 1e-3 * want[i].metric);
    }
}

#endif // GPUOFDM_HAVE_CUDA

} // namespace
} // namespace gr::gpuofdm::core
