/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// PRACH detector parameters, the tables both backends share (roots, windows, thresholds),
// the detections from the backends' decisions, and the factory.

#include "prach/prach_detector.h"

#include "prach/prach_calibration.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

constexpr size_t max_cells = 1024;
constexpr int max_antennas = 64;
constexpr int max_occasions = 64;
constexpr int max_idft = 4096;

// round(a / b) for a >= 0, b > 0.
long div_round(long a, long b) { return (2 * a + b) / (2 * b); }

// log Q(k, x) = log(e^-x sum_{i<k} x^i / i!), the regularized upper incomplete gamma
// function of integer k, summed in the log domain.
double log_gamma_tail(int k, double x)
{
    if (x <= 0)
        return 0.0;
    const double lx = std::log(x);
    double log_max = -INFINITY;
    std::vector<double> terms(static_cast<size_t>(k));
    for (int i = 0; i < k; i++) {
        terms[size_t(i)] = -x + i * lx - std::lgamma(double(i) + 1.0);
        log_max = std::max(log_max, terms[size_t(i)]);
    }
    double s = 0;
    for (double t : terms)
        s += std::exp(t - log_max);
    return log_max + std::log(s);
}

} // namespace

double prach_gamma_threshold(int k, double p)
{
    if (k < 1)
        throw std::invalid_argument("k: >= 1, got " + std::to_string(k));
    if (!(p > 0 && p < 1))
        throw std::invalid_argument("p: in (0, 1), got " + std::to_string(p));
    const double target = std::log(p);
    double lo = 0, hi = 1;
    while (log_gamma_tail(k, k * hi) > target)
        hi *= 2;
    for (int it = 0; it < 200 && hi - lo > 1e-12 * hi; it++) {
        const double mid = 0.5 * (lo + hi);
        (log_gamma_tail(k, k * mid) > target ? lo : hi) = mid;
    }
    return hi;
}

void prach_detector_params::validate() const
{
    const prach_format_info fmt = prach_format_lookup(format, mu); // names format / mu
    if (cells.empty() || cells.size() > max_cells)
        throw std::invalid_argument("cells: 1.." + std::to_string(max_cells) + " cells, got " +
                                    std::to_string(cells.size()));
    for (size_t i = 0; i < cells.size(); i++) {
        const auto& c = cells[i];
        try {
            prach_root_u(c.logical_root, fmt.length);
            prach_ncs(fmt, c.set, c.zero_correlation_zone);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("cells[" + std::to_string(i) + "]." + e.what());
        }
    }
    if (n_antennas < 1 || n_antennas > max_antennas)
        throw std::invalid_argument("n_antennas: 1.." + std::to_string(max_antennas) + ", got " +
                                    std::to_string(n_antennas));
    if (n_occasions < 1 || n_occasions > max_occasions)
        throw std::invalid_argument("n_occasions: 1.." + std::to_string(max_occasions) + ", got " +
                                    std::to_string(n_occasions));
    if (idft_size != 0 &&
        (idft_size < fmt.length || idft_size > max_idft || (idft_size & (idft_size - 1)) != 0))
        throw std::invalid_argument("idft_size: 0 (default) or a power of two " +
                                    std::to_string(fmt.length) + ".." + std::to_string(max_idft) +
                                    " for L_RA " + std::to_string(fmt.length) + ", got " +
                                    std::to_string(idft_size));
    if (!(false_alarm > 0 && false_alarm <= 0.5))
        throw std::invalid_argument("false_alarm: in (0, 0.5], got " + std::to_string(false_alarm));
    if (!(sample_rate > 0 && std::isfinite(sample_rate)))
        throw std::invalid_argument("sample_rate: > 0 Hz, got " + std::to_string(sample_rate));
}

prach_detector::prach_detector(const prach_detector_params& p) : d_params(p)
{
    p.validate();
    d_format = prach_format_lookup(p.format, p.mu);
    const int L = d_format.length;
    d_idft = p.idft_size ? p.idft_size : (d_format.is_long() ? 1024 : 256);
    const long N = d_idft;
    const int A = p.n_antennas;
    const int R = d_format.repetitions;
    d_scale = float(1.0 / (double(A) * R * R * double(L) * L));

    const size_t n_cells = p.cells.size();
    d_preambles.resize(n_cells);
    d_cell_roots.resize(n_cells);
    d_row_offset.resize(n_cells);
    d_ref_offset.resize(n_cells);
    d_thresholds.resize(n_cells);
    d_windows.resize(n_cells * prach_preambles);
    const double inv_sqrt_l = 1.0 / std::sqrt(double(L));
    for (size_t c = 0; c < n_cells; c++) {
        const auto& cell = p.cells[c];
        const int ncs = prach_ncs(d_format, cell.set, cell.zero_correlation_zone);
        d_preambles[c] = prach_cell_preambles(L, cell.logical_root, ncs, cell.set);
        d_row_offset[c] = d_n_rows;
        d_ref_offset[c] = d_refs.size() / size_t(L);
        // The distinct roots, in preamble order; their references conj(y_u) / sqrt(L).
        int slot = -1;
        int last_logical = -1;
        const int images = cell.set == prach_restricted_set::unrestricted ? 0
                           : cell.set == prach_restricted_set::type_a     ? 1
                                                                          : 2;
        long samples = 0;
        for (const auto& pre : d_preambles[c]) {
            if (pre.logical_root != last_logical) {
                slot++;
                last_logical = pre.logical_root;
                for (const auto& y : prach_sequence_freq(pre.u, 0, L))
                    d_refs.push_back(cfloat(std::conj(y) * inv_sqrt_l));
            }
            prach_window& w = d_windows[c * prach_preambles + size_t(pre.index)];
            const long pos = (L - pre.cv) % L;
            const long zone = ncs == 0 ? L : ncs;
            const long start = div_round(N * pos, L);
            w.row_base = int(d_n_rows) + slot;
            w.start = int(start % N);
            w.length = int(div_round(N * (pos + zone), L) - start);
            w.n_images = images;
            w.guard = int((2 * N + L - 1) / L); // two sequence samples: the main lobe
            for (int m = 0; m < images; m++)
                w.image_offset[m] = int(div_round(N * (m + 1) * pre.du, L) % N);
            samples += w.length;
        }
        d_cell_roots[c] = slot + 1;
        for (size_t i = 0; i < prach_preambles; i++)
            d_windows[c * prach_preambles + i].row_step = d_cell_roots[c];
        d_n_rows += size_t(p.n_occasions) * size_t(d_cell_roots[c]);
        // Per-sample probability over the cell-occasion's samples (union bound).
        const double target =
            p.calibrated
                ? prach_calibrated_false_alarm(p.format, p.mu, A, cell.zero_correlation_zone,
                                               cell.set, p.false_alarm)
                : p.false_alarm;
        const double per_sample = -std::expm1(std::log1p(-target) / double(samples));
        d_thresholds[c] = float(prach_gamma_threshold(A * (1 + 2 * images), per_sample));
    }
}

const std::vector<prach_preamble_id>& prach_detector::preambles(int cell) const
{
    return d_preambles.at(size_t(cell));
}

int prach_detector::n_roots(int cell) const { return d_cell_roots.at(size_t(cell)); }

float prach_detector::threshold(int cell) const { return d_thresholds.at(size_t(cell)); }

size_t prach_detector::n_channels() const
{
    return d_params.cells.size() * size_t(d_params.n_antennas) * size_t(d_params.n_occasions);
}

size_t prach_detector::channel_bins() const
{
    return size_t(d_format.repetitions) * size_t(d_format.length);
}

void prach_detector::check_input(const void* bins, size_t stride) const
{
    if (!bins)
        throw std::invalid_argument("bins: null pointer");
    if (stride < channel_bins())
        throw std::invalid_argument(
            "stride: >= repetitions x L_RA = " + std::to_string(channel_bins()) + ", got " +
            std::to_string(stride));
}

std::vector<prach_detection> prach_detector::detect(const cfloat* bins, size_t stride)
{
    check_input(bins, stride);
    scan(bins, stride);
    return report();
}

std::vector<prach_detection> prach_detector::detect_device(const cfloat* d_bins, size_t stride)
{
    check_input(d_bins, stride);
    scan_device(d_bins, stride);
    return report();
}

void prach_detector::scan_device(const cfloat*, size_t)
{
    throw std::logic_error("prach_detector::detect_device: the CUDA backend only");
}

std::vector<prach_detection> prach_detector::detect_cs16(const std::complex<int16_t>* bins,
                                                         size_t stride,
                                                         float scale)
{
    check_input(bins, stride);
    if (!(scale > 0 && std::isfinite(scale)))
        throw std::invalid_argument("scale: finite and > 0, got " + std::to_string(scale));
    scan_cs16(bins, stride, scale);
    return report();
}

void prach_detector::scan_cs16(const std::complex<int16_t>* bins, size_t stride, float scale)
{
    const size_t n = channel_bins();
    d_converted.resize(n_channels() * n);
    for (size_t ch = 0; ch < n_channels(); ch++)
        for (size_t k = 0; k < n; k++) {
            const std::complex<int16_t> x = bins[ch * stride + k];
            d_converted[ch * n + k] = cfloat(float(x.real()) * scale, float(x.imag()) * scale);
        }
    scan(d_converted.data(), n);
}

std::vector<prach_detection> prach_detector::report()
{
    std::sort(d_found.begin(), d_found.end(), [](const prach_found& a, const prach_found& b) {
        return a.cell != b.cell           ? a.cell < b.cell
               : a.occasion != b.occasion ? a.occasion < b.occasion
                                          : a.preamble < b.preamble;
    });
    std::vector<prach_detection> out;
    out.reserve(d_found.size());
    const double bin_s = 1.0 / (double(d_idft) * d_format.scs_hz);
    for (const prach_found& f : d_found) {
        if (f.preamble < 0)
            throw std::invalid_argument("bins: non-finite values in cell " +
                                        std::to_string(f.cell) + ", occasion " +
                                        std::to_string(f.occasion));
        const size_t c = size_t(f.cell);
        const auto& id = d_preambles[c][size_t(f.preamble)];
        prach_detection d;
        d.cell = f.cell;
        d.occasion = f.occasion;
        d.preamble = id.index;
        d.logical_root = id.logical_root;
        d.u = id.u;
        d.delay_bins = f.delay_bins;
        d.delay_us = f.delay_bins * bin_s * 1e6;
        d.delay_samples = f.delay_bins * bin_s * d_params.sample_rate;
        d.power = f.power;
        d.noise = f.noise;
        d.metric = f.metric;
        d.threshold = d_thresholds[c];
        out.push_back(d);
    }
    return out;
}

std::unique_ptr<prach_detector> make_prach_detector(const prach_detector_params& p,
                                                    const device_spec& dev,
                                                    const cuda_context_ptr& ctx)
{
    p.validate();
    if (!dev.is_cuda())
        return make_prach_detector_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_prach_detector_cuda(p, dev, ctx);
#else
    (void)ctx;
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
