/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuofdm/cell_searcher_cc.h>

#include "block_params.h"
#include "block_pin_util.h"
#include "stream_end.h"
#include "work_guard.h"
#include "sync/cell_search_stream.h"

#include <gnuradio/io_signature.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>

namespace gr {
namespace gpuofdm {

namespace {

using cf = gr_complex;

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
          d_standard(raster.standard), d_stream(raster, search, window_ms * 1e-3, dev),
          d_key(pmt::mp("cell")), d_port(pmt::mp("cells"))
    {
        // Held samples: twice what a window's search needs in hand (its overlap grows with
        // the periods combined), and at least two windows and 20 ms each, kept by the
        // stream (on CUDA in device memory: each sample crosses the bus once each way).
        d_capacity =
            std::max(2 * d_stream.samples_to_hold(),
                     static_cast<size_t>(2 * (window_ms * 1e-3 + 0.02) * raster.sample_rate));
        d_stream.keep_samples(d_capacity);
        set_tag_propagation_policy(TPP_DONT); // input tags pass in general_work
        // Decided samples leave a window at a time: a large output buffer takes them in few
        // calls, each a transfer and a wait on a GPU (a flowgraph's setting overrides it).
        set_min_output_buffer(1 << 20);
        // A history the block never reads, as prach_detector_c's: GNU Radio sizes the buffer
        // in front of a block to at least twice its history, so the upstream writes ahead in
        // pieces of up to 2^18 samples instead of trading GNU Radio's default 8192-item
        // buffer with general_work(), each call an upload and a wait.
        set_history(unused_history + 1);
        message_port_register_out(d_port);
        d_logger->debug("{} candidates searched on {}, {} ms a window", candidates(), device(),
                        window_ms);
    }

    std::string device() const override { return d_stream.searcher().device().to_string(); }
    int candidates() const override { return static_cast<int>(d_stream.candidates().size()); }

    bool start() override
    {
        d_stream.reset();
        d_tags.clear();
        if (device() != "cpu") {
            // The samples then go up from GNU Radio's buffers and come back into them by
            // DMA, with no copy on the host.
            pin_block_buffers(
                *this, d_logger, sizeof(cf), sizeof(cf),
                [this](const void* p, size_t bytes) { return d_stream.pin_host_buffer(p, bytes); });
        }
        d_ingested = 0;
        d_flushed = false;
        return true;
    }

    bool stop() override
    {
        d_stream.release_host_buffers();
        return true;
    }

    void forecast(int, gr_vector_int& ninput_items_required) override
    {
        ninput_items_required[0] =
            (decided() > nitems_written(0) ? 1 : input_to_progress(*this)) + int(unused_history);
    }

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override
    {
        return stop_on_error(d_logger, [&]() -> int {
            return guarded_work(noutput_items, ninput_items, input_items, output_items);
        });
    }

private:
    int guarded_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items)
    {
        const uint64_t r0 = nitems_read(0), w0 = nitems_written(0);
        // The call's items start with the history, there only to size the buffer.
        const uint64_t avail_end =
            r0 + static_cast<uint64_t>(std::max(ninput_items[0] - int(unused_history), 0));
        const bool at_end = input_at_end(*this, ninput_items[0]);
        // One sample stays unread until the end of the stream is seen (stream_end.h).
        const uint64_t limit = at_end ? avail_end : (avail_end > r0 ? avail_end - 1 : r0);
        const size_t held = static_cast<size_t>(d_ingested - w0);
        if (d_ingested < limit && held < d_capacity) {
            // At most max_push a call, consumed at once: the block upstream refills the
            // buffer while the next piece goes up, where a whole buffer at a time would
            // leave the two blocks taking turns.
            const size_t take = static_cast<size_t>(std::min<uint64_t>(
                { limit - d_ingested, d_capacity - held, uint64_t{ max_push } }));
            const auto* in =
                static_cast<const cf*>(input_items[0]) + unused_history + (d_ingested - r0);
            std::vector<gr::tag_t> tags;
            get_tags_in_range(tags, 0, d_ingested, d_ingested + take);
            d_tags.insert(d_tags.end(), tags.begin(), tags.end());
            report(d_stream.push(in, take));
            d_ingested += take;
        }
        if (at_end && d_ingested == avail_end && !d_flushed) {
            report(d_stream.finish());
            d_flushed = true;
        }

        // Output what is decided, with its tags.
        const auto n_out =
            static_cast<size_t>(std::min<uint64_t>(uint64_t(noutput_items), decided() - w0));
        if (n_out > 0) {
            d_stream.take(static_cast<cf*>(output_items[0]), n_out);
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

    uint64_t decided() const { return d_flushed ? d_ingested : d_stream.decided(); }

    void report(const std::vector<core::cell_search_stream::detection>& found)
    {
        for (const auto& f : found) {
            const auto& d = f.cell;
            const uint64_t sample = std::max<uint64_t>(nitems_written(0), f.sample);
            pmt::pmt_t m = pmt::make_dict();
            auto add = [&m](const char* k, const pmt::pmt_t& v) {
                m = pmt::dict_add(m, pmt::mp(k), v);
            };
            add("standard", pmt::mp(core::cell_standard_name(d_standard)));
            add("cell_id", pmt::from_long(d.cell_id));
            add("nid1", pmt::from_long(d.nid1));
            add("nid2", pmt::from_long(d.nid2));
            add("offset_hz", pmt::from_double(f.candidate.offset_hz));
            add("absolute_hz", pmt::from_double(f.candidate.absolute_hz));
            add("raster_number", pmt::from_long(f.candidate.raster_number));
            add("sample", pmt::from_uint64(sample));
            add("cfo_hz", pmt::from_double(d.cfo_hz));
            add("snr_db", pmt::from_double(d.snr_db));
            add("power_db", pmt::from_double(d.power_db));
            add("metric", pmt::from_double(d.pss_metric));
            add("sss_metric", pmt::from_double(d.sss_metric));
            add("dmrs_metric", pmt::from_double(d.dmrs_metric));
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
    }

    core::cell_standard d_standard;
    core::cell_search_stream d_stream;
    pmt::pmt_t d_key, d_port;
    static constexpr size_t max_push = 1 << 18;          // samples pushed a call (2 MB)
    static constexpr unsigned unused_history = 1u << 18; // see the constructor
    size_t d_capacity = 0; // samples the stream keeps: nitems_written(0) .. d_ingested
    std::deque<gr::tag_t> d_tags;
    uint64_t d_ingested = 0;
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
                                              const std::string& device,
                                              double sro_ppm,
                                              bool combine_symbols,
                                              int pss_steps)
{
    return with_block_names<sptr>(
        [&]() -> sptr {
            core::raster_params r;
            r.standard = core::parse_cell_standard(standard);
            r.sample_rate = samp_rate;
            r.center_hz = center_freq;
            r.ssb_scs_khz = ssb_scs_khz;
            r.offsets_hz = offsets_hz;
            core::cell_search_params s;
            s.standard = r.standard;
            s.scs_khz = ssb_scs_khz;
            s.cfo_range_hz = cfo_range_hz;
            s.pss_threshold = pss_threshold;
            s.sss_threshold = sss_threshold;
            s.combine_periods = combine_periods;
            s.sro_ppm = sro_ppm;
            s.combine_symbols = combine_symbols;
            s.pss_steps = pss_steps;
            if (!(window_ms >= 5 && window_ms <= 1000)) {
                throw std::invalid_argument("window_ms: 5..1000, got " + std::to_string(window_ms));
            }
            return gnuradio::make_block_sptr<cell_searcher_cc_impl>(r, s, window_ms,
                                                                    core::resolve_device(device));
        },
        { { "sample_rate", "samp_rate" },
          { "center_hz", "center_freq" },
          { "scs_khz", "ssb_scs_khz" } });
}

} // namespace gpuofdm
} // namespace gr
