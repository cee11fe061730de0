/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "wimax_rx_impl.h"
#include "block_params.h"

#include <gnuradio/io_signature.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuofdm {

namespace {

const pmt::pmt_t& pdus_port()
{
    static const pmt::pmt_t p = pmt::mp("pdus");
    return p;
}

} // namespace

wimax_rx::sptr wimax_rx::make(int rate_id,
                              int burst_bytes,
                              int cp_div,
                              bool uplink,
                              bool pad,
                              int seed,
                              bool pass_bad,
                              double sample_rate,
                              int batch_samples,
                              const std::string& device,
                              float threshold,
                              int fft_backoff,
                              int channel_taps,
                              bool pilot_interpolation)
{
    // Only the block has the sample rate; the core checks every other range.
    if (!(std::isfinite(sample_rate) && sample_rate > 0.0))
        throw std::invalid_argument("sample_rate: must be finite and > 0, got " +
                                    std::to_string(sample_rate));
    core::wimax_rx_params p;
    p.rate_id = rate_id;
    p.burst_bytes = non_negative(burst_bytes, "burst_bytes");
    p.seed = seed;
    p.pad = pad;
    p.uplink = uplink;
    p.sync.cp_div = cp_div;
    p.sync.threshold = threshold;
    p.fft_backoff = fft_backoff;
    p.channel_taps = channel_taps;
    p.pilot_interpolation = pilot_interpolation;
    p.batch_samples = non_negative(batch_samples, "batch_samples");
    p.validate(); // every range, before a backend or GNU Radio's base class is built
    auto rx = core::make_wimax_receiver(p, core::resolve_device(device));
    return gnuradio::make_block_sptr<wimax_rx_impl>(std::move(rx), pass_bad, sample_rate);
}

wimax_rx_impl::wimax_rx_impl(std::unique_ptr<core::wimax_receiver> rx,
                             bool pass_bad,
                             double sample_rate)
    : gr::sync_block("wimax_rx",
                     gr::io_signature::make(1, 1, sizeof(gr_complex)),
                     gr::io_signature::make(0, 0, 0)),
      d_rx(std::move(rx)), d_sample_rate(sample_rate), d_pass_bad(pass_bad)
{
    message_port_register_out(pdus_port());
    size_chunks(d_rx->batch_samples());
    d_logger->debug("on {}, {} samples per batch, bursts of {} samples",
                    d_rx->device().is_cuda() ? d_rx->device().to_string() : "the CPU twin",
                    d_rx->batch_samples(), d_rx->burst_samples());
}

void wimax_rx_impl::refresh_counters()
{
    const core::wimax_rx_stats& s = d_rx->stats();
    d_ok = s.ok;
    d_bad = s.failed;
    d_truncated = s.truncated;
    d_samples = s.samples;
}

void wimax_rx_impl::publish(const std::vector<core::wimax_rx_burst>& bursts, uint64_t base)
{
    const bool pass_bad = d_pass_bad.load();
    const long profile = d_rx->params().rate_id;
    const long n_bytes = long(d_rx->params().burst_bytes);
    for (const auto& b : bursts) {
        if (!b.ok && !pass_bad)
            continue; // counted by the receiver
        pmt::pmt_t meta = pmt::make_dict();
        meta = pmt::dict_add(meta, pmt::mp("profile"), pmt::from_long(profile));
        meta = pmt::dict_add(meta, pmt::mp("burst_bytes"), pmt::from_long(n_bytes));
        meta = pmt::dict_add(meta, pmt::mp("rs_corrected"), pmt::from_long(long(b.rs_corrected)));
        meta = pmt::dict_add(meta, pmt::mp("rs_uncorrectable"),
                             pmt::from_long(long(b.rs_uncorrectable)));
        meta = pmt::dict_add(meta, pmt::mp("ok"), pmt::from_bool(b.ok));
        meta = pmt::dict_add(meta, pmt::mp("snr_db"), pmt::from_double(b.snr_db));
        meta = pmt::dict_add(meta, pmt::mp("cfo_hz"),
                             pmt::from_double(double(b.cfo) * d_sample_rate / (2.0 * M_PI)));
        meta = pmt::dict_add(meta, pmt::mp("start"), pmt::from_uint64(base + b.start));
        meta = pmt::dict_add(meta, pmt::mp("sync_metric"), pmt::from_double(b.sync_metric));
        meta = pmt::dict_add(meta, pmt::mp("preamble_metric"), pmt::from_double(b.preamble_metric));
        meta = pmt::dict_add(meta, pmt::mp("coded_errors"), pmt::from_long(long(b.coded_errors)));
        meta = pmt::dict_add(meta, pmt::mp("coded_bits"), pmt::from_long(long(b.coded_bits)));
        message_port_pub(pdus_port(),
                         pmt::cons(meta, pmt::init_u8vector(b.payload.size(), b.payload.data())));
        d_published++;
    }
}

void wimax_rx_impl::log_end(const char* where)
{
    d_logger->debug("end of stream ({}): {} bursts ok, {} bad, {} truncated, {} samples", where,
                    d_ok.load(), d_bad.load(), d_truncated.load(), d_samples.load());
}

} // namespace gpuofdm
} // namespace gr
