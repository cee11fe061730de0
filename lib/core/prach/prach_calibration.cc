/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The PRACH detector's Monte Carlo calibration table (prach_calibration.h).

#include "prach/prach_calibration.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>

namespace gr::gpuofdm::core {

namespace {

// gpuofdm_prach_mc --calibrate --false-alarm 8e-4 --pfa-trials 10000 --pd-trials 1000
// (seed 1): the 38.104 8.4 AWGN configurations, the 38.141-1 A.6 zones.
const prach_calibration_row table[] = {
    { prach_format::f0, 0, 2, 1, 0.0009819 },
    { prach_format::f0, 0, 4, 1, 0.000826 },
    { prach_format::a1, 0, 2, 11, 0.0007481 },
    { prach_format::a2, 0, 2, 11, 0.0003457 },
    { prach_format::a3, 0, 2, 11, 0.0003931 },
    { prach_format::b4, 0, 2, 11, 0.0004427 },
    { prach_format::c0, 0, 2, 11, 0.0004514 },
    { prach_format::c2, 0, 2, 11, 0.0003457 },
    { prach_format::a1, 1, 2, 14, 0.0004285 },
    { prach_format::a2, 1, 2, 14, 0.0002664 },
    { prach_format::a3, 1, 2, 14, 0.0004735 },
    { prach_format::b4, 1, 2, 14, 0.0004392 },
    { prach_format::c0, 1, 2, 14, 0.0006615 },
    { prach_format::c2, 1, 2, 14, 0.0002664 },
    { prach_format::a1, 0, 4, 11, 0.0005415 },
    { prach_format::a2, 0, 4, 11, 0.0003155 },
    { prach_format::a3, 0, 4, 11, 0.0008146 },
    { prach_format::b4, 0, 4, 11, 0.0009877 },
    { prach_format::c0, 0, 4, 11, 0.0004472 },
    { prach_format::c2, 0, 4, 11, 0.0003155 },
    { prach_format::a1, 1, 4, 14, 0.0005683 },
    { prach_format::a2, 1, 4, 14, 0.0004132 },
    { prach_format::a3, 1, 4, 14, 0.001144 },
    { prach_format::b4, 1, 4, 14, 0.0007365 },
    { prach_format::c0, 1, 4, 14, 0.0004148 },
    { prach_format::c2, 1, 4, 14, 0.0004132 },
    // The long formats 1..3, 2 and 4 antennas, N_CS 13 (no 38.104 requirement: curves).
    { prach_format::f1, 0, 2, 1, 0.0007298 },
    { prach_format::f2, 0, 2, 1, 0.000595 },
    { prach_format::f3, 0, 2, 1, 0.000595 },
    { prach_format::f1, 0, 4, 1, 0.0005031 },
    { prach_format::f2, 0, 4, 1, 0.0009379 },
    { prach_format::f3, 0, 4, 1, 0.0009379 },
};

} // namespace

const prach_calibration_row* prach_calibration_table(int* n_rows)
{
    *n_rows = int(std::size(table));
    return table;
}

double prach_calibrated_false_alarm(prach_format format,
                                    int mu,
                                    int antennas,
                                    int zcz,
                                    prach_restricted_set set,
                                    double false_alarm)
{
    if (set != prach_restricted_set::unrestricted)
        return false_alarm;
    const prach_calibration_row* best = nullptr;
    for (const auto& r : table)
        if (r.format == format && r.mu == mu && r.zcz == zcz &&
            (!best || std::abs(r.antennas - antennas) < std::abs(best->antennas - antennas)))
            best = &r;
    if (!best)
        return false_alarm;
    return std::min(0.5, false_alarm * best->target_for_0p1_percent / 1e-3);
}

} // namespace gr::gpuofdm::core
