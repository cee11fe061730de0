/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_BIT_STAGE_H
#define GPUOFDM_CORE_BIT_STAGE_H

// What the transmit bit stages (scrambler, convolutional encoder, interleaver, mapper)
// share: the standard selector, the default batch and the host/device qualifier for helpers
// that both the CPU twin (g++) and the CUDA kernel (nvcc) call, so the logic is written once.

#include <cstddef>

#include "runtime/host_device.h"
#include "runtime/phy_standard.h"

namespace gr::gpuofdm::core {

//! \p p once its validate() passed: for a stage's member initializer list.
template <typename Params>
const Params& validated(const Params& p)
{
    p.validate();
    return p;
}

//! Items per launch when a stage's batch parameter is 0: about 4 Mi bits.
constexpr size_t default_bit_batch = size_t(1) << 22;

} // namespace gr::gpuofdm::core

#endif
