/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The Monte Carlo calibration table's use: a configuration of the table maps the target
// by its row's ratio, the nearest antenna count standing in; others keep the target; the
// detector's threshold is the closed form at the mapped target.

#include "prach/prach_calibration.h"
#include "prach/prach_detector.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gr::gpuofdm::core {
namespace {

TEST(PrachCalibration, TableRowsMapTheTarget)
{
    int n = 0;
    const prach_calibration_row* rows = prach_calibration_table(&n);
    ASSERT_GT(n, 0);
    for (int i = 0; i < n; i++) {
        const auto& r = rows[i];
        EXPECT_GT(r.target_for_0p1_percent, 0);
        EXPECT_LE(r.target_for_0p1_percent, 0.5);
        EXPECT_DOUBLE_EQ(prach_calibrated_false_alarm(r.format, r.mu, r.antennas, r.zcz,
                                                      prach_restricted_set::unrestricted, 1e-3),
                         r.target_for_0p1_percent);
        EXPECT_DOUBLE_EQ(prach_calibrated_false_alarm(r.format, r.mu, r.antennas, r.zcz,
                                                      prach_restricted_set::unrestricted, 1e-2),
                         std::min(0.5, 10 * r.target_for_0p1_percent));
        // A restricted set is not in the table.
        EXPECT_DOUBLE_EQ(prach_calibrated_false_alarm(r.format, r.mu, r.antennas, r.zcz,
                                                      prach_restricted_set::type_a, 1e-3),
                         1e-3);
    }
    // A zone no row has keeps the target.
    EXPECT_DOUBLE_EQ(prach_calibrated_false_alarm(prach_format::f0, 0, 2, 15,
                                                  prach_restricted_set::unrestricted, 1e-3),
                     1e-3);
}

TEST(PrachCalibration, DetectorThresholdIsTheClosedFormAtTheMappedTarget)
{
    int n = 0;
    const prach_calibration_row& r = prach_calibration_table(&n)[0];
    prach_detector_params p;
    p.format = r.format;
    p.mu = r.mu;
    p.n_antennas = r.antennas;
    p.cells = { { 0, r.zcz, prach_restricted_set::unrestricted } };
    auto calibrated = make_prach_detector_cpu(p);
    p.calibrated = false;
    auto closed_form = make_prach_detector_cpu(p);
    p.false_alarm = r.target_for_0p1_percent;
    auto mapped = make_prach_detector_cpu(p);
    EXPECT_FLOAT_EQ(calibrated->threshold(0), mapped->threshold(0));
    if (r.target_for_0p1_percent != 1e-3) {
        EXPECT_NE(calibrated->threshold(0), closed_form->threshold(0));
    }
}

} // namespace
} // namespace gr::gpuofdm::core
