/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_DEMO_UTIL_H
#define GPUOFDM_DEMO_UTIL_H

// What the loopback modes share: the --taps list.

#include <gnuradio/gr_complex.h>

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuofdm_demo {

//! "a+bj", "a-bj", "bj" or "a".
inline gr_complex parse_complex(const std::string& s)
{
    if (s.empty())
        throw std::invalid_argument("--taps: empty tap");
    if (s.back() != 'j')
        return gr_complex(std::stof(s), 0.0f);
    const std::string t = s.substr(0, s.size() - 1);
    const size_t split = t.find_last_of("+-");
    if (split == std::string::npos || split == 0)
        return gr_complex(0.0f, std::stof(t));
    return gr_complex(std::stof(t.substr(0, split)), std::stof(t.substr(split)));
}

//! A comma-separated list of complex taps, normalized to unit power.
inline std::vector<gr_complex> parse_taps(const std::string& list)
{
    std::vector<gr_complex> taps;
    std::stringstream ss(list);
    std::string item;
    double power = 0;
    while (std::getline(ss, item, ',')) {
        taps.push_back(parse_complex(item));
        power += std::norm(taps.back());
    }
    if (taps.empty() || !(power > 0))
        throw std::invalid_argument("--taps: needs at least one nonzero tap");
    for (auto& t : taps)
        t /= float(std::sqrt(power));
    return taps;
}

} // namespace gpuofdm_demo

#endif
