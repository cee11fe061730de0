/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "pfb_timing_sync_ccf_impl.h"
#include "pfb_timing_block_params.h"
#include "stream_end.h"

#include "work_guard.h"

#include <gnuradio/io_signature.h>

#include <algorithm>

namespace gr {
namespace gpuofdm {

namespace {

core::pfb_timing_params timing_params(double sps,
                                      float loop_bw,
                                      const std::vector<float>& taps,
                                      unsigned int filter_size,
                                      float init_phase,
                                      float max_rate_deviation,
                                      int osps,
                                      const std::string& mode,
                                      int chunk_samples,
                                      int warmup_samples)
{
    auto p = pfb_timing_block_params(sps, loop_bw, taps, filter_size, init_phase,
                                     max_rate_deviation, osps, mode, chunk_samples, warmup_samples);
    // A window holds a few GNU Radio buffers (sequential), or many chunks (chunked: the
    // loops of a call run in parallel).
    p.max_input_samples = p.mode == core::timing_mode::chunked
                              ? std::max<size_t>(1 << 20, 8 * (p.chunk_samples + p.warmup_samples))
                              : size_t(1) << 16;
    p.max_input_samples = std::min(p.max_input_samples, size_t(1) << 24);
    return p;
}

const std::vector<int> out_sizes = { sizeof(gr_complex), sizeof(float), sizeof(float),
                                     sizeof(float) };

} // namespace

pfb_timing_sync_ccf::sptr pfb_timing_sync_ccf::make(double sps,
                                                    float loop_bw,
                                                    const std::vector<float>& taps,
                                                    unsigned int filter_size,
                                                    float init_phase,
                                                    float max_rate_deviation,
                                                    int osps,
                                                    const std::string& device,
                                                    const std::string& mode,
                                                    int chunk_samples,
                                                    int warmup_samples)
{
    const auto p = timing_params(sps, loop_bw, taps, filter_size, init_phase, max_rate_deviation,
                                 osps, mode, chunk_samples, warmup_samples);
    p.validate();
    auto sync = core::make_pfb_timing_sync(p, core::resolve_device(device));
    return gnuradio::make_block_sptr<pfb_timing_sync_ccf_impl>(p, std::move(sync));
}

pfb_timing_sync_ccf_impl::pfb_timing_sync_ccf_impl(const core::pfb_timing_params& params,
                                                   std::unique_ptr<core::pfb_timing_sync> sync)
    : gr::block("pfb_timing_sync_ccf",
                gr::io_signature::make(1, 1, sizeof(gr_complex)),
                gr::io_signature::makev(1, 4, out_sizes)),
      d_params(params), d_sync(std::move(sync)), d_time_est(pmt::mp("time_est")),
      d_state(d_sync->initial_state())
{
    set_relative_rate(uint64_t(params.osps), uint64_t(params.sps_int()));
    set_output_multiple(params.osps);
    set_tag_propagation_policy(TPP_DONT); // tags are re-timed in general_work
    d_win.reserve(params.max_input_samples);
    // Room for the symbols of a full window (twice the nominal count: rate deviations).
    d_q.resize(size_t(params.osps) *
               (2 * params.max_input_samples / size_t(params.sps_int()) + 64));
}

bool pfb_timing_sync_ccf_impl::check_topology(int, int noutputs)
{
    return noutputs == 1 || noutputs == 4;
}

bool pfb_timing_sync_ccf_impl::start()
{
    d_state = d_sync->initial_state();
    d_win.clear();
    d_events.clear();
    d_pending.clear();
    d_q_tags.clear();
    d_q_pos = d_q_len = 0;
    d_q_full = false;
    d_backlog = false;
    d_finished = false;
    d_held = 0;
    return block::start();
}

void pfb_timing_sync_ccf_impl::forecast(int, gr_vector_int& ninput_items_required)
{
    // Symbols left from a full output need no new input; else a call needs a new sample, or
    // the end of the stream (the chunked mode runs its last, short chunk then).
    if (d_backlog)
        ninput_items_required[0] = d_held;
    else
        ninput_items_required[0] = d_held + (upstream_done(*this) ? 0 : 1);
}

int pfb_timing_sync_ccf_impl::general_work(int noutput_items,
                                           gr_vector_int& ninput_items,
                                           gr_vector_const_void_star& input_items,
                                           gr_vector_void_star& output_items)
{
    return stop_on_error(d_logger, [&]() -> int {
        return guarded_work(noutput_items, ninput_items, input_items, output_items);
    });
}

int pfb_timing_sync_ccf_impl::guarded_work(int noutput_items,
                                           gr_vector_int& ninput_items,
                                           gr_vector_const_void_star& input_items,
                                           gr_vector_void_star& output_items)
{
    const auto* in = static_cast<const gr_complex*>(input_items[0]);
    const int n_avail = ninput_items[0];
    const bool at_end = d_finished || input_at_end(*this, n_avail);
    // The newest sample stays unread in GNU Radio's buffer (it is already in the window,
    // d_held) while more output may come, so the scheduler calls again.
    const size_t fresh = size_t(std::max(0, n_avail - int(d_held)));
    const size_t room =
        d_params.max_input_samples - std::min(d_win.size(), d_params.max_input_samples);
    const size_t take = std::min(fresh, room);

    // Tags of the samples taken: time_est become loop events, the others wait for a symbol.
    const uint64_t r0 = nitems_read(0) + d_held;
    std::vector<gr::tag_t> tags;
    get_tags_in_range(tags, 0, r0, r0 + take);
    std::sort(tags.begin(), tags.end(), gr::tag_t::offset_compare);
    for (const auto& t : tags) {
        if (pmt::eqv(t.key, d_time_est) && pmt::is_number(t.value))
            d_events.push_back({ 0, int64_t(t.offset), float(pmt::to_double(t.value)) });
        else
            d_pending.push_back(t);
    }
    d_win.insert(d_win.end(), in + d_held, in + d_held + take);
    const bool all_taken = take == fresh;

    // Run the loops when the queue of symbols is empty: in sequential mode on what the
    // window holds; in chunked mode once the window holds half its room (many chunks in one
    // call: one launch), or at the end of the stream.
    const bool chunked = d_params.mode == core::timing_mode::chunked;
    const bool end_now = at_end && all_taken;
    if (d_q_pos == d_q_len &&
        (!chunked || end_now || d_win.size() >= d_params.max_input_samples / 2)) {
        d_q_pos = d_q_len = 0;
        const size_t n_win = d_win.size();
        const bool aux = output_items.size() == 4;
        core::pfb_timing_io io;
        io.in = d_win.data();
        io.in_stride = n_win;
        io.n_in = &n_win;
        io.out = d_q.data();
        io.out_stride = d_q.size();
        if (aux) {
            d_qaux.resize(3 * d_q.size());
            io.err = d_qaux.data();
            io.rate = io.err + d_q.size();
            io.phase = io.rate + d_q.size();
        }
        io.max_symbols = d_q.size() / size_t(d_params.osps);
        size_t n_sym = 0;
        io.n_symbols = &n_sym;
        io.symbol_pos = &d_symbol_pos;
        io.events = d_events.data();
        io.n_events = d_events.size();
        io.finish = end_now;
        d_sync->process(io, &d_state);
        d_finished = io.finish;
        d_q_len = n_sym * size_t(d_params.osps);
        d_q_full = n_sym > 0 && n_sym == io.max_symbols;
        place_tags(n_sym);

        const size_t drop = d_sync->consumable(d_state, n_win);
        d_win.erase(d_win.begin(), d_win.begin() + long(drop));
        core::pfb_timing_sync::advance(d_state, drop);
        // time_est tags behind every loop that can still start are done with.
        const int64_t behind = d_state.window_pos;
        d_events.erase(
            std::remove_if(d_events.begin(), d_events.end(),
                           [behind](const core::timing_event_in& e) { return e.pos < behind - 1; }),
            d_events.end());
    }

    // Drain the queue: symbols, the optional outputs, the tags placed on them.
    const size_t n_out = std::min(d_q_len - d_q_pos, size_t(noutput_items));
    std::copy(d_q.begin() + long(d_q_pos), d_q.begin() + long(d_q_pos + n_out),
              static_cast<gr_complex*>(output_items[0]));
    if (output_items.size() == 4 && !d_qaux.empty()) {
        for (size_t port = 0; port < 3; port++) {
            const float* src = d_qaux.data() + port * d_q.size() + d_q_pos;
            std::copy(src, src + n_out, static_cast<float*>(output_items[port + 1]));
        }
    }
    const uint64_t w0 = nitems_written(0);
    while (!d_q_tags.empty() && d_q_tags.front().first < d_q_pos + n_out) {
        gr::tag_t t = d_q_tags.front().second;
        t.offset = w0 + (d_q_tags.front().first - d_q_pos);
        add_item_tag(0, t);
        d_q_tags.pop_front();
    }
    d_q_pos += n_out;
    d_backlog = !all_taken || d_q_pos < d_q_len || d_q_full;

    const size_t read = size_t(d_held) + take;
    if (d_finished && !d_backlog) {
        consume_each(int(read)); // nothing more to come: let the scheduler end the stream
        d_held = 0;
        return n_out == 0 ? WORK_DONE : int(n_out);
    }
    const size_t keep = read > 0 ? 1 : 0;
    consume_each(int(read - keep));
    d_held = int(keep);
    return int(n_out);
}

void pfb_timing_sync_ccf_impl::place_tags(size_t n_symbols)
{
    // A symbol's filter centre: the stream reads history() - 1 zeros first.
    const int64_t to_real = int64_t(d_params.history()) - 1;
    const int64_t centre = (int64_t(d_params.taps_per_filter()) - 1) / 2;
    size_t s = 0;
    while (!d_pending.empty() && s < n_symbols) {
        const gr::tag_t& t = d_pending.front();
        while (s < n_symbols && d_symbol_pos[s] - to_real + centre < int64_t(t.offset))
            s++;
        if (s == n_symbols)
            break;
        d_q_tags.emplace_back(s * size_t(d_params.osps), t);
        d_pending.pop_front();
    }
}

} // namespace gpuofdm
} // namespace gr
