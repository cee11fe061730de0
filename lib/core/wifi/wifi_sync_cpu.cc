/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// CPU twin of the 802.11a synchronizer: the definitions of wifi_sync_common.h, chunk by
// chunk. The 48-term sums are direct (k = 0 .. 47 for every n, as the kernel adds them),
// written with n innermost so the compiler vectorizes them without changing the order.

#include "wifi/wifi_sync_common.h"

#include <algorithm>

namespace gr::gpuofdm::core {

namespace {

using sync_detail::cpx;

class wifi_sync_cpu : public wifi_sync
{
public:
    explicit wifi_sync_cpu(const wifi_sync_params& p) : wifi_sync(p)
    {
        const size_t m = chunk + sync_detail::metric_span;
        d_x.resize(m);
        d_qr.resize(m);
        d_qi.resize(m);
        d_e.resize(m);
        d_cr.resize(chunk);
        d_ci.resize(chunk);
        d_p.resize(chunk);
        d_pa.resize(chunk);
        d_y.resize(sync_detail::ltf_span);
    }

    device_spec device() const override { return device_spec{}; }

protected:
    void find_candidates(const cfloat* x,
                         size_t n_samples,
                         size_t n_end,
                         std::vector<wifi_sync_candidate>& out) override
    {
        (void)n_samples;
        const cpx* in = reinterpret_cast<const cpx*>(x);
        const size_t L = d_params.min_plateau;
        const float thr = d_params.threshold;
        const float min_power = d_params.min_power;
        size_t run = 0;
        for (size_t a = 0; a < n_end; a += chunk) {
            const size_t len = std::min(chunk, n_end - a);
            // q and e of x[a .. a + len + 64), all inside the buffer (n_end + 63 < n).
            const size_t span = len + sync_detail::metric_span;
            for (size_t i = 0; i < span; i++)
                d_x[i] = sync_detail::clean(in[a + i]);
            for (size_t i = 0; i + sync_detail::delay < span; i++) {
                const cpx q = sync_detail::mul_conj(d_x[i], d_x[i + sync_detail::delay]);
                d_qr[i] = q.re;
                d_qi[i] = q.im;
            }
            for (size_t i = 0; i < span; i++)
                d_e[i] = sync_detail::norm2(d_x[i]);
            // c and p, k increasing for every n.
            float* cr = d_cr.data();
            float* ci = d_ci.data();
            float* p = d_p.data();
            float* pa = d_pa.data();
            std::fill(cr, cr + len, 0.0f);
            std::fill(ci, ci + len, 0.0f);
            std::fill(p, p + len, 0.0f);
            std::fill(pa, pa + len, 0.0f);
            for (unsigned k = 0; k < sync_detail::window; k++) {
                const float* qr = d_qr.data() + k;
                const float* qi = d_qi.data() + k;
                const float* e = d_e.data() + sync_detail::delay + k;
                accumulate(cr, qr, len);
                accumulate(ci, qi, len);
                accumulate(p, e, len);
                accumulate(pa, d_e.data() + k, len);
            }
            for (size_t j = 0; j < len; j++)
                p[j] = sync_detail::window_power(pa[j], p[j]);
            for (size_t j = 0; j < len; j++) {
                // Screen in double: |c|^2 well below (threshold p)^2 cannot pass the exact
                // float test below (whose rounding is a few ulp), so skip it there.
                const double tp = double(thr) * double(p[j]);
                if (double(cr[j]) * cr[j] + double(ci[j]) * ci[j] < 0.99 * tp * tp) {
                    run = 0;
                    continue;
                }
                const cpx c = { cr[j], ci[j] };
                const float m = sync_detail::metric(c, p[j]);
                run = sync_detail::flag(m, p[j], thr, min_power) ? run + 1 : 0;
                if (run == L)
                    out.push_back(fine_timing(in, a + j, c, m));
            }
        }
    }

private:
    //! acc[j] += v[j]: one term of every n's sum (vectorized over n, the order per n kept).
    static void accumulate(float* __restrict__ acc, const float* __restrict__ v, size_t n)
    {
        for (size_t j = 0; j < n; j++)
            acc[j] += v[j];
    }

    //! The fine timing of candidate n, as the kernel computes it.
    wifi_sync_candidate fine_timing(const cpx* in, size_t n, cpx c, float m)
    {
        const double w = sync_detail::coarse_cfo(c);
        const cpx* x = in + n + sync_detail::ltf_lo;
        for (unsigned j = 0; j < sync_detail::ltf_span; j++)
            d_y[j] = sync_detail::mul_c(sync_detail::clean(x[j]), sync_detail::derotation(w, j));
        unsigned best = 0;
        float best_v = 0.0f;
        for (unsigned j = 0; j < sync_detail::ltf_window; j++) {
            const float v = sync_detail::ltf_joint(d_y.data() + j, d_ltf.data());
            if (j == 0 || v > best_v) {
                best = j;
                best_v = v;
            }
        }
        wifi_sync_candidate r;
        r.n = n;
        r.ltf_start = n + sync_detail::ltf_lo + best;
        r.metric = m;
        const float c1 = sync_detail::mag(sync_detail::ltf_corr(d_y.data() + best, d_ltf.data()));
        r.ltf_metric =
            sync_detail::ltf_quality(c1, sync_detail::energy64(d_y.data() + best), d_ltf_energy);
        cpx a = { 0.0f, 0.0f };
        const cpx* s = x + best;
        for (unsigned k = 0; k < sync_detail::ltf_len; k++) {
            const cpx v = sync_detail::mul_conj(sync_detail::clean(s[k]),
                                                sync_detail::clean(s[k + sync_detail::ltf_len]));
            a.re = sync_detail::add(a.re, v.re);
            a.im = sync_detail::add(a.im, v.im);
        }
        r.cfo = sync_detail::fine_cfo(w, a);
        return r;
    }

    static constexpr size_t chunk = 4096;
    std::vector<cpx> d_x;
    std::vector<float> d_qr, d_qi, d_e;
    std::vector<float> d_cr, d_ci, d_p, d_pa;
    std::vector<cpx> d_y;
};

} // namespace

std::unique_ptr<wifi_sync> make_wifi_sync_cpu(const wifi_sync_params& p)
{
    return std::make_unique<wifi_sync_cpu>(p);
}

} // namespace gr::gpuofdm::core
