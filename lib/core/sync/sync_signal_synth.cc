/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/param_error.h"
#include "sync/sync_signal_synth.h"

#include <cmath>
#include <stdexcept>

namespace gr::gpuofdm::core {

namespace {

constexpr double ts_lte = 1.0 / 30.72e6;  // 36.211's T_s, 38.211's kappa * T_c
constexpr double ts_5gtf = 1.0 / 153.6e6; // V5G.211's T_s

// splitmix64: a small, fast generator whose stream does not depend on how calls are cut.
struct splitmix {
    uint64_t state;
    uint64_t next()
    {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }
};

// exp(j 2 pi cycles), the whole cycles dropped first so large arguments keep their precision.
std::complex<double> turn(double cycles)
{
    const double frac = cycles - std::floor(cycles);
    return std::polar(1.0, 2 * M_PI * frac);
}

// The frequency of LTE-style subcarrier n of a 62-long sequence centred on DC with the DC
// subcarrier left out (36.211 6.11.1.2): n = 0..30 -> -31..-1, n = 31..61 -> +1..+31.
double dc_gap_subcarrier(int n) { return n < 31 ? n - 31 : n - 30; }

// First symbol (counted from the half frame's start) of SSB i, 38.213 4.1 cases A, B, C.
int nr_ssb_first_symbol(char ssb_case, int i)
{
    static const int case_a_c[8] = { 2, 8, 16, 22, 30, 36, 44, 50 };
    static const int case_b[8] = { 4, 8, 16, 20, 32, 36, 44, 48 };
    return ssb_case == 'B' ? case_b[i] : case_a_c[i];
}

} // namespace

void synth_params::validate() const
{
    validate_cell_standard(standard);
    if (!(sample_rate >= 1.92e6 && sample_rate <= 245.76e6)) {
        throw_param_error("sample_rate", "1.92e6..245.76e6 Hz", sample_rate);
    }
    if (!(center_hz >= 0 && center_hz <= 100e9)) {
        throw_param_error("center_hz", "0 (unknown) or up to 100e9 Hz", center_hz);
    }
    if (standard == cell_standard::nr) {
        if (scs_khz != 15 && scs_khz != 30) {
            throw_param_error("scs_khz", "15 or 30 for NR", scs_khz);
        }
        const bool case_ok = scs_khz == 15 ? nr_case == 'A' : (nr_case == 'B' || nr_case == 'C');
        if (!case_ok) {
            throw std::invalid_argument("nr_case: 'A' for 15 kHz, 'B' or 'C' for 30 kHz, got '" +
                                        std::string(1, nr_case) + "'");
        }
        if (ssb_count < 1 || ssb_count > 8) {
            throw_param_error("ssb_count", "1..8", ssb_count);
        }
        if (!(sync_period_s >= 5e-3 && sync_period_s <= 160e-3)) {
            throw_param_error("sync_period_s", "5e-3..160e-3", sync_period_s);
        }
    }
    if (!(std::abs(sro_ppm) <= 1000)) {
        throw_param_error("sro_ppm", "-1000..1000", sro_ppm);
    }
    if (!(noise_power >= 0 && std::isfinite(noise_power))) {
        throw_param_error("noise_power", ">= 0", noise_power);
    }
    const int max_id = standard == cell_standard::nr ? 1007 : 503;
    for (const auto& c : cells) {
        if (c.cell_id < 0 || c.cell_id > max_id) {
            throw_param_error("cell_id", "0.." + std::to_string(max_id), c.cell_id);
        }
        if (c.pbch_cell_id < -1 || c.pbch_cell_id > max_id) {
            throw_param_error("pbch_cell_id", "-1 (its own) or 0.." + std::to_string(max_id),
                              c.pbch_cell_id);
        }
        if (!std::isfinite(c.power_db) || !std::isfinite(c.offset_hz) || !std::isfinite(c.cfo_hz) ||
            !std::isfinite(c.start_s)) {
            throw std::invalid_argument("cells: power_db, offset_hz, cfo_hz, start_s finite");
        }
        // Beyond these the sample times and amplitudes leave double's exact range.
        if (!(std::abs(c.power_db) <= 200)) {
            throw_param_error("power_db", "-200..200 dB", c.power_db);
        }
        if (!(std::abs(c.start_s) <= 1e4)) {
            throw_param_error("start_s", "-1e4..1e4 s", c.start_s);
        }
        if (std::abs(c.offset_hz + c.cfo_hz) >= sample_rate / 2) {
            throw_param_error("offset_hz", "|offset_hz + cfo_hz| < sample_rate / 2",
                              c.offset_hz + c.cfo_hz);
        }
    }
}

double synth_noise_power_for_snr(const synth_params& params, double snr_db)
{
    // A cell of power_db 0 puts unit power on each of its sync signal's subcarriers; sampled
    // at fs, a subcarrier of amplitude 1 has power 1 per sample. The sync signal's bandwidth
    // B = subcarriers x spacing holds noise_power x B / fs of the noise.
    int subcarriers = 0;
    double spacing = 0;
    switch (params.standard) {
    case cell_standard::nr:
        subcarriers = nr_sync_length;
        spacing = params.scs_khz * 1e3;
        break;
    case cell_standard::lte:
        subcarriers = lte_sync_length;
        spacing = 15e3;
        break;
    case cell_standard::fivegtf:
        subcarriers = lte_sync_length;
        spacing = 75e3;
        break;
    }
    const double signal = subcarriers;
    const double noise_in_band = signal / std::pow(10.0, snr_db / 10);
    return noise_in_band * params.sample_rate / (subcarriers * spacing);
}

sync_signal_synth::sync_signal_synth(const synth_params& params)
    : d_params(params), d_noise_state(params.seed * 0x2545F4914F6CDD1Dull + 7)
{
    d_params.validate();
    switch (d_params.standard) {
    case cell_standard::nr: {
        const int mu = d_params.scs_khz == 30 ? 1 : 0;
        const double useful = 2048.0 * ts_lte / (1 << mu);
        const double cp = 144.0 * ts_lte / (1 << mu);
        const int per_half_ms = 7 << mu;
        auto symbol_start = [&](int l) {
            double t = 0;
            for (int j = 0; j < l; j++) {
                t += useful + cp + (j % per_half_ms == 0 ? 16 * ts_lte : 0);
            }
            return t;
        };
        for (int i = 0; i < d_params.ssb_count; i++) {
            const int first = nr_ssb_first_symbol(d_params.nr_case, i);
            for (int part = 0; part < 4; part++) {
                const int l = first + part;
                symbol_slot s;
                s.start_s = symbol_start(l);
                s.cp_s = cp + (l % per_half_ms == 0 ? 16 * ts_lte : 0);
                s.useful_s = useful;
                s.ssb_index = i;
                s.subframe = l / (14 << mu);
                s.symbol = l % (14 << mu);
                s.part = part;
                d_slots.push_back(s);
            }
        }
        d_period = d_params.sync_period_s;
        break;
    }
    case cell_standard::lte: {
        const int per_slot = d_params.lte_extended_cp ? 6 : 7;
        auto slot = [&](int slot_index, int l, int part) {
            symbol_slot s;
            double t = slot_index * 15360 * ts_lte;
            for (int j = 0; j < l; j++) {
                t += (2048 + (d_params.lte_extended_cp ? 512 : (j == 0 ? 160 : 144))) * ts_lte;
            }
            s.start_s = t;
            s.cp_s = (d_params.lte_extended_cp ? 512 : (l == 0 ? 160 : 144)) * ts_lte;
            s.useful_s = 2048 * ts_lte;
            s.subframe = slot_index / 2;
            s.symbol = (slot_index % 2) * per_slot + l;
            s.part = part;
            s.half = slot_index >= 10 ? sss_half::second : sss_half::first;
            d_slots.push_back(s);
        };
        for (int base : { 0, 10 }) {
            if (d_params.lte_tdd) {
                slot(base + 1, per_slot - 1, 0); // SSS: last symbol of slots 1, 11
                slot(base + 2, 2, 1);            // PSS: third symbol of slots 2, 12 (DwPTS)
            } else {
                slot(base, per_slot - 2, 0); // SSS and PSS: the last two symbols of slots 0, 10
                slot(base, per_slot - 1, 1);
            }
        }
        d_period = 10e-3;
        break;
    }
    case cell_standard::fivegtf: {
        for (int subframe : { 0, 25 }) {
            double t = subframe * 30720 * ts_5gtf;
            for (int l = 0; l < fivegtf_symbols; l++) {
                symbol_slot s;
                s.start_s = t;
                s.cp_s = fivegtf_cp_length(l, d_params.fivegtf_cp) * ts_5gtf;
                s.useful_s = 2048 * ts_5gtf;
                s.subframe = subframe;
                s.symbol = l;
                s.half = subframe == 25 ? sss_half::second : sss_half::first;
                d_slots.push_back(s);
                t += s.cp_s + s.useful_s;
            }
        }
        d_period = 10e-3;
        break;
    }
    }
    for (const auto& cell : d_params.cells) {
        std::vector<std::vector<tone>> per_slot;
        for (const auto& slot : d_slots) {
            per_slot.push_back(symbol_tones(cell, slot));
        }
        d_tones.push_back(std::move(per_slot));
    }
}

std::vector<sync_signal_synth::tone> sync_signal_synth::symbol_tones(const synth_cell& cell,
                                                                     const symbol_slot& slot)
{
    const double amplitude = std::pow(10.0, cell.power_db / 20);
    const int nid1 = cell.cell_id / 3, nid2 = cell.cell_id % 3;
    std::vector<tone> tones;
    auto add = [&](double subcarrier, double spacing, std::complex<double> v) {
        tones.push_back({ subcarrier * spacing, amplitude * v });
    };
    switch (d_params.standard) {
    case cell_standard::nr: {
        const double scs = d_params.scs_khz * 1e3;
        // SSB subcarrier k (0..239) sits at (k - 120) x scs from SS_REF (38.211 7.4.3.1).
        auto at = [&](int k, std::complex<double> v) { add(k - 120, scs, v); };
        if (slot.part == 0) {
            const auto pss = nr_pss(nid2);
            for (int n = 0; n < nr_sync_length; n++) {
                at(56 + n, pss[n]);
            }
            break;
        }
        // PBCH DM-RS (7.4.1.4.1): c_init from the SSB index (L_max <= 8: i_SSB, half frame 0).
        const uint32_t issb = slot.ssb_index;
        const uint32_t pbch_id =
            static_cast<uint32_t>(cell.pbch_cell_id >= 0 ? cell.pbch_cell_id : cell.cell_id);
        const auto c = gold_sequence((1u << 11) * (issb + 1) * (pbch_id / 4 + 1) +
                                         (1u << 6) * (issb + 1) + pbch_id % 4,
                                     288);
        auto dmrs = [&](int m) {
            return std::complex<double>((1 - 2 * c[2 * m]) * M_SQRT1_2,
                                        (1 - 2 * c[2 * m + 1]) * M_SQRT1_2);
        };
        splitmix data{ d_params.seed ^ (static_cast<uint64_t>(cell.cell_id) << 20) ^
                       (static_cast<uint64_t>(slot.ssb_index) << 8) ^ slot.part };
        auto qpsk = [&] {
            const uint64_t b = data.next();
            return std::complex<double>((b & 1) ? -M_SQRT1_2 : M_SQRT1_2,
                                        (b & 2) ? -M_SQRT1_2 : M_SQRT1_2);
        };
        const int v = static_cast<int>(pbch_id % 4);
        // m counts DM-RS REs k first, then symbol (7.4.3.1.3): symbol 1 m 0..59,
        // symbol 2 m 60..83, symbol 3 m 84..143.
        int m = slot.part == 1 ? 0 : slot.part == 2 ? 60 : 84;
        for (int k = 0; k < 240; k++) {
            const bool pbch_re = slot.part != 2 || k < 48 || k >= 192;
            if (!pbch_re) {
                continue;
            }
            if (k % 4 == v) {
                at(k, dmrs(m++));
            } else {
                at(k, qpsk());
            }
        }
        if (slot.part == 2) {
            const auto sss = nr_sss(nid1, nid2);
            for (int n = 0; n < nr_sync_length; n++) {
                at(56 + n, sss[n]);
            }
        }
        break;
    }
    case cell_standard::lte:
        if (slot.part == 1) {
            const auto pss = lte_pss(nid2);
            for (int n = 0; n < lte_sync_length; n++) {
                add(dc_gap_subcarrier(n), 15e3, pss[n]);
            }
        } else {
            const auto sss = lte_sss(nid1, nid2, slot.half);
            for (int n = 0; n < lte_sync_length; n++) {
                add(dc_gap_subcarrier(n), 15e3, sss[n]);
            }
        }
        break;
    case cell_standard::fivegtf: {
        const auto pss = fivegtf_pss(nid2);
        const auto sss = fivegtf_sss(nid1, nid2, slot.half);
        const auto ess = fivegtf_ess(cell.cell_id, slot.symbol, slot.half, d_params.fivegtf_ess);
        for (int n = 0; n < lte_sync_length; n++) {
            add(dc_gap_subcarrier(n), 75e3, pss[n]);
            add(n + 42, 75e3, sss[n]); // grid 641..702: +42..+103
        }
        for (int n = 0; n < fivegtf_ess_length; n++) {
            add(n - 104, 75e3, ess[n]); // grid 496..558: -104..-42
        }
        break;
    }
    }
    return tones;
}

void sync_signal_synth::add_symbol(const synth_cell& cell,
                                   const std::vector<tone>& tones,
                                   double symbol_start_s,
                                   const symbol_slot& slot,
                                   std::complex<double>* acc,
                                   size_t n)
{
    const double dt = 1.0 / (d_params.sample_rate * (1 + d_params.sro_ppm * 1e-6));
    const double t_first = static_cast<double>(d_next) * dt;
    const double t_end = symbol_start_s + slot.cp_s + slot.useful_s;
    const auto i0 = static_cast<long long>(std::ceil((symbol_start_s - t_first) / dt));
    const auto i1 = static_cast<long long>(std::ceil((t_end - t_first) / dt));
    const long long lo = std::max(0LL, i0), hi = std::min(static_cast<long long>(n), i1);
    if (lo >= hi) {
        return;
    }
    // Subcarrier f at time t: exp(j 2 pi f (t - T_useful)) with T_useful the end of the CP,
    // carried by exp(j 2 pi (offset + cfo) t); NR also resets the phase of each symbol at
    // the carrier frequency (38.211 5.4: the upconversion's t - t_start - N_CP T_c).
    const double useful_start = symbol_start_s + slot.cp_s;
    const double carrier = cell.offset_hz + cell.cfo_hz;
    std::complex<double> symbol_phase = 1.0;
    if (d_params.standard == cell_standard::nr && d_params.center_hz > 0) {
        symbol_phase = turn(-(d_params.center_hz + cell.offset_hz) * useful_start);
    }
    const double t_lo = t_first + static_cast<double>(lo) * dt;
    for (const auto& tn : tones) {
        std::complex<double> p = tn.value * symbol_phase *
                                 turn(tn.freq_hz * (t_lo - useful_start)) * turn(carrier * t_lo);
        const std::complex<double> step = turn((tn.freq_hz + carrier) * dt);
        for (long long i = lo; i < hi; i++) {
            acc[i] += p;
            p *= step;
        }
    }
}

void sync_signal_synth::generate(std::complex<float>* out, size_t n)
{
    std::vector<std::complex<double>> acc(n, 0.0);
    const double dt = 1.0 / (d_params.sample_rate * (1 + d_params.sro_ppm * 1e-6));
    const double t_first = static_cast<double>(d_next) * dt;
    const double t_last = t_first + static_cast<double>(n) * dt;
    for (size_t c = 0; c < d_params.cells.size(); c++) {
        const auto& cell = d_params.cells[c];
        const auto k0 = static_cast<long long>(std::floor((t_first - cell.start_s) / d_period)) - 1;
        const auto k1 = static_cast<long long>(std::floor((t_last - cell.start_s) / d_period));
        for (long long k = k0; k <= k1; k++) {
            const double period_start = cell.start_s + static_cast<double>(k) * d_period;
            for (size_t s = 0; s < d_slots.size(); s++) {
                add_symbol(cell, d_tones[c][s], period_start + d_slots[s].start_s, d_slots[s],
                           acc.data(), n);
            }
        }
    }
    splitmix noise{ d_noise_state };
    const double sigma = std::sqrt(d_params.noise_power / 2);
    for (size_t i = 0; i < n; i++) {
        // Box-Muller: two uniforms a sample, always, so the stream ignores how calls are cut.
        const double r = std::sqrt(-2 * std::log(noise.uniform()));
        const double a = 2 * M_PI * noise.uniform();
        out[i] = std::complex<float>(acc[i] +
                                     sigma * r * std::complex<double>(std::cos(a), std::sin(a)));
    }
    d_noise_state = noise.state;
    d_next += n;
}

} // namespace gr::gpuofdm::core
