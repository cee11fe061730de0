/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.11a receiver's backend-independent part: SIGNAL decoding, and the stream logic
// (what to decode in the samples held, what to keep for the next batch).

#include "wifi/wifi_rx.h"

#include "ofdm/demapper.h"
#include "fec/interleaver.h"
#include "runtime/bit_stage.h" // validated()
#include "runtime/rounded_math.h"
#include "fec/viterbi.h"
#include "wifi/wifi_rx_common.h"
#include "wifi/wifi_tx.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gr::gpuofdm::core {

namespace {

using timer = std::chrono::steady_clock;
double since(timer::time_point t0)
{
    return std::chrono::duration<double>(timer::now() - t0).count();
}

constexpr size_t ltf_and_signal = 128 + 80; //!< T1, T2, SIGNAL
constexpr size_t keep_before_ltf = 256;     //!< re-detection margin before T1
//! The longest frame: 4095 octets at 6 Mb/s, windowing sample included.
constexpr size_t longest_frame = 320 + 80 * 1367 + 1;

size_t frame_end(size_t ltf_start, const wifi_signal_field& s)
{
    return ltf_start + 128 + 80 * (1 + wifi_n_sym(s.len, s.rate_mbps));
}

} // namespace

wifi_signal_field wifi_signal_from_bits(uint32_t bits)
{
    auto bit = [bits](int i) { return (bits >> i) & 1u; };
    wifi_signal_field f;
    unsigned rate_bits = 0, parity = 0;
    for (int i = 0; i < 4; i++)
        rate_bits = (rate_bits << 1) | bit(i); // R1 first, R1 in bit 3
    for (int i = 0; i < 12; i++)
        f.len |= size_t(bit(5 + i)) << i; // LENGTH LSB first
    for (int i = 0; i <= 17; i++)
        parity ^= bit(i);
    const bool tail_zero = (bits >> 18) == 0;
    for (const auto& r : wifi_rates())
        if (r.rate_bits == rate_bits)
            f.rate_mbps = r.mbps;
    f.ok =
        f.rate_mbps != 0 && bit(4) == 0 && parity == 0 && tail_zero && f.len >= 1 && f.len <= 4095;
    return f;
}

const uint32_t* wifi_signal_permutation()
{
    static const std::vector<uint32_t> perm =
        interleaver_permutation(phy_standard::ieee80211a, 48, 1);
    return perm.data();
}

wifi_signal_field wifi_decode_signal(const cfloat* points, const float* weight)
{
    // 17.3.4: rate 1/2 with the 133/171 code, 6 zero tail bits: a terminated frame.
    return wifi_signal_from_bits(wifi_rx_detail::decode_signal_bits(
        reinterpret_cast<const wifi_rx_detail::cpx*>(points), weight, wifi_signal_permutation()));
}

std::vector<int> wifi_used_bins()
{
    std::vector<int> used;
    const auto l = wifi_long_training_bins();
    for (int b = 0; b < 64; b++)
        if (l[size_t(b)] != cfloat(0, 0))
            used.push_back(b);
    return used;
}

wifi_channel_fit wifi_channel_smoother(int taps)
{
    const auto used = wifi_used_bins();
    return make_channel_tap_fit(used, used, 64, std::max(taps, 1), -4);
}

void wifi_rx_params::validate() const
{
    sync.validate();
    decode.validate();
    if (channel_taps != 0 && (channel_taps < 8 || channel_taps > 48))
        throw std::invalid_argument("channel_taps: must be 0 or 8..48, got " +
                                    std::to_string(channel_taps));
    if (fft_backoff < 0 || fft_backoff > 8)
        throw std::invalid_argument("fft_backoff: must be 0..8 samples, got " +
                                    std::to_string(fft_backoff));
    static_assert(longest_frame + keep_before_ltf + 400 < (size_t(1) << 17));
    if (batch_samples < (size_t(1) << 17) || batch_samples > (size_t(1) << 24))
        throw std::invalid_argument("batch_samples: must be 131072..16777216 (the longest "
                                    "frame, 109681 samples, must fit), got " +
                                    std::to_string(batch_samples));
}

wifi_receiver::wifi_receiver(const wifi_rx_params& p,
                             const device_spec& dev,
                             const cuda_context_ptr& ctx)
    : d_params(validated(p)),
      // The next batch keeps the last lookback() samples (a frame may be starting there),
      // or from keep_before_ltf before a frame it must decode again.
      d_batcher({ p.batch_samples, wifi_sync::lookback(), keep_before_ltf }, stream_hooks())
{
    d_sync = make_wifi_sync(p.sync, dev, ctx);
}

void wifi_receiver::copy_finite(const cfloat* x, size_t n, cfloat* out)
{
    const auto* in = reinterpret_cast<const uint32_t*>(x);
    auto* o = reinterpret_cast<uint32_t*>(out);
    parallel_slices(d_pool.get(), 2 * n, size_t(1) << 14, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; i++)
            o[i] = rounded::finite_bits(in[i]);
    });
}

std::vector<wifi_rx_packet> wifi_receiver::process(const cfloat* x, size_t n)
{
    if (!x && n > 0)
        throw std::invalid_argument("x: null pointer with " + std::to_string(n) + " samples");
    d_stats.samples += n;
    return d_batcher.process(x, n);
}

std::vector<wifi_rx_packet> wifi_receiver::finish() { return d_batcher.finish(); }

stream_detector<wifi_rx_packet> wifi_receiver::stream_hooks()
{
    stream_detector<wifi_rx_packet> d;
    d.append = [this](const cfloat* x, size_t n, size_t at) {
        const auto t0 = timer::now();
        append(x, n, at);
        d_stats.t_input += since(t0);
    };
    d.keep = [this](size_t from, size_t n) { keep(from, n); };
    d.detect = [this](const stream_batch& b, std::vector<wifi_rx_packet>& out) {
        return decode_batch(b, out);
    };
    return d;
}

batch_decision wifi_receiver::decode_batch(const stream_batch& b, std::vector<wifi_rx_packet>& out)
{
    auto t0 = timer::now();
    load(b.n);
    d_stats.t_estimate += since(t0);
    t0 = timer::now();
    const auto found = find_frames(b.n, b.search_from);
    d_stats.t_sync += since(t0);
    std::vector<frame_job> jobs;
    for (const auto& f : found)
        jobs.push_back({ f.ltf_start, f.cfo, nullptr, 0.0f });
    batch_decision d;
    d.resume = b.search_from;
    auto got = decode_jobs(jobs, &found, b.n, b.at_end, d);
    for (auto& p : got) {
        p.ltf_start += b.start;
        out.push_back(std::move(p));
    }
    return d;
}

std::vector<wifi_rx_packet> wifi_receiver::decode_buffer(const cfloat* x,
                                                         size_t n,
                                                         const wifi_rx_known* known,
                                                         size_t n_known)
{
    if (!x && n > 0)
        throw std::invalid_argument("x: null pointer with " + std::to_string(n) + " samples");
    if (n > d_params.batch_samples)
        throw std::invalid_argument("n: " + std::to_string(n) +
                                    " samples are more than batch_samples (" +
                                    std::to_string(d_params.batch_samples) + ")");
    if (!known && n_known > 0)
        throw std::invalid_argument("known: null pointer with " + std::to_string(n_known) +
                                    " frames");
    if (d_batcher.held() > 0)
        throw std::logic_error("decode_buffer: the stream holds samples; call finish() first");
    d_stats.samples += n;
    append(x, n, 0);
    load(n);
    std::vector<frame_job> jobs;
    std::vector<wifi_sync_result> found;
    if (known) {
        for (size_t i = 0; i < n_known; i++) {
            if (known[i].channel && !(known[i].noise_var > 0.0f))
                throw std::invalid_argument("known: noise_var of frame " + std::to_string(i) +
                                            " must be > 0 with a channel");
            jobs.push_back(
                { known[i].ltf_start, known[i].cfo, known[i].channel, known[i].noise_var });
        }
    } else {
        found = find_frames(n, 0);
        for (const auto& f : found)
            jobs.push_back({ f.ltf_start, f.cfo, nullptr, 0.0f });
    }
    batch_decision unused;
    return decode_jobs(jobs, known ? nullptr : &found, n, true, unused);
}

std::vector<wifi_rx_packet> wifi_receiver::decode_jobs(const std::vector<frame_job>& jobs,
                                                       const std::vector<wifi_sync_result>* sync,
                                                       size_t n_buf,
                                                       bool at_end,
                                                       batch_decision& decision)
{
    // Part 1 for every frame whose SIGNAL is inside the buffer (cheap: 3 symbols a frame).
    size_t n_est = 0;
    while (n_est < jobs.size() && jobs[n_est].ltf_start + ltf_and_signal <= n_buf &&
           jobs[n_est].ltf_start >= size_t(d_params.fft_backoff))
        n_est++;
    std::vector<frame_estimate> est(n_est);
    auto t0 = timer::now();
    estimate(jobs.data(), n_est, est.data());
    d_stats.t_estimate += since(t0);
    t0 = timer::now();

    // Every SIGNAL held (its bits decoded by the backend's estimate()).
    std::vector<wifi_signal_field> signals(n_est);
    for (size_t i = 0; i < n_est; i++)
        signals[i] = wifi_signal_from_bits(est[i].signal_bits);

    // In stream order: skip detections inside a frame already taken, stop at the first
    // frame not wholly held.
    std::vector<wifi_rx_packet> out;
    std::vector<frame_job> take_jobs;
    std::vector<frame_estimate> take_est;
    std::vector<wifi_signal_field> take_sig;
    std::vector<size_t> take_at; //!< index in out
    for (size_t i = 0; i < jobs.size(); i++) {
        const frame_job& j = jobs[i];
        if (j.ltf_start < decision.resume)
            continue;
        if (i >= n_est) {
            // SIGNAL not held yet (or the frame starts too early to have a backoff).
            if (j.ltf_start + ltf_and_signal > n_buf && !at_end)
                decision.held_back = j.ltf_start;
            break;
        }
        wifi_rx_packet p;
        p.ltf_start = j.ltf_start;
        p.cfo = j.cfo;
        p.snr_db = 10.0f * std::log10(std::max(est[i].snr, 1e-30f));
        if (sync) {
            p.sync_metric = (*sync)[i].metric;
            p.ltf_metric = (*sync)[i].ltf_metric;
        }
        p.signal = signals[i];
        if (!p.signal.ok) {
            d_stats.detected++;
            d_stats.signal_errors++;
            decision.resume = j.ltf_start + ltf_and_signal;
            out.push_back(std::move(p));
            continue;
        }
        const size_t end = frame_end(j.ltf_start, p.signal);
        if (end > n_buf) {
            if (at_end) {
                d_stats.detected++;
                d_stats.truncated++;
                decision.resume = n_buf;
            } else {
                decision.held_back = j.ltf_start;
            }
            break;
        }
        d_stats.detected++;
        decision.resume = end;
        take_jobs.push_back(j);
        take_est.push_back(est[i]);
        take_sig.push_back(p.signal);
        take_at.push_back(out.size());
        out.push_back(std::move(p));
    }

    d_stats.t_signal += since(t0);
    // Part 2: the DATA fields of the frames taken, all in one batch.
    t0 = timer::now();
    std::vector<wifi_rx_result> res(take_jobs.size());
    equalize_and_decode(take_jobs.data(), take_est.data(), take_sig.data(), take_jobs.size(),
                        res.data());
    for (size_t t = 0; t < res.size(); t++) {
        (res[t].fcs_ok ? d_stats.fcs_ok : d_stats.fcs_errors)++;
        out[take_at[t]].data = std::move(res[t]);
    }
    d_stats.t_data += since(t0);

    return out;
}

std::unique_ptr<wifi_receiver> make_wifi_receiver(const wifi_rx_params& p, const device_spec& dev)
{
    p.validate(); // a bad parameter reads the same on every build
    if (!dev.is_cuda())
        return make_wifi_receiver_cpu(p);
#ifdef GPUOFDM_HAVE_CUDA
    return make_wifi_receiver_cuda(p, dev);
#else
    throw std::runtime_error("gr-gpuofdm was built without CUDA (GPUOFDM_CUDA=OFF)");
#endif
}

} // namespace gr::gpuofdm::core
