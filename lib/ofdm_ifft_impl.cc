/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ofdm_ifft_impl.h"
#include "ofdm_block_util.h"
#include "work_guard.h"

#include <gnuradio/io_signature.h>

#include <algorithm>

namespace gr {
namespace gpuofdm {

ofdm_ifft::sptr ofdm_ifft::make(int fft_len,
                                const std::vector<int>& cp_lengths,
                                bool shift,
                                float scale,
                                int batch,
                                const std::string& device)
{
    return gnuradio::make_block_sptr<ofdm_ifft_impl>(
        make_ofdm_params(fft_len, cp_lengths, shift, scale, batch), device);
}

ofdm_ifft_impl::ofdm_ifft_impl(const core::ofdm_params& params, const std::string& device)
    : gr::block("ofdm_ifft",
                gr::io_signature::make(1, 1, sizeof(gr_complex) * size_t(params.fft_len)),
                gr::io_signature::make(1, 1, sizeof(gr_complex))),
      d_stage(core::make_ofdm_ifft(params, core::resolve_device(device)))
{
    const auto& l = d_stage->layout();
    set_relative_rate(l.period_starts().back(), l.period());
    set_tag_propagation_policy(TPP_DONT); // tags move to their symbol's start in general_work
    // Called only with room for a whole symbol: with less the block could neither
    // produce nor notice that its downstream has finished, and would spin.
    set_output_multiple(int(l.max_symbol_len()));
    set_min_output_buffer(0, long(l.max_symbol_len()) *
                                 long(d_stage->device().is_cuda() ? 2 * l.batch() : 2));
    log_device(d_logger, *d_stage);
}

bool ofdm_ifft_impl::start()
{
    pin_block_buffers(*this, d_logger, *d_stage, sizeof(gr_complex) * d_stage->layout().fft_len(),
                      sizeof(gr_complex));
    return block::start();
}

bool ofdm_ifft_impl::stop()
{
    d_stage->unpin_host_ranges();
    return block::stop();
}

void ofdm_ifft_impl::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    // At least one symbol, more when the output space holds more.
    const auto& l = d_stage->layout();
    ninput_items_required[0] =
        std::max(1, int(l.symbols_within(d_symbol, size_t(noutput_items), size_t(noutput_items))));
}

int ofdm_ifft_impl::general_work(int noutput_items,
                                 gr_vector_int& ninput_items,
                                 gr_vector_const_void_star& input_items,
                                 gr_vector_void_star& output_items)
{
    return stop_on_error(d_logger, [&]() -> int {
        const auto& l = d_stage->layout();
        const size_t n = l.symbols_within(d_symbol, size_t(noutput_items), size_t(ninput_items[0]));
        if (n == 0)
            return 0;
        const size_t produced = l.samples(d_symbol, n);

        d_stage->process(static_cast<const core::cfloat*>(input_items[0]),
                         static_cast<core::cfloat*>(output_items[0]), n, d_symbol);

        // A tag on a symbol's vector goes to the first sample of its CP.
        std::vector<tag_t> tags;
        get_tags_in_window(tags, 0, 0, n);
        for (auto& tag : tags) {
            const uint64_t rel = tag.offset - nitems_read(0);
            tag.offset = nitems_written(0) + l.samples(d_symbol, size_t(rel));
            add_item_tag(0, tag);
        }

        d_symbol += n;
        consume(0, int(n));
        return int(produced);
    });
}

} // namespace gpuofdm
} // namespace gr
