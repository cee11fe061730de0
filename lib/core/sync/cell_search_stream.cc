/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "sync/cell_search_stream.h"

#include "runtime/param_error.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace gr::gpuofdm::core {

namespace {

std::vector<raster_candidate> channel_candidates(const raster_params& raster, double rate)
{
    std::vector<raster_candidate> out;
    for (const auto& c : raster_candidates(raster)) {
        if (std::abs(c.offset_hz) + rate / 2 <= raster.sample_rate / 2) {
            out.push_back(c);
        }
    }
    if (out.empty()) {
        throw std::invalid_argument(
            "sample_rate: no raster candidate's channel fits inside the band at this rate");
    }
    return out;
}

// A recording's DC offset (the receiver's carrier leakage, a constant) is, in the row of a
// candidate \p cycles_per_sample x rate from the centre, a tone at minus that offset: its
// amplitude over the window (a mean, in which the sync signals' share is negligible: a
// burst a few tens of microseconds long on one of their subcarriers) is subtracted, so
// that it neither correlates with the PSS nor raises the power its metric is normalised by.
void remove_capture_dc(std::complex<float>* row, size_t n, double cycles_per_sample)
{
    if (n == 0) {
        return;
    }
    const std::complex<double> step = std::polar(1.0, 2 * M_PI * cycles_per_sample);
    std::complex<double> rot = 1, sum = 0;
    for (size_t j = 0; j < n; j++) {
        sum += std::complex<double>(row[j]) * rot;
        rot *= step;
    }
    const std::complex<double> amplitude = sum / static_cast<double>(n);
    rot = 1;
    for (size_t j = 0; j < n; j++) {
        row[j] -= std::complex<float>(amplitude * std::conj(rot));
        rot *= step;
    }
}

} // namespace

cell_search_stream::cell_search_stream(const raster_params& raster,
                                       const cell_search_params& search,
                                       double window_s,
                                       const device_spec& dev)
    : d_layout(make_cell_search_layout(search.standard, search.scs_khz))
{
    raster.validate();
    search.validate();
    if (raster.standard != search.standard || raster.ssb_scs_khz != search.scs_khz) {
        throw std::invalid_argument("search: the raster's standard and SSB spacing");
    }
    if (!(window_s >= 5e-3 && window_s <= 1.0)) {
        throw_param_error("window_s", "5e-3..1", window_s);
    }
    if (std::abs(raster.sample_rate - std::round(raster.sample_rate)) > 1e-6) {
        throw_param_error("sample_rate", "whole Hz", raster.sample_rate);
    }
    d_candidates = channel_candidates(raster, d_layout.rate_hz);
    cell_search_params sp = search;
    if (sp.cfo_range_hz == 0 && raster.center_hz > 0) {
        // The default range follows the oscillator's error at the highest candidate.
        double carrier = 0;
        for (const auto& c : d_candidates) {
            carrier = std::max(carrier, raster.center_hz + c.offset_hz);
        }
        sp.cfo_range_hz = default_cfo_range_hz(sp, carrier);
    }
    d_search = make_cell_search(sp, dev);
    channelizer_params cp;
    cp.sample_rate = raster.sample_rate;
    cp.output_rate = d_layout.rate_hz;
    for (const auto& c : d_candidates) {
        cp.offsets_hz.push_back(c.offset_hz);
    }
    d_channelizer = make_wideband_channelizer(cp, dev);
    const auto fs = static_cast<uint64_t>(std::llround(raster.sample_rate));
    const auto fo = static_cast<uint64_t>(std::llround(d_layout.rate_hz));
    const uint64_t g = std::gcd(fs, fo);
    d_p = fs / g;
    d_q = fo / g;
    d_overlap = d_search->history() + d_search->lookahead();
    d_window = static_cast<size_t>(window_s * d_layout.rate_hz);
    reset();
}

void cell_search_stream::reset()
{
    d_channelizer->reset();
    // Zeros before the stream's first sample, as many as the search looks back (the LTE
    // SSS before its PSS, TDD's three symbols earlier): a sync block at the very start of a
    // recording is searched too.
    d_rows.assign(d_candidates.size(),
                  std::vector<std::complex<float>>(d_search->history(), { 0.0f, 0.0f }));
    d_row_start = d_pushed = d_decided = 0;
}

std::vector<cell_search_stream::detection> cell_search_stream::push(const std::complex<float>* x,
                                                                    size_t n)
{
    std::vector<detection> out;
    size_t produced = 0;
    const auto rows = d_channelizer->push(x, n, produced);
    append(rows, produced);
    d_pushed += n;
    while (d_rows[0].size() >= d_window + d_overlap) {
        search_rows(false, out);
    }
    return out;
}

std::vector<cell_search_stream::detection> cell_search_stream::finish()
{
    std::vector<detection> out;
    size_t produced = 0;
    const auto rows = d_channelizer->flush(produced);
    append(rows, produced);
    search_rows(true, out);
    d_decided = d_pushed;
    return out;
}

void cell_search_stream::append(const std::vector<std::complex<float>>& rows, size_t produced)
{
    for (size_t c = 0; c < d_rows.size(); c++) {
        d_rows[c].insert(d_rows[c].end(), rows.begin() + static_cast<ptrdiff_t>(c * produced),
                         rows.begin() + static_cast<ptrdiff_t>((c + 1) * produced));
    }
}

void cell_search_stream::search_rows(bool last, std::vector<detection>& out)
{
    const size_t n = d_rows[0].size();
    if (n >= d_overlap + 1) {
        std::vector<std::complex<float>> flat(d_rows.size() * n);
        for (size_t c = 0; c < d_rows.size(); c++) {
            std::copy(d_rows[c].begin(), d_rows[c].end(),
                      flat.begin() + static_cast<ptrdiff_t>(c * n));
            const double offset = d_candidates[c].offset_hz;
            if (std::abs(offset) < d_layout.rate_hz / 2) {
                // The zeros before the stream stay zeros.
                const size_t skip = d_row_start == 0 ? d_search->history() : 0;
                remove_capture_dc(flat.data() + c * n + skip, n - std::min(n, skip),
                                  offset / d_layout.rate_hz);
            }
        }
        const int64_t first_sample =
            static_cast<int64_t>(d_row_start) - static_cast<int64_t>(d_search->history());
        for (const auto& d :
             d_search->search(flat.data(), n, static_cast<int>(d_rows.size()), n, first_sample)) {
            detection f;
            f.cell = d;
            f.candidate = d_candidates[d.channel];
            f.sample = static_cast<uint64_t>(std::max<int64_t>(d.sample, 0)) * d_p / d_q;
            out.push_back(f);
        }
    }
    if (last || n < d_overlap) {
        return;
    }
    const size_t drop = n - d_overlap;
    for (auto& r : d_rows) {
        r.erase(r.begin(), r.begin() + static_cast<ptrdiff_t>(drop));
    }
    d_row_start += drop;
    // No later detection starts before the next window's first timing, less a symbol (row
    // sample d_row_start is stream sample d_row_start - history()).
    const uint64_t first = d_row_start;
    const uint64_t safe = first > static_cast<uint64_t>(d_layout.fft_size)
                              ? first - static_cast<uint64_t>(d_layout.fft_size)
                              : 0;
    d_decided = std::max(d_decided, std::min(d_pushed, safe * d_p / d_q));
}

} // namespace gr::gpuofdm::core
