/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the 802.16 synchronizer: the detection metric slid sample by sample and the
// matched filter on the host threads (wimax_sync_common.h), then the shared rule.

#include "wimax/wimax_sync.h"
#include "wimax/wimax_sync_common.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

bool clean_sample(const cfloat& v) { return std::isfinite(v.real()) && std::isfinite(v.imag()); }

} // namespace

//! CPU twin: the metric and candidates on the host, one pass over the buffer.
class wimax_sync_cpu : public wimax_sync
{
public:
    explicit wimax_sync_cpu(const wimax_sync_params& p) : wimax_sync(p) {}
    device_spec device() const override { return device_spec{}; }
    std::vector<wimax_sync_result> detect(const cfloat* x, size_t n, size_t search_from) override;

protected:
    //! The matched filter of each job on the host threads, over the clean samples.
    void match(const match_job* jobs, size_t n, long* start, int* hyp, cfloat* win) override
    {
        const size_t span = 2 * symbol_len();
        parallel_slices(d_pool.get(), n, 1, [&](size_t first, size_t end) {
            for (size_t k = first; k < end; k++) {
                match_host(d_clean.data(), jobs[k], start[k], hyp[k]);
                std::copy_n(d_clean.data() + start[k], span, win + k * span);
            }
        });
    }

private:
    std::vector<cfloat> d_clean; //!< x with non-finite samples as 0
};

std::vector<wimax_sync_result> wimax_sync_cpu::detect(const cfloat* x, size_t n, size_t search_from)
{
    namespace sd = wimax_sync_detail;
    if (!x && n > 0)
        throw std::invalid_argument("x: null pointer with " + std::to_string(n) + " samples");
    d_clean.resize(n);
    for (size_t i = 0; i < n; i++)
        d_clean[i] = clean_sample(x[i]) ? x[i] : cfloat();
    const auto* c = reinterpret_cast<const sd::cpx*>(d_clean.data());
    const long n_end = detect_end(n);
    std::vector<wimax_sync_result> out;
    if (n_end <= 0)
        return out;

    sd::sums acc{};
    size_t run = 0;
    std::vector<candidate> cands;
    for (long i = 0; i < n_end; i++) {
        sd::step(acc, c, i); // exact every W samples, slid between
        run = sd::flag(acc, double(d_params.threshold), double(d_params.min_power)) ? run + 1 : 0;
        if (run != d_params.min_plateau)
            continue;
        candidate cand;
        cand.i = size_t(i);
        cand.cr = acc.cr;
        cand.ci = acc.ci;
        cand.m = sd::metric(acc);
        cands.push_back(cand);
    }
    size_t resume = search_from;
    take_candidates(cands.data(), cands.size(), resume, out);
    return out;
}

std::unique_ptr<wimax_sync> make_wimax_sync_cpu(const wimax_sync_params& p)
{
    return std::make_unique<wimax_sync_cpu>(p);
}

} // namespace gr::gpuofdm::core
