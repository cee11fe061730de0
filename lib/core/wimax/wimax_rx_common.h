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

#include "wifi/wifi_rx_common.h"
#include "wimax/wimax_tx_common.h"

namespace gr::gpuofdm::core::wimax_rx_detail {

using wifi_rx_detail::cpx;
// The complex helpers of the 802.11a front end (cpx is rounded::cpx, so they are not found by
// argument-dependent lookup).
using wifi_rx_detail::mul;
using wifi_rx_detail::mul_conj;
using wifi_rx_detail::norm;

//! Subcarrier (-128 .. 127) of bin b.
GPUOFDM_HD inline int subcarrier_of(int b) { return b < 128 ? b : b - 256; }

//! Bin of pilot i (0 .. 7: subcarriers -88, -63, -38, -13, 13, 38, 63, 88, increasing).
GPUOFDM_HD inline int pilot_bin(int i) { return int(wimax_nondata_bin(unsigned(i))); }

using pilot_state = wifi_rx_detail::pilot_correction<8>;

/*!
 * \brief One symbol's correction from its 8 pilots (values \p pilots, wimax_pilot_from_w)
 * for wifi_rx_detail::pilot_mode: the common phase (sum Y_p conj(H_p) P_p as a unit
 * rotation that removes it) or the ratios Y_p P_p / H_p that equalize_carrier interpolates.
 */
GPUOFDM_HD inline pilot_state pilot_track(const cpx* y, const cpx* h, const float* pilots, int mode)
{
    int bins[8];
    for (int i = 0; i < 8; i++)
        bins[i] = pilot_bin(i);
    return wifi_rx_detail::track_pilots<8>(y, h, bins, pilots, mode);
}

//! Bin b of one symbol, equalized with its pilot correction.
GPUOFDM_HD inline cpx equalize_carrier(
    const cpx* y, const cpx* h, const pilot_state& p, int mode, int b)
{
    int at[8];
    for (int i = 0; i < 8; i++)
        at[i] = subcarrier_of(pilot_bin(i));
    return wifi_rx_detail::equalize_tracked<8>(y, h, p, mode, at, subcarrier_of(b), b);
}

} // namespace gr::gpuofdm::core::wimax_rx_detail

#endif
