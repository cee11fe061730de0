/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gpuofdm_prach_mc: Monte Carlo measurement of the PRACH detector against 3GPP TS 38.104
// 8.4 (AWGN): the false-alarm probability on noise-only occasions and the detection
// probability at a per-RE, per-antenna SNR, a detection counting only with the right
// preamble and the timing error within 1.04 us (long formats), 0.52 us (short, 15 kHz)
// or 0.26 us (short, 30 kHz). The trials are frequency-domain bins as the front end
// delivers them: the 38.141-1 A.6 test preamble (format 0: N_CS 13, sequence 22, v 32;
// short formats: N_CS 23 at 15 kHz or 46 at 30 kHz, sequence 0, v 0) with a random
// delay (a linear phase across the bins, off the PDP grid) and a random phase per
// antenna, plus complex Gaussian noise of unit power per bin. The CPU twin, 64 trials
// a call. --calibrate finds, per point, the closed-form target whose threshold exactly
// `--false-alarm` of one set of noise-only trials pass (their largest metrics, measured
// at a lower threshold), the value the core's calibration table (prach_calibration.cc)
// holds; then Pfa is measured on other noise trials and Pd with it.

#include "../common/app_main.h"
#include "../common/cli_options.h"

#include "prach/prach_calibration.h"
#include "prach/prach_detector.h"
#include "prach/prach_preamble.h"
#include "runtime/fftw_plan.h"

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
using cd = std::complex<double>;

namespace {

constexpr int batch = 64; // trials (occasions) per detector call

struct point {
    std::string format;
    int scs_khz = 15; // short formats' spacing; 0 for the long ones
    int antennas = 2;
    int zcz = 1;
    int root = 22;
    int preamble = 32;
    std::vector<double> snr_db;
    double required_snr_db = NAN; // 38.104's, where the table has one
    bool tdlc300 = false;         // TDLC300-100 fading with a 400 Hz offset, else AWGN
};

struct options {
    std::string points = "38104";
    std::string curves;
    int pd_trials = 1000;
    int pfa_trials = 10000;
    double false_alarm = 1e-3;
    double pd_min = 0.99;
    double pfa_max = 1e-3;
    bool calibrate = false;
    bool uncalibrated = false;
    uint32_t seed = 1;
    std::string json;
};

void usage()
{
    std::puts(
        "usage: gpuofdm_prach_mc [options]\n"
        "  Pfa and Pd of the PRACH detector (CPU twin) per 3GPP TS 38.104 8.4, AWGN.\n"
        "  --points LIST    38104 (default: format 0 with 2 and 4 antennas, A1 A2 A3 B4 C0 C2\n"
        "                   at 15 and 30 kHz with 2 and 4 antennas, at the table's SNRs), or\n"
        "                   FORMAT:SCS:ANTENNAS:SNR_DB[:tdlc300] comma-separated (SCS 0 for\n"
        "                   0..3; tdlc300: TDLC300-100 fading with 400 Hz, else AWGN)\n"
        "  --curves LIST    FORMAT:SCS:ANTENNAS:FROM:TO:STEP, Pd against SNR\n"
        "  --pd-trials N    detection trials a point (default 1000)\n"
        "  --pfa-trials N   noise-only trials a point (default 10000)\n"
        "  --false-alarm P  the detector's target (default 1e-3)\n"
        "  --pd-min P, --pfa-max P   the verdict's bounds (default 0.99 and 0.001: 38.104)\n"
        "  --calibrate      find the closed-form target giving P measured (prints the table)\n"
        "  --uncalibrated   the closed-form threshold, not the core's calibration table\n"
        "  --seed N         (default 1)\n"
        "  --json OUT       the points as JSON\n"
        "  --help, --version");
}

//! The 38.141-1 A.6 preamble and zone of a format: 0 N_CS 13 (zcz 1), short N_CS 23 /
//! 46 (zcz 11 / 14 at 15 / 30 kHz).
point test_point(const std::string& format, int scs, int antennas)
{
    point p;
    p.format = format;
    p.scs_khz = scs;
    p.antennas = antennas;
    const bool is_long = core::prach_format_lookup(core::parse_prach_format(format), 0).is_long();
    if (is_long) {
        p.scs_khz = 0;
        p.zcz = 1;
        p.root = 22;
        p.preamble = 32;
    } else {
        p.zcz = scs == 15 ? 11 : 14;
        p.root = 0;
        p.preamble = 0;
    }
    return p;
}

std::vector<point> table_points()
{
    struct row {
        const char* f;
        int scs, ant;
        double snr;
        bool tdlc300 = false;
    };
    const row rows[] = {
        { "0", 0, 2, -14.5 },
        { "0", 0, 4, -16.7 },
        { "A1", 15, 2, -9.3 },
        { "A2", 15, 2, -12.6 },
        { "A3", 15, 2, -14.2 },
        { "B4", 15, 2, -16.8 },
        { "C0", 15, 2, -6.3 },
        { "C2", 15, 2, -12.5 },
        { "A1", 30, 2, -9.1 },
        { "A2", 30, 2, -12.0 },
        { "A3", 30, 2, -13.8 },
        { "B4", 30, 2, -16.5 },
        { "C0", 30, 2, -6.1 },
        { "C2", 30, 2, -11.9 },
        // The 4-antenna short-format points of the same tables.
        { "A1", 15, 4, -11.6 },
        { "A2", 15, 4, -14.3 },
        { "A3", 15, 4, -16.0 },
        { "B4", 15, 4, -19.0 },
        { "C0", 15, 4, -8.7 },
        { "C2", 15, 4, -14.1 },
        { "A1", 30, 4, -11.4 },
        { "A2", 30, 4, -14.2 },
        { "A3", 30, 4, -15.9 },
        { "B4", 30, 4, -19.0 },
        { "C0", 30, 4, -8.6 },
        { "C2", 30, 4, -14.1 },
    };
    std::vector<point> out;
    for (const auto& r : rows) {
        point p = test_point(r.f, r.scs, r.ant);
        p.snr_db = { r.snr };
        p.required_snr_db = r.snr;
        p.tdlc300 = r.tdlc300;
        out.push_back(p);
    }
    return out;
}

std::vector<std::string> split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, sep))
        out.push_back(item);
    return out;
}

options parse(int argc, char** argv, std::vector<point>& points)
{
    using namespace gpuofdm_apps;
    options o;
    parse_cli(argc, argv,
              { value("--points", o.points), value("--curves", o.curves),
                value("--pd-trials", o.pd_trials), value("--pfa-trials", o.pfa_trials),
                value("--false-alarm", o.false_alarm), value("--pd-min", o.pd_min),
                value("--pfa-max", o.pfa_max), flag("--calibrate", o.calibrate),
                flag("--uncalibrated", o.uncalibrated), value("--seed", o.seed),
                value("--json", o.json) },
              usage, "gpuofdm_prach_mc");
    if (o.pd_trials < 0 || o.pfa_trials < 0)
        throw std::invalid_argument("--pd-trials, --pfa-trials: >= 0");
    if (!(o.false_alarm > 0 && o.false_alarm <= 0.5))
        throw std::invalid_argument("--false-alarm: (0, 0.5]");
    if (o.points == "38104") {
        points = table_points();
    } else if (!o.points.empty() && o.points != "none") {
        for (const auto& item : split(o.points, ',')) {
            const auto f = split(item, ':');
            if (f.size() != 4 && !(f.size() == 5 && f[4] == "tdlc300"))
                throw std::invalid_argument(
                    "--points: FORMAT:SCS:ANTENNAS:SNR_DB[:tdlc300], got '" + item + "'");
            point p = test_point(f[0], parse_number<int>("--points", f[1]),
                                 parse_number<int>("--points", f[2]));
            p.snr_db = { parse_number<double>("--points", f[3]) };
            p.tdlc300 = f.size() == 5;
            points.push_back(p);
        }
    }
    if (!o.curves.empty()) {
        for (const auto& item : split(o.curves, ',')) {
            const auto f = split(item, ':');
            if (f.size() != 6)
                throw std::invalid_argument("--curves: FORMAT:SCS:ANTENNAS:FROM:TO:STEP, got '" +
                                            item + "'");
            point p = test_point(f[0], parse_number<int>("--curves", f[1]),
                                 parse_number<int>("--curves", f[2]));
            const double from = parse_number<double>("--curves", f[3]);
            const double to = parse_number<double>("--curves", f[4]);
            const double step = parse_number<double>("--curves", f[5]);
            if (!(step > 0) || to < from)
                throw std::invalid_argument("--curves: FROM <= TO, STEP > 0");
            for (double s = from; s <= to + 1e-9; s += step)
                p.snr_db.push_back(s);
            points.push_back(p);
        }
    }
    return o;
}

core::prach_detector_params params_of(const point& pt, double false_alarm, bool calibrated)
{
    core::prach_detector_params p;
    p.format = core::parse_prach_format(pt.format);
    p.mu = pt.scs_khz == 0 ? 0 : pt.scs_khz == 15 ? 0 : pt.scs_khz == 30 ? 1 : 2;
    p.cells = { { pt.root, pt.zcz, core::prach_restricted_set::unrestricted } };
    p.n_antennas = pt.antennas;
    p.n_occasions = batch;
    p.false_alarm = false_alarm;
    p.calibrated = calibrated;
    return p;
}

//! One call's input: noise of unit power per bin, plus the preamble when power > 0.
struct trial_batch {
    std::vector<cf> bins;
    std::vector<double> delay_us; // per occasion

    trial_batch(const core::prach_detector& det,
                const point& pt,
                double power,
                uint64_t seed,
                std::vector<cd>* y_cache)
    {
        const auto& fmt = det.format();
        const int L = fmt.length, R = fmt.repetitions, A = pt.antennas;
        const size_t ch_bins = det.channel_bins();
        bins.assign(det.n_channels() * ch_bins, cf(0));
        std::mt19937_64 rng(seed);
        std::normal_distribution<float> g(0.0f, std::sqrt(0.5f));
        for (auto& b : bins)
            b = cf(g(rng), g(rng));
        delay_us.assign(batch, 0);
        if (power <= 0)
            return;
        if (y_cache->empty()) {
            const auto& id = det.preambles(0)[size_t(pt.preamble)];
            *y_cache = core::prach_sequence_freq(id.u, id.cv, L);
        }
        const int ncs = core::prach_ncs(fmt, core::prach_restricted_set::unrestricted, pt.zcz);
        const double zone_seq = 0.7 * (ncs == 0 ? L : ncs); // in sequence samples
        std::uniform_real_distribution<double> delay(0, zone_seq);
        std::uniform_real_distribution<double> phase(0, 2 * M_PI);
        const double amp = std::sqrt(power / L);
        if (pt.tdlc300) {
            add_faded(fmt, pt, amp, *y_cache, delay, rng, ch_bins);
            return;
        }
        for (int o = 0; o < batch; o++) {
            const double d = delay(rng);
            delay_us[size_t(o)] = d / (L * fmt.scs_hz) * 1e6;
            for (int a = 0; a < A; a++) {
                const cd h = std::polar(amp, phase(rng));
                cf* x = bins.data() + (size_t(a) * batch + size_t(o)) * ch_bins;
                for (int k = 0; k < L; k++) {
                    const cf v((*y_cache)[size_t(k)] * h * std::polar(1.0, -2 * M_PI * k * d / L));
                    for (int r = 0; r < R; r++)
                        x[size_t(r) * L + size_t(k)] += v;
                }
            }
        }
    }

    /*!
     * The preamble through TDLC300-100 (38.104 Annex G: 12 Rayleigh taps, 300 ns delay
     * spread, 100 Hz maximum Doppler, Jakes spectrum as a sum of 16 sinusoids a tap) with a
     * 400 Hz frequency offset, per antenna independently: the band's N-point time signal
     * (N = 1024 or 256 at N x Delta f_RA; the CP absorbs the taps' delays, so each tap is
     * a cyclic delay), each tap's time-varying gain and the offset applied sample by
     * sample over the repetitions, then a DFT per repetition back to the L_RA bins.
     */
    void add_faded(const core::prach_format_info& fmt,
                   const point& pt,
                   double amp,
                   const std::vector<cd>& y,
                   std::uniform_real_distribution<double>& delay,
                   std::mt19937_64& rng,
                   size_t ch_bins)
    {
        static const double tap_ns[] = {
            0, 65, 70, 190, 195, 200, 240, 325, 520, 1045, 1510, 2595
        };
        static const double tap_db[] = { -6.9, 0,    -7.7, -2.5,  -2.4,  -9.9,
                                         -8.0, -6.6, -7.1, -13.0, -14.2, -16.0 };
        constexpr int taps = 12, sinusoids = 16, hold = 16;
        constexpr double doppler_hz = 100, offset_hz = 400;
        double total = 0;
        for (const double db : tap_db)
            total += std::pow(10.0, db / 10);
        const int L = fmt.length, R = fmt.repetitions, N = L > 256 ? 1024 : 256;
        const double fs = N * fmt.scs_hz;
        core::fftw_plan_1d inverse(size_t(N), false), forward(size_t(N), true);
        std::uniform_real_distribution<double> uni(0, 2 * M_PI);
        std::vector<cd> rx(size_t(R) * N), tap_signal(static_cast<size_t>(N));
        for (int o = 0; o < batch; o++) {
            const double d = delay(rng);
            delay_us[size_t(o)] = d / (L * fmt.scs_hz) * 1e6;
            for (int a = 0; a < pt.antennas; a++) {
                std::fill(rx.begin(), rx.end(), cd(0));
                for (int l = 0; l < taps; l++) {
                    const double shift = d / L + tap_ns[l] * 1e-9 * fmt.scs_hz; // periods
                    cf* in = inverse.input();
                    std::fill(in, in + N, cf(0));
                    for (int k = 0; k < L; k++)
                        in[k] = cf(y[size_t(k)] * amp * std::polar(1.0, -2 * M_PI * k * shift));
                    inverse.execute();
                    std::copy(inverse.output(), inverse.output() + N, tap_signal.begin());
                    double angle[sinusoids], phase[sinusoids];
                    for (int m = 0; m < sinusoids; m++) {
                        angle[m] = uni(rng);
                        phase[m] = uni(rng);
                    }
                    const double g = std::sqrt(std::pow(10.0, tap_db[l] / 10) / total / sinusoids);
                    cd h = 0;
                    for (int t = 0; t < R * N; t++) {
                        if (t % hold == 0) {
                            h = 0;
                            const int mid = t + hold / 2; // the held span's middle sample
                            const double sec = mid / fs;
                            for (int m = 0; m < sinusoids; m++)
                                h += std::polar(
                                    g, 2 * M_PI * doppler_hz * std::cos(angle[m]) * sec + phase[m]);
                        }
                        rx[size_t(t)] += h * tap_signal[size_t(t % N)];
                    }
                }
                cf* x = bins.data() + (size_t(a) * batch + size_t(o)) * ch_bins;
                for (int r = 0; r < R; r++) {
                    cf* in = forward.input();
                    for (int n = 0; n < N; n++) {
                        const double sec = double(r * N + n) / fs;
                        in[n] = cf(rx[size_t(r) * size_t(N) + size_t(n)] *
                                   std::polar(1.0 / N, 2 * M_PI * offset_hz * sec));
                    }
                    forward.execute();
                    for (int k = 0; k < L; k++)
                        x[size_t(r) * L + size_t(k)] += forward.output()[k];
                }
            }
        }
    }
};

//! Noise-only occasions with any detection, of n_calls x batch.
int count_alarms(core::prach_detector& det, const point& pt, int n_calls, uint64_t seed0)
{
    int alarms = 0;
    std::vector<cd> unused;
    for (int c = 0; c < n_calls; c++) {
        const trial_batch tb(det, pt, 0, seed0 + uint64_t(c), &unused);
        std::vector<bool> hit(batch, false);
        for (const auto& d : det.detect(tb.bins.data(), det.channel_bins()))
            hit[size_t(d.occasion)] = true;
        alarms += int(std::count(hit.begin(), hit.end(), true));
    }
    return alarms;
}

double tolerance_us(const point& pt)
{
    if (pt.tdlc300)
        return pt.scs_khz == 0 ? 2.55 : pt.scs_khz == 15 ? 2.03 : 1.77;
    return pt.scs_khz == 0 ? 1.04 : pt.scs_khz == 15 ? 0.52 : 0.26;
}

} // namespace

int main(int argc, char** argv)
{
    return gpuofdm_apps::run_app("gpuofdm_prach_mc", [&] {
        std::vector<point> points;
        const options o = parse(argc, argv, points);
        std::ostringstream json;
        json.precision(8);
        json << "[";
        bool first_json = true, all_pass = true;
        std::printf("%-3s %4s %3s %4s %8s %10s %9s %8s %9s %7s %s\n", "fmt", "scs", "ant", "ncs",
                    "snr_dB", "Pd", "Pfa", "target", "thresh", "s", "verdict");
        for (const auto& pt : points) {
            const auto t0 = std::chrono::steady_clock::now();
            const int pfa_calls = (o.pfa_trials + batch - 1) / batch;
            const int pd_calls = (o.pd_trials + batch - 1) / batch;
            double target = o.false_alarm;
            if (o.calibrate) {
                // One pass of noise-only trials (seeds 1e6 + ...) at a low threshold: each
                // trial's largest metric. The threshold T that `false_alarm` of them pass;
                // then the closed-form target whose threshold is T (bisection in log).
                auto probe = core::make_prach_detector_cpu(params_of(pt, 0.05, false));
                std::vector<float> peaks;
                std::vector<cd> unused;
                for (int c = 0; c < pfa_calls; c++) {
                    const trial_batch tb(*probe, pt, 0, 1000000 + o.seed * 7919 + uint64_t(c),
                                         &unused);
                    std::vector<float> peak(batch, 0.0f);
                    for (const auto& d : probe->detect(tb.bins.data(), probe->channel_bins()))
                        peak[size_t(d.occasion)] = std::max(peak[size_t(d.occasion)], d.metric);
                    peaks.insert(peaks.end(), peak.begin(), peak.end());
                }
                std::sort(peaks.rbegin(), peaks.rend());
                const size_t allowed = size_t(std::floor(o.false_alarm * double(peaks.size())));
                const float wanted =
                    std::max(peaks[std::min(allowed, peaks.size() - 1)], probe->threshold(0));
                double lo = std::log(1e-9), hi = std::log(0.05);
                for (int it = 0; it < 50; it++) {
                    const double mid = 0.5 * (lo + hi);
                    auto det = core::make_prach_detector_cpu(params_of(pt, std::exp(mid), false));
                    (det->threshold(0) > wanted ? lo : hi) = mid;
                }
                target = std::exp(hi);
            }
            const bool calibrated = !o.calibrate && !o.uncalibrated;
            auto det = core::make_prach_detector_cpu(params_of(pt, target, calibrated));
            const auto& fmt = det->format();
            const int ncs = core::prach_ncs(fmt, core::prach_restricted_set::unrestricted, pt.zcz);
            // Pfa on other noise trials than the calibration's.
            const int alarms = count_alarms(*det, pt, pfa_calls, 2000000 + o.seed * 7919);
            const double pfa = pfa_calls ? double(alarms) / (pfa_calls * batch) : NAN;
            std::vector<cd> y;
            for (const double snr : pt.snr_db) {
                int good = 0;
                for (int c = 0; c < pd_calls; c++) {
                    const trial_batch tb(*det, pt, std::pow(10.0, snr / 10),
                                         3000000 + o.seed * 7919 + uint64_t(c), &y);
                    std::vector<bool> ok(batch, false);
                    for (const auto& d : det->detect(tb.bins.data(), det->channel_bins()))
                        if (d.preamble == pt.preamble &&
                            std::abs(d.delay_us - tb.delay_us[size_t(d.occasion)]) <=
                                tolerance_us(pt))
                            ok[size_t(d.occasion)] = true;
                    good += int(std::count(ok.begin(), ok.end(), true));
                }
                const double pd = pd_calls ? double(good) / (pd_calls * batch) : NAN;
                const double secs =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                const bool at_requirement = !std::isnan(pt.required_snr_db);
                const bool pass = pd >= o.pd_min && pfa <= o.pfa_max;
                if (at_requirement)
                    all_pass = all_pass && pass;
                std::printf("%-3s %4d %3d %4d %8.1f %10.4f %9.5f %8.2g %9.3f %7.1f %s\n",
                            pt.format.c_str(), pt.scs_khz, pt.antennas, ncs, snr, pd, pfa, target,
                            det->threshold(0), secs,
                            (std::string(at_requirement ? (pass ? "PASS" : "FAIL") : "curve") +
                             (pt.tdlc300 ? " TDLC300-100, 400 Hz" : ""))
                                .c_str());
                std::fflush(stdout);
                json << (first_json ? "\n " : ",\n ") << "{\"format\": \"" << pt.format
                     << "\", \"scs_khz\": " << pt.scs_khz << ", \"antennas\": " << pt.antennas
                     << ", \"zcz\": " << pt.zcz << ", \"ncs\": " << ncs << ", \"snr_db\": " << snr
                     << ", \"required_snr_db\": "
                     << (at_requirement ? std::to_string(pt.required_snr_db) : "null")
                     << ", \"pd\": " << pd << ", \"pd_trials\": " << pd_calls * batch
                     << ", \"pfa\": " << pfa << ", \"pfa_trials\": " << pfa_calls * batch
                     << ", \"false_alarm_target\": " << target
                     << ", \"calibrated\": " << (calibrated ? "true" : "false")
                     << ", \"threshold\": " << det->threshold(0)
                     << ", \"timing_tolerance_us\": " << tolerance_us(pt) << ", \"channel\": \""
                     << (pt.tdlc300 ? "tdlc300-100, 400 Hz" : "awgn") << "\"}";
                first_json = false;
            }
            if (o.calibrate && !pt.tdlc300) {
                std::string name = pt.scs_khz == 0 ? "f" + pt.format : pt.format;
                std::transform(name.begin(), name.end(), name.begin(),
                               [](unsigned char ch) { return char(std::tolower(ch)); });
                std::printf("    table row: { prach_format::%s, %d, %d, %d, %.4g },\n",
                            name.c_str(), pt.scs_khz == 30 ? 1 : 0, pt.antennas, pt.zcz, target);
            }
        }
        json << "\n]\n";
        gpuofdm_apps::write_text_file(o.json, json.str());
        std::printf("%s: the 38.104 8.4 points (Pd >= %g %%, Pfa <= %g %%)\n",
                    all_pass ? "PASS" : "FAIL", 100 * o.pd_min, 100 * o.pfa_max);
        return all_pass ? 0 : 1;
    });
}
