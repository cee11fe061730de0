/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_WIFI_RX_IMPL_H
#define INCLUDED_GPUOFDM_WIFI_RX_IMPL_H

#include "wifi/pcap_writer.h"
#include "wifi/wifi_rx.h"
#include "runtime/worker_pool.h"
#include "rx_stream_end.h"
#include <gnuradio/gpuofdm/wifi_rx.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

//! What make() checked, handed to the constructor.
struct wifi_rx_config {
    core::wifi_rx_params params; //!< validated
    bool pass_bad_crc;
    std::string pcap_file;
};

class wifi_rx_impl : public rx_sink_block<wifi_rx, core::wifi_rx_packet>
{
public:
    wifi_rx_impl(const wifi_rx_config& cfg, const std::string& device);
    ~wifi_rx_impl() override { drain_workers(); }

    std::string device() const override { return d_rx->device().to_string(); }
    uint64_t frames_received() const override { return d_fcs_ok.load(); }
    uint64_t crc_errors() const override { return d_fcs_errors.load(); }
    uint64_t signal_errors() const override { return d_signal_errors.load(); }
    uint64_t truncated() const override { return d_truncated.load(); }
    uint64_t samples() const override { return d_samples.load(); }
    uint64_t pdus_published() const override { return d_published.load(); }
    void set_pass_bad_crc(bool pass) override { d_pass_bad_crc = pass; }
    bool pass_bad_crc() const override { return d_pass_bad_crc.load(); }
    int batch_samples() const override { return int(d_rx->params().batch_samples); }
    float threshold() const override { return d_rx->params().sync.threshold; }
    std::string pcap_file() const override { return d_pcap_path; }
    int fft_backoff() const override { return d_rx->params().fft_backoff; }
    bool pilot_interpolation() const override { return d_rx->params().pilot_interpolation; }

private:
    //! On CUDA the chunks are page-locked: the samples go from there to the device.
    bool pin_samples(const void* p, size_t bytes) override
    {
        return d_rx->pin_host_range(p, bytes);
    }
    void unpin_samples() override { d_rx->unpin_host_ranges(); }
    std::vector<core::wifi_rx_packet> receive(const gr_complex* x, size_t n) override
    {
        return d_rx->process(x, n);
    }
    std::vector<core::wifi_rx_packet> receive_end() override { return d_rx->finish(); }
    uint64_t samples_fed() const override { return d_rx->stats().samples; }
    void publish(const std::vector<core::wifi_rx_packet>& packets, uint64_t base) override;
    void refresh_counters() override;
    void log_end(const char* where) override;

    std::unique_ptr<core::wifi_receiver> d_rx; //!< CPU twin or CUDA backend
    std::unique_ptr<core::pcap_writer> d_pcap; //!< nullptr without a file, or after a failure
    const std::string d_pcap_path;
    std::atomic<bool> d_pass_bad_crc;
    //! Builds the PDUs of a publish() call: ~25 PMT allocations a PDU, about 10 us, so at
    //! hundreds of Msps (tens of thousands of frames a second) one thread would hold the
    //! receiver back.
    std::unique_ptr<core::worker_pool> d_pdu_pool = core::make_worker_pool(4);

    std::atomic<uint64_t> d_fcs_ok{ 0 }, d_fcs_errors{ 0 }, d_signal_errors{ 0 }, d_truncated{ 0 },
        d_samples{ 0 }, d_published{ 0 };
};

} // namespace gpuofdm
} // namespace gr

#endif
