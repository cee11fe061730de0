/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// PRACH preambles of UEs plus noise (prach_synth.h).

#include "prach/prach_synth.h"

#include "prach/prach_preamble.h"
#include "runtime/fftw_plan.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

constexpr double kappa_rate = 30.72e6;       // 1 / (kappa T_c)
constexpr double max_sample_rate = 491.52e6; // the front end's (prach_frontend.cc)

long whole(double x, const std::string& name, const std::string& what)
{
    const double r = std::round(x);
    // Past 2^40 no value here is meaningful, and long(r) must not overflow.
    if (!(std::abs(x) < 0x1p40) || std::abs(x - r) > 1e-6 * std::max(1.0, std::abs(x)))
        throw std::invalid_argument(name + ": " + what + ", got " + std::to_string(x));
    return long(r);
}

} // namespace

void prach_synth_params::validate() const
{
    const prach_format_info fmt = prach_format_lookup(format, mu);
    if (!(sample_rate > 0 && sample_rate <= max_sample_rate))
        throw std::invalid_argument("sample_rate: > 0 and <= 491.52e6 Hz, got " +
                                    std::to_string(sample_rate));
    const long n_fft = whole(sample_rate / fmt.scs_hz, "sample_rate",
                             "a multiple of Delta f_RA = " + std::to_string(fmt.scs_hz) + " Hz");
    if (n_fft < fmt.length)
        throw std::invalid_argument(
            "sample_rate: at least L_RA x Delta f_RA = " + std::to_string(fmt.length * fmt.scs_hz) +
            " Hz, got " + std::to_string(sample_rate));
    if (extra_cp_kappa < 0 || extra_cp_kappa > 64 || extra_cp_kappa % 16 != 0)
        throw std::invalid_argument("extra_cp_kappa: 0, 16, 32, 48 or 64, got " +
                                    std::to_string(extra_cp_kappa));
    const long cp = whole((fmt.n_cp + extra_cp_kappa) * sample_rate / kappa_rate, "sample_rate",
                          "a rate at which the cyclic prefix is whole samples (30.72 MHz x 2^k)");
    const long first = whole(offset_hz / fmt.scs_hz, "offset_hz", "a multiple of Delta f_RA");
    if (first < -n_fft / 2 || first + fmt.length - 1 >= n_fft / 2)
        throw std::invalid_argument(
            "offset_hz: the PRACH band must lie within +-sample_rate / 2, got " +
            std::to_string(offset_hz));
    if (n_antennas < 1 || n_antennas > 64)
        throw std::invalid_argument("n_antennas: 1..64, got " + std::to_string(n_antennas));
    const uint64_t len = uint64_t(cp) + uint64_t(fmt.repetitions) * uint64_t(n_fft);
    if (period_samples != 0 && period_samples < len)
        throw std::invalid_argument("period_samples: 0 (one occasion) or >= the preamble's " +
                                    std::to_string(len) + " samples, got " +
                                    std::to_string(period_samples));
    if (!(noise_power >= 0 && std::isfinite(noise_power)))
        throw std::invalid_argument("noise_power: >= 0, got " + std::to_string(noise_power));
    for (size_t i = 0; i < ues.size(); i++) {
        const auto& ue = ues[i];
        const std::string n = "ues[" + std::to_string(i) + "].";
        if (ue.u < 1 || ue.u >= fmt.length)
            throw std::invalid_argument(n + "u: 1.." + std::to_string(fmt.length - 1) + ", got " +
                                        std::to_string(ue.u));
        if (ue.cv < 0 || ue.cv >= fmt.length)
            throw std::invalid_argument(n + "cv: 0.." + std::to_string(fmt.length - 1) + ", got " +
                                        std::to_string(ue.cv));
        if (!(ue.delay_samples >= 0 && ue.delay_samples < double(n_fft)))
            throw std::invalid_argument(n + "delay_samples: 0..n_fft (" + std::to_string(n_fft) +
                                        ", one sequence period), got " +
                                        std::to_string(ue.delay_samples));
        if (!(std::abs(ue.cfo_hz) < sample_rate / 2))
            throw std::invalid_argument(n + "cfo_hz: |cfo| < sample_rate / 2, got " +
                                        std::to_string(ue.cfo_hz));
        if (!(std::abs(ue.power_db) <= 200))
            throw std::invalid_argument(n + "power_db: -200..200 dB, got " +
                                        std::to_string(ue.power_db));
        if (!ue.gains.empty() && ue.gains.size() != size_t(n_antennas))
            throw std::invalid_argument(n + "gains: empty or one per antenna (" +
                                        std::to_string(n_antennas) + "), got " +
                                        std::to_string(ue.gains.size()));
        for (const cfloat& g : ue.gains)
            if (!std::isfinite(g.real()) || !std::isfinite(g.imag()))
                throw std::invalid_argument(n + "gains: finite values");
    }
}

prach_synth::prach_synth(const prach_synth_params& p) : d_params(p)
{
    p.validate();
    const prach_format_info fmt = prach_format_lookup(p.format, p.mu);
    const int L = fmt.length;
    d_fft = int(std::lround(p.sample_rate / fmt.scs_hz));
    d_cp = int(std::lround((fmt.n_cp + p.extra_cp_kappa) * p.sample_rate / kappa_rate));
    d_len = size_t(d_cp) + size_t(fmt.repetitions) * size_t(d_fft);
    const long k0 = std::lround(p.offset_hz / fmt.scs_hz);
    fftw_plan_1d plan(size_t(d_fft), false);
    for (const auto& ue : p.ues) {
        const auto y = prach_sequence_freq(ue.u, ue.cv, L);
        const double a = std::sqrt(std::pow(10.0, ue.power_db / 10) / L / d_fft);
        const double shift = ue.delay_samples + d_cp;
        cfloat* buf = plan.input();
        std::fill(buf, buf + d_fft, cfloat(0));
        for (int k = 0; k < L; k++) {
            const long f = k + k0;
            // The phase of f (delay + CP) / n_fft reduced in whole turns first.
            const double turns = std::fmod(double(f) * shift, double(d_fft)) / d_fft;
            const auto v = a * y[size_t(k)] * std::polar(1.0, -2 * M_PI * turns);
            buf[size_t(((f % d_fft) + d_fft) % d_fft)] = cfloat(v);
        }
        plan.execute();
        const cfloat* periodic = plan.output();
        const size_t first = size_t(std::ceil(ue.delay_samples));
        std::vector<cfloat> wave(size_t(std::floor(ue.delay_samples)) + d_len + 1);
        for (size_t n = first; n < wave.size(); n++) {
            if (double(n) - ue.delay_samples >= double(d_len))
                break;
            const double turns = std::fmod(ue.cfo_hz * double(n) / p.sample_rate, 1.0);
            wave[n] = periodic[n % size_t(d_fft)] * cfloat(std::polar(1.0, 2 * M_PI * turns));
        }
        d_wave.push_back(std::move(wave));
    }
    for (int a = 0; a < p.n_antennas; a++)
        d_rng.emplace_back(p.seed * 1000003ULL + uint64_t(a));
}

void prach_synth::generate(cfloat* const* out, size_t n)
{
    if (!out)
        throw std::invalid_argument("out: null pointer");
    for (int a = 0; a < d_params.n_antennas; a++)
        if (!out[a])
            throw std::invalid_argument("out[" + std::to_string(a) + "]: null pointer");
    const float sigma = float(std::sqrt(d_params.noise_power / 2));
    for (int a = 0; a < d_params.n_antennas; a++) {
        cfloat* o = out[a];
        if (sigma > 0) {
            std::normal_distribution<float> g(0.0f, sigma);
            auto& rng = d_rng[size_t(a)];
            for (size_t i = 0; i < n; i++) {
                const float re = g(rng);
                o[i] = cfloat(re, g(rng));
            }
        } else {
            std::fill(o, o + n, cfloat(0));
        }
    }
    size_t longest = 0;
    for (const auto& w : d_wave)
        longest = std::max(longest, w.size());
    const uint64_t start = d_params.start_sample, period = d_params.period_samples;
    const uint64_t end = d_pos + n;
    uint64_t k = 0;
    if (period > 0 && d_pos > start + longest)
        k = (d_pos - start - longest) / period;
    for (;; k++) {
        const uint64_t s = start + k * period;
        if (s >= end || (period == 0 && k > 0))
            break;
        for (size_t ui = 0; ui < d_wave.size(); ui++) {
            const auto& w = d_wave[ui];
            const auto& gains = d_params.ues[ui].gains;
            const uint64_t lo = std::max(s, d_pos), hi = std::min<uint64_t>(s + w.size(), end);
            for (int a = 0; a < d_params.n_antennas && lo < hi; a++) {
                const cfloat g = gains.empty() ? cfloat(1) : gains[size_t(a)];
                cfloat* o = out[a];
                for (uint64_t t = lo; t < hi; t++)
                    o[t - d_pos] += g * w[size_t(t - s)];
            }
        }
    }
    d_pos = end;
}

} // namespace gr::gpuofdm::core
