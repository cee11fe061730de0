/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The CPU twin of the cell search: the PSS metric of every timing by overlap-save FFTs
// (FFTW), the candidates; the rest is cell_search::finish().

#include "runtime/fftw_plan.h"
#include "runtime/profile.h"
#include "sync/cell_search.h"
#include "sync/cell_search_common.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace gr::gpuofdm::core {

namespace {

using cf = std::complex<float>;
using cd = std::complex<double>;

class cell_search_cpu : public cell_search
{
public:
    explicit cell_search_cpu(const cell_search_params& params)
        : cell_search(params), d_block(pss_block_size(d_layout)), d_block_fwd(d_block, true),
          d_block_inv(d_block, false)
    {
        for (const auto& rep : d_replicas) {
            std::fill(d_block_fwd.input(), d_block_fwd.input() + d_block, cfloat(0, 0));
            for (size_t t = 0; t < rep.time.size(); t++) {
                d_block_fwd.input()[t] = cfloat(rep.time[t]);
            }
            d_block_fwd.execute();
            std::vector<cf> spectrum(d_block);
            for (size_t b = 0; b < d_block; b++) {
                spectrum[b] = std::conj(d_block_fwd.output()[b]);
            }
            d_spectra.push_back(std::move(spectrum));
        }
    }

    std::vector<cell_detection> search(
        const cf* x, size_t stride, int channels, size_t n, int64_t first_sample) override
    {
        check_channels(channels);
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<pss_candidate> candidates;
        const pss_span span = pss_search_span(*this, n);
        if (span.valid) {
            std::vector<cf> row(n);
            for (int c = 0; c < channels; c++) {
                const cf* src = x + static_cast<size_t>(c) * stride;
                for (size_t i = 0; i < n; i++) {
                    row[i] = finite_or_zero(src[i]);
                }
                row_candidates(row, c, span, candidates);
            }
        }
        const double correlation_ms = ms_since(t0);
        const auto t1 = std::chrono::steady_clock::now();
        const size_t found = candidates.size();
        auto detections = finish(*host_rows(x, stride), n, first_sample, std::move(candidates));
        // As the CUDA backend's cuda_phase_timer does: where a call's time goes.
        if (profiling()) {
            std::fprintf(stderr,
                         "profile cell_search (cpu): correlation %.3f ms, finish %.3f ms "
                         "(%zu PSS candidates, %zu detections)\n",
                         correlation_ms, ms_since(t1), found, detections.size());
        }
        return detections;
    }

private:
    void row_candidates(const std::vector<cf>& row,
                        int channel,
                        const pss_span& span,
                        std::vector<pss_candidate>& out)
    {
        const size_t fft = d_layout.fft_size;
        std::vector<double> prefix(row.size() + 1, 0.0);
        for (size_t i = 0; i < row.size(); i++) {
            prefix[i + 1] = prefix[i] + std::norm(cd(row[i]));
        }
        const size_t count = span.corr_hi - span.lo;
        const size_t hyps = d_hyp.size();
        std::vector<float> metric(nid2_count * count, 0.0f);
        std::vector<int> best(nid2_count * count, 0);
        const size_t hop = d_block - fft + 1;
        std::vector<cf> spectrum(d_block);
        for (size_t s = span.lo; s < span.corr_hi; s += hop) {
            for (size_t i = 0; i < d_block; i++) {
                d_block_fwd.input()[i] = s + i < row.size() ? row[s + i] : cf(0, 0);
            }
            d_block_fwd.execute();
            std::copy(d_block_fwd.output(), d_block_fwd.output() + d_block, spectrum.begin());
            for (size_t r = 0; r < d_replicas.size(); r++) {
                const auto& rep = d_replicas[r];
                for (size_t b = 0; b < d_block; b++) {
                    d_block_inv.input()[b] = spectrum[b] * d_spectra[r][b];
                }
                d_block_inv.execute();
                for (size_t j = 0; j < hop && s + j < span.corr_hi; j++) {
                    const size_t u = s + j;
                    const double energy = prefix[u + fft] - prefix[u];
                    const float m =
                        pss_metric(d_block_inv.output()[j].real(), d_block_inv.output()[j].imag(),
                                   d_block, fft, rep.energy, energy);
                    const size_t at = static_cast<size_t>(rep.nid2) * count + (u - span.lo);
                    if (m > metric[at]) {
                        metric[at] = m;
                        best[at] = static_cast<int>(r % hyps);
                    }
                }
            }
        }
        const pss_combining combining = make_pss_combining(*this);
        const float gather_level = pss_floor();
        for (int nid2 = 0; nid2 < nid2_count; nid2++) {
            const float* m = metric.data() + static_cast<size_t>(nid2) * count;
            const int* b = best.data() + static_cast<size_t>(nid2) * count;
            for (size_t u = span.lo; u < span.hi; u++) {
                const size_t i = u - span.lo;
                if (!is_pss_candidate(m, i, span, combining, gather_level)) {
                    continue;
                }
                pss_candidate pk;
                pk.channel = channel;
                pk.nid2 = nid2;
                pk.u = u;
                int path = 0;
                pk.metric = combined_metric(m, i, combining, &path);
                for (int k = 0; k < combining.periods; k++) {
                    pk.hyp.push_back(period_hypothesis(m, b, i, combining, k, path));
                    pk.drift.push_back(drift_offset(k, path, combining.periods));
                }
                out.push_back(std::move(pk));
            }
        }
    }

    size_t d_block;
    fftw_plan_1d d_block_fwd, d_block_inv;
    std::vector<std::vector<cf>> d_spectra; // conj(FFT) of each replica, zero-padded
};

} // namespace

std::unique_ptr<cell_search> make_cell_search_cpu(const cell_search_params& params)
{
    return std::make_unique<cell_search_cpu>(params);
}

} // namespace gr::gpuofdm::core
