/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PRACH_CALIBRATION_H
#define GPUOFDM_CORE_PRACH_CALIBRATION_H

// The PRACH detector's threshold calibrated by Monte Carlo. The detector's threshold
// comes from a false-alarm target in closed form (prach_detector.h); the zero-padded
// PDP's correlated samples and the estimated floor make the measured rate differ from
// the target. For the configurations of the table (the 38.104 8.4 AWGN ones), the
// closed-form target that stands for 0.1 %: the one whose threshold 0.08 % of 10,000
// noise-only trials' largest metrics pass (CPU twin; 0.08 %, so that other trials measure
// within 0.1 %), found by
//
//   gpuofdm_prach_mc --calibrate --false-alarm 8e-4 --pfa-trials 10000 --pd-trials 1000
//
// (apps/gpuofdm_prach_mc; its table rows are pasted into prach_calibration.cc;
// docs/PRACH.md has the measured Pd and Pfa).

#include "prach/prach_tables.h"

namespace gr::gpuofdm::core {

//! One calibrated configuration (unrestricted set).
struct prach_calibration_row {
    prach_format format;
    int mu;                        //!< short formats' numerology; 0 for the long formats
    int antennas;                  //!< n_antennas
    int zcz;                       //!< zeroCorrelationZoneConfig
    double target_for_0p1_percent; //!< the closed-form target standing for 0.1 %
};

/*!
 * \brief The closed-form target that measures \p false_alarm for (\p format, \p mu,
 * \p antennas, \p zcz, \p set): \p false_alarm times the table's ratio (target / 0.1 %) of
 * the row with the same format, mu and zcz and the nearest number of antennas, capped at
 * 0.5; \p false_alarm itself where the table has no such row (restricted sets included).
 */
double prach_calibrated_false_alarm(prach_format format,
                                    int mu,
                                    int antennas,
                                    int zcz,
                                    prach_restricted_set set,
                                    double false_alarm);

//! The table's rows, for documentation and tests.
const prach_calibration_row* prach_calibration_table(int* n_rows);

} // namespace gr::gpuofdm::core

#endif
