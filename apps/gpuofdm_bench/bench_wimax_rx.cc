/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// 802.16 receiver rows (--stages wimax_rx): the core wimax_receiver on a recorded stream of
// 500-octet 64-QAM 3/4 bursts (CP 1/4, 4 Msps: the 3.5 MHz channel), 400 to 1400 samples
// apart, 33 dB SNR, fed in 65536-sample pieces as a block's work() would, then finish();
// CPU twin once, CUDA best of 3 after a warm-up; in Msamples/s and as a multiple of real
// time at 4 Msps. CUDA must decode the CPU twin's bursts (same start and payload).
// Flowgraph level (where GNU Radio is built, unless --no-flowgraph): the same stream as a
// file, file_source -> wimax_rx block (PDUs to message_debug), the CPU twin on one copy,
// CUDA on --rx-repeat copies; beside them file_source -> null_sink over the same file,
// GNU Radio's ceiling for this harness.

#include "bench.h"

#include "runtime/device.h"
#include "wimax/wimax_rx.h"
#include "wimax/wimax_tx.h"

#ifdef GPUOFDM_BENCH_FLOWGRAPH
#include <gnuradio/blocks/file_source.h>
#include <gnuradio/blocks/message_debug.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/gpuofdm/wimax_rx.h>
#include <gnuradio/top_block.h>
#include <unistd.h>
#endif

#include <complex>
#include <cstdio>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>

namespace gpuofdm_bench {

namespace {

namespace core = gr::gpuofdm::core;
using core::cfloat;

constexpr int profile = 6; //!< 64-QAM 3/4
constexpr size_t burst_bytes = 500;
constexpr double air_rate = 4e6;
constexpr size_t piece = 65536;

std::vector<cfloat> make_bursts(size_t n)
{
    core::wimax_tx_params tp;
    tp.scale = float(256.0 / std::sqrt(200.0)); // unit power over the data symbols
    tp.pad = true;
    auto tx = core::make_wimax_tx(tp, core::device_spec{});
    std::mt19937 rng(2004);
    std::vector<uint8_t> data(burst_bytes);
    core::wimax_burst_request r{ data.data(), burst_bytes, profile, core::wimax_default_seed };
    const size_t per = tx->total_samples(&r, 1);
    std::vector<cfloat> x(500 + n * (per + 1400) + 500, cfloat(0, 0));
    size_t at = 500;
    for (size_t i = 0; i < n; i++) {
        for (auto& b : data)
            b = uint8_t(rng());
        tx->process(&r, 1, x.data() + at);
        at += per + 400 + rng() % 1001;
    }
    x.resize(at + 500);
    std::normal_distribution<float> g(0.0f, std::sqrt(5e-4f / 2)); // 33 dB
    for (auto& v : x)
        v += cfloat(g(rng), g(rng));
    return x;
}

std::vector<core::wimax_rx_burst> run_once(core::wimax_receiver& rx,
                                           const std::vector<cfloat>& x,
                                           double& seconds,
                                           std::string* split = nullptr)
{
    std::vector<core::wimax_rx_burst> got;
    const core::wimax_rx_stats s0 = rx.stats();
    const auto t0 = clock::now();
    for (size_t at = 0; at < x.size(); at += piece) {
        auto p = rx.process(x.data() + at, std::min(piece, x.size() - at));
        got.insert(got.end(), std::make_move_iterator(p.begin()), std::make_move_iterator(p.end()));
    }
    auto p = rx.finish();
    got.insert(got.end(), p.begin(), p.end());
    seconds = seconds_since(t0);
    if (split) {
        const core::wimax_rx_stats& s1 = rx.stats();
        char buf[200];
        std::snprintf(buf, sizeof(buf),
                      "input %.0f%%, sync %.0f%%, front end and chain to the decoded bits "
                      "%.0f%%, finishing (coded errors, RS decoding, derandomizing) %.0f%%",
                      100 * (s1.t_input - s0.t_input) / seconds,
                      100 * (s1.t_sync - s0.t_sync) / seconds,
                      100 * (s1.t_decode - s0.t_decode) / seconds,
                      100 * (s1.t_finish - s0.t_finish) / seconds);
        *split = buf;
    }
    return got;
}

size_t count_ok(const std::vector<core::wimax_rx_burst>& b)
{
    size_t n = 0;
    for (const auto& v : b)
        n += v.ok ? 1 : 0;
    return n;
}

bool same_bursts(const std::vector<core::wimax_rx_burst>& a,
                 const std::vector<core::wimax_rx_burst>& b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); i++)
        if (a[i].start != b[i].start || a[i].ok != b[i].ok || a[i].payload != b[i].payload)
            return false;
    return true;
}

row wimax_row(const std::string& impl,
              const std::string& dev,
              size_t batch,
              size_t ok,
              double seconds,
              size_t samples)
{
    return receiver_row("core", "wimax_rx", impl, dev, "64-QAM 3/4 500B", batch, ok, burst_bytes,
                        seconds, samples);
}

void print_wimax_row(const row& r)
{
    std::printf("%-9s %-9s %-7s %9zu %8llu %9.2f %9.2f %7.2f %7s\n", r.stage.c_str(),
                r.impl.c_str(), r.device.c_str(), r.batch,
                static_cast<unsigned long long>(r.iterations), r.msps, r.mbit_s,
                r.msps * 1e6 / air_rate,
                std::isnan(r.ratio) ? "-" : std::to_string(r.ratio).substr(0, 5).c_str());
    std::fflush(stdout);
}

#ifdef GPUOFDM_BENCH_FLOWGRAPH
/*!
 * file_source -> wimax_rx on \p device (its PDUs to message_debug), or with \p device
 * empty file_source -> null_sink; the row, bursts counted by the block.
 */
row run_wimax_flowgraph(const std::string& device,
                        size_t batch,
                        const std::string& file,
                        size_t samples,
                        size_t bursts_sent,
                        std::vector<std::string>& notes)
{
    auto src = gr::blocks::file_source::make(sizeof(gr_complex), file.c_str(), false);
    auto tb = gr::make_top_block("bench_wimax_rx");
    gr::gpuofdm::wimax_rx::sptr rx;
    auto store = gr::blocks::message_debug::make();
    if (device.empty()) {
        tb->connect(src, 0, gr::blocks::null_sink::make(sizeof(gr_complex)), 0);
    } else {
        rx = gr::gpuofdm::wimax_rx::make(profile, int(burst_bytes), 4, false, true,
                                         core::wimax_default_seed, false, air_rate, 0, device);
        tb->connect(src, 0, rx, 0);
        tb->msg_connect(rx, "pdus", store, "store");
    }
    const auto t0 = clock::now();
    tb->run();
    const double secs = seconds_since(t0);
    const size_t ok = rx ? size_t(rx->bursts_received()) : 0;
    row r = rx ? wimax_row(device == "cpu" ? "cpu twin" : "gpuofdm", rx->device(), batch, ok, secs,
                           samples)
               : wimax_row("source only", "cpu", 0, 0, secs, samples);
    r.level = "flowgraph";
    if (!rx)
        r.stage = "file->null";
    r.config = rx ? "file_source -> wimax_rx (PDUs to message_debug)"
                  : "file_source -> null_sink, no receiver";
    char buf[200];
    std::snprintf(buf, sizeof(buf), "wimax_rx flowgraph %s: %zu of %zu bursts, %.3f s (%s)",
                  r.device.c_str(), ok, rx ? bursts_sent : size_t(0), secs, r.config.c_str());
    notes.push_back(buf);
    return r;
}
#endif

//! The flowgraph rows (below), with the blocks' batch (the core receiver's default).
void run_wimax_rx_flowgraph(const options& o,
                            bool cuda_usable,
                            size_t batch,
                            std::vector<row>& rows,
                            std::vector<std::string>& notes);

} // namespace

void run_wimax_rx(const options& o,
                  bool cuda_usable,
                  std::vector<row>& rows,
                  std::vector<std::string>& notes)
{
    const size_t n = o.quick ? 50 : 2000;
    const auto x = make_bursts(n);
    std::printf("\nReceiver wimax_rx (--stages wimax_rx), core level: %zu bursts of 500 octets, "
                "64-QAM 3/4, CP 1/4, 33 dB.\nMsps = samples per second end to end; x RT = "
                "Msps / 4; ratio = Msps / the CPU twin's.\n",
                n);
    std::printf("%-9s %-9s %-7s %9s %8s %9s %9s %7s %7s\n", "stage", "impl", "device", "batch",
                "bursts", "Msps", "Mbit/s", "x RT", "ratio");
    core::wimax_rx_params p;
    p.rate_id = profile;
    p.burst_bytes = burst_bytes;
    p.pad = true;
    auto cpu_rx = core::make_wimax_receiver(p, core::device_spec{});
    double secs = 0;
    std::string cpu_split;
    const auto cpu = run_once(*cpu_rx, x, secs, &cpu_split);
    row cr = wimax_row("cpu twin", "cpu", cpu_rx->batch_samples(), count_ok(cpu), secs, x.size());
    cr.ratio = 1.0;
    rows.push_back(cr);
    print_wimax_row(cr);
    notes.push_back("wimax_rx: CPU twin time: " + cpu_split);
    if (cr.iterations != n)
        notes.push_back("wimax_rx: the CPU twin decoded " + std::to_string(cr.iterations) + " of " +
                        std::to_string(n) + " bursts");
    if (!cuda_usable) {
        notes.push_back("wimax_rx: CUDA row skipped (no usable GPU)");
        run_wimax_rx_flowgraph(o, false, cpu_rx->batch_samples(), rows, notes);
        return;
    }
    const core::device_spec dev = core::resolve_device(o.device);
    auto rx = core::make_wimax_receiver(p, dev);
    run_once(*rx, x, secs); // warm-up: plans, first launches
    double best = 1e30;
    std::vector<core::wimax_rx_burst> got;
    std::string split;
    for (int rep = 0; rep < 3; rep++) {
        std::string sp;
        auto g = run_once(*rx, x, secs, &sp);
        if (secs < best) {
            best = secs;
            got = std::move(g);
            split = sp;
        }
    }
    row r = wimax_row("cuda", dev.to_string(), rx->batch_samples(), count_ok(got), best, x.size());
    r.ratio = r.msps / cr.msps;
    r.equals_cpu_twin = same_bursts(got, cpu) ? 1 : 0;
    rows.push_back(r);
    print_wimax_row(r);
    notes.push_back(std::string("wimax_rx: CUDA decodes the same bursts as the CPU twin: ") +
                    (r.equals_cpu_twin ? "yes" : "NO") + "; time: " + split);
    run_wimax_rx_flowgraph(o, true, cpu_rx->batch_samples(), rows, notes);
}

namespace {

void run_wimax_rx_flowgraph(const options& o,
                            bool cuda_usable,
                            size_t batch,
                            std::vector<row>& rows,
                            std::vector<std::string>& notes)
{
#ifdef GPUOFDM_BENCH_FLOWGRAPH
    if (!o.flowgraph)
        return;
    const size_t n = o.quick ? 50 : 2000;
    const auto x = make_bursts(n);
    std::printf("\nReceiver wimax_rx, flowgraph level: the same stream as a file; the CPU twin "
                "reads it once, CUDA %d times over; file->null: file_source -> null_sink over "
                "the last row's file (the harness's ceiling). ratio = Msps / the CPU twin's.\n",
                cuda_usable ? std::max(1, o.rx_repeat) : 1);
    std::printf("%-9s %-9s %-7s %9s %8s %9s %9s %7s %7s\n", "stage", "impl", "device", "batch",
                "bursts", "Msps", "Mbit/s", "x RT", "ratio");
    const std::string once = write_recording("gpuofdm_bench_wimax_rx", x, 1);
    row c = run_wimax_flowgraph("cpu", batch, once, x.size(), n, notes);
    c.ratio = 1.0;
    rows.push_back(c);
    print_wimax_row(c);
    // CUDA on rx_repeat copies; the ceiling over the file the last receiver row read.
    const int repeat = cuda_usable ? std::max(1, o.rx_repeat) : 1;
    const std::string many =
        repeat > 1 ? write_recording("gpuofdm_bench_wimax_rx", x, repeat) : once;
    const size_t samples = x.size() * size_t(repeat);
    if (cuda_usable) {
        row g = run_wimax_flowgraph(o.device, batch, many, samples, n * size_t(repeat), notes);
        g.ratio = g.msps / c.msps;
        rows.push_back(g);
        print_wimax_row(g);
    } else {
        notes.push_back("wimax_rx: CUDA flowgraph row skipped (no usable GPU)");
    }
    row ceiling = run_wimax_flowgraph("", batch, many, samples, 0, notes);
    ceiling.ratio = ceiling.msps / c.msps;
    rows.push_back(ceiling);
    print_wimax_row(ceiling);
    if (many != once)
        std::remove(many.c_str());
    std::remove(once.c_str());
#else
    (void)o, (void)cuda_usable, (void)batch, (void)rows;
    notes.push_back("wimax_rx: flowgraph rows not built (no GNU Radio)");
#endif
}

} // namespace

} // namespace gpuofdm_bench
