/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_BIT_BLOCK_UTIL_H
#define INCLUDED_GPUOFDM_BIT_BLOCK_UTIL_H

// What the bit-level blocks (scrambler_bb, conv_encoder_bb, interleaver_bb/ff, mapper_bc)
// share: the make() strings turned into the core's enums (std::invalid_argument naming
// the parameter), the batch check, the start-up log line and the encoder's output-space
// arithmetic. No signal processing: that is the core's.

#include "runtime/bit_stage.h"
#include "ofdm/constellation.h"
#include "fec/conv_code.h"
#include "runtime/device.h"

#include <gnuradio/logger.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuofdm {

namespace detail {
//! \p s upper-cased without '-', '_' and blanks: "16-qam" -> "16QAM".
inline std::string canonical(const std::string& s)
{
    std::string r;
    for (char c : s)
        if (c != '-' && c != '_' && c != ' ')
            r += char(std::toupper(static_cast<unsigned char>(c)));
    return r;
}
} // namespace detail

//! "1/2", "2/3", "3/4" or "5/6"; else std::invalid_argument("rate: ...").
inline core::code_rate parse_rate(const std::string& rate)
{
    const std::string r = detail::canonical(rate);
    if (r == "1/2")
        return core::code_rate::r1_2;
    if (r == "2/3")
        return core::code_rate::r2_3;
    if (r == "3/4")
        return core::code_rate::r3_4;
    if (r == "5/6")
        return core::code_rate::r5_6;
    throw std::invalid_argument("rate: must be \"1/2\", \"2/3\", \"3/4\" or \"5/6\", got \"" +
                                rate + "\"");
}

//! "BPSK", "QPSK", "16QAM" or "64QAM" (any case, "16-QAM" too); else std::invalid_argument.
inline core::modulation parse_modulation(const std::string& modulation)
{
    const std::string m = detail::canonical(modulation);
    if (m == "BPSK")
        return core::modulation::bpsk;
    if (m == "QPSK")
        return core::modulation::qpsk;
    if (m == "16QAM")
        return core::modulation::qam16;
    if (m == "64QAM")
        return core::modulation::qam64;
    throw std::invalid_argument(
        "modulation: must be \"BPSK\", \"QPSK\", \"16QAM\" or \"64QAM\", got \"" + modulation +
        "\"");
}

//! A block's batch parameter as the core takes it; the core checks the upper bound.
inline size_t checked_batch(int batch)
{
    if (batch < 0)
        throw std::invalid_argument("batch: must be 0 (the default) or positive, got " +
                                    std::to_string(batch));
    return size_t(batch);
}

//! One debug line: where the block runs and how much it hands the GPU per launch.
inline void log_bit_device(const gr::logger_ptr& logger,
                           const core::device_spec& dev,
                           size_t batch,
                           const char* unit)
{
    if (dev.is_cuda())
        logger->debug("on {}, {} {} per launch", dev.to_string(), batch, unit);
    else
        logger->debug("on the CPU twin");
}

/*!
 * \brief How many input bits, starting at puncturing phase \p p0, the encoder can take
 * without writing more than \p n_out output bits: the largest n with
 * c.output_offset(p0, n) <= n_out (the inverse of conv_encoder::output_len).
 */
inline uint64_t conv_inputs_within(const core::conv_code& c, unsigned p0, uint64_t n_out)
{
    const uint64_t per_period = c.prefix[c.period];
    const uint64_t target = n_out + c.prefix[p0];
    const uint64_t rem = target % per_period;
    unsigned r = 0; // the last phase whose outputs start within the remainder
    while (r + 1 < c.period && c.prefix[r + 1] <= rem)
        r++;
    return (target / per_period) * c.period + r - p0;
}

} // namespace gpuofdm
} // namespace gr

#endif
