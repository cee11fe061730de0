/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_BIT_STAGE_H
#define GPUOFDM_CORE_BIT_STAGE_H

// What the transmit bit stages (scrambler, convolutional encoder, interleaver, mapper)
// share: the protocol selector and the host/device qualifier for helpers that both the
// CPU twin (g++) and the CUDA kernel (nvcc) call, so the logic is written once.

#include <cstddef>
#include <string>

#include "runtime/host_device.h"

namespace gr::gpuofdm::core {

//! The OFDM standard whose bit-level conventions a stage follows.
enum class phy_standard {
    ieee80211a, //!< IEEE 802.11a-1999 clause 17 (also 802.11g ERP-OFDM)
    ieee80216   //!< IEEE 802.16-2004 clause 8.3 (WirelessMAN-OFDM, 256 carriers)
};

//! "802.11a" or "802.16", for messages.
inline const char* to_string(phy_standard s)
{
    return s == phy_standard::ieee80211a ? "802.11a" : "802.16";
}

//! Items per launch when a stage's batch parameter is 0: about 4 Mi bits.
constexpr size_t default_bit_batch = size_t(1) << 22;

} // namespace gr::gpuofdm::core

#endif
