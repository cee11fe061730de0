/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIFI_SYNC_COMMON_H
#define GPUOFDM_CORE_WIFI_SYNC_COMMON_H

// The arithmetic of the 802.11a synchronizer, written once for the CPU twin (g++) and the
// CUDA kernels (nvcc), and the host-side rule that turns detection candidates into frames.
//
// Both backends compute the same floats: every product, sum, square root and quotient is
// rounded on its own (__fmul_rn etc. on the device, plain float operations on the host,
// where x86-64 without -mfma contracts nothing), the sums run in the same order (k = 0, 1,
// ... sequentially), and the few transcendental values (the coarse CFO's atan2, the
// derotation phasors, the fine CFO) are computed in double and rounded to float, so a
// last-bit difference between glibc and CUDA's libm almost never shows.
//
// Definitions (x the input with every non-finite sample replaced by 0):
//   q[i] = x[i] conj(x[i + 16]),  e[i] = |x[i]|^2
//   c[n] = sum_{k<48} q[n + k],   a[n] = sum_{k<48} e[n + k],   b[n] = a[n + 16]
//   p[n] = max(a[n], b[n])        (k increasing in every sum)
//   m[n] = |c[n]| / p[n],         flag[n] = p[n] >= min_power && m[n] > threshold
// (|c| <= sqrt(a b) <= p: m <= 1, and a loud burst's end followed by quiet, where |c| / b
// alone grows with the square root of the SNR, stays low.)
// A candidate is a sample n where the run of flags reaches min_plateau L exactly:
// flag[n - L + 1 .. n] all set and (n == L - 1 or flag[n - L] clear). This is a property of
// the whole buffer, so the CUDA backend's pieces (each computing the flags from n - L) give
// the candidates the CPU twin finds in one pass.
//
// Fine timing of a candidate n: y[j] = x[n + ltf_lo + j] exp(-j w j), j < ltf_window + 128,
// w = -atan2(c[n]) / 16 the coarse CFO; for every offset j0 in 0 .. ltf_window - 1 the
// joint metric |C(j0)| + |C(j0 + 64)|, C(j) = sum_{k<64} y[j + k] conj(L[k]); the first
// maximum gives ltf_start = n + ltf_lo + j0. The fine CFO is the residual phase of
// A = sum_{k<64} x[s + k] conj(x[s + k + 64]) (s = ltf_start) after the coarse CFO.

#include "ofdm/constellation.h"
#include "runtime/host_device.h"
#include "runtime/rounded_math.h"
#include "wifi/wifi_sync.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gr::gpuofdm::core {

namespace sync_detail {

//! Delay of the short training field's autocorrelation, and its window.
constexpr unsigned delay = 16;
constexpr unsigned window = 48;
//! Samples after n that m[n] reads: x[n .. n + 64).
constexpr unsigned metric_span = delay + window;
/*!
 * The long training search window, relative to the detection point n: T1 starts at
 * n + ltf_lo .. n + ltf_lo + ltf_window - 1. The detection point lies between about
 * 10 samples before the short training field (the metric rises while the window enters
 * it) and about 120 samples into it (min_plateau 96, the run ending where GI2 enters the
 * window), so T1 (short field start + 192) lies 72 .. 202 samples after n; the window
 * 56 .. 224 keeps 16 samples of margin on each side.
 */
constexpr unsigned ltf_lo = 56;
constexpr unsigned ltf_window = 169;
constexpr unsigned ltf_len = 64;
//! Samples of y per candidate: the window plus T1 and T2 at its last offset.
constexpr unsigned ltf_span = ltf_window + 2 * ltf_len;
//! Samples after a candidate n that its fine timing reads (x[n .. n + cand_span)).
constexpr unsigned cand_span = ltf_lo + ltf_span;
//! After a frame, the search resumes at ltf_start + resume_after (T1, T2 and SIGNAL).
constexpr unsigned resume_after = 2 * ltf_len + 80;

// Every operation rounded on its own, on the host and the device alike (rounded_math.h).
using rounded::add;
using rounded::clean;
using rounded::cpx;
using rounded::div;
using rounded::finite;
using rounded::mul;
using rounded::root;
using rounded::sub;

//! a conj(b), each product and sum rounded.
GPUOFDM_HD inline cpx mul_conj(cpx a, cpx b)
{
    return { add(mul(a.re, b.re), mul(a.im, b.im)), sub(mul(a.im, b.re), mul(a.re, b.im)) };
}

//! a b, each product and sum rounded.
GPUOFDM_HD inline cpx mul_c(cpx a, cpx b)
{
    return { sub(mul(a.re, b.re), mul(a.im, b.im)), add(mul(a.re, b.im), mul(a.im, b.re)) };
}

GPUOFDM_HD inline float norm2(cpx a) { return add(mul(a.re, a.re), mul(a.im, a.im)); }
/*!
 * |a| as hi sqrt(1 + (lo / hi)^2), hi and lo the larger and smaller of |re| and |im|: no
 * overflow of the squares for large finite values (sums of loud samples), 0 for 0.
 */
GPUOFDM_HD inline float mag(cpx a)
{
    const float u = a.re < 0.0f ? -a.re : a.re;
    const float v = a.im < 0.0f ? -a.im : a.im;
    const float hi = u > v ? u : v;
    const float lo = u > v ? v : u;
    if (!(hi > 0.0f))
        return hi == 0.0f ? 0.0f : hi; // 0, or NaN
    const float r = div(lo, hi);
    return mul(hi, root(add(1.0f, mul(r, r))));
}

//! m = |c| / p (NaN when p = 0, which never passes the threshold).
GPUOFDM_HD inline float metric(cpx c, float p) { return div(mag(c), p); }

//! The detection flag; an overflow (|c| or p infinite: m infinite or NaN) never sets it.
GPUOFDM_HD inline bool flag(float m, float p, float threshold, float min_power)
{
    return p >= min_power && finite(p) && finite(m) && m > threshold;
}

//! p = the larger of the two windows' powers.
GPUOFDM_HD inline float window_power(float a, float b) { return a > b ? a : b; }

//! c[i] and p[i] of the clean samples x, directly (the same floats as the tiled sums).
GPUOFDM_HD inline void metric_at(const cpx* x, cpx* c, float* p)
{
    cpx sc = { 0.0f, 0.0f };
    float sa = 0.0f, sb = 0.0f;
    for (unsigned k = 0; k < window; k++) {
        const cpx q = mul_conj(x[k], x[k + delay]);
        sc.re = add(sc.re, q.re);
        sc.im = add(sc.im, q.im);
        sa = add(sa, norm2(x[k]));
        sb = add(sb, norm2(x[k + delay]));
    }
    *c = sc;
    *p = window_power(sa, sb);
}

//! The coarse CFO -arg(c) / 16, in double.
GPUOFDM_HD inline double coarse_cfo(cpx c) { return -atan2(double(c.im), double(c.re)) / 16.0; }

//! exp(-j w k), computed in double and rounded.
GPUOFDM_HD inline cpx derotation(double w, unsigned k)
{
    const double a = -w * double(k);
    return { float(cos(a)), float(sin(a)) };
}

//! C(j) = sum_{k<64} y[j + k] conj(L[k]).
GPUOFDM_HD inline cpx ltf_corr(const cpx* y, const cpx* l)
{
    cpx s = { 0.0f, 0.0f };
    for (unsigned k = 0; k < ltf_len; k++) {
        const cpx v = mul_conj(y[k], l[k]);
        s.re = add(s.re, v.re);
        s.im = add(s.im, v.im);
    }
    return s;
}

//! The joint metric |C(j0)| + |C(j0 + 64)| of offset j0 (y points at y[j0]).
GPUOFDM_HD inline float ltf_joint(const cpx* y, const cpx* l)
{
    return add(mag(ltf_corr(y, l)), mag(ltf_corr(y + ltf_len, l)));
}

//! sum_{k<64} |v[k]|^2.
GPUOFDM_HD inline float energy64(const cpx* v)
{
    float s = 0.0f;
    for (unsigned k = 0; k < ltf_len; k++)
        s = add(s, norm2(v[k]));
    return s;
}

/*!
 * The fine CFO: w plus the residual -arg(A e^{j 64 w}) / 64 (wrapped to +-pi / 64), where
 * a = A = sum_{k<64} x[s + k] conj(x[s + k + 64]) of the clean samples.
 */
GPUOFDM_HD inline float fine_cfo(double w, cpx a)
{
    const double pi = 3.14159265358979323846;
    double r = atan2(double(a.im), double(a.re)) + 64.0 * w;
    r = r - 2.0 * pi * floor((r + pi) / (2.0 * pi));
    return float(w - r / 64.0);
}

//! Normalized matched-filter peak |C1| / sqrt(E_y E_L), 0 where the energies are 0.
GPUOFDM_HD inline float ltf_quality(float c1, float e_y, float e_l)
{
    const float d = root(mul(e_y, e_l));
    return d > 0.0f ? div(c1, d) : 0.0f;
}

} // namespace sync_detail

//! One detection candidate and the frame it gives (what the fine timing computed).
struct wifi_sync_candidate {
    unsigned long long n = 0;         //!< the detection point
    unsigned long long ltf_start = 0; //!< n + ltf_lo + the best offset
    float cfo = 0.0f;
    float metric = 0.0f;
    float ltf_metric = 0.0f;
    float pad = 0.0f;
};

/*!
 * \brief The rule both backends apply to their candidates (in increasing n): a candidate
 * before the resume point of the previous frame, or with ltf_metric below min_ltf_metric,
 * is dropped; otherwise it is a frame, the search resumes at its ltf_start + 208, and it is
 * returned when ltf_start >= search_from.
 */
std::vector<wifi_sync_result> wifi_sync_select(const std::vector<wifi_sync_candidate>& cands,
                                               size_t search_from,
                                               float min_ltf_metric);

} // namespace gr::gpuofdm::core

#endif
