/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/param_error.h"
#include "sync/wideband_channelizer.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace gr::gpuofdm::core {

namespace {

bool whole_hz(double hz) { return std::abs(hz - std::round(hz)) < 1e-6; }

constexpr size_t min_outputs_per_block = 1024; // M at least this (a multiple of q)
constexpr size_t max_fft_in = size_t(1) << 22;

//! The resampling ratio L / M = p / q in lowest terms, and the output FFT size (the least
//! multiple of q from min_outputs_per_block).
struct rate_ratio {
    uint64_t p, q;
    size_t fft_out;
};

rate_ratio ratio_of(double sample_rate, double output_rate)
{
    const auto fs = static_cast<uint64_t>(std::llround(sample_rate));
    const auto fo = static_cast<uint64_t>(std::llround(output_rate));
    const uint64_t g = std::gcd(fs, fo);
    const uint64_t q = fo / g;
    return { fs / g, q, static_cast<size_t>(q * ((min_outputs_per_block + q - 1) / q)) };
}

} // namespace

void channelizer_params::validate() const
{
    if (!(sample_rate >= 1e6 && sample_rate <= 250e6) || !whole_hz(sample_rate)) {
        throw_param_error("sample_rate", "whole Hz, 1e6..250e6", sample_rate);
    }
    if (!(output_rate >= 1e3 && output_rate <= sample_rate) || !whole_hz(output_rate)) {
        throw_param_error("output_rate", "whole Hz, 1e3..sample_rate", output_rate);
    }
    if (offsets_hz.empty() || offsets_hz.size() > 4096) {
        throw_param_error("offsets_hz", "1..4096 channels", static_cast<double>(offsets_hz.size()));
    }
    for (double f : offsets_hz) {
        if (!(std::abs(f) + output_rate / 2 <= sample_rate / 2)) {
            throw_param_error("offsets_hz", "|offset| + output_rate / 2 <= sample_rate / 2", f);
        }
    }
    if (!(passband_hz >= 0 && passband_hz < output_rate / 2)) {
        throw_param_error("passband_hz", "0 (default) or below output_rate / 2", passband_hz);
    }
    const rate_ratio r = ratio_of(sample_rate, output_rate);
    if (r.p > max_fft_in / r.fft_out * r.q) {
        throw_param_error("sample_rate",
                          "a ratio to output_rate with a smaller denominator (L over 2^22)",
                          sample_rate);
    }
}

channelizer_plan make_channelizer_plan(const channelizer_params& params)
{
    params.validate(); // also bounds the ratio, so fft_in <= 2^22
    const rate_ratio r = ratio_of(params.sample_rate, params.output_rate);
    const uint64_t p = r.p, q = r.q; // L / M = p / q
    channelizer_plan plan;
    plan.fft_out = r.fft_out;
    plan.fft_in = static_cast<size_t>(plan.fft_out * p / q);
    // A quarter of each block discarded (half at each end): the window's impulse response
    // must fit; whole outputs and whole capture samples at each end (a multiple of 2q).
    plan.overlap_out = static_cast<size_t>(2 * q * ((plan.fft_out / 4 + 2 * q - 1) / (2 * q)));
    if (plan.overlap_out >= plan.fft_out) {
        plan.overlap_out = plan.fft_out / 2;
    }
    plan.overlap_in = static_cast<size_t>(plan.overlap_out * p / q);
    plan.hop_in = plan.fft_in - plan.overlap_in;
    plan.hop_out = plan.fft_out - plan.overlap_out;

    const double bin_hz = params.sample_rate / static_cast<double>(plan.fft_in);
    for (double f : params.offsets_hz) {
        const auto bin = static_cast<long long>(std::llround(f / bin_hz));
        plan.center_bin.push_back(static_cast<int>(
            ((bin % static_cast<long long>(plan.fft_in)) + plan.fft_in) % plan.fft_in));
        plan.residual_hz.push_back(f - static_cast<double>(bin) * bin_hz);
    }
    const double pass = params.passband_hz > 0 ? params.passband_hz : 0.47 * params.output_rate;
    const double stop = params.output_rate / 2;
    plan.window.resize(plan.fft_out);
    for (size_t b = 0; b < plan.fft_out; b++) {
        const long long sb = b < plan.fft_out / 2
                                 ? static_cast<long long>(b)
                                 : static_cast<long long>(b) - static_cast<long long>(plan.fft_out);
        const double f = std::abs(static_cast<double>(sb) * bin_hz);
        double w = 0;
        if (f <= pass) {
            w = 1;
        } else if (f < stop) {
            w = 0.5 * (1 + std::cos(M_PI * (f - pass) / (stop - pass)));
        }
        plan.window[b] = static_cast<float>(w);
    }
    return plan;
}

wideband_channelizer::wideband_channelizer(const channelizer_params& params)
    : d_params(params), d_plan(make_channelizer_plan(params)),
      d_pending(d_plan.overlap_in / 2, std::complex<float>(0, 0)) // block 0 reaches before 0
{
}

wideband_channelizer::device_rows wideband_channelizer::capture_device(const std::complex<float>*,
                                                                       size_t)
{
    throw std::logic_error("wideband_channelizer::capture_device: this backend works on host "
                           "memory");
}

void wideband_channelizer::reset()
{
    d_pending.assign(d_plan.overlap_in / 2, std::complex<float>(0, 0));
    d_blocks = d_emitted = d_captured = 0;
}

wideband_channelizer::device_rows wideband_channelizer::push_device(const std::complex<float>*,
                                                                    size_t,
                                                                    size_t)
{
    throw std::logic_error("wideband_channelizer::push_device: this backend works on host memory");
}

wideband_channelizer::device_rows wideband_channelizer::flush_device()
{
    throw std::logic_error("wideband_channelizer::flush_device: this backend works on host memory");
}

template <typename Run>
size_t wideband_channelizer::drain(Run&& run)
{
    const size_t blocks = complete_blocks(d_pending.size());
    const size_t produced = blocks * d_plan.hop_out;
    if (blocks > 0) {
        run(blocks, produced);
        d_pending.erase(d_pending.begin(),
                        d_pending.begin() + static_cast<ptrdiff_t>(blocks * d_plan.hop_in));
        d_blocks += blocks;
        d_emitted += produced;
    }
    return produced;
}

std::vector<std::complex<float>> wideband_channelizer::push(const std::complex<float>* in,
                                                            size_t n,
                                                            size_t& produced)
{
    d_pending.insert(d_pending.end(), in, in + n);
    d_captured += n;
    std::vector<std::complex<float>> out;
    produced = drain([&](size_t blocks, size_t p) {
        out.resize(static_cast<size_t>(channels()) * p);
        run_blocks(d_pending.data(), blocks, d_blocks, d_emitted, out.data(), p);
    });
    return out;
}

std::vector<std::complex<float>> wideband_channelizer::flush(size_t& produced)
{
    const size_t owed = outputs_owned(d_captured) - d_emitted;
    produced = 0;
    if (owed == 0) {
        return {};
    }
    d_pending.resize(d_pending.size() + d_plan.fft_in, std::complex<float>(0, 0));
    size_t got = 0;
    const auto rows = push(nullptr, 0, got);
    std::vector<std::complex<float>> kept(static_cast<size_t>(channels()) * owed);
    for (int c = 0; c < channels(); c++) {
        std::copy_n(rows.begin() + static_cast<ptrdiff_t>(static_cast<size_t>(c) * got), owed,
                    kept.begin() + static_cast<ptrdiff_t>(static_cast<size_t>(c) * owed));
    }
    produced = owed;
    d_pending.clear();
    return kept;
}

std::unique_ptr<wideband_channelizer> make_wideband_channelizer(const channelizer_params& params,
                                                                const device_spec& dev)
{
    params.validate();
    if (!dev.is_cuda()) {
        return make_wideband_channelizer_cpu(params);
    }
#ifdef GPUOFDM_HAVE_CUDA
    return make_wideband_channelizer_cuda(params, dev);
#else
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
