/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the polyphase timing recovery: each job's loop in turn, the dot products in
// the warp's summation order (pfb_timing_sync_common.h), so it gives the CUDA floats.

#include "timing/pfb_timing_sync.h"

#include <chrono>

namespace gr::gpuofdm::core {

class pfb_timing_sync_cpu : public pfb_timing_sync
{
public:
    explicit pfb_timing_sync_cpu(const pfb_timing_params& p) : pfb_timing_sync(p) {}
    device_spec device() const override { return {}; }
    double kernel_seconds() const override { return d_kernel_s; }

protected:
    void run_jobs(const pfb_timing_io& io,
                  std::vector<timing_job>& jobs,
                  const std::vector<timing_event>& events,
                  const timing_job_outputs& o) override
    {
        const auto t0 = std::chrono::steady_clock::now();
        const int T = d_consts.taps_per_filter;
        for (size_t ji = 0; ji < jobs.size(); ji++) {
            timing_job& j = jobs[ji];
            const auto* row = reinterpret_cast<const rounded::cpx*>(io.in + j.row * io.in_stride);
            const auto dot = [row, T](const float* h, int64_t i) {
                return timing_dot_host(h, T, row, i);
            };
            const auto dot2 = [row, T](const float* h1, const float* h2, int64_t i,
                                       rounded::cpx& y1, rounded::cpx& y2) {
                y1 = timing_dot_host(h1, T, row, i);
                y2 = timing_dot_host(h2, T, row, i);
            };
            timing_run_job(d_consts, d_bank_flat.data(), d_dbank_flat.data(), events.data(), j, ji,
                           o, dot, dot2, true);
        }
        d_kernel_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    void compute_grid(const std::complex<float>* row,
                      int64_t,
                      int64_t i0,
                      size_t count,
                      rounded::cpx* y,
                      rounded::cpx* d) override
    {
        const auto t0 = std::chrono::steady_clock::now();
        const int T = d_consts.taps_per_filter;
        const size_t P = d_params.nfilts;
        const auto* x = reinterpret_cast<const rounded::cpx*>(row);
        for (size_t s = 0; s < count; s++)
            for (size_t f = 0; f < P; f++) {
                y[s * P + f] = timing_dot_host(d_bank_flat.data() + f * T, T, x, i0 + int64_t(s));
                d[s * P + f] = timing_dot_host(d_dbank_flat.data() + f * T, T, x, i0 + int64_t(s));
            }
        d_kernel_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

private:
    double d_kernel_s = 0.0;
};

std::unique_ptr<pfb_timing_sync> make_pfb_timing_sync_cpu(const pfb_timing_params& p)
{
    return std::make_unique<pfb_timing_sync_cpu>(p);
}

} // namespace gr::gpuofdm::core
