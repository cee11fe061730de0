/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Recordings as people make them, searched the way gpuofdm_cellsearch searches them: the
// capture pushed piece by piece through cell_search_stream (channelizer, windows, overlap),
// integer recordings written to a raw file and read back by the apps' reader
// (apps/common/sigmf.h). The cells come from the synthesizer (each sync symbol computed as
// its subcarriers at the sample instants, not by the searcher's FFTs or tables); the
// impairments are applied here by their formulas: a DC offset (a constant added), I/Q
// imbalance (y = mu x + nu conj(x)), CFO beyond a subcarrier, a drifting sample clock,
// int8 / int16 quantization with clipping. Every detection must be the cell (ID and the
// per-standard fields) at one of its PSS symbols within one normal CP, and every sync
// block that lies inside the recording must be found.

#include "../../../apps/common/sigmf.h"
#include "sync/cell_search_stream.h"
#include "sync/sync_signal_synth.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <tuple>

using namespace gr::gpuofdm;
using core::cell_standard;
using cf = std::complex<float>;
using detection = core::cell_search_stream::detection;

namespace {

const core::device_spec cpu{};

//! A PSS symbol of the cell: its CP start in capture samples and what the search reports.
struct pss_truth {
    double sample = 0;
    int ssb_index = -1, subframe = -1, symbol = -1;
};

//! A recording and what it holds.
struct recording_case {
    std::string name;
    core::raster_params raster;
    core::cell_search_params search;
    std::vector<cf> x;
    int cell_id = 0;
    double candidate_hz = 0;      //!< the candidate the cell must be reported at
    std::vector<pss_truth> truth; //!< the PSS symbols whose whole sync block is inside
    double cp = 0;                //!< the timing tolerance: one normal CP, capture samples
    double window_s = 20e-3;
    size_t piece = 100003; //!< samples a push
};

//! Receiver sample index of true time t (seconds from the first sample's instant).
using clock_map = std::function<double(double)>;

clock_map steady_clock(const core::synth_params& p)
{
    const double f = p.sample_rate * (1 + p.sro_ppm * 1e-6);
    return [f](double t) { return t * f; };
}

bool is_pss(cell_standard s, const core::sync_signal_synth::symbol_slot& slot)
{
    return s == cell_standard::lte ? slot.part == 1 : slot.part == 0;
}

// The PSS symbols of cell 0 whose sync block (NR: the SSB; LTE: SSS and PSS of the half
// frame; 5GTF: the symbol) lies inside [0, n) samples.
std::vector<pss_truth> pss_inside(const core::synth_params& p, size_t n, const clock_map& at)
{
    core::sync_signal_synth synth(p);
    const auto& slots = synth.slots_in_period();
    const auto& cell = p.cells[0];
    std::vector<pss_truth> out;
    const int periods = static_cast<int>(std::ceil(n / p.sample_rate / synth.period_s())) + 2;
    for (int k = -1; k < periods; k++) {
        const double base = cell.start_s + k * synth.period_s();
        for (size_t s = 0; s < slots.size(); s++) {
            if (!is_pss(p.standard, slots[s])) {
                continue;
            }
            double lo = 1e30, hi = -1e30;
            for (const auto& o : slots) {
                const bool same_block = p.standard == cell_standard::nr
                                            ? o.ssb_index == slots[s].ssb_index
                                        : p.standard == cell_standard::lte ? o.half == slots[s].half
                                                                           : &o == &slots[s];
                if (same_block) {
                    lo = std::min(lo, o.start_s);
                    hi = std::max(hi, o.start_s + o.cp_s + o.useful_s);
                }
            }
            if (at(base + lo) < 0 || at(base + hi) > static_cast<double>(n)) {
                continue;
            }
            pss_truth t;
            t.sample = at(base + slots[s].start_s);
            if (p.standard == cell_standard::nr) {
                t.ssb_index = slots[s].ssb_index;
            } else {
                t.subframe = slots[s].subframe;
            }
            if (p.standard == cell_standard::fivegtf) {
                t.symbol = slots[s].symbol;
            }
            out.push_back(t);
        }
    }
    return out;
}

// One normal CP of the standard, seconds.
double normal_cp_s(cell_standard s, int scs_khz)
{
    switch (s) {
    case cell_standard::nr:
        return 144.0 / 30.72e6 / (scs_khz / 15);
    case cell_standard::lte:
        return 144.0 / 30.72e6;
    default:
        return 144.0 / 153.6e6;
    }
}

std::vector<cf> synthesize(const core::synth_params& p, size_t n)
{
    std::vector<cf> x(n);
    core::sync_signal_synth(p).generate(x.data(), n);
    return x;
}

// A case from synthesis parameters (cell 0 the one to find) at a steady clock.
recording_case make_case(const std::string& name,
                         const core::synth_params& p,
                         size_t n,
                         double candidate_hz)
{
    recording_case c;
    c.name = name;
    c.raster.standard = p.standard;
    c.raster.sample_rate = p.sample_rate;
    c.raster.center_hz = p.center_hz;
    c.raster.ssb_scs_khz = p.scs_khz;
    c.search.standard = p.standard;
    c.search.scs_khz = p.scs_khz;
    c.x = synthesize(p, n);
    c.cell_id = p.cells[0].cell_id;
    c.candidate_hz = candidate_hz;
    c.truth = pss_inside(p, n, steady_clock(p));
    c.cp = normal_cp_s(p.standard, p.scs_khz) * p.sample_rate;
    return c;
}

core::synth_params synth_for(cell_standard s, double rate, int id, double cfo, double start)
{
    core::synth_params p;
    p.standard = s;
    p.sample_rate = rate;
    p.scs_khz = 30;
    p.nr_case = 'C';
    p.cells = { { id, 0, 0, cfo, start } };
    return p;
}

// The stream as the app drives it: pieces read into one buffer (page-locked where the search
// runs on CUDA, so the upload is asynchronous), finish at the end. The buffer is spoiled as
// soon as push() returns: push() must be done with it by then.
std::vector<detection> search_stream(const recording_case& c,
                                     const core::device_spec& dev,
                                     size_t piece = 100003)
{
    std::vector<std::complex<float>> block(std::min(piece, c.x.size())); // outlives its pin
    core::cell_search_stream stream(c.raster, c.search, c.window_s, dev);
    if (dev.is_cuda()) {
        EXPECT_TRUE(stream.pin_host_buffer(block.data(), block.size() * sizeof(block[0])));
    }
    std::vector<detection> out;
    for (size_t at = 0; at < c.x.size(); at += piece) {
        const size_t n = std::min(piece, c.x.size() - at);
        std::copy_n(c.x.begin() + static_cast<ptrdiff_t>(at), n, block.begin());
        for (const auto& d : stream.push(block.data(), n)) {
            out.push_back(d);
        }
        std::fill_n(block.begin(), n, std::complex<float>(1e3f, -1e3f));
    }
    for (const auto& d : stream.finish()) {
        out.push_back(d);
    }
    return out;
}

// Every detection is the cell at one of its PSS symbols (within a CP) with that symbol's
// fields, at its candidate; every PSS in c.truth is found.
void expect_found(const recording_case& c, const std::vector<detection>& dets)
{
    SCOPED_TRACE(c.name);
    ASSERT_FALSE(c.truth.empty());
    std::set<size_t> found;
    for (const auto& d : dets) {
        EXPECT_EQ(d.cell.cell_id, c.cell_id) << "sample " << d.sample;
        EXPECT_NEAR(d.candidate.offset_hz, c.candidate_hz, 1.0);
        size_t best = 0;
        for (size_t i = 1; i < c.truth.size(); i++) {
            if (std::fabs(c.truth[i].sample - d.sample) <
                std::fabs(c.truth[best].sample - d.sample)) {
                best = i;
            }
        }
        const auto& t = c.truth[best];
        // The detection's first sample lies in the PSS symbol's CP.
        EXPECT_NEAR(static_cast<double>(d.sample), t.sample, c.cp) << "cell " << d.cell.cell_id;
        if (std::fabs(t.sample - d.sample) > c.cp) {
            continue;
        }
        found.insert(best);
        EXPECT_EQ(d.cell.ssb_index, t.ssb_index) << "sample " << d.sample;
        EXPECT_EQ(d.cell.subframe, t.subframe) << "sample " << d.sample;
        EXPECT_EQ(d.cell.symbol, t.symbol) << "sample " << d.sample;
        if (c.raster.standard == cell_standard::lte) {
            EXPECT_EQ(d.cell.tdd, 0);
            EXPECT_EQ(d.cell.extended_cp, 0);
        }
    }
    EXPECT_EQ(found.size(), c.truth.size()) << dets.size() << " detections";
}

// The CUDA backend on the same recording: the cell found, and the same detections as the
// CPU twin.
void expect_cuda_matches(const recording_case& c)
{
    SCOPED_TRACE(c.name);
    const auto a = search_stream(c, cpu, c.piece);
    const auto b = search_stream(c, core::device_spec{ core::backend::cuda, 0 }, c.piece);
    expect_found(c, b);
    ASSERT_FALSE(a.empty());
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); i++) {
        EXPECT_EQ(a[i].cell.cell_id, b[i].cell.cell_id);
        EXPECT_EQ(a[i].cell.channel, b[i].cell.channel);
        EXPECT_EQ(a[i].sample, b[i].sample);
        EXPECT_EQ(a[i].cell.ssb_index, b[i].cell.ssb_index);
        EXPECT_EQ(a[i].cell.subframe, b[i].cell.subframe);
        EXPECT_EQ(a[i].cell.symbol, b[i].cell.symbol);
        EXPECT_NEAR(a[i].cell.cfo_hz, b[i].cell.cfo_hz, 5.0);
        EXPECT_NEAR(a[i].cell.pss_metric, b[i].cell.pss_metric, 1e-3 * a[i].cell.pss_metric);
    }
}

// The PSS symbol's power per sample for a cell of power_db 0 (unit-power subcarriers): the
// reference of the DC offset's dBc. 5GTF sends its PSS, SSS and ESS in one symbol.
double sync_symbol_power(cell_standard s)
{
    return s == cell_standard::nr ? 127 : s == cell_standard::lte ? 62 : 62 + 62 + 63;
}

// A cell at the capture's centre (where the DC offset falls on its own DC), at 10 dB: NR at
// 15.36 Msps (its SSB's centre subcarrier on DC), LTE at 1.92 Msps, 5GTF at 19.2 Msps.
recording_case centre_case(cell_standard s, double snr_db, int id, double cfo)
{
    const double rate = s == cell_standard::nr    ? 15.36e6
                        : s == cell_standard::lte ? 1.92e6
                                                  : 19.2e6;
    auto p = synth_for(s, rate, id, cfo, 0.43e-3);
    p.ssb_count = 4;
    p.noise_power = core::synth_noise_power_for_snr(p, snr_db);
    p.seed = 21 + id;
    auto c = make_case(core::cell_standard_name(s), p, static_cast<size_t>(rate * 6e-3), 0);
    c.raster.offsets_hz = { 0 };
    return c;
}

void add_dc(recording_case& c, double dbc)
{
    const double a = std::sqrt(sync_symbol_power(c.raster.standard) * std::pow(10, dbc / 10));
    const cf dc = std::polar(static_cast<float>(a), 0.7f);
    for (auto& v : c.x) {
        v += dc;
    }
    c.name += " DC " + std::to_string(dbc) + " dBc";
}

// Gain mismatch g (dB) and phase mismatch phi (degrees) of the Q branch:
// y = mu x + nu conj(x), mu = (1 + g e^-j phi) / 2, nu = (1 - g e^j phi) / 2.
void add_iq_imbalance(recording_case& c, double gain_db, double phase_deg)
{
    const double g = std::pow(10, gain_db / 20), phi = phase_deg * M_PI / 180;
    const std::complex<double> mu = (1.0 + g * std::polar(1.0, -phi)) / 2.0;
    const std::complex<double> nu = (1.0 - g * std::polar(1.0, phi)) / 2.0;
    for (auto& v : c.x) {
        const std::complex<double> x(v);
        v = cf(mu * x + nu * std::conj(x));
    }
    c.name += " I/Q imbalance";
}

// A recording written as interleaved integers (per-component standard deviation of the
// capture full_scale / 3: about 0.3 % of the components clip) and read back by the apps'
// reader, as gpuofdm_cellsearch reads a raw file. Returns the fraction clipped.
double through_integer_file(recording_case& c, const std::string& format)
{
    const auto fmt = gpuofdm_apps::format_from_name(format);
    double power = 0;
    for (const auto& v : c.x) {
        power += std::norm(v);
    }
    const double sigma = std::sqrt(power / c.x.size() / 2);
    const double scale = fmt.full_scale / 3 / sigma;
    const std::string path = ::testing::TempDir() + "cellsearch_recording." + format;
    size_t clipped = 0;
    {
        std::ofstream f(path, std::ios::binary);
        for (const auto& v : c.x) {
            for (float part : { v.real(), v.imag() }) {
                const double q = std::round(part * scale);
                const double lim = fmt.full_scale;
                const double s = std::clamp(q, -lim, lim - 1);
                clipped += s != q;
                if (fmt.bytes_per_sample == 4) {
                    const auto i = static_cast<int16_t>(s);
                    f.write(reinterpret_cast<const char*>(&i), 2);
                } else {
                    const auto i = static_cast<int8_t>(s);
                    f.write(reinterpret_cast<const char*>(&i), 1);
                }
            }
        }
    }
    gpuofdm_apps::recording rec(path, format);
    std::vector<cf> y;
    std::vector<cf> block(1 << 18);
    while (const size_t n = rec.read(block.data(), block.size())) {
        y.insert(y.end(), block.begin(), block.begin() + static_cast<ptrdiff_t>(n));
    }
    std::remove(path.c_str());
    EXPECT_EQ(y.size(), c.x.size());
    c.x = y;
    c.name += " as " + format;
    return static_cast<double>(clipped) / (2.0 * c.x.size());
}

// A sample clock whose offset drifts: ppm(t) = ppm0 + slope t. Receiver sample n at true
// time t: n(t) = fs (t + 1e-6 (ppm0 t + slope t^2 / 2)). Each sync period is synthesized
// at the clock's offset there, shifted to land where n(t) puts it (over one period the
// clock's change moves a sample by under 1e-6 of a sample), and the pieces added.
recording_case drift_case(core::synth_params p, size_t n, double ppm0, double slope)
{
    const double fs = p.sample_rate;
    const clock_map at = [=](double t) { return fs * (t + 1e-6 * (ppm0 * t + slope * t * t / 2)); };
    const double noise = p.noise_power;
    p.noise_power = 0;
    core::sync_signal_synth plain(p);
    const double period = plain.period_s();
    std::vector<cf> x(n, cf(0, 0));
    const auto cell = p.cells[0];
    for (int k = -1; k * period + cell.start_s < n / fs + period; k++) {
        // Period k holds the symbols of [start + k P, start + (k + 1) P).
        const double t0 = cell.start_s + k * period;
        const double tk = t0 + period / 2;
        const double ppm = ppm0 + slope * tk;
        // The synthesizer puts true time t at sample t fs (1 + ppm); shift the cell so
        // that the linear map through n(tk) results.
        const double shift = at(tk) / (fs * (1 + ppm * 1e-6)) - tk;
        core::synth_params q = p;
        q.sro_ppm = ppm;
        q.cells[0].start_s = cell.start_s + shift;
        const auto lo = static_cast<long long>(std::floor(std::max(0.0, at(t0))));
        const auto hi = static_cast<long long>(
            std::min(static_cast<double>(n), std::floor(std::max(0.0, at(t0 + period)))));
        if (lo >= hi) {
            continue;
        }
        const auto piece = synthesize(q, static_cast<size_t>(hi));
        for (long long i = lo; i < hi; i++) {
            x[i] += piece[i];
        }
    }
    core::synth_params only_noise = p;
    only_noise.cells.clear();
    only_noise.noise_power = noise;
    const auto w = synthesize(only_noise, n);
    for (size_t i = 0; i < n; i++) {
        x[i] += w[i];
    }
    recording_case c;
    c.name = std::string(core::cell_standard_name(p.standard)) + " drifting clock";
    c.raster.standard = p.standard;
    c.raster.sample_rate = fs;
    c.raster.ssb_scs_khz = p.scs_khz;
    c.raster.offsets_hz = { 0 };
    c.search.standard = p.standard;
    c.search.scs_khz = p.scs_khz;
    c.x = std::move(x);
    c.cell_id = cell.cell_id;
    c.truth = pss_inside(p, n, at);
    c.cp = normal_cp_s(p.standard, p.scs_khz) * fs;
    return c;
}

// A 1 ms recording holding one sync block (NR: one SSB; LTE: the SSS and PSS of one half
// frame; 5GTF: the 14 sync symbols of subframe 0) that starts 5 us after the first sample
// or ends 5 us before the last, the cell at \p offset_hz from the centre (the candidate).
recording_case one_ms_case(cell_standard s, int scs_khz, double rate, bool at_end, double offset)
{
    auto p = synth_for(s, rate, s == cell_standard::nr ? 1001 : 403, 2.2e3, 0);
    p.scs_khz = scs_khz;
    p.nr_case = scs_khz == 15 ? 'A' : 'C';
    p.cells[0].offset_hz = offset;
    core::sync_signal_synth synth(p);
    const auto& slots = synth.slots_in_period();
    // The first block of the period: NR SSB 0, LTE the first half frame, 5GTF subframe 0.
    double lo = 1e30, hi = -1e30;
    for (const auto& o : slots) {
        if (o.ssb_index <= 0 && o.half == core::sss_half::first && o.subframe == 0) {
            lo = std::min(lo, o.start_s);
            hi = std::max(hi, o.start_s + o.cp_s + o.useful_s);
        }
    }
    p.cells[0].start_s = at_end ? 1e-3 - 5e-6 - hi : 5e-6 - lo;
    p.noise_power = core::synth_noise_power_for_snr(p, 10.0);
    p.seed = static_cast<uint64_t>(rate / 1e4) + at_end;
    char name[96];
    std::snprintf(name, sizeof name, "%s %d kHz at %.2f Msps, 1 ms, block at its %s",
                  core::cell_standard_name(s), scs_khz, rate / 1e6, at_end ? "end" : "start");
    auto c = make_case(name, p, static_cast<size_t>(std::llround(rate * 1e-3)), offset);
    c.raster.offsets_hz = { offset };
    c.window_s = 5e-3;
    return c;
}

// NR at 7.68 Msps, four periods combined, the clock at 30 ppm drifting by 100 ppm/s: more
// than the default 20 ppm the drift paths follow, so sro_ppm 40.
recording_case nr_combining_drift_case(double snr_db)
{
    auto nr = synth_for(cell_standard::nr, 7.68e6, 612, 1e3, 2.1e-3);
    nr.noise_power = core::synth_noise_power_for_snr(nr, snr_db);
    nr.seed = 5;
    auto c = drift_case(nr, static_cast<size_t>(7.68e6 * 82e-3), 30, 100);
    c.search.combine_periods = 4;
    c.search.sro_ppm = 40;
    c.window_s = 5e-3;
    // With 4 periods only the first period's timings are searched (the rest look ahead).
    c.truth.resize(1);
    return c;
}

} // namespace

// A DC offset from -20 to +30 dBc of the sync symbol's power, on the DC of a cell at the
// capture's centre, in all three standards at 10 dB; and +20 dBc on a PSS subcarrier (-48)
// of an NR cell 1.44 MHz from the centre. (Without the stream's DC removal, +10 dBc at the
// centre hid every cell.)
TEST(cell_search_recordings, dc_offset)
{
    for (auto s : { cell_standard::nr, cell_standard::lte, cell_standard::fivegtf }) {
        for (double dbc : { -20.0, 0.0, 10.0, 20.0, 30.0 }) {
            auto c = centre_case(s, 10.0, 3 * 101 + static_cast<int>(s), 3.1e3);
            add_dc(c, dbc);
            expect_found(c, search_stream(c, cpu));
        }
    }
    auto p = synth_for(cell_standard::nr, 15.36e6, 808, -1.1e3, 0.52e-3);
    p.cells[0].offset_hz = 1.44e6;
    p.ssb_count = 2;
    p.noise_power = core::synth_noise_power_for_snr(p, 10.0);
    auto c = make_case("NR at +1.44 MHz", p, static_cast<size_t>(15.36e6 * 3e-3), 1.44e6);
    c.raster.offsets_hz = { 1.44e6 };
    add_dc(c, 20);
    expect_found(c, search_stream(c, cpu));
}

// I/Q imbalance of 1 dB and 5 degrees (image 23 dB down) at 30 dB: the image of the cell
// (its spectrum mirrored and conjugated: for the LTE PSS, N_ID^(2) 1 and 2 are each other's
// image) is no cell. At the centre, and NR at +7.2 MHz of a 30.72 Msps capture with the
// candidate at its image (-7.2 MHz) searched too.
TEST(cell_search_recordings, iq_imbalance)
{
    for (auto s : { cell_standard::nr, cell_standard::lte, cell_standard::fivegtf }) {
        auto c = centre_case(s, 30.0, 3 * 77 + 1, -2.3e3);
        add_iq_imbalance(c, 1.0, 5.0);
        expect_found(c, search_stream(c, cpu));
    }
    auto p = synth_for(cell_standard::nr, 30.72e6, 505, 4.1e3, 0.61e-3);
    p.cells[0].offset_hz = 7.2e6;
    p.noise_power = core::synth_noise_power_for_snr(p, 30.0);
    auto c = make_case("NR +7.2 MHz", p, static_cast<size_t>(30.72e6 * 3e-3), 7.2e6);
    c.raster.offsets_hz = { -7.2e6, 7.2e6 };
    add_iq_imbalance(c, 1.0, 5.0);
    expect_found(c, search_stream(c, cpu));
}

// CFO of tens of kHz. The default range (+- one subcarrier spacing: NR 30 kHz SSB +-30 kHz,
// LTE +-15 kHz, 5GTF +-75 kHz) finds a cell 29 kHz off (NR); beyond it, cfo_range_hz:
// NR and LTE at +-40 kHz (1.3 and 2.7 subcarriers) with a 45 kHz range, 5GTF at +-150 kHz
// (2 subcarriers) with 160 kHz. The CFO estimate within a tenth of a subcarrier.
TEST(cell_search_recordings, cfo_tens_of_khz)
{
    struct cfo_case {
        cell_standard s;
        double cfo, range;
    };
    const cfo_case cases[] = {
        { cell_standard::nr, -29e3, 0 },          { cell_standard::nr, 40e3, 45e3 },
        { cell_standard::nr, -40e3, 45e3 },       { cell_standard::lte, 40e3, 45e3 },
        { cell_standard::lte, -40e3, 45e3 },      { cell_standard::fivegtf, 150e3, 160e3 },
        { cell_standard::fivegtf, -150e3, 160e3 }
    };
    for (const auto& k : cases) {
        auto c = centre_case(k.s, 10.0, 3 * 55 + 2, k.cfo);
        c.search.cfo_range_hz = k.range;
        c.name += " CFO " + std::to_string(k.cfo);
        const auto dets = search_stream(c, cpu);
        expect_found(c, dets);
        const double scs = k.s == cell_standard::nr    ? 30e3
                           : k.s == cell_standard::lte ? 15e3
                                                       : 75e3;
        for (const auto& d : dets) {
            EXPECT_NEAR(d.cell.cfo_hz, k.cfo, 0.1 * scs) << c.name;
        }
    }
}

// With the carrier known and no range given, the search covers +-10 ppm of it: an NR cell
// at 3.5 GHz whose oscillator is 40 kHz (11.4 ppm) off is beyond one subcarrier (30 kHz)
// and is found with the default range (+-35 kHz, hypotheses to +-45 kHz); with the centre
// unknown the default stays one subcarrier.
TEST(cell_search_recordings, default_cfo_range_follows_the_carrier)
{
    auto c = centre_case(cell_standard::nr, 10.0, 3 * 77 + 1, 40e3);
    c.raster.center_hz = 3.5e9;
    {
        core::cell_search_stream stream(c.raster, c.search, c.window_s, cpu);
        EXPECT_DOUBLE_EQ(stream.searcher().params().cfo_range_hz, 35e3);
        EXPECT_EQ(stream.searcher().params().cfo_hypotheses().size(), 7u);
    }
    expect_found(c, search_stream(c, cpu));
    c.raster.center_hz = 0;
    core::cell_search_stream unknown(c.raster, c.search, c.window_s, cpu);
    EXPECT_EQ(unknown.searcher().params().cfo_hypotheses().size(), 5u);
    c.raster.center_hz = 0.5e9; // 10 ppm is 5 kHz: one subcarrier is the floor
    core::cell_search_stream low(c.raster, c.search, c.window_s, cpu);
    EXPECT_DOUBLE_EQ(low.searcher().params().cfo_range_hz, 30e3);
}

// A sample clock 20 ppm off and drifting by 100 ppm/s (20 to 40 ppm over 200 ms): LTE at
// 1.92 Msps at 10 dB, every PSS of the 200 ms within 1.5 samples of its drifted timing
// (the drift alone moves the last one 3.8 samples from where a steady 20 ppm clock puts
// it). And NR, four periods combined at -8 dB under a clock at 30 to 38 ppm, the drift
// paths widened to it (sro_ppm 40): found at its first period's timing.
TEST(cell_search_recordings, drifting_sample_clock)
{
    auto lte = synth_for(cell_standard::lte, 1.92e6, 250, -3.3e3, 1.1e-3);
    lte.noise_power = core::synth_noise_power_for_snr(lte, 10.0);
    const auto n = static_cast<size_t>(1.92e6 * 200e-3);
    auto c = drift_case(lte, n, 20, 100);
    ASSERT_EQ(c.truth.size(), 40u);
    auto steady = lte;
    steady.sro_ppm = 20;
    EXPECT_GT(c.truth.back().sample - pss_inside(steady, n, steady_clock(steady)).back().sample,
              3.5);
    c.cp = 1.5; // the timing to a sample and a half, not only within the CP
    expect_found(c, search_stream(c, cpu));

    const auto k4 = nr_combining_drift_case(-8.0);
    expect_found(k4, search_stream(k4, cpu));
}

// int16 and int8 recordings (raw files read back as the app reads them), scaled so that
// the capture's components have a standard deviation of a third of full scale and clip a
// little: an LTE 7.68 Msps capture (every 100 kHz raster point from its centre) at 5 dB
// as cs16, and cs8 with everything at once: DC at -10 dBc, I/Q imbalance, 20 kHz CFO and a
// 20 ppm clock.
TEST(cell_search_recordings, integer_samples)
{
    for (const char* format : { "cs16", "cs8" }) {
        const bool all = std::string(format) == "cs8";
        auto p = synth_for(cell_standard::lte, 7.68e6, 131, all ? 20e3 : 1.7e3, 0.77e-3);
        p.cells[0].offset_hz = -1.3e6;
        p.sro_ppm = all ? 20 : 0;
        p.noise_power = core::synth_noise_power_for_snr(p, 5.0);
        auto c = make_case("LTE", p, static_cast<size_t>(7.68e6 * 12e-3), -1.3e6);
        if (all) {
            c.search.cfo_range_hz = 25e3;
            add_dc(c, -10);
            add_iq_imbalance(c, 1.0, 5.0);
        }
        const double clipped = through_integer_file(c, format);
        EXPECT_GT(clipped, 1e-4) << c.name;
        EXPECT_LT(clipped, 1e-2) << c.name;
        expect_found(c, search_stream(c, cpu, 1 << 18));
    }
}

// Every family of rates, each standard at least once: the 2^n x 1.92 Msps family from
// 1.92 to 245.76, and 19.2 and 184.32 Msps; 1 ms recordings, the block near one end, the
// candidate off the centre by a fraction of the rate.
TEST(cell_search_recordings, every_rate)
{
    struct rate_case {
        cell_standard s;
        int scs;
        double rate;
    };
    const rate_case cases[] = {
        { cell_standard::lte, 15, 1.92e6 },     { cell_standard::nr, 15, 3.84e6 },
        { cell_standard::nr, 30, 7.68e6 },      { cell_standard::lte, 15, 15.36e6 },
        { cell_standard::fivegtf, 75, 19.2e6 }, { cell_standard::lte, 15, 30.72e6 },
        { cell_standard::nr, 30, 61.44e6 },     { cell_standard::nr, 15, 122.88e6 },
        { cell_standard::nr, 30, 184.32e6 },    { cell_standard::fivegtf, 75, 245.76e6 }
    };
    int i = 0;
    for (const auto& k : cases) {
        const auto layout =
            core::make_cell_search_layout(k.s, k.s == cell_standard::nr ? k.scs : 30);
        // Where the candidate's channel fits: offsets on the subcarrier grid.
        const double room = (k.rate - layout.rate_hz) / 2;
        const double offset = std::floor(0.37 * room / 15e3) * 15e3 * (i % 2 ? -1 : 1);
        auto c = one_ms_case(k.s, k.s == cell_standard::nr ? k.scs : 30, k.rate, i % 2, offset);
        expect_found(c, search_stream(c, cpu));
        i++;
    }
}

// 1 ms recordings with their one sync block 5 us from the start or from the end, every
// standard (NR 15 and 30 kHz), both ends.
TEST(cell_search_recordings, one_ms_block_at_either_end)
{
    for (bool at_end : { false, true }) {
        for (auto [s, scs, rate] : { std::tuple{ cell_standard::nr, 30, 7.68e6 },
                                     std::tuple{ cell_standard::nr, 15, 7.68e6 },
                                     std::tuple{ cell_standard::lte, 30, 1.92e6 },
                                     std::tuple{ cell_standard::fivegtf, 30, 19.2e6 } }) {
            auto c = one_ms_case(s, scs, rate, at_end, 0);
            ASSERT_EQ(c.truth.size(), s == cell_standard::fivegtf ? 14u : 1u) << c.name;
            expect_found(c, search_stream(c, cpu));
        }
    }
}

// The centre frequency unknown (0): candidates are offsets only, the absolute frequency
// 0 and the raster number -1 in every detection. LTE: the raster points 100 kHz apart from
// the centre (the capture tuned to one); NR: the offsets given; 5GTF: the centre. Against
// the same LTE capture with its centre known: the raster number and frequency there.
TEST(cell_search_recordings, centre_frequency_unknown)
{
    auto lte = synth_for(cell_standard::lte, 7.68e6, 77, -2.5e3, 1.9e-3);
    lte.cells[0].offset_hz = 1.2e6;
    lte.noise_power = core::synth_noise_power_for_snr(lte, 5.0);
    auto c = make_case("LTE, centre unknown", lte, static_cast<size_t>(7.68e6 * 8e-3), 1.2e6);
    auto dets = search_stream(c, cpu);
    expect_found(c, dets);
    for (const auto& d : dets) {
        EXPECT_EQ(d.candidate.absolute_hz, 0.0);
        EXPECT_EQ(d.candidate.raster_number, -1);
    }
    c.raster.center_hz = 1842.5e6;
    c.name = "LTE, centre 1842.5 MHz";
    dets = search_stream(c, cpu);
    expect_found(c, dets);
    for (const auto& d : dets) {
        EXPECT_NEAR(d.candidate.absolute_hz, 1843.7e6, 1.0);
        EXPECT_EQ(d.candidate.raster_number, 18437);
    }

    auto nr = synth_for(cell_standard::nr, 15.36e6, 990, 6e3, 0.9e-3);
    nr.cells[0].offset_hz = -2.16e6;
    nr.noise_power = core::synth_noise_power_for_snr(nr, 5.0);
    auto n = make_case("NR, centre unknown", nr, static_cast<size_t>(15.36e6 * 3e-3), -2.16e6);
    n.raster.offsets_hz = { -2.16e6, 0, 1.44e6 };
    auto fivegtf = synth_for(cell_standard::fivegtf, 38.4e6, 17, 9e3, 0.3e-3);
    fivegtf.noise_power = core::synth_noise_power_for_snr(fivegtf, 5.0);
    auto f = make_case("5GTF, centre unknown", fivegtf, static_cast<size_t>(38.4e6 * 1e-3), 0);
    for (const auto* k : { &n, &f }) {
        dets = search_stream(*k, cpu);
        expect_found(*k, dets);
        for (const auto& d : dets) {
            EXPECT_EQ(d.candidate.absolute_hz, 0.0);
            EXPECT_EQ(d.candidate.raster_number, -1);
        }
    }
}

// The CUDA backend on the recordings above (its channelizer and search, the stream cut the
// same way): the same detections as the CPU twin.
// The delay line a pass-through block uses: every pushed sample comes back, unchanged and
// in order, as decided() passes it (CPU twin and CUDA, whose line is in device memory);
// the detections are those of a stream without it cut into other pieces (the windows do
// not depend on the pushes); a push past its capacity throws.
void expect_delay_line(const core::device_spec& dev)
{
    auto many = synth_for(cell_standard::lte, 7.68e6, 77, 2e3, 1.1e-3);
    many.noise_power = core::synth_noise_power_for_snr(many, 8.0);
    auto c = make_case("LTE delay line", many, static_cast<size_t>(7.68e6 * 30e-3), 0);
    c.raster.offsets_hz = { 0, 0.5e6 };
    c.window_s = 5e-3;
    const auto plain = search_stream(c, dev, 100003);

    const size_t capacity = static_cast<size_t>(2 * (c.window_s + 0.02) * 7.68e6);
    core::cell_search_stream stream(c.raster, c.search, c.window_s, dev);
    stream.keep_samples(capacity);
    std::vector<detection> found;
    std::vector<cf> back;
    auto take_decided = [&] {
        const size_t n = static_cast<size_t>(stream.decided() - back.size());
        std::vector<cf> out(n);
        stream.take(out.data(), n);
        back.insert(back.end(), out.begin(), out.end());
    };
    for (size_t at = 0; at < c.x.size(); at += 4096) {
        take_decided();
        for (const auto& d :
             stream.push(c.x.data() + at, std::min<size_t>(4096, c.x.size() - at))) {
            found.push_back(d);
        }
    }
    for (const auto& d : stream.finish()) {
        found.push_back(d);
    }
    take_decided();
    ASSERT_EQ(back.size(), c.x.size());
    EXPECT_TRUE(std::equal(back.begin(), back.end(), c.x.begin()));
    ASSERT_EQ(found.size(), plain.size());
    for (size_t i = 0; i < found.size(); i++) {
        EXPECT_EQ(found[i].cell.cell_id, plain[i].cell.cell_id);
        EXPECT_EQ(found[i].sample, plain[i].sample);
    }
    EXPECT_FALSE(found.empty());
    std::vector<cf> one(1);
    EXPECT_THROW(stream.take(one.data(), 1), std::logic_error); // nothing left

    core::cell_search_stream small(c.raster, c.search, c.window_s, dev);
    small.keep_samples(1000);
    EXPECT_THROW(small.push(c.x.data(), 1001), std::logic_error);
}

// 5GTF with its sync symbols combined (cell_search_params::combine_symbols), at -8 dB, where
// one symbol's metric is mostly under the threshold: 27 ms in 4096-sample pieces and 5 ms
// windows, so windows end inside sync subframes. Every subframe whose 14 symbols are all in
// the recording is reported once, at its symbol 0 with its subframe number.
recording_case fivegtf_symbols_case()
{
    auto p = synth_for(cell_standard::fivegtf, 38.4e6, 211, -23e3, 1.37e-3);
    p.sro_ppm = 20;
    p.noise_power = core::synth_noise_power_for_snr(p, -8.0);
    p.seed = 5;
    auto c =
        make_case("5GTF, sync symbols combined, -8 dB", p, static_cast<size_t>(38.4e6 * 27e-3), 0);
    c.truth = pss_inside(p, c.x.size(), steady_clock(p)); // at the clock's offset
    std::vector<pss_truth> subframes;
    for (size_t i = 0; i + 13 < c.truth.size(); i++) {
        if (c.truth[i].symbol == 0 && c.truth[i + 13].symbol == 13) {
            subframes.push_back(c.truth[i]);
        }
    }
    c.truth = subframes;
    c.search.combine_symbols = true;
    c.window_s = 5e-3;
    c.piece = 4096;
    return c;
}

TEST(cell_search_recordings, fivegtf_symbols_combined)
{
    const auto c = fivegtf_symbols_case();
    ASSERT_EQ(c.truth.size(), 6u); // subframes 0 and 25 at 1.37, 6.37, ..., 26.37 ms
    const auto dets = search_stream(c, cpu, c.piece);
    expect_found(c, dets);
    EXPECT_EQ(dets.size(), c.truth.size()); // each once, whatever window it straddles

    // One symbol at a time the same recording gives a few symbols at most.
    auto single = c;
    single.search.combine_symbols = false;
    EXPECT_LT(search_stream(single, cpu, c.piece).size(), 14u);
}

TEST(cell_search_recordings, delay_line_gives_the_samples_back) { expect_delay_line(cpu); }

TEST(cell_search_recordings, cuda_delay_line_gives_the_samples_back)
{
    GPUOFDM_REQUIRE_GPU();
    expect_delay_line(core::device_spec{ core::backend::cuda, 0 });
}

TEST(cell_search_recordings, cuda_matches_cpu)
{
    GPUOFDM_REQUIRE_GPU();
    std::vector<recording_case> cases;
    for (auto s : { cell_standard::nr, cell_standard::lte, cell_standard::fivegtf }) {
        auto c = centre_case(s, 10.0, 3 * 101 + static_cast<int>(s), 3.1e3);
        add_dc(c, 20);
        add_iq_imbalance(c, 1.0, 5.0);
        cases.push_back(c);
    }
    auto lte = synth_for(cell_standard::lte, 7.68e6, 131, 20e3, 0.77e-3);
    lte.cells[0].offset_hz = -1.3e6;
    lte.sro_ppm = 20;
    lte.noise_power = core::synth_noise_power_for_snr(lte, 5.0);
    auto c = make_case("LTE", lte, static_cast<size_t>(7.68e6 * 12e-3), -1.3e6);
    c.search.cfo_range_hz = 25e3;
    through_integer_file(c, "cs8");
    cases.push_back(c);
    cases.push_back(nr_combining_drift_case(-5.0)); // clear of the threshold
    cases.push_back(one_ms_case(cell_standard::nr, 30, 184.32e6, true, 30.72e6));
    cases.push_back(one_ms_case(cell_standard::fivegtf, 30, 245.76e6, false, -60e6));
    cases.push_back(one_ms_case(cell_standard::lte, 30, 1.92e6, false, 0));
    cases.push_back(fivegtf_symbols_case());
    // Many windows in pieces as GNU Radio hands them: the device rows wait for a window of
    // channelizer blocks, and keep their overlap from window to window.
    auto many = synth_for(cell_standard::lte, 7.68e6, 77, 2e3, 1.1e-3);
    many.noise_power = core::synth_noise_power_for_snr(many, 8.0);
    auto m = make_case("LTE, 40 ms in 4096-sample pieces, 5 ms windows", many,
                       static_cast<size_t>(7.68e6 * 40e-3), 0);
    m.raster.offsets_hz = { -1.2e6, 0, 0.5e6 };
    m.window_s = 5e-3;
    m.piece = 4096;
    add_dc(m, 20);
    cases.push_back(m);
    for (const auto& k : cases) {
        expect_cuda_matches(k);
    }
}
