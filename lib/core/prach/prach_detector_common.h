/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PRACH_DETECTOR_COMMON_H
#define GPUOFDM_CORE_PRACH_DETECTOR_COMMON_H

// What both PRACH detector backends compute per preamble window, written once.

#include "runtime/host_device.h"

namespace gr::gpuofdm::core {

//! A preamble's zero-correlation zone in the power delay profile of its root.
struct prach_window {
    int row_base = 0;               //!< PDP row of occasion 0 (first_row(cell) + root)
    int row_step = 0;               //!< rows between occasions (the cell's roots)
    int start = 0;                  //!< first PDP sample
    int length = 0;                 //!< PDP samples
    int n_images = 0;               //!< images combined each side: 0, 1 (type A) or 2 (type B)
    int image_offset[2] = { 0, 0 }; //!< PDP samples to the images at d_u and 2 d_u
    int guard = 0; //!< PDP samples each side of a peak kept out of the noise (its main lobe)
};

//! The scan of one window: its combined peak and where, the sum of its main samples, and
//! the sum and count of those within the guard of the peak.
struct prach_window_stats {
    float peak = 0;
    int peak_pos = 0; //!< within the window
    float sum = 0;
    float peak_sum = 0;
    int peak_count = 0;
};

GPUOFDM_HD inline int prach_wrap(int i, int n)
{
    const int r = i % n;
    return r < 0 ? r + n : r;
}

//! Sample \p j of window \p w combined with its images, in a fixed order.
GPUOFDM_HD inline float prach_combined(const float* pdp, int n, const prach_window& w, int j)
{
    const int at = w.start + j;
    float v = pdp[prach_wrap(at, n)];
    for (int m = 0; m < w.n_images; m++) {
        v += pdp[prach_wrap(at + w.image_offset[m], n)];
        v += pdp[prach_wrap(at - w.image_offset[m], n)];
    }
    return v;
}

//! The peak ordering both backends use: larger value, then the earlier position.
GPUOFDM_HD inline bool prach_peak_before(float a, int pos_a, float b, int pos_b)
{
    return a > b || (a == b && pos_a < pos_b);
}

//! The main samples of \p w within w.guard of window position \p pos (inside the window):
//! sets \p sum and \p count.
GPUOFDM_HD inline void prach_peak_region(
    const float* pdp, int n, const prach_window& w, int pos, float& sum, int& count)
{
    const int first = pos - w.guard < 0 ? 0 : pos - w.guard;
    const int last = pos + w.guard >= w.length ? w.length - 1 : pos + w.guard;
    sum = 0.0f;
    count = 0;
    for (int j = first; j <= last; j++) {
        sum += pdp[prach_wrap(w.start + j, n)];
        count++;
    }
}

} // namespace gr::gpuofdm::core

#endif
