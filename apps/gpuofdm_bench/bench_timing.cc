/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Timing-recovery rows (--stages timing), in input Msamples/s: QPSK, RRC roll-off 0.35,
// 2 samples a symbol, 32 filters, 11*2*32-tap prototype, loop_bw 2*pi/100, Es/N0 15 dB.
// Core level: one channel (sequential and chunked, CPU twin and CUDA; chunked: 8192-
// sample chunks, 2048 warm-up, 2^22 samples a call) and 64, 256, 1024 channels together
// (sequential, 65536 samples a channel a call); "cuda kernel" = the loops' launches alone
// (CUDA events), "cuda+pcie" = process() with the host transfers, planning and stitching,
// from pageable memory or with input and output page-locked ("pinned"); the copies overlap
// the loops (time spans, pfb_timing_params::overlap_pieces), "1span" = without. The PCIe
// ceiling of the same run: plain page-locked cudaMemcpy each way and both at once. The
// hybrid mode (the banks' grid on the GPU, the loop on the host) with the P = 27, 54, 81
// filters of Kim et al.: grid and whole call.
// Flowgraph level (where GNU Radio is built): vector_source -> head -> block -> null_sink,
// GNU Radio's pfb_clock_sync_ccf (one, and one a core) and symbol_sync_cc (ML detector,
// PFB matched filter) in the same run as ours; pfb_timing_sync_multi_ccf on 64/256 ports
// and on one vector port of 64/256/1024 channels, each next to its harness (the same
// flowgraph without the block). ratio = Msps / pfb_clock_sync_ccf's (flowgraph) or the
// CPU twin's.

#include "bench.h"

#include "runtime/device.h"
#include "timing/pfb_timing_sync.h"
#include "timing/rrc_prototype.h"
#ifdef GPUOFDM_HAVE_CUDA
#include "runtime/cuda_check.h"
#include "runtime/cuda_pinned.h"
#endif

#ifdef GPUOFDM_BENCH_FLOWGRAPH
#include <gnuradio/blocks/head.h>
#include <gnuradio/logger.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/digital/pfb_clock_sync_ccf.h>
#include <gnuradio/digital/symbol_sync_cc.h>
#include <gnuradio/top_block.h>
#include <gnuradio/gpuofdm/pfb_timing_sync_ccf.h>
#include <gnuradio/gpuofdm/pfb_timing_sync_multi_ccf.h>
#endif

#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>

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

//! Symbols a channel's row of the output holds in a call of \p per_call samples.
size_t max_symbols(size_t per_call) { return per_call / sps + 64; }

/*!
 * One core row: process() of \p channels channels of \p per_call samples each from fresh
 * states, repeated; kernel = the kernel time of the loops alone. The symbols go to
 * \p out_rows (channels * max_symbols(per_call), e.g. page-locked), else to a vector here.
 */
row core_row(core::pfb_timing_sync& s,
             const std::vector<cfloat>& in,
             size_t channels,
             size_t per_call,
             const std::string& impl,
             const std::string& config,
             double min_seconds,
             bool kernel,
             std::vector<cfloat>* out_rows = nullptr)
{
    std::vector<size_t> n_in(channels, per_call), n_sym(channels);
    const size_t max_sym = max_symbols(per_call);
    std::vector<cfloat> own;
    if (!out_rows)
        own.resize(channels * max_sym);
    std::vector<cfloat>& out = out_rows ? *out_rows : own;
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

#ifdef GPUOFDM_HAVE_CUDA
/*!
 * The PCIe ceiling, in the same run: plain cudaMemcpy between page-locked host memory and
 * the device, each way alone and both at once (two streams, as the overlapped timing
 * recovery moves them), and the input rate that allows at sps 2: 8 bytes in and 4 out
 * (one cf32 symbol every 2 samples) a sample.
 */
void pcie_ceiling(const core::device_spec& dev,
                  bool quick,
                  std::vector<row>& rows,
                  std::vector<std::string>& notes)
{
    core::use_device(dev.cuda_index);
    const size_t bytes = quick ? (size_t(32) << 20) : (size_t(256) << 20);
    core::pinned_buffer<char> h_in(bytes), h_out(bytes);
    core::device_buffer<char> d_in(bytes), d_out(bytes);
    std::memset(h_in.get(), 1, bytes);
    GPUOFDM_CUDA_CHECK(cudaMemset(d_out.get(), 2, bytes));
    GPUOFDM_CUDA_CHECK(cudaDeviceSynchronize());
    core::cuda_stream up, down;
    const auto seconds = [&](bool h2d, bool d2h) {
        const auto once = [&] {
            if (h2d)
                GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_in.get(), h_in.get(), bytes,
                                                   cudaMemcpyHostToDevice, up.get()));
            if (d2h)
                GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(h_out.get(), d_out.get(), bytes,
                                                   cudaMemcpyDeviceToHost, down.get()));
            up.synchronize();
            down.synchronize();
        };
        return time_repeated(once, 0.5, 5).median_ms * 1e-3;
    };
    const double t_in = seconds(true, false), t_out = seconds(false, true),
                 t_both = seconds(true, true);
    const double gb = double(bytes) / 1e9;
    const double in_gbs = gb / t_in, out_gbs = gb / t_out, both_gbs = gb / t_both;
    // Both ways at once, each at both_gbs: the input's 8 bytes a sample bind, not the 4 out.
    const double ceiling_msps = both_gbs / 8.0 * 1e3;
    std::printf("\nPCIe ceiling (cudaMemcpy, page-locked, %zu MiB): host->device %.1f GB/s, "
                "device->host %.1f GB/s,\nboth at once %.1f GB/s each way. At sps 2 a sample "
                "is 8 bytes in and 4 out: at most %.0f Msps\nwith both ways at once, %.0f "
                "Msps from the input alone.\n",
                bytes >> 20, in_gbs, out_gbs, both_gbs, ceiling_msps, in_gbs / 8.0 * 1e3);
    using pcie_case = std::tuple<const char*, double, double, double>;
    for (const auto& [cfg, gbs, msps, t] :
         { pcie_case{ "host->device", in_gbs, in_gbs / 8.0 * 1e3, t_in },
           pcie_case{ "device->host", out_gbs, out_gbs / 4.0 * 1e3, t_out },
           pcie_case{ "both at once", both_gbs, ceiling_msps, t_both } }) {
        row r;
        r.level = "pcie";
        r.stage = "timing";
        r.impl = "cudaMemcpy pinned";
        r.device = dev.to_string();
        r.config = cfg;
        r.batch = bytes;
        r.gbps = gbs;
        r.msps = msps; // the input rate this bandwidth carries at sps 2
        r.seconds = t; // one copy (each way), the median
        r.iterations = 1;
        r.ms_per_batch = t * 1e3;
        rows.push_back(r);
    }
    char line[200];
    std::snprintf(line, sizeof(line),
                  "timing: PCIe ceiling, page-locked cudaMemcpy: %.1f GB/s in, %.1f out, %.1f "
                  "each way at once: at most %.0f Msps at sps 2 (8 B in, 4 B out a sample)",
                  in_gbs, out_gbs, both_gbs, ceiling_msps);
    notes.push_back(line);
}
#endif

#ifdef GPUOFDM_BENCH_FLOWGRAPH
/*!
 * Wall time of vector_source -> head(n) -> block -> null_sink over \p ports parallel ports:
 * \p chain empty (the harness alone), one block of \p ports ports, or one block a port.
 */
double flowgraph_seconds(const std::vector<cfloat>& x,
                         size_t n,
                         const std::vector<gr::basic_block_sptr>& chain,
                         int ports)
{
    auto tb = gr::make_top_block("gpuofdm_bench_timing");
    for (int p = 0; p < ports; p++) {
        auto src = gr::blocks::vector_source_c::make(x, true);
        auto head = gr::blocks::head::make(sizeof(gr_complex), n);
        tb->connect(src, 0, head, 0);
        if (chain.empty()) {
            tb->connect(head, 0, gr::blocks::null_sink::make(sizeof(gr_complex)), 0);
            continue;
        }
        const bool own = chain.size() == size_t(ports) && ports > 1;
        const auto& b = own ? chain[size_t(p)] : chain[0];
        const int port = own ? 0 : p;
        tb->connect(head, 0, b, port);
        tb->connect(b, port, gr::blocks::null_sink::make(sizeof(gr_complex)), 0);
    }
    const auto t0 = clock::now();
    tb->run();
    return seconds_since(t0);
}

/*!
 * Wall time of vector_source (\p data, items of \p channels samples, repeated) ->
 * head(items) -> \p block (or nothing: the harness) -> null_sink, the buffers holding
 * \p buffer_items items; throws when the block gave fewer than 9/10 of items/sps items.
 */
double vector_flowgraph_seconds(const std::vector<cfloat>& data,
                                size_t channels,
                                size_t items,
                                long buffer_items,
                                const gr::block_sptr& block)
{
    const size_t item = channels * sizeof(gr_complex);
    auto tb = gr::make_top_block("gpuofdm_bench_timing_vector");
    auto src = gr::blocks::vector_source_c::make(data, true, unsigned(channels));
    auto head = gr::blocks::head::make(item, items);
    auto sink = gr::blocks::null_sink::make(item);
    src->set_min_output_buffer(buffer_items);
    head->set_min_output_buffer(buffer_items);
    tb->connect(src, 0, head, 0);
    if (block) {
        block->set_min_output_buffer(buffer_items);
        tb->connect(head, 0, block, 0);
        tb->connect(block, 0, sink, 0);
    } else {
        tb->connect(head, 0, sink, 0);
    }
    const auto t0 = clock::now();
    tb->run();
    const double t = seconds_since(t0);
    const uint64_t want = block ? items / sps : items;
    if (sink->nitems_read(0) * 10 < want * 9)
        throw std::runtime_error("timing flowgraph: " + std::to_string(channels) +
                                 " channels gave " + std::to_string(sink->nitems_read(0)) +
                                 " items, expected about " + std::to_string(want));
    return t;
}

void run_timing_flowgraph(const options& o,
                          bool cuda_usable,
                          std::vector<row>& rows,
                          std::vector<std::string>& notes)
{
    // The blocks' start-up lines would break up the table.
    gr::logging::singleton().set_default_level(gr::log_level::warn);
    print_header("\nTiming recovery, flowgraph level (vector_source -> head -> block -> "
                 "null_sink, wall\ntime of tb->run()). Msps = input samples per second of all "
                 "channels; ratio =\nMsps / pfb_clock_sync_ccf's (1 ch). \"ports\": a source, "
                 "head and sink a channel;\n\"vector\": one source of C-sample items "
                 "(vector_io), buffers of 8192 items; \"harness\":\nthe same flowgraph "
                 "without the block, its ceiling. The wall time includes the start-up\n(the "
                 "multi block page-locks its rows in start()).\n");
    const auto x = qpsk(1 << 16, 5);
    const size_t n = o.quick ? (size_t(1) << 20) : (size_t(1) << 24);
    const auto p = timing_params(core::timing_mode::sequential, 1, 1 << 16);
    double ref_msps = not_applicable;
    const auto add_row = [&](const std::string& impl, const std::string& dev,
                             const std::string& config, size_t samples, double s) {
        row r;
        r.level = "flowgraph";
        r.stage = "timing";
        r.impl = impl;
        r.device = dev;
        r.config = config;
        r.batch = 0;
        r.samples = samples;
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
    const auto add = [&](const std::string& impl, const std::string& dev, const std::string& config,
                         int ports, const std::vector<gr::basic_block_sptr>& chain) {
        // Many channels: 4 times the samples of one, shared by the ports.
        const size_t per = ports > 1 ? n * 4 / size_t(ports) : n;
        add_row(impl, dev, config, per * size_t(ports), flowgraph_seconds(x, per, chain, ports));
    };
    const auto clock_sync = [&] {
        return gr::digital::pfb_clock_sync_ccf::make(sps, p.loop_bw, p.taps, nfilts, p.init_phase,
                                                     1.5f, 1);
    };
    add("pfb_clock_sync_ccf 1t", "cpu", "1 ch", 1, { clock_sync() });
    add("symbol_sync_cc 1t", "cpu", "1 ch ML PFB-MF", 1,
        { gr::digital::symbol_sync_cc::make(gr::digital::TED_SIGNAL_TIMES_SLOPE_ML, sps, p.loop_bw,
                                            1.0f, 1.0f, 1.5f, 1, nullptr, gr::digital::IR_PFB_MF,
                                            int(nfilts), p.taps) });
    // GNU Radio's block a channel, as many channels as the machine has threads.
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    {
        std::vector<gr::basic_block_sptr> each;
        for (int c = 0; c < cores; c++)
            each.push_back(clock_sync());
        add("pfb_clock_sync_ccf xN", "cpu", std::to_string(cores) + " ch, a block each", cores,
            each);
    }
    add("gpuofdm", "cpu", "1 ch sequential", 1,
        { gr::gpuofdm::pfb_timing_sync_ccf::make(sps, p.loop_bw, p.taps, nfilts, p.init_phase, 1.5f,
                                                 1, "cpu", "sequential") });
    if (!cuda_usable) {
        notes.push_back("timing flowgraph: CUDA rows skipped (no usable GPU)");
        return;
    }
    add("gpuofdm", o.device, "1 ch chunked", 1,
        { gr::gpuofdm::pfb_timing_sync_ccf::make(sps, p.loop_bw, p.taps, nfilts, p.init_phase, 1.5f,
                                                 1, o.device, "chunked") });
    for (int ch : { 64, 256 }) {
        add("harness ports", "cpu", std::to_string(ch) + " ch", ch, {});
        add("gpuofdm multi ports", o.device, std::to_string(ch) + " ch sequential", ch,
            { gr::gpuofdm::pfb_timing_sync_multi_ccf::make(ch, sps, p.loop_bw, p.taps, nfilts,
                                                           p.init_phase, 1.5f, 1, o.device,
                                                           "sequential") });
    }
    // One vector port of C channels: a precomputed buffer of 8192 items, each channel the
    // QPSK stream from its own offset.
    constexpr long buffer_items = 8192;
    for (size_t ch : { size_t(64), size_t(256), size_t(1024) }) {
        std::vector<cfloat> data(size_t(buffer_items) * ch);
        for (size_t t = 0; t < size_t(buffer_items); t++)
            for (size_t c = 0; c < ch; c++)
                data[t * ch + c] = x[(t + 61 * c) % x.size()];
        const size_t items = n * 8 / ch; // 8 times the samples of one channel, all told
        const std::string cfg = std::to_string(ch) + " ch sequential";
        add_row("harness vector", "cpu", std::to_string(ch) + " ch", items * ch,
                vector_flowgraph_seconds(data, ch, items, buffer_items, nullptr));
        add_row("gpuofdm multi vector", o.device, cfg, items * ch,
                vector_flowgraph_seconds(data, ch, items, buffer_items,
                                         gr::gpuofdm::pfb_timing_sync_multi_ccf::make(
                                             int(ch), sps, p.loop_bw, p.taps, nfilts, p.init_phase,
                                             1.5f, 1, o.device, "sequential", 16384, 4096, true)));
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
                 "channels; cuda\nkernel = the loops' launches alone; cuda+pcie = process() with "
                 "transfers (pageable,\nor pinned: input and output page-locked; 1span: "
                 "copies not overlapped). batch =\nsamples a channel a call. ratio = Msps / "
                 "the CPU twin's (same config).\n");
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
    // CUDA rows of one configuration: the kernel, process() on pageable memory, and (where
    // the input and output can be page-locked, as a block can its buffers) on pinned; with
    // \p serial (a sync of overlap_pieces 1), process() pinned without the overlap too.
    const auto cuda_rows = [&](core::pfb_timing_sync& s, const std::vector<cfloat>& x, size_t ch,
                               size_t per_ch, const std::string& cfg, double cpu_msps,
                               core::pfb_timing_sync* serial = nullptr) {
        std::vector<cfloat> out(ch * max_symbols(per_ch));
        for (int kind = 0; kind < 4; kind++) {
            if (kind == 3 && !serial)
                continue;
#ifdef GPUOFDM_HAVE_CUDA
            core::pinned_ranges pinned(dev.cuda_index);
            if (kind >= 2 && !(pinned.pin(x.data(), x.size() * sizeof(cfloat)) &&
                               pinned.pin(out.data(), out.size() * sizeof(cfloat)))) {
                notes.push_back("timing: " + cfg + ": the buffers could not be page-locked");
                continue;
            }
#else
            if (kind >= 2)
                continue;
#endif
            const char* impl = kind == 0   ? "cuda kernel"
                               : kind == 1 ? "cuda+pcie pageable"
                               : kind == 2 ? "cuda+pcie pinned"
                                           : "cuda+pcie pinned 1span";
            row r =
                core_row(kind == 3 ? *serial : s, x, ch, per_ch, impl, cfg, secs, kind == 0, &out);
            r.ratio = r.msps / cpu_msps;
            rows.push_back(r);
            print(r);
            if (ch == 1024 && kind == 2)
                notes.push_back("timing: 1024 ch with transfers (pinned, overlapped): " +
                                std::to_string(r.msps / 1e3).substr(0, 5) + " Gsamples/s (bar: 2)");
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
#ifdef GPUOFDM_HAVE_CUDA
    pcie_ceiling(dev, o.quick, rows, notes);
#endif
    for (size_t ch : { size_t(64), size_t(256), size_t(1024) }) {
        const auto x = qpsk(ch * per, unsigned(3 + ch));
        auto p = timing_params(core::timing_mode::sequential, ch, per);
        auto s = core::make_pfb_timing_sync(p, dev);
        p.overlap_pieces = 1;
        auto serial = core::make_pfb_timing_sync(p, dev);
        cuda_rows(*s, x, ch, per, std::to_string(ch) + " ch sequential", multi_cpu, serial.get());
    }
#ifdef GPUOFDM_BENCH_FLOWGRAPH
    if (o.flowgraph)
        run_timing_flowgraph(o, cuda_usable, rows, notes);
#else
    notes.push_back("timing flowgraph: not built (no GNU Radio)");
#endif
}

} // namespace gpuofdm_bench
