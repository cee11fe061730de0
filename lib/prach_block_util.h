/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_PRACH_BLOCK_UTIL_H
#define INCLUDED_GPUOFDM_PRACH_BLOCK_UTIL_H

// What the PRACH blocks share: the uplink numerology from scs_khz.

#include <stdexcept>
#include <string>

namespace gr {
namespace gpuofdm {

//! mu of \p scs_khz: 15 -> 0, 30 -> 1, 60 -> 2, 120 -> 3; else invalid_argument.
inline int prach_mu_of(int scs_khz)
{
    switch (scs_khz) {
    case 15:
        return 0;
    case 30:
        return 1;
    case 60:
        return 2;
    case 120:
        return 3;
    default:
        throw std::invalid_argument("scs_khz: 15, 30, 60 or 120, got " + std::to_string(scs_khz));
    }
}

} // namespace gpuofdm
} // namespace gr

#endif
