/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_DEMO_UTIL_H
#define GPUOFDM_DEMO_UTIL_H

// What the loopback modes share: the --taps list, the device line, the verdict line.

#include "../common/cli_options.h"

#include <gnuradio/gpuofdm/device.h>
#include <gnuradio/gr_complex.h>

#include <cmath>
#include <cstdio>
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
    using gpuofdm_apps::parse_number;
    if (s.back() != 'j')
        return gr_complex(parse_number<float>("--taps", s), 0.0f);
    const std::string t = s.substr(0, s.size() - 1);
    // The sign between the parts: the last + or - not at the start and not an exponent's.
    size_t split = t.find_last_of("+-");
    while (split != std::string::npos && split > 0 && (t[split - 1] == 'e' || t[split - 1] == 'E'))
        split = split > 1 ? t.find_last_of("+-", split - 1) : std::string::npos;
    if (split == std::string::npos || split == 0)
        return gr_complex(0.0f, parse_number<float>("--taps", t));
    return gr_complex(parse_number<float>("--taps", t.substr(0, split)),
                      parse_number<float>("--taps", t.substr(split)));
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

/*!
 * Which device ran; when it is the CPU twin, that the throughput printed is the CPU's (and
 * why no GPU was taken when the choice was "auto").
 */
inline void print_device(const std::string& ran, const std::string& asked)
{
    std::printf("  device: %s (asked: %s)\n", ran.c_str(), asked.c_str());
    if (ran == "cpu") {
        std::printf("  the CPU twin ran: the throughput below is the CPU's, not a GPU's\n");
        if (asked == "auto")
            std::printf("  no usable GPU: %s\n", gr::gpuofdm::gpu_unusable_reason(0).c_str());
    }
}

//! The last line of every mode, "PASS: ..." or "FAIL: ...", and the exit status (0 or 1).
inline int verdict(bool pass, const std::string& what)
{
    std::printf("%s: %s (exit status %d)\n", pass ? "PASS" : "FAIL", what.c_str(), pass ? 0 : 1);
    return pass ? 0 : 1;
}

} // namespace gpuofdm_demo

#endif
