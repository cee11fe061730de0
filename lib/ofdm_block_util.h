/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_OFDM_BLOCK_UTIL_H
#define INCLUDED_GPUOFDM_OFDM_BLOCK_UTIL_H

// What the OFDM FFT and IFFT blocks share: parameters from make() and the start-up log.

#include "core/ofdm_stage.h"

#include <gnuradio/block.h>
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/logger.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

inline core::ofdm_params make_ofdm_params(
    int fft_len, const std::vector<int>& cp_lengths, bool shift, float scale, int batch)
{
    core::ofdm_params p;
    p.fft_len = fft_len;
    p.cp_lengths = cp_lengths;
    p.shift = shift;
    p.scale = scale;
    p.batch = batch;
    core::ofdm_layout check(p); // throws std::invalid_argument before the io_signature sees fft_len
    return p;
}

inline void log_device(const gr::logger_ptr& logger, const core::ofdm_stage& stage)
{
    if (stage.device().is_cuda())
        logger->debug("on {}, {} symbols per launch", stage.device().to_string(),
                      stage.layout().batch());
    else
        logger->debug("on the CPU twin");
}

/*!
 * Page-locks a block's GNU Radio input and output buffers so a GPU stage copies straight
 * between them and the device, without its own staging memcpy (which would bound the
 * block at host memcpy speed). Called from start(); undone by stage.unpin_host_ranges()
 * in stop(). A refusal only costs speed. GPUOFDM_PIN_BUFFERS=0 in the environment turns
 * it off (every transfer then stages through the stage's own pinned memory).
 */
inline void pin_block_buffers(gr::block& b,
                              const gr::logger_ptr& logger,
                              core::ofdm_stage& stage,
                              size_t in_item_size,
                              size_t out_item_size)
{
    const char* env = std::getenv("GPUOFDM_PIN_BUFFERS");
    if (!stage.device().is_cuda() || (env && std::string(env) == "0"))
        return;
    auto pin = [&](const gr::buffer_sptr& buf, size_t item_size) {
        // A double-mapped buffer shows its memory twice, back to back: pin both views.
        const size_t views = buf->get_mapping_type() == gr::buffer_mapping_type::double_mapped ? 2 : 1;
        return stage.pin_host_range(buf->base(), views * buf->bufsize() * item_size);
    };
    const bool in_ok = pin(b.detail()->input(0)->buffer(), in_item_size);
    const bool out_ok = pin(b.detail()->output(0), out_item_size);
    if (!in_ok || !out_ok)
        logger->debug("could not page-lock the {} buffer; staging through pinned memory",
                          in_ok ? "output" : "input");
}

} // namespace gpuofdm
} // namespace gr

#endif
