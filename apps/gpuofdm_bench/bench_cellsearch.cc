/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Cell search rows (--stages cellsearch), core level: a wideband capture channelized to
// every raster candidate and searched (PSS over timing and +-1 subcarrier, SSS, ...), the
// CPU twin once, CUDA best of 3 after a warm-up, as a multiple of real time (capture
// seconds / wall seconds). Workloads:
//   NR   100 MHz at 122.88 Msps, 30 kHz SSB, every GSCN in the band (centre 3.5 GHz)
//   5GTF 153.6 Msps, one candidate, unknown timing (and with the sync symbols combined)
//   LTE  20 MHz at 30.72 Msps, every 100 kHz raster point
//   5GTF one aligned subframe (14 symbols), the published GPU decoder's workload
// Each capture holds a few cells at 5 dB over their sync signal's band. CUDA must report
// the CPU twin's detections. The first three also streamed through cell_search_stream
// (what the app and the block run), the capture pushed over and over (0.4 s): the
// throughput, where one call gives the latency.
// Where GNU Radio is built, the first three also at flowgraph level: file_source (the
// capture written over and over, 0.4 s of stream) -> cell_searcher_cc -> null_sink, its
// detections to a message_debug, beside the harness's ceiling, file_source -> null_sink
// on the same file in the same run (with --pairs K, K runs each after its own ceiling).

#include "bench.h"

#include "runtime/cuda_pinned.h"
#include "runtime/device.h"
#include "sync/cell_search.h"
#include "sync/cell_search_stream.h"
#include "sync/sync_signal_synth.h"
#include "sync/wideband_channelizer.h"

#include <algorithm>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

#ifdef GPUOFDM_BENCH_FLOWGRAPH
#include <gnuradio/blocks/file_source.h>
#include <gnuradio/blocks/message_debug.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/gpuofdm/cell_searcher_cc.h>
#include <gnuradio/top_block.h>
#endif

namespace gpuofdm_bench {

namespace {

namespace core = gr::gpuofdm::core;
using cf = std::complex<float>;

struct workload {
    std::string name;
    core::cell_standard standard;
    double rate;
    double seconds;
    std::vector<double> offsets;
    std::vector<core::synth_cell> cells;
    double center_hz = 0;  //!< capture centre; 0: unknown (the frequency range is then 1 SCS)
    bool flowgraph = true; //!< also measured in a flowgraph
    bool combine_symbols = false; //!< 5GTF: cell_search_params::combine_symbols
};

//! The workload's capture: its cells at 5 dB over their sync signal's band.
std::vector<cf> capture_of(const workload& w)
{
    core::synth_params sp;
    sp.standard = w.standard;
    sp.sample_rate = w.rate;
    sp.cells = w.cells;
    sp.noise_power = core::synth_noise_power_for_snr(sp, 5.0);
    const size_t n = static_cast<size_t>(w.rate * w.seconds);
    std::vector<cf> x(n);
    core::sync_signal_synth(sp).generate(x.data(), n);
    return x;
}

std::vector<workload> workloads(bool quick)
{
    std::vector<workload> w;
    core::raster_params nr;
    nr.standard = core::cell_standard::nr;
    nr.sample_rate = 122.88e6;
    nr.center_hz = 3.5e9;
    const auto offsets_of = [](const core::raster_params& p) {
        std::vector<double> offsets;
        for (const auto& c : core::raster_candidates(p)) {
            offsets.push_back(c.offset_hz);
        }
        return offsets;
    };
    const std::vector<double> gscn = offsets_of(nr);
    w.push_back({ "NR 100 MHz, every GSCN",
                  core::cell_standard::nr,
                  122.88e6,
                  quick ? 10e-3 : 40e-3,
                  gscn,
                  { { 17, 0, gscn[5], 2e3, 1e-3 }, { 902, 0, gscn[40], -4e3, 6e-3 } },
                  nr.center_hz });
    w.push_back({ "5GTF 153.6 Msps, unknown timing",
                  core::cell_standard::fivegtf,
                  153.6e6,
                  quick ? 6e-3 : 20e-3,
                  { 0.0 },
                  { { 123, 0, 0, 30e3, 1.3e-3 } } });
    w.push_back(w.back());
    w.back().name = "5GTF 153.6 Msps, sync symbols combined";
    w.back().flowgraph = false;
    w.back().combine_symbols = true;
    core::raster_params lte;
    lte.standard = core::cell_standard::lte;
    lte.sample_rate = 30.72e6;
    const std::vector<double> raster = offsets_of(lte);
    w.push_back({ "LTE 20 MHz, every 100 kHz point",
                  core::cell_standard::lte,
                  30.72e6,
                  quick ? 10e-3 : 40e-3,
                  raster,
                  { { 100, 0, 0, 1e3, 2e-3 }, { 400, 0, -5e6, -2e3, 3e-3 } } });
    w.push_back({ "5GTF one aligned subframe",
                  core::cell_standard::fivegtf,
                  153.6e6,
                  0.2e-3,
                  { 0.0 },
                  { { 77, 0, 0, 0, 0 } },
                  0,
                  false });
    return w;
}

struct search_run {
    std::vector<core::cell_detection> detections;
    double seconds = 0;
};

search_run run_once(const workload& w,
                    const std::vector<cf>& x,
                    const core::device_spec& dev,
                    core::wideband_channelizer& ch,
                    core::cell_search& search)
{
    search_run r;
    ch.reset();
    const auto t0 = clock::now();
    if (dev.is_cuda()) {
        // The rows stay on the GPU: only the capture goes up and the peaks' samples down.
        const auto rows = ch.capture_device(x.data(), x.size());
        r.detections = search.search_device(rows.rows, rows.stride, ch.channels(), rows.count, 0);
        r.seconds = seconds_since(t0);
        return r;
    }
    size_t got = 0, tail = 0;
    auto rows = ch.push(x.data(), x.size(), got);
    const auto rest = ch.flush(tail);
    // Rows of got + tail samples, channel-major.
    std::vector<cf> all(static_cast<size_t>(ch.channels()) * (got + tail));
    for (int c = 0; c < ch.channels(); c++) {
        std::copy_n(rows.begin() + c * got, got, all.begin() + c * (got + tail));
        std::copy_n(rest.begin() + c * tail, tail, all.begin() + c * (got + tail) + got);
    }
    r.detections = search.search(all.data(), got + tail, ch.channels(), got + tail, 0);
    r.seconds = seconds_since(t0);
    (void)w;
    return r;
}

bool same_detections(const std::vector<core::cell_detection>& a,
                     const std::vector<core::cell_detection>& b)
{
    if (a.size() != b.size()) {
        return false;
    }
    for (size_t i = 0; i < a.size(); i++) {
        if (a[i].cell_id != b[i].cell_id || a[i].channel != b[i].channel ||
            a[i].sample != b[i].sample) {
            return false;
        }
    }
    return true;
}

row search_row(const workload& w,
               const std::string& impl,
               const std::string& dev,
               const search_run& r,
               size_t samples)
{
    row out;
    out.level = "core";
    out.stage = "cell_search";
    out.impl = impl;
    out.device = dev;
    out.config = w.name + ", " + std::to_string(w.offsets.size()) + " candidates";
    out.samples = samples;
    out.seconds = r.seconds;
    out.iterations = r.detections.size();
    out.msps = double(samples) / r.seconds / 1e6;
    out.ms_per_batch = r.seconds * 1e3;
    return out;
}

void print_search_header()
{
    std::printf("%-9s %-7s %10s %9s %10s %6s %7s  %s\n", "impl", "device", "Msps", "x RT", "ms",
                "cells", "ratio", "workload");
}

void print_search_row(const row& r, double air_rate)
{
    const auto or_dash = [](double v, const char* format) {
        char text[32];
        std::snprintf(text, sizeof text, format, v);
        return std::isnan(v) ? std::string("-") : std::string(text);
    };
    std::printf("%-9s %-7s %10.2f %9.2f %10s %6llu %7s  %s\n", r.impl.c_str(), r.device.c_str(),
                r.msps, r.msps * 1e6 / air_rate, or_dash(r.ms_per_batch, "%.3f").c_str(),
                static_cast<unsigned long long>(r.iterations), or_dash(r.ratio, "%.4f").c_str(),
                r.config.c_str());
    std::fflush(stdout);
}

//! The capture pushed \p repeats times through a cell_search_stream (what the app and
//! the block run: a window's search on its own thread while the next window is
//! channelized), from page-locked memory in the app's 2^18-sample pieces.
struct stream_run {
    double seconds = 0;
    size_t detections = 0;
    std::set<int> cell_ids;
    bool pinned = false; //!< the capture page-locked (CUDA)
};

stream_run run_stream(const workload& w,
                      const std::vector<cf>& x,
                      int repeats,
                      const core::cell_search_params& search_params,
                      const core::device_spec& dev)
{
    core::raster_params rp;
    rp.standard = w.standard;
    rp.sample_rate = w.rate;
    rp.center_hz = w.center_hz;
    rp.offsets_hz = w.offsets;
    core::cell_search_stream stream(rp, search_params,
                                    core::cell_search_stream::default_window_s(search_params), dev);
    stream_run r;
    r.pinned = stream.pin_host_buffer(x.data(), x.size() * sizeof(cf));
    constexpr size_t piece = size_t(1) << 18;
    const auto add = [&r](const std::vector<core::cell_search_stream::detection>& found) {
        r.detections += found.size();
        for (const auto& f : found) {
            r.cell_ids.insert(f.cell.cell_id);
        }
    };
    const auto t0 = clock::now();
    for (int k = 0; k < repeats; k++) {
        for (size_t at = 0; at < x.size(); at += piece) {
            add(stream.push(x.data() + at, std::min(piece, x.size() - at)));
        }
    }
    add(stream.finish());
    r.seconds = seconds_since(t0);
    stream.release_host_buffers();
    return r;
}

//! The row of the capture streamed (run_stream()): best of 3 after a warm-up on CUDA, one
//! run on the CPU twin; \p cpu_msps: the CPU twin's one call, for the ratio.
row stream_row(const workload& w,
               const std::vector<cf>& x,
               const core::cell_search_params& search_params,
               const core::device_spec& dev,
               bool quick,
               double cpu_msps,
               std::vector<std::string>& notes)
{
    const int repeats = quick ? 2 : std::max(2, int(std::lround(0.4 / w.seconds)));
    const int runs = dev.is_cuda() ? 3 : 1;
    if (dev.is_cuda()) {
        run_stream(w, x, 1, search_params, dev); // plans, buffers, threads
    }
    stream_run best;
    best.seconds = 1e30;
    for (int k = 0; k < runs; k++) {
        stream_run g = run_stream(w, x, repeats, search_params, dev);
        if (g.seconds < best.seconds) {
            best = std::move(g);
        }
    }
    std::set<int> expected;
    for (const auto& cell : w.cells) {
        expected.insert(cell.cell_id);
    }
    const size_t samples = x.size() * size_t(repeats);
    search_run as_run;
    as_run.seconds = best.seconds;
    row r =
        search_row(w, dev.is_cuda() ? "cuda strm" : "cpu strm", dev.to_string(), as_run, samples);
    r.iterations = best.detections;
    r.config += ", streamed " + std::to_string(double(samples) / w.rate).substr(0, 5) + " s";
    r.ratio = r.msps / cpu_msps;
    r.ms_per_batch = not_applicable;
    const bool right_cells = best.cell_ids == expected;
    print_search_row(r, w.rate);
    notes.push_back(
        "cell_search_stream " + w.name + " on " + dev.to_string() + ": best of " +
        std::to_string(runs) + " streams of " + std::to_string(repeats) + " captures, " +
        std::to_string(best.detections) + " detections, the capture's cell IDs " +
        (right_cells ? "and no other" : "NOT exactly") +
        (dev.is_cuda() ? (best.pinned ? "; capture page-locked" : "; capture NOT page-locked")
                       : "") +
        "; ratio = x RT / the CPU twin's one call");
    return r;
}

#ifdef GPUOFDM_BENCH_FLOWGRAPH
const char* standard_name(core::cell_standard s)
{
    return s == core::cell_standard::nr ? "nr" : s == core::cell_standard::lte ? "lte" : "5gtf";
}

//! Wall seconds of file_source -> \p searcher (or null_sink) -> null_sink; \p found: the
//! detections on the searcher's message port; \p buffer items after the source and the
//! searcher (0: GNU Radio's default).
double file_to(const std::string& file,
               const gr::gpuofdm::cell_searcher_cc::sptr& searcher,
               size_t buffer,
               size_t* found)
{
    auto tb = gr::make_top_block("bench_cellsearch_flowgraph");
    auto src = gr::blocks::file_source::make(sizeof(gr_complex), file.c_str(), false);
    if (buffer > 0) {
        src->set_min_output_buffer(long(buffer));
        if (searcher)
            searcher->set_min_output_buffer(long(buffer));
    }
    auto sink = gr::blocks::null_sink::make(sizeof(gr_complex));
    auto cells = gr::blocks::message_debug::make();
    if (searcher) {
        tb->connect(src, 0, searcher, 0);
        tb->connect(searcher, 0, sink, 0);
        tb->msg_connect(searcher, "cells", cells, "store");
    } else {
        tb->connect(src, 0, sink, 0);
    }
    const auto t0 = clock::now();
    tb->run();
    const double s = seconds_since(t0);
    if (found)
        *found = size_t(cells->num_messages());
    return s;
}

void flowgraph_rows(const options& o,
                    bool cuda_usable,
                    std::vector<row>& rows,
                    std::vector<std::string>& notes)
{
    std::printf("\nCell search in a flowgraph (--stages cellsearch): file_source (the capture "
                "written over and over) -> cell_searcher_cc (window 20 ms, defaults) -> "
                "null_sink, with GNU Radio's default buffers and with 2^20 items after the "
                "source and the searcher.\nx RT = stream seconds per wall second; ceiling = "
                "file_source -> null_sink on the same file and buffers; ratio = x RT / the "
                "ceiling's; with --pairs K the median of K runs, each after a ceiling run of its "
                "own.\n");
    print_search_header();
    std::vector<std::string> devices;
    if (o.quick)
        devices.push_back("cpu"); // the CPU twin is far below real time: the short streams only
    if (cuda_usable)
        devices.push_back(o.device);
    for (const auto& w : workloads(o.quick)) {
        if (!w.flowgraph)
            continue;
        const std::vector<cf> x = capture_of(w);
        const int repeats = o.quick ? 1 : std::max(1, int(std::lround(0.4 / w.seconds)));
        const std::string file = write_recording("gpuofdm_bench_cellsearch", x, repeats);
        const size_t n = x.size() * size_t(repeats);
        const double stream_s = double(n) / w.rate;
        for (const size_t buffer : { size_t(0), size_t(1) << 20 }) {
            const std::string buf = buffer ? ", buffers 2^20" : "";
            auto measured = [&](const std::string& impl, const std::string& dev, double secs,
                                double ratio, size_t found) {
                row r;
                r.level = "flowgraph";
                r.stage = impl == "ceiling" ? "file->null" : "cell_searcher_cc";
                r.impl = impl;
                r.device = dev;
                r.config = w.name + ", " + std::to_string(w.offsets.size()) + " candidates, " +
                           std::to_string(stream_s).substr(0, 5) + " s" + buf;
                r.samples = n;
                r.seconds = secs;
                r.ms_per_batch = secs * 1e3;
                r.iterations = found;
                r.msps = double(n) / secs / 1e6;
                r.ratio = ratio;
                rows.push_back(r);
                print_search_row(r, w.rate);
            };
            const double ceiling_s = file_to(file, nullptr, buffer, nullptr);
            measured("ceiling", "cpu", ceiling_s, 1.0, 0);
            for (const auto& dev : devices) {
                auto make = [&] {
                    return gr::gpuofdm::cell_searcher_cc::make(standard_name(w.standard), w.rate,
                                                               w.center_hz, w.offsets, 30, 0, 16, 0,
                                                               1, 20, dev);
                };
                auto searcher = make();
                size_t found = 0;
                double secs = file_to(file, searcher, buffer, &found);
                double ratio = ceiling_s / secs;
                if (dev != "cpu" && o.pairs > 1) {
                    const auto p = paired_runs(
                        o.pairs, [&] { return file_to(file, nullptr, buffer, nullptr); },
                        [&] { return file_to(file, make(), buffer, &found); });
                    secs = p.seconds;
                    ratio = p.ratio;
                    notes.push_back("cell_searcher_cc flowgraph " + w.name + buf + " on " + dev +
                                    ": of-ceiling ratios of " + std::to_string(o.pairs) +
                                    " pairs " + p.ratios);
                }
                measured(dev == "cpu" ? "cpu twin" : "cuda", searcher->device(), secs, ratio,
                         found);
            }
            if (o.quick)
                break; // default buffers only
        }
        std::filesystem::remove(file);
    }
}
#endif

} // namespace

void run_cellsearch(const options& o,
                    bool cuda_usable,
                    std::vector<row>& rows,
                    std::vector<std::string>& notes)
{
    std::printf("\nCell search (--stages cellsearch), core level: capture channelized to every "
                "candidate and searched in one call.\nMsps = capture samples per second; x RT = "
                "capture seconds per wall second; ms = one call (latency of the batch);\n"
                "cells = detections; ratio = x RT / the CPU twin's; strm = the capture\n"
                "streamed through cell_search_stream (40 ms windows, each searched while the\n"
                "next is channelized), 0.4 s of it. Frequency range: the\n"
                "default (NR at 3.5 GHz: +-10 ppm, 7 hypotheses; the others +-1 subcarrier, 5).\n");
    print_search_header();
    for (const auto& w : workloads(o.quick)) {
        std::vector<cf> x = capture_of(w);
        const size_t n = x.size();

        core::cell_search_params search_params;
        search_params.standard = w.standard;
        search_params.combine_symbols = w.combine_symbols;
        // The default range a user gets with the centre known: +-10 ppm of the carrier.
        if (w.center_hz > 0)
            search_params.cfo_range_hz = core::default_cfo_range_hz(
                search_params, w.center_hz + *std::max_element(w.offsets.begin(), w.offsets.end()));
        const auto layout = core::make_cell_search_layout(w.standard, search_params.scs_khz);
        core::channelizer_params cp;
        cp.sample_rate = w.rate;
        cp.output_rate = layout.rate_hz;
        cp.offsets_hz = w.offsets;
        search_params.channel_offsets_hz = w.offsets; // as cell_search_stream sets them

        const core::device_spec cpu{};
        auto cpu_ch = core::make_wideband_channelizer(cp, cpu);
        auto cpu_search = core::make_cell_search(search_params, cpu);
        const search_run c = run_once(w, x, cpu, *cpu_ch, *cpu_search);
        row cr = search_row(w, "cpu twin", "cpu", c, n);
        cr.ratio = 1.0;
        rows.push_back(cr);
        print_search_row(cr, w.rate);
        if (o.quick && w.flowgraph) {
            // The CPU twin is far below real time: streamed in the short captures only.
            rows.push_back(stream_row(w, x, search_params, cpu, true, cr.msps, notes));
        }
        if (!cuda_usable) {
            continue;
        }
        const core::device_spec dev = core::resolve_device(o.device);
        // The capture page-locked, as a streaming source keeps its buffers: the upload then
        // runs at PCIe speed.
        core::pinned_ranges pinned(dev.cuda_index);
        const bool is_pinned = pinned.pin(x.data(), x.size() * sizeof(cf));
        search_run best;
        best.seconds = 1e30;
        auto ch = core::make_wideband_channelizer(cp, dev);
        auto search = core::make_cell_search(search_params, dev);
        run_once(w, x, dev, *ch, *search); // warm-up: plans, buffers
        for (int rep = 0; rep < 3; rep++) {
            search_run g = run_once(w, x, dev, *ch, *search);
            if (g.seconds < best.seconds) {
                best = std::move(g);
            }
        }
        row gr = search_row(w, "cuda", dev.to_string(), best, n);
        gr.ratio = gr.msps / cr.msps;
        gr.equals_cpu_twin = same_detections(best.detections, c.detections) ? 1 : 0;
        rows.push_back(gr);
        print_search_row(gr, w.rate);
        notes.push_back("cell_search " + w.name + ": CUDA reports the CPU twin's detections: " +
                        (gr.equals_cpu_twin ? "yes" : "NO") +
                        (is_pinned ? "; capture page-locked" : "; capture NOT page-locked"));
        if (w.flowgraph) {
            pinned.clear(); // the stream pins what it is given
            rows.push_back(stream_row(w, x, search_params, dev, o.quick, cr.msps, notes));
        }
    }
#ifdef GPUOFDM_BENCH_FLOWGRAPH
    if (o.flowgraph)
        flowgraph_rows(o, cuda_usable, rows, notes);
    else
        notes.push_back("cell search flowgraph rows: skipped (--no-flowgraph)");
#endif
}

} // namespace gpuofdm_bench
