/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIMAX_RX_COMMON_H
#define GPUOFDM_CORE_WIMAX_RX_COMMON_H

// The 802.16 front end's per-symbol arithmetic (host and device), built on the 802.11a
// front end's helpers (wifi_rx_common.h), so a CUDA backend equalizes with the same
// formulas as the CPU twin.

#include "wifi_rx_common.h"
#include "wimax_tx_common.h"

namespace gr::gpuofdm::core::wimax_rx_detail {

using wifi_rx_detail::cpx;
// The complex helpers of the 802.11a front end (cpx is rounded::cpx, so they are not found by
// argument-dependent lookup).
using wifi_rx_detail::mul;
using wifi_rx_detail::mul_conj;
using wifi_rx_detail::norm;

/*!
 * \brief The common phase of one symbol from its 8 pilots (bins wimax_nondata_bin(0..7),
 * values \p pilots): sum Y_p conj(H_p) P_p as a unit rotation that removes it (1 when
 * tracking is off or the sum is 0).
 */
GPUOFDM_HD inline cpx pilot_derotation(const cpx* y, const cpx* h, const float* pilots, bool track)
{
    if (!track)
        return { 1.0f, 0.0f };
    cpx s{ 0.0f, 0.0f };
    for (unsigned i = 0; i < 8; i++)
        wifi_rx_detail::add_pilot(s, y, h, int(wimax_nondata_bin(i)), pilots[i]);
    return wifi_rx_detail::derotation_of(s);
}

} // namespace gr::gpuofdm::core::wimax_rx_detail

#endif
