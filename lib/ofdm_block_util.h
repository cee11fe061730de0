/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_OFDM_BLOCK_UTIL_H
#define INCLUDED_GPUOFDM_OFDM_BLOCK_UTIL_H

// What the OFDM FFT and IFFT blocks share: parameters from make() and the start-up log.

#include "block_pin_util.h"
#include "ofdm/ofdm_stage.h"

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
    p.validate(); // throws std::invalid_argument before the io_signature sees fft_len
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

//! pin_block_buffers() (block_pin_util.h) for an OFDM stage; undone by
//! stage.unpin_host_ranges() in stop().
inline void pin_block_buffers(gr::block& b,
                              const gr::logger_ptr& logger,
                              core::ofdm_stage& stage,
                              size_t in_item_size,
                              size_t out_item_size)
{
    if (!stage.device().is_cuda())
        return;
    pin_block_buffers(b, logger, in_item_size, out_item_size,
                      [&](const void* p, size_t n) { return stage.pin_host_range(p, n); });
}

} // namespace gpuofdm
} // namespace gr

#endif
