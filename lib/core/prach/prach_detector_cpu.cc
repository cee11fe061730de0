/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the PRACH detector: one FFTW inverse DFT per (cell, occasion, root, antenna),
// then the window scans and prach_decide() per (cell, occasion).

#include "prach/prach_detector.h"
#include "runtime/fftw_plan.h"

#include <algorithm>
#include <array>
#include <memory>

namespace gr::gpuofdm::core {

//! CPU twin of the PRACH detector.
class prach_detector_cpu : public prach_detector
{
public:
    explicit prach_detector_cpu(const prach_detector_params& p);
    device_spec device() const override { return {}; }
    std::vector<float> power_delay_profiles() override { return d_pdp; }

private:
    void scan(const cfloat* bins, size_t stride) override;

    fftw_plan_1d d_plan;       //!< inverse, idft_size points
    std::vector<float> d_pdp;  //!< n_rows() x idft_size()
    std::vector<cfloat> d_sum; //!< every channel's bins summed over the repetitions
    std::array<prach_window_stats, prach_preambles> d_scans; //!< one (cell, occasion)'s
};

prach_detector_cpu::prach_detector_cpu(const prach_detector_params& p)
    : prach_detector(p), d_plan(size_t(d_idft), false), d_pdp(d_n_rows * size_t(d_idft)),
      d_sum(n_channels() * size_t(d_format.length))
{
}

void prach_detector_cpu::scan(const cfloat* bins, size_t stride)
{
    const int L = d_format.length;
    const int R = d_format.repetitions;
    const int N = d_idft;
    const int A = d_params.n_antennas;
    const int O = d_params.n_occasions;
    cfloat* in = d_plan.input();
    std::fill(in + L, in + N, cfloat(0.0f, 0.0f));
    d_found.clear();
    // The repetitions summed once a channel (every root of the channel reads the sum).
    for (size_t ch = 0; ch < n_channels(); ch++) {
        const cfloat* x = bins + ch * stride;
        cfloat* z = &d_sum[ch * size_t(L)];
        for (int k = 0; k < L; k++) {
            cfloat acc = x[k];
            for (int r = 1; r < R; r++)
                acc += x[r * L + k];
            z[k] = acc;
        }
    }
    for (size_t c = 0; c < d_params.cells.size(); c++) {
        for (int o = 0; o < O; o++) {
            for (int root = 0; root < d_cell_roots[c]; root++) {
                const cfloat* ref = &d_refs[(d_ref_offset[c] + size_t(root)) * size_t(L)];
                float* pdp =
                    &d_pdp[(d_row_offset[c] + size_t(o * d_cell_roots[c] + root)) * size_t(N)];
                std::fill(pdp, pdp + N, 0.0f);
                for (int a = 0; a < A; a++) {
                    const size_t ch = (c * size_t(A) + size_t(a)) * size_t(O) + size_t(o);
                    const cfloat* z = &d_sum[ch * size_t(L)];
                    for (int k = 0; k < L; k++)
                        in[k] = z[k] * ref[k];
                    d_plan.execute();
                    const cfloat* out = d_plan.output();
                    for (int n = 0; n < N; n++)
                        pdp[n] += std::norm(out[n]);
                }
                for (int n = 0; n < N; n++)
                    pdp[n] *= d_scale;
            }
            // The 64 windows of this cell and occasion, and its decisions.
            const prach_window* win = &d_windows[c * prach_preambles];
            for (size_t p = 0; p < prach_preambles; p++) {
                const prach_window& w = win[p];
                const float* pdp = &d_pdp[size_t(w.row_base + o * w.row_step) * size_t(N)];
                prach_window_stats s;
                s.peak = -1.0f;
                for (int j = 0; j < w.length; j++) {
                    const float v = prach_combined(pdp, N, w, j);
                    if (prach_peak_before(v, j, s.peak, s.peak_pos)) {
                        s.peak = v;
                        s.peak_pos = j;
                    }
                    s.sum += pdp[prach_wrap(w.start + j, N)];
                }
                prach_peak_region(pdp, N, w, s.peak_pos, s.peak_sum, s.peak_count);
                d_scans[p] = s;
            }
            prach_found found[prach_preambles];
            const int n = prach_decide(win, d_scans.data(),
                                       prach_decide_consts_of(win[0], d_thresholds[c], L, N, R),
                                       int(c), o, found);
            d_found.insert(d_found.end(), found, found + n);
        }
    }
}

std::unique_ptr<prach_detector> make_prach_detector_cpu(const prach_detector_params& p)
{
    return std::make_unique<prach_detector_cpu>(p);
}

} // namespace gr::gpuofdm::core
