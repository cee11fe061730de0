/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "scrambler_bb_impl.h"
#include "bit_block_util.h"
#include "work_guard.h"

#include <gnuradio/io_signature.h>

#include <algorithm>

namespace gr {
namespace gpuofdm {

scrambler_bb::sptr scrambler_bb::make(const std::string& standard,
                                      int seed,
                                      const std::string& reset_tag_key,
                                      int batch,
                                      const std::string& device)
{
    // The core checks every parameter before GNU Radio sees the block.
    core::scrambler_params p;
    p.standard = core::parse_phy_standard(standard);
    p.seed = seed;
    p.batch = checked_batch(batch);
    auto stage = core::make_scrambler(p, core::resolve_device(device));
    return gnuradio::make_block_sptr<scrambler_bb_impl>(std::move(stage), reset_tag_key);
}

scrambler_bb_impl::scrambler_bb_impl(std::unique_ptr<core::scrambler> stage,
                                     const std::string& reset_tag_key)
    : gr::sync_block("scrambler_bb",
                     gr::io_signature::make(1, 1, sizeof(uint8_t)),
                     gr::io_signature::make(1, 1, sizeof(uint8_t))),
      d_stage(std::move(stage)), d_state(d_stage->initial_state()),
      d_reset_key(reset_tag_key.empty() ? pmt::PMT_NIL : pmt::intern(reset_tag_key)),
      d_batch(d_stage->params().batch ? d_stage->params().batch : core::default_bit_batch)
{
    if (d_stage->device().is_cuda())
        set_min_output_buffer(0, long(d_batch) * 2);
    log_bit_device(d_logger, d_stage->device(), d_batch, "bits");
}

int scrambler_bb_impl::work(int noutput_items,
                            gr_vector_const_void_star& input_items,
                            gr_vector_void_star& output_items)
{
    return stop_on_error(d_logger, [&]() -> int {
        const auto* in = static_cast<const uint8_t*>(input_items[0]);
        auto* out = static_cast<uint8_t*>(output_items[0]);
        const size_t n = size_t(noutput_items);

        if (d_reset_pending.exchange(false))
            d_state = d_stage->initial_state();

        // 1. Where the register restarts: the reset tags in this window, in order.
        std::vector<uint64_t> starts;
        if (!pmt::is_null(d_reset_key)) {
            std::vector<tag_t> tags;
            get_tags_in_window(tags, 0, 0, n, d_reset_key);
            for (const auto& tag : tags)
                starts.push_back(tag.offset - nitems_read(0));
            std::sort(starts.begin(), starts.end());
        }
        starts.push_back(n);

        // 2. One call to the stage per run between restarts.
        size_t pos = 0;
        for (const uint64_t next : starts) {
            if (next > pos) {
                d_stage->process(in + pos, out + pos, size_t(next) - pos, d_state);
                pos = size_t(next);
            }
            if (next < n)
                d_state = d_stage->initial_state();
        }
        return noutput_items;
    });
}

} // namespace gpuofdm
} // namespace gr
