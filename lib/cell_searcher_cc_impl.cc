/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuofdm/cell_searcher_cc.h>

#include "stream_end.h"
#include "sync/cell_search.h"
#include "sync/wideband_channelizer.h"

#include <gnuradio/io_signature.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>
#include <stdexcept>

namespace gr {
namespace gpuofdm {

namespace {

using cf = gr_complex;

//! The raster candidates whose whole channel (the search's rate) lies inside the band.
std::vector<core::raster_candidate> channel_candidates(const core::raster_params& raster,
                                                       const core::cell_search_params& search)
{
    const double rate = core::make_cell_search_layout(search.standard, search.scs_khz).rate_hz;
    std::vector<core::raster_candidate> out;
    for (const auto& c : core::raster_candidates(raster)) {
        if (std::abs(c.offset_hz) + rate / 2 <= raster.sample_rate / 2) {
            out.push_back(c);
        }
    }
    return out;
}

class cell_searcher_cc_impl : public cell_searcher_cc
{
public:
    cell_searcher_cc_impl(const core::raster_params& raster,
                          const core::cell_search_params& search,
                          double window_ms,
                          const core::device_spec& dev)
        : gr::block("cell_searcher_cc",
                    gr::io_signature::make(1, 1, sizeof(gr_complex)),
                    gr::io_signature::make(1, 1, sizeof(gr_complex))),
          d_raster(raster), d_candidates(channel_candidates(raster, search)),
          d_layout(core::make_cell_search_layout(search.standard, search.scs_khz)),
          d_search(core::make_cell_search(search, dev)), d_key(pmt::mp("cell")),
          d_port(pmt::mp("cells"))
    {
        if (d_candidates.empty()) {
            throw std::invalid_argument(
                "samp_rate: no raster candidate fits inside the band at this rate");
        }
        core::channelizer_params cp;
        cp.sample_rate = raster.sample_rate;
        cp.output_rate = d_layout.rate_hz;
        for (const auto& c : d_candidates) {
            cp.offsets_hz.push_back(c.offset_hz);
        }
        d_channelizer = core::make_wideband_channelizer(cp, dev);
        // Row sample j is stream sample j p / q.
        const auto fs = static_cast<uint64_t>(std::llround(raster.sample_rate));
        const auto fo = static_cast<uint64_t>(std::llround(d_layout.rate_hz));
        const uint64_t g = std::gcd(fs, fo);
        d_p = fs / g;
        d_q = fo / g;
        d_overlap = d_search->history() + d_search->lookahead();
        d_window = static_cast<size_t>(window_ms * 1e-3 * d_layout.rate_hz);
        d_max_buffered = 2 * (d_window + d_overlap) * d_p / d_q + 65536;
        set_tag_propagation_policy(TPP_DONT); // input tags pass in general_work
        message_port_register_out(d_port);
        d_logger->debug("{} candidates searched on {}, {} ms a window", d_candidates.size(),
                        d_search->device().to_string(), window_ms);
    }

    std::string device() const override { return d_search->device().to_string(); }
    int candidates() const override { return static_cast<int>(d_candidates.size()); }

    bool start() override
    {
        d_channelizer->reset();
        d_rows.assign(d_candidates.size(), {});
        d_row_start = d_ingested = d_decided = 0;
        d_buf.clear();
        d_tags.clear();
        d_flushed = false;
        return true;
    }

    void forecast(int, gr_vector_int& ninput_items_required) override
    {
        ninput_items_required[0] = d_decided > nitems_written(0) ? 1 : input_to_progress(*this);
    }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        const uint64_t r0 = nitems_read(0), w0 = nitems_written(0);
        const uint64_t avail_end = r0 + static_cast<uint64_t>(std::max(ninput_items[0], 0));
        const bool at_end = input_at_end(*this, ninput_items[0]);
        // One sample stays unread until the end of the stream is seen (stream_end.h).
        const uint64_t limit = at_end ? avail_end : (avail_end > r0 ? avail_end - 1 : r0);
        if (d_ingested < limit && d_buf.size() < d_max_buffered) {
            const size_t take = static_cast<size_t>(
                std::min<uint64_t>(limit - d_ingested, d_max_buffered - d_buf.size()));
            const auto* in = static_cast<const cf*>(input_items[0]) + (d_ingested - r0);
            std::vector<gr::tag_t> tags;
            get_tags_in_range(tags, 0, d_ingested, d_ingested + take);
            for (const auto& t : tags) {
                d_tags.push_back(t);
            }
            d_buf.insert(d_buf.end(), in, in + take);
            size_t produced = 0;
            const auto rows = d_channelizer->push(in, take, produced);
            append(rows, produced);
            d_ingested += take;
            while (d_rows[0].size() >= d_window + d_overlap) {
                search_rows(false);
            }
        }
        const bool all_in = at_end && d_ingested == avail_end;
        if (all_in && !d_flushed) {
            size_t produced = 0;
            const auto rows = d_channelizer->flush(produced);
            append(rows, produced);
            search_rows(true);
            d_flushed = true;
        }
        if (d_flushed) {
            d_decided = d_ingested;
        }

        // Output what is decided, with its tags.
        const auto n_out =
            static_cast<size_t>(std::min<uint64_t>(uint64_t(noutput_items), d_decided - w0));
        if (n_out > 0) {
            auto* out = static_cast<cf*>(output_items[0]);
            std::copy_n(d_buf.begin(), n_out, out);
            d_buf.erase(d_buf.begin(), d_buf.begin() + static_cast<ptrdiff_t>(n_out));
            std::stable_sort(d_tags.begin(), d_tags.end(), gr::tag_t::offset_compare);
            while (!d_tags.empty() && d_tags.front().offset < w0 + n_out) {
                add_item_tag(0, d_tags.front());
                d_tags.pop_front();
            }
        }
        const bool done = d_flushed && w0 + n_out == d_ingested;
        const uint64_t consume_to =
            done ? d_ingested : std::min(d_ingested, avail_end > r0 ? avail_end - 1 : r0);
        if (consume_to > r0) {
            consume(0, static_cast<int>(consume_to - r0));
        }
        return static_cast<int>(n_out);
    }

private:
    void append(const std::vector<cf>& out, size_t produced)
    {
        for (size_t c = 0; c < d_rows.size(); c++) {
            d_rows[c].insert(d_rows[c].end(), out.begin() + static_cast<ptrdiff_t>(c * produced),
                             out.begin() + static_cast<ptrdiff_t>((c + 1) * produced));
        }
    }

    //! Searches the rows held (all of them at the end), reports, keeps the overlap.
    void search_rows(bool last)
    {
        const size_t n = d_rows[0].size();
        if (n >= d_overlap + 1) {
            std::vector<cf> flat(d_rows.size() * n);
            for (size_t c = 0; c < d_rows.size(); c++) {
                std::copy(d_rows[c].begin(), d_rows[c].end(),
                          flat.begin() + static_cast<ptrdiff_t>(c * n));
            }
            for (const auto& d : d_search->search(flat.data(), n, static_cast<int>(d_rows.size()),
                                                  n, static_cast<int64_t>(d_row_start))) {
                report(d);
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
        // No later detection starts before the next window's first timing (less a symbol).
        const uint64_t first_row = d_row_start + d_search->history();
        const uint64_t safe_row = first_row > static_cast<uint64_t>(d_layout.fft_size)
                                      ? first_row - d_layout.fft_size
                                      : 0;
        d_decided = std::max(d_decided, std::min(d_ingested, safe_row * d_p / d_q));
    }

    void report(const core::cell_detection& d)
    {
        const auto& cand = d_candidates[d.channel];
        const uint64_t sample = std::max<uint64_t>(
            nitems_written(0), static_cast<uint64_t>(std::max<int64_t>(d.sample, 0)) * d_p / d_q);
        pmt::pmt_t m = pmt::make_dict();
        auto add = [&m](const char* k, pmt::pmt_t v) { m = pmt::dict_add(m, pmt::mp(k), v); };
        add("standard", pmt::mp(core::cell_standard_name(d_raster.standard)));
        add("cell_id", pmt::from_long(d.cell_id));
        add("nid1", pmt::from_long(d.nid1));
        add("nid2", pmt::from_long(d.nid2));
        add("offset_hz", pmt::from_double(cand.offset_hz));
        add("absolute_hz", pmt::from_double(cand.absolute_hz));
        add("raster_number", pmt::from_long(cand.raster_number));
        add("sample", pmt::from_uint64(sample));
        add("cfo_hz", pmt::from_double(d.cfo_hz));
        add("snr_db", pmt::from_double(d.snr_db));
        add("power_db", pmt::from_double(d.power_db));
        add("metric", pmt::from_double(d.pss_metric));
        add("sss_metric", pmt::from_double(d.sss_metric));
        add("ssb_index", pmt::from_long(d.ssb_index));
        add("half_frame", pmt::from_long(d.half_frame));
        add("subframe", pmt::from_long(d.subframe));
        add("symbol", pmt::from_long(d.symbol));
        add("tdd", pmt::from_long(d.tdd));
        add("extended_cp", pmt::from_long(d.extended_cp));
        message_port_pub(d_port, m);
        gr::tag_t t;
        t.offset = sample;
        t.key = d_key;
        t.value = m;
        t.srcid = alias_pmt();
        d_tags.push_back(t);
    }

    core::raster_params d_raster;
    std::vector<core::raster_candidate> d_candidates;
    core::cell_search_layout d_layout;
    std::unique_ptr<core::cell_search> d_search;
    std::unique_ptr<core::wideband_channelizer> d_channelizer;
    pmt::pmt_t d_key, d_port;
    uint64_t d_p = 1, d_q = 1;
    size_t d_overlap = 0, d_window = 0, d_max_buffered = 0;
    std::vector<std::vector<cf>> d_rows;
    uint64_t d_row_start = 0, d_ingested = 0, d_decided = 0;
    std::deque<cf> d_buf; // stream samples from nitems_written(0) to d_ingested
    std::deque<gr::tag_t> d_tags;
    bool d_flushed = false;
};

} // namespace

cell_searcher_cc::sptr cell_searcher_cc::make(const std::string& standard,
                                              double samp_rate,
                                              double center_freq,
                                              const std::vector<double>& offsets_hz,
                                              int ssb_scs_khz,
                                              double cfo_range_hz,
                                              double pss_threshold,
                                              double sss_threshold,
                                              int combine_periods,
                                              double window_ms,
                                              const std::string& device)
{
    core::raster_params r;
    r.standard = core::parse_cell_standard(standard);
    r.sample_rate = samp_rate;
    r.center_hz = center_freq;
    r.ssb_scs_khz = ssb_scs_khz;
    r.offsets_hz = offsets_hz;
    r.validate();
    if (std::abs(samp_rate - std::round(samp_rate)) > 1e-6) {
        throw std::invalid_argument("samp_rate: whole Hz");
    }
    core::cell_search_params s;
    s.standard = r.standard;
    s.scs_khz = ssb_scs_khz;
    s.cfo_range_hz = cfo_range_hz;
    s.pss_threshold = pss_threshold;
    s.sss_threshold = sss_threshold;
    s.combine_periods = combine_periods;
    s.validate();
    if (!(window_ms >= 5 && window_ms <= 1000)) {
        throw std::invalid_argument("window_ms: 5..1000, got " + std::to_string(window_ms));
    }
    return gnuradio::make_block_sptr<cell_searcher_cc_impl>(r, s, window_ms,
                                                            core::resolve_device(device));
}

} // namespace gpuofdm
} // namespace gr
