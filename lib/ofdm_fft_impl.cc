/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ofdm_fft_impl.h"
#include "ofdm_block_util.h"
#include "work_guard.h"

#include <gnuradio/io_signature.h>

namespace gr {
namespace gpuofdm {

ofdm_fft::sptr ofdm_fft::make(int fft_len,
                              const std::vector<int>& cp_lengths,
                              bool shift,
                              float scale,
                              int batch,
                              const std::string& device)
{
    return gnuradio::make_block_sptr<ofdm_fft_impl>(
        make_ofdm_params(fft_len, cp_lengths, shift, scale, batch), device);
}

ofdm_fft_impl::ofdm_fft_impl(const core::ofdm_params& params, const std::string& device)
    : gr::block("ofdm_fft",
                gr::io_signature::make(1, 1, sizeof(gr_complex)),
                gr::io_signature::make(1, 1, sizeof(gr_complex) * size_t(params.fft_len))),
      d_stage(core::make_ofdm_fft(params, core::resolve_device(device)))
{
    const auto& l = d_stage->layout();
    set_relative_rate(l.period(), l.period_starts().back());
    set_tag_propagation_policy(TPP_DONT); // tags move to their symbol in general_work
    if (d_stage->device().is_cuda())
        set_min_output_buffer(0, long(l.batch()) * 2);
    log_device(d_logger, *d_stage);
}

bool ofdm_fft_impl::start()
{
    pin_block_buffers(*this, d_logger, *d_stage, sizeof(gr_complex),
                      sizeof(gr_complex) * d_stage->layout().fft_len());
    return block::start();
}

bool ofdm_fft_impl::stop()
{
    d_stage->unpin_host_ranges();
    return block::stop();
}

void ofdm_fft_impl::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    // Exact: the CP lengths of the next symbols are known, so a stream that ends
    // with a short-CP symbol still gets it processed.
    ninput_items_required[0] = int(d_stage->layout().samples(d_symbol, size_t(noutput_items)));
}

int ofdm_fft_impl::general_work(int noutput_items,
                                gr_vector_int& ninput_items,
                                gr_vector_const_void_star& input_items,
                                gr_vector_void_star& output_items)
{
    return stop_on_error(d_logger, [&]() -> int {
        const auto& l = d_stage->layout();
        const size_t n = l.symbols_within(d_symbol, size_t(ninput_items[0]), size_t(noutput_items));
        if (n == 0)
            return 0;
        const size_t consumed = l.samples(d_symbol, n);

        d_stage->process(static_cast<const core::cfloat*>(input_items[0]),
                         static_cast<core::cfloat*>(output_items[0]), n, d_symbol);

        // A tag on any sample of a symbol goes to that symbol's vector.
        std::vector<tag_t> tags;
        get_tags_in_window(tags, 0, 0, consumed);
        for (auto& tag : tags) {
            const uint64_t rel = tag.offset - nitems_read(0);
            tag.offset = nitems_written(0) + l.symbols_within(d_symbol, size_t(rel), n);
            add_item_tag(0, tag);
        }

        d_symbol += n;
        consume(0, int(consumed));
        return int(n);
    });
}

} // namespace gpuofdm
} // namespace gr
