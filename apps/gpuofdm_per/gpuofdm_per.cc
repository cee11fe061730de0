/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gpuofdm_per: 802.11a packet error rate against SNR, core level (no GNU Radio, so it runs
// on a GPU host as it is). For each rate, channel and SNR: frames of random PSDUs from the
// core transmitter, each through the channel (3 taps or 1, a random CFO within
// +-cfo_max and a random phase, complex AWGN), decoded twice: by the real receiver (its
// own sync, CFO and channel estimates) and by the same receiver handed the true timing,
// CFO and channel (the reference). Prints one CSV line a point; scripts/per_curves.py
// plots them and reads off the SNR at PER 1%.

#include "wifi_rx.h"
#include "wifi_rx_bits.h"
#include "wifi_tx.h"

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
constexpr size_t gap = 400;  //!< zeros (plus noise) between frames
constexpr size_t lead = 500; //!< before the first frame

struct options {
    std::string device = "auto";
    std::vector<int> rates{ 6, 9, 12, 18, 24, 36, 48, 54 };
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
        "gpuofdm_per: 802.11a PER vs SNR, real receiver and reference (true timing, CFO, channel)\n"
        "  --device S       auto (default), cpu, cuda, cuda:N\n"
        "  --rates LIST     Mb/s, comma separated (all eight)\n"
        "  --channels LIST  awgn, multipath (3 taps: 0.85, 0.42 e^{j2}, 0.30 e^{-j1}) (both)\n"
        "  --frames N       frames per point (400)\n"
        "  --len N          PSDU octets, FCS included (1000)\n"
        "  --cfo-max HZ     CFO uniform in +-HZ at 20 Msps, per frame (100e3)\n"
        "  --points N       SNR points per curve (12), from a start per rate\n"
        "  --step DB        SNR step (1)\n"
        "  --seed N         random seed (1)\n"
        "  --channel-taps N the receiver's channel_taps (its default)\n"
        "  --threshold T    the synchronizer's detection threshold (its default)\n"
        "  --diagnose       also a receiver with true timing and CFO, channel estimated\n"
        "  --verbose        each lost frame on stderr, with the packet nearest it\n"
        "CSV on stdout: rate,channel,snr_db,receiver,frames,ok,per");
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
    options o;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc)
                throw std::invalid_argument(a + ": needs a value");
            return argv[++i];
        };
        if (a == "--device")
            o.device = next();
        else if (a == "--rates")
            o.rates = split<int>(next());
        else if (a == "--channels")
            o.channels = split<std::string>(next());
        else if (a == "--frames")
            o.frames = std::stoi(next());
        else if (a == "--len")
            o.len = std::stoi(next());
        else if (a == "--cfo-max")
            o.cfo_max_hz = std::stod(next());
        else if (a == "--points")
            o.points = std::stoi(next());
        else if (a == "--step")
            o.step_db = std::stod(next());
        else if (a == "--verbose")
            o.verbose = true;
        else if (a == "--diagnose")
            o.diagnose = true;
        else if (a == "--threshold")
            o.threshold = std::stof(next());
        else if (a == "--channel-taps")
            o.channel_taps = std::stoi(next());
        else if (a == "--seed")
            o.seed = uint32_t(std::stoul(next()));
        else if (a == "--help" || a == "-h") {
            usage();
            std::exit(0);
        } else
            throw std::invalid_argument("unknown option " + a + " (try --help)");
    }
    if (o.frames < 1 || o.len < 5 || o.len > 4095 || o.points < 1 || !(o.step_db > 0))
        throw std::invalid_argument("--frames >= 1, --len 5..4095, --points >= 1, --step > 0");
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
    case 6: s = -1; break;
    case 9: s = 1; break;
    case 12: s = 2; break;
    case 18: s = 4; break;
    case 24: s = 7; break;
    case 36: s = 10; break;
    case 48: s = 14; break;
    default: s = 15; break;
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

struct frame_truth {
    size_t start;
    double cfo; //!< rad/sample
    double phase;
};

} // namespace

int main(int argc, char** argv)
{
    try {
        const options o = parse(argc, argv);
        const core::device_spec dev = core::resolve_device(o.device);
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
                            size_t ok = 0;
                            std::vector<bool> seen(n, false);
                            for (const auto& p : got) {
                                if (!p.data.fcs_ok)
                                    continue;
                                for (size_t f = 0; f < n; f++)
                                    if (!seen[f] && p.data.psdu == psdu[f]) {
                                        seen[f] = true;
                                        ok++;
                                        break;
                                    }
                            }
                            if (o.verbose)
                                for (size_t f = 0; f < n; f++) {
                                    if (seen[f])
                                        continue;
                                    // The packet nearest the lost frame, as the receiver saw it.
                                    const long want = long(known[f].ltf_start);
                                    const core::wifi_rx_packet* near = nullptr;
                                    for (const auto& p : got)
                                        if (!near || std::labs(long(p.ltf_start) - want) <
                                                         std::labs(long(near->ltf_start) - want))
                                            near = &p;
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
                std::fprintf(stderr, "  %s %d Mb/s done (%.0f s)\n", ch.c_str(), rate,
                             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                                 .count());
            }
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuofdm_per: %s\n", e.what());
        return 2;
    }
}
