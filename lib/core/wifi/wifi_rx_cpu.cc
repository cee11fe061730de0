/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the 802.11a receiver front end: FFTW per symbol, the shared per-symbol
// arithmetic of wifi_rx_common.h, then the CPU DATA-field decoder.

#include "runtime/fftw_plan.h"
#include "wifi/wifi_rx.h"
#include "wifi/wifi_rx_common.h"
#include "wifi/wifi_tx.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstring>

namespace gr::gpuofdm::core {

namespace {

using namespace wifi_rx_detail;

class wifi_receiver_cpu : public wifi_receiver
{
public:
    explicit wifi_receiver_cpu(const wifi_rx_params& p)
        : wifi_receiver(p, device_spec{}), d_fft(64, true),
          d_decoder(make_wifi_decoder_cpu(p.decode))
    {
        const auto l = wifi_long_training_bins();
        for (int b = 0; b < 64; b++)
            d_ltf[b] = l[b].real();
        const auto used = wifi_used_bins();
        std::copy(used.begin(), used.end(), d_used);
        d_fit = wifi_channel_smoother(p.channel_taps);
        d_hold.resize(p.batch_samples);
    }

    device_spec device() const override { return {}; }

protected:
    void append(const cfloat* x, size_t n, size_t at) override
    {
        copy_finite(x, n, d_hold.data() + at);
    }

    void keep(size_t from, size_t n) override
    {
        std::memmove(d_hold.data(), d_hold.data() + from, n * sizeof(cfloat));
    }

    void load(size_t n) override
    {
        d_x = d_hold.data();
        d_n = n;
    }

    std::vector<wifi_sync_result> find_frames(size_t n, size_t search_from) override
    {
        return d_sync->detect(d_hold.data(), n, search_from);
    }

    void estimate(const frame_job* jobs, size_t n, frame_estimate* out) override
    {
        cpx y1[64], y2[64];
        for (size_t i = 0; i < n; i++) {
            const frame_job& j = jobs[i];
            frame_estimate& e = out[i];
            auto* h = reinterpret_cast<cpx*>(e.h);
            fft_at(j, j.ltf_start, y1);
            fft_at(j, j.ltf_start + 64, y2);
            if (j.channel) {
                std::memcpy(h, j.channel, 64 * sizeof(cpx));
                e.noise_var = j.noise_var;
            } else {
                cpx ls[64];
                estimate_channel(y1, y2, d_ltf, ls, &e.noise_var);
                std::memcpy(h, ls, sizeof(ls));
                if (d_params.channel_taps > 0) {
                    cpx g[64];
                    const auto* fit = reinterpret_cast<const cpx*>(d_fit.fit.data());
                    const auto* basis = reinterpret_cast<const cpx*>(d_fit.basis.data());
                    for (int t = 0; t < d_fit.taps; t++)
                        g[t] = fit_tap(ls, fit, d_used, t);
                    for (int r = 0; r < 52; r++)
                        h[d_used[r]] = channel_from_taps(g, basis, d_fit.taps, r);
                }
            }
            e.snr = channel_snr(h, d_used, e.noise_var);
            fft_at(j, j.ltf_start + 128 + 16, y1);
            const pilot_state ps = pilot_track(y1, h, 1.0f, pilot_mode());
            cpx sig[48];
            float w[48];
            const float inv_noise = rounded::div(1.0f, e.noise_var);
            for (int k = 0; k < 48; k++) {
                sig[k] = equalize_carrier(y1, h, ps, pilot_mode(), k);
                w[k] = carrier_weight(h[data_bin(k)], inv_noise);
            }
            e.signal_bits = decode_signal_bits(sig, w, wifi_signal_permutation());
        }
    }

    void equalize_and_decode(const frame_job* jobs,
                             const frame_estimate* est,
                             const wifi_signal_field* sig,
                             size_t n,
                             wifi_rx_result* out) override
    {
        size_t total = 0;
        std::vector<size_t> at(n + 1, 0);
        for (size_t i = 0; i < n; i++)
            at[i + 1] = at[i] + wifi_n_sym(sig[i].len, sig[i].rate_mbps);
        total = at[n];
        d_sym.resize(48 * total);
        d_gain.resize(48 * n);
        std::vector<wifi_rx_frame> frames(n);
        cpx y[64];
        for (size_t i = 0; i < n; i++) {
            const auto* h = reinterpret_cast<const cpx*>(est[i].h);
            for (size_t s = 0; s < at[i + 1] - at[i]; s++) {
                fft_at(jobs[i], jobs[i].ltf_start + 128 + 80 * (s + 1) + 16, y);
                const float pol = float(wifi_pilot_polarity(unsigned(s + 1)));
                const pilot_state ps = pilot_track(y, h, pol, pilot_mode());
                cfloat* o = d_sym.data() + 48 * (at[i] + s);
                for (int k = 0; k < 48; k++) {
                    const cpx z = equalize_carrier(y, h, ps, pilot_mode(), k);
                    o[k] = cfloat(z.re, z.im);
                }
            }
            for (int k = 0; k < 48; k++)
                d_gain[48 * i + k] = norm(h[data_bin(k)]);
            frames[i].symbols = d_sym.data() + 48 * at[i];
            frames[i].n_symbols = at[i + 1] - at[i];
            frames[i].gain = d_gain.data() + 48 * i;
            frames[i].noise_var = est[i].noise_var;
            frames[i].rate_mbps = sig[i].rate_mbps;
            frames[i].len = sig[i].len;
        }
        const auto t0 = std::chrono::steady_clock::now();
        if (n > 0)
            d_decoder->process(frames.data(), n, out);
        d_stats.t_decode +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

private:
    //! The 64-point FFT of the symbol whose useful part starts at \p start (the window
    //! fft_backoff samples earlier), derotated by the frame's CFO from T1 on.
    void fft_at(const frame_job& j, size_t start, cpx* y)
    {
        const size_t from = start - size_t(d_params.fft_backoff);
        cfloat* in = d_fft.input();
        // exp(-j cfo (t - ltf_start)): one phasor a symbol, stepped in double.
        std::complex<double> r =
            std::polar(1.0, -double(j.cfo) * (double(from) - double(j.ltf_start)));
        const std::complex<double> step = std::polar(1.0, -double(j.cfo));
        for (int t = 0; t < 64; t++) {
            in[t] = d_x[from + t] * cfloat(float(r.real()), float(r.imag()));
            r *= step;
        }
        d_fft.execute();
        std::memcpy(y, d_fft.output(), 64 * sizeof(cpx));
    }

    fftw_plan_1d d_fft;
    std::unique_ptr<wifi_decoder> d_decoder;
    float d_ltf[64];
    int d_used[52];
    wifi_channel_fit d_fit;
    const cfloat* d_x = nullptr;
    size_t d_n = 0;
    std::vector<cfloat> d_hold; //!< batch_samples
    std::vector<cfloat> d_sym;
    std::vector<float> d_gain;
};

} // namespace

std::unique_ptr<wifi_receiver> make_wifi_receiver_cpu(const wifi_rx_params& p)
{
    return std::make_unique<wifi_receiver_cpu>(p);
}

} // namespace gr::gpuofdm::core
