/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIFI_RX_COMMON_H
#define GPUOFDM_CORE_WIFI_RX_COMMON_H

// The 802.11a front end's per-symbol arithmetic, shared by the CPU twin and the CUDA
// kernels (host and device), so both equalize with the same formulas.

#include "conv_code.h"
#include "demapper.h"
#include "host_device.h"
#include "rounded_math.h"
#include "wifi_tx_common.h"

#include <cmath>
#include <cstdint>

namespace gr::gpuofdm::core::wifi_rx_detail {

using rounded::cpx; // the plain complex of the device code

GPUOFDM_HD inline cpx mul(cpx a, cpx b) { return { a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re }; }
//! a conj(b)
GPUOFDM_HD inline cpx mul_conj(cpx a, cpx b) { return { a.re * b.re + a.im * b.im, a.im * b.re - a.re * b.im }; }
GPUOFDM_HD inline float norm(cpx a) { return a.re * a.re + a.im * a.im; }

//! FFT bin of data carrier k (0 .. 47), as wifi_tx maps it (17.3.5.9, Equation 17-23).
GPUOFDM_HD inline int data_bin(int k) { return int(wifi_bin(wifi_data_subcarrier(unsigned(k)))); }

//! Bins of the pilots -21, -7, 7, 21 and their values before the polarity p_n (17.3.5.9).
GPUOFDM_HD inline int pilot_bin(int i) { return int(wifi_nondata_bin(unsigned(i))); }
GPUOFDM_HD inline float pilot_value(int i) { return i == 3 ? -1.0f : 1.0f; }

//! s += v Y_b conj(H_b): one pilot's term of a symbol's common phase.
GPUOFDM_HD inline void add_pilot(cpx& s, const cpx* y, const cpx* h, int b, float v)
{
    const cpx t = mul_conj(y[b], h[b]);
    s.re += v * t.re;
    s.im += v * t.im;
}

//! The unit rotation that removes the phase of \p s (1 when s is 0).
GPUOFDM_HD inline cpx derotation_of(cpx s)
{
    const float m = sqrtf(norm(s));
    if (!(m > 0.0f))
        return { 1.0f, 0.0f };
    return { s.re / m, -s.im / m };
}

/*!
 * \brief The common phase of one symbol from its pilots: sum of Y_p conj(H_p) P_p, as a
 * unit rotation that removes it (1 when tracking is off or the pilots are all zero).
 */
GPUOFDM_HD inline cpx pilot_derotation(const cpx* y, const cpx* h, float polarity, bool track)
{
    if (!track)
        return { 1.0f, 0.0f };
    cpx s{ 0.0f, 0.0f };
    for (int i = 0; i < 4; i++)
        add_pilot(s, y, h, pilot_bin(i), pilot_value(i) * polarity);
    return derotation_of(s);
}

//! Bin b of one symbol: Y_b rot / H_b (0 where H_b is 0).
GPUOFDM_HD inline cpx equalize_bin(const cpx* y, const cpx* h, cpx rot, int b)
{
    const float g = norm(h[b]);
    if (!(g > 0.0f))
        return { 0.0f, 0.0f };
    const cpx t = mul_conj(mul(y[b], rot), h[b]);
    return { t.re / g, t.im / g };
}

//! Data carrier k of one symbol: Y_b rot / H_b (0 where H_b is 0).
GPUOFDM_HD inline cpx equalize(const cpx* y, const cpx* h, cpx rot, int k)
{
    return equalize_bin(y, h, rot, data_bin(k));
}


/*!
 * \brief The pilots' channel ratios of one symbol, r_i = Y_p P_p / H_p at the four pilots
 * (phase and amplitude against the long-training estimate), for the interpolating
 * equalizer; 1 where H_p is 0.
 */
GPUOFDM_HD inline void pilot_ratios(const cpx* y, const cpx* h, float polarity, cpx* r)
{
    for (int i = 0; i < 4; i++) {
        const int b = pilot_bin(i);
        const float g = norm(h[b]);
        const cpx t = mul_conj(y[b], h[b]);
        const float v = pilot_value(i) * polarity;
        r[i] = g > 0.0f ? cpx{ v * t.re / g, v * t.im / g } : cpx{ 1.0f, 0.0f };
    }
}

/*!
 * \brief Data carrier k equalized by the pilot ratio interpolated linearly across the
 * subcarriers between the pilots at -21, -7, 7, 21 (held beyond the outer two):
 * Y_b / (H_b r(s)), 0 where that is 0.
 */
GPUOFDM_HD inline cpx equalize_interpolated(const cpx* y, const cpx* h, const cpx* r, int k)
{
    const int sc = wifi_data_subcarrier(unsigned(k));
    const int at[4] = { -21, -7, 7, 21 };
    cpx q;
    if (sc <= at[0]) {
        q = r[0];
    } else if (sc >= at[3]) {
        q = r[3];
    } else {
        int i = sc < at[1] ? 0 : sc < at[2] ? 1 : 2;
        const float w = float(sc - at[i]) / float(at[i + 1] - at[i]);
        q = { r[i].re + w * (r[i + 1].re - r[i].re), r[i].im + w * (r[i + 1].im - r[i].im) };
    }
    const int b = data_bin(k);
    const cpx d = mul(h[b], q);
    const float g = norm(d);
    if (!(g > 0.0f))
        return { 0.0f, 0.0f };
    const cpx t = mul_conj(y[b], d);
    return { t.re / g, t.im / g };
}

//! How a DATA or SIGNAL symbol is corrected from its pilots.
enum pilot_mode : int {
    pilots_off = 0,          //!< Y / H only
    pilots_common_phase = 1, //!< the common phase of the four pilots removed
    pilots_interpolated = 2, //!< per-carrier ratio interpolated between the pilots
};

//! One symbol's pilot correction, for pilot_mode.
struct pilot_state {
    cpx rot;  //!< pilots_common_phase
    cpx r[4]; //!< pilots_interpolated
};

GPUOFDM_HD inline pilot_state pilot_track(const cpx* y, const cpx* h, float polarity, int mode)
{
    pilot_state p;
    p.rot = pilot_derotation(y, h, polarity, mode == pilots_common_phase);
    if (mode == pilots_interpolated)
        pilot_ratios(y, h, polarity, p.r);
    return p;
}

//! Data carrier k of one symbol, equalized with its pilot correction.
GPUOFDM_HD inline cpx equalize_carrier(const cpx* y, const cpx* h, const pilot_state& p, int mode,
                                       int k)
{
    return mode == pilots_interpolated ? equalize_interpolated(y, h, p.r, k)
                                       : equalize(y, h, p.rot, k);
}

/*!
 * \brief Least-squares channel on the long training field: h_k = (Y1_k + Y2_k) / 2 / L_k
 * on the 52 used bins (0 elsewhere), and the noise variance per bin mean |Y1 - Y2|^2 / 2,
 * floored at 1e-5 of the mean |h|^2 (a 50 dB SNR) so noiseless input still gives finite
 * LLRs.
 */
GPUOFDM_HD inline void estimate_channel(const cpx* y1, const cpx* y2, const float* ltf, cpx* h,
                                        float* noise_var)
{
    float d = 0.0f, p = 0.0f;
    for (int b = 0; b < 64; b++) {
        if (ltf[b] == 0.0f) {
            h[b] = { 0.0f, 0.0f };
            continue;
        }
        h[b] = { 0.5f * (y1[b].re + y2[b].re) / ltf[b], 0.5f * (y1[b].im + y2[b].im) / ltf[b] };
        d += norm({ y1[b].re - y2[b].re, y1[b].im - y2[b].im });
        p += norm(h[b]);
    }
    float n = 0.5f * d / 52.0f;
    if (!(n >= 1e-5f * p / 52.0f))
        n = 1e-5f * p / 52.0f;
    if (!(n > 0.0f))
        n = 1e-30f;
    *noise_var = n;
}

/*!
 * \brief Tap t of the least-squares fit of h by a channel of a few taps (wifi_channel_fit:
 * fit is taps x 52). Each tap alone is noisy (the guard bands leave the fit poorly
 * conditioned in a few directions), but the channel they give back on the used bins is
 * the projection of h onto such channels, whose noise is taps / 52 of h's.
 */
GPUOFDM_HD inline cpx fit_tap(const cpx* h, const cpx* fit, const int* used, int t)
{
    cpx g{ 0.0f, 0.0f };
    for (int c = 0; c < 52; c++) {
        const cpx m = mul(fit[52 * t + c], h[used[c]]);
        g.re += m.re;
        g.im += m.im;
    }
    return g;
}

//! The channel on used bin r from the taps g (basis is 52 x taps).
GPUOFDM_HD inline cpx channel_from_taps(const cpx* g, const cpx* basis, int taps, int r)
{
    cpx acc{ 0.0f, 0.0f };
    for (int t = 0; t < taps; t++) {
        const cpx m = mul(basis[taps * r + t], g[t]);
        acc.re += m.re;
        acc.im += m.im;
    }
    return acc;
}

//! Mean |h|^2 over the used bins / noise: the SNR per carrier.
GPUOFDM_HD inline float channel_snr(const cpx* h, const int* used, float noise_var)
{
    float p = 0.0f;
    for (int c = 0; c < 52; c++)
        p += norm(h[used[c]]);
    return p / 52.0f / noise_var;
}

//! A carrier's LLR weight |H|^2 / noise (inv_noise = 1 / noise), each step rounded.
GPUOFDM_HD inline float carrier_weight(cpx h, float inv_noise)
{
    using namespace rounded;
    return rounded::mul(add(rounded::mul(h.re, h.re), rounded::mul(h.im, h.im)), inv_noise);
}

// SIGNAL (17.3.4): 24 bits, rate 1/2 with the 133/171 code, ending in state 0. The
// decoder below is the classic full-length one in double metrics, written as one
// add-compare-select per next state so that the CUDA kernel runs the 64 states on 64
// threads and the CPU twin loops over them: the same sums in the same order, the same bits.
constexpr int signal_steps = 24;
constexpr int signal_states = 64;

/*!
 * \brief Next state n of one SIGNAL trellis step: from its predecessors 2 (n mod 32) and
 * 2 (n mod 32) + 1 (input bit n / 32), the larger metric + (+-l0) + (+-l1), the even one
 * on a tie; a state no path reaches keeps -inf. \p from gets the predecessor.
 */
GPUOFDM_HD inline void signal_acs(int n, const double* m, float l0, float l1, double* nm,
                                  uint8_t* from)
{
    double best = -HUGE_VAL;
    uint8_t arg = 0;
    for (int q = 0; q < 2; q++) {
        const int p = 2 * (n & 31) + q;
        const unsigned reg = unsigned((n >> 5) << 6 | p); // the encoder register
        const bool c0 = parity7(reg & 0133u) != 0, c1 = parity7(reg & 0171u) != 0;
        const double cand = rounded::add(rounded::add(m[p], c0 ? -double(l0) : double(l0)),
                                         c1 ? -double(l1) : double(l1));
        if (cand > best) {
            best = cand;
            arg = uint8_t(p);
        }
    }
    nm[n] = best;
    from[n] = arg;
}

//! The 24 decoded bits (bit t of the result is step t's) traced back from state 0.
GPUOFDM_HD inline uint32_t signal_traceback(const uint8_t (*from)[signal_states])
{
    uint32_t bits = 0;
    int state = 0;
    for (int t = signal_steps; t-- > 0;) {
        bits |= uint32_t(state >> 5) << t;
        state = from[t][state];
    }
    return bits;
}

/*!
 * \brief SIGNAL's 24 decoded bits from its 48 equalized points (data carrier order,
 * pilot polarity removed) and LLR weights: BPSK max-log LLRs, deinterleaved by \p perm
 * (N_CBPS 48: coded bit k is point perm[k]), then the trellis above, one state at a time.
 */
GPUOFDM_HD inline uint32_t decode_signal_bits(const cpx* points, const float* weight,
                                              const uint32_t* perm)
{
    float llr[48];
    for (int k = 0; k < 48; k++)
        demap_point(points[k].re, points[k].im, modulation::bpsk, weight[k], false, &llr[k]);
    double m[2][signal_states];
    for (int s = 0; s < signal_states; s++)
        m[0][s] = s == 0 ? 0.0 : -HUGE_VAL;
    uint8_t from[signal_steps][signal_states];
    for (int t = 0; t < signal_steps; t++)
        for (int n = 0; n < signal_states; n++)
            signal_acs(n, m[t & 1], llr[perm[2 * t]], llr[perm[2 * t + 1]], m[(t + 1) & 1],
                       from[t]);
    return signal_traceback(from);
}

} // namespace gr::gpuofdm::core::wifi_rx_detail

#endif
