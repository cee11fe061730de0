/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_WIFI_RX_COMMON_H
#define GPUOFDM_CORE_WIFI_RX_COMMON_H

// The 802.11a front end's per-symbol arithmetic, shared by the CPU twin and the CUDA
// kernels (host and device), so both equalize with the same formulas. Its pilot tracking
// takes any standard's pilots and serves 802.16 too (wimax_rx_common.h).

#include "fec/conv_code.h"
#include "ofdm/demapper.h"
#include "runtime/host_device.h"
#include "runtime/rounded_math.h"
#include "wifi/wifi_tx_common.h"

#include <cmath>
#include <cstdint>

namespace gr::gpuofdm::core::wifi_rx_detail {

using rounded::cpx; // the plain complex of the device code

GPUOFDM_HD inline cpx mul(cpx a, cpx b)
{
    return { a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re };
}
//! a conj(b)
GPUOFDM_HD inline cpx mul_conj(cpx a, cpx b)
{
    return { a.re * b.re + a.im * b.im, a.im * b.re - a.re * b.im };
}
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

//! Bin b of one symbol: Y_b rot / H_b (0 where H_b is 0).
GPUOFDM_HD inline cpx equalize_bin(const cpx* y, const cpx* h, cpx rot, int b)
{
    const float g = norm(h[b]);
    if (!(g > 0.0f))
        return { 0.0f, 0.0f };
    const cpx t = mul_conj(mul(y[b], rot), h[b]);
    return { t.re / g, t.im / g };
}

// Pilot tracking for any standard's pilots (802.11a's 4 below, 802.16's 8 in
// wimax_rx_common.h): n pilots at bins bins[i] and subcarriers at[i] (increasing), values
// v[i] with the polarity.

/*!
 * \brief The common phase of one symbol from its pilots: sum of Y_p conj(H_p) P_p, as a
 * unit rotation that removes it (1 when the pilots are all zero).
 */
GPUOFDM_HD inline cpx common_derotation(
    const cpx* y, const cpx* h, const int* bins, const float* v, int n)
{
    cpx s{ 0.0f, 0.0f };
    for (int i = 0; i < n; i++)
        add_pilot(s, y, h, bins[i], v[i]);
    return derotation_of(s);
}

/*!
 * \brief The pilots' channel ratios of one symbol, r_i = Y_p P_p / H_p (phase and
 * amplitude against the preamble's estimate); 1 where H_p is 0.
 */
GPUOFDM_HD inline void pilot_ratios(
    const cpx* y, const cpx* h, const int* bins, const float* v, int n, cpx* r)
{
    for (int i = 0; i < n; i++) {
        const int b = bins[i];
        const float g = norm(h[b]);
        const cpx t = mul_conj(y[b], h[b]);
        r[i] = g > 0.0f ? cpx{ v[i] * t.re / g, v[i] * t.im / g } : cpx{ 1.0f, 0.0f };
    }
}

/*!
 * \brief The ratio at subcarrier \p sc: linear between the two pilots around it, held
 * beyond the outer two (n >= 2).
 */
GPUOFDM_HD inline cpx interpolate_ratio(const int* at, const cpx* r, int n, int sc)
{
    if (sc <= at[0])
        return r[0];
    if (sc >= at[n - 1])
        return r[n - 1];
    int i = 0;
    while (i + 2 < n && sc >= at[i + 1])
        i++;
    const float w = float(sc - at[i]) / float(at[i + 1] - at[i]);
    return { r[i].re + w * (r[i + 1].re - r[i].re), r[i].im + w * (r[i + 1].im - r[i].im) };
}

//! Bin b of one symbol with its channel corrected by the ratio q: Y_b / (H_b q), 0 where
//! that is 0.
GPUOFDM_HD inline cpx equalize_ratio(const cpx* y, const cpx* h, cpx q, int b)
{
    const cpx d = mul(h[b], q);
    const float g = norm(d);
    if (!(g > 0.0f))
        return { 0.0f, 0.0f };
    const cpx t = mul_conj(y[b], d);
    return { t.re / g, t.im / g };
}

//! How a symbol is corrected from its pilots.
enum pilot_mode : int {
    pilots_off = 0,          //!< Y / H only
    pilots_common_phase = 1, //!< the common phase of the pilots removed
    pilots_interpolated = 2, //!< per-carrier ratio interpolated between the pilots
};

//! One symbol's correction from its N pilots, for pilot_mode.
template <int N>
struct pilot_correction {
    cpx rot;  //!< pilots_common_phase
    cpx r[N]; //!< pilots_interpolated
};

//! One symbol's correction from its N pilots for \p mode (pilot_mode).
template <int N>
GPUOFDM_HD inline pilot_correction<N> track_pilots(
    const cpx* y, const cpx* h, const int* bins, const float* v, int mode)
{
    pilot_correction<N> p;
    p.rot = mode == pilots_common_phase ? common_derotation(y, h, bins, v, N) : cpx{ 1.0f, 0.0f };
    if (mode == pilots_interpolated)
        pilot_ratios(y, h, bins, v, N, p.r);
    return p;
}

//! Bin b (subcarrier sc) of one symbol, equalized with its pilot correction.
template <int N>
GPUOFDM_HD inline cpx equalize_tracked(const cpx* y,
                                       const cpx* h,
                                       const pilot_correction<N>& p,
                                       int mode,
                                       const int* at,
                                       int sc,
                                       int b)
{
    return mode == pilots_interpolated ? equalize_ratio(y, h, interpolate_ratio(at, p.r, N, sc), b)
                                       : equalize_bin(y, h, p.rot, b);
}

// 802.11a: the pilots -21, -7, 7, 21 in every DATA and SIGNAL symbol.

using pilot_state = pilot_correction<4>;

//! 802.11a's pilot bins and values with the polarity p_n.
GPUOFDM_HD inline void wifi_pilots(float polarity, int* bins, float* v)
{
    for (int i = 0; i < 4; i++) {
        bins[i] = pilot_bin(i);
        v[i] = pilot_value(i) * polarity;
    }
}

//! One 802.11a symbol's correction from its pilots (polarity p_n) for \p mode.
GPUOFDM_HD inline pilot_state pilot_track(const cpx* y, const cpx* h, float polarity, int mode)
{
    int bins[4];
    float v[4];
    wifi_pilots(polarity, bins, v);
    return track_pilots<4>(y, h, bins, v, mode);
}

//! Data carrier k of one symbol, equalized with its pilot correction.
GPUOFDM_HD inline cpx equalize_carrier(
    const cpx* y, const cpx* h, const pilot_state& p, int mode, int k)
{
    const int at[4] = { -21, -7, 7, 21 };
    return equalize_tracked<4>(y, h, p, mode, at, wifi_data_subcarrier(unsigned(k)), data_bin(k));
}

/*!
 * \brief Least-squares channel on the long training field: h_k = (Y1_k + Y2_k) / 2 / L_k
 * on the 52 used bins (0 elsewhere), and the noise variance per bin mean |Y1 - Y2|^2 / 2,
 * floored at 1e-5 of the mean |h|^2 (a 50 dB SNR) so noiseless input still gives finite
 * LLRs.
 */
GPUOFDM_HD inline void estimate_channel(
    const cpx* y1, const cpx* y2, const float* ltf, cpx* h, float* noise_var)
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
GPUOFDM_HD inline void signal_acs(
    int n, const double* m, float l0, float l1, double* nm, uint8_t* from)
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
GPUOFDM_HD inline uint32_t decode_signal_bits(const cpx* points,
                                              const float* weight,
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
