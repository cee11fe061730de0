/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "receiver_rate.h"

#include "runtime/device.h"
#include "wifi/wifi_rx.h"
#include "wimax/wimax_rx.h"

#include <gnuradio/io_signature.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace gpuofdm_demo {

namespace core = gr::gpuofdm::core;

namespace {

constexpr size_t piece = 65536; //!< samples a process() call, as GNU Radio hands them

//! Decodes x[0 .. n) in pieces and finishes; the number of packets \p good accepts.
template <typename Receiver, typename Good>
size_t decode(Receiver& rx, const gr_complex* x, size_t n, Good good)
{
    size_t count = 0;
    for (size_t at = 0; at < n; at += piece)
        for (const auto& p : rx.process(x + at, std::min(piece, n - at)))
            count += good(p) ? 1 : 0;
    for (const auto& p : rx.finish())
        count += good(p) ? 1 : 0;
    return count;
}

//! A warm-up over the first batches (plans, first launches), then the whole recording.
template <typename Receiver, typename Good>
receiver_rate time_decode(Receiver& rx, const std::vector<gr_complex>& x, size_t batch, Good good)
{
    decode(rx, x.data(), std::min(x.size(), 2 * batch), good);
    receiver_rate r;
    r.device = rx.device().to_string();
    const auto t0 = std::chrono::steady_clock::now();
    r.good = decode(rx, x.data(), x.size(), good);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

} // namespace

record_sink::record_sink(size_t max_samples)
    : gr::sync_block("record_sink",
                     gr::io_signature::make(1, 1, sizeof(gr_complex)),
                     gr::io_signature::make(0, 0, 0)),
      d_max(max_samples)
{
}

int record_sink::work(int noutput_items,
                      gr_vector_const_void_star& input_items,
                      gr_vector_void_star&)
{
    const auto* in = static_cast<const gr_complex*>(input_items[0]);
    const size_t keep = std::min(size_t(noutput_items), d_max - d_samples.size());
    d_samples.insert(d_samples.end(), in, in + keep);
    d_seen += size_t(noutput_items);
    return noutput_items;
}

std::shared_ptr<record_sink> make_record_sink(size_t max_samples)
{
    return gnuradio::make_block_sptr<record_sink>(max_samples);
}

receiver_rate time_wifi_receiver(const std::vector<gr_complex>& x,
                                 const std::string& device,
                                 size_t batch_samples,
                                 float threshold)
{
    core::wifi_rx_params p;
    p.batch_samples = batch_samples;
    p.sync.threshold = threshold;
    auto rx = core::make_wifi_receiver(p, core::resolve_device(device));
    rx->pin_host_range(x.data(), x.size() * sizeof(gr_complex)); // false: staged, slower
    receiver_rate r = time_decode(*rx, x, p.batch_samples,
                                  [](const core::wifi_rx_packet& f) { return f.data.fcs_ok; });
    rx->unpin_host_ranges();
    return r;
}

receiver_rate time_wimax_receiver(const std::vector<gr_complex>& x,
                                  const std::string& device,
                                  int rate_id,
                                  int burst_bytes,
                                  int cp_div,
                                  int seed)
{
    core::wimax_rx_params p;
    p.rate_id = rate_id;
    p.burst_bytes = size_t(burst_bytes);
    p.seed = seed;
    p.pad = true;
    p.sync.cp_div = cp_div;
    auto rx = core::make_wimax_receiver(p, core::resolve_device(device));
    return time_decode(*rx, x, rx->batch_samples(),
                       [](const core::wimax_rx_burst& b) { return b.ok; });
}

void print_receiver_rate(const receiver_rate& r,
                         size_t recorded,
                         size_t seen,
                         double fs,
                         const char* block_name,
                         const char* unit)
{
    const double msps = double(recorded) / r.seconds / 1e6;
    std::printf("  receiver alone (the core %s_receiver on %s, no GNU Radio, decoding the "
                "%zu%s samples the loopback handed %s_rx again): time %.3f s, %.1f Msamples/s "
                "(%.2fx real time), %zu %s ok\n",
                block_name, r.device.c_str(), recorded, recorded < seen ? " first" : "", block_name,
                r.seconds, msps, msps * 1e6 / fs, r.good, unit);
}

} // namespace gpuofdm_demo
