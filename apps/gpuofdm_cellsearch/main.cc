/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gpuofdm_cellsearch: every cell of a recording. The capture is channelized to every raster
// candidate of the standard inside its band (or the offsets given) and searched window by
// window (PSS over timing and frequency, SSS, ...); a table of the cells found, strongest
// first, and optionally JSON. --synthesize writes a recording of chosen cells to try it on.

#include "../common/app_main.h"
#include "../common/cli_options.h"
#include "../common/sigmf.h"
#include "search_params.h"

#include "runtime/device.h"
#include "sync/cell_search_stream.h"
#include "sync/sync_signal_synth.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace core = gr::gpuofdm::core;
using cf = std::complex<float>;

namespace {

struct options {
    std::string input;
    std::string standard;
    double rate = 0;
    double center = 0;
    std::string offsets;
    int scs = 30;
    std::string format = "cf32";
    std::string json;
    std::string device = "auto";
    int periods = 1;
    bool combine_symbols = false;
    double sro_ppm = 20;
    double pss_threshold = 0, sss_threshold = 0, cfo_range = 0;
    int pss_steps = -1;
    double window_ms = 0;
    int expect = -1;
    bool quiet = false;
    // --synthesize
    std::string synthesize;
    std::string cells;
    double seconds = 0.05;
    double snr = 10;
    uint64_t seed = 1;
};

void usage()
{
    std::puts("usage: gpuofdm_cellsearch FILE --standard nr|lte|5gtf [options]\n"
              "  Finds every cell of a recording: all raster candidates of the standard inside\n"
              "  the captured band, unknown timing and frequency offset.\n"
              "  FILE             SigMF (FILE.sigmf-meta, FILE.sigmf-data, or FILE with a\n"
              "                   FILE.sigmf-meta beside it: rate, centre and datatype from it)\n"
              "                   or raw I/Q in --format\n"
              "  --standard S     nr, lte or 5gtf\n"
              "  --rate HZ        sample rate, 1.92e6..245.76e6 (SigMF: from the metadata)\n"
              "  --center HZ      centre frequency (SigMF: from the metadata; 0: unknown, offsets\n"
              "                   from the capture's centre only; NR then needs --offsets)\n"
              "  --offsets LIST   candidate offsets from the centre in Hz, comma-separated,\n"
              "                   instead of the raster (NR: every GSCN; LTE: every 100 kHz;\n"
              "                   5GTF: the centre)\n"
              "  --scs KHZ        NR SSB subcarrier spacing, 15 or 30 (default 30)\n"
              "  --format F       raw I/Q: cf32 (default), cs16 or cs8\n"
              "  --json OUT       write the cells found as a JSON list\n"
              "  --device S       auto (default), cpu, cuda, cuda:N\n"
              "  --periods K      sync periods whose PSS metrics are averaged, 1..16 (default 1;\n"
              "                   more finds weaker cells)\n"
              "  --combine-symbols  5GTF: also average over each sync subframe's 14 symbols (a\n"
              "                   cell whose sync symbols all reach the receiver: about 11 dB\n"
              "                   more); one detection per subframe, at its symbol 0\n"
              "  --sro-ppm PPM    sample-clock offset the combining follows, 0..100 (default\n"
              "                   20): the periods' PSS metrics are added along the best drift\n"
              "                   path up to it\n"
              "  --pss-threshold T, --sss-threshold T   detection thresholds (metrics are 1 on\n"
              "                   average in noise; defaults 16 and 14.75, LTE's SSS 13.5:\n"
              "                   1e-5 false alarms per sync period and candidate)\n"
              "  --pss-steps N    steps below them, a PSS 1 lower and an SSS higher each: weaker\n"
              "                   cells, about e times the SSS readings of noise a step; -1 (the\n"
              "                   default): 3 with NR's or LTE's --periods > 1, else none; 0..6\n"
              "  --cfo-range HZ   frequency search range (default: one subcarrier spacing)\n"
              "  --window-ms MS   capture searched per call (default 40, or enough for --periods)\n"
              "  --expect N       FAIL (exit 1) when fewer than N distinct cells are found\n"
              "  --quiet          no progress lines\n"
              "  --synthesize OUT write OUT.sigmf-data/-meta with --cells at --rate, --standard,\n"
              "                   --center, --seconds (default 0.05) and --snr (dB over the sync\n"
              "                   signal's band, default 10), then exit\n"
              "  --cells LIST     for --synthesize: ID@OFFSET_HZ[@CFO_HZ] comma-separated\n"
              "  --seed N         for --synthesize: the noise's seed (default 1)\n"
              "  --help, --version");
}

options parse(int argc, char** argv)
{
    using namespace gpuofdm_apps;
    options o;
    parse_cli_after_input(argc, argv, o.input,
                          {
                              value("--input", o.input),
                              value("--standard", o.standard),
                              value("--rate", o.rate),
                              value("--center", o.center),
                              value("--offsets", o.offsets),
                              value("--scs", o.scs),
                              value("--format", o.format),
                              value("--json", o.json),
                              value("--device", o.device),
                              value("--periods", o.periods),
                              flag("--combine-symbols", o.combine_symbols),
                              value("--sro-ppm", o.sro_ppm),
                              value("--pss-threshold", o.pss_threshold),
                              value("--sss-threshold", o.sss_threshold),
                              value("--pss-steps", o.pss_steps),
                              value("--cfo-range", o.cfo_range),
                              value("--window-ms", o.window_ms),
                              value("--expect", o.expect),
                              flag("--quiet", o.quiet),
                              value("--synthesize", o.synthesize),
                              value("--cells", o.cells),
                              value("--seconds", o.seconds),
                              value("--snr", o.snr),
                              value("--seed", o.seed),
                          },
                          usage, "gpuofdm_cellsearch");
    if (o.standard.empty()) {
        throw std::invalid_argument("--standard: give nr, lte or 5gtf (try --help)");
    }
    core::parse_cell_standard(o.standard); // names --standard's values when wrong
    format_from_name(o.format);
    if (o.synthesize.empty() && o.input.empty()) {
        throw std::invalid_argument("FILE: give the recording (try --help)");
    }
    if (!(o.window_ms == 0 || (o.window_ms >= 1 && o.window_ms <= 10000))) {
        throw std::invalid_argument("--window-ms: 1..10000");
    }
    if (!(o.sro_ppm >= 0 && o.sro_ppm <= 100)) {
        throw std::invalid_argument("--sro-ppm: 0..100, got " + std::to_string(o.sro_ppm));
    }
    return o;
}

std::vector<double> offsets_from(const options& o)
{
    return o.offsets.empty() ? std::vector<double>{}
                             : gpuofdm_apps::parse_number_list<double>("--offsets", o.offsets);
}

int synthesize(const options& o)
{
    core::synth_params p;
    p.standard = core::parse_cell_standard(o.standard);
    p.sample_rate = o.rate;
    p.scs_khz = o.scs;
    p.nr_case = o.scs == 15 ? 'A' : 'C';
    p.center_hz = o.center;
    p.seed = o.seed;
    std::stringstream list(o.cells);
    std::string item;
    while (std::getline(list, item, ',')) {
        std::vector<std::string> parts;
        std::stringstream fields(item);
        std::string f;
        while (std::getline(fields, f, '@')) {
            parts.push_back(f);
        }
        if (parts.size() < 2 || parts.size() > 3) {
            throw std::invalid_argument("--cells: expected ID@OFFSET_HZ[@CFO_HZ], got '" + item +
                                        "'");
        }
        core::synth_cell c;
        c.cell_id = gpuofdm_apps::parse_number<int>("--cells", parts[0]);
        c.offset_hz = gpuofdm_apps::parse_number<double>("--cells", parts[1]);
        c.cfo_hz = parts.size() == 3 ? gpuofdm_apps::parse_number<double>("--cells", parts[2]) : 0;
        c.start_s = 1e-3 * static_cast<double>(p.cells.size() + 1) / 3;
        p.cells.push_back(c);
    }
    if (p.cells.empty()) {
        throw std::invalid_argument("--cells: give at least one ID@OFFSET_HZ");
    }
    p.noise_power = core::synth_noise_power_for_snr(p, o.snr);
    core::sync_signal_synth synth(p);
    const auto n = static_cast<size_t>(o.seconds * o.rate);
    const auto fmt = gpuofdm_apps::format_from_name(o.format);
    std::ofstream data(o.synthesize + ".sigmf-data", std::ios::binary);
    std::vector<cf> block(1 << 16);
    for (size_t done = 0; done < n;) {
        const size_t m = std::min(block.size(), n - done);
        synth.generate(block.data(), m);
        for (size_t i = 0; i < m; i++) {
            if (fmt.bytes_per_sample == 8) {
                data.write(reinterpret_cast<const char*>(&block[i]), 8);
            } else {
                const float s = fmt.full_scale / 8; // headroom for the noise
                auto q = [&](float v) {
                    return std::lround(std::clamp(v * s, -fmt.full_scale, fmt.full_scale - 1));
                };
                if (fmt.bytes_per_sample == 4) {
                    const int16_t iq[2] = { static_cast<int16_t>(q(block[i].real())),
                                            static_cast<int16_t>(q(block[i].imag())) };
                    data.write(reinterpret_cast<const char*>(iq), 4);
                } else {
                    const int8_t iq[2] = { static_cast<int8_t>(q(block[i].real())),
                                           static_cast<int8_t>(q(block[i].imag())) };
                    data.write(reinterpret_cast<const char*>(iq), 2);
                }
            }
        }
        done += m;
    }
    if (!data) {
        throw std::runtime_error(o.synthesize + ".sigmf-data: cannot write");
    }
    gpuofdm_apps::sigmf_meta meta;
    meta.datatype = fmt.datatype;
    meta.sample_rate = o.rate;
    meta.description = o.standard + " cells " + o.cells + " at " + std::to_string(o.snr) + " dB";
    meta.captures.push_back({ 0, o.center });
    gpuofdm_apps::write_sigmf_meta(o.synthesize + ".sigmf-meta", meta);
    std::printf("wrote %s.sigmf-data (%zu samples) and .sigmf-meta\n", o.synthesize.c_str(), n);
    return 0;
}

using detection = core::cell_search_stream::detection;

int search(const options& o)
{
    gpuofdm_apps::recording rec(o.input, o.format);
    const double rate = rec.meta().sample_rate > 0 && o.rate == 0 ? rec.meta().sample_rate : o.rate;
    if (rate <= 0) {
        throw std::invalid_argument("--rate: give the sample rate (the recording has none)");
    }
    double center = o.center;
    if (center == 0 && !rec.meta().captures.empty()) {
        center = rec.meta().captures.front().frequency;
    }
    core::raster_params rp;
    rp.standard = core::parse_cell_standard(o.standard);
    rp.sample_rate = rate;
    rp.center_hz = center;
    rp.ssb_scs_khz = o.scs;
    rp.offsets_hz = offsets_from(o);

    core::cell_search_params sp = gpuofdm_apps::search_params(rp.standard, o);
    sp.sro_ppm = o.sro_ppm;
    const core::device_spec dev = core::resolve_device(o.device);
    const double window_s =
        o.window_ms > 0 ? o.window_ms * 1e-3 : core::cell_search_stream::default_window_s(sp);
    core::cell_search_stream stream(rp, sp, window_s, dev);
    const int channels = static_cast<int>(stream.candidates().size());
    std::printf("gpuofdm_cellsearch: %s, %s at %.6g Msps%s, %d candidate%s, %s\n", o.input.c_str(),
                core::cell_standard_name(sp.standard), rate / 1e6,
                center > 0 ? (", centre " + gpuofdm_apps::json::number(center) + " Hz").c_str()
                           : "",
                channels, channels == 1 ? "" : "s", dev.to_string().c_str());

    std::vector<detection> found;
    std::ifstream probe(rec.data_path(), std::ios::binary | std::ios::ate);
    const double total =
        probe ? static_cast<double>(probe.tellg()) / rec.format().bytes_per_sample : 0;
    std::vector<cf> block(1 << 18);
    auto last_progress = std::chrono::steady_clock::now();
    const auto t0 = last_progress;
    while (const size_t n = rec.read(block.data(), block.size())) {
        for (const auto& f : stream.push(block.data(), n)) {
            found.push_back(f);
        }
        const auto now = std::chrono::steady_clock::now();
        if (!o.quiet && total > 0 && now - last_progress > std::chrono::seconds(1)) {
            std::fprintf(stderr, "  %5.1f %% of %.3f s, %zu detections\n",
                         100.0 * static_cast<double>(stream.pushed()) / total, total / rate,
                         found.size());
            last_progress = now;
        }
    }
    for (const auto& f : stream.finish()) {
        found.push_back(f);
    }
    const uint64_t read_total = stream.pushed();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // One line per cell (candidate, ID): its strongest detection and how often it was heard.
    std::map<std::pair<int, int>, std::pair<detection, int>> cells;
    for (const auto& f : found) {
        auto key = std::make_pair(f.cell.channel, f.cell.cell_id);
        auto it = cells.find(key);
        if (it == cells.end()) {
            cells[key] = { f, 1 };
        } else {
            it->second.second++;
            if (f.cell.pss_metric > it->second.first.cell.pss_metric) {
                it->second.first = f;
            }
        }
    }
    std::vector<std::pair<detection, int>> list;
    for (const auto& kv : cells) {
        list.push_back(kv.second);
    }
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
        return a.first.cell.pss_metric > b.first.cell.pss_metric;
    });
    std::printf("%-5s %5s %5s %4s %13s %7s %12s %9s %7s %8s %6s  %s\n", "std", "cell", "nid1",
                "nid2", "offset_Hz", "raster", "sample", "cfo_Hz", "snr_dB", "metric", "seen",
                "detail");
    std::ostringstream json;
    json.precision(12);
    json << "[";
    for (size_t i = 0; i < list.size(); i++) {
        const auto& f = list[i].first;
        const auto& d = f.cell;
        std::string detail;
        if (d.ssb_index >= 0) {
            detail = "ssb " + std::to_string(d.ssb_index);
        }
        if (d.subframe >= 0) {
            detail += "subframe " + std::to_string(d.subframe);
        }
        if (d.symbol >= 0) {
            detail += " symbol " + std::to_string(d.symbol);
        }
        if (d.tdd >= 0) {
            detail += std::string(d.tdd ? " TDD" : " FDD") + (d.extended_cp ? " ext CP" : "");
        }
        std::printf("%-5s %5d %5d %4d %13.0f %7d %12llu %9.0f %7.1f %8.1f %6d  %s\n",
                    core::cell_standard_name(sp.standard), d.cell_id, d.nid1, d.nid2,
                    f.candidate.offset_hz, f.candidate.raster_number,
                    static_cast<unsigned long long>(f.sample), d.cfo_hz, d.snr_db, d.pss_metric,
                    list[i].second, detail.c_str());
        json << (i ? ",\n " : "\n ") << "{\"standard\": \"" << core::cell_standard_name(sp.standard)
             << "\", \"cell_id\": " << d.cell_id << ", \"nid1\": " << d.nid1
             << ", \"nid2\": " << d.nid2 << ", \"offset_hz\": " << f.candidate.offset_hz
             << ", \"absolute_hz\": " << f.candidate.absolute_hz
             << ", \"raster_number\": " << f.candidate.raster_number << ", \"sample\": " << f.sample
             << ", \"cfo_hz\": " << d.cfo_hz << ", \"snr_db\": " << d.snr_db
             << ", \"metric\": " << d.pss_metric << ", \"sss_metric\": " << d.sss_metric
             << ", \"dmrs_metric\": " << d.dmrs_metric << ", \"power_db\": " << d.power_db
             << ", \"detections\": " << list[i].second << ", \"ssb_index\": " << d.ssb_index
             << ", \"half_frame\": " << d.half_frame << ", \"subframe\": " << d.subframe
             << ", \"symbol\": " << d.symbol << ", \"tdd\": " << d.tdd
             << ", \"extended_cp\": " << d.extended_cp << "}";
    }
    json << "\n]\n";
    std::printf("%zu cell%s in %.3f s of capture (%zu detections), %.2f s wall: %.2fx real time "
                "on %s\n",
                list.size(), list.size() == 1 ? "" : "s", static_cast<double>(read_total) / rate,
                found.size(), wall, static_cast<double>(read_total) / rate / wall,
                dev.is_cuda() ? dev.to_string().c_str() : "the CPU twin");
    gpuofdm_apps::write_text_file(o.json, json.str());
    if (o.expect >= 0) {
        const bool pass = static_cast<int>(list.size()) >= o.expect;
        std::printf("%s: %zu cells found, %d expected\n", pass ? "PASS" : "FAIL", list.size(),
                    o.expect);
        return pass ? 0 : 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    return gpuofdm_apps::run_app("gpuofdm_cellsearch", [&] {
        const options o = parse(argc, argv);
        return o.synthesize.empty() ? search(o) : synthesize(o);
    });
}
