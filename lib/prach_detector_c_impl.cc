/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuofdm/prach_detector_c.h>

#include "block_params.h"
#include "prach_block_util.h"
#include "work_guard.h"
#include "prach/prach_detector.h"
#include "prach/prach_frontend.h"

#include <gnuradio/io_signature.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

namespace gr {
namespace gpuofdm {

namespace {

using cf = gr_complex;

//! Occasion timing and the frame reference, in samples.
struct prach_timing {
    uint64_t start = 0;
    uint64_t period = 0; // 0: one occasion
    int frame_start = 0;
    int mu_pusch = 0;
};

class prach_detector_c_impl : public prach_detector_c
{
public:
    prach_detector_c_impl(const core::prach_frontend_params& fp,
                          const core::prach_detector_params& dp,
                          const prach_timing& timing,
                          const core::device_spec& dev)
        : gr::sync_block("prach_detector_c",
                         gr::io_signature::make(fp.n_antennas, fp.n_antennas, sizeof(cf)),
                         gr::io_signature::make(0, 0, 0)),
          d_frontend(core::make_prach_frontend(fp, dev)),
          d_detector(core::make_prach_detector(dp, dev)), d_timing(timing), d_rate(fp.sample_rate),
          d_port(pmt::mp("detections"))
    {
        d_row = d_frontend->samples_per_row();
        d_n_cells = fp.offset_hz.size();
        d_n_antennas = size_t(fp.n_antennas);
        d_rows.resize(d_n_cells * d_n_antennas * d_row);
        d_bins.resize(d_frontend->n_outputs() * d_frontend->output_bins());
        message_port_register_out(d_port);
        d_logger->debug("{} cells, {} antennas, {} samples an occasion, on {}", d_n_cells,
                        d_n_antennas, d_row, device());
    }

    std::string device() const override { return d_detector->device().to_string(); }
    uint64_t occasions() const override { return d_occasion; }
    uint64_t detections() const override { return d_found; }

    bool start() override
    {
        d_occasion = 0;
        d_filled = 0;
        d_found = 0;
        d_has_rx_time = false;
        return true;
    }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star&) override
    {
        return stop_on_error(d_logger, [&]() -> int {
            const uint64_t r0 = nitems_read(0);
            const uint64_t end = r0 + uint64_t(noutput_items);
            std::vector<gr::tag_t> tags;
            get_tags_in_range(tags, 0, r0, end, d_rx_time_key);
            for (const auto& t : tags)
                take_rx_time(t);
            while (!(d_timing.period == 0 && d_occasion > 0)) {
                const uint64_t s = d_timing.start + d_occasion * d_timing.period;
                const uint64_t lo = std::max(s + d_filled, r0);
                const uint64_t hi = std::min<uint64_t>(s + d_row, end);
                if (lo >= hi)
                    break;
                // Cells share the antennas' samples: the first cell's rows take them,
                // the others are copied when the occasion is complete.
                for (size_t a = 0; a < d_n_antennas; a++) {
                    const auto* in = static_cast<const cf*>(input_items[a]);
                    std::copy(in + (lo - r0), in + (hi - r0),
                              d_rows.begin() + ptrdiff_t(a * d_row + (lo - s)));
                }
                d_filled = size_t(hi - s);
                if (d_filled < d_row)
                    break;
                detect(s);
                d_filled = 0;
                d_occasion++;
            }
            return noutput_items;
        });
    }

private:
    void detect(uint64_t s)
    {
        const size_t per_cell = d_n_antennas * d_row;
        for (size_t c = 1; c < d_n_cells; c++)
            std::copy_n(d_rows.begin(), per_cell, d_rows.begin() + ptrdiff_t(c * per_cell));
        d_frontend->process(d_rows.data(), d_row, d_bins.data(), d_frontend->output_bins());
        const auto found = d_detector->detect(d_bins.data(), d_detector->channel_bins());
        // SFN and slot of the occasion's first sample: from the last rx_time tag (frames
        // counted from time 0), else from frame_start.
        const long double rel =
            d_has_rx_time ? d_rx_time_s + (static_cast<long double>(s) - d_rx_time_sample) / d_rate
                          : (static_cast<long double>(s) - d_timing.frame_start) / d_rate;
        const long double frames = std::floor(rel / 0.01L);
        const long sfn = ((long(frames) % 1024) + 1024) % 1024;
        const long double in_frame = rel - frames * 0.01L;
        const long slot = long(std::floor(in_frame * 1000.0L * (1 << d_timing.mu_pusch)));
        for (const auto& d : found) {
            pmt::pmt_t m = pmt::make_dict();
            auto add = [&m](const char* k, const pmt::pmt_t& v) {
                m = pmt::dict_add(m, pmt::mp(k), v);
            };
            const double noise_db = 10 * std::log10(std::max(d.noise, 1e-30f));
            const double power_db = 10 * std::log10(std::max(d.power, 1e-30f));
            add("cell", pmt::from_long(d.cell));
            add("sfn", pmt::from_long(sfn));
            add("slot", pmt::from_long(slot));
            add("occasion", pmt::from_uint64(d_occasion));
            add("fd_occasion", pmt::from_long(d.occasion));
            add("sample", pmt::from_uint64(s));
            add("preamble", pmt::from_long(d.preamble));
            add("logical_root", pmt::from_long(d.logical_root));
            add("delay_samples", pmt::from_double(d.delay_samples));
            add("delay_us", pmt::from_double(d.delay_us));
            add("timing_advance",
                pmt::from_long(core::prach_timing_advance(d.delay_us * 1e-6, d_timing.mu_pusch)));
            add("power_db", pmt::from_double(power_db));
            add("noise_db", pmt::from_double(noise_db));
            add("snr_db", pmt::from_double(power_db - noise_db));
            add("metric", pmt::from_double(d.metric));
            add("threshold", pmt::from_double(d.threshold));
            message_port_pub(d_port, m);
            d_found++;
        }
    }

    //! An rx_time tag (UHD's: a tuple of whole seconds, uint64, and fractional, double).
    void take_rx_time(const gr::tag_t& t)
    {
        const pmt::pmt_t v = t.value;
        if (!pmt::is_tuple(v) || pmt::length(v) != 2)
            return;
        const pmt::pmt_t whole = pmt::tuple_ref(v, 0), frac = pmt::tuple_ref(v, 1);
        if (!pmt::is_number(whole) || !pmt::is_real(frac))
            return;
        const long double secs = pmt::is_uint64(whole)
                                     ? static_cast<long double>(pmt::to_uint64(whole))
                                     : static_cast<long double>(pmt::to_long(whole));
        d_rx_time_s = secs + pmt::to_double(frac);
        d_rx_time_sample = static_cast<long double>(t.offset);
        d_has_rx_time = true;
    }

    std::unique_ptr<core::prach_frontend> d_frontend;
    std::unique_ptr<core::prach_detector> d_detector;
    prach_timing d_timing;
    double d_rate;
    pmt::pmt_t d_port;
    size_t d_row = 0, d_n_cells = 0, d_n_antennas = 0;
    std::vector<cf> d_rows; // (cell, antenna) rows of the occasion being filled
    std::vector<cf> d_bins;
    uint64_t d_occasion = 0; // the time occasion being filled
    size_t d_filled = 0;     // its samples received so far
    uint64_t d_found = 0;
    pmt::pmt_t d_rx_time_key = pmt::mp("rx_time");
    bool d_has_rx_time = false;
    long double d_rx_time_s = 0, d_rx_time_sample = 0;
};

//! \p v for n cells: one value per cell, or one value for all.
template <typename T>
std::vector<T> per_cell(const std::vector<T>& v, size_t n, const char* name)
{
    if (v.size() == n)
        return v;
    if (v.size() == 1)
        return std::vector<T>(n, v[0]);
    throw std::invalid_argument(std::string(name) + ": one value, or one per cell (" +
                                std::to_string(n) + "), got " + std::to_string(v.size()));
}

/*!
 * The core's per-cell names as the block's lists: "cells[2].logical_root: ..." ->
 * "logical_roots[2]: ...", "offset_hz[2]: ..." -> "offsets_hz[2]: ...".
 */
std::string block_name_of_cell_field(const std::string& what)
{
    if (what.rfind("offset_hz[", 0) == 0)
        return "offsets_hz" + what.substr(9);
    return indexed_block_name(what, "cells",
                              { { "logical_root", "logical_roots" },
                                { "zero_correlation_zone", "zero_correlation_zones" },
                                { "set", "restricted_sets" } });
}

} // namespace

prach_detector_c::sptr prach_detector_c::make(double samp_rate,
                                              const std::string& format,
                                              int scs_khz,
                                              int n_antennas,
                                              const std::vector<int>& logical_roots,
                                              const std::vector<int>& zero_correlation_zones,
                                              const std::vector<std::string>& restricted_sets,
                                              const std::vector<double>& offsets_hz,
                                              int n_fd_occasions,
                                              double fd_spacing_hz,
                                              int start_sample,
                                              int period_samples,
                                              int frame_start,
                                              double false_alarm,
                                              const std::string& device)
{
    return with_block_names<sptr>(
        [&]() -> sptr {
            const auto f = core::parse_prach_format(format, "format");
            prach_timing timing;
            timing.mu_pusch = prach_mu_of(scs_khz);
            const int mu = core::prach_format_lookup(f, 0).is_long() ? 0 : timing.mu_pusch;
            const core::prach_format_info fmt = core::prach_format_lookup(f, mu);
            if (logical_roots.empty() || logical_roots.size() > 1024)
                throw std::invalid_argument("logical_roots: one per cell, 1..1024 cells, got " +
                                            std::to_string(logical_roots.size()));
            const size_t n = logical_roots.size();
            const auto zczs = per_cell(zero_correlation_zones, n, "zero_correlation_zones");
            const auto sets = restricted_sets.empty()
                                  ? std::vector<std::string>(n, "unrestricted")
                                  : per_cell(restricted_sets, n, "restricted_sets");
            core::prach_detector_params dp;
            dp.format = f;
            dp.mu = mu;
            dp.cells.clear();
            for (size_t c = 0; c < n; c++) {
                core::prach_cell_params cell;
                cell.logical_root = logical_roots[c];
                cell.zero_correlation_zone = zczs[c];
                cell.set = core::parse_prach_restricted_set(sets[c], "restricted_sets");
                if (!fmt.is_long() && cell.set != core::prach_restricted_set::unrestricted)
                    throw std::invalid_argument(
                        "restricted_sets: unrestricted for the short formats, got " + sets[c]);
                dp.cells.push_back(cell);
            }
            dp.n_antennas = n_antennas;
            dp.n_occasions = n_fd_occasions;
            dp.false_alarm = false_alarm;
            dp.sample_rate = samp_rate;
            core::prach_frontend_params fp;
            fp.format = f;
            fp.mu = mu;
            fp.sample_rate = samp_rate;
            fp.offset_hz = per_cell(offsets_hz, n, "offsets_hz");
            if (!(fd_spacing_hz >= 0 && std::isfinite(fd_spacing_hz)))
                throw std::invalid_argument("fd_spacing_hz: >= 0, got " +
                                            std::to_string(fd_spacing_hz));
            fp.occasion_spacing_hz = fd_spacing_hz;
            fp.n_antennas = n_antennas;
            fp.n_fd_occasions = n_fd_occasions;
            try {
                fp.validate();
                dp.validate();
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument(block_name_of_cell_field(e.what()));
            }
            timing.start = non_negative(start_sample, "start_sample");
            timing.period = non_negative(period_samples, "period_samples");
            timing.frame_start = frame_start;
            const auto fe = core::make_prach_frontend_cpu(fp);
            if (timing.period != 0 && timing.period < fe->samples_per_row())
                throw std::invalid_argument("period_samples: 0 (one occasion) or >= the "
                                            "preamble's " +
                                            std::to_string(fe->samples_per_row()) +
                                            " samples, got " + std::to_string(period_samples));
            return gnuradio::make_block_sptr<prach_detector_c_impl>(fp, dp, timing,
                                                                    core::resolve_device(device));
        },
        { { "sample_rate", "samp_rate" },
          { "offset_hz", "offsets_hz" },
          { "occasion_spacing_hz", "fd_spacing_hz" },
          { "n_occasions", "n_fd_occasions" },
          { "logical_root", "logical_roots" },
          { "zero_correlation_zone", "zero_correlation_zones" },
          { "false_alarm", "false_alarm" } });
}

} // namespace gpuofdm
} // namespace gr
