/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "pfb_timing_sync_multi_ccf_impl.h"
#include "pfb_timing_block_params.h"

#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include "work_guard.h"

#include <gnuradio/io_signature.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gr {
namespace gpuofdm {

pfb_timing_sync_multi_ccf::sptr pfb_timing_sync_multi_ccf::make(int n_channels,
                                                                double sps,
                                                                float loop_bw,
                                                                const std::vector<float>& taps,
                                                                unsigned int filter_size,
                                                                float init_phase,
                                                                float max_rate_deviation,
                                                                int osps,
                                                                const std::string& device,
                                                                const std::string& mode,
                                                                int chunk_samples,
                                                                int warmup_samples,
                                                                bool vector_io)
{
    if (n_channels < 1 || n_channels > 1024)
        throw std::invalid_argument("n_channels: must be 1..1024, got " +
                                    std::to_string(n_channels));
    auto p = pfb_timing_block_params(sps, loop_bw, taps, filter_size, init_phase,
                                     max_rate_deviation, osps, mode, chunk_samples, warmup_samples);
    p.n_channels = size_t(n_channels);
    // Each channel's row: a few of GNU Radio's buffers (sequential), a few chunks (chunked).
    p.max_input_samples = p.mode == core::timing_mode::chunked
                              ? std::max<size_t>(1 << 14, 4 * (p.chunk_samples + p.warmup_samples))
                              : size_t(1) << 14;
    p.validate();
    auto sync = core::make_pfb_timing_sync(p, core::resolve_device(device));
    return gnuradio::make_block_sptr<pfb_timing_sync_multi_ccf_impl>(p, std::move(sync), vector_io);
}

namespace {

//! Items a pass of the vector port's transposes: 64 cache lines, in L1 for every channel.
constexpr size_t transpose_tile = 64;

gr::io_signature::sptr channel_ports(size_t n_channels, bool vector_io)
{
    return vector_io ? gr::io_signature::make(1, 1, int(n_channels * sizeof(gr_complex)))
                     : gr::io_signature::make(int(n_channels), int(n_channels), sizeof(gr_complex));
}

} // namespace

pfb_timing_sync_multi_ccf_impl::pfb_timing_sync_multi_ccf_impl(
    const core::pfb_timing_params& params,
    std::unique_ptr<core::pfb_timing_sync> sync,
    bool vector_io)
    : gr::block("pfb_timing_sync_multi_ccf",
                channel_ports(params.n_channels, vector_io),
                channel_ports(params.n_channels, vector_io)),
      d_params(params), d_sync(std::move(sync)), d_vector(vector_io),
      d_stride(params.max_input_samples), d_state(params.n_channels, d_sync->initial_state()),
      d_rows(params.n_channels * params.max_input_samples), d_len(params.n_channels, 0),
      d_held(params.n_channels, 0), d_n_sym(params.n_channels, 0),
      // The symbols of a full window (twice the nominal count: rate deviations).
      d_out_row(size_t(params.osps) *
                (2 * params.max_input_samples / size_t(params.sps_int()) + 64))
{
    d_out.resize(params.n_channels * d_out_row);
    set_relative_rate(uint64_t(params.osps), uint64_t(params.sps_int()));
    set_output_multiple(params.osps);
    set_tag_propagation_policy(TPP_ONE_TO_ONE);
    if (d_vector)
        d_vq.resize(params.n_channels);
}

const core::pfb_timing_state& pfb_timing_sync_multi_ccf_impl::state(int c) const
{
    if (c < 0 || size_t(c) >= d_state.size())
        throw std::invalid_argument("c: must be 0.." + std::to_string(d_state.size() - 1) +
                                    ", got " + std::to_string(c));
    return d_state[size_t(c)];
}

bool pfb_timing_sync_multi_ccf_impl::start()
{
    std::fill(d_state.begin(), d_state.end(), d_sync->initial_state());
    std::fill(d_len.begin(), d_len.end(), 0);
    std::fill(d_held.begin(), d_held.end(), 0);
    for (auto& q : d_vq)
        q.clear();
    d_backlog = false;
    d_finished = false;
    // The rows the stage reads and writes, page-locked on CUDA: its copies then go straight
    // over PCIe, overlapped with its loops (refused or on the CPU: only slower).
    d_sync->pin_host_range(d_rows.data(), d_rows.size() * sizeof(gr_complex));
    d_sync->pin_host_range(d_out.data(), d_out.size() * sizeof(gr_complex));
    return block::start();
}

bool pfb_timing_sync_multi_ccf_impl::stop()
{
    d_sync->unpin_host_ranges();
    return block::stop();
}

void pfb_timing_sync_multi_ccf_impl::forecast(int, gr_vector_int& ninput_items_required)
{
    // As pfb_timing_sync_ccf: the newest sample of each input stays unread while output may
    // still come, so the scheduler calls again; a call needs a new sample on every input
    // (or the end of the streams).
    for (size_t c = 0; c < ninput_items_required.size(); c++) {
        const gr::buffer_reader_sptr& r = detail()->input(int(c));
        bool done;
        {
            gr::thread::scoped_lock guard(*r->mutex());
            done = r->done();
        }
        ninput_items_required[c] = d_held[c] + (d_backlog || done ? 0 : 1);
    }
}

bool pfb_timing_sync_multi_ccf_impl::inputs_at_end(const gr_vector_int& ninput_items)
{
    for (size_t c = 0; c < ninput_items.size(); c++) {
        const gr::buffer_reader_sptr& r = detail()->input(int(c));
        gr::thread::scoped_lock guard(*r->mutex());
        if (!r->done() || r->items_available() > ninput_items[c])
            return false;
    }
    return true;
}

int pfb_timing_sync_multi_ccf_impl::general_work(int noutput_items,
                                                 gr_vector_int& ninput_items,
                                                 gr_vector_const_void_star& input_items,
                                                 gr_vector_void_star& output_items)
{
    return stop_on_error(d_logger, [&]() -> int {
        return guarded_work(noutput_items, ninput_items, input_items, output_items);
    });
}

int pfb_timing_sync_multi_ccf_impl::guarded_work(int noutput_items,
                                                 gr_vector_int& ninput_items,
                                                 gr_vector_const_void_star& input_items,
                                                 gr_vector_void_star& output_items)
{
    if (d_vector)
        return work_vector(noutput_items, ninput_items, input_items, output_items);
    const size_t C = d_params.n_channels;
    const bool at_end = d_finished || inputs_at_end(ninput_items);
    bool all_taken = true;
    std::vector<size_t> read(C);
    for (size_t c = 0; c < C; c++) {
        const auto* in = static_cast<const gr_complex*>(input_items[c]);
        const size_t fresh = size_t(std::max(0, ninput_items[c] - d_held[c]));
        const size_t take = std::min(fresh, d_stride - d_len[c]);
        std::copy(in + d_held[c], in + d_held[c] + take,
                  d_rows.begin() + long(c * d_stride + d_len[c]));
        d_len[c] += take;
        all_taken = all_taken && take == fresh;
        read[c] = size_t(d_held[c]) + take;
    }

    const size_t max_symbols = std::min(size_t(noutput_items), d_out_row) / size_t(d_params.osps);
    core::pfb_timing_io io;
    io.in = d_rows.data();
    io.in_stride = d_stride;
    io.n_in = d_len.data();
    io.out = d_out.data();
    io.out_stride = d_out_row;
    io.max_symbols = max_symbols;
    io.n_symbols = d_n_sym.data();
    io.finish = at_end && all_taken;
    d_sync->process(io, d_state.data());
    d_finished = io.finish;

    bool full = false;
    for (size_t c = 0; c < C; c++) {
        const size_t n = d_n_sym[c] * size_t(d_params.osps);
        std::memcpy(static_cast<void*>(output_items[c]), d_out.data() + c * d_out_row,
                    n * sizeof(gr_complex));
        produce(int(c), int(n));
        full = full || (d_n_sym[c] > 0 && d_n_sym[c] == max_symbols);
        const size_t drop = d_sync->consumable(d_state[c], d_len[c]);
        gr_complex* row = d_rows.data() + c * d_stride;
        std::memmove(static_cast<void*>(row), row + drop, (d_len[c] - drop) * sizeof(gr_complex));
        d_len[c] -= drop;
        core::pfb_timing_sync::advance(d_state[c], drop);
    }
    d_backlog = !all_taken || full;
    const bool done = d_finished && !d_backlog;
    for (size_t c = 0; c < C; c++) {
        const size_t keep = !done && read[c] > 0 ? 1 : 0;
        consume(int(c), int(read[c] - keep));
        d_held[c] = int(keep);
    }
    if (done) {
        size_t total = 0;
        for (size_t n : d_n_sym)
            total += n;
        if (total == 0)
            return WORK_DONE;
    }
    return WORK_CALLED_PRODUCE;
}

int pfb_timing_sync_multi_ccf_impl::work_vector(int noutput_items,
                                                gr_vector_int& ninput_items,
                                                gr_vector_const_void_star& input_items,
                                                gr_vector_void_star& output_items)
{
    const size_t C = d_params.n_channels;
    const bool at_end = d_finished || inputs_at_end(ninput_items);
    const auto* in = static_cast<const gr_complex*>(input_items[0]);
    const size_t fresh = size_t(std::max(0, ninput_items[0] - d_held[0]));
    size_t room = d_stride;
    for (size_t c = 0; c < C; c++)
        room = std::min(room, d_stride - d_len[c]);
    const size_t take = std::min(fresh, room);
    // Item t holds channels 0 .. C-1: into the channel-major rows, a tile of items at a
    // time so that their cache lines serve every channel.
    const gr_complex* fresh_in = in + size_t(d_held[0]) * C;
    for (size_t t0 = 0; t0 < take; t0 += transpose_tile) {
        const size_t t1 = std::min(take, t0 + transpose_tile);
        for (size_t c = 0; c < C; c++) {
            gr_complex* row = d_rows.data() + c * d_stride + d_len[c];
            for (size_t t = t0; t < t1; t++)
                row[t] = fresh_in[t * C + c];
        }
    }
    for (size_t c = 0; c < C; c++)
        d_len[c] += take;
    const bool all_taken = take == fresh;

    // Symbols into the channels' queues, as far as the queues have room.
    const size_t cap = d_out_row;
    size_t longest = 0;
    for (const auto& q : d_vq)
        longest = std::max(longest, q.size());
    bool full = false;
    if (longest < cap) {
        const size_t max_symbols = (cap - longest) / size_t(d_params.osps);
        core::pfb_timing_io io;
        io.in = d_rows.data();
        io.in_stride = d_stride;
        io.n_in = d_len.data();
        io.out = d_out.data();
        io.out_stride = cap;
        io.max_symbols = max_symbols;
        io.n_symbols = d_n_sym.data();
        io.finish = at_end && all_taken;
        d_sync->process(io, d_state.data());
        d_finished = io.finish;
        for (size_t c = 0; c < C; c++) {
            const size_t n = d_n_sym[c] * size_t(d_params.osps);
            d_vq[c].insert(d_vq[c].end(), d_out.begin() + long(c * cap),
                           d_out.begin() + long(c * cap + n));
            full = full || (d_n_sym[c] > 0 && d_n_sym[c] == max_symbols);
            const size_t drop = d_sync->consumable(d_state[c], d_len[c]);
            gr_complex* row = d_rows.data() + c * d_stride;
            std::memmove(static_cast<void*>(row), row + drop,
                         (d_len[c] - drop) * sizeof(gr_complex));
            d_len[c] -= drop;
            core::pfb_timing_sync::advance(d_state[c], drop);
        }
    } else {
        full = true;
    }

    // Output item t: symbol output t of every channel. The channels' counts differ by their
    // clocks; what the others lack at the end of the stream is filled with zeros.
    size_t shortest = SIZE_MAX;
    longest = 0;
    for (const auto& q : d_vq) {
        shortest = std::min(shortest, q.size());
        longest = std::max(longest, q.size());
    }
    const bool ending = d_finished && all_taken && !full;
    const size_t m = std::min(ending ? longest : shortest, size_t(noutput_items));
    auto* out = static_cast<gr_complex*>(output_items[0]);
    for (size_t t0 = 0; t0 < m; t0 += transpose_tile) {
        const size_t t1 = std::min(m, t0 + transpose_tile);
        for (size_t c = 0; c < C; c++) {
            const size_t have = std::min(t1, d_vq[c].size());
            for (size_t t = t0; t < t1; t++)
                out[t * C + c] = t < have ? d_vq[c][t] : gr_complex(0, 0);
        }
    }
    for (size_t c = 0; c < C; c++)
        d_vq[c].erase(d_vq[c].begin(), d_vq[c].begin() + long(std::min(m, d_vq[c].size())));
    size_t left = 0;
    for (const auto& q : d_vq)
        left = std::max(left, ending ? q.size() : std::min(q.size(), shortest - m));
    d_backlog = !all_taken || full || left > 0;

    const size_t read = size_t(d_held[0]) + take;
    if (d_finished && !d_backlog) {
        consume(0, int(read));
        d_held[0] = 0;
        return m == 0 ? WORK_DONE : int(m);
    }
    const size_t keep = read > 0 ? 1 : 0;
    consume(0, int(read - keep));
    d_held[0] = int(keep);
    return int(m);
}

} // namespace gpuofdm
} // namespace gr
