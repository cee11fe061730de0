/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "conv_encoder_bb_impl.h"
#include "bit_block_util.h"
#include "work_guard.h"

#include <gnuradio/io_signature.h>

#include <algorithm>

namespace gr {
namespace gpuofdm {

conv_encoder_bb::sptr conv_encoder_bb::make(const std::string& standard,
                                            const std::string& rate,
                                            const std::string& len_tag_key,
                                            int batch,
                                            const std::string& device)
{
    // The core checks every parameter before GNU Radio sees the block.
    core::conv_encoder_params p;
    p.standard = core::parse_phy_standard(standard);
    p.rate = parse_rate(rate);
    p.batch = checked_batch(batch);
    auto stage = core::make_conv_encoder(p, core::resolve_device(device));
    return gnuradio::make_block_sptr<conv_encoder_bb_impl>(std::move(stage), len_tag_key);
}

conv_encoder_bb_impl::conv_encoder_bb_impl(std::unique_ptr<core::conv_encoder> stage,
                                           const std::string& len_tag_key)
    : gr::tagged_stream_block("conv_encoder_bb",
                              gr::io_signature::make(1, 1, sizeof(uint8_t)),
                              gr::io_signature::make(1, 1, sizeof(uint8_t)),
                              len_tag_key),
      d_stage(std::move(stage)), d_continuous(len_tag_key.empty()),
      d_len_key(d_continuous ? pmt::PMT_NIL : pmt::intern(len_tag_key)),
      d_batch(d_stage->params().batch ? d_stage->params().batch : core::default_bit_batch)
{
    const auto& c = d_stage->code();
    set_relative_rate(c.outputs_per_period(), c.period);
    set_tag_propagation_policy(TPP_DONT); // move_tags() places them exactly
    if (d_stage->device().is_cuda())
        set_min_output_buffer(0, long(d_stage->output_len(d_batch, {})) * 2);
    log_bit_device(d_logger, d_stage->device(), d_batch, "input bits");
}

int conv_encoder_bb_impl::output_len(int n_in) const
{
    if (n_in < 0)
        throw std::invalid_argument("n_in: must be >= 0, got " + std::to_string(n_in));
    return int(d_stage->output_len(size_t(n_in), {}));
}

int conv_encoder_bb_impl::calculate_output_stream_length(const gr_vector_int& ninput_items)
{
    return int(d_stage->output_len(size_t(ninput_items[0]), {}));
}

void conv_encoder_bb_impl::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    if (!d_continuous) {
        tagged_stream_block::forecast(noutput_items, ninput_items_required);
        return;
    }
    // Exact: the input bits whose outputs all fit. At least one, so that with one output
    // slot the scheduler still offers the last bit of a stream (each bit gives 1 or 2).
    const uint64_t n = conv_inputs_within(d_stage->code(), d_state.phase, uint64_t(noutput_items));
    ninput_items_required[0] = int(std::max<uint64_t>(1, n));
}

int conv_encoder_bb_impl::general_work(int noutput_items,
                                       gr_vector_int& ninput_items,
                                       gr_vector_const_void_star& input_items,
                                       gr_vector_void_star& output_items)
{
    return stop_on_error(d_logger, [&]() -> int {
        if (!d_continuous) // frames: tagged_stream_block calls work() once per frame
            return tagged_stream_block::general_work(noutput_items, ninput_items, input_items,
                                                     output_items);

        // 1. As many input bits as the output space takes, register carried over.
        const size_t n = std::min<uint64_t>(
            uint64_t(ninput_items[0]),
            conv_inputs_within(d_stage->code(), d_state.phase, uint64_t(noutput_items)));
        if (n == 0)
            return 0;
        const unsigned phase = d_state.phase;
        const size_t produced =
            d_stage->process(static_cast<const uint8_t*>(input_items[0]),
                             static_cast<uint8_t*>(output_items[0]), n, d_state);
        // 2. Tags, then hand back.
        move_tags(n, phase, pmt::PMT_NIL);
        consume(0, int(n));
        return int(produced);
    });
}

int conv_encoder_bb_impl::work(int noutput_items,
                               gr_vector_int& ninput_items,
                               gr_vector_const_void_star& input_items,
                               gr_vector_void_star& output_items)
{
    // One whole frame, from the zero state; tagged_stream_block consumes it and puts the
    // length tag on the output.
    const size_t n = size_t(ninput_items[0]);
    core::conv_encoder_state state{};
    if (d_stage->output_len(n, state) > size_t(noutput_items))
        return 0; // not reached: tagged_stream_block checked the space
    const size_t produced = d_stage->process(static_cast<const uint8_t*>(input_items[0]),
                                             static_cast<uint8_t*>(output_items[0]), n, state);
    move_tags(n, 0, d_len_key);
    return int(produced);
}

void conv_encoder_bb_impl::move_tags(size_t n_in, unsigned phase, const pmt::pmt_t& skip_key)
{
    std::vector<tag_t> tags;
    get_tags_in_window(tags, 0, 0, n_in);
    const auto& c = d_stage->code();
    for (auto& tag : tags) {
        if (!pmt::is_null(skip_key) && pmt::eqv(tag.key, skip_key))
            continue; // the frame's length tag is rewritten by tagged_stream_block
        tag.offset = nitems_written(0) + c.output_offset(phase, tag.offset - nitems_read(0));
        add_item_tag(0, tag);
    }
}

} // namespace gpuofdm
} // namespace gr
