/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_PRACH_DETECTOR_COMMON_H
#define GPUOFDM_CORE_PRACH_DETECTOR_COMMON_H

// What both PRACH detector backends compute per preamble window and per (cell, occasion),
// written once: the CUDA backend decides on the device with the same code as the CPU twin.

#include "prach/prach_tables.h"
#include "runtime/host_device.h"
#include "runtime/rounded_math.h"

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


//! A preamble decided in one (cell, occasion): what a prach_detection holds beyond the
//! cell's tables and the delay's units (prach_detector::report() adds those).
struct prach_found {
    int cell = 0;
    int occasion = 0;
    int preamble = 0; //!< 0..63; -1: the (cell, occasion)'s floor is not finite (bad input)
    int delay_bins = 0;
    float power = 0;
    float noise = 0;
    float metric = 0;
};

/*!
 * The decisions of one (cell, occasion) from the scans \p st of its 64 windows \p win
 * (steps 6 and 7 of prach_detector.h): the floor per root, then every window above
 * threshold x images x floor that is not the sidelobe of a stronger detection of its root.
 * Writes them to \p out (room for 64) in preamble order and returns how many; for a floor
 * that is not finite, one record with preamble -1. \p length: L_RA; \p idft: N; \p reps:
 * the repetitions. Every operation rounds on its own (rounded_math.h), so both backends
 * decide alike on the same scans.
 */
GPUOFDM_HD inline int prach_decide(const prach_window* win,
                                   const prach_window_stats* st,
                                   float threshold,
                                   int length,
                                   int idft,
                                   int reps,
                                   int cell,
                                   int occasion,
                                   prach_found* out)
{
    using rounded::add;
    using rounded::div;
    using rounded::mul;
    using rounded::sub;
    constexpr double pi = 3.14159265358979323846;
    const double thr = threshold;
    const double images = 1 + 2 * win[0].n_images;
    const double lobe_scale = div(div(double(length), double(idft)), 0.95);
    const double noise_per_bin = double(reps) * double(length);
    // A window's root: its PDP row less that of preamble 0, which uses the cell's first.
    const int row0 = win[0].row_base;
    const int roots = win[0].row_step;

    // The floor: noise common to the cell's roots, plus on each root the flat
    // cross-correlation of the strong preambles of its other roots (1/L of their per-bin
    // power: the product of two ZC spectra is a chirp of flat DFT). First the mean over
    // every window; the windows above the threshold on it are the strong ones; the noise is
    // then the mean over the others, less their leakage.
    double all_sum = 0, all_count = 0;
    for (int p = 0; p < prach_preambles; p++) {
        all_sum = add(all_sum, double(st[p].sum));
        all_count = add(all_count, double(win[p].length));
    }
    const double floor1 = div(all_sum, all_count);
    if (!rounded::finite(floor1)) {
        out[0] = prach_found{};
        out[0].cell = cell;
        out[0].occasion = occasion;
        out[0].preamble = -1;
        return 1;
    }
    const double strong = mul(mul(thr, images), floor1);
    double leak[prach_preambles];
    for (int r = 0; r < roots; r++)
        leak[r] = 0.0;
    double total_leak = 0;
    for (int p = 0; p < prach_preambles; p++)
        if (double(st[p].peak) > strong) {
            const double excess =
                sub(double(st[p].peak_sum), mul(double(st[p].peak_count), floor1));
            const double pw = div(mul(excess > 0.0 ? excess : 0.0, lobe_scale), double(length));
            leak[win[p].row_base - row0] = sub(leak[win[p].row_base - row0], pw);
            total_leak = add(total_leak, pw);
        }
    for (int r = 0; r < roots; r++)
        leak[r] = add(leak[r], total_leak); // the others' leakage: all of it less its own
    double quiet_sum = 0, quiet_count = 0, loud_sum = 0, loud_count = 0;
    for (int p = 0; p < prach_preambles; p++) {
        const double l = leak[win[p].row_base - row0];
        if (double(st[p].peak) > strong) {
            const int n = win[p].length - st[p].peak_count;
            loud_sum = add(loud_sum,
                           sub(sub(double(st[p].sum), double(st[p].peak_sum)), mul(double(n), l)));
            loud_count = add(loud_count, double(n));
        } else {
            quiet_sum = add(quiet_sum, sub(double(st[p].sum), mul(double(win[p].length), l)));
            quiet_count = add(quiet_count, double(win[p].length));
        }
    }
    const double mean = quiet_count > 0  ? div(quiet_sum, quiet_count)
                        : loud_count > 0 ? div(loud_sum, loud_count)
                                         : floor1;
    const double noise = mean > 0.0 ? mean : 0.0;
    auto floor_of = [&](int p) { return add(noise, leak[win[p].row_base - row0]); };

    // Candidates above the threshold, strongest first (a stable insertion sort); one
    // within the sidelobe envelope of a stronger detection of its root is that one's
    // sidelobe (a delay off the PDP grid spreads a peak as sin(pi d) / (pi d) over d
    // sequence samples; the envelope 1 / (pi d)^2 is taken four times for the noise riding
    // on it).
    int cand[prach_preambles];
    int n_cand = 0;
    for (int p = 0; p < prach_preambles; p++) {
        const double f = floor_of(p);
        if (f > 0 && div(double(st[p].peak), mul(images, f)) > thr) {
            int i = n_cand++;
            for (; i > 0 && st[cand[i - 1]].peak < st[p].peak; i--)
                cand[i] = cand[i - 1];
            cand[i] = p;
        }
    }
    int kept[prach_preambles];
    int n_kept = 0;
    for (int c = 0; c < n_cand; c++) {
        const int p = cand[c];
        const int at = prach_wrap(win[p].start + st[p].peak_pos, idft);
        bool sidelobe = false;
        for (int k = 0; k < n_kept && !sidelobe; k++) {
            const int q = kept[k];
            if (win[q].row_base != win[p].row_base)
                continue;
            const int dq = prach_wrap(win[q].start + st[q].peak_pos - at, idft);
            const int dmin = dq < idft - dq ? dq : idft - dq;
            const double d = div(mul(double(dmin), double(length)), double(idft));
            const double envelope = d < 1 ? 1.0 : div(4.0, mul(mul(mul(pi, pi), d), d));
            sidelobe = double(st[p].peak) <= mul(envelope, double(st[q].peak));
        }
        if (!sidelobe) {
            int i = n_kept++;
            for (; i > 0 && kept[i - 1] > p; i--) // preamble order
                kept[i] = kept[i - 1];
            kept[i] = p;
        }
    }
    for (int k = 0; k < n_kept; k++) {
        const int p = kept[k];
        const double f = floor_of(p);
        prach_found d;
        d.cell = cell;
        d.occasion = occasion;
        d.preamble = p;
        d.delay_bins = st[p].peak_pos;
        // The main lobe's energy (about 95 % of it lies within the guard of two sequence
        // samples) rather than the peak sample, which loses up to 2.8 dB for a delay between
        // two PDP samples.
        const double excess = sub(double(st[p].peak_sum), mul(double(st[p].peak_count), f));
        d.power = float(mul(excess > 0.0 ? excess : 0.0, lobe_scale));
        d.noise = float(mul(f, noise_per_bin));
        d.metric = float(div(double(st[p].peak), mul(images, f)));
        out[k] = d;
    }
    return n_kept;
}

} // namespace gr::gpuofdm::core

#endif
