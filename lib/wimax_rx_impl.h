/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPUOFDM_WIMAX_RX_IMPL_H
#define INCLUDED_GPUOFDM_WIMAX_RX_IMPL_H

#include "wimax/wimax_rx.h"
#include "rx_stream_end.h"
#include <gnuradio/gpuofdm/wimax_rx.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace gpuofdm {

class wimax_rx_impl : public rx_sink_block<wimax_rx, core::wimax_rx_burst>
{
public:
    //! \p rx is the receiver make() built (its parameters checked).
    wimax_rx_impl(std::unique_ptr<core::wimax_receiver> rx, bool pass_bad, double sample_rate);
    ~wimax_rx_impl() override { drain_workers(); }

    std::string device() const override { return d_rx->device().to_string(); }
    uint64_t bursts_received() const override { return d_ok.load(); }
    uint64_t bad_bursts() const override { return d_bad.load(); }
    uint64_t truncated() const override { return d_truncated.load(); }
    uint64_t samples() const override { return d_samples.load(); }
    uint64_t pdus_published() const override { return d_published.load(); }
    void set_pass_bad(bool pass) override { d_pass_bad = pass; }
    bool pass_bad() const override { return d_pass_bad.load(); }

    int rate_id() const override { return d_rx->params().rate_id; }
    int burst_bytes() const override { return int(d_rx->params().burst_bytes); }
    int cp_div() const override { return d_rx->params().sync.cp_div; }
    bool uplink() const override { return d_rx->params().uplink; }
    bool pad() const override { return d_rx->params().pad; }
    int seed() const override { return d_rx->params().seed; }
    double sample_rate() const override { return d_sample_rate; }
    int batch_samples() const override { return int(d_rx->batch_samples()); }
    float threshold() const override { return d_rx->params().sync.threshold; }
    int fft_backoff() const override { return d_rx->params().fft_backoff; }
    int channel_taps() const override { return d_rx->params().channel_taps; }
    bool pilot_interpolation() const override { return d_rx->params().pilot_interpolation; }
    int burst_samples() const override { return int(d_rx->burst_samples()); }

private:
    std::vector<core::wimax_rx_burst> receive(const gr_complex* x, size_t n) override
    {
        return d_rx->process(x, n);
    }
    std::vector<core::wimax_rx_burst> receive_end() override { return d_rx->finish(); }
    uint64_t samples_fed() const override { return d_rx->stats().samples; }
    void publish(const std::vector<core::wimax_rx_burst>& bursts, uint64_t base) override;
    void refresh_counters() override;
    void log_end(const char* where) override;

    std::unique_ptr<core::wimax_receiver> d_rx; //!< CPU twin or CUDA backend
    const double d_sample_rate;
    std::atomic<bool> d_pass_bad;

    std::atomic<uint64_t> d_ok{ 0 }, d_bad{ 0 }, d_truncated{ 0 }, d_samples{ 0 }, d_published{ 0 };
};

} // namespace gpuofdm
} // namespace gr

#endif
