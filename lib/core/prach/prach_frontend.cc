/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// PRACH front end parameters, the bins each occasion takes, and the factory.

#include "prach/prach_frontend.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

constexpr double kappa_rate = 30.72e6; // 1 / (kappa T_c)
constexpr size_t max_cells = 1024;
constexpr double max_sample_rate = 491.52e6; // 400 MHz FR2 carrier's 4096 x 120 kHz

// x as a whole number when it is one to 1e-6, else throws naming \p name.
long whole(double x, const std::string& name, const std::string& what)
{
    const double r = std::round(x);
    // Past 2^40 no value here is meaningful, and long(r) must not overflow.
    if (!(std::abs(x) < 0x1p40) || std::abs(x - r) > 1e-6 * std::max(1.0, std::abs(x)))
        throw std::invalid_argument(name + ": " + what + ", got " + std::to_string(x));
    return long(r);
}

} // namespace

void prach_frontend_params::validate() const
{
    const prach_format_info fmt = prach_format_lookup(format, mu);
    if (!(sample_rate > 0 && sample_rate <= max_sample_rate))
        throw std::invalid_argument("sample_rate: > 0 and <= 491.52e6 Hz, got " +
                                    std::to_string(sample_rate));
    const long n_fft = whole(sample_rate / fmt.scs_hz, "sample_rate",
                             "a multiple of Delta f_RA = " + std::to_string(fmt.scs_hz) + " Hz");
    if (n_fft < fmt.length)
        throw std::invalid_argument(
            "sample_rate: at least L_RA x Delta f_RA = " + std::to_string(fmt.length * fmt.scs_hz) +
            " Hz, got " + std::to_string(sample_rate));
    if (extra_cp_kappa < 0 || extra_cp_kappa > 64 || extra_cp_kappa % 16 != 0)
        throw std::invalid_argument("extra_cp_kappa: 0, 16, 32, 48 or 64, got " +
                                    std::to_string(extra_cp_kappa));
    whole((fmt.n_cp + extra_cp_kappa) * sample_rate / kappa_rate, "sample_rate",
          "a rate at which the cyclic prefix is whole samples (30.72 MHz x 2^k)");
    if (offset_hz.empty() || offset_hz.size() > max_cells)
        throw std::invalid_argument("offset_hz: one per cell, 1.." + std::to_string(max_cells) +
                                    " cells, got " + std::to_string(offset_hz.size()));
    if (n_antennas < 1 || n_antennas > 64)
        throw std::invalid_argument("n_antennas: 1..64, got " + std::to_string(n_antennas));
    if (n_time_occasions < 1 || n_time_occasions > 64)
        throw std::invalid_argument("n_time_occasions: 1..64, got " +
                                    std::to_string(n_time_occasions));
    if (n_fd_occasions != 1 && n_fd_occasions != 2 && n_fd_occasions != 4 && n_fd_occasions != 8)
        throw std::invalid_argument("n_fd_occasions: 1, 2, 4 or 8 (msg1-FDM), got " +
                                    std::to_string(n_fd_occasions));
    long spacing = 0;
    if (n_fd_occasions > 1) {
        spacing = whole(occasion_spacing_hz / fmt.scs_hz, "occasion_spacing_hz",
                        "a multiple of Delta f_RA");
        if (spacing < fmt.length)
            throw std::invalid_argument("occasion_spacing_hz: at least L_RA x Delta f_RA = " +
                                        std::to_string(fmt.length * fmt.scs_hz) +
                                        " Hz (occasions may not overlap), got " +
                                        std::to_string(occasion_spacing_hz));
    }
    for (size_t c = 0; c < offset_hz.size(); c++) {
        const std::string name = "offset_hz[" + std::to_string(c) + "]";
        const long first = whole(offset_hz[c] / fmt.scs_hz, name, "a multiple of Delta f_RA");
        const long last = first + (n_fd_occasions - 1) * spacing + fmt.length - 1;
        if (first < -n_fft / 2 || last >= n_fft / 2)
            throw std::invalid_argument(name +
                                        ": the PRACH band (occasions included) must lie "
                                        "within +-sample_rate / 2, got " +
                                        std::to_string(offset_hz[c]) + " Hz");
    }
}

long prach_bin0_offset(const prach_format_info& fmt,
                       double scs_pusch_hz,
                       int grid_size_rb,
                       int bwp_start_rb,
                       int msg1_frequency_start)
{
    const prach_allocation alloc = prach_allocation_lookup(fmt.length, fmt.scs_hz, scs_pusch_hz);
    const long K = long(std::lround(scs_pusch_hz / fmt.scs_hz));
    const long k1 = 12L * (bwp_start_rb + msg1_frequency_start) - 12L * grid_size_rb / 2;
    return K * k1 + alloc.kbar;
}

prach_frontend::prach_frontend(const prach_frontend_params& p) : d_params(p)
{
    p.validate();
    d_format = prach_format_lookup(p.format, p.mu);
    d_fft = int(std::lround(p.sample_rate / d_format.scs_hz));
    d_cp = int(std::lround((d_format.n_cp + p.extra_cp_kappa) * p.sample_rate / kappa_rate));
    d_scale = float(1.0 / std::sqrt(double(d_fft)));
    const long spacing =
        p.n_fd_occasions > 1 ? std::lround(p.occasion_spacing_hz / d_format.scs_hz) : 0;
    for (double off : p.offset_hz)
        for (int m = 0; m < p.n_fd_occasions; m++) {
            const long first = std::lround(off / d_format.scs_hz) + m * spacing;
            d_first_bin.push_back(int(((first % d_fft) + d_fft) % d_fft));
        }
}

size_t prach_frontend::samples_per_row() const
{
    return size_t(d_cp) + size_t(d_format.repetitions) * size_t(d_fft);
}

size_t prach_frontend::n_rows() const
{
    return d_params.offset_hz.size() * size_t(d_params.n_antennas) *
           size_t(d_params.n_time_occasions);
}

size_t prach_frontend::n_outputs() const { return n_rows() * size_t(d_params.n_fd_occasions); }

size_t prach_frontend::output_bins() const
{
    return size_t(d_format.repetitions) * size_t(d_format.length);
}

void prach_frontend::check(const cfloat* in,
                           size_t in_stride,
                           const cfloat* out,
                           size_t out_stride) const
{
    if (!in)
        throw std::invalid_argument("in: null pointer");
    if (!out)
        throw std::invalid_argument("out: null pointer");
    if (in_stride < samples_per_row())
        throw std::invalid_argument(
            "in_stride: >= CP + repetitions x n_fft = " + std::to_string(samples_per_row()) +
            ", got " + std::to_string(in_stride));
    if (out_stride < output_bins())
        throw std::invalid_argument(
            "out_stride: >= repetitions x L_RA = " + std::to_string(output_bins()) + ", got " +
            std::to_string(out_stride));
}

void prach_frontend::process(const cfloat* in, size_t in_stride, cfloat* out, size_t out_stride)
{
    check(in, in_stride, out, out_stride);
    run(in, in_stride, out, out_stride);
}

void prach_frontend::process_device(const cfloat* d_in,
                                    size_t in_stride,
                                    cfloat* d_out,
                                    size_t out_stride)
{
    check(d_in, in_stride, d_out, out_stride);
    run_device(d_in, in_stride, d_out, out_stride);
}

void prach_frontend::run_device(const cfloat*, size_t, cfloat*, size_t)
{
    throw std::logic_error("prach_frontend::process_device: the CUDA backend only");
}

std::unique_ptr<prach_frontend> make_prach_frontend(const prach_frontend_params& p,
                                                    const device_spec& dev,
                                                    const cuda_context_ptr& ctx)
{
    p.validate();
    if (!dev.is_cuda())
        return make_prach_frontend_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_prach_frontend_cuda(p, dev, ctx);
#else
    (void)ctx;
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
