/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fec/depuncture.h"

#include <stdexcept>

namespace gr::gpuofdm::core {

namespace {

// A pattern from the two rows the standards print (first-bit row, second-bit row).
depuncture_pattern from_rows(const char* first, const char* second)
{
    depuncture_pattern p{ 0, 0, 0 };
    for (; first[p.period] && second[p.period]; p.period++) {
        if (first[p.period] == '1')
            p.mask |= 1u << (2 * p.period);
        if (second[p.period] == '1')
            p.mask |= 1u << (2 * p.period + 1);
    }
    p.kept = depuncture_rank(p.mask, 2 * p.period);
    return p;
}

} // namespace

depuncture_pattern depuncture_pattern::make(const std::string& protocol, const std::string& rate)
{
    const bool wifi = protocol == "80211a" || protocol == "802.11a";
    if (!wifi && protocol != "80216" && protocol != "802.16")
        throw std::invalid_argument("protocol: must be \"80211a\" or \"80216\", got \"" + protocol +
                                    "\"");
    if (rate == "1/2")
        return from_rows("1", "1");
    if (rate == "2/3")
        return wifi ? from_rows("11", "10") : from_rows("10", "11");
    if (rate == "3/4")
        return wifi ? from_rows("110", "101") : from_rows("101", "110");
    if (rate == "5/6")
        return wifi ? from_rows("11010", "10101") : from_rows("10101", "11010");
    throw std::invalid_argument("rate: must be \"1/2\", \"2/3\", \"3/4\" or \"5/6\", got \"" +
                                rate + "\"");
}

depuncturer::depuncturer(const std::string& protocol, const std::string& rate)
    : d_pattern(depuncture_pattern::make(protocol, rate))
{
}

size_t depuncturer::output_len(size_t n_in) const
{
    if (n_in % d_pattern.kept != 0)
        throw std::invalid_argument("n_in: must be a multiple of " +
                                    std::to_string(d_pattern.kept) +
                                    " (whole puncturing periods), got " + std::to_string(n_in));
    return n_in / d_pattern.kept * 2 * d_pattern.period;
}

size_t depuncturer::process(const float* in, size_t n_in, float* out) const
{
    const size_t n_out = output_len(n_in);
    for (size_t j = 0; j < n_out; j++)
        out[j] = depunctured_llr(in, j, d_pattern);
    return n_out;
}

} // namespace gr::gpuofdm::core
