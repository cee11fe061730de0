/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ofdm/ofdm_sync.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

constexpr uint64_t wifi_start_before_ltf = 192; // 10 short periods + GI2
constexpr uint64_t wifi_resume_after_ltf = 208; // T1, T2, SIGNAL (wifi_sync's resume)
constexpr size_t rotator_block = 512;           // exact phase every this many samples
constexpr size_t max_batch = size_t(1) << 26;

} // namespace

wifi_sync_params ofdm_sync_params::wifi() const
{
    wifi_sync_params p;
    p.threshold = threshold;
    p.min_plateau = min_plateau;
    p.max_samples_per_batch = std::max<size_t>(4096, batch_samples);
    return p;
}

wimax_sync_params ofdm_sync_params::wimax() const
{
    wimax_sync_params p;
    p.cp_div = cp_div;
    p.threshold = threshold;
    p.min_plateau = min_plateau;
    return p;
}

void ofdm_sync_params::validate() const
{
    if (standard != phy_standard::ieee80211a && standard != phy_standard::ieee80216)
        throw std::invalid_argument("standard: must be 802.11a or 802.16, got " +
                                    std::to_string(int(standard)));
    if (!(sample_rate > 0.0) || !std::isfinite(sample_rate))
        throw std::invalid_argument("sample_rate: must be finite and > 0, got " +
                                    std::to_string(sample_rate));
    // The synchronizer's parameters first (802.16: its CPU twin validates them and gives
    // the lookback); 802.11a's after batch_samples, which sizes its buffers.
    const bool is_wimax = standard == phy_standard::ieee80216;
    const size_t lookback =
        is_wimax ? make_wimax_sync(wimax(), device_spec{})->lookback() : wifi_sync::lookback();
    const size_t min_batch = std::max<size_t>(1024, 2 * lookback);
    if (batch_samples < min_batch || batch_samples > max_batch)
        throw std::invalid_argument("batch_samples: must be " + std::to_string(min_batch) + " .. " +
                                    std::to_string(max_batch) +
                                    " (at least twice the synchronizer's lookback), got " +
                                    std::to_string(batch_samples));
    if (!is_wimax)
        wifi().validate();
}

std::unique_ptr<ofdm_sync> make_ofdm_sync(const ofdm_sync_params& p,
                                          const device_spec& dev,
                                          const cuda_context_ptr& ctx)
{
    p.validate();
    if (p.standard == phy_standard::ieee80211a)
        return std::make_unique<ofdm_sync>(make_wifi_sync(p.wifi(), dev, ctx));
    return std::make_unique<ofdm_sync>(make_wimax_sync(p.wimax(), dev, ctx));
}

ofdm_sync::ofdm_sync(std::unique_ptr<wifi_sync> s) : d_wifi(std::move(s))
{
    if (!d_wifi)
        throw std::invalid_argument("ofdm_sync: no 802.11a synchronizer");
}

ofdm_sync::ofdm_sync(std::unique_ptr<wimax_sync> s) : d_wimax(std::move(s))
{
    if (!d_wimax)
        throw std::invalid_argument("ofdm_sync: no 802.16 synchronizer");
}

device_spec ofdm_sync::device() const { return d_wifi ? d_wifi->device() : d_wimax->device(); }

size_t ofdm_sync::lookback() const { return d_wifi ? wifi_sync::lookback() : d_wimax->lookback(); }

std::vector<ofdm_sync_frame> ofdm_sync::detect(const cfloat* x,
                                               size_t n,
                                               uint64_t x_start,
                                               size_t search_from)
{
    std::vector<ofdm_sync_frame> out;
    if (d_wifi) {
        for (const auto& r : d_wifi->detect(x, n, search_from)) {
            const uint64_t ltf = x_start + r.ltf_start;
            out.push_back({ ltf >= wifi_start_before_ltf ? ltf - wifi_start_before_ltf : 0, ltf,
                            ltf + wifi_resume_after_ltf, double(r.cfo), r.metric, r.ltf_metric });
        }
    } else {
        // The second symbol's useful part follows the first symbol and its own prefix; the
        // search resumes after both symbols (wimax_sync's hold for the preamble alone).
        const uint64_t cp = d_wimax->cp_len(), l1 = d_wimax->symbol_len();
        for (const auto& r : d_wimax->detect(x, n, search_from)) {
            const uint64_t s = x_start + r.start;
            out.push_back(
                { s, s + l1 + cp, s + 2 * l1, double(r.cfo), r.metric, r.preamble_metric });
        }
    }
    return out;
}

void ofdm_sync_derotate(const cfloat* in, cfloat* out, size_t n, double cfo, uint64_t offset)
{
    const std::complex<double> step = std::polar(1.0, -cfo);
    for (size_t k = 0; k < n;) {
        const size_t blk_end = std::min(n, k + rotator_block);
        const double ph = std::fmod(-cfo * double(offset + k), 2.0 * M_PI);
        std::complex<double> r = std::polar(1.0, ph);
        for (; k < blk_end; k++) {
            out[k] = in[k] * cfloat(float(r.real()), float(r.imag()));
            r *= step;
        }
    }
}

} // namespace gr::gpuofdm::core
