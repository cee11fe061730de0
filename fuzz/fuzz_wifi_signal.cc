/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// 802.11a SIGNAL and PSDU parsing on arbitrary values: the SIGNAL fields from any 24 bits
// (a field marked ok has a rate of Table 17-5 and a LENGTH of 1..4095), SIGNAL decoded
// from any 48 points and weights (NaN, Inf, huge), the DATA decoder on any RATE, LENGTH,
// symbols, gains and noise variance (bad ones refused with std::invalid_argument, good
// ones decoded to LENGTH octets), and the descrambling/FCS step on any decoded bits.

#include "fuzz_input.h"
#include "wifi/wifi_decode.h"
#include "wifi/wifi_rx.h"
#include "wifi/wifi_tx.h"

#include <cstdlib>
#include <stdexcept>

using namespace gr::gpuofdm::core;
using gr::gpuofdm::fuzz::fuzz_input;

namespace {

void expect(bool ok)
{
    if (!ok)
        std::abort();
}

void check_signal(const wifi_signal_field& s)
{
    if (!s.ok)
        return;
    bool known = false;
    for (const auto& r : wifi_rates())
        known = known || r.mbps == s.rate_mbps;
    expect(known && s.len >= 1 && s.len <= 4095);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fuzz_input in(data, size);
    const uint8_t mode = in.take<uint8_t>();
    switch (mode % 4) {
    case 0:
        check_signal(wifi_signal_from_bits(in.take<uint32_t>()));
        break;
    case 1: {
        cfloat points[48];
        float weight[48];
        for (auto& p : points)
            p = cfloat(in.take<float>(), in.take<float>());
        for (auto& w : weight)
            w = in.take<float>();
        check_signal(wifi_decode_signal(points, weight));
        break;
    }
    case 2: {
        static auto dec = make_wifi_decoder(wifi_decode_params{}, resolve_device("cpu"));
        wifi_rx_frame f;
        const int rates[] = { 6, 9, 12, 18, 24, 36, 48, 54, 0, 7, -6, 1000 };
        f.rate_mbps = in.choose(rates);
        f.len = in.take<uint16_t>() % 4200;
        f.noise_var = (mode & 16) ? in.take<float>() : 0.5f;
        const bool with_gain = mode & 32;
        float gain[48];
        for (auto& g : gain)
            g = (mode & 64) ? in.take<float>() : float(in.take<uint8_t>()) / 16.0f;
        f.gain = with_gain ? gain : nullptr;
        std::vector<cfloat> symbols = in.samples();
        f.n_symbols = symbols.size() / 48;
        f.symbols = symbols.empty() ? nullptr : symbols.data();
        wifi_rx_result r;
        try {
            dec->process(&f, 1, &r);
        } catch (const std::invalid_argument&) {
            return 0;
        }
        expect(r.psdu.size() == f.len);
        break;
    }
    default: {
        const size_t len = in.take<uint16_t>() % 4096;
        std::vector<uint8_t> bits = in.bytes();
        bits.resize(wifi_decoder::decoded_steps(len));
        for (auto& b : bits)
            b &= 1;
        wifi_rx_result r;
        wifi_decoder::finish_frame(bits.data(), len, r);
        expect(r.psdu.size() == len && (!r.fcs_ok || len >= 4));
        break;
    }
    }
    return 0;
}
