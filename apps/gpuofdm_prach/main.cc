/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gpuofdm_prach: the 5G NR PRACH preambles of a recording. Occasions at --start + k
// --period (or trial starts across the whole file, --scan), the PRACH band at
// --prach-offset (or every resource block of the capture, --scan-freq), one root or every
// one (--root auto): the core's front end and detector on every (start, band, root), a
// table of the preambles found and optionally JSON. --synthesize writes a recording of
// chosen UEs to try it on.

#include "../common/app_main.h"
#include "../common/cli_options.h"
#include "../common/sigmf.h"

#include "prach/prach_detector.h"
#include "prach/prach_frontend.h"
#include "prach/prach_preamble.h"
#include "prach/prach_synth.h"
#include "runtime/device.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace core = gr::gpuofdm::core;
using cf = std::complex<float>;

namespace {

constexpr size_t max_cells_per_call = 1024;

struct options {
    std::string input;
    double rate = 0;
    std::string format = "0";
    int scs = 30;
    std::string root = "0";
    int zcz = 1;
    std::string set = "unrestricted";
    double prach_offset = 0;
    bool has_offset = false;
    bool scan_freq = false;
    int64_t start = 0;
    bool has_start = false;
    int64_t period = -1;
    bool scan = false;
    int64_t scan_step = 0;
    int antennas = 1;
    std::string format_in = "cf32";
    std::string json;
    std::string device = "auto";
    double false_alarm = 1e-3;
    int expect = -1;
    bool quiet = false;
    // --synthesize
    std::string synthesize;
    std::string ues;
    double seconds = 0.03;
};

void usage()
{
    std::puts(
        "usage: gpuofdm_prach FILE --rate HZ --format F --scs KHZ --root N|auto --zcz N\n"
        "                     (--prach-offset HZ | --scan-freq) (--start SAMPLE | --scan) "
        "[options]\n"
        "  Finds the 5G NR PRACH preambles (3GPP TS 38.211 6.3.3) of a recording.\n"
        "  FILE             SigMF (rate from the metadata) or raw I/Q in --format-in; with\n"
        "                   --antennas N the N antennas' samples interleaved\n"
        "  --rate HZ        sample rate: a multiple of the PRACH spacing with whole CP samples\n"
        "                   (30.72 MHz x 2^k)\n"
        "  --format F       PRACH format 0, 1, 2, 3, A1, A2, A3, B1..B4, C0, C2 (default 0)\n"
        "  --scs KHZ        uplink subcarrier spacing 15, 30, 60, 120 (default 30): the short\n"
        "                   formats' PRACH spacing, the RB grid of --scan-freq, timing advance\n"
        "  --root N|auto    prach-RootSequenceIndex, or every logical root (default 0)\n"
        "  --zcz N          zeroCorrelationZoneConfig 0..15 (default 1)\n"
        "  --set S          unrestricted (default), A or B (long formats)\n"
        "  --prach-offset HZ  the PRACH sequence's lowest subcarrier from the capture centre\n"
        "  --scan-freq      try the band at every resource block of the capture (the carrier's\n"
        "                   grid centred on the capture, 38.211 5.3.2's K k1 + k-bar)\n"
        "  --start SAMPLE   the first occasion's first CP sample\n"
        "  --period N       samples between occasions (default 10 ms; 0: one occasion)\n"
        "  --scan           trial starts every --scan-step samples across the whole file (the\n"
        "                   frame timing unknown: a preamble's index and delay are then as seen\n"
        "                   from the best trial start)\n"
        "  --scan-step N    samples between trial starts (default half the CP)\n"
        "  --antennas N     antennas interleaved in the file, 1..64 (default 1)\n"
        "  --format-in F    raw I/Q: cf32 (default), cs16 or cs8\n"
        "  --false-alarm P  target false-alarm probability per occasion and band (default 1e-3);\n"
        "                   scans: per period, spread over its trial starts and the bands\n"
        "  --json OUT       write the preambles found as a JSON list\n"
        "  --device S       auto (default), cpu, cuda, cuda:N\n"
        "  --expect N       FAIL (exit 1) unless exactly N preambles are found\n"
        "  --quiet          no progress lines\n"
        "  --synthesize OUT write OUT.sigmf-data/-meta: --ues at --rate, --format, --scs, --root,\n"
        "                   --zcz, --set, --prach-offset, --start, --period, --antennas,\n"
        "                   --format-in, --seconds (default 0.03), unit noise; then exit\n"
        "  --ues LIST       for --synthesize: PREAMBLE@DELAY_US[@SNR_DB[@CFO_HZ]] comma-separated\n"
        "                   (SNR per PRACH subcarrier, default 0 dB)\n"
        "  --help, --version");
}

options parse(int argc, char** argv)
{
    using namespace gpuofdm_apps;
    options o;
    parse_cli_after_input(argc, argv, o.input,
                          {
                              value("--input", o.input),
                              value("--rate", o.rate),
                              value("--format", o.format),
                              value("--scs", o.scs),
                              value("--root", o.root),
                              value("--zcz", o.zcz),
                              value("--set", o.set),
                              custom("--prach-offset",
                                     [&o](const std::string& s) {
                                         o.prach_offset = parse_number<double>("--prach-offset", s);
                                         o.has_offset = true;
                                     }),
                              flag("--scan-freq", o.scan_freq),
                              custom("--start",
                                     [&o](const std::string& s) {
                                         o.start = parse_number<int64_t>("--start", s);
                                         o.has_start = true;
                                     }),
                              value("--period", o.period),
                              flag("--scan", o.scan),
                              value("--scan-step", o.scan_step),
                              value("--antennas", o.antennas),
                              value("--format-in", o.format_in),
                              value("--false-alarm", o.false_alarm),
                              value("--json", o.json),
                              value("--device", o.device),
                              value("--expect", o.expect),
                              flag("--quiet", o.quiet),
                              value("--synthesize", o.synthesize),
                              value("--ues", o.ues),
                              value("--seconds", o.seconds),
                          },
                          usage, "gpuofdm_prach");
    core::parse_prach_format(o.format, "--format");
    core::parse_prach_restricted_set(o.set, "--set");
    format_from_name(o.format_in);
    if (o.scs != 15 && o.scs != 30 && o.scs != 60 && o.scs != 120)
        throw std::invalid_argument("--scs: 15, 30, 60 or 120, got " + std::to_string(o.scs));
    if (o.root != "auto")
        parse_number<int>("--root", o.root);
    if (o.antennas < 1 || o.antennas > 64)
        throw std::invalid_argument("--antennas: 1..64, got " + std::to_string(o.antennas));
    if (o.start < 0)
        throw std::invalid_argument("--start: >= 0, got " + std::to_string(o.start));
    if (o.scan_step < 0)
        throw std::invalid_argument("--scan-step: >= 0, got " + std::to_string(o.scan_step));
    if (!(o.seconds > 0 && o.seconds <= 100))
        throw std::invalid_argument("--seconds: (0, 100]");
    if (o.synthesize.empty()) {
        if (o.input.empty())
            throw std::invalid_argument("FILE: give the recording (try --help)");
        if (o.has_offset == o.scan_freq)
            throw std::invalid_argument("--prach-offset or --scan-freq: give one of them");
        if (o.has_start == o.scan)
            throw std::invalid_argument("--start or --scan: give one of them");
    } else {
        if (!o.has_offset || o.root == "auto")
            throw std::invalid_argument("--synthesize: needs --prach-offset and a numeric --root");
    }
    return o;
}

int mu_of(int scs_khz) { return scs_khz == 15 ? 0 : scs_khz == 30 ? 1 : scs_khz == 60 ? 2 : 3; }

core::prach_format_info format_of(const options& o)
{
    const auto f = core::parse_prach_format(o.format, "--format");
    const bool is_long = core::prach_format_lookup(f, 0).is_long();
    return core::prach_format_lookup(f, is_long ? 0 : mu_of(o.scs));
}

int64_t period_of(const options& o, double rate)
{
    return o.period >= 0 ? o.period : int64_t(std::llround(rate * 0.01));
}

int synthesize(const options& o)
{
    if (!(o.rate > 0))
        throw std::invalid_argument("--rate: give the sample rate");
    const auto fmt = format_of(o);
    const auto set = core::parse_prach_restricted_set(o.set, "--set");
    const int ncs = core::prach_ncs(fmt, set, o.zcz);
    const auto ids = core::prach_cell_preambles(fmt.length, std::stoi(o.root), ncs, set);
    core::prach_synth_params p;
    p.format = fmt.format;
    p.mu = fmt.mu;
    p.sample_rate = o.rate;
    p.offset_hz = o.prach_offset;
    p.n_antennas = o.antennas;
    p.start_sample = uint64_t(o.start);
    p.period_samples = uint64_t(period_of(o, o.rate));
    p.noise_power = 1.0;
    std::stringstream list(o.ues);
    std::string item;
    while (std::getline(list, item, ',')) {
        std::vector<std::string> parts;
        std::stringstream fields(item);
        std::string f;
        while (std::getline(fields, f, '@'))
            parts.push_back(f);
        if (parts.size() < 2 || parts.size() > 4)
            throw std::invalid_argument(
                "--ues: expected PREAMBLE@DELAY_US[@SNR_DB[@CFO_HZ]], got '" + item + "'");
        const int pre = gpuofdm_apps::parse_number<int>("--ues", parts[0]);
        if (pre < 0 || pre >= core::prach_preambles)
            throw std::invalid_argument("--ues: preamble 0..63, got " + parts[0]);
        core::prach_synth_ue ue;
        ue.u = ids[size_t(pre)].u;
        ue.cv = ids[size_t(pre)].cv;
        ue.delay_samples = gpuofdm_apps::parse_number<double>("--ues", parts[1]) * 1e-6 * o.rate;
        ue.power_db = parts.size() > 2 ? gpuofdm_apps::parse_number<double>("--ues", parts[2]) : 0;
        ue.cfo_hz = parts.size() > 3 ? gpuofdm_apps::parse_number<double>("--ues", parts[3]) : 0;
        p.ues.push_back(ue);
    }
    core::prach_synth synth(p);
    const auto n = static_cast<size_t>(o.seconds * o.rate);
    const auto sf = gpuofdm_apps::format_from_name(o.format_in);
    std::ofstream data(o.synthesize + ".sigmf-data", std::ios::binary);
    const size_t A = size_t(o.antennas), block = 1 << 15;
    std::vector<cf> ant(A * block);
    std::vector<cf*> ptr(A);
    for (size_t a = 0; a < A; a++)
        ptr[a] = ant.data() + a * block;
    for (size_t done = 0; done < n;) {
        const size_t m = std::min(block, n - done);
        synth.generate(ptr.data(), m);
        for (size_t i = 0; i < m; i++)
            for (size_t a = 0; a < A; a++) {
                const cf x = ptr[a][i];
                if (sf.bytes_per_sample == 8) {
                    data.write(reinterpret_cast<const char*>(&x), 8);
                    continue;
                }
                const float s = sf.full_scale / 8; // headroom for the noise
                auto q = [&](float v) {
                    return std::lround(std::clamp(v * s, -sf.full_scale, sf.full_scale - 1));
                };
                if (sf.bytes_per_sample == 4) {
                    const int16_t iq[2] = { int16_t(q(x.real())), int16_t(q(x.imag())) };
                    data.write(reinterpret_cast<const char*>(iq), 4);
                } else {
                    const int8_t iq[2] = { int8_t(q(x.real())), int8_t(q(x.imag())) };
                    data.write(reinterpret_cast<const char*>(iq), 2);
                }
            }
        done += m;
    }
    if (!data)
        throw std::runtime_error(o.synthesize + ".sigmf-data: cannot write");
    gpuofdm_apps::sigmf_meta meta;
    meta.datatype = sf.datatype;
    meta.sample_rate = o.rate;
    meta.description = "PRACH format " + o.format + " root " + o.root + " UEs " + o.ues + ", " +
                       std::to_string(o.antennas) + " antennas interleaved";
    meta.captures.push_back({ 0, 0 });
    gpuofdm_apps::write_sigmf_meta(o.synthesize + ".sigmf-meta", meta);
    std::printf("wrote %s.sigmf-data (%zu samples x %d antennas) and .sigmf-meta\n",
                o.synthesize.c_str(), n, o.antennas);
    return 0;
}

//! One (band, root) the detector tries: a "cell" of the core's stages.
struct candidate {
    double offset_hz;
    int logical_root;
};

//! The stages for up to max_cells_per_call candidates.
struct stage_pair {
    std::vector<candidate> cells;
    std::unique_ptr<core::prach_frontend> fe;
    std::unique_ptr<core::prach_detector> det;
    std::vector<cf> rows, bins;
};

struct found {
    core::prach_detection d;
    uint64_t sample;
    double offset_hz;
    double origin; // where the root's unshifted sequence starts, mod one sequence period
    int cv;
};

int detect(const options& o)
{
    gpuofdm_apps::recording rec(o.input, o.format_in);
    const double rate = o.rate > 0 ? o.rate : rec.meta().sample_rate;
    if (!(rate > 0))
        throw std::invalid_argument("--rate: give the sample rate (the recording has none)");
    const auto fmt = format_of(o);
    const auto set = core::parse_prach_restricted_set(o.set, "--set");
    const int ncs = core::prach_ncs(fmt, set, o.zcz);
    const int n_fft = int(std::lround(rate / fmt.scs_hz));

    // The bands: one, or every RB of the capture's grid.
    std::vector<double> offsets;
    if (o.scan_freq) {
        const double scs_pusch = o.scs * 1e3;
        const int grid = int(std::floor(rate / (12 * scs_pusch)));
        const auto alloc = core::prach_allocation_lookup(fmt.length, fmt.scs_hz, scs_pusch);
        for (int rb = 0; rb + alloc.n_rb <= grid; rb++) {
            const long bin0 = core::prach_bin0_offset(fmt, scs_pusch, grid, 0, rb);
            if (bin0 >= -n_fft / 2 && bin0 + fmt.length - 1 < n_fft / 2)
                offsets.push_back(double(bin0) * fmt.scs_hz);
        }
    } else {
        offsets.push_back(o.prach_offset);
    }
    // The roots: one, or a cell's worth of roots apart over the whole table.
    std::vector<int> roots;
    const int table = fmt.is_long() ? 838 : 138;
    if (o.root == "auto") {
        const auto ids = core::prach_cell_preambles(fmt.length, 0, ncs, set);
        int step = 1;
        for (const auto& id : ids)
            step = std::max(step, id.logical_root + 1);
        for (int r = 0; r < table; r += step)
            roots.push_back(r);
    } else {
        roots.push_back(std::stoi(o.root));
    }
    std::vector<candidate> all;
    for (double off : offsets)
        for (int r : roots)
            all.push_back({ off, r });

    // Scans spread the false-alarm target over the tests of one period: each trial start
    // of it and each band.
    const int64_t period = period_of(o, rate);
    const int64_t cp = int64_t(std::llround(fmt.n_cp * rate / 30.72e6));
    const int64_t step =
        o.scan ? (o.scan_step > 0 ? o.scan_step : std::max<int64_t>(1, cp / 2)) : period;
    const double period_or_10ms = double(period > 0 ? period : int64_t(rate * 0.01));
    const double tests_per_period =
        double(offsets.size()) * (o.scan ? std::max(1.0, period_or_10ms / double(step)) : 1.0);
    const core::device_spec dev = core::resolve_device(o.device);
    std::vector<stage_pair> stages;
    for (size_t first = 0; first < all.size(); first += max_cells_per_call) {
        stage_pair s;
        s.cells.assign(all.begin() + std::ptrdiff_t(first),
                       all.begin() +
                           std::ptrdiff_t(std::min(all.size(), first + max_cells_per_call)));
        core::prach_frontend_params fp;
        fp.format = fmt.format;
        fp.mu = fmt.mu;
        fp.sample_rate = rate;
        fp.n_antennas = o.antennas;
        fp.offset_hz.clear();
        core::prach_detector_params dp;
        dp.format = fmt.format;
        dp.mu = fmt.mu;
        dp.n_antennas = o.antennas;
        dp.false_alarm = o.false_alarm / tests_per_period;
        dp.sample_rate = rate;
        dp.cells.clear();
        for (const auto& c : s.cells) {
            fp.offset_hz.push_back(c.offset_hz);
            dp.cells.push_back({ c.logical_root, o.zcz, set });
        }
        s.fe = core::make_prach_frontend(fp, dev);
        s.det = core::make_prach_detector(dp, dev);
        s.rows.resize(s.fe->n_rows() * s.fe->samples_per_row());
        s.bins.resize(s.fe->n_outputs() * s.fe->output_bins());
        stages.push_back(std::move(s));
    }
    const size_t row = stages.front().fe->samples_per_row();
    const int64_t first_start = o.scan ? 0 : o.start;
    std::printf("gpuofdm_prach: %s, format %s at %.6g Msps, %d antenna%s, %zu band%s x %zu "
                "root%s, %s%s\n",
                o.input.c_str(), core::to_string(fmt.format).c_str(), rate / 1e6, o.antennas,
                o.antennas == 1 ? "" : "s", offsets.size(), offsets.size() == 1 ? "" : "s",
                roots.size(), roots.size() == 1 ? "" : "s",
                o.scan ? ("trial starts every " + std::to_string(step) + " samples").c_str()
                       : ("occasions every " + std::to_string(period) + " samples").c_str(),
                dev.is_cuda() ? (", " + dev.to_string()).c_str() : ", CPU twin");

    // Samples per antenna from sample `base` on.
    const size_t A = size_t(o.antennas);
    std::vector<std::deque<cf>> buf(A);
    uint64_t base = 0;
    bool eof = false;
    std::vector<cf> block(A * (1 << 16));
    auto fill_to = [&](uint64_t end) {
        while (!eof && base + buf[0].size() < end) {
            const size_t n = rec.read(block.data(), block.size()) / A;
            if (n == 0)
                eof = true;
            for (size_t i = 0; i < n; i++)
                for (size_t a = 0; a < A; a++)
                    buf[a].push_back(block[i * A + a]);
        }
        return base + buf[0].size() >= end;
    };
    std::ifstream probe(rec.data_path(), std::ios::binary | std::ios::ate);
    const double total =
        probe ? double(probe.tellg()) / double(rec.format().bytes_per_sample) / double(A) : 0;

    std::vector<found> hits;
    const auto t0 = std::chrono::steady_clock::now();
    auto last_progress = t0;
    uint64_t trials = 0;
    for (int64_t start = first_start; (o.scan || period > 0 || start == first_start);
         start += std::max<int64_t>(step, 1)) {
        const uint64_t s = uint64_t(start);
        if (!fill_to(s + row))
            break;
        while (base < s) {
            for (auto& b : buf)
                b.pop_front();
            base++;
        }
        for (auto& st : stages) {
            const size_t per_cell = A * row;
            for (size_t a = 0; a < A; a++)
                std::copy_n(buf[a].begin(), row, st.rows.begin() + std::ptrdiff_t(a * row));
            for (size_t c = 1; c < st.cells.size(); c++)
                std::copy_n(st.rows.begin(), per_cell,
                            st.rows.begin() + std::ptrdiff_t(c * per_cell));
            st.fe->process(st.rows.data(), row, st.bins.data(), st.fe->output_bins());
            for (const auto& d : st.det->detect(st.bins.data(), st.det->channel_bins())) {
                const int cv = st.det->preambles(d.cell)[size_t(d.preamble)].cv;
                const double origin = std::fmod(double(s) + st.fe->cp_samples() + d.delay_samples -
                                                    double(cv) * n_fft / fmt.length + 1e3 * n_fft,
                                                double(n_fft));
                hits.push_back({ d, s, st.cells[size_t(d.cell)].offset_hz, origin, cv });
            }
        }
        trials++;
        const auto now = std::chrono::steady_clock::now();
        if (!o.quiet && total > 0 && now - last_progress > std::chrono::seconds(1)) {
            std::fprintf(stderr, "  %5.1f %% of %.3f s, %zu detections\n",
                         100.0 * double(s) / total, total / rate, hits.size());
            last_progress = now;
        }
        if (!o.scan && period == 0)
            break;
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // One preamble, seen from several trial starts or neighbouring bands: the strongest.
    // (A frequency shift of a Zadoff-Chu sequence is a cyclic shift, so a band a few RBs
    // off still correlates; the band that holds all L_RA bins peaks highest.)
    const double tol = 2.0 * n_fft / double(stages.front().det->idft_size()) + 1;
    std::sort(hits.begin(), hits.end(),
              [](const found& a, const found& b) { return a.d.metric > b.d.metric; });
    std::vector<found> kept;
    for (const auto& h : hits) {
        bool dup = false;
        for (const auto& k : kept) {
            const bool overlap_time =
                std::llabs(int64_t(h.sample) - int64_t(k.sample)) < int64_t(row);
            if (!overlap_time)
                continue;
            double dorigin = std::fabs(h.origin - k.origin);
            dorigin = std::min(dorigin, n_fft - dorigin);
            const bool same = h.d.u == k.d.u && h.offset_hz == k.offset_hz && dorigin <= tol;
            const bool neighbour_band =
                h.offset_hz != k.offset_hz &&
                std::fabs(h.offset_hz - k.offset_hz) < fmt.length * fmt.scs_hz;
            // Trial starts inside a preamble cut it: its truncated sequence correlates
            // into other windows of its root, well below its full peak.
            const bool cut_echo = o.scan && h.d.u == k.d.u && h.offset_hz == k.offset_hz &&
                                  h.d.metric < 0.25f * k.d.metric;
            if (same || neighbour_band || cut_echo) {
                dup = true;
                break;
            }
        }
        if (!dup)
            kept.push_back(h);
    }
    std::sort(kept.begin(), kept.end(), [](const found& a, const found& b) {
        return a.sample != b.sample ? a.sample < b.sample : a.d.preamble < b.d.preamble;
    });

    std::printf("%12s %8s %5s %5s %9s %10s %13s %8s %8s %4s\n", "sample", "preamble", "root", "u",
                "delay_us", "delay_smp", "offset_Hz", "snr_dB", "metric", "TA");
    std::ostringstream json;
    json.precision(12);
    json << "[";
    for (size_t i = 0; i < kept.size(); i++) {
        const auto& h = kept[i];
        const double snr =
            10 * std::log10(std::max(h.d.power, 1e-30f) / std::max(h.d.noise, 1e-30f));
        const int ta = core::prach_timing_advance(h.d.delay_us * 1e-6, mu_of(o.scs));
        std::printf("%12llu %8d %5d %5d %9.3f %10.2f %13.0f %8.1f %8.1f %4d\n",
                    static_cast<unsigned long long>(h.sample), h.d.preamble, h.d.logical_root,
                    h.d.u, h.d.delay_us, h.d.delay_samples, h.offset_hz, snr, h.d.metric, ta);
        json << (i ? ",\n " : "\n ") << "{\"preamble\": " << h.d.preamble
             << ", \"root\": " << h.d.logical_root << ", \"u\": " << h.d.u
             << ", \"sample\": " << h.sample << ", \"delay_us\": " << h.d.delay_us
             << ", \"delay_samples\": " << h.d.delay_samples << ", \"offset_hz\": " << h.offset_hz
             << ", \"snr_db\": " << snr
             << ", \"power_db\": " << 10 * std::log10(std::max(h.d.power, 1e-30f))
             << ", \"noise_db\": " << 10 * std::log10(std::max(h.d.noise, 1e-30f))
             << ", \"metric\": " << h.d.metric << ", \"threshold\": " << h.d.threshold
             << ", \"timing_advance\": " << ta << "}";
    }
    json << "\n]\n";
    const double seconds = double(base + buf[0].size()) / rate;
    std::printf("%zu preamble%s in %.3f s of capture (%llu trial%s x %zu band%s x %zu root%s), "
                "%.2f s wall on %s\n",
                kept.size(), kept.size() == 1 ? "" : "s", seconds,
                static_cast<unsigned long long>(trials), trials == 1 ? "" : "s", offsets.size(),
                offsets.size() == 1 ? "" : "s", roots.size(), roots.size() == 1 ? "" : "s", wall,
                dev.is_cuda() ? dev.to_string().c_str() : "the CPU twin");
    gpuofdm_apps::write_text_file(o.json, json.str());
    if (o.expect >= 0) {
        const bool pass = int(kept.size()) == o.expect;
        std::printf("%s: %zu preambles found, %d expected\n", pass ? "PASS" : "FAIL", kept.size(),
                    o.expect);
        return pass ? 0 : 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    return gpuofdm_apps::run_app("gpuofdm_prach", [&] {
        const options o = parse(argc, argv);
        return o.synthesize.empty() ? detect(o) : synthesize(o);
    });
}
