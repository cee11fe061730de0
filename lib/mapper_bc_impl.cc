/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "mapper_bc_impl.h"
#include "bit_block_util.h"
#include "work_guard.h"

#include <gnuradio/io_signature.h>

namespace gr {
namespace gpuofdm {

mapper_bc::sptr mapper_bc::make(const std::string& modulation, int batch, const std::string& device)
{
    // The core checks every parameter before GNU Radio sees the block.
    core::mapper_params p;
    p.mod = parse_modulation(modulation);
    p.batch = checked_batch(batch);
    auto stage = core::make_mapper(p, core::resolve_device(device));
    return gnuradio::make_block_sptr<mapper_bc_impl>(std::move(stage));
}

mapper_bc_impl::mapper_bc_impl(std::unique_ptr<core::mapper> stage)
    : gr::sync_decimator("mapper_bc",
                         gr::io_signature::make(1, 1, sizeof(uint8_t)),
                         gr::io_signature::make(1, 1, sizeof(gr_complex)),
                         stage->bits_per_point()),
      d_stage(std::move(stage)),
      d_batch(d_stage->params().batch ? d_stage->params().batch : size_t(1) << 20) // core default
{
    set_tag_propagation_policy(TPP_DONT); // work() puts a tag on its bit's point (floor)
    if (d_stage->device().is_cuda())
        set_min_output_buffer(0, long(d_batch) * 2);
    log_bit_device(d_logger, d_stage->device(), d_batch, "points");
}

std::vector<gr_complex> mapper_bc_impl::points() const
{
    return core::constellation_points(d_stage->params().mod);
}

int mapper_bc_impl::work(int noutput_items,
                         gr_vector_const_void_star& input_items,
                         gr_vector_void_star& output_items)
{
    return stop_on_error(d_logger, [&]() -> int {
        d_stage->process(static_cast<const uint8_t*>(input_items[0]),
                         static_cast<core::cfloat*>(output_items[0]), size_t(noutput_items));

        // A tag on bit i goes to point floor(i / N_BPSC) (the scheduler would round).
        const unsigned n = d_stage->bits_per_point();
        std::vector<tag_t> tags;
        get_tags_in_window(tags, 0, 0, uint64_t(noutput_items) * n);
        for (auto& tag : tags) {
            tag.offset = nitems_written(0) + (tag.offset - nitems_read(0)) / n;
            add_item_tag(0, tag);
        }
        return noutput_items;
    });
}

} // namespace gpuofdm
} // namespace gr
