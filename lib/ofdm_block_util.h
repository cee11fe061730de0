/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_OFDM_BLOCK_UTIL_H
#define INCLUDED_GPUOFDM_OFDM_BLOCK_UTIL_H

// What the OFDM FFT and IFFT blocks share: parameters from make() and the start-up log.

#include "core/ofdm_stage.h"

#include <gnuradio/logger.h>

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

} // namespace gpuofdm
} // namespace gr

#endif
