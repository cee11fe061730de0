/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The CPU twin of the cell search (see cell_search.h for the steps).

#include "runtime/fftw_plan.h"
#include "sync/cell_search.h"
#include "sync/cell_search_common.h"

#include <algorithm>
#include <cmath>

namespace gr::gpuofdm::core {

namespace {

using cf = std::complex<float>;
using cd = std::complex<double>;

constexpr int nr_dmrs_per_ssb = 144; // 38.211 7.4.1.4: 60 + 24 + 60 DM-RS REs
constexpr int dmrs_group = 4;        // DM-RS REs summed coherently before |.|^2
// The PSS's channel estimate is averaged over this many neighbouring subcarriers before it
// equalizes the SSS: per subcarrier it is too noisy at low SNR, and a multipath channel's
// phase still changes little over 12 subcarriers.
constexpr int channel_smoothing = 12;

// The tail of the mean of k unit exponentials, P(mean > t): the metrics' law in noise.
double mean_exponential_tail(int k, double t)
{
    const double x = k * t;
    double term = 1, sum = 1;
    for (int i = 1; i < k; i++) {
        term *= x / i;
        sum += term;
    }
    return std::exp(-x) * sum;
}

// The threshold on a mean of k metrics that noise passes as rarely as it passes
// \p single on one.
double combined_threshold(double single, int k)
{
    const double target = std::exp(-single);
    double lo = 0, hi = single;
    for (int i = 0; i < 100; i++) {
        const double mid = (lo + hi) / 2;
        (mean_exponential_tail(k, mid) > target ? lo : hi) = mid;
    }
    return hi;
}

class cell_search_cpu : public cell_search
{
public:
    explicit cell_search_cpu(const cell_search_params& params);

    std::vector<cell_detection> search(
        const cf* x, size_t stride, int channels, size_t n, int64_t first_sample) override;

private:
    struct replica {
        int nid2 = 0;
        double freq_hz = 0;
        std::vector<cd> time;     // the PSS symbol's useful part, shifted by freq_hz
        std::vector<cf> spectrum; // conj(FFT_P(time zero-padded))
        double energy = 0;
    };
    struct peak {
        int nid2;
        size_t u;      // PSS useful start in the row
        double metric; // combined PSS metric
    };

    void search_row(const std::vector<cf>& row,
                    int channel,
                    int64_t first_sample,
                    std::vector<cell_detection>& out);
    std::vector<cd> symbol_spectrum(const std::vector<cf>& row, long long start, double cfo);
    bool examine(const std::vector<cf>& row,
                 const peak& pk,
                 const std::vector<int>& best_hyp,
                 cell_detection& det);

    std::vector<double> d_hyp;
    std::vector<replica> d_replicas;                    // nid2-major, then hypothesis
    std::vector<std::vector<cd>> d_pss;                 // [nid2][element]
    std::vector<std::vector<std::vector<float>>> d_sss; // [nid2][hypothesis][element]
    size_t d_block;
    size_t d_period;
    double d_pss_threshold; // for the mean over combine_periods
    double d_sss_threshold;
    fftw_plan_1d d_block_fwd, d_block_inv, d_symbol_fwd;
};

cell_search_cpu::cell_search_cpu(const cell_search_params& params)
    : cell_search(params), d_hyp(params.cfo_hypotheses()),
      d_block(8 * static_cast<size_t>(d_layout.fft_size)), d_period(params.period_samples()),
      d_pss_threshold(combined_threshold(params.pss_threshold, params.combine_periods)),
      d_sss_threshold(combined_threshold(params.sss_threshold, params.combine_periods)),
      d_block_fwd(d_block, true), d_block_inv(d_block, false), d_symbol_fwd(d_layout.fft_size, true)
{
    const int n = d_layout.fft_size;
    for (int nid2 = 0; nid2 < nid2_count; nid2++) {
        std::vector<cd> pss;
        if (d_params.standard == cell_standard::nr) {
            for (float v : nr_pss(nid2)) {
                pss.emplace_back(v);
            }
        } else {
            for (cf v : lte_pss(nid2)) {
                pss.emplace_back(v);
            }
        }
        d_pss.push_back(pss);
        // The SSS hypotheses: NR N_ID^(1) 0..335; LTE / 5GTF (N_ID^(1), half) as
        // 2 * nid1 + half, half 1 = subframe 5 / 25.
        std::vector<std::vector<float>> sss;
        if (d_params.standard == cell_standard::nr) {
            for (int nid1 = 0; nid1 < nr_nid1_count; nid1++) {
                const auto s = nr_sss(nid1, nid2);
                sss.emplace_back(s.begin(), s.end());
            }
        } else {
            for (int nid1 = 0; nid1 < lte_nid1_count; nid1++) {
                for (auto half : { sss_half::first, sss_half::second }) {
                    const auto s = lte_sss(nid1, nid2, half);
                    sss.emplace_back(s.begin(), s.end());
                }
            }
        }
        d_sss.push_back(std::move(sss));

        for (double f : d_hyp) {
            replica r;
            r.nid2 = nid2;
            r.freq_hz = f;
            r.time.assign(n, 0.0);
            for (size_t k = 0; k < pss.size(); k++) {
                const int bin = d_layout.pss_bins[k];
                const double sub = bin < n / 2 ? bin : bin - n; // signed subcarrier
                for (int t = 0; t < n; t++) {
                    const double cycles = (sub * d_layout.scs_hz + f) * t / d_layout.rate_hz;
                    r.time[t] += pss[k] * std::polar(1.0, 2 * M_PI * cycles);
                }
            }
            for (const auto& v : r.time) {
                r.energy += std::norm(v);
            }
            std::fill(d_block_fwd.input(), d_block_fwd.input() + d_block, cfloat(0, 0));
            for (int t = 0; t < n; t++) {
                d_block_fwd.input()[t] = cfloat(r.time[t]);
            }
            d_block_fwd.execute();
            r.spectrum.resize(d_block);
            for (size_t b = 0; b < d_block; b++) {
                r.spectrum[b] = std::conj(d_block_fwd.output()[b]);
            }
            d_replicas.push_back(std::move(r));
        }
    }
}

std::vector<cell_detection> cell_search_cpu::search(
    const cf* x, size_t stride, int channels, size_t n, int64_t first_sample)
{
    std::vector<cell_detection> out;
    std::vector<cf> row(n);
    for (int c = 0; c < channels; c++) {
        const cf* src = x + static_cast<size_t>(c) * stride;
        for (size_t i = 0; i < n; i++) {
            // Samples that are not finite (a dropped buffer, a broken file) count as silence.
            const bool ok = std::isfinite(src[i].real()) && std::isfinite(src[i].imag());
            row[i] = ok ? src[i] : cf(0, 0);
        }
        search_row(row, c, first_sample, out);
    }
    return out;
}

void cell_search_cpu::search_row(const std::vector<cf>& row,
                                 int channel,
                                 int64_t first_sample,
                                 std::vector<cell_detection>& out)
{
    const size_t n = row.size();
    const size_t fft = d_layout.fft_size;
    const size_t lo = history(), look = lookahead();
    if (n < lo + look + 1) {
        return;
    }
    const size_t hi = n - look; // PSS timings lo .. hi - 1
    const size_t k_periods = d_params.combine_periods;
    const size_t corr_hi = hi + (k_periods - 1) * d_period;
    const size_t span = corr_hi - lo;

    // Window energy by prefix sums.
    std::vector<double> prefix(n + 1, 0.0);
    for (size_t i = 0; i < n; i++) {
        prefix[i + 1] = prefix[i] + std::norm(cd(row[i]));
    }

    // PSS metric of every timing, best over the frequency hypotheses, per N_ID^(2).
    const size_t hyps = d_hyp.size();
    std::vector<std::vector<float>> metric(nid2_count, std::vector<float>(span, 0.0f));
    std::vector<std::vector<int>> best_hyp(nid2_count, std::vector<int>(span, 0));
    const size_t hop = d_block - fft + 1;
    std::vector<cf> spectrum(d_block);
    for (size_t s = lo; s < corr_hi; s += hop) {
        for (size_t i = 0; i < d_block; i++) {
            d_block_fwd.input()[i] = s + i < n ? row[s + i] : cf(0, 0);
        }
        d_block_fwd.execute();
        std::copy(d_block_fwd.output(), d_block_fwd.output() + d_block, spectrum.begin());
        for (size_t r = 0; r < d_replicas.size(); r++) {
            const auto& rep = d_replicas[r];
            for (size_t b = 0; b < d_block; b++) {
                d_block_inv.input()[b] = spectrum[b] * rep.spectrum[b];
            }
            d_block_inv.execute();
            const cf* c = d_block_inv.output();
            for (size_t j = 0; j < hop && s + j < corr_hi; j++) {
                const size_t u = s + j;
                const double energy = prefix[u + fft] - prefix[u];
                if (energy <= 0) {
                    continue;
                }
                const double corr = std::norm(cd(c[j]) / static_cast<double>(d_block));
                const auto m = static_cast<float>(fft * corr / (rep.energy * energy));
                auto& slot = metric[rep.nid2][u - lo];
                if (m > slot) {
                    slot = m;
                    best_hyp[rep.nid2][u - lo] = static_cast<int>(r % hyps);
                }
            }
        }
    }

    // Combined over periods, then the strongest peaks per N_ID^(2), one per neighbourhood.
    for (int nid2 = 0; nid2 < nid2_count; nid2++) {
        std::vector<peak> candidates;
        for (size_t u = lo; u < hi; u++) {
            double sum = 0;
            for (size_t k = 0; k < k_periods; k++) {
                sum += metric[nid2][u - lo + k * d_period];
            }
            const double m = sum / static_cast<double>(k_periods);
            if (m >= d_pss_threshold) {
                candidates.push_back({ nid2, u, m });
            }
        }
        std::sort(candidates.begin(), candidates.end(),
                  [](const peak& a, const peak& b) { return a.metric > b.metric; });
        std::vector<peak> kept;
        for (const auto& pk : candidates) {
            const bool near = std::any_of(kept.begin(), kept.end(), [&](const peak& k) {
                return (pk.u > k.u ? pk.u - k.u : k.u - pk.u) < fft;
            });
            if (!near) {
                kept.push_back(pk);
                if (kept.size() == static_cast<size_t>(d_params.max_peaks)) {
                    break;
                }
            }
        }
        std::vector<int> hyp_at(k_periods);
        for (const auto& pk : kept) {
            for (size_t k = 0; k < k_periods; k++) {
                hyp_at[k] = best_hyp[nid2][pk.u - lo + k * d_period];
            }
            cell_detection det;
            det.channel = channel;
            if (examine(row, pk, hyp_at, det)) {
                det.sample += first_sample;
                out.push_back(det);
            }
        }
    }
}

// The N-point spectrum of the symbol whose useful part starts at \p start, derotated by
// \p cfo Hz with the phase reference at sample 0 of the row.
std::vector<cd> cell_search_cpu::symbol_spectrum(const std::vector<cf>& row,
                                                 long long start,
                                                 double cfo)
{
    const int n = d_layout.fft_size;
    for (int t = 0; t < n; t++) {
        const double cycles = -cfo * static_cast<double>(start + t) / d_layout.rate_hz;
        const double frac = cycles - std::floor(cycles);
        d_symbol_fwd.input()[t] = cfloat(cd(row[start + t]) * std::polar(1.0, 2 * M_PI * frac));
    }
    d_symbol_fwd.execute();
    return std::vector<cd>(d_symbol_fwd.output(), d_symbol_fwd.output() + n);
}

bool cell_search_cpu::examine(const std::vector<cf>& row,
                              const peak& pk,
                              const std::vector<int>& best_hyp,
                              cell_detection& det)
{
    const int n = d_layout.fft_size;
    const auto positions = sss_positions(d_layout, d_params.standard);
    const auto& pss = d_pss[pk.nid2];
    const auto& sss = d_sss[pk.nid2];
    const size_t k_periods = d_params.combine_periods;
    const bool nr = d_params.standard == cell_standard::nr;
    const bool fivegtf = d_params.standard == cell_standard::fivegtf;

    std::vector<double> sss_score(positions.size() * sss.size(), 0.0);
    std::vector<double> sss_norm(positions.size(), 0.0);
    double cfo_weighted = 0, weight = 0, signal = 0, energy = 0;
    std::vector<std::vector<cd>> pss_spectra; // per period, for the ESS / DM-RS steps
    std::vector<double> cfos;

    for (size_t k = 0; k < k_periods; k++) {
        const size_t u = pk.u + k * d_period;
        const auto& rep = d_replicas[static_cast<size_t>(pk.nid2) * d_hyp.size() + best_hyp[k]];
        // Fine CFO: the phase between the two halves of the correlation, repeated on the
        // samples derotated by the estimate so far (the PSS's uneven envelope biases one
        // pass in proportion to the offset left).
        double cfo = rep.freq_hz;
        double corr = 0;
        for (int pass = 0; pass < 3; pass++) {
            cd c1 = 0, c2 = 0;
            for (int t = 0; t < n; t++) {
                const double cycles = -(cfo - rep.freq_hz) * t / d_layout.rate_hz;
                const cd v =
                    cd(row[u + t]) * std::conj(rep.time[t]) * std::polar(1.0, 2 * M_PI * cycles);
                (t < n / 2 ? c1 : c2) += v;
            }
            cfo += std::arg(c2 * std::conj(c1)) * d_layout.rate_hz / (M_PI * n);
            corr = std::norm(c1 + c2);
        }
        // The PSS's energy in the window, from the correlation with the CFO taken out (a
        // fractional timing offset costs up to 0.9 dB here).
        signal += corr / rep.energy;
        cfo_weighted += cfo * corr;
        weight += corr;
        for (int t = 0; t < n; t++) {
            energy += std::norm(cd(row[u + t]));
        }
        cfos.push_back(cfo);

        // The channel on the PSS subcarriers, then every SSS hypothesis at every position.
        const auto yp = symbol_spectrum(row, static_cast<long long>(u), cfo);
        std::vector<cd> raw(pss.size()), h(pss.size());
        cd mean_h = 0;
        for (size_t e = 0; e < pss.size(); e++) {
            raw[e] = yp[d_layout.pss_bins[e]] * std::conj(pss[e]);
            mean_h += raw[e];
        }
        for (size_t e = 0; e < pss.size(); e++) {
            const size_t a = e >= channel_smoothing / 2 ? e - channel_smoothing / 2 : 0;
            const size_t b = std::min(pss.size(), e + channel_smoothing / 2 + 1);
            for (size_t j = a; j < b; j++) {
                h[e] += raw[j];
            }
        }
        pss_spectra.push_back(yp);
        for (size_t p = 0; p < positions.size(); p++) {
            const auto ys =
                symbol_spectrum(row, static_cast<long long>(u) + positions[p].offset, cfo);
            std::vector<cd> z(d_layout.sss_bins.size());
            for (size_t e = 0; e < z.size(); e++) {
                // 5GTF's SSS has no PSS subcarriers under it: the PSS's mean channel there.
                z[e] = ys[d_layout.sss_bins[e]] * std::conj(fivegtf ? mean_h : h[e]);
                sss_norm[p] += std::norm(z[e]);
            }
            for (size_t hyp = 0; hyp < sss.size(); hyp++) {
                // LTE / 5GTF: a period later the other half frame's SSS is sent.
                const size_t h_k = nr || k % 2 == 0 ? hyp : (hyp ^ 1u);
                cd sum = 0;
                for (size_t e = 0; e < z.size(); e++) {
                    sum += z[e] * static_cast<double>(sss[h_k][e]);
                }
                sss_score[p * sss.size() + hyp] += std::norm(sum);
            }
        }
    }

    size_t best = 0;
    double best_metric = -1;
    for (size_t i = 0; i < sss_score.size(); i++) {
        const size_t p = i / sss.size();
        const double m = sss_norm[p] > 0 ? sss_score[i] / sss_norm[p] : 0;
        if (m > best_metric) {
            best_metric = m;
            best = i;
        }
    }
    if (best_metric < d_sss_threshold) {
        return false;
    }
    const auto& pos = positions[best / sss.size()];
    const int hyp = static_cast<int>(best % sss.size());
    det.nid2 = pk.nid2;
    det.nid1 = nr ? hyp : hyp / 2;
    det.cell_id = 3 * det.nid1 + det.nid2;
    det.cfo_hz = weight > 0 ? cfo_weighted / weight : 0;
    det.pss_metric = pk.metric;
    det.sss_metric = best_metric;
    const double in_window = std::max(energy - signal, 1e-30);
    const double band = static_cast<double>(d_layout.pss_length) / n;
    det.snr_db = 10 * std::log10(std::max(signal, 1e-30) / (in_window * band));
    det.power_db = 10 * std::log10(std::max(signal, 1e-30) / (n * static_cast<double>(k_periods)));
    int pss_cp = pos.pss_cp;

    if (d_params.standard == cell_standard::lte) {
        const bool second = hyp % 2 == 1;
        det.extended_cp = pos.extended_cp;
        det.tdd = pos.tdd;
        det.subframe = (second ? 5 : 0) + (pos.tdd ? 1 : 0);
    } else if (fivegtf) {
        const auto half = hyp % 2 == 1 ? sss_half::second : sss_half::first;
        det.subframe = half == sss_half::second ? 25 : 0;
        double best_ess = -1;
        for (int l = 0; l < fivegtf_symbols; l++) {
            double score = 0;
            for (size_t k = 0; k < k_periods; k++) {
                const auto h_k = k % 2 == 0                ? half
                                 : half == sss_half::first ? sss_half::second
                                                           : sss_half::first;
                const auto ess = fivegtf_ess(det.cell_id, l, h_k, d_params.fivegtf_ess);
                cd sum = 0;
                for (int e = 0; e < fivegtf_ess_length; e++) {
                    sum += pss_spectra[k][d_layout.ess_bins[e]] * std::conj(cd(ess[e]));
                }
                score += std::norm(sum);
            }
            if (score > best_ess) {
                best_ess = score;
                det.symbol = l;
            }
        }
        pss_cp = fivegtf_cp_length(det.symbol, d_params.fivegtf_cp) * n / 2048;
    } else {
        // NR: the SSB index from the PBCH DM-RS of symbols 1..3 (38.211 7.4.1.4.1), the
        // DM-RS on k = 4m + (cell_id mod 4) of the SSB's 240 subcarriers.
        const int v = det.cell_id % 4;
        double best_dmrs = -1;
        std::vector<std::vector<cd>> pbch; // [period * 3 + symbol - 1]
        for (size_t k = 0; k < k_periods; k++) {
            for (int s = 1; s <= 3; s++) {
                pbch.push_back(symbol_spectrum(
                    row, static_cast<long long>(pk.u + k * d_period) + s * (n + d_layout.cp),
                    cfos[k]));
            }
        }
        for (uint32_t ibar = 0; ibar < 8; ibar++) {
            const auto c = gold_sequence((1u << 11) * (ibar + 1) * (det.cell_id / 4 + 1) +
                                             (1u << 6) * (ibar + 1) + det.cell_id % 4,
                                         2 * nr_dmrs_per_ssb);
            double score = 0;
            for (size_t k = 0; k < k_periods; k++) {
                int m = 0;
                for (int s = 1; s <= 3; s++) {
                    const auto& y = pbch[k * 3 + s - 1];
                    cd group = 0;
                    int in_group = 0;
                    for (int kk = v; kk < 240; kk += 4) {
                        if (s == 2 && kk >= 48 && kk < 192) {
                            continue; // the SSS's subcarriers
                        }
                        const cd r((1 - 2 * c[2 * m]) * M_SQRT1_2,
                                   (1 - 2 * c[2 * m + 1]) * M_SQRT1_2);
                        group += y[(kk - 120 + n) % n] * std::conj(r);
                        m++;
                        if (++in_group == dmrs_group) {
                            score += std::norm(group);
                            group = 0;
                            in_group = 0;
                        }
                    }
                    score += std::norm(group);
                }
            }
            if (score > best_dmrs) {
                best_dmrs = score;
                det.ssb_index = static_cast<int>(d_params.ssb_lmax == 4 ? ibar % 4 : ibar);
                det.half_frame = d_params.ssb_lmax == 4 ? static_cast<int>(ibar / 4) : -1;
            }
        }
    }
    det.sample = static_cast<int64_t>(pk.u) - pss_cp;
    return true;
}

} // namespace

std::unique_ptr<cell_search> make_cell_search_cpu(const cell_search_params& params)
{
    return std::make_unique<cell_search_cpu>(params);
}

} // namespace gr::gpuofdm::core
