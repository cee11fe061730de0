/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gpuofdm_per: 802.11a (or, --standard wimax, 802.16 OFDM-256) packet error rate against
// SNR, core level (no GNU Radio, so it runs on a GPU host as it is). For each rate (burst
// profile), channel and SNR: frames (bursts) of random octets from the core transmitter,
// each through the channel (3 taps or 1, a random CFO within +-cfo_max and a random phase,
// complex AWGN), decoded twice: by the real receiver (its own sync, CFO and channel
// estimates) and by the same receiver handed the true timing, CFO and channel (the
// reference). Prints one CSV line a point; scripts/per_curves.py plots them and reads off
// the SNR at PER 1%.

#include "../common/cli_options.h"
#include "wifi/wifi_rx.h"
#include "wifi/wifi_rx_bits.h"
#include "wifi/wifi_tx.h"
#include "wimax/wimax_rx.h"
#include "wimax/wimax_tx.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace core = gr::gpuofdm::core;
using core::cfloat;

namespace {

constexpr double two_pi = 6.283185307179586;
constexpr size_t gap = 400;      //!< zeros (plus noise) between frames
constexpr size_t lead = 500;     //!< before the first frame
constexpr double wimax_fs = 4e6; //!< 802.16 sample rate assumed (8.3.2.3: 8/7 x 3.5 MHz)

struct options {
    std::string device = "auto";
    std::string standard = "wifi"; //!< wifi (802.11a) or wimax (802.16 OFDM-256)
    std::vector<int> rates{ 6, 9, 12, 18, 24, 36, 48, 54 };
    std::vector<int> profiles{ 0, 1, 2, 3, 4, 5, 6 }; //!< 802.16 Rate_IDs
    std::vector<std::string> channels{ "awgn", "multipath" };
    int frames = 400;
    int len = 1000;
    double cfo_max_hz = 100e3;
    int points = 12;
    double step_db = 1.0;
    uint32_t seed = 1;
    int channel_taps = -1; //!< -1: the receiver's default
    float threshold = -1;  //!< -1: the synchronizer's default
    bool diagnose = false; //!< also: true timing and CFO, the channel estimated
    bool verbose = false;  //!< each lost frame on stderr
};

void usage()
{
    std::puts(
        "gpuofdm_per: 802.11a / 802.16 PER vs SNR, real receiver and reference (true timing, CFO,\n"
        "channel)\n"
        "  --device S       auto (default), cpu, cuda, cuda:N\n"
        "  --standard S     wifi (802.11a, default) or wimax (802.16 OFDM-256, long preamble,\n"
        "                   CP 1/4, 4 Msps, bursts of --len octets padded to whole RS blocks)\n"
        "  --rates LIST     wifi: Mb/s, comma separated (all eight)\n"
        "  --profiles LIST  wimax: Rate_IDs 0 (BPSK 1/2) .. 6 (64-QAM 3/4), comma separated (all)\n"
        "  --channels LIST  awgn, multipath (3 taps: 0.85, 0.42 e^{j2}, 0.30 e^{-j1}) (both)\n"
        "  --frames N       frames per point (400)\n"
        "  --len N          PSDU octets, FCS included; wimax: burst data octets (1000)\n"
        "  --cfo-max HZ     CFO uniform in +-HZ, per frame, at 20 Msps (wimax: 4 Msps) (100e3)\n"
        "  --points N       SNR points per curve (12), from a start per rate / profile\n"
        "  --step DB        SNR step (1)\n"
        "  --seed N         random seed (1)\n"
        "  --channel-taps N the receiver's channel_taps (its default)\n"
        "  --threshold T    the synchronizer's detection threshold (its default)\n"
        "  --diagnose       also a receiver with true timing and CFO, channel estimated\n"
        "  --verbose        each lost frame on stderr, with the packet nearest it\n"
        "  --version        the module's version\n"
        "CSV on stdout: rate,channel,snr_db,receiver,frames,ok,per (wimax: rate is the profile,\n"
        "e.g. QPSK-3/4)");
}

template <typename T>
std::vector<T> split(const std::string& s)
{
    std::vector<T> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
        std::stringstream is(item);
        T v;
        is >> v;
        out.push_back(v);
    }
    return out;
}

options parse(int argc, char** argv)
{
    using namespace gpuofdm_apps;
    options o;
    parse_cli(
        argc, argv,
        {
            value("--device", o.device),
            value("--standard", o.standard),
            custom("--profiles",
                   [&o](const std::string& v) {
                       o.profiles = parse_number_list<int>("--profiles", v);
                   }),
            custom("--rates",
                   [&o](const std::string& v) { o.rates = parse_number_list<int>("--rates", v); }),
            custom("--channels",
                   [&o](const std::string& v) { o.channels = split<std::string>(v); }),
            value("--frames", o.frames),
            value("--len", o.len),
            value("--cfo-max", o.cfo_max_hz),
            value("--points", o.points),
            value("--step", o.step_db),
            flag("--verbose", o.verbose),
            flag("--diagnose", o.diagnose),
            value("--threshold", o.threshold),
            value("--channel-taps", o.channel_taps),
            value("--seed", o.seed),
        },
        usage, "gpuofdm_per");
    if (o.frames < 1 || o.len < 5 || o.len > 4095 || o.points < 1 || !(o.step_db > 0))
        throw std::invalid_argument("--frames >= 1, --len 5..4095, --points >= 1, --step > 0");
    if (o.standard != "wifi" && o.standard != "wimax")
        throw std::invalid_argument("--standard: wifi or wimax, got " + o.standard);
    for (int p : o.profiles)
        if (p < 0 || p > 6)
            throw std::invalid_argument("--profiles: Rate_IDs 0 .. 6, got " + std::to_string(p));
    for (const auto& c : o.channels)
        if (c != "awgn" && c != "multipath")
            throw std::invalid_argument("--channels: unknown channel " + c);
    return o;
}

//! Where the curve of a rate starts (dB): a few dB below its PER 1% point in AWGN.
double first_snr(int rate, bool multipath)
{
    double s = 0;
    switch (rate) {
    case 6:
        s = -1;
        break;
    case 9:
        s = 1;
        break;
    case 12:
        s = 2;
        break;
    case 18:
        s = 4;
        break;
    case 24:
        s = 7;
        break;
    case 36:
        s = 10;
        break;
    case 48:
        s = 14;
        break;
    default:
        s = 15;
        break;
    }
    return s + (multipath ? 3 : 0);
}

std::vector<cfloat> channel_taps(bool multipath)
{
    if (!multipath)
        return { cfloat(1, 0) };
    std::vector<cfloat> t{ cfloat(0.85f, 0.0f), std::polar(0.42f, 2.0f), std::polar(0.30f, -1.0f) };
    float p = 0;
    for (auto v : t)
        p += std::norm(v);
    for (auto& v : t)
        v /= std::sqrt(p);
    return t;
}

//! Which of the sent payloads came back, each once, among the packets \p good accepts
//! (\p payload gives a packet's octets).
template <typename P, typename Good, typename Payload>
std::vector<bool> received(const std::vector<std::vector<uint8_t>>& sent,
                           const std::vector<P>& got,
                           Good good,
                           Payload payload)
{
    std::vector<bool> seen(sent.size(), false);
    for (const auto& p : got) {
        if (!good(p))
            continue;
        for (size_t f = 0; f < sent.size(); f++)
            if (!seen[f] && payload(p) == sent[f]) {
                seen[f] = true;
                break;
            }
    }
    return seen;
}

//! The packet whose start (\p start of it) is nearest \p want, or nullptr.
template <typename P, typename Start>
const P* nearest(const std::vector<P>& got, long want, Start start)
{
    const P* near = nullptr;
    for (const auto& p : got)
        if (!near || std::labs(long(start(p)) - want) < std::labs(long(start(*near)) - want))
            near = &p;
    return near;
}

struct frame_truth {
    size_t start;
    double cfo; //!< rad/sample
    double phase;
};

/*!
 * Where the curve of an 802.16 profile starts (dB): about 2.5 dB below its PER 1% point
 * (1000-octet bursts; the waterfalls are steep, 1.5 .. 2 dB from PER 1 to 1%).
 */
double first_snr_wimax(int rate_id, bool multipath)
{
    static const double awgn[7] = { -1.5, 3.0, 4.5, 8.0, 11.0, 14.5, 16.5 };
    static const double taps3[7] = { 1.5, 5.0, 8.0, 10.5, 14.0, 17.5, 19.5 };
    return (multipath ? taps3 : awgn)[rate_id];
}

//! The profile's name for the CSV: "QPSK 3/4" -> "QPSK-3/4".
std::string profile_label(int rate_id)
{
    std::string s = core::wimax_profile(rate_id).name;
    std::replace(s.begin(), s.end(), ' ', '-');
    return s;
}

/*!
 * The 802.16 OFDM-256 curves: bursts of o.len data octets (the last RS block padded with
 * 0xFF, 8.3.3.1, so every profile carries the same octets), long downlink preamble, CP 1/4,
 * unit power over preamble and data (scale 256 / sqrt(200)); the same taps as for 802.11a
 * (in samples, here 250 ns apart), CFO uniform within +-cfo_max at wimax_fs, random phase.
 * The reference gets the true start, CFO and the channel as the front end sees it.
 */
int run_wimax(const options& o, const core::device_spec& dev)
{
    const double scale = 256.0 / std::sqrt(200.0);
    core::wimax_tx_params tp;
    tp.scale = float(scale);
    tp.pad = true;
    tp.max_bursts_per_batch = 256;
    auto tx = core::make_wimax_tx(tp, dev);
    std::fprintf(stderr,
                 "gpuofdm_per (802.16) on %s: %d bursts of %d octets a point, CFO within "
                 "+-%.0f Hz at %.0f sps\n",
                 dev.to_string().c_str(), o.frames, o.len, o.cfo_max_hz, wimax_fs);
    std::printf("rate,channel,snr_db,receiver,frames,ok,per\n");
    std::mt19937 rng(o.seed);
    const auto t0 = std::chrono::steady_clock::now();

    for (const auto& ch : o.channels) {
        const bool mp = ch == "multipath";
        const auto taps = channel_taps(mp);
        for (int rate_id : o.profiles) {
            core::wimax_rx_params rp;
            rp.rate_id = rate_id;
            rp.burst_bytes = size_t(o.len);
            rp.pad = true;
            rp.batch_samples = size_t(1) << 22;
            if (o.channel_taps >= 0)
                rp.channel_taps = o.channel_taps;
            if (o.threshold >= 0)
                rp.sync.threshold = o.threshold;
            auto rx = core::make_wimax_receiver(rp, dev);
            const std::string label = profile_label(rate_id);
            const size_t burst_len = tx->burst_samples(size_t(o.len), rate_id);
            const size_t stride = burst_len + gap;
            const size_t per_buffer = std::min<size_t>(
                tp.max_bursts_per_batch,
                std::max<size_t>(1, (rx->batch_samples() - lead - taps.size()) / stride));
            // The channel as the front end sees it, apart from the burst's phase: derotation
            // starts at the burst's start, and every FFT window starts fft_backoff samples
            // before a useful part, so Y_k = scale e^{j phase} sum_t h_t e^{-j 2pi k
            // (backoff + t) / 256} X_k (FFT unscaled, X unit power).
            std::vector<cfloat> h0(256);
            for (int k = 0; k < 256; k++) {
                std::complex<double> sum = 0;
                for (size_t t = 0; t < taps.size(); t++)
                    sum += std::complex<double>(taps[t]) *
                           std::polar(1.0, -two_pi * k * double(rp.fft_backoff + int(t)) / 256.0);
                h0[size_t(k)] = cfloat(scale * sum);
            }
            if (o.verbose)
                std::fprintf(stderr, "  %s: %zu RS-CC blocks, %zu samples a burst\n", label.c_str(),
                             rx->burst_symbols(), burst_len);
            for (int pt = 0; pt < o.points; pt++) {
                const double snr = first_snr_wimax(rate_id, mp) + pt * o.step_db;
                const float n0 = float(std::pow(10.0, -snr / 10.0));
                size_t ok_real = 0, ok_ref = 0, ok_timing = 0;
                for (int done = 0; done < o.frames;) {
                    const size_t n = std::min<size_t>(per_buffer, size_t(o.frames - done));
                    std::vector<std::vector<uint8_t>> data(n);
                    std::vector<core::wimax_burst_request> req(n);
                    for (size_t f = 0; f < n; f++) {
                        data[f].resize(size_t(o.len));
                        for (auto& b : data[f])
                            b = uint8_t(rng());
                        req[f].data = data[f].data();
                        req[f].len = data[f].size();
                        req[f].rate_id = rate_id;
                        req[f].seed = rp.seed;
                    }
                    std::vector<cfloat> clean(tx->total_samples(req));
                    tx->process(req, clean.data());
                    std::vector<cfloat> x(lead + n * stride, cfloat(0, 0));
                    std::uniform_real_distribution<double> u(-1.0, 1.0);
                    std::vector<frame_truth> truth(n);
                    std::vector<core::wimax_rx_known> known(n);
                    std::vector<std::vector<cfloat>> h(n, std::vector<cfloat>(256));
                    for (size_t f = 0; f < n; f++) {
                        truth[f] = { lead + f * stride, two_pi * o.cfo_max_hz / wimax_fs * u(rng),
                                     two_pi * u(rng) };
                        const cfloat* s = clean.data() + f * burst_len;
                        std::complex<double> rot = std::polar(1.0, truth[f].phase);
                        const std::complex<double> step = std::polar(1.0, truth[f].cfo);
                        for (size_t i = 0; i < burst_len + taps.size() - 1; i++) {
                            cfloat acc = 0;
                            for (size_t t = 0; t < taps.size(); t++)
                                if (i >= t && i - t < burst_len)
                                    acc += taps[t] * s[i - t];
                            x[truth[f].start + i] = acc * cfloat(rot);
                            rot *= step;
                        }
                        const cfloat ph = cfloat(std::polar(1.0, truth[f].phase));
                        for (size_t k = 0; k < 256; k++)
                            h[f][k] = ph * h0[k];
                        known[f].start = truth[f].start;
                        known[f].cfo = float(truth[f].cfo);
                        known[f].channel = h[f].data();
                        known[f].noise_var = 256.0f * n0;
                    }
                    std::normal_distribution<float> g(0.0f, std::sqrt(n0 / 2));
                    for (auto& v : x)
                        v += cfloat(g(rng), g(rng));
                    auto count = [&](const std::vector<core::wimax_rx_burst>& got,
                                     const char* who) {
                        const auto seen = received(
                            data, got, [](const core::wimax_rx_burst& p) { return p.ok; },
                            [](const core::wimax_rx_burst& p) -> const auto& { return p.payload; });
                        const size_t ok = size_t(std::count(seen.begin(), seen.end(), true));
                        if (o.verbose)
                            for (size_t f = 0; f < n; f++) {
                                if (seen[f])
                                    continue;
                                const long want = long(truth[f].start);
                                const core::wimax_rx_burst* near =
                                    nearest(got, want,
                                            [](const core::wimax_rx_burst& p) { return p.start; });
                                std::fprintf(stderr,
                                             "lost (%s): %s snr %.1f burst %zu start %ld: ", who,
                                             label.c_str(), snr, f, want);
                                if (!near)
                                    std::fprintf(stderr, "no burst\n");
                                else
                                    std::fprintf(
                                        stderr,
                                        "nearest start %+ld cfo err %.0f Hz snr_est %.1f rs "
                                        "corrected %zu uncorrectable %zu/%zu coded errors %.4f "
                                        "ok %d metric %.2f preamble_metric %.2f\n",
                                        long(near->start) - want,
                                        double(near->cfo - known[f].cfo) * wimax_fs / two_pi,
                                        near->snr_db, near->rs_corrected, near->rs_uncorrectable,
                                        near->rs_blocks,
                                        double(near->coded_errors) /
                                            double(std::max<size_t>(1, near->coded_bits)),
                                        int(near->ok), near->sync_metric, near->preamble_metric);
                            }
                        return ok;
                    };
                    ok_real += count(rx->decode_buffer(x.data(), x.size()), "real");
                    ok_ref +=
                        count(rx->decode_buffer(x.data(), x.size(), known.data(), n), "reference");
                    if (o.diagnose) {
                        auto k2 = known;
                        for (auto& k : k2)
                            k.channel = nullptr;
                        ok_timing += count(rx->decode_buffer(x.data(), x.size(), k2.data(), n),
                                           "true timing/cfo");
                    }
                    done += int(n);
                }
                const double f = double(o.frames);
                std::printf("%s,%s,%.2f,real,%d,%zu,%.6f\n", label.c_str(), ch.c_str(), snr,
                            o.frames, ok_real, 1.0 - double(ok_real) / f);
                std::printf("%s,%s,%.2f,reference,%d,%zu,%.6f\n", label.c_str(), ch.c_str(), snr,
                            o.frames, ok_ref, 1.0 - double(ok_ref) / f);
                if (o.diagnose)
                    std::printf("%s,%s,%.2f,true_timing_cfo,%d,%zu,%.6f\n", label.c_str(),
                                ch.c_str(), snr, o.frames, ok_timing, 1.0 - double(ok_timing) / f);
                std::fflush(stdout);
            }
            std::fprintf(
                stderr, "  %s %s done (%.0f s)\n", ch.c_str(), label.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    try {
        const options o = parse(argc, argv);
        const core::device_spec dev = core::resolve_device(o.device);
        if (o.standard == "wimax")
            return run_wimax(o, dev);
        core::wifi_tx_params tp;
        tp.scale = float(64.0 / std::sqrt(52.0)); // unit power over SIGNAL and DATA
        tp.max_frames_per_batch = 256;
        auto tx = core::make_wifi_tx(tp, dev);
        core::wifi_rx_params rp;
        rp.batch_samples = size_t(1) << 24;
        rp.decode.max_frames_per_batch = 1024;
        rp.decode.max_symbols_per_batch = size_t(1) << 18;
        if (o.channel_taps >= 0)
            rp.channel_taps = o.channel_taps;
        if (o.threshold >= 0)
            rp.sync.threshold = o.threshold;
        auto rx = core::make_wifi_receiver(rp, dev);
        std::fprintf(stderr, "gpuofdm_per on %s: %d frames of %d octets a point\n",
                     dev.to_string().c_str(), o.frames, o.len);
        std::printf("rate,channel,snr_db,receiver,frames,ok,per\n");
        std::mt19937 rng(o.seed);
        const auto t0 = std::chrono::steady_clock::now();

        for (const auto& ch : o.channels) {
            const bool mp = ch == "multipath";
            const auto taps = channel_taps(mp);
            for (int rate : o.rates) {
                const size_t frame_len = tx->frame_samples(size_t(o.len), rate);
                const size_t stride = frame_len + gap;
                // As many frames a buffer as the receiver's batch holds.
                const size_t per_buffer =
                    std::max<size_t>(1, (rp.batch_samples - lead - taps.size()) / stride);
                for (int pt = 0; pt < o.points; pt++) {
                    const double snr = first_snr(rate, mp) + pt * o.step_db;
                    const float n0 = float(std::pow(10.0, -snr / 10.0));
                    size_t ok_real = 0, ok_ref = 0, ok_timing = 0;
                    for (int done = 0; done < o.frames;) {
                        const size_t n = std::min<size_t>(per_buffer, size_t(o.frames - done));
                        std::vector<std::vector<uint8_t>> psdu(n);
                        std::vector<core::wifi_frame_request> req(n);
                        for (size_t f = 0; f < n; f++) {
                            psdu[f].resize(size_t(o.len));
                            for (auto& b : psdu[f])
                                b = uint8_t(rng());
                            const uint32_t c = core::crc32_ieee(psdu[f].data(), psdu[f].size() - 4);
                            for (int i = 0; i < 4; i++)
                                psdu[f][psdu[f].size() - 4 + size_t(i)] = uint8_t(c >> (8 * i));
                            req[f].psdu = psdu[f].data();
                            req[f].len = psdu[f].size();
                            req[f].rate_mbps = rate;
                            req[f].seed = 1 + int(rng() % 127);
                        }
                        std::vector<cfloat> clean(tx->total_samples(req));
                        tx->process(req, clean.data());
                        // The buffer: each frame through the taps, its own CFO and phase.
                        std::vector<cfloat> x(lead + n * stride, cfloat(0, 0));
                        std::uniform_real_distribution<double> u(-1.0, 1.0);
                        std::vector<frame_truth> truth(n);
                        std::vector<core::wifi_rx_known> known(n);
                        std::vector<std::vector<cfloat>> h(n, std::vector<cfloat>(64));
                        for (size_t f = 0; f < n; f++) {
                            truth[f] = { lead + f * stride, two_pi * o.cfo_max_hz / 20e6 * u(rng),
                                         two_pi * u(rng) };
                            const cfloat* s = clean.data() + f * frame_len;
                            std::complex<double> rot = std::polar(1.0, truth[f].phase);
                            const std::complex<double> step = std::polar(1.0, truth[f].cfo);
                            for (size_t i = 0; i < frame_len + taps.size() - 1; i++) {
                                cfloat acc = 0;
                                for (size_t t = 0; t < taps.size(); t++)
                                    if (i >= t && i - t < frame_len)
                                        acc += taps[t] * s[i - t];
                                x[truth[f].start + i] = acc * cfloat(rot);
                                rot *= step;
                            }
                            // The channel as the front end sees it after derotating from T1:
                            // H_k = scale e^{j(cfo 192 + phase)} e^{-j 2pi k b / 64} sum_t h_t
                            // e^{-j 2pi k t / 64} (b: the FFT backoff).
                            const double th = truth[f].cfo * 192.0 + truth[f].phase;
                            for (int k = 0; k < 64; k++) {
                                std::complex<double> sum = 0;
                                for (size_t t = 0; t < taps.size(); t++)
                                    sum += std::complex<double>(taps[t]) *
                                           std::polar(1.0, -two_pi * k * double(t) / 64.0);
                                h[f][size_t(k)] = cfloat(
                                    double(tp.scale) * std::polar(1.0, th) *
                                    std::polar(1.0, -two_pi * k * rp.fft_backoff / 64.0) * sum);
                            }
                            known[f].ltf_start = truth[f].start + 192;
                            known[f].cfo = float(truth[f].cfo);
                            known[f].channel = h[f].data();
                            known[f].noise_var = 64.0f * n0;
                        }
                        std::normal_distribution<float> g(0.0f, std::sqrt(n0 / 2));
                        for (auto& v : x)
                            v += cfloat(g(rng), g(rng));
                        auto count = [&](const std::vector<core::wifi_rx_packet>& got) {
                            const auto seen = received(
                                psdu, got,
                                [](const core::wifi_rx_packet& p) { return p.data.fcs_ok; },
                                [](const core::wifi_rx_packet& p) -> const auto& {
                                    return p.data.psdu;
                                });
                            const size_t ok = size_t(std::count(seen.begin(), seen.end(), true));
                            if (o.verbose)
                                for (size_t f = 0; f < n; f++) {
                                    if (seen[f])
                                        continue;
                                    // The packet nearest the lost frame, as the receiver saw it.
                                    const long want = long(known[f].ltf_start);
                                    const core::wifi_rx_packet* near =
                                        nearest(got, want, [](const core::wifi_rx_packet& p) {
                                            return p.ltf_start;
                                        });
                                    std::fprintf(stderr,
                                                 "lost: rate %d snr %.1f frame %zu ltf %ld: ", rate,
                                                 snr, f, want);
                                    if (!near)
                                        std::fprintf(stderr, "no packet\n");
                                    else
                                        std::fprintf(stderr,
                                                     "nearest ltf %+ld cfo err %.2e snr_est %.1f "
                                                     "signal %d rate %d len %zu fcs %d metric "
                                                     "%.2f ltf_metric %.2f\n",
                                                     long(near->ltf_start) - want,
                                                     near->cfo - known[f].cfo, near->snr_db,
                                                     int(near->signal.ok), near->signal.rate_mbps,
                                                     near->signal.len, int(near->data.fcs_ok),
                                                     near->sync_metric, near->ltf_metric);
                                }
                            return ok;
                        };
                        ok_real += count(rx->decode_buffer(x.data(), x.size()));
                        ok_ref += count(rx->decode_buffer(x.data(), x.size(), known.data(), n));
                        if (o.diagnose) {
                            // True timing and CFO, the channel estimated.
                            auto k2 = known;
                            for (auto& k : k2)
                                k.channel = nullptr;
                            ok_timing += count(rx->decode_buffer(x.data(), x.size(), k2.data(), n));
                        }
                        done += int(n);
                    }
                    const double f = double(o.frames);
                    std::printf("%d,%s,%.2f,real,%d,%zu,%.6f\n", rate, ch.c_str(), snr, o.frames,
                                ok_real, 1.0 - double(ok_real) / f);
                    std::printf("%d,%s,%.2f,reference,%d,%zu,%.6f\n", rate, ch.c_str(), snr,
                                o.frames, ok_ref, 1.0 - double(ok_ref) / f);
                    if (o.diagnose)
                        std::printf("%d,%s,%.2f,true_timing_cfo,%d,%zu,%.6f\n", rate, ch.c_str(),
                                    snr, o.frames, ok_timing, 1.0 - double(ok_timing) / f);
                    std::fflush(stdout);
                }
                std::fprintf(
                    stderr, "  %s %d Mb/s done (%.0f s)\n", ch.c_str(), rate,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            }
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuofdm_per: %s\n", e.what());
        return 2;
    }
}
