/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuofdm/prach_source_c.h>

#include "block_params.h"
#include "prach_block_util.h"
#include "work_guard.h"
#include "prach/prach_preamble.h"
#include "prach/prach_synth.h"

#include <gnuradio/io_signature.h>

#include <stdexcept>
#include <vector>

namespace gr {
namespace gpuofdm {

namespace {

class prach_source_c_impl : public prach_source_c
{
public:
    explicit prach_source_c_impl(const core::prach_synth_params& p)
        : gr::sync_block("prach_source_c",
                         gr::io_signature::make(0, 0, 0),
                         gr::io_signature::make(p.n_antennas, p.n_antennas, sizeof(gr_complex))),
          d_synth(p)
    {
    }

    int preamble_samples() const override { return int(d_synth.preamble_samples()); }

    int work(int noutput_items,
             gr_vector_const_void_star&,
             gr_vector_void_star& output_items) override
    {
        return stop_on_error(d_logger, [&]() -> int {
            std::vector<core::cfloat*> out(output_items.size());
            for (size_t a = 0; a < out.size(); a++)
                out[a] = static_cast<core::cfloat*>(output_items[a]);
            d_synth.generate(out.data(), size_t(noutput_items));
            return noutput_items;
        });
    }

private:
    core::prach_synth d_synth;
};

//! Element i of a per-UE list, \p dflt when the list is empty.
double per_ue(const std::vector<double>& v, size_t i, size_t ues, const char* name, double dflt)
{
    if (v.empty())
        return dflt;
    if (v.size() != ues)
        throw std::invalid_argument(std::string(name) + ": empty or one value per UE (" +
                                    std::to_string(ues) + "), got " + std::to_string(v.size()));
    return v[i];
}

//! "ues[i].delay_samples: ..." -> "delays_samples[i]: ...": the block's list names.
std::string block_name_of_ue_field(const std::string& what)
{
    return indexed_block_name(what, "ues",
                              { { "delay_samples", "delays_samples" },
                                { "cfo_hz", "cfo_hz" },
                                { "power_db", "power_db" },
                                { "gains", "gains" } });
}

} // namespace

prach_source_c::sptr prach_source_c::make(double samp_rate,
                                          const std::string& format,
                                          int scs_khz,
                                          int n_antennas,
                                          int logical_root,
                                          int zero_correlation_zone,
                                          const std::string& restricted_set,
                                          double offset_hz,
                                          int start_sample,
                                          int period_samples,
                                          const std::vector<int>& preambles,
                                          const std::vector<double>& delays_samples,
                                          const std::vector<double>& cfo_hz,
                                          const std::vector<double>& power_db,
                                          const std::vector<gr_complex>& gains,
                                          bool noise,
                                          int seed)
{
    return with_block_names<sptr>(
        [&]() -> sptr {
            core::prach_synth_params p;
            p.format = core::parse_prach_format(format, "format");
            const core::prach_format_info probe = core::prach_format_lookup(p.format, 0);
            const int mu_ul = prach_mu_of(scs_khz);
            p.mu = probe.is_long() ? 0 : mu_ul;
            const core::prach_format_info fmt = core::prach_format_lookup(p.format, p.mu);
            const auto set = core::parse_prach_restricted_set(restricted_set, "restricted_set");
            if (!fmt.is_long() && set != core::prach_restricted_set::unrestricted)
                throw std::invalid_argument(
                    "restricted_set: unrestricted for the short formats, got " + restricted_set);
            const int ncs = core::prach_ncs(fmt, set, zero_correlation_zone);
            const auto ids = core::prach_cell_preambles(fmt.length, logical_root, ncs, set);
            p.sample_rate = samp_rate;
            p.offset_hz = offset_hz;
            p.n_antennas = n_antennas;
            p.start_sample = non_negative(start_sample, "start_sample");
            p.period_samples = non_negative(period_samples, "period_samples");
            p.noise_power = noise ? 1.0 : 0.0;
            p.seed = uint64_t(uint32_t(seed));
            const size_t n = preambles.size();
            if (!gains.empty() && (n_antennas < 1 || gains.size() != n * size_t(n_antennas)))
                throw std::invalid_argument("gains: empty or n_antennas per UE (" +
                                            std::to_string(n * size_t(std::max(n_antennas, 0))) +
                                            "), got " + std::to_string(gains.size()));
            for (size_t i = 0; i < n; i++) {
                if (preambles[i] < 0 || preambles[i] >= core::prach_preambles)
                    throw std::invalid_argument("preambles: 0..63, got " +
                                                std::to_string(preambles[i]));
                const auto& id = ids[size_t(preambles[i])];
                core::prach_synth_ue ue;
                ue.u = id.u;
                ue.cv = id.cv;
                ue.delay_samples = per_ue(delays_samples, i, n, "delays_samples", 0);
                ue.cfo_hz = per_ue(cfo_hz, i, n, "cfo_hz", 0);
                ue.power_db = per_ue(power_db, i, n, "power_db", 0);
                if (!gains.empty())
                    ue.gains.assign(gains.begin() + ptrdiff_t(i * size_t(n_antennas)),
                                    gains.begin() + ptrdiff_t((i + 1) * size_t(n_antennas)));
                p.ues.push_back(ue);
            }
            try {
                p.validate();
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument(block_name_of_ue_field(e.what()));
            }
            return gnuradio::make_block_sptr<prach_source_c_impl>(p);
        },
        { { "sample_rate", "samp_rate" }, { "zero_correlation_zone", "zero_correlation_zone" } });
}

} // namespace gpuofdm
} // namespace gr
