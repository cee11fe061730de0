/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_BLOCK_PARAMS_H
#define INCLUDED_GPUOFDM_BLOCK_PARAMS_H

// A block's int parameter handed to a core size_t field: the core's validate() checks its
// range; only the sign, which the unsigned field cannot show, is checked here.

#include <cstddef>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuofdm {

//! \p value as a size_t; std::invalid_argument("<name>: must not be negative, got ...").
inline size_t non_negative(int value, const char* name)
{
    if (value < 0)
        throw std::invalid_argument(std::string(name) + ": must not be negative, got " +
                                    std::to_string(value));
    return size_t(value);
}

} // namespace gpuofdm
} // namespace gr

#endif
