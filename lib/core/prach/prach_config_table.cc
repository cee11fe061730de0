/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "prach/prach_config_table.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>

namespace gr::gpuofdm::core {

namespace {

// One row of Table 6.3.3.2-2 / 6.3.3.2-3. Subframes as a mask (bit n: subframe n); a long
// format has one slot, one occasion and duration 0.
struct config_row {
    prach_format format;
    prach_format format_b; // `none` where the row has one format
    uint8_t x;
    uint8_t y;
    uint16_t subframes;
    uint8_t starting_symbol;
    uint8_t slots_per_subframe;
    uint8_t occasions_per_slot;
    uint8_t duration;
};

using F = prach_format;
// Format 0 is never the B of an A/B pair, so it marks "no second format".
constexpr prach_format none = prach_format::f0;

constexpr uint16_t sf(std::initializer_list<int> subframes)
{
    uint16_t mask = 0;
    for (int s : subframes)
        mask = uint16_t(mask | (1u << s));
    return mask;
}
constexpr uint16_t every_subframe = 0x3ff;

// Table 6.3.3.2-2: FR1, paired spectrum and supplementary uplink.
constexpr std::array<config_row, prach_config_indices> paired_rows = { {
    // 0..27: format 0
    { F::f0, none, 16, 1, sf({ 1 }), 0, 1, 1, 0 },
    { F::f0, none, 16, 1, sf({ 4 }), 0, 1, 1, 0 },
    { F::f0, none, 16, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f0, none, 16, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f0, none, 8, 1, sf({ 1 }), 0, 1, 1, 0 },
    { F::f0, none, 8, 1, sf({ 4 }), 0, 1, 1, 0 },
    { F::f0, none, 8, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f0, none, 8, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f0, none, 4, 1, sf({ 1 }), 0, 1, 1, 0 },
    { F::f0, none, 4, 1, sf({ 4 }), 0, 1, 1, 0 },
    { F::f0, none, 4, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f0, none, 4, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f0, none, 2, 1, sf({ 1 }), 0, 1, 1, 0 },
    { F::f0, none, 2, 1, sf({ 4 }), 0, 1, 1, 0 },
    { F::f0, none, 2, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f0, none, 2, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 1 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 4 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 7 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 1, 6 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 2, 7 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 3, 8 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 1, 4, 7 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 2, 5, 8 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 3, 6, 9 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 0, 2, 4, 6, 8 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, every_subframe, 0, 1, 1, 0 },
    // 28..52: format 1
    { F::f1, none, 16, 1, sf({ 1 }), 0, 1, 1, 0 },
    { F::f1, none, 16, 1, sf({ 4 }), 0, 1, 1, 0 },
    { F::f1, none, 16, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f1, none, 16, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f1, none, 8, 1, sf({ 1 }), 0, 1, 1, 0 },
    { F::f1, none, 8, 1, sf({ 4 }), 0, 1, 1, 0 },
    { F::f1, none, 8, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f1, none, 8, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f1, none, 4, 1, sf({ 1 }), 0, 1, 1, 0 },
    { F::f1, none, 4, 1, sf({ 4 }), 0, 1, 1, 0 },
    { F::f1, none, 4, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f1, none, 4, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f1, none, 2, 1, sf({ 1 }), 0, 1, 1, 0 },
    { F::f1, none, 2, 1, sf({ 4 }), 0, 1, 1, 0 },
    { F::f1, none, 2, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f1, none, 2, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f1, none, 1, 0, sf({ 1 }), 0, 1, 1, 0 },
    { F::f1, none, 1, 0, sf({ 4 }), 0, 1, 1, 0 },
    { F::f1, none, 1, 0, sf({ 7 }), 0, 1, 1, 0 },
    { F::f1, none, 1, 0, sf({ 1, 6 }), 0, 1, 1, 0 },
    { F::f1, none, 1, 0, sf({ 2, 7 }), 0, 1, 1, 0 },
    { F::f1, none, 1, 0, sf({ 3, 8 }), 0, 1, 1, 0 },
    { F::f1, none, 1, 0, sf({ 1, 4, 7 }), 0, 1, 1, 0 },
    { F::f1, none, 1, 0, sf({ 2, 5, 8 }), 0, 1, 1, 0 },
    { F::f1, none, 1, 0, sf({ 3, 6, 9 }), 0, 1, 1, 0 },
    // 53..59: format 2
    { F::f2, none, 16, 1, sf({ 1 }), 0, 1, 1, 0 },
    { F::f2, none, 8, 1, sf({ 1 }), 0, 1, 1, 0 },
    { F::f2, none, 4, 0, sf({ 1 }), 0, 1, 1, 0 },
    { F::f2, none, 2, 0, sf({ 1 }), 0, 1, 1, 0 },
    { F::f2, none, 2, 0, sf({ 5 }), 0, 1, 1, 0 },
    { F::f2, none, 1, 0, sf({ 1 }), 0, 1, 1, 0 },
    { F::f2, none, 1, 0, sf({ 5 }), 0, 1, 1, 0 },
    // 60..86: format 3
    { F::f3, none, 16, 1, sf({ 1 }), 0, 1, 1, 0 },
    { F::f3, none, 16, 1, sf({ 4 }), 0, 1, 1, 0 },
    { F::f3, none, 16, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f3, none, 16, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f3, none, 8, 1, sf({ 1 }), 0, 1, 1, 0 },
    { F::f3, none, 8, 1, sf({ 4 }), 0, 1, 1, 0 },
    { F::f3, none, 8, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f3, none, 4, 1, sf({ 1 }), 0, 1, 1, 0 },
    { F::f3, none, 4, 1, sf({ 4 }), 0, 1, 1, 0 },
    { F::f3, none, 4, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f3, none, 4, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f3, none, 2, 1, sf({ 1 }), 0, 1, 1, 0 },
    { F::f3, none, 2, 1, sf({ 4 }), 0, 1, 1, 0 },
    { F::f3, none, 2, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f3, none, 2, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 1 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 4 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 7 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 1, 6 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 2, 7 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 3, 8 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 1, 4, 7 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 2, 5, 8 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 3, 6, 9 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 0, 2, 4, 6, 8 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, every_subframe, 0, 1, 1, 0 },
    // 87..107: format A1
    { F::a1, none, 16, 0, sf({ 4, 9 }), 0, 1, 6, 2 },
    { F::a1, none, 16, 1, sf({ 4 }), 0, 2, 6, 2 },
    { F::a1, none, 8, 0, sf({ 4, 9 }), 0, 1, 6, 2 },
    { F::a1, none, 8, 1, sf({ 4 }), 0, 2, 6, 2 },
    { F::a1, none, 4, 0, sf({ 4, 9 }), 0, 1, 6, 2 },
    { F::a1, none, 4, 1, sf({ 4, 9 }), 0, 1, 6, 2 },
    { F::a1, none, 4, 0, sf({ 4 }), 0, 2, 6, 2 },
    { F::a1, none, 2, 0, sf({ 4, 9 }), 0, 1, 6, 2 },
    { F::a1, none, 2, 0, sf({ 1 }), 0, 2, 6, 2 },
    { F::a1, none, 2, 0, sf({ 4 }), 0, 2, 6, 2 },
    { F::a1, none, 2, 0, sf({ 7 }), 0, 2, 6, 2 },
    { F::a1, none, 1, 0, sf({ 4 }), 0, 1, 6, 2 },
    { F::a1, none, 1, 0, sf({ 1, 6 }), 0, 1, 6, 2 },
    { F::a1, none, 1, 0, sf({ 4, 9 }), 0, 1, 6, 2 },
    { F::a1, none, 1, 0, sf({ 1 }), 0, 2, 6, 2 },
    { F::a1, none, 1, 0, sf({ 7 }), 0, 2, 6, 2 },
    { F::a1, none, 1, 0, sf({ 2, 7 }), 0, 2, 6, 2 },
    { F::a1, none, 1, 0, sf({ 1, 4, 7 }), 0, 2, 6, 2 },
    { F::a1, none, 1, 0, sf({ 0, 2, 4, 6, 8 }), 0, 2, 6, 2 },
    { F::a1, none, 1, 0, every_subframe, 0, 2, 6, 2 },
    { F::a1, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 2, 6, 2 },
    // 108..116: format A1/B1
    { F::a1, F::b1, 2, 0, sf({ 4, 9 }), 0, 1, 7, 2 },
    { F::a1, F::b1, 2, 0, sf({ 4 }), 0, 2, 7, 2 },
    { F::a1, F::b1, 1, 0, sf({ 4 }), 0, 1, 7, 2 },
    { F::a1, F::b1, 1, 0, sf({ 1, 6 }), 0, 1, 7, 2 },
    { F::a1, F::b1, 1, 0, sf({ 4, 9 }), 0, 1, 7, 2 },
    { F::a1, F::b1, 1, 0, sf({ 1 }), 0, 2, 7, 2 },
    { F::a1, F::b1, 1, 0, sf({ 7 }), 0, 2, 7, 2 },
    { F::a1, F::b1, 1, 0, sf({ 1, 4, 7 }), 0, 2, 7, 2 },
    { F::a1, F::b1, 1, 0, sf({ 0, 2, 4, 6, 8 }), 0, 2, 7, 2 },
    // 117..136: format A2
    { F::a2, none, 16, 1, sf({ 2, 6, 9 }), 0, 1, 3, 4 },
    { F::a2, none, 16, 1, sf({ 4 }), 0, 2, 3, 4 },
    { F::a2, none, 8, 1, sf({ 2, 6, 9 }), 0, 1, 3, 4 },
    { F::a2, none, 8, 1, sf({ 4 }), 0, 2, 3, 4 },
    { F::a2, none, 4, 0, sf({ 2, 6, 9 }), 0, 1, 3, 4 },
    { F::a2, none, 4, 0, sf({ 4 }), 0, 2, 3, 4 },
    { F::a2, none, 2, 1, sf({ 2, 6, 9 }), 0, 1, 3, 4 },
    { F::a2, none, 2, 0, sf({ 1 }), 0, 2, 3, 4 },
    { F::a2, none, 2, 0, sf({ 4 }), 0, 2, 3, 4 },
    { F::a2, none, 2, 0, sf({ 7 }), 0, 2, 3, 4 },
    { F::a2, none, 1, 0, sf({ 4 }), 0, 1, 3, 4 },
    { F::a2, none, 1, 0, sf({ 1, 6 }), 0, 1, 3, 4 },
    { F::a2, none, 1, 0, sf({ 4, 9 }), 0, 1, 3, 4 },
    { F::a2, none, 1, 0, sf({ 1 }), 0, 2, 3, 4 },
    { F::a2, none, 1, 0, sf({ 7 }), 0, 2, 3, 4 },
    { F::a2, none, 1, 0, sf({ 2, 7 }), 0, 2, 3, 4 },
    { F::a2, none, 1, 0, sf({ 1, 4, 7 }), 0, 2, 3, 4 },
    { F::a2, none, 1, 0, sf({ 0, 2, 4, 6, 8 }), 0, 2, 3, 4 },
    { F::a2, none, 1, 0, every_subframe, 0, 2, 3, 4 },
    { F::a2, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 2, 3, 4 },
    // 137..146: format A2/B2
    { F::a2, F::b2, 2, 1, sf({ 2, 6, 9 }), 0, 1, 3, 4 },
    { F::a2, F::b2, 2, 0, sf({ 4 }), 0, 2, 3, 4 },
    { F::a2, F::b2, 1, 0, sf({ 4 }), 0, 1, 3, 4 },
    { F::a2, F::b2, 1, 0, sf({ 1, 6 }), 0, 1, 3, 4 },
    { F::a2, F::b2, 1, 0, sf({ 4, 9 }), 0, 1, 3, 4 },
    { F::a2, F::b2, 1, 0, sf({ 1 }), 0, 2, 3, 4 },
    { F::a2, F::b2, 1, 0, sf({ 7 }), 0, 2, 3, 4 },
    { F::a2, F::b2, 1, 0, sf({ 1, 4, 7 }), 0, 2, 3, 4 },
    { F::a2, F::b2, 1, 0, sf({ 0, 2, 4, 6, 8 }), 0, 2, 3, 4 },
    { F::a2, F::b2, 1, 0, every_subframe, 0, 2, 3, 4 },
    // 147..166: format A3
    { F::a3, none, 16, 1, sf({ 4, 9 }), 0, 1, 2, 6 },
    { F::a3, none, 16, 1, sf({ 4 }), 0, 2, 2, 6 },
    { F::a3, none, 8, 1, sf({ 4, 9 }), 0, 1, 2, 6 },
    { F::a3, none, 8, 1, sf({ 4 }), 0, 2, 2, 6 },
    { F::a3, none, 4, 0, sf({ 4, 9 }), 0, 1, 2, 6 },
    { F::a3, none, 4, 0, sf({ 4 }), 0, 2, 2, 6 },
    { F::a3, none, 2, 1, sf({ 2, 6, 9 }), 0, 2, 2, 6 },
    { F::a3, none, 2, 0, sf({ 1 }), 0, 2, 2, 6 },
    { F::a3, none, 2, 0, sf({ 4 }), 0, 2, 2, 6 },
    { F::a3, none, 2, 0, sf({ 7 }), 0, 2, 2, 6 },
    { F::a3, none, 1, 0, sf({ 4 }), 0, 1, 2, 6 },
    { F::a3, none, 1, 0, sf({ 1, 6 }), 0, 1, 2, 6 },
    { F::a3, none, 1, 0, sf({ 4, 9 }), 0, 1, 2, 6 },
    { F::a3, none, 1, 0, sf({ 1 }), 0, 2, 2, 6 },
    { F::a3, none, 1, 0, sf({ 7 }), 0, 2, 2, 6 },
    { F::a3, none, 1, 0, sf({ 2, 7 }), 0, 2, 2, 6 },
    { F::a3, none, 1, 0, sf({ 1, 4, 7 }), 0, 2, 2, 6 },
    { F::a3, none, 1, 0, sf({ 0, 2, 4, 6, 8 }), 0, 2, 2, 6 },
    { F::a3, none, 1, 0, every_subframe, 0, 2, 2, 6 },
    { F::a3, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 2, 2, 6 },
    // 167..176: format A3/B3
    { F::a3, F::b3, 2, 1, sf({ 2, 6, 9 }), 0, 2, 2, 6 },
    { F::a3, F::b3, 2, 0, sf({ 4 }), 0, 2, 2, 6 },
    { F::a3, F::b3, 1, 0, sf({ 4 }), 0, 1, 2, 6 },
    { F::a3, F::b3, 1, 0, sf({ 1, 6 }), 0, 1, 2, 6 },
    { F::a3, F::b3, 1, 0, sf({ 4, 9 }), 0, 1, 2, 6 },
    { F::a3, F::b3, 1, 0, sf({ 1 }), 0, 2, 2, 6 },
    { F::a3, F::b3, 1, 0, sf({ 7 }), 0, 2, 2, 6 },
    { F::a3, F::b3, 1, 0, sf({ 1, 4, 7 }), 0, 2, 2, 6 },
    { F::a3, F::b3, 1, 0, sf({ 0, 2, 4, 6, 8 }), 0, 2, 2, 6 },
    { F::a3, F::b3, 1, 0, every_subframe, 0, 2, 2, 6 },
    // 177..197: format B1
    { F::b1, none, 16, 0, sf({ 4, 9 }), 0, 1, 7, 2 },
    { F::b1, none, 16, 1, sf({ 4 }), 0, 2, 7, 2 },
    { F::b1, none, 8, 0, sf({ 4, 9 }), 0, 1, 7, 2 },
    { F::b1, none, 8, 1, sf({ 4 }), 0, 2, 7, 2 },
    { F::b1, none, 4, 0, sf({ 4, 9 }), 0, 1, 7, 2 },
    { F::b1, none, 4, 1, sf({ 4, 9 }), 0, 1, 7, 2 },
    { F::b1, none, 4, 0, sf({ 4 }), 0, 2, 7, 2 },
    { F::b1, none, 2, 0, sf({ 4, 9 }), 0, 1, 7, 2 },
    { F::b1, none, 2, 0, sf({ 1 }), 0, 2, 7, 2 },
    { F::b1, none, 2, 0, sf({ 4 }), 0, 2, 7, 2 },
    { F::b1, none, 2, 0, sf({ 7 }), 0, 2, 7, 2 },
    { F::b1, none, 1, 0, sf({ 4 }), 0, 1, 7, 2 },
    { F::b1, none, 1, 0, sf({ 1, 6 }), 0, 1, 7, 2 },
    { F::b1, none, 1, 0, sf({ 4, 9 }), 0, 1, 7, 2 },
    { F::b1, none, 1, 0, sf({ 1 }), 0, 2, 7, 2 },
    { F::b1, none, 1, 0, sf({ 7 }), 0, 2, 7, 2 },
    { F::b1, none, 1, 0, sf({ 2, 7 }), 0, 2, 7, 2 },
    { F::b1, none, 1, 0, sf({ 1, 4, 7 }), 0, 2, 7, 2 },
    { F::b1, none, 1, 0, sf({ 0, 2, 4, 6, 8 }), 0, 2, 7, 2 },
    { F::b1, none, 1, 0, every_subframe, 0, 2, 7, 2 },
    { F::b1, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 2, 7, 2 },
    // 198..218: format B4
    { F::b4, none, 16, 0, sf({ 4, 9 }), 0, 2, 1, 12 },
    { F::b4, none, 16, 1, sf({ 4 }), 0, 2, 1, 12 },
    { F::b4, none, 8, 0, sf({ 4, 9 }), 0, 2, 1, 12 },
    { F::b4, none, 8, 1, sf({ 4 }), 0, 2, 1, 12 },
    { F::b4, none, 4, 0, sf({ 4, 9 }), 0, 2, 1, 12 },
    { F::b4, none, 4, 0, sf({ 4 }), 0, 2, 1, 12 },
    { F::b4, none, 4, 1, sf({ 4, 9 }), 0, 2, 1, 12 },
    { F::b4, none, 2, 0, sf({ 4, 9 }), 0, 2, 1, 12 },
    { F::b4, none, 2, 0, sf({ 1 }), 0, 2, 1, 12 },
    { F::b4, none, 2, 0, sf({ 4 }), 0, 2, 1, 12 },
    { F::b4, none, 2, 0, sf({ 7 }), 0, 2, 1, 12 },
    { F::b4, none, 1, 0, sf({ 1 }), 0, 2, 1, 12 },
    { F::b4, none, 1, 0, sf({ 4 }), 0, 2, 1, 12 },
    { F::b4, none, 1, 0, sf({ 7 }), 0, 2, 1, 12 },
    { F::b4, none, 1, 0, sf({ 1, 6 }), 0, 2, 1, 12 },
    { F::b4, none, 1, 0, sf({ 2, 7 }), 0, 2, 1, 12 },
    { F::b4, none, 1, 0, sf({ 4, 9 }), 0, 2, 1, 12 },
    { F::b4, none, 1, 0, sf({ 1, 4, 7 }), 0, 2, 1, 12 },
    { F::b4, none, 1, 0, sf({ 0, 2, 4, 6, 8 }), 0, 2, 1, 12 },
    { F::b4, none, 1, 0, every_subframe, 0, 2, 1, 12 },
    { F::b4, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 2, 1, 12 },
    // 219..235: format C0
    { F::c0, none, 8, 1, sf({ 4 }), 0, 2, 7, 2 },
    { F::c0, none, 4, 1, sf({ 4, 9 }), 0, 1, 7, 2 },
    { F::c0, none, 4, 0, sf({ 4 }), 0, 2, 7, 2 },
    { F::c0, none, 2, 0, sf({ 4, 9 }), 0, 1, 7, 2 },
    { F::c0, none, 2, 0, sf({ 1 }), 0, 2, 7, 2 },
    { F::c0, none, 2, 0, sf({ 4 }), 0, 2, 7, 2 },
    { F::c0, none, 2, 0, sf({ 7 }), 0, 2, 7, 2 },
    { F::c0, none, 1, 0, sf({ 4 }), 0, 1, 7, 2 },
    { F::c0, none, 1, 0, sf({ 1, 6 }), 0, 1, 7, 2 },
    { F::c0, none, 1, 0, sf({ 4, 9 }), 0, 1, 7, 2 },
    { F::c0, none, 1, 0, sf({ 1 }), 0, 2, 7, 2 },
    { F::c0, none, 1, 0, sf({ 7 }), 0, 2, 7, 2 },
    { F::c0, none, 1, 0, sf({ 2, 7 }), 0, 2, 7, 2 },
    { F::c0, none, 1, 0, sf({ 1, 4, 7 }), 0, 2, 7, 2 },
    { F::c0, none, 1, 0, sf({ 0, 2, 4, 6, 8 }), 0, 2, 7, 2 },
    { F::c0, none, 1, 0, every_subframe, 0, 2, 7, 2 },
    { F::c0, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 2, 7, 2 },
    // 236..255: format C2
    { F::c2, none, 16, 1, sf({ 4, 9 }), 0, 1, 2, 6 },
    { F::c2, none, 16, 1, sf({ 4 }), 0, 2, 2, 6 },
    { F::c2, none, 8, 1, sf({ 4, 9 }), 0, 1, 2, 6 },
    { F::c2, none, 8, 1, sf({ 4 }), 0, 2, 2, 6 },
    { F::c2, none, 4, 0, sf({ 4, 9 }), 0, 1, 2, 6 },
    { F::c2, none, 4, 0, sf({ 4 }), 0, 2, 2, 6 },
    { F::c2, none, 2, 1, sf({ 2, 6, 9 }), 0, 2, 2, 6 },
    { F::c2, none, 2, 0, sf({ 1 }), 0, 2, 2, 6 },
    { F::c2, none, 2, 0, sf({ 4 }), 0, 2, 2, 6 },
    { F::c2, none, 2, 0, sf({ 7 }), 0, 2, 2, 6 },
    { F::c2, none, 1, 0, sf({ 4 }), 0, 1, 2, 6 },
    { F::c2, none, 1, 0, sf({ 1, 6 }), 0, 1, 2, 6 },
    { F::c2, none, 1, 0, sf({ 4, 9 }), 0, 1, 2, 6 },
    { F::c2, none, 1, 0, sf({ 1 }), 0, 2, 2, 6 },
    { F::c2, none, 1, 0, sf({ 7 }), 0, 2, 2, 6 },
    { F::c2, none, 1, 0, sf({ 2, 7 }), 0, 2, 2, 6 },
    { F::c2, none, 1, 0, sf({ 1, 4, 7 }), 0, 2, 2, 6 },
    { F::c2, none, 1, 0, sf({ 0, 2, 4, 6, 8 }), 0, 2, 2, 6 },
    { F::c2, none, 1, 0, every_subframe, 0, 2, 2, 6 },
    { F::c2, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 2, 2, 6 },
} };

// Table 6.3.3.2-3: FR1, unpaired spectrum.
constexpr std::array<config_row, prach_config_indices> unpaired_rows = { {
    // 0..27: format 0
    { F::f0, none, 16, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f0, none, 8, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f0, none, 4, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f0, none, 2, 0, sf({ 9 }), 0, 1, 1, 0 },
    { F::f0, none, 2, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f0, none, 2, 0, sf({ 4 }), 0, 1, 1, 0 },
    { F::f0, none, 2, 1, sf({ 4 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 9 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 8 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 7 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 6 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 5 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 4 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 3 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 2 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 1, 6 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 1, 6 }), 7, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 4, 9 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 3, 8 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 2, 7 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 8, 9 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 4, 8, 9 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 3, 4, 9 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 7, 8, 9 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 3, 4, 8, 9 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 6, 7, 8, 9 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 1, 4, 6, 9 }), 0, 1, 1, 0 },
    { F::f0, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 1, 1, 0 },
    // 28..33: format 1
    { F::f1, none, 16, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f1, none, 8, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f1, none, 4, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f1, none, 2, 0, sf({ 7 }), 0, 1, 1, 0 },
    { F::f1, none, 2, 1, sf({ 7 }), 0, 1, 1, 0 },
    { F::f1, none, 1, 0, sf({ 7 }), 0, 1, 1, 0 },
    // 34..39: format 2
    { F::f2, none, 16, 1, sf({ 6 }), 0, 1, 1, 0 },
    { F::f2, none, 8, 1, sf({ 6 }), 0, 1, 1, 0 },
    { F::f2, none, 4, 1, sf({ 6 }), 0, 1, 1, 0 },
    { F::f2, none, 2, 0, sf({ 6 }), 7, 1, 1, 0 },
    { F::f2, none, 2, 1, sf({ 6 }), 7, 1, 1, 0 },
    { F::f2, none, 1, 0, sf({ 6 }), 7, 1, 1, 0 },
    // 40..66: format 3
    { F::f3, none, 16, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f3, none, 8, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f3, none, 4, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f3, none, 2, 0, sf({ 9 }), 0, 1, 1, 0 },
    { F::f3, none, 2, 1, sf({ 9 }), 0, 1, 1, 0 },
    { F::f3, none, 2, 0, sf({ 4 }), 0, 1, 1, 0 },
    { F::f3, none, 2, 1, sf({ 4 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 9 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 8 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 7 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 6 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 5 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 4 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 3 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 2 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 1, 6 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 1, 6 }), 7, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 4, 9 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 3, 8 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 2, 7 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 8, 9 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 4, 8, 9 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 3, 4, 9 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 7, 8, 9 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 3, 4, 8, 9 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 1, 4, 6, 9 }), 0, 1, 1, 0 },
    { F::f3, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 1, 1, 0 },
    // 67..86: format A1
    { F::a1, none, 16, 1, sf({ 9 }), 0, 2, 6, 2 },
    { F::a1, none, 8, 1, sf({ 9 }), 0, 2, 6, 2 },
    { F::a1, none, 4, 1, sf({ 9 }), 0, 1, 6, 2 },
    { F::a1, none, 2, 1, sf({ 9 }), 0, 1, 6, 2 },
    { F::a1, none, 2, 1, sf({ 4, 9 }), 7, 1, 3, 2 },
    { F::a1, none, 2, 1, sf({ 7, 9 }), 7, 1, 3, 2 },
    { F::a1, none, 2, 1, sf({ 7, 9 }), 0, 1, 6, 2 },
    { F::a1, none, 2, 1, sf({ 8, 9 }), 0, 2, 6, 2 },
    { F::a1, none, 2, 1, sf({ 4, 9 }), 0, 2, 6, 2 },
    { F::a1, none, 2, 1, sf({ 2, 3, 4, 7, 8, 9 }), 0, 1, 6, 2 },
    { F::a1, none, 1, 0, sf({ 9 }), 0, 2, 6, 2 },
    { F::a1, none, 1, 0, sf({ 9 }), 7, 1, 3, 2 },
    { F::a1, none, 1, 0, sf({ 9 }), 0, 1, 6, 2 },
    { F::a1, none, 1, 0, sf({ 8, 9 }), 0, 2, 6, 2 },
    { F::a1, none, 1, 0, sf({ 4, 9 }), 0, 1, 6, 2 },
    { F::a1, none, 1, 0, sf({ 7, 9 }), 7, 1, 3, 2 },
    { F::a1, none, 1, 0, sf({ 3, 4, 8, 9 }), 0, 1, 6, 2 },
    { F::a1, none, 1, 0, sf({ 3, 4, 8, 9 }), 0, 2, 6, 2 },
    { F::a1, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 1, 6, 2 },
    { F::a1, none, 1, 0, every_subframe, 7, 1, 3, 2 },
    // 87..109: format A2
    { F::a2, none, 16, 1, sf({ 9 }), 0, 2, 3, 4 },
    { F::a2, none, 8, 1, sf({ 9 }), 0, 2, 3, 4 },
    { F::a2, none, 4, 1, sf({ 9 }), 0, 1, 3, 4 },
    { F::a2, none, 2, 1, sf({ 7, 9 }), 0, 1, 3, 4 },
    { F::a2, none, 2, 1, sf({ 8, 9 }), 0, 2, 3, 4 },
    { F::a2, none, 2, 1, sf({ 7, 9 }), 9, 1, 1, 4 },
    { F::a2, none, 2, 1, sf({ 4, 9 }), 9, 1, 1, 4 },
    { F::a2, none, 2, 1, sf({ 4, 9 }), 0, 2, 3, 4 },
    // 95: x = 2 as in 38.211 (V19.0.0), srsRAN and O-RAN SC; OpenAirInterface has 16.
    { F::a2, none, 2, 1, sf({ 2, 3, 4, 7, 8, 9 }), 0, 1, 3, 4 },
    { F::a2, none, 1, 0, sf({ 2 }), 0, 1, 3, 4 },
    { F::a2, none, 1, 0, sf({ 7 }), 0, 1, 3, 4 },
    { F::a2, none, 2, 1, sf({ 9 }), 0, 1, 3, 4 },
    { F::a2, none, 1, 0, sf({ 9 }), 0, 2, 3, 4 },
    { F::a2, none, 1, 0, sf({ 9 }), 9, 1, 1, 4 },
    { F::a2, none, 1, 0, sf({ 9 }), 0, 1, 3, 4 },
    { F::a2, none, 1, 0, sf({ 2, 7 }), 0, 1, 3, 4 },
    { F::a2, none, 1, 0, sf({ 8, 9 }), 0, 2, 3, 4 },
    { F::a2, none, 1, 0, sf({ 4, 9 }), 0, 1, 3, 4 },
    { F::a2, none, 1, 0, sf({ 7, 9 }), 9, 1, 1, 4 },
    { F::a2, none, 1, 0, sf({ 3, 4, 8, 9 }), 0, 1, 3, 4 },
    { F::a2, none, 1, 0, sf({ 3, 4, 8, 9 }), 0, 2, 3, 4 },
    { F::a2, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 1, 3, 4 },
    { F::a2, none, 1, 0, every_subframe, 9, 1, 1, 4 },
    // 110..132: format A3
    { F::a3, none, 16, 1, sf({ 9 }), 0, 2, 2, 6 },
    { F::a3, none, 8, 1, sf({ 9 }), 0, 2, 2, 6 },
    { F::a3, none, 4, 1, sf({ 9 }), 0, 1, 2, 6 },
    { F::a3, none, 2, 1, sf({ 4, 9 }), 7, 1, 1, 6 },
    { F::a3, none, 2, 1, sf({ 7, 9 }), 7, 1, 1, 6 },
    { F::a3, none, 2, 1, sf({ 7, 9 }), 0, 1, 2, 6 },
    { F::a3, none, 2, 1, sf({ 4, 9 }), 0, 2, 2, 6 },
    { F::a3, none, 2, 1, sf({ 8, 9 }), 0, 2, 2, 6 },
    { F::a3, none, 2, 1, sf({ 2, 3, 4, 7, 8, 9 }), 0, 1, 2, 6 },
    { F::a3, none, 1, 0, sf({ 2 }), 0, 1, 2, 6 },
    { F::a3, none, 1, 0, sf({ 7 }), 0, 1, 2, 6 },
    { F::a3, none, 2, 1, sf({ 9 }), 0, 1, 2, 6 },
    { F::a3, none, 1, 0, sf({ 9 }), 0, 2, 2, 6 },
    { F::a3, none, 1, 0, sf({ 9 }), 7, 1, 1, 6 },
    { F::a3, none, 1, 0, sf({ 9 }), 0, 1, 2, 6 },
    { F::a3, none, 1, 0, sf({ 2, 7 }), 0, 1, 2, 6 },
    { F::a3, none, 1, 0, sf({ 8, 9 }), 0, 2, 2, 6 },
    { F::a3, none, 1, 0, sf({ 4, 9 }), 0, 1, 2, 6 },
    { F::a3, none, 1, 0, sf({ 7, 9 }), 7, 1, 1, 6 },
    { F::a3, none, 1, 0, sf({ 3, 4, 8, 9 }), 0, 1, 2, 6 },
    { F::a3, none, 1, 0, sf({ 3, 4, 8, 9 }), 0, 2, 2, 6 },
    { F::a3, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 1, 2, 6 },
    { F::a3, none, 1, 0, every_subframe, 7, 1, 1, 6 },
    // 133..144: format B1
    { F::b1, none, 4, 1, sf({ 9 }), 2, 1, 6, 2 },
    { F::b1, none, 2, 1, sf({ 9 }), 2, 1, 6, 2 },
    { F::b1, none, 2, 1, sf({ 7, 9 }), 2, 1, 6, 2 },
    { F::b1, none, 2, 1, sf({ 4, 9 }), 8, 1, 3, 2 },
    { F::b1, none, 2, 1, sf({ 4, 9 }), 2, 2, 6, 2 },
    { F::b1, none, 1, 0, sf({ 9 }), 2, 2, 6, 2 },
    { F::b1, none, 1, 0, sf({ 9 }), 8, 1, 3, 2 },
    { F::b1, none, 1, 0, sf({ 9 }), 2, 1, 6, 2 },
    { F::b1, none, 1, 0, sf({ 8, 9 }), 2, 2, 6, 2 },
    { F::b1, none, 1, 0, sf({ 4, 9 }), 2, 1, 6, 2 },
    { F::b1, none, 1, 0, sf({ 7, 9 }), 8, 1, 3, 2 },
    { F::b1, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 2, 1, 6, 2 },
    // 145..168: format B4
    { F::b4, none, 16, 1, sf({ 9 }), 0, 2, 1, 12 },
    { F::b4, none, 8, 1, sf({ 9 }), 0, 2, 1, 12 },
    { F::b4, none, 4, 1, sf({ 9 }), 2, 1, 1, 12 },
    { F::b4, none, 2, 1, sf({ 9 }), 0, 1, 1, 12 },
    { F::b4, none, 2, 1, sf({ 9 }), 2, 1, 1, 12 },
    { F::b4, none, 2, 1, sf({ 7, 9 }), 2, 1, 1, 12 },
    { F::b4, none, 2, 1, sf({ 4, 9 }), 2, 1, 1, 12 },
    { F::b4, none, 2, 1, sf({ 4, 9 }), 0, 2, 1, 12 },
    { F::b4, none, 2, 1, sf({ 8, 9 }), 0, 2, 1, 12 },
    { F::b4, none, 2, 1, sf({ 2, 3, 4, 7, 8, 9 }), 0, 1, 1, 12 },
    { F::b4, none, 1, 0, sf({ 1 }), 0, 1, 1, 12 },
    { F::b4, none, 1, 0, sf({ 2 }), 0, 1, 1, 12 },
    { F::b4, none, 1, 0, sf({ 4 }), 0, 1, 1, 12 },
    { F::b4, none, 1, 0, sf({ 7 }), 0, 1, 1, 12 },
    { F::b4, none, 1, 0, sf({ 9 }), 0, 1, 1, 12 },
    { F::b4, none, 1, 0, sf({ 9 }), 2, 1, 1, 12 },
    { F::b4, none, 1, 0, sf({ 9 }), 0, 2, 1, 12 },
    { F::b4, none, 1, 0, sf({ 4, 9 }), 2, 1, 1, 12 },
    { F::b4, none, 1, 0, sf({ 7, 9 }), 2, 1, 1, 12 },
    { F::b4, none, 1, 0, sf({ 8, 9 }), 0, 2, 1, 12 },
    { F::b4, none, 1, 0, sf({ 3, 4, 8, 9 }), 2, 1, 1, 12 },
    { F::b4, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 2, 1, 1, 12 },
    { F::b4, none, 1, 0, every_subframe, 0, 2, 1, 12 },
    { F::b4, none, 1, 0, every_subframe, 2, 1, 1, 12 },
    // 169..188: format C0
    { F::c0, none, 16, 1, sf({ 9 }), 2, 2, 6, 2 },
    { F::c0, none, 8, 1, sf({ 9 }), 2, 2, 6, 2 },
    { F::c0, none, 4, 1, sf({ 9 }), 2, 1, 6, 2 },
    { F::c0, none, 2, 1, sf({ 9 }), 2, 1, 6, 2 },
    { F::c0, none, 2, 1, sf({ 8, 9 }), 2, 2, 6, 2 },
    { F::c0, none, 2, 1, sf({ 7, 9 }), 2, 1, 6, 2 },
    { F::c0, none, 2, 1, sf({ 7, 9 }), 8, 1, 3, 2 },
    { F::c0, none, 2, 1, sf({ 4, 9 }), 8, 1, 3, 2 },
    { F::c0, none, 2, 1, sf({ 4, 9 }), 2, 2, 6, 2 },
    { F::c0, none, 2, 1, sf({ 2, 3, 4, 7, 8, 9 }), 2, 1, 6, 2 },
    { F::c0, none, 1, 0, sf({ 9 }), 2, 2, 6, 2 },
    { F::c0, none, 1, 0, sf({ 9 }), 8, 1, 3, 2 },
    { F::c0, none, 1, 0, sf({ 9 }), 2, 1, 6, 2 },
    { F::c0, none, 1, 0, sf({ 8, 9 }), 2, 2, 6, 2 },
    { F::c0, none, 1, 0, sf({ 4, 9 }), 2, 1, 6, 2 },
    { F::c0, none, 1, 0, sf({ 7, 9 }), 8, 1, 3, 2 },
    { F::c0, none, 1, 0, sf({ 3, 4, 8, 9 }), 2, 1, 6, 2 },
    { F::c0, none, 1, 0, sf({ 3, 4, 8, 9 }), 2, 2, 6, 2 },
    { F::c0, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 2, 1, 6, 2 },
    { F::c0, none, 1, 0, every_subframe, 8, 1, 3, 2 },
    // 189..210: format C2
    { F::c2, none, 16, 1, sf({ 9 }), 2, 2, 2, 6 },
    { F::c2, none, 8, 1, sf({ 9 }), 2, 2, 2, 6 },
    { F::c2, none, 4, 1, sf({ 9 }), 2, 1, 2, 6 },
    { F::c2, none, 2, 1, sf({ 9 }), 2, 1, 2, 6 },
    { F::c2, none, 2, 1, sf({ 8, 9 }), 2, 2, 2, 6 },
    { F::c2, none, 2, 1, sf({ 7, 9 }), 2, 1, 2, 6 },
    { F::c2, none, 2, 1, sf({ 7, 9 }), 8, 1, 1, 6 },
    { F::c2, none, 2, 1, sf({ 4, 9 }), 8, 1, 1, 6 },
    { F::c2, none, 2, 1, sf({ 4, 9 }), 2, 2, 2, 6 },
    { F::c2, none, 2, 1, sf({ 2, 3, 4, 7, 8, 9 }), 2, 1, 2, 6 },
    { F::c2, none, 8, 1, sf({ 9 }), 8, 2, 1, 6 },
    { F::c2, none, 4, 1, sf({ 9 }), 8, 1, 1, 6 },
    { F::c2, none, 1, 0, sf({ 9 }), 2, 2, 2, 6 },
    { F::c2, none, 1, 0, sf({ 9 }), 8, 1, 1, 6 },
    { F::c2, none, 1, 0, sf({ 9 }), 2, 1, 2, 6 },
    { F::c2, none, 1, 0, sf({ 8, 9 }), 2, 2, 2, 6 },
    { F::c2, none, 1, 0, sf({ 4, 9 }), 2, 1, 2, 6 },
    { F::c2, none, 1, 0, sf({ 7, 9 }), 8, 1, 1, 6 },
    { F::c2, none, 1, 0, sf({ 3, 4, 8, 9 }), 2, 1, 2, 6 },
    { F::c2, none, 1, 0, sf({ 3, 4, 8, 9 }), 2, 2, 2, 6 },
    { F::c2, none, 1, 0, sf({ 1, 3, 5, 7, 9 }), 2, 1, 2, 6 },
    { F::c2, none, 1, 0, every_subframe, 8, 1, 1, 6 },
    // 211..225: format A1/B1
    { F::a1, F::b1, 2, 1, sf({ 9 }), 2, 1, 6, 2 },
    { F::a1, F::b1, 2, 1, sf({ 4, 9 }), 8, 1, 3, 2 },
    { F::a1, F::b1, 2, 1, sf({ 7, 9 }), 8, 1, 3, 2 },
    { F::a1, F::b1, 2, 1, sf({ 7, 9 }), 2, 1, 6, 2 },
    { F::a1, F::b1, 2, 1, sf({ 4, 9 }), 2, 2, 6, 2 },
    { F::a1, F::b1, 2, 1, sf({ 8, 9 }), 2, 2, 6, 2 },
    { F::a1, F::b1, 1, 0, sf({ 9 }), 2, 2, 6, 2 },
    { F::a1, F::b1, 1, 0, sf({ 9 }), 8, 1, 3, 2 },
    { F::a1, F::b1, 1, 0, sf({ 9 }), 2, 1, 6, 2 },
    { F::a1, F::b1, 1, 0, sf({ 8, 9 }), 2, 2, 6, 2 },
    { F::a1, F::b1, 1, 0, sf({ 4, 9 }), 2, 1, 6, 2 },
    { F::a1, F::b1, 1, 0, sf({ 7, 9 }), 8, 1, 3, 2 },
    { F::a1, F::b1, 1, 0, sf({ 3, 4, 8, 9 }), 2, 2, 6, 2 },
    { F::a1, F::b1, 1, 0, sf({ 1, 3, 5, 7, 9 }), 2, 1, 6, 2 },
    { F::a1, F::b1, 1, 0, every_subframe, 8, 1, 3, 2 },
    // 226..240: format A2/B2
    { F::a2, F::b2, 2, 1, sf({ 9 }), 0, 1, 3, 4 },
    { F::a2, F::b2, 2, 1, sf({ 4, 9 }), 6, 1, 2, 4 },
    { F::a2, F::b2, 2, 1, sf({ 7, 9 }), 6, 1, 2, 4 },
    { F::a2, F::b2, 2, 1, sf({ 4, 9 }), 0, 2, 3, 4 },
    { F::a2, F::b2, 2, 1, sf({ 8, 9 }), 0, 2, 3, 4 },
    { F::a2, F::b2, 1, 0, sf({ 9 }), 0, 2, 3, 4 },
    { F::a2, F::b2, 1, 0, sf({ 9 }), 6, 1, 2, 4 },
    { F::a2, F::b2, 1, 0, sf({ 9 }), 0, 1, 3, 4 },
    { F::a2, F::b2, 1, 0, sf({ 8, 9 }), 0, 2, 3, 4 },
    { F::a2, F::b2, 1, 0, sf({ 4, 9 }), 0, 1, 3, 4 },
    { F::a2, F::b2, 1, 0, sf({ 7, 9 }), 6, 1, 2, 4 },
    { F::a2, F::b2, 1, 0, sf({ 3, 4, 8, 9 }), 0, 1, 3, 4 },
    { F::a2, F::b2, 1, 0, sf({ 3, 4, 8, 9 }), 0, 2, 3, 4 },
    { F::a2, F::b2, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 1, 3, 4 },
    { F::a2, F::b2, 1, 0, every_subframe, 6, 1, 2, 4 },
    // 241..255: format A3/B3
    { F::a3, F::b3, 2, 1, sf({ 9 }), 0, 1, 2, 6 },
    { F::a3, F::b3, 2, 1, sf({ 4, 9 }), 2, 1, 2, 6 },
    { F::a3, F::b3, 2, 1, sf({ 7, 9 }), 0, 1, 2, 6 },
    { F::a3, F::b3, 2, 1, sf({ 7, 9 }), 2, 1, 2, 6 },
    { F::a3, F::b3, 2, 1, sf({ 4, 9 }), 0, 2, 2, 6 },
    { F::a3, F::b3, 2, 1, sf({ 8, 9 }), 0, 2, 2, 6 },
    { F::a3, F::b3, 1, 0, sf({ 9 }), 0, 2, 2, 6 },
    { F::a3, F::b3, 1, 0, sf({ 9 }), 2, 1, 2, 6 },
    { F::a3, F::b3, 1, 0, sf({ 9 }), 0, 1, 2, 6 },
    { F::a3, F::b3, 1, 0, sf({ 8, 9 }), 0, 2, 2, 6 },
    { F::a3, F::b3, 1, 0, sf({ 4, 9 }), 0, 1, 2, 6 },
    { F::a3, F::b3, 1, 0, sf({ 7, 9 }), 2, 1, 2, 6 },
    { F::a3, F::b3, 1, 0, sf({ 3, 4, 8, 9 }), 0, 2, 2, 6 },
    { F::a3, F::b3, 1, 0, sf({ 1, 3, 5, 7, 9 }), 0, 1, 2, 6 },
    { F::a3, F::b3, 1, 0, every_subframe, 2, 1, 2, 6 },
} };

std::string upper(std::string s)
{
    for (auto& c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

// The B format that may follow A1, A2, A3 (A1/B1, A2/B2, A3/B3).
std::optional<prach_format> b_partner(prach_format a)
{
    switch (a) {
    case prach_format::a1:
        return prach_format::b1;
    case prach_format::a2:
        return prach_format::b2;
    case prach_format::a3:
        return prach_format::b3;
    default:
        return std::nullopt;
    }
}

// 38.211 5.3.1: the start of symbol l of a subframe at 15 * 2^mu kHz, in kappa * T_c.
long symbol_start_kappa(int l, int mu)
{
    const int half = 7 << mu; // the symbol that starts at 0.5 ms
    long t = long(l) * ((2048 + 144) >> mu);
    if (l > 0)
        t += 16;
    if (l > half)
        t += 16;
    return t;
}

} // namespace

std::string to_string(prach_spectrum s)
{
    return s == prach_spectrum::fr1_paired ? "paired" : "unpaired";
}

prach_spectrum parse_prach_spectrum(const std::string& s, const std::string& what)
{
    const std::string u = upper(s);
    if (u == "PAIRED" || u == "FDD" || u == "SUL")
        return prach_spectrum::fr1_paired;
    if (u == "UNPAIRED" || u == "TDD")
        return prach_spectrum::fr1_unpaired;
    throw std::invalid_argument(what + ": one of paired (fdd, sul), unpaired (tdd), got '" + s +
                                "'");
}

prach_config prach_config_lookup(prach_spectrum s, int config_index)
{
    if (config_index < 0 || config_index >= prach_config_indices)
        throw std::invalid_argument("config_index: 0.." + std::to_string(prach_config_indices - 1) +
                                    " (" + to_string(s) + "), got " + std::to_string(config_index));
    const config_row& r = s == prach_spectrum::fr1_paired ? paired_rows[size_t(config_index)]
                                                          : unpaired_rows[size_t(config_index)];
    prach_config c;
    c.format = r.format;
    if (r.format_b != none)
        c.format_b = r.format_b;
    c.x = r.x;
    c.y = r.y;
    for (int n = 0; n < 10; n++)
        if (r.subframes & (1u << n))
            c.subframes.push_back(n);
    c.starting_symbol = r.starting_symbol;
    c.slots_per_subframe = r.slots_per_subframe;
    c.occasions_per_slot = r.occasions_per_slot;
    c.duration = r.duration;
    return c;
}

void prach_config::validate() const
{
    const std::string f = to_string(format);
    if (x != 1 && x != 2 && x != 4 && x != 8 && x != 16)
        throw std::invalid_argument("x: 1, 2, 4, 8 or 16, got " + std::to_string(x));
    if (y < 0 || y >= x)
        throw std::invalid_argument("y: 0.." + std::to_string(x - 1) + " for x " +
                                    std::to_string(x) + ", got " + std::to_string(y));
    if (subframes.empty())
        throw std::invalid_argument("subframes: at least one subframe, got none");
    for (size_t i = 0; i < subframes.size(); i++) {
        const int n = subframes[i];
        if (n < 0 || n > 9 || (i > 0 && n <= subframes[i - 1]))
            throw std::invalid_argument("subframes: ascending, each in 0..9, got " +
                                        std::to_string(n) + " at position " + std::to_string(i));
    }
    if (format_b && b_partner(format) != format_b)
        throw std::invalid_argument("format_b: only B1, B2, B3 after A1, A2, A3, got " +
                                    to_string(*format_b) + " after " + f);
    if (is_long()) {
        if (starting_symbol != 0 && starting_symbol != 7)
            throw std::invalid_argument("starting_symbol: 0 or 7 for format " + f + ", got " +
                                        std::to_string(starting_symbol));
        if (slots_per_subframe != 1 || occasions_per_slot != 1 || duration != 0)
            throw std::invalid_argument("occasions_per_slot: format " + f +
                                        " has one slot, one occasion and duration 0, got slots " +
                                        std::to_string(slots_per_subframe) + ", occasions " +
                                        std::to_string(occasions_per_slot) + ", duration " +
                                        std::to_string(duration));
        return;
    }
    if (slots_per_subframe < 1 || slots_per_subframe > 2)
        throw std::invalid_argument("slots_per_subframe: 1..2, got " +
                                    std::to_string(slots_per_subframe));
    if (starting_symbol < 0 || occasions_per_slot < 1 || duration < 1 ||
        starting_symbol + occasions_per_slot * duration > 14)
        throw std::invalid_argument(
            "occasions_per_slot: l0 + occasions * duration within the 14 symbols of a slot, "
            "got l0 " +
            std::to_string(starting_symbol) + ", occasions " + std::to_string(occasions_per_slot) +
            ", duration " + std::to_string(duration));
}

bool prach_frame_has_occasions(const prach_config& c, int sfn)
{
    if (sfn < 0 || sfn > 1023)
        throw std::invalid_argument("sfn: 0..1023, got " + std::to_string(sfn));
    c.validate();
    return sfn % c.x == c.y;
}

std::vector<prach_occasion_time> prach_occasions_in_frame(const prach_config& c, int mu)
{
    c.validate();
    const bool is_long = c.is_long();
    if (is_long ? mu != 0 : (mu < 0 || mu > 1))
        throw std::invalid_argument(
            std::string("mu: ") + (is_long ? "0 for format " : "0 or 1 (15, 30 kHz) for format ") +
            to_string(c.format) + ", got " + std::to_string(mu));

    // n_slot^RA: one slot of 15 kHz; at 30 kHz the second slot alone when the row has one.
    std::vector<int> slots = { 0 };
    if (!is_long && mu == 1)
        slots = c.slots_per_subframe == 1 ? std::vector<int>{ 1 } : std::vector<int>{ 0, 1 };

    std::vector<prach_occasion_time> out;
    for (int subframe : c.subframes)
        for (int slot : slots)
            for (int n_t = 0; n_t < c.occasions_per_slot; n_t++) {
                prach_occasion_time o;
                o.subframe = subframe;
                o.slot = slot;
                o.occasion = n_t;
                o.start_symbol = c.starting_symbol + n_t * c.duration + 14 * slot;
                o.format = c.format_b && n_t == c.occasions_per_slot - 1 ? *c.format_b : c.format;
                const long t = symbol_start_kappa(o.start_symbol, mu);
                o.start_kappa = long(subframe) * prach_kappa_per_subframe + t;
                if (!is_long) {
                    const prach_format_info info = prach_format_lookup(o.format, mu);
                    const long end = t + info.n_u + info.n_cp;
                    for (long instant : { 0L, long(prach_kappa_per_half_subframe) })
                        if (t <= instant && instant <= end)
                            o.extra_cp_kappa += 16;
                }
                out.push_back(o);
            }
    return out;
}

} // namespace gr::gpuofdm::core
