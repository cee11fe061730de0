/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.16 receiver's CPU twin on arbitrary samples: the input's bytes as samples, or a
// burst that wimax_tx makes from the input (profile, seed, data), then overwritten at the
// input's positions with NaN, Inf and extreme values, scaled, cut short and fed in pieces.
// Whatever the samples, no crash, and every burst reported holds burst_bytes octets.

#include "fuzz_input.h"
#include "wimax/wimax_rx.h"
#include "wimax/wimax_tx.h"

#include <cstdlib>

using namespace gr::gpuofdm::core;
using gr::gpuofdm::fuzz::fuzz_input;

namespace {

//! Rate_ID and burst length of the receivers: the 8.3.3.5.1 example (QPSK 3/4, 35 octets,
//! no padding) and three padded bursts.
struct rx_case {
    int rate_id;
    size_t bytes;
    bool pad;
};
const rx_case cases[] = { { 2, 35, false }, { 0, 5, true }, { 4, 60, true }, { 6, 130, true } };
constexpr size_t n_cases = sizeof(cases) / sizeof(cases[0]);

wimax_receiver& receiver(size_t which)
{
    static std::unique_ptr<wimax_receiver> rx[n_cases];
    if (!rx[which]) {
        wimax_rx_params p;
        p.rate_id = cases[which].rate_id;
        p.burst_bytes = cases[which].bytes;
        p.pad = cases[which].pad;
        p.pilot_interpolation = which == 3;
        rx[which] = make_wimax_receiver(p, resolve_device("cpu"));
    }
    return *rx[which];
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fuzz_input in(data, size);
    const uint8_t mode = in.take<uint8_t>();
    const size_t which = (mode >> 4) % n_cases;
    wimax_receiver& rx = receiver(which);
    std::vector<cfloat> x;
    if (mode & 1) {
        static std::unique_ptr<wimax_tx> tx;
        if (!tx) {
            wimax_tx_params tp;
            tp.pad = true;
            tx = make_wimax_tx(tp, resolve_device("cpu"));
        }
        wimax_burst_request r;
        r.rate_id = cases[which].rate_id;
        r.seed = int(in.range(1, 32767));
        const size_t n_corrupt = in.range(0, 7);
        std::vector<std::pair<uint16_t, uint8_t>> corrupt;
        for (size_t i = 0; i < n_corrupt; i++)
            corrupt.emplace_back(in.take<uint16_t>(), in.take<uint8_t>());
        const float scale = in.take<float>();
        const size_t lead = in.range(0, 400);
        std::vector<uint8_t> burst = in.bytes();
        burst.resize(cases[which].bytes);
        r.data = burst.data();
        r.len = burst.size();
        x.assign(lead + tx->burst_samples(r.len, r.rate_id) + 64, cfloat(0.0f, 0.0f));
        tx->process(&r, 1, x.data() + lead);
        if (mode & 2)
            for (auto& v : x)
                v *= scale;
        for (const auto& c : corrupt)
            x[c.first % x.size()] = cfloat(gr::gpuofdm::fuzz::special_float(c.second),
                                           gr::gpuofdm::fuzz::special_float(c.second >> 4));
        if (mode & 4)
            x.resize(x.size() * 3 / 4);
    } else {
        x = in.samples();
    }

    size_t at = 0;
    unsigned piece = (mode & 8) ? 4096u : 333u;
    while (at < x.size()) {
        const size_t n = std::min<size_t>(piece, x.size() - at);
        for (const auto& b : rx.process(x.data() + at, n))
            if (b.payload.size() != cases[which].bytes)
                std::abort();
        at += n;
        piece = piece * 5 % 4096 + 1;
    }
    for (const auto& b : rx.finish())
        if (b.payload.size() != cases[which].bytes)
            std::abort();
    return 0;
}
