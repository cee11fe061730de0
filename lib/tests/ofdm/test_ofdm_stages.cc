/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// OFDM FFT/IFFT stages: the CPU twin against a direct DFT written from the definition,
// the CUDA backend against the CPU twin, and parameter checks.

#include "ofdm/ofdm_stage.h"
#include "test_util.h"

#include <complex>
#include <stdexcept>
#include <tuple>

using namespace gr::gpuofdm;
using core::cfloat;
using core::ofdm_params;
using test::near_relative;
using test::random_complex;

namespace {

// Frequency (in bins, mod N) carried by vector entry j: with shift, DC sits at N/2.
size_t bin_frequency(size_t j, size_t n, bool shift) { return shift ? (j + n - n / 2) % n : j; }

std::vector<int> cp_list(const std::string& kind, int n)
{
    if (kind == "none")
        return { 0 };
    if (kind == "quarter")
        return { n / 4 };
    // LTE-like: a longer CP on the first of seven symbols (160/144 at n = 2048 scaled).
    return { n * 160 / 2048 + 1, n * 144 / 2048, n * 144 / 2048, n * 144 / 2048,
             n * 144 / 2048,     n * 144 / 2048, n * 144 / 2048 };
}

// Direct DFT of each symbol after dropping its CP (double precision).
std::vector<cfloat> reference_fft(const std::vector<cfloat>& in,
                                  const core::ofdm_layout& l,
                                  size_t n_symbols,
                                  uint64_t first)
{
    const size_t n = l.fft_len();
    std::vector<cfloat> out(n_symbols * n);
    size_t pos = 0;
    for (size_t s = 0; s < n_symbols; s++) {
        pos += l.cp_of(first + s);
        for (size_t j = 0; j < n; j++) {
            const size_t f = bin_frequency(j, n, l.shift());
            std::complex<double> acc = 0;
            for (size_t t = 0; t < n; t++)
                acc += std::complex<double>(in[pos + t]) *
                       std::polar(1.0, -2.0 * M_PI * double(f * t % n) / double(n));
            out[s * n + j] = cfloat(acc * double(l.scale()));
        }
        pos += n;
    }
    return out;
}

// Direct inverse DFT of each symbol, not divided by N, with its CP in front.
std::vector<cfloat> reference_ifft(const std::vector<cfloat>& in,
                                   const core::ofdm_layout& l,
                                   size_t n_symbols,
                                   uint64_t first)
{
    const size_t n = l.fft_len();
    std::vector<cfloat> out;
    for (size_t s = 0; s < n_symbols; s++) {
        std::vector<cfloat> x(n);
        for (size_t t = 0; t < n; t++) {
            std::complex<double> acc = 0;
            for (size_t j = 0; j < n; j++) {
                const size_t f = bin_frequency(j, n, l.shift());
                acc += std::complex<double>(in[s * n + j]) *
                       std::polar(1.0, 2.0 * M_PI * double(f * t % n) / double(n));
            }
            x[t] = cfloat(acc * double(l.scale()));
        }
        const size_t cp = l.cp_of(first + s);
        out.insert(out.end(), x.end() - cp, x.end());
        out.insert(out.end(), x.begin(), x.end());
    }
    return out;
}

// (fft_len, CP pattern, shift)
using stage_case = std::tuple<int, std::string, bool>;

class ofdm_stage_test : public ::testing::TestWithParam<stage_case>
{
protected:
    ofdm_params params(int batch = 0) const
    {
        ofdm_params p;
        p.fft_len = std::get<0>(GetParam());
        p.cp_lengths = cp_list(std::get<1>(GetParam()), p.fft_len);
        p.shift = std::get<2>(GetParam());
        p.scale = 0.5f;
        p.batch = batch;
        return p;
    }
    // Few symbols for big FFTs: the direct DFT is O(N^2).
    size_t symbols_for_reference() const { return std::get<0>(GetParam()) >= 2048 ? 2 : 9; }
};

} // namespace

TEST_P(ofdm_stage_test, cpu_fft_matches_direct_dft)
{
    const auto p = params();
    auto stage = core::make_ofdm_fft(p, core::device_spec{});
    const size_t n_sym = symbols_for_reference();
    const uint64_t first = 3; // starts inside the CP period
    const auto in = random_complex(stage->layout().samples(first, n_sym), 11);
    std::vector<cfloat> out(n_sym * p.fft_len);
    stage->process(in.data(), out.data(), n_sym, first);
    EXPECT_TRUE(near_relative(out, reference_fft(in, stage->layout(), n_sym, first), 1e-5));
}

TEST_P(ofdm_stage_test, cpu_ifft_matches_direct_idft)
{
    const auto p = params();
    auto stage = core::make_ofdm_ifft(p, core::device_spec{});
    const size_t n_sym = symbols_for_reference();
    const uint64_t first = 5;
    const auto in = random_complex(n_sym * p.fft_len, 12);
    std::vector<cfloat> out(stage->layout().samples(first, n_sym));
    stage->process(in.data(), out.data(), n_sym, first);
    EXPECT_TRUE(near_relative(out, reference_ifft(in, stage->layout(), n_sym, first), 1e-5));
}

TEST_P(ofdm_stage_test, cpu_round_trip_is_identity_times_n_scale2)
{
    const auto p = params();
    auto tx = core::make_ofdm_ifft(p, core::device_spec{});
    auto rx = core::make_ofdm_fft(p, core::device_spec{});
    const size_t n_sym = 10;
    const auto bins = random_complex(n_sym * p.fft_len, 13);
    std::vector<cfloat> air(tx->layout().samples(0, n_sym)), back(bins.size());
    tx->process(bins.data(), air.data(), n_sym, 0);
    rx->process(air.data(), back.data(), n_sym, 0);
    std::vector<cfloat> want(bins);
    for (auto& v : want)
        v *= float(p.fft_len) * p.scale * p.scale;
    EXPECT_TRUE(near_relative(back, want, 1e-5));
}

// CUDA against the CPU twin: more symbols than a batch, a batch that does not divide
// them, and a first symbol inside the CP period, so every chunk boundary is crossed.
TEST_P(ofdm_stage_test, cuda_fft_matches_cpu_twin)
{
    GPUOFDM_REQUIRE_GPU();
    const int batch = 7;
    const auto p = params(batch);
    auto cpu = core::make_ofdm_fft(p, core::device_spec{});
    auto gpu = core::make_ofdm_fft(p, core::resolve_device("cuda"));
    for (size_t n_sym : { size_t(1), size_t(batch), size_t(3 * batch + 2) }) {
        const uint64_t first = 4;
        const auto in = random_complex(cpu->layout().samples(first, n_sym), uint32_t(20 + n_sym));
        std::vector<cfloat> want(n_sym * p.fft_len), got(want.size() + 1, cfloat(7, 7));
        cpu->process(in.data(), want.data(), n_sym, first);
        gpu->process(in.data(), got.data(), n_sym, first);
        EXPECT_EQ(got.back(), cfloat(7, 7)) << "wrote past the end";
        got.pop_back();
        EXPECT_TRUE(near_relative(got, want, 2e-5)) << n_sym << " symbols";
    }
}

TEST_P(ofdm_stage_test, cuda_ifft_matches_cpu_twin)
{
    GPUOFDM_REQUIRE_GPU();
    const int batch = 7;
    const auto p = params(batch);
    auto cpu = core::make_ofdm_ifft(p, core::device_spec{});
    auto gpu = core::make_ofdm_ifft(p, core::resolve_device("cuda"));
    for (size_t n_sym : { size_t(1), size_t(batch), size_t(3 * batch + 2) }) {
        const uint64_t first = 6;
        const auto in = random_complex(n_sym * p.fft_len, uint32_t(40 + n_sym));
        std::vector<cfloat> want(cpu->layout().samples(first, n_sym)),
            got(want.size() + 1, cfloat(7, 7));
        cpu->process(in.data(), want.data(), n_sym, first);
        gpu->process(in.data(), got.data(), n_sym, first);
        EXPECT_EQ(got.back(), cfloat(7, 7)) << "wrote past the end";
        got.pop_back();
        EXPECT_TRUE(near_relative(got, want, 2e-5)) << n_sym << " symbols";
    }
}

INSTANTIATE_TEST_SUITE_P(sizes,
                         ofdm_stage_test,
                         ::testing::Combine(::testing::Values(64, 256, 2048, 4096, 15, 1),
                                            ::testing::Values("none", "quarter", "lte"),
                                            ::testing::Bool()),
                         [](const ::testing::TestParamInfo<stage_case>& i) {
                             return "n" + std::to_string(std::get<0>(i.param)) + "_" +
                                    std::get<1>(i.param) +
                                    (std::get<2>(i.param) ? "_shift" : "_noshift");
                         });

TEST(ofdm_layout, offsets_follow_the_cp_period)
{
    ofdm_params p;
    p.fft_len = 2048;
    p.cp_lengths = { 160, 144, 144, 144, 144, 144, 144 };
    core::ofdm_layout l(p);
    EXPECT_EQ(l.sample_offset(0), 0u);
    EXPECT_EQ(l.sample_offset(1), 2208u);
    EXPECT_EQ(l.sample_offset(7), 15360u); // one LTE slot: 0.5 ms at 30.72 Msps
    EXPECT_EQ(l.sample_offset(8), 15360u + 2208u);
    EXPECT_EQ(l.samples(6, 2), 2192u + 2208u);
    EXPECT_EQ(l.symbols_within(0, 15360, 100), 7u);
    EXPECT_EQ(l.symbols_within(0, 15359, 100), 6u);
    EXPECT_EQ(l.symbols_within(1, 2192 * 6 + 2208, 100), 7u);
    EXPECT_EQ(l.symbols_within(1, 1000000, 3), 3u);
    EXPECT_EQ(l.batch(), core::ofdm_layout::default_batch(2048));
}

TEST(ofdm_layout, bad_parameters_name_themselves)
{
    auto expect_bad = [](ofdm_params p, const std::string& name) {
        try {
            core::ofdm_layout l(p);
            ADD_FAILURE() << name << " accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(std::string(e.what()).rfind(name + ":", 0), 0u) << e.what();
        }
    };
    ofdm_params p;
    p.fft_len = 0;
    expect_bad(p, "fft_len");
    p = {};
    p.fft_len = -64;
    expect_bad(p, "fft_len");
    p = {};
    p.cp_lengths = { 16, -1 };
    expect_bad(p, "cp_lengths");
    p = {};
    p.cp_lengths = { 65 };
    expect_bad(p, "cp_lengths");
    p = {};
    p.cp_lengths = {};
    expect_bad(p, "cp_lengths");
    p = {};
    p.batch = -1;
    expect_bad(p, "batch");
    p = {};
    p.scale = 0.0f;
    expect_bad(p, "scale");
}

#include <sys/mman.h>
#include <unistd.h>

namespace {

/*!
 * A ring buffer mapped twice back to back, as GNU Radio's vmcircbuf makes them, so the
 * pinned-memory path is tested on the memory layout the blocks hand it.
 */
class double_mapped_ring
{
public:
    explicit double_mapped_ring(size_t bytes) : d_bytes(bytes)
    {
        const int fd = memfd_create("gpuofdm_test_ring", 0);
        if (fd < 0 || ftruncate(fd, off_t(bytes)) != 0)
            throw std::runtime_error("memfd_create/ftruncate failed");
        void* area = mmap(nullptr, 2 * bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        char* base = static_cast<char*>(area);
        const bool ok =
            area != MAP_FAILED &&
            mmap(base, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == base &&
            mmap(base + bytes, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) ==
                base + bytes;
        close(fd);
        if (!ok)
            throw std::runtime_error("double mapping failed");
        d_base = base;
    }
    ~double_mapped_ring() { munmap(d_base, 2 * d_bytes); }
    char* base() const { return d_base; }
    size_t bytes() const { return d_bytes; }

private:
    char* d_base = nullptr;
    size_t d_bytes;
};

} // namespace

// The blocks page-lock GNU Radio's double-mapped buffers and DMA straight to them; a batch
// that runs past the end of the first view must still be right.
TEST(ofdm_cuda_stage, pinned_double_mapped_buffers_match_cpu_twin)
{
    GPUOFDM_REQUIRE_GPU();
    ofdm_params p;
    p.fft_len = 64;
    p.cp_lengths = { 16 };
    p.batch = 100;
    auto cpu = core::make_ofdm_fft(p, core::device_spec{});
    auto gpu = core::make_ofdm_fft(p, core::resolve_device("cuda"));
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    double_mapped_ring in_ring(64 * page), out_ring(64 * page);
    ASSERT_TRUE(gpu->pin_host_range(in_ring.base(), 2 * in_ring.bytes()));
    ASSERT_TRUE(gpu->pin_host_range(out_ring.base(), 2 * out_ring.bytes()));
    // The same range again (the next block pinning its input) is accepted, not owned.
    ASSERT_TRUE(gpu->pin_host_range(in_ring.base(), 2 * in_ring.bytes()));

    const size_t n_sym = 250;
    const auto x = random_complex(cpu->layout().samples(0, n_sym), 77);
    // Start 1000 samples before the end of the first view, so the batch wraps.
    auto* in = reinterpret_cast<cfloat*>(in_ring.base() + in_ring.bytes()) - 1000;
    auto* out = reinterpret_cast<cfloat*>(out_ring.base() + out_ring.bytes()) - 3000;
    std::copy(x.begin(), x.end(), in);
    std::vector<cfloat> want(n_sym * 64);
    cpu->process(x.data(), want.data(), n_sym, 0);
    gpu->process(in, out, n_sym, 0);
    EXPECT_TRUE(near_relative(std::vector<cfloat>(out, out + want.size()), want, 2e-5));
    gpu->unpin_host_ranges();
    // Unpinned, the same call stages through the stage's own pinned memory.
    std::fill(out, out + want.size(), cfloat());
    gpu->process(in, out, n_sym, 0);
    EXPECT_TRUE(near_relative(std::vector<cfloat>(out, out + want.size()), want, 2e-5));
}
