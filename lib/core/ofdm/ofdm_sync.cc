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

namespace gr::gpuofdm::core {

namespace {

constexpr uint64_t wifi_start_before_ltf = 192; // 10 short periods + GI2
constexpr uint64_t wifi_resume_after_ltf = 208; // T1, T2, SIGNAL (wifi_sync's resume)
constexpr size_t rotator_block = 512;           // exact phase every this many samples

} // namespace

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
