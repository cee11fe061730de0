/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// PRACH rows (--stages prach), core level, the CPU twin and CUDA in the same run:
//  (a) the detector on frequency-domain bins (as an O-RAN 7.2 radio unit delivers them),
//      formats 0 and B4 (30 kHz), 4 antennas, one occasion per cell per 0.5 ms slot (30 kHz
//      numerology): one slot's batch of C cells in one call. ms = the batch's latency
//      (median; CUDA: bins uploaded from the host, as floats or as 16-bit I/Q, detections
//      back; or the bins already on the device); cells RT = how many
//      cells one device keeps up with at that batch size, C x 0.5 ms / latency. The bar
//      of the 38.104 work: 100 cells in real time with a batch under 0.2 ms.
//  (b) the chain from time-domain samples, 4 antennas at 122.88 Msps: per occasion the
//      front end (CP removal, one DFT of 98304 / 4096 points per repetition, the band's
//      bins) and the detector, one cell; format 0 one occasion per 1 ms subframe, B4 one
//      per 0.5 ms slot. x RT = the stream's seconds per wall second (the occasions'
//      samples only are processed; samples between occasions are not read). CUDA: the
//      occasion's samples uploaded from page-locked memory, the bins staying on the device.
//      Where GNU Radio is built, the same at flowgraph level: four file_source (a file
//      per antenna holding the whole stream: a 20 ms recording written over and over)
//      -> prach_detector_c (CUDA: max_batch 1, 8 and 16 time occasions a call), next to
//      the harness's ceiling, four file_source -> null_sink in the same run.
// Each row's input holds a preamble per cell at -10 dB per RE in unit noise; CUDA must
// report the CPU twin's detections.

#include "bench.h"

#include "prach/prach_detector.h"
#include "prach/prach_frontend.h"
#include "prach/prach_preamble.h"
#include "prach/prach_synth.h"
#include "runtime/cuda_pinned.h"
#include "runtime/device.h"

#ifdef GPUOFDM_HAVE_CUDA
#include "runtime/cuda_check.h"
#include "runtime/cuda_context.h"
#include <cuda_runtime_api.h>
#endif

#include <algorithm>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <utility>

#ifdef GPUOFDM_BENCH_FLOWGRAPH
#include <gnuradio/blocks/file_source.h>
#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/gpuofdm/prach_detector_c.h>
#include <gnuradio/top_block.h>
#endif

namespace gpuofdm_bench {

namespace {

namespace core = gr::gpuofdm::core;
using cf = std::complex<float>;

constexpr double slot_s = 0.5e-3; // 30 kHz numerology
constexpr int antennas = 4;

//! Detector parameters: \p cells cells of \p format, roots spread over the table.
core::prach_detector_params detector_params(core::prach_format format, int mu, int cells)
{
    core::prach_detector_params p;
    p.format = format;
    p.mu = mu;
    p.n_antennas = antennas;
    p.cells.clear();
    const bool is_long = core::prach_format_lookup(format, mu).is_long();
    for (int c = 0; c < cells; c++)
        p.cells.push_back({ (c * 7) % (is_long ? 838 : 138), is_long ? 1 : 14,
                            core::prach_restricted_set::unrestricted });
    return p;
}

//! Noise of unit power per bin plus, per cell, preamble (cell % 64) at -10 dB on every
//! antenna with a delay of a few sequence samples.
std::vector<cf> make_bins(const core::prach_detector& det)
{
    const auto& fmt = det.format();
    const int L = fmt.length;
    std::vector<cf> bins(det.n_channels() * det.channel_bins());
    std::mt19937 rng(5);
    std::normal_distribution<float> g(0.0f, std::sqrt(0.5f));
    for (auto& b : bins)
        b = cf(g(rng), g(rng));
    const int n_cells = int(det.params().cells.size());
    for (int c = 0; c < n_cells; c++) {
        const auto& id = det.preambles(c)[size_t(c % 64)];
        const auto y = core::prach_sequence_freq(id.u, id.cv, L);
        const double amp = std::sqrt(0.1 / L), delay = 1 + c % 3;
        for (int a = 0; a < antennas; a++) {
            cf* x = bins.data() + size_t(c * antennas + a) * det.channel_bins();
            for (int k = 0; k < L; k++) {
                const cf v(y[size_t(k)] * amp * std::polar(1.0, -2 * M_PI * k * delay / L + a));
                for (int r = 0; r < fmt.repetitions; r++)
                    x[size_t(r) * L + size_t(k)] += v;
            }
        }
    }
    return bins;
}

bool same(const std::vector<core::prach_detection>& a, const std::vector<core::prach_detection>& b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); i++)
        if (a[i].cell != b[i].cell || a[i].preamble != b[i].preamble ||
            a[i].delay_bins != b[i].delay_bins)
            return false;
    return true;
}

//! One row: \p per_period is cells in real time (detector rows) or x real time (chain).
void print_prach_row(const row& r, double per_period)
{
    std::printf("%-9s %-7s %-38s %6zu %10.4f %9.2f %8.1f %6llu %7s\n", r.impl.c_str(),
                r.device.c_str(), r.config.c_str(), r.batch, r.ms_per_batch, per_period,
                std::isnan(r.msps) ? 0.0 : r.msps, static_cast<unsigned long long>(r.iterations),
                std::isnan(r.ratio) ? "-" : std::to_string(r.ratio).substr(0, 6).c_str());
    std::fflush(stdout);
}

void detector_rows(const options& o,
                   bool cuda_usable,
                   std::vector<row>& rows,
                   std::vector<std::string>& notes)
{
    std::printf("\nPRACH detector on bins (--stages prach, a), core level: one slot's batch of "
                "C cells x 4 antennas x 1 occasion in one call.\nms = latency of the batch "
                "(median; CUDA: bins up, detections down); cells RT = C x 0.5 ms / ms; "
                "ratio = the CPU twin's ms / this row's.\n");
    std::printf("%-9s %-7s %-38s %6s %10s %9s %8s %6s %7s\n", "impl", "device", "workload", "cells",
                "ms", "cells RT", "-", "found", "ratio");
    struct fmt_case {
        core::prach_format format;
        int mu;
        const char* name;
    };
    const fmt_case formats[] = { { core::prach_format::f0, 0, "format 0" },
                                 { core::prach_format::b4, 1, "B4 30 kHz" } };
    const std::vector<int> cell_counts =
        o.quick ? std::vector<int>{ 1, 64 }
                : std::vector<int>{ 1, 16, 64, 100, 128, 256, 512, 1024 };
    for (const auto& f : formats) {
        for (const int cells : cell_counts) {
            const auto p = detector_params(f.format, f.mu, cells);
            auto cpu = core::make_prach_detector_cpu(p);
            const auto bins = make_bins(*cpu);
            std::vector<core::prach_detection> want;
            const timing tc =
                time_repeated([&] { want = cpu->detect(bins.data(), cpu->channel_bins()); },
                              o.quick ? 0.02 : o.core_seconds, 3);
            row cr;
            cr.level = "core";
            cr.stage = "prach_detector";
            cr.impl = "cpu twin";
            cr.device = "cpu";
            cr.config = std::string(f.name) + ", 4 antennas, bins";
            cr.batch = size_t(cells);
            cr.ms_per_batch = tc.median_ms;
            cr.iterations = want.size();
            cr.seconds = tc.seconds;
            cr.ratio = 1.0;
            rows.push_back(cr);
            print_prach_row(cr, cells * slot_s * 1e3 / tc.median_ms);
            if (!cuda_usable)
                continue;
            const core::device_spec dev = core::resolve_device(o.device);
            auto gpu = core::make_prach_detector(p, dev);
            core::pinned_ranges pinned(dev.cuda_index);
            pinned.pin(bins.data(), bins.size() * sizeof(cf));
            // One CUDA row: its timing, checked against the twin's detections.
            const auto cuda_row =
                [&](const char* impl, const std::string& config,
                    const std::function<std::vector<core::prach_detection>()>& detect,
                    const std::vector<core::prach_detection>& twin) {
                    std::vector<core::prach_detection> got;
                    const timing tg =
                        time_repeated([&] { got = detect(); }, o.quick ? 0.02 : o.core_seconds, 10);
                    row gr = cr;
                    gr.impl = impl;
                    gr.device = dev.to_string();
                    gr.config = config;
                    gr.ms_per_batch = tg.median_ms;
                    gr.iterations = got.size();
                    gr.seconds = tg.seconds;
                    gr.ratio = tc.median_ms / tg.median_ms;
                    gr.equals_cpu_twin = same(got, twin) ? 1 : 0;
                    rows.push_back(gr);
                    print_prach_row(gr, cells * slot_s * 1e3 / tg.median_ms);
                    if (!gr.equals_cpu_twin)
                        notes.push_back("prach_detector " + config + ", " + std::to_string(cells) +
                                        " cells: CUDA's detections differ from the CPU twin's");
                };
            cuda_row(
                "cuda", cr.config, [&] { return gpu->detect(bins.data(), gpu->channel_bins()); },
                want);
            // 16-bit I/Q bins, as an O-RAN 7.2 radio unit sends them uncompressed: half the
            // bytes to upload. The twin's detections on the same integers.
            const float scale = 1.0f / 1024; // unit noise: about 720 counts a part
            std::vector<std::complex<int16_t>> bins16(bins.size());
            for (size_t i = 0; i < bins.size(); i++)
                bins16[i] = { int16_t(std::lround(bins[i].real() / scale)),
                              int16_t(std::lround(bins[i].imag() / scale)) };
            pinned.pin(bins16.data(), bins16.size() * sizeof(bins16[0]));
            const auto want16 = cpu->detect_cs16(bins16.data(), cpu->channel_bins(), scale);
            cuda_row(
                "cuda", std::string(f.name) + ", 4 antennas, 16-bit bins",
                [&] { return gpu->detect_cs16(bins16.data(), gpu->channel_bins(), scale); },
                want16);
#ifdef GPUOFDM_HAVE_CUDA
            // The bins already on the device, as a fronthaul NIC writing into GPU memory
            // delivers them: the latency without the upload.
            core::device_buffer<cf> d_bins(bins.size());
            GPUOFDM_CUDA_CHECK(cudaMemcpy(d_bins.get(), bins.data(), bins.size() * sizeof(cf),
                                          cudaMemcpyHostToDevice));
            cuda_row(
                "cuda dev", std::string(f.name) + ", 4 antennas, bins on the GPU",
                [&] { return gpu->detect_device(d_bins.get(), gpu->channel_bins()); }, want);
#endif
        }
    }
}

void chain_rows(const options& o,
                bool cuda_usable,
                std::vector<row>& rows,
                std::vector<std::string>& notes)
{
    std::printf("\nPRACH chain from samples (--stages prach, b), core level: 4 antennas at "
                "122.88 Msps, one cell, front end + detector per occasion.\nms = one occasion; "
                "x RT = stream seconds per wall second at one occasion per period; Msps = "
                "occasion samples per second, all antennas.\n");
    std::printf("%-9s %-7s %-38s %6s %10s %9s %8s %6s %7s\n", "impl", "device", "workload", "cells",
                "ms", "x RT", "Msps", "found", "ratio");
    struct chain_case {
        core::prach_format format;
        int mu;
        double period_s;
        const char* name;
    };
    const chain_case cases[] = { { core::prach_format::f0, 0, 1e-3, "format 0, every 1 ms" },
                                 { core::prach_format::b4, 1, 0.5e-3, "B4 30 kHz, every slot" } };
    const double rate = 122.88e6;
    for (const auto& c : cases) {
        core::prach_frontend_params fp;
        fp.format = c.format;
        fp.mu = c.mu;
        fp.sample_rate = rate;
        fp.n_antennas = antennas;
        const auto fmt = core::prach_format_lookup(c.format, c.mu);
        fp.offset_hz = { -200 * fmt.scs_hz };
        auto dp = detector_params(c.format, c.mu, 1);
        dp.sample_rate = rate;
        auto fe = core::make_prach_frontend_cpu(fp);
        auto det = core::make_prach_detector_cpu(dp);
        const size_t row_len = fe->samples_per_row();
        // The occasion: preamble 9 of the cell at -10 dB per RE, 2 us late, in unit noise.
        core::prach_synth_params sp;
        sp.format = c.format;
        sp.mu = c.mu;
        sp.sample_rate = rate;
        sp.offset_hz = fp.offset_hz[0];
        sp.n_antennas = antennas;
        sp.noise_power = 1.0;
        core::prach_synth_ue ue;
        const auto& id = det->preambles(0)[9];
        ue.u = id.u;
        ue.cv = id.cv;
        ue.delay_samples = 2e-6 * rate;
        ue.power_db = -10;
        sp.ues = { ue };
        std::vector<cf> in(fe->n_rows() * row_len);
        std::vector<cf*> outs;
        for (int a = 0; a < antennas; a++)
            outs.push_back(in.data() + size_t(a) * row_len);
        core::prach_synth(sp).generate(outs.data(), row_len);
        std::vector<cf> bins(fe->n_outputs() * fe->output_bins());
        std::vector<core::prach_detection> want;
        const timing tc = time_repeated(
            [&] {
                fe->process(in.data(), row_len, bins.data(), fe->output_bins());
                want = det->detect(bins.data(), det->channel_bins());
            },
            o.quick ? 0.05 : o.core_seconds, 3);
        row cr;
        cr.level = "core";
        cr.stage = "prach_chain";
        cr.impl = "cpu twin";
        cr.device = "cpu";
        cr.config = std::string(c.name) + ", 4 x 122.88 Msps";
        cr.batch = 1;
        cr.ms_per_batch = tc.median_ms;
        cr.msps = double(in.size()) / (tc.median_ms * 1e-3) / 1e6;
        cr.iterations = want.size();
        cr.seconds = tc.seconds;
        cr.ratio = 1.0;
        rows.push_back(cr);
        const double rt_cpu = c.period_s * 1e3 / tc.median_ms;
        print_prach_row(cr, rt_cpu);
        if (!cuda_usable)
            continue;
#ifdef GPUOFDM_HAVE_CUDA
        const core::device_spec dev = core::resolve_device(o.device);
        auto ctx = core::make_cuda_context(dev);
        auto fe_gpu = core::make_prach_frontend(fp, dev, ctx);
        auto det_gpu = core::make_prach_detector(dp, dev, ctx);
        core::pinned_ranges pinned(dev.cuda_index);
        pinned.pin(in.data(), in.size() * sizeof(cf));
        core::device_buffer<cf> d_in(in.size()), d_bins(bins.size());
        std::vector<core::prach_detection> got;
        const timing tg = time_repeated(
            [&] {
                GPUOFDM_CUDA_CHECK(cudaMemcpyAsync(d_in.get(), in.data(), in.size() * sizeof(cf),
                                                   cudaMemcpyHostToDevice, ctx->stream()));
                fe_gpu->process_device(d_in.get(), row_len, d_bins.get(), fe_gpu->output_bins());
                got = det_gpu->detect_device(d_bins.get(), det_gpu->channel_bins());
            },
            o.quick ? 0.05 : o.core_seconds, 10);
        row gr = cr;
        gr.impl = "cuda";
        gr.device = dev.to_string();
        gr.ms_per_batch = tg.median_ms;
        gr.msps = double(in.size()) / (tg.median_ms * 1e-3) / 1e6;
        gr.iterations = got.size();
        gr.seconds = tg.seconds;
        gr.ratio = tc.median_ms / tg.median_ms;
        gr.equals_cpu_twin = same(got, want) ? 1 : 0;
        rows.push_back(gr);
        print_prach_row(gr, c.period_s * 1e3 / tg.median_ms);
        if (!gr.equals_cpu_twin)
            notes.push_back("prach_chain " + cr.config +
                            ": CUDA's detections differ from the CPU twin's");
#else
        (void)notes;
#endif
    }
}

#ifdef GPUOFDM_BENCH_FLOWGRAPH
//! Wall seconds of four files -> \p detector (one block, 4 inputs) or -> null_sink each;
//! \p source_buffer items after each file_source (0: GNU Radio's default).
double files_to(const std::vector<std::string>& files,
                const gr::basic_block_sptr& detector,
                size_t source_buffer)
{
    auto tb = gr::make_top_block("bench_prach_flowgraph");
    for (size_t a = 0; a < files.size(); a++) {
        // The whole stream is in the file, as in a recording: no repeat, no head (whose
        // copy would add a hop that a recording does not have).
        auto src = gr::blocks::file_source::make(sizeof(gr_complex), files[a].c_str(), false);
        if (source_buffer > 0)
            src->set_min_output_buffer(long(source_buffer));
        if (detector)
            tb->connect(src, 0, detector, int(a));
        else
            tb->connect(src, 0, gr::blocks::null_sink::make(sizeof(gr_complex)), 0);
    }
    const auto t0 = clock::now();
    tb->run();
    return seconds_since(t0);
}

void flowgraph_rows(const options& o,
                    bool cuda_usable,
                    std::vector<row>& rows,
                    std::vector<std::string>& notes)
{
    std::printf("\nPRACH chain in a flowgraph (--stages prach, b): four file_source (the stream "
                "in a file, a 20 ms recording written over and over) -> prach_detector_c, 4 x "
                "122.88 Msps.\nx RT = stream seconds per wall second; ceiling = four file_source "
                "-> null_sink; ratio = x RT / "
                "the ceiling's; batch = the block's max_batch; with --pairs K, a CUDA row is the "
                "median of K runs, each right after a ceiling run of its own.\n");
    std::printf("%-9s %-7s %-38s %6s %10s %9s %8s %6s %7s\n", "impl", "device", "workload", "batch",
                "ms", "x RT", "Msps", "found", "ratio");
    const double rate = 122.88e6, file_s = 20e-3;
    // Whole 20 ms recordings: the stream the rows time.
    const int repeats =
        std::max(1, int(std::lround((o.quick ? 0.02 : std::max(0.1, o.seconds)) / file_s)));
    const double stream_s = repeats * file_s;
    const size_t n = size_t(stream_s * rate);
    // Format 0 every 1 ms: preamble 9 at -10 dB, 2 us, in unit noise.
    core::prach_synth_params sp;
    sp.sample_rate = rate;
    sp.offset_hz = -200 * 1250.0;
    sp.n_antennas = antennas;
    sp.period_samples = uint64_t(1e-3 * rate);
    sp.noise_power = 1.0;
    const auto ids = core::prach_cell_preambles(
        839, 0,
        core::prach_ncs(core::prach_format_lookup(core::prach_format::f0),
                        core::prach_restricted_set::unrestricted, 1),
        core::prach_restricted_set::unrestricted);
    core::prach_synth_ue ue;
    ue.u = ids[9].u;
    ue.cv = ids[9].cv;
    ue.delay_samples = 2e-6 * rate;
    ue.power_db = -10;
    sp.ues = { ue };
    core::prach_synth synth(sp);
    const size_t per_file = size_t(file_s * rate);
    std::vector<std::string> files;
    {
        std::vector<std::vector<cf>> x(antennas, std::vector<cf>(per_file));
        std::vector<cf*> outs;
        for (auto& v : x)
            outs.push_back(v.data());
        synth.generate(outs.data(), per_file);
        for (int a = 0; a < antennas; a++)
            files.push_back(write_recording("gpuofdm_bench_prach_a" + std::to_string(a),
                                            x[size_t(a)], repeats));
    }
    // GNU Radio's default buffers (8192 items: the ceiling's file_source reads 4096 samples
    // or so a call; the block's history makes its inputs' buffers larger), and 2^18 items
    // after each file_source, as a user sets for 122.88 Msps streams; each with its ceiling.
    for (const size_t source_buffer : { size_t(0), size_t(1) << 18 }) {
        const std::string buf = source_buffer ? ", buffer 2^18" : "";
        const double ceiling_s = files_to(files, nullptr, source_buffer);
        row c;
        c.level = "flowgraph";
        c.stage = "file->null";
        c.impl = "ceiling";
        c.device = "cpu";
        c.config = "4 x file_source -> null_sink" + buf;
        c.seconds = ceiling_s;
        c.ms_per_batch = ceiling_s * 1e3;
        c.samples = n * antennas;
        c.msps = double(c.samples) / ceiling_s / 1e6;
        c.ratio = 1.0;
        rows.push_back(c);
        print_prach_row(c, stream_s / ceiling_s);
        // The CPU twin at the default batch (default buffers); CUDA one occasion a call
        // and batched.
        std::vector<std::pair<std::string, int>> runs;
        if (source_buffer == 0)
            runs.emplace_back("cpu", 8);
        if (cuda_usable)
            for (int batch : { 1, 8, 16 })
                runs.emplace_back(o.device, batch);
        for (const auto& [device, batch] : runs) {
            auto make = [&, device = device, batch = batch] {
                return gr::gpuofdm::prach_detector_c::make(
                    rate, "0", 15, antennas, { 0 }, { 1 }, {}, { sp.offset_hz }, 1, 0, 0,
                    int(sp.period_samples), 0, 1e-3, device, batch);
            };
            auto det = make();
            double secs = files_to(files, det, source_buffer);
            double ratio = ceiling_s / secs;
            if (device != "cpu" && o.pairs > 1) {
                const auto p = paired_runs(
                    o.pairs, [&] { return files_to(files, nullptr, source_buffer); },
                    [&] {
                        auto d = make();
                        const double b_s = files_to(files, d, source_buffer);
                        if (d->detections() != d->occasions())
                            det = d; // reported below
                        return b_s;
                    });
                secs = p.seconds;
                ratio = p.ratio;
                notes.push_back("prach flowgraph " + device + ", batch " + std::to_string(batch) +
                                buf + ": ratios of " + std::to_string(o.pairs) + " pairs " +
                                p.ratios);
            }
            row r;
            r.level = "flowgraph";
            r.stage = "prach_detector_c";
            r.impl = device == "cpu" ? "cpu twin" : "cuda";
            r.device = det->device();
            r.batch = size_t(batch);
            r.config = "format 0, every 1 ms, 4 x 122.88 Msps" + buf;
            r.seconds = secs;
            r.ms_per_batch = secs * 1e3;
            r.samples = n * antennas;
            r.iterations = det->detections();
            r.msps = double(r.samples) / secs / 1e6;
            r.ratio = ratio;
            rows.push_back(r);
            print_prach_row(r, stream_s / secs);
            if (det->detections() != det->occasions())
                notes.push_back("prach_detector_c flowgraph on " + r.device + ", batch " +
                                std::to_string(batch) + buf + ": " +
                                std::to_string(det->detections()) + " detections in " +
                                std::to_string(det->occasions()) + " occasions (one UE each)");
        }
    }
    for (const auto& f : files)
        std::filesystem::remove(f);
}
#endif

} // namespace

void run_prach(const options& o,
               bool cuda_usable,
               std::vector<row>& rows,
               std::vector<std::string>& notes)
{
    detector_rows(o, cuda_usable, rows, notes);
    chain_rows(o, cuda_usable, rows, notes);
#ifdef GPUOFDM_BENCH_FLOWGRAPH
    if (o.flowgraph)
        flowgraph_rows(o, cuda_usable, rows, notes);
    else
        notes.push_back("prach flowgraph rows: skipped (--no-flowgraph)");
#endif
}

} // namespace gpuofdm_bench
