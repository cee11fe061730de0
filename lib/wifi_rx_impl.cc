/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "wifi_rx_impl.h"
#include "block_params.h"

#include <gnuradio/io_signature.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace gr {
namespace gpuofdm {

namespace {

constexpr double sample_rate = 20e6;
constexpr uint64_t preamble_before_ltf = 192; // 10 short periods + GI2

const pmt::pmt_t& pdus_port()
{
    static const pmt::pmt_t p = pmt::mp("pdus");
    return p;
}

} // namespace

wifi_rx::sptr wifi_rx::make(int batch_samples,
                            float threshold,
                            bool pass_bad_crc,
                            const std::string& pcap_file,
                            const std::string& device,
                            int fft_backoff,
                            bool pilot_interpolation)
{
    core::wifi_rx_params p;
    p.batch_samples = non_negative(batch_samples, "batch_samples");
    p.sync.threshold = threshold;
    p.fft_backoff = fft_backoff;
    p.pilot_interpolation = pilot_interpolation;
    p.validate(); // every range, before GNU Radio sees the block
    return gnuradio::make_block_sptr<wifi_rx_impl>(wifi_rx_config{ p, pass_bad_crc, pcap_file },
                                                   device);
}

wifi_rx_impl::wifi_rx_impl(const wifi_rx_config& cfg, const std::string& device)
    : gr::sync_block("wifi_rx",
                     gr::io_signature::make(1, 1, sizeof(gr_complex)),
                     gr::io_signature::make(0, 0, 0)),
      d_rx(core::make_wifi_receiver(cfg.params, core::resolve_device(device))),
      d_pcap(cfg.pcap_file.empty() ? nullptr : std::make_unique<core::pcap_writer>(cfg.pcap_file)),
      d_pcap_path(cfg.pcap_file), d_pass_bad_crc(cfg.pass_bad_crc)
{
    message_port_register_out(pdus_port());
    size_chunks(cfg.params.batch_samples);
    if (d_rx->device().is_cuda())
        d_logger->debug("on {}, {} samples per batch", d_rx->device().to_string(),
                        cfg.params.batch_samples);
    else
        d_logger->debug("on the CPU twin, {} samples per batch", cfg.params.batch_samples);
}

void wifi_rx_impl::refresh_counters()
{
    const core::wifi_rx_stats& s = d_rx->stats();
    d_fcs_ok = s.fcs_ok;
    d_fcs_errors = s.fcs_errors;
    d_signal_errors = s.signal_errors;
    d_truncated = s.truncated;
    d_samples = s.samples;
}

void wifi_rx_impl::publish(const std::vector<core::wifi_rx_packet>& packets, uint64_t base)
{
    const bool pass_bad = d_pass_bad_crc.load();
    std::vector<const core::wifi_rx_packet*> kept;
    for (const auto& p : packets) {
        if (!p.signal.ok || p.data.psdu.empty())
            continue; // counted by the receiver
        if (!p.data.fcs_ok && !pass_bad)
            continue;
        kept.push_back(&p);
    }
    auto start_of = [base](const core::wifi_rx_packet& p) {
        const uint64_t ltf = base + p.ltf_start;
        return ltf >= preamble_before_ltf ? ltf - preamble_before_ltf : 0;
    };
    // The PDUs are built on the pool and posted here, in the receiver's order.
    std::vector<pmt::pmt_t> pdus(kept.size());
    core::parallel_slices(d_pdu_pool.get(), kept.size(), 8, [&](size_t b, size_t e) {
        // The keys are interned once (pmt::mp takes a global lock per call).
        static const pmt::pmt_t k_rate = pmt::mp("rate"), k_len = pmt::mp("psdu_len"),
                                k_crc = pmt::mp("crc_ok"), k_seed = pmt::mp("seed"),
                                k_snr = pmt::mp("snr_db"), k_cfo = pmt::mp("cfo_hz"),
                                k_start = pmt::mp("start"), k_sync = pmt::mp("sync_metric");
        for (size_t i = b; i < e; i++) {
            const core::wifi_rx_packet& p = *kept[i];
            const auto& psdu = p.data.psdu;
            pmt::pmt_t meta = pmt::make_dict();
            meta = pmt::dict_add(meta, k_rate, pmt::from_long(p.signal.rate_mbps));
            meta = pmt::dict_add(meta, k_len, pmt::from_long(long(psdu.size())));
            meta = pmt::dict_add(meta, k_crc, pmt::from_bool(p.data.fcs_ok));
            meta = pmt::dict_add(meta, k_seed, pmt::from_long(long(p.data.seed)));
            meta = pmt::dict_add(meta, k_snr, pmt::from_double(p.snr_db));
            meta = pmt::dict_add(meta, k_cfo,
                                 pmt::from_double(double(p.cfo) * sample_rate / (2.0 * M_PI)));
            meta = pmt::dict_add(meta, k_start, pmt::from_uint64(start_of(p)));
            meta = pmt::dict_add(meta, k_sync, pmt::from_double(p.sync_metric));
            pdus[i] = pmt::cons(meta, pmt::init_u8vector(psdu.size(), psdu.data()));
        }
    });
    for (size_t i = 0; i < kept.size(); i++) {
        message_port_pub(pdus_port(), pdus[i]);
        d_published++;
        if (d_pcap) {
            const auto& psdu = kept[i]->data.psdu;
            try {
                d_pcap->write(psdu.data(), psdu.size(), double(start_of(*kept[i])) / sample_rate);
            } catch (const std::exception& e) {
                d_logger->error("PCAP file no longer written: {}", e.what());
                d_pcap.reset();
            }
        }
    }
}

void wifi_rx_impl::log_end(const char* where)
{
    d_logger->debug("end of stream ({}): {} frames, {} FCS errors, {} SIGNAL errors, {} "
                    "truncated, {} samples",
                    where, d_fcs_ok.load(), d_fcs_errors.load(), d_signal_errors.load(),
                    d_truncated.load(), d_samples.load());
}

} // namespace gpuofdm
} // namespace gr
