/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuofdm/sync_signal_source_c.h>

#include "block_params.h"
#include "work_guard.h"
#include "sync/sync_signal_synth.h"

#include <gnuradio/io_signature.h>

#include <cmath>
#include <memory>
#include <stdexcept>

namespace gr {
namespace gpuofdm {

namespace {

class sync_signal_source_c_impl : public sync_signal_source_c
{
public:
    explicit sync_signal_source_c_impl(const core::synth_params& p)
        : gr::sync_block("sync_signal_source_c",
                         gr::io_signature::make(0, 0, 0),
                         gr::io_signature::make(1, 1, sizeof(gr_complex))),
          d_synth(p)
    {
    }

    int work(int noutput_items,
             gr_vector_const_void_star&,
             gr_vector_void_star& output_items) override
    {
        return stop_on_error(d_logger, [&]() -> int {
            d_synth.generate(static_cast<gr_complex*>(output_items[0]), size_t(noutput_items));
            return noutput_items;
        });
    }

private:
    core::sync_signal_synth d_synth;
};

//! Element i of a per-cell list, 0 when the list is empty.
double per_cell(const std::vector<double>& v, size_t i, size_t cells, const char* name)
{
    if (v.empty()) {
        return 0;
    }
    if (v.size() != cells) {
        throw std::invalid_argument(std::string(name) + ": empty or one value per cell (" +
                                    std::to_string(cells) + "), got " + std::to_string(v.size()));
    }
    return v[i];
}

} // namespace

sync_signal_source_c::sptr sync_signal_source_c::make(const std::string& standard,
                                                      double samp_rate,
                                                      const std::vector<int>& cell_ids,
                                                      const std::vector<double>& power_db,
                                                      const std::vector<double>& offsets_hz,
                                                      const std::vector<double>& cfo_hz,
                                                      const std::vector<double>& start_s,
                                                      double snr_db,
                                                      int ssb_scs_khz,
                                                      double sro_ppm,
                                                      double center_freq,
                                                      int seed)
{
    return with_block_names<sptr>(
        [&]() -> sptr {
            core::synth_params p;
            p.standard = core::parse_cell_standard(standard);
            p.sample_rate = samp_rate;
            p.scs_khz = ssb_scs_khz;
            p.nr_case = ssb_scs_khz == 15 ? 'A' : 'C';
            p.sro_ppm = sro_ppm;
            p.center_hz = center_freq;
            p.seed = static_cast<uint64_t>(seed);
            if (cell_ids.empty()) {
                throw std::invalid_argument("cell_ids: at least one cell");
            }
            const size_t n = cell_ids.size();
            for (size_t i = 0; i < n; i++) {
                core::synth_cell c;
                c.cell_id = cell_ids[i];
                c.power_db = per_cell(power_db, i, n, "power_db");
                c.offset_hz = per_cell(offsets_hz, i, n, "offsets_hz");
                c.cfo_hz = per_cell(cfo_hz, i, n, "cfo_hz");
                c.start_s = per_cell(start_s, i, n, "start_s");
                p.cells.push_back(c);
            }
            if (std::isnan(snr_db)) {
                throw std::invalid_argument("snr_db: a number or infinity, got nan");
            }
            p.noise_power = std::isinf(snr_db) ? 0.0 : core::synth_noise_power_for_snr(p, snr_db);
            p.validate();
            return gnuradio::make_block_sptr<sync_signal_source_c_impl>(p);
        },
        { { "sample_rate", "samp_rate" },
          { "center_hz", "center_freq" },
          { "scs_khz", "ssb_scs_khz" },
          { "offset_hz", "offsets_hz" },
          { "cell_id", "cell_ids" } });
}

} // namespace gpuofdm
} // namespace gr
