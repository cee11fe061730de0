/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef GPUOFDM_CORE_CELL_SEARCH_COMMON_H
#define GPUOFDM_CORE_CELL_SEARCH_COMMON_H

// Where the SSS (and PBCH, ESS) symbols sit relative to the PSS, in candidate-rate samples
// from the start of the PSS's useful part, for each frame structure a standard allows.

#include "runtime/host_device.h"
#include "sync/cell_search.h"

#include <cmath>
#include <complex>
#include <vector>

namespace gr::gpuofdm::core {

//! One place the SSS may be, and what finding it there means.
struct sss_position {
    int offset;      //!< SSS useful start minus PSS useful start, samples
    int pss_cp;      //!< the PSS symbol's CP, samples (its CP start = useful start - pss_cp)
    int extended_cp; //!< LTE: 1 / 0; else -1
    int tdd;         //!< LTE: 1 / 0; else -1
};

inline std::vector<sss_position> sss_positions(const cell_search_layout& layout,
                                               cell_standard standard)
{
    const int n = layout.fft_size, cp = layout.cp;
    switch (standard) {
    case cell_standard::nr:
        // SSB symbols 0 (PSS) and 2 (SSS); no long CP between them in cases A, B, C.
        return { { 2 * (n + cp), cp, -1, -1 } };
    case cell_standard::lte: {
        // 36.211 6.11: FDD SSS one symbol before the PSS; TDD: last symbol of slot 1
        // before the PSS in the third symbol of slot 2 (slot 2's symbol 0 has the long CP,
        // 160/2048 of a symbol: cp + n / 128). Extended CP: 512/2048 of a symbol.
        const int ext = n / 4, long_cp = cp + n / 128;
        return { { -(n + cp), cp, 0, 0 },
                 { -(n + ext), ext, 1, 0 },
                 { -(3 * n + cp + long_cp + cp), cp, 0, 1 },
                 { -3 * (n + ext), ext, 1, 1 } };
    }
    case cell_standard::fivegtf:
        return { { 0, cp, -1, -1 } }; // PSS, SSS and ESS share the symbol
    }
    return {};
}

//! The PSS correlation block: overlap-save FFTs of 8 symbols (a power of two: the symbol
//! sizes are).
inline size_t pss_block_size(const cell_search_layout& layout)
{
    return 8 * static_cast<size_t>(layout.fft_size);
}

constexpr int max_combine_periods = 16; //!< cell_search_params::combine_periods' bound

//! The drift paths combining tries: the sample clock's offset moves the PSS by the same
//! amount each period, so path s puts period k's PSS round(k s / (2 (K - 1))) samples
//! from k periods after the first's, s = -slopes..slopes (steps of half a sample at the
//! last period).
GPUOFDM_HD inline int drift_offset(int k, int s, int periods)
{
    if (periods < 2) {
        return 0;
    }
    const int d = 2 * (periods - 1), q = k * s;
    return q >= 0 ? (2 * q + d) / (2 * d) : -((-2 * q + d) / (2 * d));
}

//! How the PSS metrics are combined: period k's at i + k * period + drift_offset(k, s), the
//! best of the drift paths s; in each period its symbols' (5GTF with combine_symbols) at
//! symbol_offset[l] from there. All of them averaged.
struct pss_combining {
    size_t period = 0;
    int periods = 1;
    int slopes = 0;                      //!< paths -slopes..slopes
    int reach[max_combine_periods] = {}; //!< the largest |drift_offset(k, s)|
    int symbols = 1;                     //!< sync symbols a period
    int symbol_offset[fivegtf_symbols] = {};
};

inline pss_combining make_pss_combining(const cell_search& search)
{
    const auto& p = search.params();
    pss_combining c;
    c.period = p.period_samples();
    c.periods = p.combine_periods;
    c.slopes = p.drift_slopes();
    for (int k = 0; k < c.periods; k++) {
        c.reach[k] = p.drift_reach(k);
    }
    c.symbols = p.symbols_per_period();
    for (int l = 0; l < c.symbols; l++) {
        c.symbol_offset[l] = p.symbol_offset(l);
    }
    return c;
}

//! The timings a call examines: PSS useful starts lo .. hi - 1, correlations needed up to
//! corr_hi (the periods and symbols averaged, and their drift, reach beyond hi).
struct pss_span {
    bool valid = false;
    size_t lo = 0, hi = 0, corr_hi = 0;
};

inline pss_span pss_search_span(const cell_search& search, size_t n)
{
    pss_span s;
    const size_t before = search.history(), after = search.lookahead();
    if (n < before + after + 1) {
        return s;
    }
    s.valid = true;
    s.lo = before;
    s.hi = n - after;
    s.corr_hi = s.hi + search.params().combining_extent();
    return s;
}

//! LTE / 5GTF: the PSS is a Zadoff-Chu sequence of root u, so the PSS moved up by \p shift
//! subcarriers matches the replica at -shift u N / 63 samples (modulo N, here in
//! -N/2..N/2) from its own timing. At shift +-2 (N = 128: 26 samples for u = 25, 10 for
//! u = 29 and 34) the match is 0.5 to 0.9 of the PSS's own: a cell near one end of the
//! hypotheses' range can win the PSS at the other end's hypothesis.
inline int zadoff_chu_alias_timing(int root, int shift, int fft_size)
{
    double t = -static_cast<double>(shift) * root * fft_size / 63.0;
    t -= fft_size * std::round(t / fft_size);
    return static_cast<int>(std::lround(t));
}

inline std::complex<float> finite_or_zero(std::complex<float> v)
{
    return std::isfinite(v.real()) && std::isfinite(v.imag()) ? v : std::complex<float>(0, 0);
}

//! The PSS metric from a correlation value (re, im) of a \p block-point overlap-save IFFT
//! (not normalised): N |c|^2 / (E_replica E_window), 1 on average in noise.
GPUOFDM_HD inline float pss_metric(float re_raw,
                                   float im_raw,
                                   size_t block,
                                   size_t fft,
                                   double replica_energy,
                                   double window_energy)
{
    if (!(window_energy > 0)) {
        return 0.0f;
    }
    // The block is a power of two (pss_block_size): its reciprocal is exact, so this is the
    // division, bit for bit, without its cost per value.
    const double inv_block = 1.0 / static_cast<double>(block);
    const double re = static_cast<double>(re_raw) * inv_block;
    const double im = static_cast<double>(im_raw) * inv_block;
    return static_cast<float>(static_cast<double>(fft) * (re * re + im * im) /
                              (replica_energy * window_energy));
}

//! Where period k's first symbol is along drift path \p s, as an index from span.lo.
GPUOFDM_HD inline size_t period_start(size_t i, const pss_combining& c, int k, int s)
{
    return static_cast<size_t>(static_cast<long long>(i + static_cast<size_t>(k) * c.period) +
                               drift_offset(k, s, c.periods));
}

//! The metric averaged over the periods (and symbols) along drift path \p s at timing
//! index i (from span.lo).
GPUOFDM_HD inline float path_metric(const float* m, size_t i, const pss_combining& c, int s)
{
    float sum = 0;
    for (int k = 0; k < c.periods; k++) {
        const size_t at = period_start(i, c, k, s);
        for (int l = 0; l < c.symbols; l++) {
            sum += m[at + static_cast<size_t>(c.symbol_offset[l])];
        }
    }
    return sum / static_cast<float>(c.periods * c.symbols);
}

//! No drift path's metric exceeds this: each period's largest within its reach.
GPUOFDM_HD inline float path_metric_bound(const float* m, size_t i, const pss_combining& c)
{
    float sum = 0;
    for (int k = 0; k < c.periods; k++) {
        for (int l = 0; l < c.symbols; l++) {
            const size_t at =
                i + static_cast<size_t>(k) * c.period + static_cast<size_t>(c.symbol_offset[l]);
            float peak = m[at - static_cast<size_t>(c.reach[k])];
            for (size_t j = at - static_cast<size_t>(c.reach[k]) + 1;
                 j <= at + static_cast<size_t>(c.reach[k]); j++) {
                peak = m[j] > peak ? m[j] : peak;
            }
            sum += peak;
        }
    }
    return sum / static_cast<float>(c.periods * c.symbols);
}

//! The metric averaged over the periods at timing index i: the best drift path's (the
//! first of equal ones, in \p path when given).
GPUOFDM_HD inline float combined_metric(const float* m,
                                        size_t i,
                                        const pss_combining& c,
                                        int* path = nullptr)
{
    int best_s = -c.slopes;
    float best = path_metric(m, i, c, best_s);
    for (int s = -c.slopes + 1; s <= c.slopes; s++) {
        const float v = path_metric(m, i, c, s);
        if (v > best) {
            best = v;
            best_s = s;
        }
    }
    if (path) {
        *path = best_s;
    }
    return best;
}

//! Period k's frequency hypothesis along drift path \p s: the one of its strongest
//! symbol (\p best: each timing's best hypothesis).
GPUOFDM_HD inline int period_hypothesis(
    const float* m, const int* best, size_t i, const pss_combining& c, int k, int s)
{
    const size_t at = period_start(i, c, k, s);
    size_t strongest = at;
    for (int l = 1; l < c.symbols; l++) {
        const size_t j = at + static_cast<size_t>(c.symbol_offset[l]);
        strongest = m[j] > m[strongest] ? j : strongest;
    }
    return best[strongest];
}

//! A timing is a candidate when its averaged metric passes the threshold and is a local
//! maximum in time (>= the one before, > the one after), within the span.
GPUOFDM_HD inline bool is_pss_candidate(
    const float* m, size_t i, const pss_span& span, const pss_combining& c, float threshold)
{
    if (!(path_metric_bound(m, i, c) >= threshold)) {
        return false; // no path passes: most timings stop here
    }
    const float v = combined_metric(m, i, c);
    if (!(v >= threshold)) {
        return false;
    }
    if (i > 0 && combined_metric(m, i - 1, c) > v) {
        return false;
    }
    return !(i + 1 < span.hi - span.lo && combined_metric(m, i + 1, c) >= v);
}

} // namespace gr::gpuofdm::core

#endif // GPUOFDM_CORE_CELL_SEARCH_COMMON_H
