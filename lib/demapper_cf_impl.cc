/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "demapper_cf_impl.h"
#include "bit_block_util.h"
#include "work_guard.h"

#include <gnuradio/io_signature.h>

namespace gr {
namespace gpuofdm {

demapper_cf::sptr demapper_cf::make(
    const std::string& modulation, float noise_var, bool hard, int batch, const std::string& device)
{
    core::demapper_params p;
    p.mod = parse_modulation(modulation);
    p.hard = hard;
    p.batch = checked_batch(batch);
    core::checked_noise_var(noise_var);
    auto stage = core::make_demapper(p, core::resolve_device(device));
    return gnuradio::make_block_sptr<demapper_cf_impl>(std::move(stage), noise_var);
}

demapper_cf_impl::demapper_cf_impl(std::unique_ptr<core::demapper> stage, float noise_var)
    : gr::sync_interpolator("demapper_cf",
                            gr::io_signature::make(1, 1, sizeof(gr_complex)),
                            gr::io_signature::make(1, 1, sizeof(float)),
                            stage->bits_per_point()),
      d_stage(std::move(stage)), d_noise_var(noise_var)
{
    if (d_stage->device().is_cuda())
        set_min_output_buffer(0, long(d_stage->batch() * d_stage->bits_per_point()) * 2);
    log_bit_device(d_logger, d_stage->device(), d_stage->batch(), "points");
}

void demapper_cf_impl::set_noise_var(float noise_var)
{
    d_noise_var.store(core::checked_noise_var(noise_var));
}

int demapper_cf_impl::work(int noutput_items,
                           gr_vector_const_void_star& input_items,
                           gr_vector_void_star& output_items)
{
    return stop_on_error(d_logger, [&]() -> int {
        const size_t n = size_t(noutput_items) / d_stage->bits_per_point();
        d_stage->process(static_cast<const gr_complex*>(input_items[0]),
                         static_cast<float*>(output_items[0]), n, d_noise_var.load());
        return int(n * d_stage->bits_per_point());
    });
}

} // namespace gpuofdm
} // namespace gr
