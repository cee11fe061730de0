/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/param_error.h"
#include "runtime/profile.h"
#include "sync/cell_search.h"
#include "runtime/fftw_plan.h"
#include "sync/cell_search_common.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

using cf = std::complex<float>;
using cd = std::complex<double>;

constexpr int nr_dmrs_per_ssb = 144; // 38.211 7.4.1.4: 60 + 24 + 60 DM-RS REs
constexpr int dmrs_group = 4;        // DM-RS REs summed coherently outside the PSS's band
// NR: how far under its level (its step's) an SSS may be and still pass where the PBCH DM-RS
// of its cell confirms it; how rarely, at most, noise's DM-RS confirms (over the 8 ibar).
// Noise passes the SSS's level e^dmrs_sss_relief times as often as its own level, then the
// DM-RS once in 1 / dmrs_false_confirm (read_dmrs(); docs/CELLSEARCH.md, "The PBCH DM-RS
// confirms").
constexpr double dmrs_sss_relief = 5;
constexpr double dmrs_false_confirm = 3e-4;
// NR: the DM-RS metric every detection needs. Noise's passes 1 time in 4 (at its PSS peaks,
// measured), so noise whose PSS and SSS pass their levels is reported 4 times less often; a
// cell's DM-RS lies far over it (mean 10 to 18 at -6 dB, one period).
constexpr double dmrs_floor = 1;
// The PSS's channel estimate equalizes the SSS. Per subcarrier it is too noisy at low SNR;
// summed over neighbouring subcarriers it turns with a multipath channel's phase. It is
// taken in the delay domain instead: the PSS's subcarriers' inverse transform, its taps
// within one CP of the peak's timing each shrunk by max(0, 1 - shrink x noise / power) (the
// noise measured on the taps far from it), transformed back. On the CPU twin at -6 dB
// (NR) this found the SSS more often in AWGN and over the 3-tap channel than a sum over 19
// subcarriers (docs/CELLSEARCH.md, "The SSS's channel estimate"). 5GTF's SSS, on other
// subcarriers than its PSS, takes the PSS's mean channel one symbol at a time; with the
// symbols combined it is read on the CP's delays instead (delay_atoms()).
constexpr double tap_shrink = 3; // of 1, 2, 3, 4 and 6: the best in both channels for NR
constexpr int far_tap_guard = 4; // taps this far past the CP window on either side: noise
// LTE / 5GTF: the Zadoff-Chu aliases of a PSS peak tried, +-2 subcarriers (the +-1 ones
// match at 0.3 to 0.4 of the PSS's own, too weak to win its peak).
constexpr int max_alias_shift = 2;
const int alias_shifts[] = { 0, -max_alias_shift, max_alias_shift };
// 5GTF with its sync symbols combined: how often a noise-like ESS may confirm a detection,
// and how far above noise (relative to a stronger cell nearby) a PSS must stand not to be
// taken for that cell's cross-correlation (same_cell_elsewhere()).
constexpr double ess_false_confirm = 1e-3;
constexpr double ghost_ratio = 0.3;
// finish() spreads its SSS readings, then its candidates, over up to this many threads,
// one or more each: a reading costs tens to hundreds of microseconds, waking a thread a few.
constexpr unsigned max_finish_threads = 16;

// log P(mean > t) for the mean of k unit exponentials: the metrics' law in noise. In logs,
// since 5GTF's symbols combined make k up to 224 and the tails tiny.
double log_mean_exponential_tail(int k, double t)
{
    const double x = k * t;
    // log of sum_{i<k} x^i / i!, scaled by its largest term.
    std::vector<double> terms(static_cast<size_t>(k), 0.0);
    for (int i = 1; i < k; i++) {
        terms[static_cast<size_t>(i)] = terms[static_cast<size_t>(i) - 1] + std::log(x / i);
    }
    const double top = *std::max_element(terms.begin(), terms.end());
    double sum = 0;
    for (double v : terms) {
        sum += std::exp(v - top);
    }
    return -x + top + std::log(sum);
}

// The least t in 0..hi with log_tail(t) <= log_p, by bisection (log_tail falling in t).
template <typename LogTail>
double tail_threshold(const LogTail& log_tail, double log_p, double hi)
{
    double lo = 0;
    for (int i = 0; i < 100; i++) {
        const double mid = (lo + hi) / 2;
        (log_tail(mid) > log_p ? lo : hi) = mid;
    }
    return hi;
}

// The threshold on a mean of k metrics that noise passes as rarely as it passes
// \p single on one, when the best of exp(\p log_tries) such means is taken.
double combined_threshold(double single, int k, double log_tries = 0)
{
    return tail_threshold([k](double t) { return log_mean_exponential_tail(k, t); },
                          -single - log_tries, single + log_tries);
}

} // namespace

// The largest of h unit exponentials is the sum of independent exponentials of rates 1..h
// (Renyi's representation), so a sum of m of them is a sum of h gammas, whose cumulant
// generating function is K(s) = -m sum_j log(1 - s / j). The tail by the Lugannani-Rice
// saddlepoint formula: within a few per cent of the exact one for m = 1 and closer as m
// grows (test_cell_search.cc checks it against the closed forms of h = 1 and m = 1).
double log_mean_max_exponential_tail(int m, int h, double t)
{
    const double x = m * t;
    // K'(s) = m sum_j 1 / (j - s), rising in s; K'(0) is the mean.
    const auto k1 = [&](double s) {
        double v = 0;
        for (int j = 1; j <= h; j++) {
            v += 1.0 / (j - s);
        }
        return m * v;
    };
    if (x <= k1(0) * 1.001) {
        return std::log(0.5); // at or below the mean: only thresholds above it are asked for
    }
    // The saddlepoint s in (0, 1): K'(s) = x.
    double lo = 0, hi = 1;
    for (int i = 0; i < 200; i++) {
        const double mid = (lo + hi) / 2;
        (k1(mid) < x ? lo : hi) = mid;
    }
    const double s = (lo + hi) / 2;
    double k = 0, k2 = 0;
    for (int j = 1; j <= h; j++) {
        k -= std::log1p(-s / j);
        k2 += 1.0 / ((j - s) * (j - s));
    }
    k *= m;
    k2 *= m;
    const double w = std::sqrt(2 * (s * x - k)), u = s * std::sqrt(k2);
    // Q(w) + phi(w) (1 / u - 1 / w), as log phi(w) + log(Q(w) / phi(w) + 1 / u - 1 / w).
    const double mills =
        0.5 * std::erfc(w / std::sqrt(2.0)) * std::sqrt(2 * M_PI) * std::exp(0.5 * w * w);
    return -0.5 * w * w - 0.5 * std::log(2 * M_PI) + std::log(mills + 1 / u - 1 / w);
}

namespace {

// The threshold on the PSS metric combined over m terms (periods, or 5GTF's symbols), each
// the best of h frequency hypotheses, that noise passes at one timing as rarely as one term
// passes \p single (1 - (1 - e^-single)^h, about h e^-single), once \p log_tries such
// means (the drift paths) are tried there.
double combined_pss_threshold(double single, int m, int h, double log_tries)
{
    if (m == 1 && log_tries == 0) {
        return single;
    }
    const double target = std::log(-std::expm1(h * std::log1p(-std::exp(-single)))) - log_tries;
    return tail_threshold([m, h](double t) { return log_mean_max_exponential_tail(m, h, t); },
                          target, single + log_tries + 1);
}

// The SSS threshold for periods added coherently (read_sss()). One period's metric, its
// correlation's power over the equalized samples' own, is at most the sequence's length N:
// in noise over a flat channel it is N Beta(1, N - 1), whose tail is lighter than a unit
// exponential's (the fitted slopes of 1.06-1.07 in docs/CELLSEARCH.md). A sum of K such
// terms comes nearer a complex Gaussian, so the threshold is where a unit exponential passes
// as rarely as one period's law passes \p single: (N - 1) log(N / (N - single)), 15.56 for
// NR at its default 14.75 and 14.98 for LTE at its 13.5. Noise then passes it no more often
// than one period's threshold.
double coherent_sss_threshold(double single, size_t length)
{
    const auto n = static_cast<double>(length);
    if (single >= n) {
        return std::numeric_limits<double>::infinity(); // one period cannot pass it either
    }
    return -(n - 1) * std::log1p(-single / n);
}

// Whether the periods' SSS is added coherently (read_sss()): NR's and LTE's, K > 1.
bool coherent_periods(const cell_search_params& params)
{
    return params.combine_periods > 1 && params.standard != cell_standard::fivegtf;
}

// With K > 1 periods NR's and LTE's SSS is added coherently (read_sss()) over K N subcarriers
// (N: 127 NR, 62 LTE), where the PSS's mean of K metrics gains less. From 248 subcarriers
// on (LTE's 4 periods, NR's 2) the PSS stage lets e^2 times as many noise peaks through to
// the SSS, whose threshold (a unit exponential's) rises by 2, so noise passes both as rarely
// as before. Measured on the CPU twin (docs/CELLSEARCH.md): NR's and LTE's 4 periods find
// more cells with shifts of 2 to 4 than with none, LTE's 10 ms frame (2 periods, 124
// subcarriers) fewer with any. The cost: as many more SSS readings of noise in finish().
// The PSS's own threshold stays above noise's mean metric (1).
double coherent_sss_shift(const cell_search_params& params, size_t sss_length)
{
    const bool strong = static_cast<size_t>(params.combine_periods) * sss_length >= 248;
    return coherent_periods(params) && strong ? std::clamp(params.pss_threshold - 1, 0.0, 2.0)
                                              : 0.0;
}

// A detection may also pass on a staircase below the two levels (cell_search_params::
// pss_steps): step j takes the PSS down to the level of a threshold j lower, which e^j times
// as many noise peaks pass, and asks the SSS for r j more. Noise's SSS at a PSS peak has a
// tail of slope about 1 (docs/CELLSEARCH.md), so e^-r j as many of them pass it.
// - NR's and LTE's periods added coherently: 3 steps of r = 3 unless asked otherwise.
//   Noise's extra passes through both stages sum to (1 - 1/e)(e^-2 + e^-4 + e^-6) = 0.10 of
//   those before. A cell whose combined PSS lands under its level often carries an SSS far
//   over its own (NR, 4 periods, -10 dB: PSS 6.4-6.7 against 7.35 with SSS 23-42 against
//   17.56).
// - One period: none unless asked. Each step lets e times as many noise peaks through to
//   the SSS readings in finish(), which one period's wideband searches (every raster point,
//   in real time) cannot pay; a search of a few raster points can. Steps of r = 2: noise's
//   extra passes (1 - 1/e)(e^-1 + e^-2 + ...), 0.36 of those before with 4 steps. Read off
//   a scan of NR at -6 dB (CPU twin, 1,200 trials a channel, 10,000 noise windows;
//   docs/CELLSEARCH.md): 4 steps found 0.962 / 0.678 of the cells (AWGN / 3-tap) against
//   0.929 / 0.558, at 66 times the readings of noise; r = 1.5 a few more, at 1.8 times the
//   false alarms.
constexpr int combined_pss_steps = 3;
constexpr double combined_sss_rise = 3;
constexpr double one_period_sss_rise = 2;
constexpr int max_pss_steps = 6;

// The level on the PSS's combined metric that noise passes as rarely as one period's metric
// passes \p single. The drift paths are tried at each timing: counted by where they end, the
// paths to one end differing by a sample at most in the periods before. In noise the metric
// is the mean of K terms (K x 14 with 5GTF's symbols combined), each its period's (symbol's)
// best of the H frequency hypotheses: their law, not a union bound over the H^(K-1) other
// sequences of hypotheses, which put the threshold far above noise (5GTF, 4 periods of 14
// symbols: 4.30 against a mean of 2.28 in noise and its 1e-7 point near 3.3; now 3.29). The
// hypotheses' correlations are not independent, which makes noise's best of H lower: the law
// is on the safe side.
float pss_level(const cell_search_params& params, size_t hypotheses, double single)
{
    return static_cast<float>(combined_pss_threshold(
        single, params.combine_periods * params.symbols_per_period(), static_cast<int>(hypotheses),
        std::log(2.0 * params.drift_reach(params.combine_periods - 1) + 1)));
}

// |v|^2 as its two squares: std::norm of a complex double goes through hypot().
double power(cd v) { return v.real() * v.real() + v.imag() * v.imag(); }

// 5GTF's SSS (+42..+103) and ESS (-104..-42) lie 11 to 104 subcarriers from the PSS, further
// than a channel with a delay spread of a fraction of the CP stays the same, so the PSS's
// channel does not hold there (over the 3-tap test channel its mean keeps 0.65 of the SSS's
// energy on average, 0.4 or less in one trial of 20). With the symbols combined there is
// energy enough to leave the channel there unknown: the 62 subcarriers times a hypothesis's
// conjugate are that channel if the hypothesis is right, and its delays lie within the CP.
// The metric is their energy on the delays -A..A of the DFT over the 62 subcarriers (A: the
// CP in its steps of n / 62 samples) over all of their energy; in noise that share has a
// Beta law (beta_sum_tail), the DFT's rows being orthogonal. Over the 3-tap channel at -6 dB
// from one period it finds 0.999 of the cells where the PSS's mean channel found 0.985
// (H200, 1,000 trials); in AWGN at -10 dB it is 2 % below (it reads 9 dimensions, not 1).
int delay_atoms(const cell_search_layout& l)
{
    return l.cp * lte_sync_length / l.fft_size; // 4 for 5GTF: +-16.5 of its 18 samples
}

// \p y times the DFT row of delay step \p a (e^{-2 pi i e a / length}) into \p out.
void delay_atom(const std::vector<cd>& y, int a, std::vector<cd>& out)
{
    const cd step = std::polar(1.0, -2 * M_PI * a / static_cast<double>(y.size()));
    out.resize(y.size());
    cd rot = 1; // by products, not a sine and cosine per element (finish()'s time)
    for (size_t e = 0; e < y.size(); e++) {
        out[e] = y[e] * rot;
        rot *= step;
    }
}

double energy_of(const std::vector<cd>& y)
{
    double sum = 0;
    for (const auto& v : y) {
        sum += power(v);
    }
    return sum;
}

// sum over a = -A..A of |sum_e y[e] e^{-2 pi i e a / length}|^2 / the energy of y: in noise
// length times a Beta(2A + 1, length - 2A - 1) share (delay_atoms()).
double delay_subspace_metric(const std::vector<cd>& y, int atoms)
{
    const double energy = energy_of(y);
    if (energy <= 0) {
        return 0;
    }
    std::vector<cd> row;
    double sum = 0;
    for (int a = -atoms; a <= atoms; a++) {
        delay_atom(y, a, row);
        cd c = 0;
        for (const auto& v : row) {
            c += v;
        }
        sum += power(c);
    }
    return sum / energy;
}

} // namespace

// The law in noise of delay_subspace_metric() / length summed over m periods: each term is
// the share of a complex Gaussian vector's energy on 2A + 1 of its length orthogonal rows,
// Beta(2A + 1, length - 2A - 1), at most 1 (the metric divides by the energy it reads, which
// holds the signal too, so it is not a mean of unit exponentials: at high SNR it
// saturates). The sums' densities by convolution on a grid.
beta_sum_tail::beta_sum_tail(int a, int b, int max_m) : d_grid(512)
{
    std::vector<double> one(static_cast<size_t>(d_grid));
    double total = 0;
    const double log_norm = std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b);
    for (int i = 0; i < d_grid; i++) {
        const double x = (i + 0.5) / d_grid;
        one[static_cast<size_t>(i)] =
            std::exp((a - 1) * std::log(x) + (b - 1) * std::log1p(-x) - log_norm);
        total += one[static_cast<size_t>(i)];
    }
    for (auto& v : one) {
        v /= total;
    }
    std::vector<double> mass = one;
    for (int m = 1; m <= max_m; m++) {
        if (m > 1) {
            std::vector<double> next(mass.size() + one.size() - 1, 0.0);
            for (size_t i = 0; i < mass.size(); i++) {
                for (size_t j = 0; j < one.size(); j++) {
                    next[i + j] += mass[i] * one[j];
                }
            }
            mass = std::move(next);
        }
        // log P(sum >= the value of index j), from the top.
        std::vector<double> log_tail(mass.size());
        double above = 0;
        for (size_t j = mass.size(); j-- > 0;) {
            above += mass[j];
            log_tail[j] = std::log(std::max(above, 1e-300));
        }
        d_log_tail.push_back(std::move(log_tail));
    }
}

double beta_sum_tail::log_tail(int m, double t) const
{
    const auto& tail = d_log_tail.at(static_cast<size_t>(m) - 1);
    // Index j holds the sums (j + m / 2) / grid (m terms at their cells' midpoints), taken
    // as spread over a cell around it: the tail from t interpolates between its cell's
    // start (x = j) and the next's.
    const double x = t * d_grid - 0.5 * m + 0.5;
    if (x <= 0) {
        return 0;
    }
    const auto j = static_cast<size_t>(x);
    if (j + 1 >= tail.size()) {
        return tail.back() - (x - static_cast<double>(tail.size() - 1)) * 50; // past the end
    }
    const double f = x - static_cast<double>(j);
    return (1 - f) * tail[j] + f * tail[j + 1];
}

double beta_sum_tail::threshold(int m, double log_p) const
{
    return tail_threshold([this, m](double t) { return log_tail(m, t); }, log_p, m);
}

namespace {

int wrap_bin(int k, int n) { return ((k % n) + n) % n; }

// 36.211 6.11.1.2: n = 0..30 below DC, 31..61 above it, DC itself left out.
int dc_gap(int n) { return n < 31 ? n - 31 : n - 30; }

} // namespace

cell_search_layout make_cell_search_layout(cell_standard standard, int scs_khz)
{
    validate_cell_standard(standard);
    cell_search_layout l;
    switch (standard) {
    case cell_standard::nr:
        l.fft_size = 256;
        l.scs_hz = scs_khz * 1e3;
        l.pss_length = nr_sync_length;
        for (int n = 0; n < nr_sync_length; n++) {
            l.pss_bins.push_back(wrap_bin(56 + n - 120, l.fft_size)); // SSB k from SS_REF
        }
        l.sss_bins = l.pss_bins;
        break;
    case cell_standard::lte:
        l.fft_size = 128;
        l.scs_hz = 15e3;
        l.pss_length = lte_sync_length;
        for (int n = 0; n < lte_sync_length; n++) {
            l.pss_bins.push_back(wrap_bin(dc_gap(n), l.fft_size));
        }
        l.sss_bins = l.pss_bins;
        break;
    case cell_standard::fivegtf:
        l.fft_size = 256;
        l.scs_hz = 75e3;
        l.pss_length = lte_sync_length;
        for (int n = 0; n < lte_sync_length; n++) {
            l.pss_bins.push_back(wrap_bin(dc_gap(n), l.fft_size));
            l.sss_bins.push_back(n + 42); // V5G.211: +42..+103
        }
        for (int n = 0; n < fivegtf_ess_length; n++) {
            l.ess_bins.push_back(wrap_bin(n - 104, l.fft_size)); // -104..-42
        }
        break;
    }
    l.rate_hz = l.fft_size * l.scs_hz;
    l.cp = l.fft_size * 144 / 2048;
    return l;
}

void cell_search_params::validate() const
{
    if (standard == cell_standard::nr && scs_khz != 15 && scs_khz != 30) {
        throw_param_error("scs_khz", "15 or 30 for NR", scs_khz);
    }
    const double scs = make_cell_search_layout(standard, scs_khz).scs_hz;
    if (!(cfo_range_hz >= 0 && cfo_range_hz <= 64 * scs)) {
        throw_param_error("cfo_range_hz", "0..64 subcarrier spacings", cfo_range_hz);
    }
    if (!(pss_threshold > 1 && pss_threshold < 1e6)) {
        throw_param_error("pss_threshold", "> 1 (the metric's mean in noise)", pss_threshold);
    }
    if (!(sss_threshold == 0 || (sss_threshold > 1 && sss_threshold < 1e6))) {
        throw_param_error("sss_threshold",
                          "> 1 (the metric's mean in noise), or 0 (the standard's)", sss_threshold);
    }
    if (combine_periods < 1 || combine_periods > 16) {
        throw_param_error("combine_periods", "1..16", combine_periods);
    }
    if (combine_symbols && standard != cell_standard::fivegtf) {
        throw std::invalid_argument(
            "cell search: combine_symbols is for 5GTF (its sync subframes' 14 symbols)");
    }
    if (!(period_s >= 5e-3 && period_s <= 160e-3)) {
        throw_param_error("period_s", "5e-3..160e-3", period_s);
    }
    if (!(sro_ppm >= 0 && sro_ppm <= 100)) {
        throw_param_error("sro_ppm", "0..100", sro_ppm);
    }
    if (max_peaks < 1 || max_peaks > 1024) {
        throw_param_error("max_peaks", "1..1024", max_peaks);
    }
    if (pss_steps < -1 || pss_steps > max_pss_steps) {
        throw_param_error("pss_steps", "-1.." + std::to_string(max_pss_steps), pss_steps);
    }
    if (pss_steps > 0 && standard == cell_standard::fivegtf &&
        (combine_periods > 1 || combine_symbols)) {
        throw std::invalid_argument("cell search: pss_steps is -1 or 0 with 5GTF's periods or "
                                    "symbols combined (their metrics keep one pair)");
    }
    for (double f : channel_offsets_hz) {
        if (!std::isfinite(f)) {
            throw_param_error("channel_offsets_hz", "finite frequencies", f);
        }
    }
    if (ssb_lmax != 4 && ssb_lmax != 8) {
        throw_param_error("ssb_lmax", "4 or 8", ssb_lmax);
    }
}

double default_sss_threshold(cell_standard standard)
{
    return standard == cell_standard::lte ? 13.5 : 14.75;
}

double cell_search_params::sss_level() const
{
    return sss_threshold > 0 ? sss_threshold : default_sss_threshold(standard);
}

double default_cfo_range_hz(const cell_search_params& p, double carrier_hz)
{
    const double scs = make_cell_search_layout(p.standard, p.scs_khz).scs_hz;
    return std::clamp(default_cfo_ppm * 1e-6 * carrier_hz, scs, 64 * scs);
}

std::vector<double> cell_search_params::cfo_hypotheses() const
{
    const double scs = make_cell_search_layout(standard, scs_khz).scs_hz;
    const double range = cfo_range_hz > 0 ? cfo_range_hz : scs;
    const int steps = static_cast<int>(std::ceil(range / (scs / 2) - 1e-9));
    std::vector<double> h;
    for (int i = -steps; i <= steps; i++) {
        h.push_back(i * scs / 2);
    }
    return h;
}

size_t cell_search_params::period_samples() const
{
    const double rate = make_cell_search_layout(standard, scs_khz).rate_hz;
    const double period = standard == cell_standard::nr ? period_s : 5e-3;
    return static_cast<size_t>(std::llround(period * rate));
}

int cell_search_params::symbols_per_period() const { return combine_symbols ? fivegtf_symbols : 1; }

int cell_search_params::symbol_offset(int l) const
{
    if (l <= 0) {
        return 0; // one symbol a period (every standard but 5GTF combined): no layout needed
    }
    const int n = make_cell_search_layout(standard, scs_khz).fft_size;
    int offset = 0;
    for (int j = 1; j <= l; j++) {
        offset += n + fivegtf_cp_length(j, fivegtf_cp) * n / 2048;
    }
    return offset;
}

size_t cell_search_params::combining_extent() const
{
    const int last = combine_periods - 1;
    return static_cast<size_t>(last) * period_samples() + static_cast<size_t>(drift_reach(last)) +
           static_cast<size_t>(symbol_offset(symbols_per_period() - 1));
}

int cell_search_params::drift_slopes() const
{
    // Half a sample at the last period over the drift there: sro_ppm (K - 1) periods.
    const double per_period = sro_ppm * 1e-6 * static_cast<double>(period_samples());
    return static_cast<int>(std::ceil(per_period * 2 * (combine_periods - 1) - 1e-9));
}

int cell_search_params::drift_reach(int k) const
{
    return drift_offset(k, drift_slopes(), combine_periods);
}

//! What the host needs at every peak: the sequences and an FFT of one symbol.
struct cell_search::examiner {
    //! The same tables with a plan of its own, for another thread.
    examiner(const examiner& o)
        : layout(o.layout), pss(o.pss), sss(o.sss), symbol_fwd(o.layout.fft_size, true),
          tap_inv(o.layout.fft_size, false), tap_fwd(o.layout.fft_size, true), tap_edge(o.tap_edge),
          alias_margin(o.alias_margin), fine_per_nid2(o.fine_per_nid2), fine(o.fine)
    {
    }

    examiner(const cell_search_params& params, const cell_search_layout& l)
        : layout(l), symbol_fwd(l.fft_size, true), tap_inv(l.fft_size, false),
          tap_fwd(l.fft_size, true)
    {
        // What the CP window of taps makes of a flat channel at each PSS subcarrier: the
        // estimate is divided by it, so that the band's edges are not pulled towards zero.
        const int n = l.fft_size;
        const auto delay = [&](size_t i) { return static_cast<double>(i) - l.cp; };
        // The PSS subcarriers' inverse transform at the delays -cp..cp.
        std::vector<cd> mask_taps(2 * static_cast<size_t>(l.cp) + 1);
        for (size_t i = 0; i < mask_taps.size(); i++) {
            for (int b : l.pss_bins) {
                mask_taps[i] += std::polar(1.0, 2 * M_PI * b * delay(i) / n);
            }
        }
        for (int b : l.pss_bins) {
            cd sum = 0;
            for (size_t i = 0; i < mask_taps.size(); i++) {
                sum += mask_taps[i] * std::polar(1.0, -2 * M_PI * b * delay(i) / n);
            }
            tap_edge.push_back(sum);
        }
        for (int nid2 = 0; nid2 < nid2_count; nid2++) {
            std::vector<cd> p;
            if (params.standard == cell_standard::nr) {
                for (float v : nr_pss(nid2)) {
                    p.emplace_back(v);
                }
            } else {
                for (cf v : lte_pss(nid2)) {
                    p.emplace_back(v);
                }
            }
            pss.push_back(p);
            // The SSS hypotheses: NR N_ID^(1) 0..335; LTE / 5GTF (N_ID^(1), half) as
            // 2 * nid1 + half, half 1 = subframe 5 / 25.
            sss.emplace_back(params.standard == cell_standard::nr, nid2);
        }
    }

    std::vector<cd> symbol_spectrum(const pss_window& w, long long start, double cfo);
    //! The channel at the PSS's subcarriers from \p raw, the received PSS elements times
    //! the conjugate sequence (see tap_shrink).
    std::vector<cd> pss_channel(const std::vector<cd>& raw);

    //! The replica of \p nid2 at hypothesis index \p hyp (of the search's) moved by
    //! \p shift subcarriers.
    const pss_replica& replica(int nid2, int hyp, int shift) const
    {
        return fine[static_cast<size_t>(nid2) * fine_per_nid2 +
                    static_cast<size_t>(hyp + alias_margin + 2 * shift)];
    }

    const cell_search_layout& layout;
    std::vector<std::vector<cd>> pss; // [nid2][element]
    std::vector<sss_correlator> sss;  // [nid2]
    std::vector<cd> sss_z, sss_sums;  // scratch of read_sss()
    fftw_plan_1d symbol_fwd;
    fftw_plan_1d tap_inv, tap_fwd; // pss_channel()'s transforms
    std::vector<cd> tap_edge;      // [element]: pss_channel()'s flat-channel response
    // The replicas on the hypotheses' half-subcarrier grid, extended by the aliases' reach.
    int alias_margin = 0;
    size_t fine_per_nid2 = 0;
    std::vector<pss_replica> fine;
};

cell_search::cell_search(const cell_search_params& params)
    : d_params(params), d_layout(make_cell_search_layout(params.standard, params.scs_khz)),
      d_hyp(params.cfo_hypotheses()), d_period(params.period_samples())
{
    d_params.validate();
    // The levels on the (combined) metrics, from the one-period thresholds.
    const size_t sss_length = d_layout.sss_bins.size();
    const double shift = coherent_sss_shift(d_params, sss_length);
    const double single = d_params.pss_threshold - shift; // one period's PSS level
    const double sss = d_params.sss_level();
    d_pss_threshold = pss_level(d_params, d_hyp.size(), single);
    d_sss_threshold = d_params.combine_periods == 1 ? sss
                      : d_params.standard == cell_standard::fivegtf
                          ? combined_threshold(sss, d_params.combine_periods)
                          : coherent_sss_threshold(sss, sss_length) + shift;
    if (d_params.combine_symbols) {
        // A period's SSS is one sum over its symbols, read on the CP's delays (delay_atoms());
        // the threshold on the mean-1 metric where the law says noise passes as rarely as a
        // unit exponential passes sss_threshold.
        const int rows = 2 * delay_atoms(d_layout) + 1, k = d_params.combine_periods;
        const beta_sum_tail sss_tail(rows, lte_sync_length - rows, k);
        d_ess_tail = std::make_shared<beta_sum_tail>(rows, fivegtf_ess_length - rows, k);
        d_sss_threshold =
            sss_tail.threshold(k, -sss) * lte_sync_length / (static_cast<double>(k) * rows);
    }
    d_metric_steps = { { d_pss_threshold, d_sss_threshold } };
    const bool coherent = coherent_periods(d_params);
    const int steps = d_params.pss_steps >= 0 ? d_params.pss_steps
                      : coherent              ? combined_pss_steps
                                              : 0;
    const double rise = coherent ? combined_sss_rise : one_period_sss_rise;
    for (int j = 1; j <= steps && single - j >= 1; j++) {
        d_metric_steps.push_back(
            { pss_level(d_params, d_hyp.size(), single - j), d_sss_threshold + rise * j });
    }
    d_examiner = std::make_shared<examiner>(d_params, d_layout);
    auto& ex = *d_examiner;
    const bool zadoff_chu = d_params.standard != cell_standard::nr;
    ex.alias_margin = zadoff_chu ? 2 * max_alias_shift : 0;
    ex.fine_per_nid2 = d_hyp.size() + 2 * static_cast<size_t>(ex.alias_margin);
    const int n = d_layout.fft_size;
    for (int nid2 = 0; nid2 < nid2_count; nid2++) {
        const auto& pss = ex.pss[nid2];
        for (size_t j = 0; j < ex.fine_per_nid2; j++) {
            pss_replica r;
            r.nid2 = nid2;
            // As cfo_hypotheses() spaces them: i half subcarriers.
            const int i =
                static_cast<int>(j) - ex.alias_margin - static_cast<int>(d_hyp.size() / 2);
            r.freq_hz = i * d_layout.scs_hz / 2;
            r.time.assign(n, 0.0);
            for (size_t k = 0; k < pss.size(); k++) {
                const int bin = d_layout.pss_bins[k];
                const double sub = bin < n / 2 ? bin : bin - n; // signed subcarrier
                for (int t = 0; t < n; t++) {
                    const double cycles =
                        (sub * d_layout.scs_hz + r.freq_hz) * t / d_layout.rate_hz;
                    r.time[t] += pss[k] * std::polar(1.0, 2 * M_PI * cycles);
                }
            }
            for (const auto& v : r.time) {
                r.energy += std::norm(v);
            }
            ex.fine.push_back(std::move(r));
        }
        for (size_t h = 0; h < d_hyp.size(); h++) {
            d_replicas.push_back(ex.replica(nid2, static_cast<int>(h), 0));
        }
    }
}

size_t cell_search::history() const
{
    int before = 0;
    for (const auto& pos : sss_positions(d_layout, d_params.standard)) {
        before = std::max(before, -pos.offset);
    }
    return static_cast<size_t>(before);
}

size_t cell_search::neighbourhood() const
{
    // With 5GTF's symbols combined, a sync subframe: the pattern moved by a symbol still
    // holds 13 of its 14.
    return static_cast<size_t>(d_layout.fft_size) +
           static_cast<size_t>(d_params.symbol_offset(d_params.symbols_per_period() - 1));
}

size_t cell_search::lookahead() const
{
    int after = d_layout.fft_size;
    for (const auto& pos : sss_positions(d_layout, d_params.standard)) {
        after = std::max(after, pos.offset + d_layout.fft_size);
    }
    if (d_params.standard == cell_standard::nr) {
        after = 3 * (d_layout.fft_size + d_layout.cp) + d_layout.fft_size; // PBCH symbol 3
    }
    return static_cast<size_t>(after) + d_params.combining_extent();
}


//! The samples around one period's PSS, indexed from its useful start u.
struct cell_search::pss_window {
    const cf* data = nullptr; //!< sample u - before
    size_t before = 0;
    cf at(long long rel) const { return data[static_cast<long long>(before) + rel]; }
};

//! One reading of a PSS candidate: at its own timing and frequency hypotheses, or at a
//! Zadoff-Chu alias of them (the hypotheses moved by `shift` subcarriers, the timing to
//! match), and what the SSS says there.
struct cell_search::reading {
    size_t u = 0;  //!< PSS useful start in the first period
    int shift = 0; //!< subcarriers added to the peak's hypotheses
    //! One per period and symbol (period-major): at u + k * period + drift[k] +
    //! symbol_offset(l).
    std::vector<pss_window> windows;
    double sss_metric = -1;
    size_t best = 0; //!< position * SSS hypotheses + hypothesis
    //! NR / LTE: the best hypothesis's correlation added over the periods, on the SSS
    //! equalized by the PSS's channel: its phase is the CFO left over from the PSS to the SSS.
    cd best_sum = 0;
    double cfo_weighted = 0, weight = 0, signal = 0, energy = 0;
    std::vector<std::vector<cd>> pss_spectra; //!< per window, for the ESS / DM-RS steps
    std::vector<double> cfos;                 //!< per window
    std::vector<cd> pss_means; //!< per window: the PSS's channel summed over its subcarriers
    //! NR / LTE, per window: the PSS's channel on its subcarriers (pss_channel()), for the
    //! SSS and NR's DM-RS
    std::vector<std::vector<cd>> pss_channels;
};

namespace {

class host_row_reader : public cell_search::row_reader
{
public:
    host_row_reader(const cf* x, size_t stride) : d_x(x), d_stride(stride) {}

    void read(const std::vector<cell_search::window_request>& windows,
              size_t count,
              std::vector<cf>& out) override
    {
        out.resize(windows.size() * count);
        cf* dst = out.data();
        for (const auto& w : windows) {
            const cf* src = d_x + static_cast<size_t>(w.channel) * d_stride + w.from;
            dst = std::transform(src, src + count, dst, [](cf v) { return finite_or_zero(v); });
        }
    }

private:
    const cf* d_x;
    size_t d_stride;
};

} // namespace

std::vector<cell_detection> cell_search::search_device(const cf*, size_t, int, size_t, int64_t)
{
    throw std::logic_error("cell_search::search_device: this backend works on host memory");
}

std::unique_ptr<cell_search::row_reader> cell_search::host_rows(const cf* x, size_t stride)
{
    return std::make_unique<host_row_reader>(x, stride);
}

void cell_search::check_channels(int channels) const
{
    const auto& offsets = d_params.channel_offsets_hz;
    if (!offsets.empty() && offsets.size() != static_cast<size_t>(std::max(channels, 0))) {
        throw std::invalid_argument("cell search: channel_offsets_hz has " +
                                    std::to_string(offsets.size()) + " offsets for " +
                                    std::to_string(channels) + " channels");
    }
}

std::vector<std::vector<size_t>> cell_search::same_cell_elsewhere(
    const std::vector<const pss_candidate*>& kept) const
{
    std::vector<std::vector<size_t>> stronger(kept.size());
    if (d_params.symbols_per_period() > 1) {
        // 5GTF's symbols combined: the thresholds are low enough that a strong cell's
        // cross-correlations pass them. The Zadoff-Chu PSS of another N_ID^(2) matches it at
        // up to about a fifth of its metric at some timings and frequencies, and those
        // cross-correlations, unlike noise, do not average out over the symbols; the SSS
        // and ESS read there are its sidelobes. So a peak of another N_ID^(2) in the same
        // channel and sync subframe standing less than ghost_ratio as far above noise is
        // taken for the same cell.
        const size_t apart = neighbourhood();
        for (size_t a = 0; a < kept.size(); a++) {
            for (size_t b = a + 1; b < kept.size(); b++) {
                const auto &pa = *kept[a], &pb = *kept[b];
                const size_t dist = pa.u > pb.u ? pa.u - pb.u : pb.u - pa.u;
                if (pa.channel != pb.channel || dist >= apart) {
                    continue;
                }
                const bool a_first = stronger_candidate(pa, pb);
                const size_t strong = a_first ? a : b, weak = a_first ? b : a;
                if (kept[weak]->metric - 1 < ghost_ratio * (kept[strong]->metric - 1)) {
                    stronger[weak].push_back(strong);
                }
            }
        }
    }
    const auto& offsets = d_params.channel_offsets_hz;
    if (offsets.empty()) {
        return stronger;
    }
    // A cell's PSS moved by less than its own bandwidth still overlaps its replica, and a
    // Zadoff-Chu PSS moved by whole subcarriers matches it up to a symbol away; two cells'
    // carriers are never that close, so such peaks in other channels are the same cell.
    const double bandwidth = d_layout.pss_length * d_layout.scs_hz;
    const size_t symbol = static_cast<size_t>(d_layout.fft_size) + static_cast<size_t>(d_layout.cp);
    std::vector<size_t> by_offset(kept.size());
    for (size_t i = 0; i < kept.size(); i++) {
        by_offset[i] = i;
    }
    const auto offset_of = [&](size_t i) { return offsets[static_cast<size_t>(kept[i]->channel)]; };
    std::sort(by_offset.begin(), by_offset.end(),
              [&](size_t a, size_t b) { return offset_of(a) < offset_of(b); });
    for (size_t i = 0; i < by_offset.size(); i++) {
        const size_t a = by_offset[i];
        for (size_t j = i + 1;
             j < by_offset.size() && offset_of(by_offset[j]) - offset_of(a) < bandwidth; j++) {
            const size_t b = by_offset[j];
            const auto &pa = *kept[a], &pb = *kept[b];
            const size_t apart = pa.u > pb.u ? pa.u - pb.u : pb.u - pa.u;
            if (pa.channel == pb.channel || apart > symbol) {
                continue;
            }
            if (stronger_candidate(pa, pb)) {
                stronger[b].push_back(a);
            } else {
                stronger[a].push_back(b);
            }
        }
    }
    return stronger;
}

std::vector<cell_detection> cell_search::finish(row_reader& rows,
                                                size_t n,
                                                int64_t first_sample,
                                                std::vector<pss_candidate> candidates)
{
    const bool profile = profiling();
    const auto wall0 = std::chrono::steady_clock::now();
    // Strongest first; ties by place, so every backend keeps the same ones.
    std::sort(candidates.begin(), candidates.end(),
              [](const pss_candidate& a, const pss_candidate& b) {
                  if (a.channel != b.channel) {
                      return a.channel < b.channel;
                  }
                  if (a.nid2 != b.nid2) {
                      return a.nid2 < b.nid2;
                  }
                  if (a.metric != b.metric) {
                      return a.metric > b.metric;
                  }
                  return a.u < b.u;
              });
    const size_t apart = neighbourhood();
    std::vector<const pss_candidate*> kept;
    size_t i = 0;
    while (i < candidates.size()) {
        const int channel = candidates[i].channel, nid2 = candidates[i].nid2;
        const size_t first_kept = kept.size();
        for (; i < candidates.size() && candidates[i].channel == channel &&
               candidates[i].nid2 == nid2;
             i++) {
            const auto& pk = candidates[i];
            const bool near =
                std::any_of(kept.begin() + static_cast<ptrdiff_t>(first_kept), kept.end(),
                            [&](const pss_candidate* k) {
                                return (pk.u > k->u ? pk.u - k->u : k->u - pk.u) < apart;
                            });
            if (!near && kept.size() - first_kept < static_cast<size_t>(d_params.max_peaks)) {
                kept.push_back(&pk);
            }
        }
    }

    // The readings of each kept candidate: its own, and for LTE / 5GTF its Zadoff-Chu
    // aliases whose timing is in the span (what lies outside is another call's); one
    // window a period around each, all read at once.
    const pss_span span = pss_search_span(*this, n);
    const bool zadoff_chu = d_params.standard != cell_standard::nr;
    const int periods = d_params.combine_periods, symbols = d_params.symbols_per_period();
    const size_t before = history();
    const size_t after = lookahead() - d_params.combining_extent();
    std::vector<std::vector<reading>> readings(kept.size());
    for (size_t c = 0; c < kept.size(); c++) {
        const auto* pk = kept[c];
        for (int shift : alias_shifts) {
            if (shift != 0 && !zadoff_chu) {
                continue;
            }
            const long long u =
                static_cast<long long>(pk->u) -
                zadoff_chu_alias_timing(lte_pss_root(pk->nid2), shift, d_layout.fft_size);
            if (u < static_cast<long long>(span.lo) || u >= static_cast<long long>(span.hi)) {
                continue;
            }
            reading r;
            r.u = static_cast<size_t>(u);
            r.shift = shift;
            readings[c].push_back(std::move(r));
        }
    }
    // The windows of a wave's readings, all read at once (only the candidates examined).
    const pss_combining combining = make_pss_combining(*this); // the symbols' offsets
    std::vector<cf> samples;
    const auto read_windows = [&](const std::vector<size_t>& wave) {
        std::vector<window_request> requests;
        for (size_t c : wave) {
            for (const auto& r : readings[c]) {
                for (int k = 0; k < periods; k++) {
                    for (int l = 0; l < symbols; l++) {
                        const long long centre = static_cast<long long>(r.u) +
                                                 k * static_cast<long long>(d_period) +
                                                 kept[c]->drift[k] + combining.symbol_offset[l];
                        requests.push_back(
                            { kept[c]->channel, static_cast<size_t>(centre) - before });
                    }
                }
            }
        }
        rows.read(requests, before + after, samples);
        size_t at = 0;
        for (size_t c : wave) {
            for (auto& r : readings[c]) {
                r.windows.resize(static_cast<size_t>(periods) * static_cast<size_t>(symbols));
                for (auto& w : r.windows) {
                    w.data = samples.data() + at;
                    w.before = before;
                    at += before + after;
                }
            }
        }
    };
    if (!d_pool && kept.size() >= 2) {
        d_pool = make_worker_pool(max_finish_threads);
    }
    while (d_examiners.size() < max_slices(d_pool.get())) {
        d_examiners.push_back(d_examiners.empty() ? d_examiner
                                                  : std::make_shared<examiner>(*d_examiner));
    }
    // The readings, then the candidates, are independent: read and examined on the worker
    // threads, each with its own examiner (its FFT plan is scratch), each thread taking the
    // next item (their costs differ), the results kept in candidate order. A few strong
    // cells give a few candidates but three readings each (LTE, 5GTF).
    std::atomic<int64_t> busy_ns{ 0 }; // the threads' CPU time, with GPUOFDM_PROFILE
    const auto each = [&](size_t n_items, const auto& fn) {
        std::atomic<size_t> next{ 0 };
        const size_t threads = std::max<size_t>(1, std::min(max_slices(d_pool.get()), n_items));
        parallel_slices_indexed(d_pool.get(), threads, 1, [&](size_t slice, size_t, size_t) {
            const int64_t cpu0 = profile ? thread_cpu_ns() : 0;
            for (size_t i = next++; i < n_items; i = next++) {
                fn(*d_examiners[slice], i);
            }
            if (profile) {
                busy_ns += thread_cpu_ns() - cpu0;
            }
        });
    };
    size_t waves = 0, examined = 0, read_count = 0;
    double read_ms = 0, examine_ms = 0; // with GPUOFDM_PROFILE
    // Two waves: first the candidates with no stronger one of the same cell heard at a
    // neighbouring raster point or through another N_ID^(2) (same_cell_elsewhere()); then
    // the others, but those whose stronger one was found. A candidate of the second wave
    // counts, strongest first, where none of its stronger ones does: what examining them one
    // at a time in that order would give. Without channel offsets and with one symbol a
    // period this is one wave of every candidate.
    const auto stronger = same_cell_elsewhere(kept);
    // 5GTF's symbols combined: a subframe moved by a few symbols may lie in the span while
    // its symbol 0, where examine() puts it, is the next or the last call's to report.
    const long long first_cp = fivegtf_cp_length(0, d_params.fivegtf_cp) * d_layout.fft_size / 2048;
    const auto in_span = [&](const cell_detection& det) {
        const long long u = det.sample + first_cp;
        return symbols == 1 ||
               (u >= static_cast<long long>(span.lo) && u < static_cast<long long>(span.hi));
    };
    enum : char { undecided, found, not_found };
    std::vector<char> state(kept.size(), undecided);
    std::vector<cell_detection> dets(kept.size());
    const auto heard = [&](size_t c) {
        return std::any_of(stronger[c].begin(), stronger[c].end(),
                           [&](size_t q) { return state[q] == found; });
    };
    const auto examine_wave = [&](const std::vector<size_t>& wave) {
        waves++;
        examined += wave.size();
        const auto read0 = std::chrono::steady_clock::now();
        read_windows(wave);
        const auto examine0 = std::chrono::steady_clock::now();
        if (profile) {
            read_ms += ms_since(read0);
        }
        // One pass over the wave's readings: the thread that reads a candidate's last one
        // examines it (a pass costs the workers' wake-up, which some hosts make slow).
        std::vector<std::pair<size_t, size_t>> items; // (candidate, reading)
        std::vector<std::atomic<size_t>> left(wave.size());
        for (size_t i = 0; i < wave.size(); i++) {
            left[i] = readings[wave[i]].size();
            for (size_t r = 0; r < readings[wave[i]].size(); r++) {
                items.emplace_back(i, r);
            }
            if (readings[wave[i]].empty()) {
                state[wave[i]] = not_found;
            }
        }
        read_count += items.size();
        each(items.size(), [&](examiner& ex, size_t i) {
            const auto [w, r] = items[i];
            const size_t c = wave[w];
            read_sss(ex, *kept[c], readings[c][r]);
            if (--left[w] == 0) {
                dets[c].channel = kept[c]->channel;
                state[c] = examine(ex, readings[c], *kept[c], dets[c]) && in_span(dets[c])
                               ? found
                               : not_found;
            }
        });
        if (profile) {
            examine_ms += ms_since(examine0);
        }
    };
    std::vector<size_t> first, second;
    for (size_t c = 0; c < kept.size(); c++) {
        (stronger[c].empty() ? first : second).push_back(c);
    }
    if (!first.empty()) {
        examine_wave(first);
    }
    std::vector<size_t> rest;
    for (size_t c : second) {
        if (heard(c)) {
            state[c] = not_found;
        } else {
            rest.push_back(c);
        }
    }
    if (!rest.empty()) {
        examine_wave(rest);
        std::sort(rest.begin(), rest.end(),
                  [&](size_t a, size_t b) { return stronger_candidate(*kept[a], *kept[b]); });
        for (size_t c : rest) {
            if (state[c] == found && heard(c)) {
                state[c] = not_found;
            }
        }
    }

    std::vector<cell_detection> out;
    for (size_t c = 0; c < kept.size(); c++) {
        if (state[c] != found) {
            continue;
        }
        cell_detection det = dets[c];
        det.sample += first_sample;
        // A peak and its alias may both lead to the same PSS: report it once (the
        // detections come channel by channel).
        bool seen = false;
        for (auto o = out.rbegin(); o != out.rend() && o->channel == det.channel && !seen; ++o) {
            seen = o->sample == det.sample && o->cell_id == det.cell_id;
        }
        if (!seen) {
            out.push_back(det);
        }
    }
    if (profile) {
        std::fprintf(stderr,
                     "profile cell_search finish(): %zu PSS candidates, %zu kept, %zu examined "
                     "in %zu waves (%zu SSS readings), %zu found; %.3f ms (windows read %.3f, "
                     "readings and examination %.3f, the rest %.3f), thread CPU %.3f ms "
                     "on up to %zu threads\n",
                     candidates.size(), kept.size(), examined, waves, read_count, out.size(),
                     ms_since(wall0), read_ms, examine_ms, ms_since(wall0) - read_ms - examine_ms,
                     static_cast<double>(busy_ns.load()) * 1e-6, max_slices(d_pool.get()));
    }
    return out;
}

// The N-point spectrum of the symbol whose useful part starts at \p start, derotated by
// \p cfo Hz with the phase reference at the PSS's useful start.
std::vector<cd> cell_search::examiner::symbol_spectrum(const pss_window& w,
                                                       long long start,
                                                       double cfo)
{
    const int n = layout.fft_size;
    // The rotation sample by sample, one product each (in double: the error after a
    // symbol is of the order of 1e-14, far below the samples' float precision).
    const double cycles = -cfo * static_cast<double>(start) / layout.rate_hz;
    cd rot = std::polar(1.0, 2 * M_PI * (cycles - std::floor(cycles)));
    const cd step = std::polar(1.0, -2 * M_PI * cfo / layout.rate_hz);
    for (int t = 0; t < n; t++) {
        symbol_fwd.input()[t] = cfloat(cd(w.at(start + t)) * rot);
        rot *= step;
    }
    symbol_fwd.execute();
    return std::vector<cd>(symbol_fwd.output(), symbol_fwd.output() + n);
}

std::vector<cd> cell_search::examiner::pss_channel(const std::vector<cd>& raw)
{
    const int n = layout.fft_size, cp = layout.cp;
    std::fill_n(tap_inv.input(), n, cfloat(0));
    for (size_t e = 0; e < raw.size(); e++) {
        tap_inv.input()[layout.pss_bins[e]] = cfloat(raw[e]);
    }
    tap_inv.execute();
    const cfloat* taps = tap_inv.output();
    double noise = 0;
    int far = 0;
    for (int d = cp + far_tap_guard; d <= n - cp - far_tap_guard; d++, far++) {
        noise += power(cd(taps[d]));
    }
    noise /= std::max(far, 1);
    std::fill_n(tap_fwd.input(), n, cfloat(0));
    for (int d = -cp; d <= cp; d++) {
        const cfloat tap = taps[wrap_bin(d, n)];
        const double p = power(cd(tap));
        const double keep = p > 0 ? std::max(0.0, 1 - tap_shrink * noise / p) : 0.0;
        tap_fwd.input()[wrap_bin(d, n)] = tap * static_cast<float>(keep);
    }
    tap_fwd.execute();
    std::vector<cd> h(raw.size());
    for (size_t e = 0; e < raw.size(); e++) {
        h[e] = cd(tap_fwd.output()[layout.pss_bins[e]]) / tap_edge[e];
    }
    return h;
}

// The fine CFO, the channel and the SSS of every hypothesis at every position, combined over
// the periods, at one reading of a candidate. NR's and LTE's SSS is equalized by the channel
// its own period's PSS measured on the same subcarriers, so a cell's SSS correlation has the
// same phase in every period (up to the rotation of a CFO error from the PSS to the SSS, the
// same in every period once the periods' fine CFO estimates are pooled): the periods'
// correlations are added as complex numbers, each over the root of its period's equalized
// power. In noise each term then has unit variance whatever the channel estimate (which is
// near zero in some periods of noise and not in others), and |sum|^2 / K is nearly a unit
// exponential for any K (coherent_sss_threshold()); against the mean of the periods'
// |correlation|^2 this finds more cells (docs/CELLSEARCH.md). 5GTF's SSS lies away from the
// PSS, where the PSS's mean channel misses the phase a fractional timing puts across the
// subcarriers, which differs from period to period: its periods are added in power, each
// over its equalized power (a unit exponential's mean: combined_threshold()). With 5GTF's
// symbols combined a period's symbols (0.2 ms) share its fine CFO, and its SSS is their
// weighted sum read on the CP's delays (delay_atoms()), whose law is beta_sum_tail's.
void cell_search::read_sss(examiner& ex, const pss_candidate& pk, reading& r)
{
    const int n = d_layout.fft_size;
    const auto positions = sss_positions(d_layout, d_params.standard);
    const auto& pss = ex.pss[pk.nid2];
    const auto& sss = ex.sss[pk.nid2];
    const bool nr = d_params.standard == cell_standard::nr;
    const bool fivegtf = d_params.standard == cell_standard::fivegtf;
    const size_t symbols = static_cast<size_t>(d_params.symbols_per_period());

    // 5GTF's symbols combined: a period's SSS summed over its symbols, each weighted by its
    // PSS's channel (delay_atoms()).
    const bool subspace = fivegtf && symbols > 1;
    const bool coherent = !fivegtf;
    const size_t periods = pk.hyp.size();
    const size_t hyps = sss.hypotheses();
    std::vector<double> sss_power(coherent ? 0 : positions.size() * hyps, 0.0);
    std::vector<cd> sss_sum(coherent ? positions.size() * hyps : 0, cd(0));
    std::vector<int> sss_added(positions.size(), 0); // periods in sss_sum, per position
    const int atoms = delay_atoms(d_layout);
    std::vector<std::vector<cd>> period_sss;
    ex.sss_z.resize(sss.length());
    ex.sss_sums.resize(hyps);
    // Every hypothesis's correlation with ex.sss_z, over the root of norm (in power: over
    // norm), added to position p's.
    const auto add_correlations = [&](size_t p, size_t k, double norm) {
        sss.correlate(ex.sss_z.data(), ex.sss_sums.data());
        sss_added[p]++;
        const double scale = 1 / std::sqrt(norm);
        for (size_t hyp = 0; hyp < hyps; hyp++) {
            // LTE / 5GTF: a period later the other half frame's SSS is sent.
            const size_t h_k = nr || k % 2 == 0 ? hyp : (hyp ^ 1u);
            if (coherent) {
                sss_sum[p * hyps + hyp] += ex.sss_sums[h_k] * scale;
            } else {
                sss_power[p * hyps + hyp] += power(ex.sss_sums[h_k]) / norm;
            }
        }
    };
    // Fine CFO, period by period: the phase between the two halves of the correlation,
    // repeated on the samples derotated by the estimate so far (the PSS's uneven envelope
    // biases one pass in proportion to the offset left).
    std::vector<double> period_cfo(periods);
    std::vector<double> corr(periods * symbols, 0.0);
    double cfo_sum = 0, corr_sum = 0;
    for (size_t k = 0; k < periods; k++) {
        const pss_window* windows = r.windows.data() + k * symbols;
        const auto& rep = ex.replica(pk.nid2, pk.hyp[k], r.shift);
        double cfo = rep.freq_hz;
        for (int pass = 0; pass < 3; pass++) {
            cd cross = 0;
            const cd step = std::polar(1.0, -2 * M_PI * (cfo - rep.freq_hz) / d_layout.rate_hz);
            for (size_t l = 0; l < symbols; l++) {
                cd c1 = 0, c2 = 0;
                cd rot = 1;
                for (int t = 0; t < n; t++) {
                    const cd v = cd(windows[l].at(t)) * std::conj(rep.time[t]) * rot;
                    (t < n / 2 ? c1 : c2) += v;
                    rot *= step;
                }
                cross += c2 * std::conj(c1);
                corr[k * symbols + l] = power(c1 + c2);
            }
            cfo += std::arg(cross) * d_layout.rate_hz / (M_PI * n);
        }
        period_cfo[k] = cfo;
        for (size_t l = 0; l < symbols; l++) {
            cfo_sum += cfo * corr[k * symbols + l];
            corr_sum += corr[k * symbols + l];
        }
    }
    // The periods' SSS added coherently want one derotation: the estimates pooled, weighted
    // by their PSS's energy.
    const double pooled_cfo =
        coherent && periods > 1 && corr_sum > 0 ? cfo_sum / corr_sum : period_cfo[0];
    for (size_t k = 0; k < periods; k++) {
        if (subspace) {
            period_sss.assign(positions.size(), std::vector<cd>(sss.length(), cd(0)));
        }
        const pss_window* windows = r.windows.data() + k * symbols;
        const double cfo = coherent ? pooled_cfo : period_cfo[k];
        const double replica_energy = ex.replica(pk.nid2, pk.hyp[k], r.shift).energy;
        for (size_t l = 0; l < symbols; l++) {
            const pss_window& w = windows[l];
            // The PSS's energy in the window, from the correlation with the CFO taken out (a
            // fractional timing offset costs up to 0.9 dB here).
            const double c = corr[k * symbols + l];
            r.signal += c / replica_energy;
            r.cfo_weighted += cfo * c;
            r.weight += c;
            for (int t = 0; t < n; t++) {
                r.energy += power(cd(w.at(t)));
            }
            r.cfos.push_back(cfo);

            // The channel on the PSS subcarriers, then every SSS hypothesis at every position.
            const auto yp = ex.symbol_spectrum(w, 0, cfo);
            std::vector<cd> raw(pss.size());
            cd mean_h = 0;
            for (size_t e = 0; e < pss.size(); e++) {
                raw[e] = yp[d_layout.pss_bins[e]] * std::conj(pss[e]);
                mean_h += raw[e];
            }
            r.pss_channels.push_back(fivegtf ? std::vector<cd>() : ex.pss_channel(raw));
            const std::vector<cd>& h = r.pss_channels.back();
            r.pss_spectra.push_back(yp);
            r.pss_means.push_back(mean_h);
            for (size_t p = 0; p < positions.size(); p++) {
                const auto ys = ex.symbol_spectrum(w, positions[p].offset, cfo);
                if (subspace) {
                    for (size_t e = 0; e < sss.length(); e++) {
                        period_sss[p][e] += ys[d_layout.sss_bins[e]] * std::conj(mean_h);
                    }
                    continue;
                }
                double norm = 0;
                for (size_t e = 0; e < ex.sss_z.size(); e++) {
                    // 5GTF's SSS has no PSS subcarriers under it: the PSS's mean channel there.
                    ex.sss_z[e] = ys[d_layout.sss_bins[e]] * std::conj(fivegtf ? mean_h : h[e]);
                    norm += power(ex.sss_z[e]);
                }
                if (norm <= 0) {
                    continue; // no channel kept: this window says nothing
                }
                add_correlations(p, k, norm);
            }
        }
        if (subspace) {
            for (size_t p = 0; p < positions.size(); p++) {
                const auto& y = period_sss[p];
                const double norm = energy_of(y);
                if (norm <= 0) {
                    continue;
                }
                for (int a = -atoms; a <= atoms; a++) {
                    delay_atom(y, a, ex.sss_z);
                    add_correlations(p, k, norm);
                }
            }
        }
    }

    // Coherent: over the periods added. A period whose channel estimate kept nothing (in
    // noise, now and then) says nothing, and leaving it out of the count keeps the law in
    // noise one period's.
    const double power_terms = static_cast<double>(periods) * (subspace ? 2 * atoms + 1 : 1);
    for (size_t i = 0; i < positions.size() * hyps; i++) {
        const int added = sss_added[i / hyps];
        if (coherent && added == 0) {
            continue;
        }
        const double m = coherent ? power(sss_sum[i]) / added : sss_power[i] / power_terms;
        if (m > r.sss_metric) {
            r.sss_metric = m;
            r.best = i;
            r.best_sum = coherent ? sss_sum[i] : cd(0);
        }
    }
}

// NR: the PBCH DM-RS of symbols 1..3 (38.211 7.4.1.4.1), on k = 4 m + (cell_id mod 4) of
// the SSB's 240 subcarriers, for each ibar 0..7 of c_init. NR's upconversion (38.211 5.4)
// turns each symbol by a phase of the carrier frequency, unknown here, so each symbol is
// summed apart and taken in power. Under the PSS (k 56..182) the DM-RS is equalized by the
// PSS's channel (pss_channel()); outside it the PSS measured none, and two readings are
// made:
// - flat: the outer REs equalized by the channel at the PSS's nearest edge, each symbol's
//   DM-RS one sum (3 terms a period): the most signal where the channel is flat over the
//   SSB (AWGN);
// - local: the outer REs in sums of dmrs_group neighbours, unequalized (24 terms a period):
//   what a channel that turns across the SSB (multipath) leaves.
// Each term is |sum|^2 over its equalized power (the outer groups': over their REs times
// the symbol's mean power outside the PSS), about a unit exponential in noise. The reading
// more unlikely in noise counts, at twice its probability, and the best ibar at 8 times its
// own (union bounds).
struct cell_search::dmrs_reading {
    double log_p = 0; //!< log P(noise's best ibar is as unlikely), union bound
    uint32_t ibar = 0;
    //! -log_p clipped at 0: the level a unit exponential passes as rarely (mean ~1 in noise).
    double metric() const { return std::max(0.0, -log_p); }
    bool confirms() const { return log_p <= std::log(dmrs_false_confirm); }
};

cell_search::dmrs_reading cell_search::read_dmrs(examiner& ex, const reading& r, int cell_id)
{
    const int n = d_layout.fft_size;
    const int first_pss_k = 56, last_pss_k = first_pss_k + nr_sync_length - 1;
    constexpr int edge_width = 8; // PSS subcarriers averaged for the channel at an edge
    const int v = cell_id % 4;
    const auto bin = [n](int k) { return static_cast<size_t>((k - 120 + n) % n); };
    const auto under_pss = [&](int s, int k) {
        return s != 2 && k >= first_pss_k && k <= last_pss_k;
    };
    const auto under_sss = [](int s, int k) { return s == 2 && k >= 48 && k < 192; };
    // Per window: the channel at the PSS's edges (read_sss() measured it under the PSS); per
    // window and symbol: the spectrum and the mean power outside the PSS (and the SSS).
    struct channel_edges {
        cd low = 0, high = 0;
    };
    std::vector<channel_edges> edges;
    std::vector<std::vector<cd>> spectra;
    std::vector<double> outer_power;
    for (size_t k = 0; k < r.windows.size(); k++) {
        const auto& h = r.pss_channels[k];
        channel_edges c;
        for (int e = 0; e < edge_width; e++) {
            c.low += h[static_cast<size_t>(e)] / static_cast<double>(edge_width);
            c.high += h[h.size() - 1 - static_cast<size_t>(e)] / static_cast<double>(edge_width);
        }
        edges.push_back(c);
        for (int s = 1; s <= 3; s++) {
            spectra.push_back(ex.symbol_spectrum(r.windows[k], s * (n + d_layout.cp), r.cfos[k]));
            double sum = 0;
            int count = 0;
            for (int kk = 0; kk < 240; kk++) {
                if (!under_pss(s, kk) && !under_sss(s, kk)) {
                    sum += power(spectra.back()[bin(kk)]);
                    count++;
                }
            }
            outer_power.push_back(count > 0 ? sum / count : 0);
        }
    }
    dmrs_reading best;
    for (uint32_t ibar = 0; ibar < 8; ibar++) {
        const auto c =
            gold_sequence((1u << 11) * (ibar + 1) * (static_cast<uint32_t>(cell_id) / 4 + 1) +
                              (1u << 6) * (ibar + 1) + static_cast<uint32_t>(cell_id) % 4,
                          2 * nr_dmrs_per_ssb);
        double flat_sum = 0, local_sum = 0;
        int flat_terms = 0, local_terms = 0;
        const auto add = [](double& sum, int& terms, cd x, double norm) {
            if (norm > 0) {
                sum += power(x) / norm;
                terms++;
            }
        };
        for (size_t k = 0; k < r.windows.size(); k++) {
            const auto& h = r.pss_channels[k];
            const auto& edge = edges[k];
            int m = 0;
            for (int s = 1; s <= 3; s++) {
                const auto& y = spectra[k * 3 + static_cast<size_t>(s) - 1];
                const double op = outer_power[k * 3 + static_cast<size_t>(s) - 1];
                cd under = 0, flat = 0, group = 0;
                double under_norm = 0, flat_norm = 0;
                int in_group = 0;
                const auto close_group = [&] {
                    if (in_group > 0) {
                        add(local_sum, local_terms, group, in_group * op);
                    }
                    group = 0;
                    in_group = 0;
                };
                for (int kk = v; kk < 240; kk += 4) {
                    if (under_sss(s, kk)) {
                        continue;
                    }
                    const cd ref((1 - 2 * c[2 * m]) * M_SQRT1_2,
                                 (1 - 2 * c[2 * m + 1]) * M_SQRT1_2);
                    m++;
                    const cd yk = y[bin(kk)];
                    if (under_pss(s, kk)) {
                        close_group(); // the REs below the PSS end their last group
                        const cd z = yk * std::conj(h[static_cast<size_t>(kk - first_pss_k)]);
                        under += z * std::conj(ref);
                        under_norm += power(z);
                        continue;
                    }
                    const cd z = yk * std::conj(kk < first_pss_k ? edge.low : edge.high);
                    flat += z * std::conj(ref);
                    flat_norm += power(z);
                    group += yk * std::conj(ref);
                    if (++in_group == dmrs_group) {
                        close_group();
                    }
                }
                close_group();
                add(flat_sum, flat_terms, under + flat, under_norm + flat_norm);
                add(local_sum, local_terms, under, under_norm);
            }
        }
        const auto log_tail = [](double sum, int terms) {
            return terms > 0 ? log_mean_exponential_tail(terms, sum / terms) : 0.0;
        };
        const double log_p =
            std::min(log_tail(flat_sum, flat_terms), log_tail(local_sum, local_terms)) +
            std::log(2.0);
        if (ibar == 0 || log_p < best.log_p) {
            best.log_p = log_p;
            best.ibar = ibar;
        }
    }
    best.log_p = std::min(0.0, best.log_p + std::log(8.0));
    return best;
}

bool cell_search::examine(examiner& ex,
                          const std::vector<reading>& readings,
                          const pss_candidate& pk,
                          cell_detection& det)
{
    const int n = d_layout.fft_size;
    const auto positions = sss_positions(d_layout, d_params.standard);
    const auto& sss = ex.sss[pk.nid2];
    const size_t symbols = static_cast<size_t>(d_params.symbols_per_period());
    const bool nr = d_params.standard == cell_standard::nr;
    const bool fivegtf = d_params.standard == cell_standard::fivegtf;

    // The reading whose SSS is strongest (the candidate's own where equal); finish() has
    // read them all (read_sss()).
    const reading* chosen = nullptr;
    for (const auto& r : readings) {
        if (!chosen || r.sss_metric > chosen->sss_metric) {
            chosen = &r;
        }
    }
    // The first step the PSS passes sets the SSS's level (a candidate passes the last one).
    const auto step = std::find_if(d_metric_steps.begin(), d_metric_steps.end() - 1,
                                   [&](const metric_step& m) { return pk.metric >= m.pss; });
    if (!chosen) {
        return false;
    }
    const reading& r = *chosen;
    const size_t best = r.best;
    // NR: an SSS up to dmrs_sss_relief under its level passes where its cell's PBCH DM-RS
    // confirms it (dmrs_reading::confirms()); one at its level needs a DM-RS of dmrs_floor.
    dmrs_reading dmrs;
    if (nr && r.sss_metric >= step->sss - dmrs_sss_relief) {
        dmrs = read_dmrs(ex, r, 3 * static_cast<int>(best % sss.hypotheses()) + pk.nid2);
    }
    const bool passes =
        nr ? (r.sss_metric >= step->sss && dmrs.metric() >= dmrs_floor) || dmrs.confirms()
           : r.sss_metric >= step->sss;
    if (!passes) {
        return false;
    }
    const double best_metric = r.sss_metric;
    const auto& pss_spectra = r.pss_spectra;
    const auto& windows = r.windows;
    const double cfo_weighted = r.cfo_weighted, weight = r.weight, signal = r.signal,
                 energy = r.energy;
    const auto& pos = positions[best / sss.hypotheses()];
    const int hyp = static_cast<int>(best % sss.hypotheses());
    det.nid2 = pk.nid2;
    det.nid1 = nr ? hyp : hyp / 2;
    det.cell_id = 3 * det.nid1 + det.nid2;
    det.cfo_hz = weight > 0 ? cfo_weighted / weight : 0;
    // LTE: the PSS's halves measure the CFO over half a symbol; the SSS, equalized by the
    // PSS's channel, turns by 2 pi cfo_left offset / rate from the PSS (1 symbol before it,
    // 3 with TDD): a baseline 2 to 6 times as long, and the SSS's energy besides. What is
    // left is within +-rate / (2 |offset|) (+-7 kHz with normal CP: over 4 standard
    // deviations of the halves' error at -6 dB). Not NR: its upconversion (38.211 5.4) turns
    // each symbol by a phase of the carrier frequency, unknown here; nor 5GTF, whose SSS
    // shares the PSS's symbol.
    if (d_params.standard == cell_standard::lte && r.best_sum != cd(0)) {
        det.cfo_hz += std::arg(r.best_sum) * d_layout.rate_hz / (2 * M_PI * pos.offset);
    }
    det.pss_metric = static_cast<double>(pk.metric);
    det.sss_metric = best_metric;
    const double in_window = std::max(energy - signal, 1e-30);
    const double band = static_cast<double>(d_layout.pss_length) / n;
    det.snr_db = 10 * std::log10(std::max(signal, 1e-30) / (in_window * band));
    det.power_db =
        10 * std::log10(std::max(signal, 1e-30) / (n * static_cast<double>(windows.size())));
    int pss_cp = pos.pss_cp;
    long long u = static_cast<long long>(r.u); // the PSS's useful start, as reported

    if (d_params.standard == cell_standard::lte) {
        const bool second = hyp % 2 == 1;
        det.extended_cp = pos.extended_cp;
        det.tdd = pos.tdd;
        det.subframe = (second ? 5 : 0) + (pos.tdd ? 1 : 0);
    } else if (fivegtf) {
        const auto half = hyp % 2 == 1 ? sss_half::second : sss_half::first;
        det.subframe = half == sss_half::second ? 25 : 0;
        const auto other = half == sss_half::first ? sss_half::second : sss_half::first;
        // The 14 symbols' ESS of each half (the periods alternate between them). Hypothesis
        // l: the first window is symbol l, window w symbol l + w % symbols of period w /
        // symbols. The one most unlikely in noise is taken.
        const std::array<decltype(fivegtf_ess_symbols(0, half, d_params.fivegtf_ess)), 2> ess_of{
            fivegtf_ess_symbols(det.cell_id, half, d_params.fivegtf_ess),
            fivegtf_ess_symbols(det.cell_id, other, d_params.fivegtf_ess)
        };
        double best_log_p = 1;
        int first_symbol = 0;
        const auto consider = [&](int l, double log_p) {
            if (log_p < best_log_p) {
                best_log_p = log_p;
                first_symbol = l;
            }
        };
        if (symbols > 1) {
            // Combined: the strongest pattern may be the subframe moved by a few symbols (it
            // still holds most of them), so l runs from -13 over the windows on the
            // subframe's symbols. Per period, their ESS subcarriers times the conjugate ESS,
            // each weighted by its PSS's channel (computed once here) and summed, read on
            // the CP's delays as the SSS is; the law of the sum over the periods with a
            // window on the subframe is d_ess_tail's.
            std::vector<cd> weighted_ess(windows.size() * fivegtf_ess_length);
            for (size_t k = 0; k < windows.size(); k++) {
                const cd weight = std::conj(r.pss_means[k]);
                for (int e = 0; e < fivegtf_ess_length; e++) {
                    weighted_ess[k * fivegtf_ess_length + static_cast<size_t>(e)] =
                        pss_spectra[k][d_layout.ess_bins[e]] * weight;
                }
            }
            const int atoms = delay_atoms(d_layout);
            std::vector<cd> sum(fivegtf_ess_length);
            for (int l = 1 - static_cast<int>(symbols); l < fivegtf_symbols; l++) {
                double score = 0;
                int terms = 0;
                for (size_t k0 = 0; k0 < windows.size(); k0 += symbols) {
                    std::fill(sum.begin(), sum.end(), cd(0));
                    bool on = false;
                    for (size_t k = k0; k < k0 + symbols; k++) {
                        const int symbol = l + static_cast<int>(k % symbols);
                        if (symbol < 0 || symbol >= fivegtf_symbols) {
                            continue;
                        }
                        const auto& ess = ess_of[(k / symbols) % 2][static_cast<size_t>(symbol)];
                        const cd* y = weighted_ess.data() + k * fivegtf_ess_length;
                        for (int e = 0; e < fivegtf_ess_length; e++) {
                            sum[static_cast<size_t>(e)] += y[e] * std::conj(cd(ess[e]));
                        }
                        on = true;
                    }
                    if (on) {
                        score += delay_subspace_metric(sum, atoms) / fivegtf_ess_length;
                        terms++;
                    }
                }
                consider(l, terms > 0 ? d_ess_tail->log_tail(terms, score) : 0);
            }
        } else {
            // One symbol a window (window k: period k): each hypothesis's correlations over
            // the windows' energy on the ESS's subcarriers (1 in noise).
            double energy = 0;
            for (size_t k = 0; k < windows.size(); k++) {
                double in_window = 0;
                for (int e = 0; e < fivegtf_ess_length; e++) {
                    in_window += power(pss_spectra[k][d_layout.ess_bins[e]]);
                }
                energy += in_window;
            }
            for (int l = 0; l < fivegtf_symbols; l++) {
                double score = 0;
                for (size_t k = 0; k < windows.size(); k++) {
                    const auto& ess = ess_of[k % 2][static_cast<size_t>(l)];
                    cd sum = 0;
                    for (int e = 0; e < fivegtf_ess_length; e++) {
                        sum += pss_spectra[k][d_layout.ess_bins[e]] * std::conj(cd(ess[e]));
                    }
                    score += power(sum);
                }
                consider(l, energy > 0 ? -score / energy : 0);
            }
        }
        // With the symbols combined the PSS and SSS thresholds are low enough that a strong
        // cell's cross-correlations with another N_ID^(2)'s PSS and SSS pass them: another ID
        // beside the strong cell, whose ESS is noise-like. Its ESS must stand out too.
        if (symbols > 1 &&
            best_log_p > std::log(ess_false_confirm / (fivegtf_symbols + symbols - 1))) {
            return false;
        }
        // Combined: reported at the subframe's symbol 0, where the ESS puts it.
        det.symbol = symbols > 1 ? 0 : first_symbol;
        if (symbols > 1) {
            u += first_symbol < 0 ? d_params.symbol_offset(-first_symbol)
                                  : -d_params.symbol_offset(first_symbol);
        }
        pss_cp = fivegtf_cp_length(det.symbol, d_params.fivegtf_cp) * n / 2048;
    } else {
        det.dmrs_metric = dmrs.metric();
        det.ssb_index = static_cast<int>(d_params.ssb_lmax == 4 ? dmrs.ibar % 4 : dmrs.ibar);
        det.half_frame = d_params.ssb_lmax == 4 ? static_cast<int>(dmrs.ibar / 4) : -1;
    }
    det.sample = u - pss_cp;
    return true;
}

std::unique_ptr<cell_search> make_cell_search(const cell_search_params& params,
                                              const device_spec& dev)
{
    params.validate();
    if (!dev.is_cuda()) {
        return make_cell_search_cpu(params);
    }
#ifdef GPUOFDM_HAVE_CUDA
    return make_cell_search_cuda(params, dev);
#else
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
