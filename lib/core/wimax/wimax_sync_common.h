/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIMAX_SYNC_COMMON_H
#define GPUOFDM_CORE_WIMAX_SYNC_COMMON_H

// The per-sample arithmetic of the 802.16 long-preamble synchronizer (wimax_sync), written
// once for the CPU twin (g++) and the CUDA kernels (nvcc), so both take the same decisions.
//
// Every double product, sum, quotient and square root is rounded on its own (__dmul_rn
// etc. on the device, plain double operations on the host, where x86-64 without -mfma
// contracts nothing), and the sums run in the same order on both:
//   x the input with every non-finite sample replaced by 0 (clean),
//   q[k] = x[k] conj(x[k + 64]),  e[k] = |x[k]|^2,  W = 128
//   at i = 128 j (a multiple of W from the buffer's first sample): exact sums
//       c = sum_{k=i}^{i+W-1} q[k], a = sum e[k], b = sum e[k + 64]  (k increasing);
//   else from i - 1 by one slide: c += q[i + W - 1] - q[i - 1] (the difference first),
//       a += e[i + W - 1] - e[i - 1], b += e[i + W - 1 + 64] - e[i - 1 + 64];
//   p = max(a, b), m = p > 0 ? sqrt(c.re^2 + c.im^2) / p : 0,
//   flag = p >= min_power && p > 0 && m > threshold.
// (The exact sums every W samples keep the sliding sums from drifting: a loud burst
// followed by digital silence gives p = 0 there, not a residue.) The state at i thus
// depends only on the samples from 128 floor(i / 128) on, so a thread that starts at a
// multiple of 128 (the CUDA metric kernel, one thread per 128 samples, or the candidate
// kernel, which computes c and m again at its sample) gets the CPU twin's doubles bit for
// bit. A candidate (detection point) is a sample where the run of flags reaches
// min_plateau exactly: a property of the whole buffer.

#include "runtime/host_device.h"
#include "runtime/rounded_math.h"

#include <cmath>

namespace gr::gpuofdm::core::wimax_sync_detail {

constexpr long corr_window = 128; //!< W of the delay-64 autocorrelation
constexpr long corr_delay = 64;

// Every operation rounded on its own, on the host and the device alike (rounded_math.h).
using rounded::add;
using rounded::clean;
using rounded::cpx;
using rounded::div;
using rounded::mul;
using rounded::root;
using rounded::sub;

//! The running sums at one sample.
struct sums {
    double cr, ci; //!< c = sum x[k] conj(x[k + 64])
    double pa, pb; //!< the two windows' powers
};

//! |v|^2 in double.
GPUOFDM_HD inline double energy(cpx v)
{
    const double r = v.re, i = v.im;
    return add(mul(r, r), mul(i, i));
}

//! u conj(v) in double: (ur vr + ui vi) + j (ui vr - ur vi).
GPUOFDM_HD inline void mul_conj(cpx u, cpx v, double& re, double& im)
{
    const double ur = u.re, ui = u.im, vr = v.re, vi = v.im;
    re = add(mul(ur, vr), mul(ui, vi));
    im = sub(mul(ui, vr), mul(ur, vi));
}

//! The exact sums at i (x clean, x[i .. i + 192) readable).
GPUOFDM_HD inline sums exact_sums(const cpx* x, long i)
{
    sums s = { 0.0, 0.0, 0.0, 0.0 };
    for (long k = i; k < i + corr_window; k++) {
        double qr, qi;
        mul_conj(x[k], x[k + corr_delay], qr, qi);
        s.cr = add(s.cr, qr);
        s.ci = add(s.ci, qi);
        s.pa = add(s.pa, energy(x[k]));
        s.pb = add(s.pb, energy(x[k + corr_delay]));
    }
    return s;
}

//! The sums at i from those at i - 1 (x[i - 1 .. i + 192) readable).
GPUOFDM_HD inline void slide(sums& s, const cpx* x, long i)
{
    const long o = i - 1, e = i + corr_window - 1;
    double er, ei, orr, oi;
    mul_conj(x[e], x[e + corr_delay], er, ei);
    mul_conj(x[o], x[o + corr_delay], orr, oi);
    s.cr = add(s.cr, sub(er, orr));
    s.ci = add(s.ci, sub(ei, oi));
    s.pa = add(s.pa, sub(energy(x[e]), energy(x[o])));
    s.pb = add(s.pb, sub(energy(x[e + corr_delay]), energy(x[o + corr_delay])));
}

//! The sums at i as the sequential pass has them: exact at multiples of W, slid between.
GPUOFDM_HD inline void step(sums& s, const cpx* x, long i)
{
    if (i % corr_window == 0)
        s = exact_sums(x, i);
    else
        slide(s, x, i);
}

//! The sums at i computed on their own (from the last multiple of W at or before i).
GPUOFDM_HD inline sums sums_at(const cpx* x, long i)
{
    const long i0 = i - i % corr_window;
    sums s = exact_sums(x, i0);
    for (long k = i0 + 1; k <= i; k++)
        slide(s, x, k);
    return s;
}

//! p = max(a, b).
GPUOFDM_HD inline double power(const sums& s) { return s.pa > s.pb ? s.pa : s.pb; }

//! m = |c| / p (0 for p <= 0).
GPUOFDM_HD inline double metric(const sums& s)
{
    const double p = power(s);
    if (!(p > 0.0))
        return 0.0;
    return div(root(add(mul(s.cr, s.cr), mul(s.ci, s.ci))), p);
}

GPUOFDM_HD inline bool flag(const sums& s, double threshold, double min_power)
{
    const double p = power(s);
    return p >= min_power && p > 0.0 && metric(s) > threshold;
}

} // namespace gr::gpuofdm::core::wimax_sync_detail

#endif
