/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the 802.16 receiver front end: FFTW per symbol, the channel on the preamble,
// the per-symbol arithmetic of wimax_rx_common.h, max-log LLRs with the 802.16 labels.

#include "ofdm/demapper.h"
#include "runtime/fftw_plan.h"
#include "wimax/wimax_rx.h"
#include "wimax/wimax_rx_common.h"
#include "wimax/wimax_tx.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>

namespace gr::gpuofdm::core {

namespace {

using namespace wimax_rx_detail;

unsigned bin_of(int k) { return unsigned((k + 256) % 256); }

class wimax_receiver_cpu : public wimax_receiver
{
public:
    explicit wimax_receiver_cpu(const wimax_rx_params& p) : wimax_receiver(p), d_fft(256, true)
    {
        d_pre = wimax_preamble_bins(wimax_preamble::long_dl);
        if (p.channel_taps > 0)
            d_fit = wimax_channel_smoother(p.channel_taps);
        for (unsigned k = 0; k < wimax_pilot_period; k++)
            d_pilot_w.push_back(uint8_t(wimax_pilot_w(k, p.uplink)));
    }

    device_spec device() const override { return {}; }

protected:
    void load(const cfloat* x, size_t n) override
    {
        d_x = x;
        d_n = n;
    }

    std::vector<wimax_sync_result> find_bursts(size_t n, size_t search_from) override
    {
        return sync().detect(d_x, n, search_from);
    }

    void front_end(const burst_job* jobs, size_t n, wimax_rx_burst* out, float* llr) override
    {
        const wimax_profile_info& r = wimax_profile(d_params.rate_id);
        const size_t cp = d_sym_len - 256, per = d_n_sym * size_t(r.n_cbps);
        const auto& data_bins = wimax_data_bins();
        cpx y1[256], y2[256], h[256];
        for (size_t i = 0; i < n; i++) {
            const burst_job& j = jobs[i];
            float noise = 0.0f;
            fft_at(j, j.start + cp, y1);
            fft_at(j, j.start + d_sym_len + cp, y2);
            if (j.channel) {
                std::memcpy(h, j.channel, sizeof(h));
                noise = j.noise_var;
            } else {
                estimate(y1, y2, h, &noise);
            }
            float p = 0.0f;
            for (int k : d_used)
                p += norm(h[bin_of(k)]);
            out[i].noise_var = noise;
            out[i].snr_db = 10.0f * std::log10(std::max(p / float(d_used.size()) / noise, 1e-30f));

            float* o = llr + per * i;
            for (size_t s = 0; s < d_n_sym; s++) {
                fft_at(j, j.start + (2 + s) * d_sym_len + cp, y1);
                const unsigned w = d_pilot_w[(2 + s) % wimax_pilot_period];
                float pilots[8];
                for (unsigned e = 0; e < 8; e++)
                    pilots[e] = wimax_pilot_from_w(e, w, d_params.uplink);
                const pilot_state ps = pilot_track(y1, h, pilots, pilot_mode());
                for (size_t d = 0; d < data_bins.size(); d++) {
                    const int b = int(data_bins[d]);
                    const cpx z = equalize_carrier(y1, h, ps, pilot_mode(), b);
                    // 802.16 labels: the 802.11a point of the complemented bits, so the
                    // 802.11a LLRs negated (a negative weight).
                    demap_point(z.re, z.im, r.mod, -norm(h[b]) / noise, false,
                                o + (s * data_bins.size() + d) * size_t(r.n_bpsc));
                }
            }
        }
    }

private:
    /*!
     * Least squares on the even carriers (the second symbol; the first's multiples of 4
     * averaged in by their power, 8 : 4), the noise on both symbols' empty carriers in
     * -100..100, then the channel on every used carrier.
     */
    void estimate(const cpx* y1, const cpx* y2, cpx* h, float* noise_var)
    {
        std::vector<cfloat> obs(d_obs.size());
        for (size_t o = 0; o < d_obs.size(); o++) {
            const unsigned b = bin_of(d_obs[o]);
            cfloat v = cfloat(y2[b].re, y2[b].im) / d_pre[256 + b];
            if (d_obs[o] % 4 == 0)
                v = (2.0f * (cfloat(y1[b].re, y1[b].im) / d_pre[b]) + v) / 3.0f;
            obs[o] = v;
        }
        float nsum = 0.0f;
        size_t nn = 0;
        for (int k : d_used) {
            const unsigned b = bin_of(k);
            if (k % 4 != 0) {
                nsum += norm(y1[b]);
                nn++;
            }
            if (k % 2 != 0) {
                nsum += norm(y2[b]);
                nn++;
            }
        }
        for (int b = 0; b < 256; b++)
            h[b] = { 0.0f, 0.0f };
        std::vector<cfloat> hu(d_used.size());
        if (d_params.channel_taps > 0) {
            std::vector<cfloat> g(size_t(d_fit.taps));
            for (int t = 0; t < d_fit.taps; t++)
                for (size_t o = 0; o < obs.size(); o++)
                    g[size_t(t)] += d_fit.fit[size_t(t) * obs.size() + o] * obs[o];
            for (size_t u = 0; u < d_used.size(); u++)
                for (int t = 0; t < d_fit.taps; t++)
                    hu[u] += d_fit.basis[u * size_t(d_fit.taps) + size_t(t)] * g[size_t(t)];
        } else {
            // d_used is -100..-1, 1..100: the even ones are observed, the odd ones halfway
            // between their neighbours (+-1 from +-2 across the DC gap).
            const auto at = [&](int k) { return obs[size_t(k < 0 ? (k + 100) / 2 : 49 + k / 2)]; };
            for (size_t u = 0; u < d_used.size(); u++) {
                const int k = d_used[u];
                if (k % 2 == 0)
                    hu[u] = at(k);
                else if (k == 1)
                    hu[u] = 0.25f * at(-2) + 0.75f * at(2);
                else if (k == -1)
                    hu[u] = 0.75f * at(-2) + 0.25f * at(2);
                else
                    hu[u] = 0.5f * (at(k - 1) + at(k + 1));
            }
        }
        float p = 0.0f;
        for (size_t u = 0; u < d_used.size(); u++) {
            h[bin_of(d_used[u])] = { hu[u].real(), hu[u].imag() };
            p += std::norm(hu[u]);
        }
        p /= float(d_used.size());
        float nv = nsum / float(nn);
        if (!(nv >= 1e-5f * p))
            nv = 1e-5f * p;
        if (!(nv > 0.0f))
            nv = 1e-30f;
        *noise_var = nv;
    }

    //! The 256-point FFT of the symbol whose useful part starts at \p start (the window
    //! fft_backoff samples earlier), derotated by the burst's CFO from its start on.
    void fft_at(const burst_job& j, size_t start, cpx* y)
    {
        const size_t from = start - size_t(d_params.fft_backoff);
        cfloat* in = d_fft.input();
        std::complex<double> r = std::polar(1.0, -double(j.cfo) * (double(from) - double(j.start)));
        const std::complex<double> step = std::polar(1.0, -double(j.cfo));
        for (int t = 0; t < 256; t++) {
            in[t] = d_x[from + size_t(t)] * cfloat(float(r.real()), float(r.imag()));
            r *= step;
        }
        d_fft.execute();
        std::memcpy(y, d_fft.output(), 256 * sizeof(cpx));
    }

    fftw_plan_1d d_fft;
    std::vector<cfloat> d_pre;                                 //!< the two preamble symbols' bins
    const std::vector<int>& d_used = wimax_used_carriers();    //!< 200
    const std::vector<int>& d_obs = wimax_observed_carriers(); //!< the even ones, 100
    channel_tap_fit d_fit;
    std::vector<uint8_t> d_pilot_w; //!< w_k, k = 0 .. 2046
    const cfloat* d_x = nullptr;
    size_t d_n = 0;
};

} // namespace

std::unique_ptr<wimax_receiver> make_wimax_receiver_cpu(const wimax_rx_params& p)
{
    return std::make_unique<wimax_receiver_cpu>(p);
}

} // namespace gr::gpuofdm::core
