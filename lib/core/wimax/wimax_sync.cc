/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// What both backends of the 802.16 synchronizer share: the parameter checks, the preamble
// tables, the sequential rule over the detection points with the CFO refinement on the
// host threads, the CPU twin's matched filter (wimax_sync_common.h), and the factory.

#include "wimax/wimax_sync.h"
#include "wimax/wimax_sync_common.h"
#include "wimax/wimax_tx.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

constexpr int corr_window = int(wimax_sync_detail::corr_window); //!< W of the autocorrelation
constexpr int corr_delay = int(wimax_sync_detail::corr_delay);
constexpr int margin = 24; //!< timing window margin on each side
constexpr double two_pi = 6.283185307179586476925;

using cd = std::complex<double>;

double wrap_pi(double r) { return r - two_pi * std::floor((r + M_PI) / two_pi); }

} // namespace

void wimax_sync_params::validate() const
{
    if (cp_div != 4 && cp_div != 8 && cp_div != 16 && cp_div != 32)
        throw std::invalid_argument("cp_div: 1/G must be 4, 8, 16 or 32, got " +
                                    std::to_string(cp_div));
    if (!(threshold >= 0.2f && threshold <= 0.8f))
        throw std::invalid_argument("threshold: must be in 0.2 .. 0.8, got " +
                                    std::to_string(threshold));
    if (min_plateau < 16 || min_plateau > 96)
        throw std::invalid_argument("min_plateau: must be 16 .. 96, got " +
                                    std::to_string(min_plateau));
    if (!(min_power >= 0.0f) || !std::isfinite(min_power))
        throw std::invalid_argument("min_power: must be finite and >= 0, got " +
                                    std::to_string(min_power));
    if (!(min_preamble_metric >= 0.0f && min_preamble_metric < 1.0f))
        throw std::invalid_argument("min_preamble_metric: must be in [0, 1), got " +
                                    std::to_string(min_preamble_metric));
    if (cfo_search < 0 || cfo_search > 4)
        throw std::invalid_argument("cfo_search: must be 0 .. 4, got " +
                                    std::to_string(cfo_search));
}

wimax_sync::wimax_sync(const wimax_sync_params& p) : d_params(p)
{
    p.validate();
    // The useful parts of the two preamble symbols, 1/256 sum X_k e^{j 2 pi k t / 256}.
    const auto bins = wimax_preamble_bins(wimax_preamble::long_dl);
    for (int s = 0; s < 2; s++) {
        d_time[s].resize(256);
        d_energy[s] = 0.0;
        for (int t = 0; t < 256; t++) {
            cd acc = 0;
            for (int k = 0; k < 256; k++)
                if (bins[256 * size_t(s) + size_t(k)] != cfloat())
                    acc += cd(bins[256 * size_t(s) + size_t(k)]) *
                           std::polar(1.0, two_pi * ((k * t) % 256) / 256.0);
            d_time[s][size_t(t)] = cfloat(acc / 256.0);
            d_energy[s] += std::norm(acc / 256.0);
        }
    }
}

std::vector<wimax_sync_result> wimax_sync::detect_device(const cfloat*, size_t, size_t)
{
    throw std::logic_error("wimax_sync: device-resident input needs the CUDA backend");
}

void wimax_sync::match(const match_job*, size_t, long*, int*, cfloat*)
{
    throw std::logic_error("wimax_sync: this synchronizer has no matched filter");
}

int wimax_sync::back() const
{
    // Latest detection point: where the first symbol's plateau ends, L1 - 64 - thr W after
    // the start (less at lower SNR).
    return int(symbol_len()) - corr_delay - int(d_params.threshold * corr_window) + margin;
}

int wimax_sync::fwd() const
{
    // Earliest: the run starts W (1 - thr) before the start (high SNR, quiet before).
    return int(std::ceil(corr_window * (1.0f - d_params.threshold))) - int(d_params.min_plateau) +
           1 + margin;
}

size_t wimax_sync::lookback() const
{
    return size_t(fwd() + 2 * int(symbol_len()) +
                  std::max(back(), int(d_params.min_plateau) + corr_window + corr_delay)) +
           64;
}

long wimax_sync::detect_end(size_t n) const
{
    const long L1 = long(symbol_len());
    const long span = long(corr_window) + long(corr_delay);
    return std::min(long(n) - fwd() - 2 * L1 + 1, long(n) - span + 1);
}

double wimax_sync::coarse_cfo(const candidate& c) { return -std::atan2(c.ci, c.cr) / corr_delay; }

void wimax_sync::take_candidates(const candidate* cand,
                                 size_t n,
                                 size_t& resume,
                                 std::vector<wimax_sync_result>& out)
{
    if (n == 0)
        return;
    const long f = fwd(), b = back();
    const size_t hold = std::max(d_params.hold, size_t(2 * symbol_len()));
    const size_t span = 2 * symbol_len();
    auto hyp_cfo = [&](double w0, int hyp) {
        return wimax_sync_detail::hypothesis_cfo(w0, hyp - d_params.cfo_search);
    };
    // As if nothing came before: every window from i - back, matched at once, then the
    // CFO refined on the host threads. A window with no start (i + fwd < 0) is never taken.
    std::vector<match_job> jobs(n);
    std::vector<size_t> live;
    for (size_t k = 0; k < n; k++) {
        const long i = long(cand[k].i);
        jobs[k] = { std::max(i - b, 0L), i + f, coarse_cfo(cand[k]) };
        if (jobs[k].hi >= jobs[k].lo)
            live.push_back(k);
    }
    std::vector<match_job> live_jobs(live.size());
    for (size_t m = 0; m < live.size(); m++)
        live_jobs[m] = jobs[live[m]];
    std::vector<long> start(live.size());
    std::vector<int> hyp(live.size());
    std::vector<cfloat> win(std::max<size_t>(live.size(), 1) * span);
    match(live_jobs.data(), live.size(), start.data(), hyp.data(), win.data());
    std::vector<fine_result> ahead(n);
    parallel_slices(d_pool.get(), live.size(), 1, [&](size_t first, size_t end) {
        for (size_t m = first; m < end; m++)
            ahead[live[m]] =
                refine(win.data() + m * span, start[m], hyp_cfo(live_jobs[m].w0, hyp[m]));
    });
    for (size_t k = 0; k < n; k++) {
        // A detection point: fine timing over [i - back, i + fwd], never before resume.
        const long lo = std::max(jobs[k].lo, long(resume));
        const long hi = jobs[k].hi;
        if (hi < lo)
            continue;
        fine_result r;
        if (lo == jobs[k].lo) {
            r = ahead[k];
        } else {
            const match_job clipped{ lo, hi, jobs[k].w0 };
            long s1 = 0;
            int h1 = 0;
            match(&clipped, 1, &s1, &h1, win.data());
            r = refine(win.data(), s1, hyp_cfo(clipped.w0, h1));
        }
        if (r.q < double(d_params.min_preamble_metric))
            continue;
        wimax_sync_result res;
        res.start = size_t(r.s);
        res.cfo = float(r.cfo);
        res.metric = float(cand[k].m);
        res.preamble_metric = float(r.q);
        out.push_back(res);
        resume = size_t(r.s) + hold;
    }
}

void wimax_sync::match_host(const cfloat* c, const match_job& job, long& start, int& hyp) const
{
    namespace sd = wimax_sync_detail;
    const long L1 = long(symbol_len()), cp = long(cp_len());
    const long len = job.hi - job.lo + 1;
    const auto* x = reinterpret_cast<const sd::cpx*>(c) + job.lo;
    const auto* p1 = reinterpret_cast<const sd::cpx*>(d_time[0].data());
    const auto* p2 = reinterpret_cast<const sd::cpx*>(d_time[1].data());
    // The matched filter reads y[j + cp + L1 + k] for j < len, k < 256: len + 2 L1 - 1.
    std::vector<sd::cpx> y(size_t(len + 2 * L1 - 1));
    const int n_hyp = 2 * d_params.cfo_search + 1;
    std::vector<sd::match_best> per_hyp(static_cast<size_t>(n_hyp));
    for (int h = 0; h < n_hyp; h++) {
        const double wh = sd::hypothesis_cfo(job.w0, h - d_params.cfo_search);
        for (long t = 0; t < long(y.size()); t++)
            y[size_t(t)] = sd::derotate(x[t], wh, t);
        sd::match_best best{ -1.0, 0 };
        for (long j = 0; j < len; j++) {
            const sd::cpx* y1 = y.data() + j + cp;
            const double v = sd::match_value(y1, y1 + L1, p1, p2);
            if (v > best.v)
                best = { v, j };
        }
        per_hyp[size_t(h)] = best;
    }
    long long j = 0;
    hyp = sd::pick_hypothesis(per_hyp.data(), n_hyp, j);
    start = job.lo + long(j);
}

wimax_sync::fine_result wimax_sync::refine(const cfloat* w, long s, double w_hyp) const
{
    const long L1 = long(symbol_len()), cp = long(cp_len());
    fine_result r;
    r.s = s;
    // CFO: delay 64 over the first symbol, unwrapped to the hypothesis; then delay 128
    // over the second (+-pi / 128 around that).
    cd a1 = 0, a2 = 0;
    for (long t = 0; t < L1 - corr_delay; t++)
        a1 += cd(w[t]) * std::conj(cd(w[t + corr_delay]));
    for (long t = L1; t < 2 * L1 - 128; t++)
        a2 += cd(w[t]) * std::conj(cd(w[t + 128]));
    double w1 = -std::arg(a1) / corr_delay;
    w1 += (two_pi / corr_delay) * std::round((w_hyp - w1) / (two_pi / corr_delay));
    r.cfo = w1 - wrap_pi(std::arg(a2) + 128.0 * w1) / 128.0;
    // The normalized matched filter of both symbols at s, derotated by the CFO.
    for (int sym = 0; sym < 2; sym++) {
        const long u = sym * L1 + cp;
        cd corr = 0;
        double e = 0;
        for (int k = 0; k < 256; k++) {
            const cd v = cd(w[u + k]) * std::polar(1.0, -r.cfo * double(u + k));
            corr += v * std::conj(cd(d_time[sym][size_t(k)]));
            e += std::norm(v);
        }
        const double d = std::sqrt(e * d_energy[sym]);
        r.q += d > 0 ? 0.5 * std::abs(corr) / d : 0.0;
    }
    return r;
}

std::unique_ptr<wimax_sync> make_wimax_sync(const wimax_sync_params& p,
                                            const device_spec& dev,
                                            const cuda_context_ptr& ctx)
{
    p.validate(); // a bad parameter reads the same on every build
    if (!dev.is_cuda())
        return make_wimax_sync_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_wimax_sync_cuda(p, dev, ctx);
#else
    (void)ctx;
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
