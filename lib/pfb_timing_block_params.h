/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_PFB_TIMING_BLOCK_PARAMS_H
#define INCLUDED_GPUOFDM_PFB_TIMING_BLOCK_PARAMS_H

#include "block_params.h"
#include "timing/pfb_timing_sync.h"

#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

/*!
 * \brief The core parameters from the make() arguments pfb_timing_sync_ccf and
 * pfb_timing_sync_multi_ccf share (pfb_clock_sync_ccf's, the mode and the chunk geometry).
 * The window (max_input_samples) and the channel count are each block's own; validate()
 * runs once the block has set them.
 */
inline core::pfb_timing_params pfb_timing_block_params(double sps,
                                                       float loop_bw,
                                                       const std::vector<float>& taps,
                                                       unsigned int filter_size,
                                                       float init_phase,
                                                       float max_rate_deviation,
                                                       int osps,
                                                       const std::string& mode,
                                                       int chunk_samples,
                                                       int warmup_samples)
{
    core::pfb_timing_params p;
    p.sps = sps;
    p.loop_bw = loop_bw;
    p.taps = taps;
    p.nfilts = filter_size;
    p.init_phase = init_phase;
    p.max_rate_deviation = max_rate_deviation;
    p.osps = osps;
    p.mode = core::parse_timing_mode(mode);
    p.chunk_samples = non_negative(chunk_samples, "chunk_samples");
    p.warmup_samples = non_negative(warmup_samples, "warmup_samples");
    return p;
}

} // namespace gpuofdm
} // namespace gr

#endif
