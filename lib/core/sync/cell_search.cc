/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "sync/cell_search.h"
#include "sync/cell_search_common.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace gr::gpuofdm::core {

namespace {

[[noreturn]] void bad(const char* name, const std::string& range, double got)
{
    std::ostringstream msg;
    msg << name << ": " << range << ", got " << got;
    throw std::invalid_argument(msg.str());
}

int wrap_bin(int k, int n) { return ((k % n) + n) % n; }

// 36.211 6.11.1.2: n = 0..30 below DC, 31..61 above it, DC itself left out.
int dc_gap(int n) { return n < 31 ? n - 31 : n - 30; }

} // namespace

cell_search_layout make_cell_search_layout(cell_standard standard, int scs_khz)
{
    cell_search_layout l;
    switch (standard) {
    case cell_standard::nr:
        l.fft_size = 256;
        l.scs_hz = scs_khz * 1e3;
        l.pss_length = nr_sync_length;
        for (int n = 0; n < nr_sync_length; n++) {
            l.pss_bins.push_back(wrap_bin(56 + n - 120, l.fft_size)); // SSB k from SS_REF
        }
        l.sss_bins = l.pss_bins;
        break;
    case cell_standard::lte:
        l.fft_size = 128;
        l.scs_hz = 15e3;
        l.pss_length = lte_sync_length;
        for (int n = 0; n < lte_sync_length; n++) {
            l.pss_bins.push_back(wrap_bin(dc_gap(n), l.fft_size));
        }
        l.sss_bins = l.pss_bins;
        break;
    case cell_standard::fivegtf:
        l.fft_size = 256;
        l.scs_hz = 75e3;
        l.pss_length = lte_sync_length;
        for (int n = 0; n < lte_sync_length; n++) {
            l.pss_bins.push_back(wrap_bin(dc_gap(n), l.fft_size));
            l.sss_bins.push_back(n + 42); // V5G.211: +42..+103
        }
        for (int n = 0; n < fivegtf_ess_length; n++) {
            l.ess_bins.push_back(wrap_bin(n - 104, l.fft_size)); // -104..-42
        }
        break;
    }
    l.rate_hz = l.fft_size * l.scs_hz;
    l.cp = l.fft_size * 144 / 2048;
    return l;
}

void cell_search_params::validate() const
{
    if (standard == cell_standard::nr && scs_khz != 15 && scs_khz != 30) {
        bad("scs_khz", "15 or 30 for NR", scs_khz);
    }
    const double scs = make_cell_search_layout(standard, scs_khz).scs_hz;
    if (!(cfo_range_hz >= 0 && cfo_range_hz <= 64 * scs)) {
        bad("cfo_range_hz", "0..64 subcarrier spacings", cfo_range_hz);
    }
    if (!(pss_threshold > 1 && pss_threshold < 1e6)) {
        bad("pss_threshold", "> 1 (the metric's mean in noise)", pss_threshold);
    }
    if (!(sss_threshold > 1 && sss_threshold < 1e6)) {
        bad("sss_threshold", "> 1 (the metric's mean in noise)", sss_threshold);
    }
    if (combine_periods < 1 || combine_periods > 16) {
        bad("combine_periods", "1..16", combine_periods);
    }
    if (!(period_s >= 5e-3 && period_s <= 160e-3)) {
        bad("period_s", "5e-3..160e-3", period_s);
    }
    if (max_peaks < 1 || max_peaks > 1024) {
        bad("max_peaks", "1..1024", max_peaks);
    }
    if (ssb_lmax != 4 && ssb_lmax != 8) {
        bad("ssb_lmax", "4 or 8", ssb_lmax);
    }
}

std::vector<double> cell_search_params::cfo_hypotheses() const
{
    const double scs = make_cell_search_layout(standard, scs_khz).scs_hz;
    const double range = cfo_range_hz > 0 ? cfo_range_hz : scs;
    const int steps = static_cast<int>(std::ceil(range / (scs / 2) - 1e-9));
    std::vector<double> h;
    for (int i = -steps; i <= steps; i++) {
        h.push_back(i * scs / 2);
    }
    return h;
}

size_t cell_search_params::period_samples() const
{
    const double rate = make_cell_search_layout(standard, scs_khz).rate_hz;
    const double period = standard == cell_standard::nr ? period_s : 5e-3;
    return static_cast<size_t>(std::llround(period * rate));
}

cell_search::cell_search(const cell_search_params& params)
    : d_params(params), d_layout(make_cell_search_layout(params.standard, params.scs_khz))
{
    d_params.validate();
}

size_t cell_search::history() const
{
    int before = 0;
    for (const auto& pos : sss_positions(d_layout, d_params.standard)) {
        before = std::max(before, -pos.offset);
    }
    return static_cast<size_t>(before);
}

size_t cell_search::lookahead() const
{
    int after = d_layout.fft_size;
    for (const auto& pos : sss_positions(d_layout, d_params.standard)) {
        after = std::max(after, pos.offset + d_layout.fft_size);
    }
    if (d_params.standard == cell_standard::nr) {
        after = 3 * (d_layout.fft_size + d_layout.cp) + d_layout.fft_size; // PBCH symbol 3
    }
    return static_cast<size_t>(after) +
           static_cast<size_t>(d_params.combine_periods - 1) * d_params.period_samples();
}

std::unique_ptr<cell_search> make_cell_search(const cell_search_params& params,
                                              const device_spec& dev)
{
    params.validate();
    if (dev.is_cuda()) {
        throw std::invalid_argument("device: the cell search runs on the CPU so far");
    }
    return make_cell_search_cpu(params);
}

} // namespace gr::gpuofdm::core
