/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "runtime/param_error.h"
#include "sync/sync_raster.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace gr::gpuofdm::core {

namespace {

// 38.104 Table 5.4.3.1-1: the three frequency ranges of the synchronization raster.
constexpr int gscn_first = 2, gscn_fr1_mid = 7499, gscn_fr2 = 22256, gscn_last = 26639;
constexpr double lte_raster_hz = 100e3;

} // namespace

cell_standard parse_cell_standard(const std::string& name)
{
    if (name == "nr") {
        return cell_standard::nr;
    }
    if (name == "lte") {
        return cell_standard::lte;
    }
    if (name == "5gtf") {
        return cell_standard::fivegtf;
    }
    throw std::invalid_argument("standard: \"nr\", \"lte\" or \"5gtf\", got \"" + name + "\"");
}

const char* cell_standard_name(cell_standard standard)
{
    switch (standard) {
    case cell_standard::nr:
        return "nr";
    case cell_standard::lte:
        return "lte";
    case cell_standard::fivegtf:
        return "5gtf";
    }
    return "?";
}

void validate_cell_standard(cell_standard standard)
{
    if (standard != cell_standard::nr && standard != cell_standard::lte &&
        standard != cell_standard::fivegtf) {
        throw_param_error("standard", "nr, lte or 5gtf", static_cast<int>(standard));
    }
}

double nr_gscn_frequency(int gscn)
{
    if (gscn < gscn_first || gscn > gscn_last) {
        throw_param_error("gscn", "2..26639", gscn);
    }
    if (gscn < gscn_fr1_mid) {
        // GSCN = 3N + (M - 3) / 2, SS_REF = N * 1200 kHz + M * 50 kHz, M in {1, 3, 5}.
        const int n = (gscn + 1) / 3;
        const int m = 2 * (gscn - 3 * n) + 3;
        return n * 1.2e6 + m * 50e3;
    }
    if (gscn < gscn_fr2) {
        return 3000e6 + (gscn - gscn_fr1_mid) * 1.44e6;
    }
    return 24250.08e6 + (gscn - gscn_fr2) * 17.28e6;
}

int nr_gscn_at(double hz)
{
    int guess;
    if (hz < 3000e6) {
        // N from the middle value M = 3 (SS_REF = N * 1200 kHz + 150 kHz); M = 1, 5 beside it.
        guess = 3 * static_cast<int>(std::lround((hz - 150e3) / 1.2e6));
    } else if (hz < 24250.08e6) {
        guess = gscn_fr1_mid + static_cast<int>(std::lround((hz - 3000e6) / 1.44e6));
    } else {
        guess = gscn_fr2 + static_cast<int>(std::lround((hz - 24250.08e6) / 17.28e6));
    }
    for (int g = guess - 2; g <= guess + 2; g++) {
        if (g >= gscn_first && g <= gscn_last && std::abs(nr_gscn_frequency(g) - hz) < 1.0) {
            return g;
        }
    }
    return -1;
}

void raster_params::validate() const
{
    validate_cell_standard(standard);
    if (!(sample_rate >= 1.92e6 && sample_rate <= 245.76e6)) {
        throw_param_error("sample_rate", "1.92e6..245.76e6 Hz", sample_rate);
    }
    if (!(center_hz >= 0 && center_hz <= 100e9)) {
        throw_param_error("center_hz", "0 (unknown) or up to 100e9 Hz", center_hz);
    }
    if (ssb_scs_khz != 15 && ssb_scs_khz != 30) {
        throw_param_error("ssb_scs_khz", "15 or 30", ssb_scs_khz);
    }
    if (!(usable_fraction >= 0.5 && usable_fraction <= 1.0)) {
        throw_param_error("usable_fraction", "0.5..1", usable_fraction);
    }
    for (double offset : offsets_hz) {
        if (!std::isfinite(offset)) {
            throw_param_error("offsets_hz", "finite values", offset);
        }
    }
}

double sync_signal_bandwidth(cell_standard standard, int scs_khz)
{
    switch (standard) {
    case cell_standard::nr:
        return 240 * scs_khz * 1e3;
    case cell_standard::lte:
        return 72 * 15e3;
    case cell_standard::fivegtf:
        return 72 * 75e3;
    }
    return 0;
}

std::vector<raster_candidate> raster_candidates(const raster_params& params)
{
    params.validate();
    // The sync signal inside the usable band; where the rate leaves it no room there (NR
    // 30 kHz at 7.68 Msps, 15 kHz at 3.84 Msps: the SSB fills 94 % of the band), still at
    // the centre when it fits the whole band.
    const double bandwidth = sync_signal_bandwidth(params.standard, params.ssb_scs_khz);
    const double reach = std::max(params.usable_fraction * params.sample_rate / 2,
                                  std::min(params.sample_rate / 2, bandwidth / 2)) -
                         bandwidth / 2;
    const bool centre_known = params.center_hz > 0;
    std::vector<raster_candidate> out;
    auto add = [&](double offset, int raster_number) {
        raster_candidate c;
        c.offset_hz = offset;
        c.absolute_hz = centre_known ? params.center_hz + offset : 0;
        c.raster_number = raster_number;
        out.push_back(c);
    };

    if (!params.offsets_hz.empty()) {
        for (double offset : params.offsets_hz) {
            if (reach < 0) {
                throw_param_error("offsets_hz",
                                  "none: the sync signal is wider than the band at this rate",
                                  offset);
            }
            if (std::abs(offset) > reach) {
                std::ostringstream range;
                range << "within +-" << reach << " Hz of the centre for this rate and standard";
                throw_param_error("offsets_hz", range.str(), offset);
            }
            int number = -1;
            if (centre_known) {
                const double f = params.center_hz + offset;
                if (params.standard == cell_standard::nr) {
                    number = nr_gscn_at(f);
                } else if (params.standard == cell_standard::lte &&
                           std::abs(f - std::round(f / lte_raster_hz) * lte_raster_hz) < 1.0) {
                    number = static_cast<int>(std::lround(f / lte_raster_hz));
                }
            }
            add(offset, number);
        }
        return out;
    }
    if (reach < 0) {
        return out; // the sync signal is wider than the usable band
    }

    switch (params.standard) {
    case cell_standard::nr:
        if (!centre_known) {
            throw std::invalid_argument(
                "center_hz: NR's GSCN raster needs the capture's centre frequency; give it, "
                "or give explicit offsets_hz");
        }
        for (int g = gscn_first; g <= gscn_last; g++) {
            const double offset = nr_gscn_frequency(g) - params.center_hz;
            if (std::abs(offset) <= reach) {
                add(offset, g);
            }
        }
        break;
    case cell_standard::lte:
        if (centre_known) {
            const auto lo =
                static_cast<long long>(std::ceil((params.center_hz - reach) / lte_raster_hz));
            const auto hi =
                static_cast<long long>(std::floor((params.center_hz + reach) / lte_raster_hz));
            for (long long k = lo; k <= hi; k++) {
                add(k * lte_raster_hz - params.center_hz, static_cast<int>(k));
            }
        } else {
            const auto n = static_cast<long long>(std::floor(reach / lte_raster_hz));
            for (long long k = -n; k <= n; k++) {
                add(k * lte_raster_hz, -1);
            }
        }
        break;
    case cell_standard::fivegtf:
        add(0, -1);
        break;
    }
    return out;
}

} // namespace gr::gpuofdm::core
