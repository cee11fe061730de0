/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Timing-recovery rows (--stages timing), in input Msamples/s: QPSK, RRC roll-off 0.35,
// 2 samples a symbol, 32 filters, 11*2*32-tap prototype, loop_bw 2*pi/100, Es/N0 15 dB.
// Core level: one channel (sequential and chunked, CPU twin and CUDA; chunked: 8192-
// sample chunks, 2048 warm-up, 2^22 samples a call) and 64, 256, 1024 channels together
// (sequential, 65536 samples a channel a call); "cuda kernel" = the loops' kernel alone
// (CUDA events), "cuda+pcie" = process() with the host transfers, planning and stitching
// (input pageable; "pinned": page-locked). The hybrid mode (the banks' grid on the GPU, the
// loop on the host) with the P = 27, 54, 81 filters of Kim et al.: grid and whole call.
// Flowgraph level (where GNU Radio is built): vector_source -> head -> block -> null_sink,
// GNU Radio's pfb_clock_sync_ccf and symbol_sync_cc (ML detector, PFB matched filter) in
// the same run as ours. ratio = Msps / pfb_clock_sync_ccf's (flowgraph) or the CPU twin's.

#include "bench.h"

#include "runtime/device.h"
#include "timing/pfb_timing_sync.h"
#include "timing/rrc_prototype.h"
#ifdef GPUOFDM_HAVE_CUDA
#include "runtime/cuda_pinned.h"
#endif

#ifdef GPUOFDM_BENCH_FLOWGRAPH
#include <gnuradio/blocks/head.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/digital/pfb_clock_sync_ccf.h>
#include <gnuradio/digital/symbol_sync_cc.h>
#include <gnuradio/top_block.h>
#include <gnuradio/gpuofdm/pfb_timing_sync_ccf.h>
#include <gnuradio/gpuofdm/pfb_timing_sync_multi_ccf.h>
#endif

#include <complex>
#include <cstdio>
#include <random>
#include <string>

namespace gpuofdm_bench {

namespace {

namespace core = gr::gpuofdm::core;
using cfloat = std::complex<float>;

constexpr int sps = 2;
constexpr unsigned nfilts = 32;
constexpr double pi = 3.14159265358979323846;

//! n samples of RRC QPSK at sps, Es/N0 15 dB.
std::vector<cfloat> qpsk(size_t n, unsigned seed)
{
    const auto h = core::rrc_prototype(sps, 11 * sps, sps, 0.35);
    std::mt19937 rng(seed);
    std::normal_distribution<float> g(0.0f, std::sqrt(float(sps) / 31.6f / 2.0f));
    std::vector<cfloat> up(n + h.size(), cfloat(0, 0));
    for (size_t i = 0; i < up.size(); i += sps)
        up[i] = cfloat(rng() & 1 ? 0.7071f : -0.7071f, rng() & 1 ? 0.7071f : -0.7071f);
    std::vector<cfloat> x(n);
    for (size_t i = 0; i < n; i++) {
        cfloat acc(0, 0);
        for (size_t j = 0; j < h.size(); j++)
            acc += up[i + j] * h[j];
        x[i] = acc + cfloat(g(rng), g(rng));
    }
    return x;
}

core::pfb_timing_params timing_params(core::timing_mode mode, size_t channels, size_t per_call)
{
    core::pfb_timing_params p;
    p.sps = sps;
    p.loop_bw = float(2 * pi / 100);
    p.nfilts = nfilts;
    p.taps = core::rrc_prototype(double(sps * nfilts), 11 * sps * nfilts, nfilts, 0.35);
    p.init_phase = nfilts / 2.0f;
    p.mode = mode;
    p.n_channels = channels;
    p.max_input_samples = per_call;
    // One channel in chunks: 512 loops in parallel in a call of 2^22 samples.
    p.chunk_samples = 8192;
    p.warmup_samples = 2048;
    return p;
}

void print_header(const char* text)
{
    std::fputs(text, stdout);
    std::printf("%-9s %-7s %-21s %-8s %-22s %9s %10s %9s %7s\n", "level", "stage", "impl", "device",
                "config", "batch", "Msps", "ms/batch", "ratio");
    std::fflush(stdout);
}

void print(const row& r)
{
    const auto num = [](double v, int prec) {
        if (std::isnan(v))
            return std::string("-");
        char b[32];
        std::snprintf(b, sizeof(b), "%.*f", prec, v);
        return std::string(b);
    };
    std::printf("%-9s %-7s %-21s %-8s %-22s %9zu %10s %9s %7s\n", r.level.c_str(), r.stage.c_str(),
                r.impl.c_str(), r.device.c_str(), r.config.c_str(), r.batch,
                num(r.msps, r.msps < 1 ? 3 : 1).c_str(), num(r.ms_per_batch, 3).c_str(),
                num(r.ratio, 2).c_str());
    std::fflush(stdout);
}

/*!
 * One core row: process() of \p channels channels of \p per_call samples each from fresh
 * states, repeated; kernel = the kernel time of the loops alone.
 */
row core_row(core::pfb_timing_sync& s,
             const std::vector<cfloat>& in,
             size_t channels,
             size_t per_call,
             const std::string& impl,
             const std::string& config,
             double min_seconds,
             bool kernel)
{
    std::vector<size_t> n_in(channels, per_call), n_sym(channels);
    const size_t max_sym = per_call / sps + 64;
    std::vector<cfloat> out(channels * max_sym);
    std::vector<core::pfb_timing_state> st(channels);
    double kernel_s = 0.0;
    uint64_t calls = 0;
    const auto once = [&] {
        std::fill(st.begin(), st.end(), s.initial_state());
        core::pfb_timing_io io;
        io.in = in.data();
        io.in_stride = per_call;
        io.n_in = n_in.data();
        io.out = out.data();
        io.out_stride = max_sym;
        io.max_symbols = max_sym;
        io.n_symbols = n_sym.data();
        io.finish = true;
        s.process(io, st.data());
        kernel_s += s.kernel_seconds();
        calls++;
    };
    const timing t = time_repeated(once, min_seconds, 3);
    row r;
    r.level = "core";
    r.stage = "timing";
    r.impl = impl;
    r.device = s.device().to_string();
    r.config = config;
    r.batch = per_call;
    r.samples = uint64_t(channels * per_call) * t.iterations;
    r.iterations = t.iterations;
    if (kernel) {
        // calls includes the untimed first call: the mean kernel time of a call.
        const double per = kernel_s / double(calls);
        r.seconds = per * double(t.iterations);
        r.ms_per_batch = per * 1e3;
    } else {
        r.seconds = t.seconds;
        r.ms_per_batch = t.median_ms;
    }
    r.msps = double(channels * per_call) / (r.ms_per_batch * 1e-3) / 1e6;
    return r;
}

#ifdef GPUOFDM_BENCH_FLOWGRAPH
//! Wall time of vector_source -> head(n) -> blocks -> null_sink over \p ports parallel ports.
double flowgraph_seconds(const std::vector<cfloat>& x,
                         size_t n,
                         const std::vector<gr::basic_block_sptr>& chain,
                         int ports)
{
    auto tb = gr::make_top_block("gpuofdm_bench_timing");
    auto sink = gr::blocks::null_sink::make(sizeof(gr_complex));
    for (int p = 0; p < ports; p++) {
        auto src = gr::blocks::vector_source_c::make(x, true);
        auto head = gr::blocks::head::make(sizeof(gr_complex), n);
        tb->connect(src, 0, head, 0);
        if (chain.empty()) {
            tb->connect(head, 0, gr::blocks::null_sink::make(sizeof(gr_complex)), 0);
            continue;
        }
        tb->connect(head, 0, chain[0], p);
        tb->connect(chain[0], p, gr::blocks::null_sink::make(sizeof(gr_complex)), 0);
    }
    const auto t0 = clock::now();
    tb->run();
    return seconds_since(t0);
}

void run_timing_flowgraph(const options& o,
                          bool cuda_usable,
                          std::vector<row>& rows,
                          std::vector<std::string>& notes)
{
    print_header("\nTiming recovery, flowgraph level (vector_source -> head -> block -> "
                 "null_sink, wall\ntime of tb->run()). Msps = input samples per second of all "
                 "channels; ratio =\nMsps / pfb_clock_sync_ccf's.\n");
    const auto x = qpsk(1 << 16, 5);
    const size_t n = o.quick ? (size_t(1) << 20) : (size_t(1) << 24);
    const auto p = timing_params(core::timing_mode::sequential, 1, 1 << 16);
    double ref_msps = not_applicable;
    const auto add = [&](const std::string& impl, const std::string& dev, const std::string& config,
                         int ports, gr::basic_block_sptr b) {
        // Many channels: 4 times the samples of one, shared by the ports.
        const size_t per = ports > 1 ? n * 4 / size_t(ports) : n;
        const double s = flowgraph_seconds(x, per, { std::move(b) }, ports);
        row r;
        r.level = "flowgraph";
        r.stage = "timing";
        r.impl = impl;
        r.device = dev;
        r.config = config;
        r.batch = 0;
        r.samples = per * size_t(ports);
        r.seconds = s;
        r.iterations = 1;
        r.msps = double(r.samples) / s / 1e6;
        r.ms_per_batch = not_applicable;
        if (std::isnan(ref_msps))
            ref_msps = r.msps;
        r.ratio = r.msps / ref_msps;
        rows.push_back(r);
        print(r);
    };
    add("pfb_clock_sync_ccf 1t", "cpu", "1 ch", 1,
        gr::digital::pfb_clock_sync_ccf::make(sps, p.loop_bw, p.taps, nfilts, p.init_phase, 1.5f,
                                              1));
    add("symbol_sync_cc 1t", "cpu", "1 ch ML PFB-MF", 1,
        gr::digital::symbol_sync_cc::make(gr::digital::TED_SIGNAL_TIMES_SLOPE_ML, sps, p.loop_bw,
                                          1.0f, 1.0f, 1.5f, 1, nullptr, gr::digital::IR_PFB_MF,
                                          int(nfilts), p.taps));
    add("gpuofdm", "cpu", "1 ch sequential", 1,
        gr::gpuofdm::pfb_timing_sync_ccf::make(sps, p.loop_bw, p.taps, nfilts, p.init_phase, 1.5f,
                                               1, "cpu", "sequential"));
    if (!cuda_usable) {
        notes.push_back("timing flowgraph: CUDA rows skipped (no usable GPU)");
        return;
    }
    add("gpuofdm", o.device, "1 ch chunked", 1,
        gr::gpuofdm::pfb_timing_sync_ccf::make(sps, p.loop_bw, p.taps, nfilts, p.init_phase, 1.5f,
                                               1, o.device, "chunked"));
    for (int ch : { 64, 256 }) {
        add("gpuofdm multi", o.device, std::to_string(ch) + " ch sequential", ch,
            gr::gpuofdm::pfb_timing_sync_multi_ccf::make(
                ch, sps, p.loop_bw, p.taps, nfilts, p.init_phase, 1.5f, 1, o.device, "sequential"));
    }
}
#endif

} // namespace

void run_timing(const options& o,
                bool cuda_usable,
                std::vector<row>& rows,
                std::vector<std::string>& notes)
{
    print_header("\nTiming recovery pfb_timing_sync (--stages timing), core level. QPSK, RRC 0.35, "
                 "sps 2,\n32 filters, loop_bw 2pi/100. Msps = input samples per second of all "
                 "channels; cuda\nkernel = the loops' kernel alone; cuda+pcie = process() with "
                 "transfers. batch =\nsamples a channel a call. ratio = Msps / the CPU twin's "
                 "(same config).\n");
    const double secs = o.core_seconds;
    const size_t one = o.quick ? (size_t(1) << 18) : (size_t(1) << 22);
    const auto x1 = qpsk(one, 1);
    const std::string chunk_cfg = "1 ch chunked 8192/2048";

    // One channel: the sequential loop and the chunked one on the CPU twin.
    double seq_cpu = not_applicable, chunk_cpu = not_applicable;
    {
        auto s =
            core::make_pfb_timing_sync(timing_params(core::timing_mode::sequential, 1, one), {});
        row r = core_row(*s, x1, 1, one, "cpu twin", "1 ch sequential", secs, false);
        r.ratio = 1.0;
        seq_cpu = r.msps;
        rows.push_back(r);
        print(r);
        auto c = core::make_pfb_timing_sync(timing_params(core::timing_mode::chunked, 1, one), {});
        row rc = core_row(*c, x1, 1, one, "cpu twin", chunk_cfg, secs, false);
        rc.ratio = 1.0;
        chunk_cpu = rc.msps;
        rows.push_back(rc);
        print(rc);
    }
    // Many channels: the CPU twin on 64 (a call of 2^16 samples a channel).
    const size_t per = o.quick ? 8192 : 65536;
    double multi_cpu = not_applicable; //!< the CPU twin's Msps on 64 channels
    {
        const size_t ch = 64;
        const auto x = qpsk(ch * per, 2);
        auto s =
            core::make_pfb_timing_sync(timing_params(core::timing_mode::sequential, ch, per), {});
        row r = core_row(*s, x, ch, per, "cpu twin", "64 ch sequential", secs, false);
        r.ratio = 1.0;
        multi_cpu = r.msps;
        rows.push_back(r);
        print(r);
    }
    // The hybrid mode: the partition of Kim et al. (the banks' grid on the GPU, the loop on
    // the host) with their P = 27, 54, 81 filters of M = 32 taps (RRC 0.5 over 16 symbols at
    // 2 samples a symbol). "grid" rows time the grid alone (their "TED"), the others the
    // whole call (their "STR loop"); ratio = against the CPU twin's same row.
    const size_t hyb_n = o.quick ? 8192 : 65536;
    const auto xh = qpsk(hyb_n, 9);
    const auto hybrid_params = [&](unsigned P) {
        auto hp = timing_params(core::timing_mode::hybrid, 1, hyb_n);
        hp.nfilts = P;
        hp.taps = core::rrc_prototype(double(sps * P), 32 * size_t(P), P, 0.5);
        hp.init_phase = P / 2.0f;
        return hp;
    };
    std::vector<std::pair<double, double>> hyb_cpu; // per P: grid Msps, whole-call Msps
    for (unsigned P : { 27u, 54u, 81u }) {
        auto s = core::make_pfb_timing_sync(hybrid_params(P), {});
        const std::string cfg = "1 ch hybrid P=" + std::to_string(P) + " M=32";
        row g = core_row(*s, xh, 1, hyb_n, "cpu twin grid", cfg, secs, true);
        row t = core_row(*s, xh, 1, hyb_n, "cpu twin", cfg, secs, false);
        g.ratio = t.ratio = 1.0;
        hyb_cpu.emplace_back(g.msps, t.msps);
        for (const row& r : { g, t }) {
            rows.push_back(r);
            print(r);
        }
    }
    if (!cuda_usable) {
        notes.push_back("timing: CUDA rows skipped (no usable GPU)");
#ifdef GPUOFDM_BENCH_FLOWGRAPH
        if (o.flowgraph)
            run_timing_flowgraph(o, cuda_usable, rows, notes);
#endif
        return;
    }
    const core::device_spec dev = core::resolve_device(o.device);
    // CUDA rows of one configuration: the kernel, process() on pageable input, and (where
    // the input can be page-locked, as the blocks do with GNU Radio's buffers) on pinned.
    const auto cuda_rows = [&](core::pfb_timing_sync& s, const std::vector<cfloat>& x, size_t ch,
                               size_t per_ch, const std::string& cfg, double cpu_msps) {
        for (int kind = 0; kind < 3; kind++) {
#ifdef GPUOFDM_HAVE_CUDA
            core::pinned_ranges pinned(dev.cuda_index);
            if (kind == 2 && !pinned.pin(x.data(), x.size() * sizeof(cfloat))) {
                notes.push_back("timing: " + cfg + ": the input could not be page-locked");
                continue;
            }
#else
            if (kind == 2)
                continue;
#endif
            const char* impl = kind == 0   ? "cuda kernel"
                               : kind == 1 ? "cuda+pcie"
                                           : "cuda+pcie pinned";
            row r = core_row(s, x, ch, per_ch, impl, cfg, secs, kind == 0);
            r.ratio = r.msps / cpu_msps;
            rows.push_back(r);
            print(r);
        }
    };
    {
        auto s =
            core::make_pfb_timing_sync(timing_params(core::timing_mode::sequential, 1, one), dev);
        // One warp walks the whole call: 2^18 samples are enough to time it.
        cuda_rows(*s, x1, 1, std::min(one, size_t(1) << 18), "1 ch sequential", seq_cpu);
        auto c = core::make_pfb_timing_sync(timing_params(core::timing_mode::chunked, 1, one), dev);
        cuda_rows(*c, x1, 1, one, chunk_cfg, chunk_cpu);
    }
    {
        size_t i = 0;
        for (unsigned P : { 27u, 54u, 81u }) {
            auto s = core::make_pfb_timing_sync(hybrid_params(P), dev);
            const std::string cfg = "1 ch hybrid P=" + std::to_string(P) + " M=32";
            row g = core_row(*s, xh, 1, hyb_n, "cuda grid kernel", cfg, secs, true);
            g.ratio = g.msps / hyb_cpu[i].first;
            row t = core_row(*s, xh, 1, hyb_n, "cuda+pcie", cfg, secs, false);
            t.ratio = t.msps / hyb_cpu[i].second;
            for (const row& r : { g, t }) {
                rows.push_back(r);
                print(r);
            }
            i++;
        }
    }
    for (size_t ch : { size_t(64), size_t(256), size_t(1024) }) {
        const auto x = qpsk(ch * per, unsigned(3 + ch));
        auto s =
            core::make_pfb_timing_sync(timing_params(core::timing_mode::sequential, ch, per), dev);
        cuda_rows(*s, x, ch, per, std::to_string(ch) + " ch sequential", multi_cpu);
    }
#ifdef GPUOFDM_BENCH_FLOWGRAPH
    if (o.flowgraph)
        run_timing_flowgraph(o, cuda_usable, rows, notes);
#else
    notes.push_back("timing flowgraph: not built (no GNU Radio)");
#endif
}

} // namespace gpuofdm_bench
