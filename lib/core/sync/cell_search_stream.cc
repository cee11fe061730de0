/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "sync/cell_search_stream.h"

#include "runtime/param_error.h"
#include "runtime/profile.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

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
    channelizer_params cp;
    cp.sample_rate = raster.sample_rate;
    cp.output_rate = d_layout.rate_hz;
    std::vector<capture_dc_row> dc;
    for (size_t c = 0; c < d_candidates.size(); c++) {
        const double offset = d_candidates[c].offset_hz;
        cp.offsets_hz.push_back(offset);
        // A recording's DC offset (the receiver's carrier leakage) is a tone in these rows.
        if (std::abs(offset) < d_layout.rate_hz / 2) {
            dc.push_back({ static_cast<int>(c), offset / d_layout.rate_hz });
        }
    }
    sp.channel_offsets_hz = cp.offsets_hz;
    d_rows = make_cell_search_rows(cp, sp, dc, dev);
    const auto fs = static_cast<uint64_t>(std::llround(raster.sample_rate));
    const auto fo = static_cast<uint64_t>(std::llround(d_layout.rate_hz));
    const uint64_t g = std::gcd(fs, fo);
    d_p = fs / g;
    d_q = fo / g;
    d_history = d_rows->searcher().history();
    d_overlap = d_history + d_rows->searcher().lookahead();
    d_window = static_cast<size_t>(window_s * d_layout.rate_hz);
    d_profile.enabled = profiling();
    // Channelized a window at a time: a stream of small pushes (GNU Radio's, the app's) then
    // costs the device a few large launches a window. Each launch beside a search's kernels
    // waits for room on the device, so fewer of them move the stream faster (docs/
    // BENCHMARKS.md, "Cell search streamed").
    d_min_blocks = std::max<size_t>(1, d_window / d_rows->channelizer().plan().hop_out);
    reset();
}

size_t cell_search_stream::samples_to_hold() const
{
    const auto& plan = d_rows->channelizer().plan();
    const uint64_t rows = d_window + d_overlap + (d_min_blocks + 1) * plan.hop_out;
    return static_cast<size_t>((rows * d_p + d_q - 1) / d_q) + plan.fft_in;
}

cell_search_stream::~cell_search_stream()
{
    if (d_inflight.valid()) {
        d_inflight.wait();
    }
    if (d_profile.enabled) {
        const auto& p = d_profile;
        std::fprintf(stderr,
                     "profile cell_search_stream: %zu pushes %.3f ms (channelizing), %zu takes "
                     "%.3f ms, %zu searches %.3f ms on their thread, waited for %.3f ms\n",
                     p.pushes, p.append, p.takes, p.take, p.searches, p.search, p.wait);
    }
}

void cell_search_stream::reset()
{
    if (d_inflight.valid()) {
        d_inflight.wait();
        d_inflight = {};
    }
    // Zeros before the stream's first sample, as many as the search looks back (the LTE
    // SSS before its PSS, TDD's three symbols earlier): a sync block at the very start of a
    // recording is searched too.
    d_rows->reset(d_history);
    d_row_start = d_pushed = d_decided = d_taken = 0;
}

void cell_search_stream::take(std::complex<float>* out, size_t n)
{
    if (d_taken + n > d_decided) {
        throw std::logic_error("cell_search_stream::take: " + std::to_string(n) +
                               " samples asked for, " + std::to_string(d_decided - d_taken) +
                               " decided");
    }
    const auto t0 = std::chrono::steady_clock::now();
    d_rows->take_kept(out, n);
    d_taken += n;
    d_profile.take += ms_since(t0);
    d_profile.takes++;
}

std::vector<cell_search_stream::detection> cell_search_stream::push(const std::complex<float>* x,
                                                                    size_t n)
{
    std::vector<detection> out;
    collect(false, out);
    const auto t0 = std::chrono::steady_clock::now();
    d_rows->append(x, n, d_min_blocks);
    d_profile.append += ms_since(t0);
    d_profile.pushes++;
    d_pushed += n;
    search_whole_windows(out);
    return out;
}

std::vector<cell_search_stream::detection> cell_search_stream::finish()
{
    std::vector<detection> out;
    d_rows->append_end();
    // The whole windows first: the rows may hold more than one now (they grow a channelizer
    // batch at a time), and the windows must be those of any other cut of the stream.
    search_whole_windows(out);
    search_rows(true, out);
    d_decided = d_pushed;
    return out;
}

void cell_search_stream::collect(bool wait, std::vector<detection>& out)
{
    if (!d_inflight.valid() ||
        (!wait && d_inflight.wait_for(std::chrono::seconds(0)) != std::future_status::ready)) {
        return;
    }
    const auto t0 = std::chrono::steady_clock::now();
    auto found = d_inflight.get(); // rethrows the search's exception
    d_profile.wait += ms_since(t0);
    add_detections(found, out);
    d_decided = std::max(d_decided, d_decided_after_inflight);
}

void cell_search_stream::add_detections(const std::vector<cell_detection>& found,
                                        std::vector<detection>& out)
{
    for (const auto& d : found) {
        detection f;
        f.cell = d;
        f.candidate = d_candidates[static_cast<size_t>(d.channel)];
        f.sample = static_cast<uint64_t>(std::max<int64_t>(d.sample, 0)) * d_p / d_q;
        out.push_back(f);
    }
}

void cell_search_stream::search_whole_windows(std::vector<detection>& out)
{
    while (d_rows->size() >= d_window + d_overlap) {
        search_rows(false, out);
    }
}

void cell_search_stream::search_rows(bool last, std::vector<detection>& out)
{
    collect(true, out); // one search at a time: the rows' snapshot is reused
    // A window and its overlap (all at the end): the windows are the same however the
    // stream was cut into pushes, and so are the detections.
    const size_t n = last ? d_rows->size() : std::min(d_rows->size(), d_window + d_overlap);
    if (n >= d_overlap + 1) {
        const int64_t first_sample =
            static_cast<int64_t>(d_row_start) - static_cast<int64_t>(d_history);
        // The zeros before the stream stay zeros.
        const size_t skip = d_row_start == 0 ? d_history : 0;
        auto search = d_rows->snapshot(n, skip, first_sample);
        d_profile.searches++;
        // Timed on the thread it runs on.
        auto timed = [search = std::move(search), total = &d_profile.search] {
            const auto t0 = std::chrono::steady_clock::now();
            auto found = search();
            *total += ms_since(t0);
            return found;
        };
        if (last) {
            add_detections(timed(), out);
        } else {
            d_inflight = std::async(std::launch::async, std::move(timed));
        }
    }
    if (last || n < d_overlap) {
        return;
    }
    const size_t drop = n - d_overlap;
    d_rows->drop(drop);
    d_row_start += drop;
    // No later detection starts before the next window's first timing, less a symbol (row
    // sample d_row_start is stream sample d_row_start - history()); so once this search is
    // in, samples before that are decided.
    const uint64_t first = d_row_start;
    const uint64_t safe = first > static_cast<uint64_t>(d_layout.fft_size)
                              ? first - static_cast<uint64_t>(d_layout.fft_size)
                              : 0;
    d_decided_after_inflight = std::max(d_decided, std::min(d_pushed, safe * d_p / d_q));
    if (!d_inflight.valid()) { // nothing searched (n == d_overlap)
        d_decided = d_decided_after_inflight;
    }
}

} // namespace gr::gpuofdm::core
