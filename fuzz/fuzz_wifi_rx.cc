/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.11a receiver's CPU twin on arbitrary samples: either the input's bytes as
// samples, or a frame that wifi_tx makes from the input (rate, length, seed, PSDU), then
// overwritten at the input's positions with NaN, Inf and extreme values, scaled, cut short
// and fed in pieces of the input's sizes. Also decode_buffer() at the input's positions.
// Whatever the samples, the receiver must neither crash nor report a PSDU of a length
// other than SIGNAL's.

#include "fuzz_input.h"
#include "wifi/wifi_rx.h"
#include "wifi/wifi_tx.h"

#include <cstdlib>

using namespace gr::gpuofdm::core;
using gr::gpuofdm::fuzz::fuzz_input;

namespace {

wifi_receiver& receiver(unsigned which)
{
    static std::unique_ptr<wifi_receiver> rx[2];
    if (!rx[which]) {
        wifi_rx_params p;
        p.batch_samples = size_t(1) << 17;
        p.pilot_interpolation = which == 1;
        p.channel_taps = which == 1 ? 0 : 16;
        rx[which] = make_wifi_receiver(p, resolve_device("cpu"));
    }
    return *rx[which];
}

void check(const std::vector<wifi_rx_packet>& packets)
{
    for (const auto& p : packets)
        if (p.signal.ok && p.data.psdu.size() != p.signal.len && !p.data.psdu.empty())
            std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fuzz_input in(data, size);
    const uint8_t mode = in.take<uint8_t>();
    wifi_receiver& rx = receiver(mode & 1);
    std::vector<cfloat> x;
    if (mode & 2) {
        static const int rates[] = { 6, 9, 12, 18, 24, 36, 48, 54 };
        static auto tx = make_wifi_tx(wifi_tx_params{}, resolve_device("cpu"));
        wifi_frame_request r;
        r.rate_mbps = in.choose(rates);
        r.seed = int(in.range(1, 127));
        const size_t n_corrupt = in.range(0, 7);
        std::vector<std::pair<uint16_t, uint8_t>> corrupt;
        for (size_t i = 0; i < n_corrupt; i++)
            corrupt.emplace_back(in.take<uint16_t>(), in.take<uint8_t>());
        const float scale = in.take<float>();
        const size_t lead = in.range(0, 300);
        std::vector<uint8_t> psdu = in.bytes();
        if (psdu.empty())
            psdu.push_back(0);
        psdu.resize(std::min<size_t>(psdu.size(), 400));
        r.psdu = psdu.data();
        r.len = psdu.size();
        x.assign(lead + tx->frame_samples(r.len, r.rate_mbps) + 64, cfloat(0.0f, 0.0f));
        tx->process(&r, 1, x.data() + lead);
        if (mode & 4)
            for (auto& v : x)
                v *= scale;
        for (const auto& c : corrupt)
            x[c.first % x.size()] = cfloat(gr::gpuofdm::fuzz::special_float(c.second),
                                           gr::gpuofdm::fuzz::special_float(c.second >> 4));
        if (mode & 8)
            x.resize(x.size() / 2);
    } else {
        x = in.samples();
    }

    if (mode & 16) {
        // One buffer at a known place (the input picks it, anywhere, even past the end).
        wifi_rx_known k;
        k.ltf_start = x.empty() ? 0 : size_t(mode >> 5) * 37 % (x.size() + 200);
        k.cfo = (mode & 32) ? gr::gpuofdm::fuzz::special_float(mode) : 0.001f;
        try {
            check(rx.decode_buffer(x.data(), x.size(), &k, 1));
        } catch (const std::invalid_argument&) {
        }
        return 0;
    }
    // A stream in pieces of 1 .. 4096 samples.
    size_t at = 0;
    unsigned piece = 1u + (mode >> 5) * 500u;
    while (at < x.size()) {
        const size_t n = std::min<size_t>(piece, x.size() - at);
        check(rx.process(x.data() + at, n));
        at += n;
        piece = piece * 7 % 4096 + 1;
    }
    check(rx.finish());
    return 0;
}
