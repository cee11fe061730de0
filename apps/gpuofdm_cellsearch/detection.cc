/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gpuofdm_cellsearch_pd: detection probability against SNR and false alarms in noise of
// the cell search at one raster candidate, Monte Carlo, core level (no GNU Radio).
//
// A trial: one cell of a random ID, synthesized by sync_signal_synth at the candidate rate
// (each symbol evaluated as its subcarriers at the sample instants, not by the searcher's
// FFTs) with a random frame timing, a CFO uniform over the search range and a sample-clock
// offset of +-sro ppm, through the channel (AWGN, or 3 taps at 0, CP/4 and CP/2 with
// powers 0, -3, -6 dB, each tap complex Gaussian, the realization scaled to unit energy),
// complex white noise at the SNR over the sync signal's own bandwidth (its subcarriers x
// spacing). Its buffer is history + one sync period + lookahead samples: one sync period
// of PSS timings (NR 20 ms, LTE and 5GTF 5 ms) is searched. A trial is a success when the
// strongest detection (PSS metric) has the cell's ID and a timing within one normal CP of
// one of its PSS symbols. A noise-only window is the same buffer without the cell; every
// detection in it is a false alarm.
//
// --scan searches at low thresholds and writes every detection's (PSS, SSS) metric pair,
// so scripts/cellsearch_curves.py can place the thresholds for a false-alarm rate.

#include "../common/app_main.h"
#include "../common/cli_options.h"
#include "search_params.h"

#include "runtime/device.h"
#include "sync/cell_search.h"
#include "sync/sync_signal_synth.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace core = gr::gpuofdm::core;
using cf = std::complex<float>;

namespace {

struct options {
    std::vector<std::string> standards{ "nr", "lte", "5gtf" };
    std::vector<std::string> channels{ "awgn", "multipath" };
    std::vector<double> snrs{ -12, -10, -8, -6, -4, -2, 0 };
    int trials = 200;
    int noise_windows = 1000;
    int periods = 1;
    bool combine_symbols = false;
    int scs = 30;
    double sro_ppm = 20;
    double cfo_range = 0;
    double pss_threshold = 0, sss_threshold = 0;
    int pss_steps = -1;
    std::string device = "auto";
    uint64_t seed = 1;
    std::string json;
    bool scan = false;
    double scan_pss = 12;
    // Bounds that fail the run (exit 1): Pd at an SNR at least this, false windows at most.
    double require_pd = -1, require_at_db = 0;
    int max_false = -1;
    bool quiet = false;
    bool verbose = false;
};

void usage()
{
    std::puts(
        "usage: gpuofdm_cellsearch_pd [options]\n"
        "  Pd vs SNR and false alarms in noise of the cell search at one raster candidate.\n"
        "  --standards LIST  nr, lte, 5gtf, comma-separated (all three)\n"
        "  --channels LIST   awgn, multipath (3 taps at 0, CP/4, CP/2; 0, -3, -6 dB; Rayleigh,\n"
        "                    unit energy) (both)\n"
        "  --snrs LIST       dB over the sync signal's bandwidth (-12,-10,...,0)\n"
        "  --trials N        trials per point (200)\n"
        "  --noise-windows N noise-only windows per standard (1000; 0: none)\n"
        "  --periods K       sync periods combined, 1..16 (1)\n"
        "  --combine-symbols 5GTF: the 14 symbols of each sync subframe combined as well\n"
        "  --scs KHZ         NR SSB subcarrier spacing 15 or 30 (30)\n"
        "  --sro PPM         sample-clock offset, sign random per trial (20)\n"
        "  --cfo-range HZ    search range; the CFO is uniform over it (default: one spacing)\n"
        "  --pss-threshold T, --sss-threshold T   (the search's defaults)\n"
        "  --pss-steps N     steps of PSS and SSS levels below them (-1: the search's default)\n"
        "  --device S        auto (default), cpu, cuda, cuda:N\n"
        "  --seed N          (1)\n"
        "  --json OUT        write the curves (and with --scan the metric pairs) as JSON\n"
        "  --scan            search at PSS --scan-pss (12) and SSS 1.0001 and keep every\n"
        "                    detection's metrics (periods 1); the table still applies the\n"
        "                    thresholds\n"
        "  --require-pd P@DB exit 1 when Pd at DB is below P on any curve\n"
        "  --max-false N     exit 1 when more than N noise windows hold a detection\n"
        "  --quiet           no progress lines\n"
        "  --verbose         each missed trial on stderr: the cell, its CFO and timing;\n"
        "                    and each noise window's detection: its metrics\n"
        "  --help, --version");
}

options parse(int argc, char** argv)
{
    using namespace gpuofdm_apps;
    options o;
    auto words = [](const std::string& v) {
        std::vector<std::string> out;
        std::stringstream ss(v);
        std::string item;
        while (std::getline(ss, item, ',')) {
            out.push_back(item);
        }
        return out;
    };
    std::string standards, channels, require;
    parse_cli(
        argc, argv,
        {
            value("--standards", standards),
            value("--channels", channels),
            custom("--snrs",
                   [&o](const std::string& v) { o.snrs = parse_number_list<double>("--snrs", v); }),
            value("--trials", o.trials),
            value("--noise-windows", o.noise_windows),
            value("--periods", o.periods),
            flag("--combine-symbols", o.combine_symbols),
            value("--scs", o.scs),
            value("--sro", o.sro_ppm),
            value("--cfo-range", o.cfo_range),
            value("--pss-threshold", o.pss_threshold),
            value("--sss-threshold", o.sss_threshold),
            value("--pss-steps", o.pss_steps),
            value("--device", o.device),
            value("--seed", o.seed),
            value("--json", o.json),
            flag("--scan", o.scan),
            value("--scan-pss", o.scan_pss),
            value("--require-pd", require),
            value("--max-false", o.max_false),
            flag("--quiet", o.quiet),
            flag("--verbose", o.verbose),
        },
        usage, "gpuofdm_cellsearch_pd");
    if (!standards.empty()) {
        o.standards = words(standards);
    }
    for (const auto& s : o.standards) {
        core::parse_cell_standard(s);
    }
    if (!channels.empty()) {
        o.channels = words(channels);
    }
    for (const auto& c : o.channels) {
        if (c != "awgn" && c != "multipath") {
            throw std::invalid_argument("--channels: awgn or multipath, got '" + c + "'");
        }
    }
    if (o.trials < 0 || o.noise_windows < 0) {
        throw std::invalid_argument("--trials, --noise-windows: >= 0");
    }
    if (!(o.sro_ppm >= 0 && o.sro_ppm <= 1000)) {
        throw std::invalid_argument("--sro: 0..1000 ppm");
    }
    if (o.scan && (o.periods != 1 || o.combine_symbols)) {
        throw std::invalid_argument("--scan: with --periods 1 only, without --combine-symbols");
    }
    if (o.scan && o.pss_steps > 0) {
        throw std::invalid_argument(
            "--scan: without --pss-steps (scripts/cellsearch_curves.py --staircase reads them)");
    }
    if (!(o.scan_pss > 1)) {
        throw std::invalid_argument("--scan-pss: > 1");
    }
    if (!require.empty()) {
        const auto at = require.find('@');
        if (at == std::string::npos) {
            throw std::invalid_argument("--require-pd: expected P@DB, got '" + require + "'");
        }
        o.require_pd = parse_number<double>("--require-pd", require.substr(0, at));
        o.require_at_db = parse_number<double>("--require-pd", require.substr(at + 1));
    }
    return o;
}

//! A detection reduced to what the statistics need.
struct scored {
    float pss = 0, sss = 0;
    float dmrs = -1;    //!< NR: the PBCH DM-RS metric
    bool ok = false;    //!< right cell ID at a right timing
    bool extra = false; //!< and the standard's fields right (LTE subframe, 5GTF symbol, SSB)
    double cfo_err = 0; //!< where ok: the reported CFO minus the cell's, Hz
};

//! Whether \p dets, seen at thresholds (tp, ts), give the right cell first; and any wrong.
struct verdict {
    bool success = false, fields = false, wrong = false, any = false;
    double cfo_err = 0; //!< where success: the first detection's CFO error, Hz
};
verdict judge(const std::vector<scored>& dets, double tp, double ts)
{
    verdict v;
    const scored* best = nullptr;
    for (const auto& d : dets) {
        if (d.pss < tp || d.sss < ts) {
            continue;
        }
        v.any = true;
        v.wrong |= !d.ok;
        if (!best || d.pss > best->pss) {
            best = &d;
        }
    }
    v.success = best && best->ok;
    v.fields = v.success && best->extra;
    v.cfo_err = v.success ? best->cfo_err : 0;
    return v;
}

uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t z = a * 0x9E3779B97F4A7C15ull + b + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

class experiment
{
public:
    experiment(const options& o, core::cell_standard standard, const core::device_spec& dev)
        : d_o(o), d_standard(standard)
    {
        d_sp = gpuofdm_apps::search_params(standard, o);
        d_tp = d_sp.pss_threshold;
        d_ts = d_sp.sss_level();
        core::cell_search_params run = d_sp;
        if (o.scan) {
            run.pss_threshold = std::min(o.scan_pss, d_tp);
            run.sss_threshold = 1.0001;
            run.pss_steps = 0;
            run.max_peaks = 1024;
        }
        d_search = core::make_cell_search(run, dev);
        d_layout = d_search->layout();
        d_n = d_search->history() + d_sp.period_samples() + d_search->lookahead() + 1;
        const auto hyp = d_sp.cfo_hypotheses();
        d_cfo_max = hyp.back();
    }

    double thr_pss() const { return d_tp; }
    double thr_sss() const { return d_ts; }
    //! The levels the search holds the (combined) metrics to (with --scan, its low ones).
    double search_pss() const { return d_search->pss_metric_threshold(); }
    double search_sss() const { return d_search->sss_metric_threshold(); }
    //! Every pair of levels a detection may pass (the first: search_pss(), search_sss()).
    const std::vector<core::cell_search::metric_step>& search_steps() const
    {
        return d_search->metric_steps();
    }
    bool metric_thresholds_differ() const
    {
        return !d_o.scan && (search_pss() != d_tp || search_sss() != d_ts);
    }
    //! What a detection's reported metrics must pass to count: with --scan the thresholds
    //! (the search ran lower); else nothing more, the search applied them (over combined
    //! periods, to the mean metric, at the lower level that noise passes as rarely).
    double count_pss() const { return d_o.scan ? d_tp : 0; }
    double count_sss() const { return d_o.scan ? d_ts : 0; }
    size_t window() const { return d_n; }
    //! The last trial's cell: its ID, CFO, sample-clock offset and frame start.
    const std::string& last_cell() const { return d_last; }
    double window_s() const
    {
        return static_cast<double>(d_sp.period_samples()) / d_layout.rate_hz;
    }

    //! One trial's detections; snr_db NaN: noise only.
    std::vector<scored> trial(const std::string& channel, double snr_db, uint64_t seed)
    {
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<double> uni(0, 1);
        core::synth_params p;
        p.standard = d_standard;
        p.sample_rate = d_layout.rate_hz;
        p.scs_khz = d_o.scs;
        p.nr_case = d_o.scs == 15 ? 'A' : 'C';
        p.sro_ppm = (uni(rng) < 0.5 ? -1 : 1) * d_o.sro_ppm;
        std::vector<std::complex<double>> y(d_n, 0.0);
        core::synth_cell cell;
        const bool signal = !std::isnan(snr_db);
        double noise_power = 1;
        std::vector<double> truth;
        if (signal) {
            const int ids = d_standard == core::cell_standard::nr ? 1008 : 504;
            cell.cell_id = static_cast<int>(uni(rng) * ids);
            cell.cfo_hz = (2 * uni(rng) - 1) * d_cfo_max;
            p.cells = { cell };
            core::sync_signal_synth probe(p);
            cell.start_s = uni(rng) * probe.period_s();
            p.cells = { cell };
            core::sync_signal_synth synth(p);
            std::vector<cf> x(d_n);
            synth.generate(x.data(), d_n);
            std::vector<std::pair<int, std::complex<double>>> taps{ { 0, 1.0 } };
            if (channel == "multipath") {
                std::normal_distribution<double> g(0, std::sqrt(0.5));
                taps.clear();
                double energy = 0;
                const double powers[3] = { 1.0, 0.5, 0.25 };
                const int delays[3] = { 0, d_layout.cp / 4, d_layout.cp / 2 };
                for (int k = 0; k < 3; k++) {
                    const std::complex<double> h(g(rng), g(rng));
                    taps.emplace_back(delays[k], h * std::sqrt(powers[k]));
                    energy += std::norm(taps.back().second);
                }
                for (auto& t : taps) {
                    t.second /= std::sqrt(energy);
                }
            }
            for (const auto& [delay, h] : taps) {
                for (size_t i = static_cast<size_t>(delay); i < d_n; i++) {
                    y[i] += h * std::complex<double>(x[i - static_cast<size_t>(delay)]);
                }
            }
            noise_power = core::synth_noise_power_for_snr(p, snr_db);
            // The PSS symbols' CP starts in this buffer's samples (sample i at i / (fs (1 +
            // ppm))).
            const double scale = p.sample_rate * (1 + p.sro_ppm * 1e-6);
            const double period = synth.period_s();
            for (long long k = -1; k * period < static_cast<double>(d_n) / p.sample_rate + period;
                 k++) {
                for (const auto& slot : synth.slots_in_period()) {
                    const bool pss =
                        d_standard == core::cell_standard::lte ? slot.part == 1 : slot.part == 0;
                    if (pss) {
                        truth.push_back(
                            (cell.start_s + static_cast<double>(k) * period + slot.start_s) *
                            scale);
                        d_truth_slots.push_back(slot);
                    }
                }
            }
        }
        d_last = signal
                     ? "cell " + std::to_string(cell.cell_id) + ", CFO " +
                           std::to_string(cell.cfo_hz) + " Hz, SRO " + std::to_string(p.sro_ppm) +
                           " ppm, frame start " + std::to_string(cell.start_s * 1e3) + " ms"
                     : "noise";
        std::normal_distribution<double> g(0, std::sqrt(noise_power / 2));
        std::vector<cf> rx(d_n);
        for (size_t i = 0; i < d_n; i++) {
            rx[i] = cf(y[i] + std::complex<double>(g(rng), g(rng)));
        }
        const auto dets = d_search->search(rx.data(), d_n, 1, d_n, 0);
        std::vector<scored> out;
        for (const auto& d : dets) {
            scored s;
            s.pss = static_cast<float>(d.pss_metric);
            s.sss = static_cast<float>(d.sss_metric);
            s.dmrs = static_cast<float>(d.dmrs_metric);
            if (signal && d.cell_id == cell.cell_id) {
                for (size_t k = 0; k < truth.size(); k++) {
                    if (std::fabs(static_cast<double>(d.sample) - truth[k]) <= d_layout.cp) {
                        s.ok = true;
                        s.extra = fields_right(d, d_truth_slots[k]);
                        s.cfo_err = d.cfo_hz - cell.cfo_hz;
                        break;
                    }
                }
            }
            out.push_back(s);
        }
        d_truth_slots.clear();
        return out;
    }

private:
    bool fields_right(const core::cell_detection& d,
                      const core::sync_signal_synth::symbol_slot& slot) const
    {
        switch (d_standard) {
        case core::cell_standard::nr:
            return d.ssb_index == slot.ssb_index;
        case core::cell_standard::lte:
            return d.subframe == slot.subframe && d.tdd == 0 && d.extended_cp == 0;
        case core::cell_standard::fivegtf:
            return d.subframe == slot.subframe && d.symbol == slot.symbol;
        }
        return false;
    }

    const options& d_o;
    core::cell_standard d_standard;
    core::cell_search_params d_sp;
    double d_tp = 0, d_ts = 0;
    std::unique_ptr<core::cell_search> d_search;
    core::cell_search_layout d_layout;
    size_t d_n = 0;
    double d_cfo_max = 0;
    std::vector<core::sync_signal_synth::symbol_slot> d_truth_slots;
    std::string d_last;
};

std::string num(double v)
{
    std::ostringstream s;
    s.precision(6);
    s << v;
    return s.str();
}

} // namespace

int main(int argc, char** argv)
{
    return gpuofdm_apps::run_app("gpuofdm_cellsearch_pd", [&] {
        const options o = parse(argc, argv);
        const core::device_spec dev = core::resolve_device(o.device);
        std::ostringstream json;
        json << "{\"tool\": \"gpuofdm_cellsearch_pd\", \"device\": \"" << dev.to_string()
             << "\", \"periods\": " << o.periods
             << ", \"combine_symbols\": " << (o.combine_symbols ? "true" : "false")
             << ", \"sro_ppm\": " << o.sro_ppm << ", \"trials\": " << o.trials
             << ", \"noise_windows\": " << o.noise_windows
             << ", \"scan\": " << (o.scan ? "true" : "false") << ",\n \"standards\": [";
        bool pass = true;
        std::printf("gpuofdm_cellsearch_pd on %s, %d period%s combined%s, %.0f ppm SRO\n",
                    dev.is_cuda() ? dev.to_string().c_str() : "the CPU twin", o.periods,
                    o.periods == 1 ? "" : "s",
                    o.combine_symbols ? " (5GTF: and each sync subframe's 14 symbols)" : "",
                    o.sro_ppm);
        for (size_t si = 0; si < o.standards.size(); si++) {
            const auto standard = core::parse_cell_standard(o.standards[si]);
            experiment ex(o, standard, dev);
            const auto t0 = std::chrono::steady_clock::now();
            std::printf("\n%s: thresholds PSS %.2f SSS %.2f, window %.1f ms (%zu samples at "
                        "the candidate rate)\n",
                        o.standards[si].c_str(), ex.thr_pss(), ex.thr_sss(), ex.window_s() * 1e3,
                        ex.window());
            if (ex.metric_thresholds_differ() || (!o.scan && ex.search_steps().size() > 1)) {
                std::printf("  %s: PSS %.2f SSS %.2f",
                            o.periods > 1 || o.combine_symbols ? "on the combined metrics"
                                                               : "levels",
                            ex.search_pss(), ex.search_sss());
                for (size_t j = 1; j < ex.search_steps().size(); j++) {
                    std::printf(", or PSS %.2f SSS %.2f", ex.search_steps()[j].pss,
                                ex.search_steps()[j].sss);
                }
                std::printf("\n");
            }
            std::printf("%-10s %7s %7s %7s %7s %7s %9s\n", "channel", "snr_dB", "trials", "Pd",
                        "fields", "wrong", "cfo_rms");
            json << (si ? ",\n  " : "\n  ") << "{\"standard\": \"" << o.standards[si]
                 << "\", \"pss_threshold\": " << ex.thr_pss()
                 << ", \"sss_threshold\": " << ex.thr_sss()
                 << ", \"pss_metric_threshold\": " << num(ex.search_pss())
                 << ", \"sss_metric_threshold\": " << num(ex.search_sss())
                 << ", \"metric_steps\": [";
            for (size_t j = 0; j < ex.search_steps().size(); j++) {
                json << (j ? ", " : "") << "[" << num(ex.search_steps()[j].pss) << ", "
                     << num(ex.search_steps()[j].sss) << "]";
            }
            json << "]"
                 << ", \"window_s\": " << num(ex.window_s()) << ", \"curves\": [";
            for (size_t ci = 0; ci < o.channels.size(); ci++) {
                json << (ci ? ",\n   " : "\n   ") << "{\"channel\": \"" << o.channels[ci]
                     << "\", \"points\": [";
                for (size_t k = 0; k < o.snrs.size(); k++) {
                    int success = 0, fields = 0, wrong = 0;
                    double cfo_sq = 0;
                    std::ostringstream pairs;
                    for (int t = 0; t < o.trials; t++) {
                        const uint64_t seed =
                            mix(mix(mix(o.seed, si), ci), mix(k, static_cast<uint64_t>(t)));
                        const auto dets = ex.trial(o.channels[ci], o.snrs[k], seed);
                        const verdict v = judge(dets, ex.count_pss(), ex.count_sss());
                        success += v.success;
                        cfo_sq += v.success ? v.cfo_err * v.cfo_err : 0;
                        if (o.verbose && !v.success) {
                            std::fprintf(stderr, "missed trial %d at %.1f dB: %s;", t, o.snrs[k],
                                         ex.last_cell().c_str());
                            for (const auto& d : dets) {
                                std::fprintf(stderr, " (PSS %.1f, SSS %.1f, %s)", d.pss, d.sss,
                                             d.ok ? "right" : "wrong");
                            }
                            std::fprintf(stderr, "\n");
                        }
                        fields += v.fields;
                        wrong += v.wrong;
                        if (o.scan) {
                            for (const auto& d : dets) {
                                pairs << (pairs.tellp() > 0 ? "," : "") << "[" << t << ","
                                      << num(d.pss) << "," << num(d.sss) << "," << d.ok << ","
                                      << num(d.dmrs) << "]";
                            }
                        }
                    }
                    const double pd = o.trials ? static_cast<double>(success) / o.trials : 0;
                    const double cfo_rms = success ? std::sqrt(cfo_sq / success) : 0;
                    std::printf("%-10s %7.1f %7d %7.4f %7.4f %7.4f %9.1f\n", o.channels[ci].c_str(),
                                o.snrs[k], o.trials, pd,
                                success ? static_cast<double>(fields) / success : 0,
                                o.trials ? static_cast<double>(wrong) / o.trials : 0, cfo_rms);
                    std::fflush(stdout);
                    json << (k ? ", " : "") << "{\"snr_db\": " << o.snrs[k]
                         << ", \"trials\": " << o.trials << ", \"success\": " << success
                         << ", \"fields_right\": " << fields << ", \"wrong\": " << wrong
                         << ", \"cfo_rms_hz\": " << num(cfo_rms);
                    if (o.scan) {
                        json << ", \"detections\": [" << pairs.str() << "]";
                    }
                    json << "}";
                    if (o.require_pd >= 0 && std::fabs(o.snrs[k] - o.require_at_db) < 1e-9 &&
                        pd < o.require_pd) {
                        std::printf("FAIL: %s %s Pd %.4f at %.1f dB, below %.4f\n",
                                    o.standards[si].c_str(), o.channels[ci].c_str(), pd, o.snrs[k],
                                    o.require_pd);
                        pass = false;
                    }
                }
                json << "]}";
            }
            json << "]";
            if (o.noise_windows > 0) {
                int false_windows = 0, false_dets = 0;
                double max_pss = 0;
                std::ostringstream pairs;
                for (int w = 0; w < o.noise_windows; w++) {
                    const uint64_t seed =
                        mix(mix(o.seed, si), mix(0xA0A0, static_cast<uint64_t>(w)));
                    const auto dets = ex.trial("awgn", std::nan(""), seed);
                    int passing = 0;
                    for (const auto& d : dets) {
                        const bool passes = d.pss >= ex.count_pss() && d.sss >= ex.count_sss();
                        passing += passes;
                        if (o.verbose && passes) {
                            std::fprintf(stderr,
                                         "false alarm in noise window %d: PSS %.2f, SSS %.2f\n", w,
                                         static_cast<double>(d.pss), static_cast<double>(d.sss));
                        }
                        max_pss = std::max(max_pss, static_cast<double>(d.pss));
                        if (o.scan) {
                            pairs << (pairs.tellp() > 0 ? "," : "") << "[" << w << "," << num(d.pss)
                                  << "," << num(d.sss) << "," << num(d.dmrs) << "]";
                        }
                    }
                    false_windows += passing > 0;
                    false_dets += passing;
                    if (!o.quiet && (w + 1) % 1000 == 0) {
                        std::fprintf(stderr, "  %s noise: %d of %d windows\n",
                                     o.standards[si].c_str(), w + 1, o.noise_windows);
                    }
                }
                std::printf("noise only: %d windows, %d with a detection (%d detections)\n",
                            o.noise_windows, false_windows, false_dets);
                json << ", \"noise\": {\"windows\": " << o.noise_windows
                     << ", \"false_windows\": " << false_windows
                     << ", \"false_detections\": " << false_dets;
                if (o.scan) {
                    json << ", \"detections\": [" << pairs.str() << "]";
                }
                json << "}";
                if (o.max_false >= 0 && false_windows > o.max_false) {
                    std::printf("FAIL: %s: %d noise windows with a detection, at most %d\n",
                                o.standards[si].c_str(), false_windows, o.max_false);
                    pass = false;
                }
            }
            json << "}";
            std::printf(
                "(%.1f s)\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        json << "\n ]\n}\n";
        gpuofdm_apps::write_text_file(o.json, json.str());
        if (o.require_pd >= 0 || o.max_false >= 0) {
            std::printf("%s\n", pass ? "PASS" : "FAIL");
        }
        return pass ? 0 : 1;
    });
}
