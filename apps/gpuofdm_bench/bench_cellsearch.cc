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
//   5GTF 153.6 Msps, one candidate, unknown timing
//   LTE  20 MHz at 30.72 Msps, every 100 kHz raster point
//   5GTF one aligned subframe (14 symbols), the published GPU decoder's workload
// Each capture holds a few cells at 5 dB over their sync signal's band. CUDA must report
// the CPU twin's detections.

#include "bench.h"

#include "runtime/cuda_pinned.h"
#include "runtime/device.h"
#include "sync/cell_search.h"
#include "sync/sync_signal_synth.h"
#include "sync/wideband_channelizer.h"

#include <algorithm>
#include <complex>
#include <cstdio>
#include <string>

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
    double center_hz = 0; //!< capture centre; 0: unknown (the frequency range is then 1 SCS)
};

std::vector<workload> workloads(bool quick)
{
    std::vector<workload> w;
    core::raster_params nr;
    nr.standard = core::cell_standard::nr;
    nr.sample_rate = 122.88e6;
    nr.center_hz = 3.5e9;
    std::vector<double> gscn;
    for (const auto& c : core::raster_candidates(nr)) {
        gscn.push_back(c.offset_hz);
    }
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
    core::raster_params lte;
    lte.standard = core::cell_standard::lte;
    lte.sample_rate = 30.72e6;
    std::vector<double> raster;
    for (const auto& c : core::raster_candidates(lte)) {
        raster.push_back(c.offset_hz);
    }
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
                  { { 77, 0, 0, 0, 0 } } });
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

void print_search_row(const row& r, double air_rate)
{
    std::printf(
        "%-9s %-7s %10.2f %9.2f %10.3f %6llu %7s  %s\n", r.impl.c_str(), r.device.c_str(), r.msps,
        r.msps * 1e6 / air_rate, r.ms_per_batch, static_cast<unsigned long long>(r.iterations),
        std::isnan(r.ratio) ? "-" : std::to_string(r.ratio).substr(0, 6).c_str(), r.config.c_str());
    std::fflush(stdout);
}

} // namespace

void run_cellsearch(const options& o,
                    bool cuda_usable,
                    std::vector<row>& rows,
                    std::vector<std::string>& notes)
{
    std::printf("\nCell search (--stages cellsearch), core level: capture channelized to every "
                "candidate and searched in one call.\nMsps = capture samples per second; x RT = "
                "capture seconds per wall second; ms = one call (latency of the batch);\n"
                "cells = detections; ratio = x RT / the CPU twin's. Frequency range: the\n"
                "default (NR at 3.5 GHz: +-10 ppm, 7 hypotheses; the others +-1 subcarrier, 5).\n");
    std::printf("%-9s %-7s %10s %9s %10s %6s %7s  %s\n", "impl", "device", "Msps", "x RT", "ms",
                "cells", "ratio", "workload");
    for (const auto& w : workloads(o.quick)) {
        core::synth_params sp;
        sp.standard = w.standard;
        sp.sample_rate = w.rate;
        sp.cells = w.cells;
        sp.noise_power = core::synth_noise_power_for_snr(sp, 5.0);
        const size_t n = static_cast<size_t>(w.rate * w.seconds);
        std::vector<cf> x(n);
        core::sync_signal_synth(sp).generate(x.data(), n);

        core::cell_search_params search_params;
        search_params.standard = w.standard;
        // The default range a user gets with the centre known: +-10 ppm of the carrier.
        if (w.center_hz > 0)
            search_params.cfo_range_hz = core::default_cfo_range_hz(
                search_params, w.center_hz + *std::max_element(w.offsets.begin(), w.offsets.end()));
        const auto layout = core::make_cell_search_layout(w.standard, search_params.scs_khz);
        core::channelizer_params cp;
        cp.sample_rate = w.rate;
        cp.output_rate = layout.rate_hz;
        cp.offsets_hz = w.offsets;

        const core::device_spec cpu{};
        auto cpu_ch = core::make_wideband_channelizer(cp, cpu);
        auto cpu_search = core::make_cell_search(search_params, cpu);
        const search_run c = run_once(w, x, cpu, *cpu_ch, *cpu_search);
        row cr = search_row(w, "cpu twin", "cpu", c, n);
        cr.ratio = 1.0;
        rows.push_back(cr);
        print_search_row(cr, w.rate);
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
    }
}

} // namespace gpuofdm_bench
