/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The synchronization raster: 38.104 Table 5.4.3.1-1's GSCN anchors, the candidates that
// fit a capture, LTE's 100 kHz raster, explicit offsets, and parameter checks.

#include "sync/sync_raster.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using namespace gr::gpuofdm;
using core::cell_standard;

// The first GSCN of each range of Table 5.4.3.1-1 and the ends of the table.
TEST(sync_raster, gscn_anchors)
{
    EXPECT_DOUBLE_EQ(core::nr_gscn_frequency(2), 1.25e6);       // N = 1, M = 1
    EXPECT_DOUBLE_EQ(core::nr_gscn_frequency(3), 1.35e6);       // N = 1, M = 3
    EXPECT_DOUBLE_EQ(core::nr_gscn_frequency(4), 1.45e6);       // N = 1, M = 5
    EXPECT_DOUBLE_EQ(core::nr_gscn_frequency(7498), 2999.05e6); // N = 2499, M = 5
    EXPECT_DOUBLE_EQ(core::nr_gscn_frequency(7499), 3000e6);
    EXPECT_DOUBLE_EQ(core::nr_gscn_frequency(7500), 3001.44e6);
    EXPECT_DOUBLE_EQ(core::nr_gscn_frequency(22255), 3000e6 + 14756 * 1.44e6);
    EXPECT_DOUBLE_EQ(core::nr_gscn_frequency(22256), 24250.08e6);
    EXPECT_DOUBLE_EQ(core::nr_gscn_frequency(26639), 24250.08e6 + 4383 * 17.28e6);
    EXPECT_THROW(core::nr_gscn_frequency(1), std::invalid_argument);
    EXPECT_THROW(core::nr_gscn_frequency(26640), std::invalid_argument);
}

TEST(sync_raster, gscn_round_trip)
{
    for (int g = 2; g <= 26639; g++) {
        ASSERT_EQ(core::nr_gscn_at(core::nr_gscn_frequency(g)), g);
    }
    EXPECT_EQ(core::nr_gscn_at(3000.5e6), -1);
    EXPECT_EQ(core::nr_gscn_at(1.3e6), -1);
}

// A 100 MHz n78 capture at 122.88 Msps centred on 3.5 GHz: the GSCNs whose 7.2 MHz SSB
// lies inside 0.9 x 122.88 MHz, i.e. SS_REF within +-51.696 MHz: 3448.304..3551.696 MHz,
// GSCN 7499 + ceil(448.304 / 1.44) = 7811 .. 7499 + floor(551.696 / 1.44) = 7882.
TEST(sync_raster, nr_wideband_capture)
{
    core::raster_params p;
    p.standard = cell_standard::nr;
    p.sample_rate = 122.88e6;
    p.center_hz = 3.5e9;
    p.ssb_scs_khz = 30;
    const auto c = core::raster_candidates(p);
    ASSERT_EQ(c.size(), 7882u - 7811u + 1u);
    EXPECT_EQ(c.front().raster_number, 7811);
    EXPECT_EQ(c.back().raster_number, 7882);
    EXPECT_NEAR(c.front().offset_hz, 3000e6 + 312 * 1.44e6 - 3.5e9, 1e-3);
    EXPECT_NEAR(c.front().absolute_hz, 3449.28e6, 1e-3);
    p.center_hz = 0;
    EXPECT_THROW(core::raster_candidates(p), std::invalid_argument);
}

// LTE at 30.72 Msps: 72 x 15 kHz PSS/SSS within 0.9 x 15.36 MHz: +-13.284 MHz, so 265
// raster points (-13.2..13.2 MHz); with a centre off the raster by 30 kHz the points move.
TEST(sync_raster, lte_raster)
{
    core::raster_params p;
    p.standard = cell_standard::lte;
    p.sample_rate = 30.72e6;
    auto c = core::raster_candidates(p);
    ASSERT_EQ(c.size(), 265u);
    EXPECT_DOUBLE_EQ(c.front().offset_hz, -13.2e6);
    EXPECT_EQ(c.front().raster_number, -1);
    p.center_hz = 2.14003e9;
    c = core::raster_candidates(p);
    ASSERT_FALSE(c.empty());
    EXPECT_NEAR(c.front().offset_hz, 2126.8e6 - 2140.03e6, 1e-3); // 2126.746 MHz rounded up
    for (const auto& k : c) {
        EXPECT_NEAR(std::fmod(k.absolute_hz, 100e3), 0.0, 1e-3);
        EXPECT_EQ(k.raster_number, static_cast<int>(std::lround(k.absolute_hz / 100e3)));
    }
}

TEST(sync_raster, explicit_offsets_and_5gtf)
{
    core::raster_params p;
    p.standard = cell_standard::fivegtf;
    p.sample_rate = 153.6e6;
    auto c = core::raster_candidates(p);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].offset_hz, 0.0);
    p.offsets_hz = { -20e6, 30e6 };
    c = core::raster_candidates(p);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[1].offset_hz, 30e6);
    p.offsets_hz = { 70e6 }; // 70 + 2.7 MHz > 0.45 x 153.6 MHz
    EXPECT_THROW(core::raster_candidates(p), std::invalid_argument);
    // NR offsets with a known centre name their GSCN when on the raster.
    p.standard = cell_standard::nr;
    p.sample_rate = 61.44e6;
    p.center_hz = 3.5e9;
    p.offsets_hz = { core::nr_gscn_frequency(7846) - 3.5e9, 1e6 };
    c = core::raster_candidates(p);
    EXPECT_EQ(c[0].raster_number, 7846);
    EXPECT_EQ(c[1].raster_number, -1);
}

TEST(sync_raster, bad_parameters)
{
    core::raster_params p;
    p.sample_rate = 1e6;
    EXPECT_THROW(p.validate(), std::invalid_argument);
    p = {};
    p.ssb_scs_khz = 60;
    EXPECT_THROW(p.validate(), std::invalid_argument);
    p = {};
    p.offsets_hz = { NAN };
    EXPECT_THROW(p.validate(), std::invalid_argument);
    p = {};
    p.standard = static_cast<cell_standard>(5);
    EXPECT_THROW(p.validate(), std::invalid_argument);
    EXPECT_EQ(core::parse_cell_standard("5gtf"), cell_standard::fivegtf);
    EXPECT_THROW(core::parse_cell_standard("wcdma"), std::invalid_argument);
}
