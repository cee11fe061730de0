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

// Fine timing (the matched filter over a candidate's timing window and CFO hypotheses),
// written once for the CPU twin's host threads and the CUDA match kernel:
//   w_h = w0 + h 2 pi / 64 (w0 the coarse CFO, |h| <= cfo_search),
//   y[t] = x[lo + t] e^{-j w_h t} (the phase's cos and sin by cos_sin below, rounded to
//   float; the product in float),
//   C_s(j) = sum_{k<256} y[j + cp + s L1 + k] conj(P_s[k]) in float, k increasing,
//   v(j) = |C_0(j)| + |C_1(j)| (each magnitude in double),
// and the start is the first maximum of v over (h, j) in increasing order (a NaN never
// counts; with none, the coarse hypothesis at the window's first start): per hypothesis
// the first maximum over j, then the first hypothesis with the largest of those.

constexpr double two_pi = 6.283185307179586476925;

/*!
 * cos x and sin x for |x| < 2^30 (fdlibm's reduction by pi / 2 in three parts, each
 * product exact, and its kernels' polynomials on |r| <= pi / 4), every operation rounded
 * on its own: the same doubles on the host and the device (libm's and CUDA's sin and cos
 * may differ in the last bit), within a few units in the last place of the true values.
 */
GPUOFDM_HD inline void cos_sin(double x, double& c, double& s)
{
    const double k = floor(add(mul(x, 6.36619772367581382433e-01), 0.5));
    double r = sub(x, mul(k, 1.57079632673412561417e+00));
    r = sub(r, mul(k, 6.07710050630396597660e-11));
    r = sub(r, mul(k, 2.02226624871116645580e-21));
    const double z = mul(r, r);
    double ps = 1.58969099521155010221e-10;
    ps = add(mul(ps, z), -2.50507602534068634195e-08);
    ps = add(mul(ps, z), 2.75573137070700676789e-06);
    ps = add(mul(ps, z), -1.98412698298579493134e-04);
    ps = add(mul(ps, z), 8.33333333332248946124e-03);
    ps = add(mul(ps, z), -1.66666666666666324348e-01);
    const double sr = add(r, mul(mul(r, z), ps));
    double pc = -1.13596475577881948265e-11;
    pc = add(mul(pc, z), 2.08757232129817482790e-09);
    pc = add(mul(pc, z), -2.75573143513906633035e-07);
    pc = add(mul(pc, z), 2.48015872894767294178e-05);
    pc = add(mul(pc, z), -1.38888888888741095749e-03);
    pc = add(mul(pc, z), 4.16666666666666019037e-02);
    const double cr = add(sub(1.0, mul(0.5, z)), mul(mul(z, z), pc));
    switch (static_cast<long long>(k) & 3) {
    case 0:
        c = cr, s = sr;
        break;
    case 1:
        c = -sr, s = cr;
        break;
    case 2:
        c = -cr, s = -sr;
        break;
    default:
        c = sr, s = -cr;
        break;
    }
}

//! Hypothesis h's CFO: w0 + h 2 pi / 64.
GPUOFDM_HD inline double hypothesis_cfo(double w0, int h)
{
    return add(w0, div(mul(double(h), two_pi), double(corr_delay)));
}

//! y[t] = x e^{-j w t}.
GPUOFDM_HD inline cpx derotate(cpx x, double w, long t)
{
    double c, s;
    cos_sin(mul(-w, double(t)), c, s);
    const float rr = float(c), ri = float(s);
    return { sub(mul(x.re, rr), mul(x.im, ri)), add(mul(x.re, ri), mul(x.im, rr)) };
}

//! |re + j im| in double.
GPUOFDM_HD inline double magnitude(float re, float im)
{
    const double r = re, i = im;
    return root(add(mul(r, r), mul(i, i)));
}

//! v = |sum y1[k] conj(p1[k])| + |sum y2[k] conj(p2[k])| (k < 256, float sums in order).
GPUOFDM_HD inline double match_value(const cpx* y1, const cpx* y2, const cpx* p1, const cpx* p2)
{
    float ar = 0.0f, ai = 0.0f, br = 0.0f, bi = 0.0f;
    for (int k = 0; k < 256; k++) {
        const cpx u = y1[k], a = p1[k], v = y2[k], b = p2[k];
        ar = add(ar, add(mul(u.re, a.re), mul(u.im, a.im)));
        ai = add(ai, sub(mul(u.im, a.re), mul(u.re, a.im)));
        br = add(br, add(mul(v.re, b.re), mul(v.im, b.im)));
        bi = add(bi, sub(mul(v.im, b.re), mul(v.re, b.im)));
    }
    return add(magnitude(ar, ai), magnitude(br, bi));
}

//! One hypothesis's first maximum: its value (-1: none, every v NaN) and start j.
struct match_best {
    double v;
    long long j;
};

//! Whether a replaces b as the first maximum: larger, or as large and earlier.
GPUOFDM_HD inline bool earlier_max(const match_best& a, const match_best& b)
{
    return a.v > b.v || (a.v == b.v && a.j < b.j);
}

/*!
 * The chosen hypothesis (index 0 .. n_hyp - 1, n_hyp = 2 cfo_search + 1) from each one's
 * first maximum, in order: the first with the largest; the coarse one (cfo_search) where
 * none has a value. Its start j in \p j.
 */
GPUOFDM_HD inline int pick_hypothesis(const match_best* per_hyp, int n_hyp, long long& j)
{
    double best = -1.0;
    int h = n_hyp / 2;
    j = 0;
    for (int k = 0; k < n_hyp; k++)
        if (per_hyp[k].v > best) {
            best = per_hyp[k].v;
            h = k;
            j = per_hyp[k].j;
        }
    return h;
}

} // namespace gr::gpuofdm::core::wimax_sync_detail

#endif
