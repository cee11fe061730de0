/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ofdm/ofdm_layout.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {
constexpr int max_fft_len = 1 << 20;
constexpr size_t max_cp_period = 4096;
constexpr int max_batch = 1 << 20;
} // namespace

size_t ofdm_layout::default_batch(size_t fft_len)
{
    return std::max<size_t>(1, (size_t(1) << 18) / fft_len);
}

void ofdm_params::validate() const
{
    if (fft_len < 1 || fft_len > max_fft_len)
        throw std::invalid_argument("fft_len: must be in 1.." + std::to_string(max_fft_len) +
                                    ", got " + std::to_string(fft_len));
    if (cp_lengths.empty() || cp_lengths.size() > max_cp_period)
        throw std::invalid_argument("cp_lengths: give 1.." + std::to_string(max_cp_period) +
                                    " CP lengths (use [0] for none), got " +
                                    std::to_string(cp_lengths.size()));
    for (int cp : cp_lengths)
        if (cp < 0 || cp > fft_len)
            throw std::invalid_argument("cp_lengths: each CP must be in 0..fft_len (" +
                                        std::to_string(fft_len) + "), got " + std::to_string(cp));
    if (!std::isfinite(scale) || scale == 0.0f)
        throw std::invalid_argument("scale: must be finite and nonzero, got " +
                                    std::to_string(scale));
    if (batch < 0 || batch > max_batch)
        throw std::invalid_argument("batch: must be 0 (default) or 1.." +
                                    std::to_string(max_batch) + ", got " + std::to_string(batch));
}

ofdm_layout::ofdm_layout(const ofdm_params& p)
{
    p.validate();
    d_fft_len = size_t(p.fft_len);
    d_cp.assign(p.cp_lengths.begin(), p.cp_lengths.end());
    d_starts.resize(d_cp.size() + 1);
    d_starts[0] = 0;
    for (size_t i = 0; i < d_cp.size(); i++)
        d_starts[i + 1] = d_starts[i] + d_cp[i] + d_fft_len;
    d_min_cp = *std::min_element(d_cp.begin(), d_cp.end());
    d_max_cp = *std::max_element(d_cp.begin(), d_cp.end());
    d_shift = p.shift;
    d_scale = p.scale;
    d_batch = p.batch ? size_t(p.batch) : default_batch(d_fft_len);
}

uint64_t ofdm_layout::sample_offset(uint64_t symbol) const
{
    const uint64_t periods = symbol / d_cp.size();
    return periods * d_starts.back() + d_starts[symbol % d_cp.size()];
}

size_t ofdm_layout::symbols_within(uint64_t first, size_t n_samples, size_t limit) const
{
    // Whole periods first, then symbol by symbol (a period is short).
    const uint64_t base = sample_offset(first);
    const uint64_t period_len = d_starts.back();
    size_t n = size_t(std::min<uint64_t>(n_samples / period_len * period(), limit));
    while (n < limit && sample_offset(first + n + 1) - base <= n_samples)
        n++;
    return n;
}

} // namespace gr::gpuofdm::core
