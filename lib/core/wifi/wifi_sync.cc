/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// 802.11a synchronizer: parameter checks, the time-domain long training symbol, the
// candidate -> frame rule both backends share, and the factory.

#include "wifi/wifi_sync.h"

#include "wifi/wifi_sync_common.h"
#include "wifi/wifi_tx.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

void wifi_sync_params::validate() const
{
    if (!(min_ltf_metric >= 0.0f && min_ltf_metric < 1.0f))
        throw std::invalid_argument("min_ltf_metric: must be in [0, 1), got " +
                                    std::to_string(min_ltf_metric));
    if (!(threshold > 0.0f && threshold < 1.0f))
        throw std::invalid_argument("threshold: must be in (0, 1), got " +
                                    std::to_string(threshold));
    if (min_plateau < 16 || min_plateau > 96)
        throw std::invalid_argument("min_plateau: must be 16..96 samples, got " +
                                    std::to_string(min_plateau));
    if (!(min_power >= 0.0f) || !std::isfinite(min_power))
        throw std::invalid_argument("min_power: must be finite and >= 0, got " +
                                    std::to_string(min_power));
    if (max_samples_per_batch < 4096 || max_samples_per_batch > (size_t(1) << 26))
        throw std::invalid_argument("max_samples_per_batch: must be 4096..2^26, got " +
                                    std::to_string(max_samples_per_batch));
}

std::vector<cfloat> wifi_long_training_time()
{
    // x[t] = (1/64) sum_k X_k e^{j 2 pi k t / 64}, in double.
    const auto bins = wifi_long_training_bins();
    const double pi = 3.14159265358979323846;
    std::vector<cfloat> out(64);
    for (int t = 0; t < 64; t++) {
        double re = 0, im = 0;
        for (int k = 0; k < 64; k++) {
            const double a = 2.0 * pi * double((k * t) % 64) / 64.0;
            const double xr = bins[k].real(), xi = bins[k].imag();
            re += xr * std::cos(a) - xi * std::sin(a);
            im += xr * std::sin(a) + xi * std::cos(a);
        }
        out[t] = cfloat(float(re / 64.0), float(im / 64.0));
    }
    return out;
}

std::vector<wifi_sync_result> wifi_sync_select(const std::vector<wifi_sync_candidate>& cands,
                                               size_t search_from,
                                               float min_ltf_metric)
{
    std::vector<wifi_sync_result> out;
    unsigned long long resume = 0;
    for (const auto& c : cands) {
        if (c.n < resume)
            continue;
        // Not a long training field where one should be: no frame, and the search goes on
        // from the next candidate.
        if (!(c.ltf_metric >= min_ltf_metric))
            continue;
        resume = c.ltf_start + sync_detail::resume_after;
        if (c.ltf_start < search_from)
            continue;
        wifi_sync_result r;
        r.ltf_start = size_t(c.ltf_start);
        r.cfo = c.cfo;
        r.metric = c.metric;
        r.ltf_metric = c.ltf_metric;
        out.push_back(r);
    }
    return out;
}

wifi_sync::wifi_sync(const wifi_sync_params& p) : d_params(p)
{
    p.validate();
    const auto l = wifi_long_training_time();
    d_ltf.resize(l.size());
    for (size_t k = 0; k < l.size(); k++)
        d_ltf[k] = { l[k].real(), l[k].imag() };
    d_ltf_energy = sync_detail::energy64(d_ltf.data());
}

void wifi_sync::find_candidates_device(const cfloat*,
                                       size_t,
                                       size_t,
                                       std::vector<wifi_sync_candidate>&)
{
    throw std::logic_error("wifi_sync: device-resident input needs the CUDA backend");
}

std::vector<wifi_sync_result> wifi_sync::detect(const cfloat* x, size_t n, size_t search_from)
{
    return detect_any(x, n, search_from, false);
}

std::vector<wifi_sync_result> wifi_sync::detect_device(const cfloat* d_x,
                                                       size_t n,
                                                       size_t search_from)
{
    return detect_any(d_x, n, search_from, true);
}

std::vector<wifi_sync_result> wifi_sync::detect_any(const cfloat* x,
                                                    size_t n,
                                                    size_t search_from,
                                                    bool on_device)
{
    if (!x && n > 0)
        throw std::invalid_argument("x: null pointer with " + std::to_string(n) + " samples");
    // Detection points n0 with room for their fine timing: n0 + cand_span <= n.
    if (n < sync_detail::cand_span + d_params.min_plateau)
        return {};
    const size_t n_end = n - sync_detail::cand_span + 1;
    std::vector<wifi_sync_candidate> cands;
    if (on_device)
        find_candidates_device(x, n, n_end, cands);
    else
        find_candidates(x, n, n_end, cands);
    return wifi_sync_select(cands, search_from, d_params.min_ltf_metric);
}

std::unique_ptr<wifi_sync> make_wifi_sync(const wifi_sync_params& p,
                                          const device_spec& dev,
                                          const cuda_context_ptr& ctx)
{
    p.validate(); // a bad parameter reads the same on every build
    if (!dev.is_cuda())
        return make_wifi_sync_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_wifi_sync_cuda(p, dev, ctx);
#else
    (void)ctx;
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
