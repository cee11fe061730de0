/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ofdm_sync_cc_impl.h"
#include "block_params.h"
#include "stream_end.h"
#include "work_guard.h"

#include <gnuradio/io_signature.h>

#include <boost/thread/thread.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuofdm {

namespace {

constexpr int max_failures = 10; // failed synchronizer calls in a row

} // namespace

ofdm_sync_cc::sptr ofdm_sync_cc::make(const std::string& standard,
                                      float threshold,
                                      int min_plateau,
                                      int batch_samples,
                                      double sample_rate,
                                      const std::string& device,
                                      int cp_div)
{
    core::ofdm_sync_params p;
    p.standard = core::parse_phy_standard(standard);
    p.threshold = threshold;
    p.min_plateau = non_negative(min_plateau, "min_plateau");
    p.batch_samples = non_negative(batch_samples, "batch_samples");
    p.sample_rate = sample_rate;
    p.cp_div = cp_div;
    p.validate(); // every range, before a backend or GNU Radio's base class is built
    auto sync = core::make_ofdm_sync(p, core::resolve_device(device));
    return gnuradio::make_block_sptr<ofdm_sync_cc_impl>(p, std::move(sync));
}

ofdm_sync_cc_impl::ofdm_sync_cc_impl(const core::ofdm_sync_params& params,
                                     std::unique_ptr<core::ofdm_sync> sync)
    : gr::block("ofdm_sync_cc",
                gr::io_signature::make(1, 1, sizeof(gr_complex)),
                gr::io_signature::make(1, 1, sizeof(gr_complex))),
      d_params(params), d_sync(std::move(sync)), d_lookback(d_sync->lookback()),
      d_tag_key(pmt::mp("ofdm_sync")), d_port(pmt::mp("frames")),
      // The next batch starts with the last lookback() samples (no frame is held back: the
      // samples are output whatever follows).
      d_batcher({ params.batch_samples, d_lookback, 0 }, stream_hooks())
{
    set_relative_rate(1, 1);
    set_tag_propagation_policy(TPP_DONT); // input tags are passed on in general_work
    message_port_register_out(d_port);
    d_buf.reserve(params.batch_samples);
    d_logger->debug("{} synchronizer on {}, {} samples per call, {} samples held back", standard(),
                    device(), params.batch_samples, d_lookback + 1);
}

std::string ofdm_sync_cc_impl::device() const { return d_sync->device().to_string(); }

bool ofdm_sync_cc_impl::start()
{
    // A new run: the stream counters start again at 0.
    d_batcher.reset();
    d_buf.clear();
    d_buf_start = d_ingested = d_decided = 0;
    d_frames.clear();
    d_tags.clear();
    d_active = false;
    d_failures = 0;
    return block::start();
}

void ofdm_sync_cc_impl::forecast(int, gr_vector_int& ninput_items_required)
{
    // With decided samples to output, the sample kept back is enough; else a call must read
    // a new one (or see the end of the stream).
    ninput_items_required[0] = d_decided > nitems_written(0) ? 1 : input_to_progress(*this);
}

core::stream_detector<ofdm_sync_cc_impl::frame> ofdm_sync_cc_impl::stream_hooks()
{
    core::stream_detector<frame> d;
    // The batch is d_buf's tail; its samples stay there until they are output.
    d.append = [this](const core::cfloat* x, size_t n, size_t) {
        d_buf.insert(d_buf.end(), x, x + n);
    };
    d.keep = [](size_t, size_t) {};
    d.detect = [this](const core::stream_batch& b, std::vector<frame>& out) {
        return search(b, out);
    };
    return d;
}

core::batch_decision ofdm_sync_cc_impl::search(const core::stream_batch& b, std::vector<frame>& out)
{
    core::batch_decision decision;
    decision.resume = b.search_from;
    const core::cfloat* x = d_buf.data() + (b.start - d_buf_start);
    std::vector<frame> found;
    bool ok = false;
    try {
        found = d_sync->detect(x, b.n, b.start, b.search_from);
        ok = true;
    } catch (const boost::thread_interrupted&) {
        throw; // the scheduler's own way of stopping a thread
    } catch (const core::cuda_error&) {
        throw; // the device's state is unknown: general_work() stops the block
    } catch (const std::exception& e) {
        d_logger->error("synchronizer: {}", e.what());
    } catch (...) {
        d_logger->error("synchronizer: unknown exception");
    }
    d_failures = ok ? 0 : d_failures + 1;

    for (const auto& f : found) {
        const bool any = !out.empty() || !d_frames.empty() || d_active;
        const uint64_t last = !out.empty()        ? out.back().start
                              : !d_frames.empty() ? d_frames.back().start
                                                  : d_active_start;
        if (any && f.start <= last) {
            d_logger->debug("frame at {} dropped: not after the frame at {}", f.start, last);
            continue;
        }
        out.push_back(f);
        decision.resume = size_t(f.resume - b.start);
    }
    return decision;
}

pmt::pmt_t ofdm_sync_cc_impl::frame_dict(const frame& f) const
{
    pmt::pmt_t d = pmt::make_dict();
    d = pmt::dict_add(d, pmt::mp("cfo"), pmt::from_double(f.cfo));
    d = pmt::dict_add(d, pmt::mp("cfo_hz"),
                      pmt::from_double(f.cfo * d_params.sample_rate / (2.0 * M_PI)));
    d = pmt::dict_add(d, pmt::mp("metric"), pmt::from_double(f.metric));
    d = pmt::dict_add(d, pmt::mp("ltf_metric"), pmt::from_double(f.ltf_metric));
    d = pmt::dict_add(d, pmt::mp("ltf_start"), pmt::from_uint64(f.ltf_start));
    return d;
}

void ofdm_sync_cc_impl::emit(gr_complex* out, uint64_t out_abs, size_t n)
{
    const gr_complex* in = d_buf.data() + (out_abs - d_buf_start);
    const uint64_t end = out_abs + n;
    uint64_t i = out_abs;
    while (i < end) {
        // A frame that starts here (or, never expected, already passed) takes over.
        while (!d_frames.empty() && d_frames.front().start <= i) {
            const frame f = d_frames.front();
            d_frames.pop_front();
            d_active = true;
            d_active_start = f.start;
            d_active_cfo = f.cfo;
            const pmt::pmt_t d = frame_dict(f);
            add_item_tag(0, i, d_tag_key, d, alias_pmt());
            message_port_pub(d_port, pmt::dict_add(d, pmt::mp("offset"), pmt::from_uint64(i)));
            d_frames_out++;
        }
        const uint64_t seg_end = d_frames.empty() ? end : std::min(end, d_frames.front().start);
        const size_t at = size_t(i - out_abs), len = size_t(seg_end - i);
        if (!d_active)
            std::copy(in + at, in + at + len, out + at);
        else
            core::ofdm_sync_derotate(in + at, out + at, len, d_active_cfo, i - d_active_start);
        i = seg_end;
    }
    // Input tags at the same offsets.
    while (!d_tags.empty() && d_tags.front().offset < end) {
        add_item_tag(0, d_tags.front());
        d_tags.pop_front();
    }
}

int ofdm_sync_cc_impl::general_work(int noutput_items,
                                    gr_vector_int& ninput_items,
                                    gr_vector_const_void_star& input_items,
                                    gr_vector_void_star& output_items)
{
    return stop_on_error(d_logger, [&]() -> int {
        const uint64_t r0 = nitems_read(0), w0 = nitems_written(0);
        const uint64_t avail_end = r0 + uint64_t(std::max(ninput_items[0], 0));

        // The end of the stream: the upstream has finished and this call holds everything it
        // wrote. Until everything is output the block leaves one input sample unconsumed, to
        // see that end (stream_end.h).
        const bool at_end = input_at_end(*this, ninput_items[0]);

        // 1. Read while everything decided is out (d_buf then holds only the batch); the
        // batcher searches once it holds a whole batch, the rest at the end of the stream.
        const uint64_t limit = at_end ? avail_end : (avail_end > r0 ? avail_end - 1 : r0);
        if (w0 == d_decided && d_ingested < limit) {
            // Output samples leave d_buf here, at most lookback() of them move.
            d_buf.erase(d_buf.begin(), d_buf.begin() + long(w0 - d_buf_start));
            d_buf_start = w0;
            const size_t take = size_t(std::min<uint64_t>(limit - d_ingested, d_batcher.room()));
            const auto* in = static_cast<const gr_complex*>(input_items[0]);
            std::vector<gr::tag_t> tags;
            get_tags_in_range(tags, 0, d_ingested, d_ingested + take);
            std::sort(tags.begin(), tags.end(), gr::tag_t::offset_compare);
            d_tags.insert(d_tags.end(), tags.begin(), tags.end());
            const auto found = d_batcher.process(in + (d_ingested - r0), take);
            d_frames.insert(d_frames.end(), found.begin(), found.end());
            d_ingested += take;
        }
        const bool all_in = at_end && d_ingested == avail_end;
        if (all_in && d_batcher.unsearched() > 0) {
            const auto found = d_batcher.finish();
            d_frames.insert(d_frames.end(), found.begin(), found.end());
        }
        if (d_failures >= max_failures) {
            d_logger->error("{} synchronizer calls failed in a row: the block stops", d_failures);
            return WORK_DONE;
        }
        // All but the batch held is final; everything, once the stream has ended and is read.
        d_decided = all_in ? d_ingested : std::max(d_decided, d_batcher.start());

        // 2. Output what is decided.
        const size_t n_out = size_t(std::min<uint64_t>(uint64_t(noutput_items), d_decided - w0));
        if (n_out > 0)
            emit(static_cast<gr_complex*>(output_items[0]), w0, n_out);

        // 3. Consume what was read, but one sample until everything is out.
        const bool flushed = all_in && w0 + n_out == d_ingested;
        const uint64_t consume_to =
            flushed ? d_ingested : std::min(d_ingested, avail_end > r0 ? avail_end - 1 : r0);
        if (consume_to > r0)
            consume(0, int(consume_to - r0));
        return int(n_out);
    });
}

} // namespace gpuofdm
} // namespace gr
