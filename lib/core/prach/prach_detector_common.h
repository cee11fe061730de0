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

#include <cstdint>

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

// Steps 6 and 7 of prach_detector.h, the decisions on one (cell, occasion)'s 64 window
// scans, in pieces both backends put together the same way (prach_decide() on the host,
// a warp per (cell, occasion) on the device):
//   1. floor1: the mean of every window's samples (prach_tree_sum() of the window sums over
//      the sum of their lengths);
//   2. the strong windows, peak > threshold x images x floor1, and the flat leakage each
//      puts on the other roots (prach_leak_power());
//   3. the noise: the mean over the other windows less their leakage, or where all are
//      strong over the samples beyond their main lobes (prach_noise_terms(), prach_noise());
//   4. the floor of a window, noise plus its root's leakage, and the candidates above the
//      threshold on it (prach_is_candidate());
//   5. the candidates that are not a stronger one's sidelobe (prach_keep()).
// Every operation rounds on its own (rounded_math.h) and every sum over the windows is the
// same pairwise tree, so both backends decide alike on the same scans.

//! What the decisions of a cell need beyond its windows and their scans.
struct prach_decide_consts {
    double threshold;     //!< the cell's, on the metric
    double images;        //!< samples combined a window sample: 1, 3 (type A) or 5 (type B)
    double lobe_scale;    //!< L / N / 0.95: a main lobe's energy from its samples in the guard
    double noise_per_bin; //!< R L: a PDP sample's noise to the per-bin noise of the input
    int length;           //!< L_RA
    int idft;             //!< N
};

GPUOFDM_HD inline prach_decide_consts prach_decide_consts_of(
    const prach_window& w0, float threshold, int length, int idft, int reps)
{
    prach_decide_consts k;
    k.threshold = threshold;
    k.images = 1 + 2 * w0.n_images;
    k.lobe_scale = rounded::div(rounded::div(double(length), double(idft)), 0.95);
    k.noise_per_bin = double(reps) * double(length);
    k.length = length;
    k.idft = idft;
    return k;
}

/*!
 * The sum of \p t (one value a window) in the order both backends use: the pairwise tree
 * t[i] + t[i + w] for w = 1, 2, 4, ..., 32 (on the device, each lane of a warp adds its
 * windows 2 lane and 2 lane + 1, then the lanes 1, 2, 4, ... apart). Overwrites \p t.
 */
inline double prach_tree_sum(double (&t)[prach_preambles])
{
    for (int w = 1; w < prach_preambles; w *= 2)
        for (int i = 0; i < prach_preambles; i += 2 * w)
            t[i] = rounded::add(t[i], t[i + w]);
    return t[0];
}

//! The lowest set bit of \p m (not 0).
GPUOFDM_HD inline int prach_lowest_bit(uint64_t m)
{
#ifdef __CUDA_ARCH__
    return __ffsll(static_cast<long long>(m)) - 1;
#else
    return __builtin_ctzll(m);
#endif
}

//! max(0, x) for a finite x.
GPUOFDM_HD inline double prach_positive(double x) { return x > 0.0 ? x : 0.0; }

//! Step 2: the per-bin power of a strong window's preamble over L: the flat
//! cross-correlation it puts on the other roots (the product of two ZC spectra is a chirp of
//! flat DFT).
GPUOFDM_HD inline double prach_leak_power(const prach_window_stats& s,
                                          double floor1,
                                          const prach_decide_consts& k)
{
    using namespace rounded;
    const double excess = sub(double(s.peak_sum), mul(double(s.peak_count), floor1));
    return div(mul(prach_positive(excess), k.lobe_scale), double(k.length));
}

//! The leakage on window \p p's root: that of every strong window (\p total) less its own
//! root's, those of \p strong (a bit a window) with \p pw their leak powers.
GPUOFDM_HD inline double prach_root_leak(
    const prach_window* win, const double* pw, uint64_t strong, int p, double total)
{
    double own = 0.0;
    for (uint64_t m = strong; m != 0; m &= m - 1) {
        const int q = prach_lowest_bit(m);
        if (win[q].row_base == win[p].row_base)
            own = rounded::sub(own, pw[q]);
    }
    return rounded::add(own, total);
}

//! Step 3: window \p w's terms of the noise mean, its leakage \p leak taken off: the
//! samples beyond the main lobe of a strong window, all of another's.
GPUOFDM_HD inline void prach_noise_terms(const prach_window& w,
                                         const prach_window_stats& s,
                                         bool strong,
                                         double leak,
                                         double& sum,
                                         int& count)
{
    using namespace rounded;
    if (strong) {
        count = w.length - s.peak_count;
        sum = sub(sub(double(s.sum), double(s.peak_sum)), mul(double(count), leak));
    } else {
        count = w.length;
        sum = sub(double(s.sum), mul(double(count), leak));
    }
}

//! Step 3: the noise from the sums of the quiet and strong windows' terms.
GPUOFDM_HD inline double prach_noise(
    double quiet_sum, int quiet_count, double loud_sum, int loud_count, double floor1)
{
    const double mean = quiet_count > 0  ? rounded::div(quiet_sum, double(quiet_count))
                        : loud_count > 0 ? rounded::div(loud_sum, double(loud_count))
                                         : floor1;
    return prach_positive(mean);
}

//! Step 4: whether a window's peak is over the threshold on its floor \p f.
GPUOFDM_HD inline bool prach_is_candidate(const prach_window_stats& s,
                                          double f,
                                          const prach_decide_consts& k)
{
    return f > 0 && rounded::div(double(s.peak), rounded::mul(k.images, f)) > k.threshold;
}

/*!
 * Step 5: of the \p candidates (a bit a window), strongest first, those not within the
 * sidelobe envelope of a stronger one kept of their root (a delay off the PDP grid spreads
 * a peak as sin(pi d) / (pi d) over d sequence samples; the envelope 1 / (pi d)^2 is taken
 * four times for the noise riding on it), written to \p out in preamble order with their
 * floors \p floor; returns how many.
 */
GPUOFDM_HD inline int prach_keep(const prach_window* win,
                                 const prach_window_stats* st,
                                 const double* floor,
                                 uint64_t candidates,
                                 const prach_decide_consts& k,
                                 int cell,
                                 int occasion,
                                 prach_found* out)
{
    using namespace rounded;
    constexpr double pi = 3.14159265358979323846;
    int cand[prach_preambles];
    int n_cand = 0;
    for (uint64_t m = candidates; m != 0; m &= m - 1) { // a stable insertion sort
        const int p = prach_lowest_bit(m);
        int i = n_cand++;
        for (; i > 0 && st[cand[i - 1]].peak < st[p].peak; i--)
            cand[i] = cand[i - 1];
        cand[i] = p;
    }
    int kept[prach_preambles];
    int n_kept = 0;
    for (int c = 0; c < n_cand; c++) {
        const int p = cand[c];
        const int at = prach_wrap(win[p].start + st[p].peak_pos, k.idft);
        bool sidelobe = false;
        for (int j = 0; j < n_kept && !sidelobe; j++) {
            const int q = kept[j];
            if (win[q].row_base != win[p].row_base)
                continue;
            const int dq = prach_wrap(win[q].start + st[q].peak_pos - at, k.idft);
            const int dmin = dq < k.idft - dq ? dq : k.idft - dq;
            const double d = div(mul(double(dmin), double(k.length)), double(k.idft));
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
    for (int j = 0; j < n_kept; j++) {
        const int p = kept[j];
        const double f = floor[p];
        prach_found d;
        d.cell = cell;
        d.occasion = occasion;
        d.preamble = p;
        d.delay_bins = st[p].peak_pos;
        // The main lobe's energy (about 95 % of it lies within the guard of two sequence
        // samples) rather than the peak sample, which loses up to 2.8 dB for a delay between
        // two PDP samples.
        const double excess = sub(double(st[p].peak_sum), mul(double(st[p].peak_count), f));
        d.power = float(mul(prach_positive(excess), k.lobe_scale));
        d.noise = float(mul(f, k.noise_per_bin));
        d.metric = float(div(double(st[p].peak), mul(k.images, f)));
        out[j] = d;
    }
    return n_kept;
}

//! The record of a (cell, occasion) whose floor is not finite (non-finite input).
GPUOFDM_HD inline prach_found prach_bad_input(int cell, int occasion)
{
    prach_found f;
    f.cell = cell;
    f.occasion = occasion;
    f.preamble = -1;
    return f;
}

/*!
 * The decisions of one (cell, occasion) on the host (the CPU twin; the CUDA backend puts
 * the same pieces together on a warp): from the scans \p st of its windows \p win, the
 * preambles found, written to \p out (room for 64) in preamble order; returns how many. For
 * a floor that is not finite, one record with preamble -1.
 */
inline int prach_decide(const prach_window* win,
                        const prach_window_stats* st,
                        const prach_decide_consts& k,
                        int cell,
                        int occasion,
                        prach_found* out)
{
    using namespace rounded;
    double t[prach_preambles];
    int count = 0;
    for (int p = 0; p < prach_preambles; p++) {
        t[p] = st[p].sum;
        count += win[p].length;
    }
    const double floor1 = div(prach_tree_sum(t), double(count));
    if (!finite(floor1)) {
        out[0] = prach_bad_input(cell, occasion);
        return 1;
    }
    const double level = mul(mul(k.threshold, k.images), floor1);
    uint64_t strong = 0;
    double pw[prach_preambles];
    for (int p = 0; p < prach_preambles; p++) {
        const bool s = double(st[p].peak) > level;
        strong |= uint64_t(s) << p;
        pw[p] = s ? prach_leak_power(st[p], floor1, k) : 0.0;
        t[p] = pw[p];
    }
    const double total = prach_tree_sum(t);
    double quiet[prach_preambles], loud[prach_preambles], floor[prach_preambles];
    int quiet_count = 0, loud_count = 0;
    for (int p = 0; p < prach_preambles; p++) {
        const bool s = (strong >> p) & 1;
        floor[p] = prach_root_leak(win, pw, strong, p, total);
        double sum;
        int n;
        prach_noise_terms(win[p], st[p], s, floor[p], sum, n);
        quiet[p] = s ? 0.0 : sum;
        loud[p] = s ? sum : 0.0;
        (s ? loud_count : quiet_count) += n;
    }
    const double quiet_sum = prach_tree_sum(quiet);
    const double noise =
        prach_noise(quiet_sum, quiet_count, prach_tree_sum(loud), loud_count, floor1);
    uint64_t candidates = 0;
    for (int p = 0; p < prach_preambles; p++) {
        floor[p] = add(noise, floor[p]);
        candidates |= uint64_t(prach_is_candidate(st[p], floor[p], k)) << p;
    }
    return prach_keep(win, st, floor, candidates, k, cell, occasion, out);
}

} // namespace gr::gpuofdm::core

#endif
