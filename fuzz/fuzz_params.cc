/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Every stage's parameters from the input (sizes and integers at and around their range
// edges or anywhere, floats of any bit pattern, enums outside their values, any device or
// standard string): validate() either throws std::invalid_argument or accepts, and what
// it accepts the factory builds on the CPU twin (where the sizes keep the build small)
// without another exception. The transmitters' requests go through validate() and, when
// accepted, process().

#include "fec/conv_encoder.h"
#include "fec/depuncture.h"
#include "fec/interleaver.h"
#include "fec/reed_solomon.h"
#include "fec/scrambler.h"
#include "fec/viterbi.h"
#include "fuzz_input.h"
#include "ofdm/demapper.h"
#include "ofdm/mapper.h"
#include "ofdm/ofdm_stage.h"
#include "ofdm/ofdm_sync.h"
#include "runtime/phy_standard.h"
#include "wifi/wifi_rx.h"
#include "wifi/wifi_tx.h"
#include "wimax/wimax_rx.h"
#include "wimax/wimax_tx.h"

#include <limits>
#include <stdexcept>

using namespace gr::gpuofdm::core;
using gr::gpuofdm::fuzz::fuzz_input;

namespace {

size_t any_size(fuzz_input& in)
{
    static const size_t edges[] = { 0,
                                    1,
                                    2,
                                    7,
                                    12,
                                    16,
                                    48,
                                    64,
                                    255,
                                    256,
                                    1024,
                                    4095,
                                    4096,
                                    65535,
                                    65536,
                                    1 << 17,
                                    1 << 20,
                                    1 << 22,
                                    1 << 24,
                                    (1 << 24) + 1,
                                    1u << 31,
                                    size_t(1) << 40,
                                    std::numeric_limits<size_t>::max() };
    const uint8_t how = in.take<uint8_t>();
    return how < 200 ? edges[how % (sizeof(edges) / sizeof(edges[0]))] : in.take<uint32_t>();
}

int any_int(fuzz_input& in)
{
    static const int edges[] = { 0,
                                 1,
                                 -1,
                                 2,
                                 3,
                                 4,
                                 5,
                                 6,
                                 7,
                                 8,
                                 9,
                                 12,
                                 16,
                                 18,
                                 24,
                                 32,
                                 36,
                                 48,
                                 54,
                                 64,
                                 93,
                                 127,
                                 128,
                                 192,
                                 4096,
                                 19072,
                                 32767,
                                 32768,
                                 -32768,
                                 std::numeric_limits<int>::max(),
                                 std::numeric_limits<int>::min() };
    const uint8_t how = in.take<uint8_t>();
    return how < 200 ? edges[how % (sizeof(edges) / sizeof(edges[0]))] : in.take<int32_t>();
}

float any_float(fuzz_input& in)
{
    const uint8_t how = in.take<uint8_t>();
    if (how < 64)
        return gr::gpuofdm::fuzz::special_float(how);
    if (how < 128)
        return float(int(how) - 96) / 16.0f;
    return in.take<float>();
}

template <typename E>
E any_enum(fuzz_input& in, int n_values)
{
    return static_cast<E>(in.take<uint8_t>() % (n_values + 2)); // two values past the end
}

//! Builds through the factory what validate() accepted, where \p small.
template <typename Params, typename Make>
void check(const Params& p, bool small, Make make)
{
    try {
        p.validate();
    } catch (const std::invalid_argument&) {
        return;
    }
    if (small)
        make(p);
}

bool small_size(size_t n) { return n <= (size_t(1) << 22); }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fuzz_input in(data, size);
    const auto cpu = resolve_device("cpu");
    const uint8_t which = in.take<uint8_t>();
    switch (which % 16) {
    case 0: {
        scrambler_params p;
        p.standard = any_enum<phy_standard>(in, 2);
        p.seed = any_int(in);
        p.batch = any_size(in);
        check(p, true, [&](const auto& q) { make_scrambler(q, cpu); });
        break;
    }
    case 1: {
        conv_encoder_params p;
        p.standard = any_enum<phy_standard>(in, 2);
        p.rate = any_enum<code_rate>(in, 4);
        p.batch = any_size(in);
        check(p, true, [&](const auto& q) { make_conv_encoder(q, cpu); });
        break;
    }
    case 2: {
        interleaver_params p;
        p.standard = any_enum<phy_standard>(in, 2);
        p.n_cbps = any_int(in);
        p.n_bpsc = any_int(in);
        p.batch = any_size(in);
        check(p, small_size(size_t(std::max(p.n_cbps, 0))),
              [&](const auto& q) { make_interleaver(q, cpu); });
        break;
    }
    case 3: {
        viterbi_params p;
        p.poly0 = unsigned(any_int(in));
        p.poly1 = unsigned(any_int(in));
        p.chunk_len = any_size(in);
        p.warmup = any_size(in);
        p.traceback = any_size(in);
        p.max_steps = any_size(in);
        p.cpu_threads = unsigned(any_int(in));
        check(p, small_size(p.max_steps) && p.cpu_threads <= 4,
              [&](const auto& q) { make_viterbi_decoder(q, cpu); });
        break;
    }
    case 4: {
        depuncturing_decoder_params p;
        p.standard = any_enum<phy_standard>(in, 2);
        p.rate = any_enum<code_rate>(in, 4);
        p.batch = any_size(in);
        p.cpu_threads = unsigned(any_int(in));
        check(p, small_size(p.batch) && p.cpu_threads <= 4,
              [&](const auto& q) { make_depuncturing_decoder(q, cpu); });
        break;
    }
    case 5: {
        reed_solomon_params p;
        p.profile.n = unsigned(any_int(in));
        p.profile.k = unsigned(any_int(in));
        p.profile.t = unsigned(any_int(in));
        p.batch = any_size(in);
        check(p, true, [&](const auto& q) { make_reed_solomon(q, cpu); });
        break;
    }
    case 6: {
        mapper_params p;
        p.mod = any_enum<modulation>(in, 4);
        p.standard = any_enum<phy_standard>(in, 2);
        p.batch = any_size(in);
        check(p, true, [&](const auto& q) { make_mapper(q, cpu); });
        demapper_params d;
        d.mod = any_enum<modulation>(in, 4);
        d.hard = in.take<uint8_t>() & 1;
        d.batch = any_size(in);
        check(d, true, [&](const auto& q) { make_demapper(q, cpu); });
        break;
    }
    case 7: {
        ofdm_params p;
        p.fft_len = any_int(in);
        p.cp_lengths.clear();
        const size_t n_cp = in.range(0, 4);
        for (size_t i = 0; i < n_cp; i++)
            p.cp_lengths.push_back(any_int(in));
        p.shift = in.take<uint8_t>() & 1;
        p.scale = any_float(in);
        p.batch = any_int(in);
        const bool small = p.fft_len <= 4096 && p.batch <= 256;
        if (which & 16)
            check(p, small, [&](const auto& q) { make_ofdm_fft(q, cpu); });
        else
            check(p, small, [&](const auto& q) { make_ofdm_ifft(q, cpu); });
        break;
    }
    case 8: {
        ofdm_sync_params p;
        p.standard = any_enum<phy_standard>(in, 2);
        p.threshold = any_float(in);
        p.min_plateau = any_size(in);
        p.batch_samples = any_size(in);
        p.sample_rate = double(any_float(in)) * 1e6;
        p.cp_div = any_int(in);
        check(p, small_size(p.batch_samples), [&](const auto& q) { make_ofdm_sync(q, cpu); });
        break;
    }
    case 9: {
        wifi_sync_params p;
        p.threshold = any_float(in);
        p.min_plateau = any_size(in);
        p.min_power = any_float(in);
        p.min_ltf_metric = any_float(in);
        p.max_samples_per_batch = any_size(in);
        check(p, small_size(p.max_samples_per_batch),
              [&](const auto& q) { make_wifi_sync(q, cpu); });
        wimax_sync_params w;
        w.cp_div = any_int(in);
        w.threshold = any_float(in);
        w.min_plateau = any_size(in);
        w.min_power = any_float(in);
        w.min_preamble_metric = any_float(in);
        w.cfo_search = any_int(in);
        w.hold = any_size(in);
        check(w, true, [&](const auto& q) { make_wimax_sync(q, cpu); });
        break;
    }
    case 10: {
        wifi_rx_params p;
        p.sync.threshold = any_float(in);
        p.sync.min_plateau = any_size(in);
        p.decode.max_frames_per_batch = any_size(in);
        p.decode.max_symbols_per_batch = any_size(in);
        p.fft_backoff = any_int(in);
        p.pilot_tracking = in.take<uint8_t>() & 1;
        p.pilot_interpolation = in.take<uint8_t>() & 1;
        p.channel_taps = any_int(in);
        p.batch_samples = any_size(in);
        check(p, p.batch_samples <= (size_t(1) << 18),
              [&](const auto& q) { make_wifi_receiver(q, cpu); });
        break;
    }
    case 11: {
        wimax_rx_params p;
        p.rate_id = any_int(in);
        p.burst_bytes = any_size(in);
        p.seed = any_int(in);
        p.pad = in.take<uint8_t>() & 1;
        p.uplink = in.take<uint8_t>() & 1;
        p.sync.cp_div = any_int(in);
        p.fft_backoff = any_int(in);
        p.pilot_interpolation = in.take<uint8_t>() & 1;
        p.max_coded_ber = any_float(in);
        p.channel_taps = any_int(in);
        p.batch_samples = any_size(in);
        check(p, p.burst_bytes <= 4096 && p.batch_samples <= (size_t(1) << 19),
              [&](const auto& q) { make_wimax_receiver(q, cpu); });
        break;
    }
    case 12: {
        wifi_tx_params p;
        p.max_frames_per_batch = any_size(in);
        p.max_psdu_bytes = any_size(in);
        p.max_symbols_per_batch = any_size(in);
        p.window = in.take<uint8_t>() & 1;
        p.scale = any_float(in);
        check(p, true, [&](const auto& q) {
            auto tx = make_wifi_tx(q, cpu);
            wifi_frame_request r;
            // The length anywhere; the buffer holds every length validate() may accept.
            std::vector<uint8_t> psdu(65536, 0x5a);
            r.psdu = (in.take<uint8_t>() & 7) ? psdu.data() : nullptr;
            r.len = (in.take<uint8_t>() & 3) ? in.range(0, 5000) : any_size(in);
            r.rate_mbps = any_int(in);
            r.seed = any_int(in);
            try {
                tx->validate(&r, 1);
            } catch (const std::invalid_argument&) {
                return;
            }
            std::vector<cfloat> out(tx->total_samples(&r, 1));
            tx->process(&r, 1, out.data());
        });
        break;
    }
    case 13: {
        wimax_tx_params p;
        p.max_bursts_per_batch = any_size(in);
        p.max_burst_bytes = any_size(in);
        p.max_symbols_per_batch = any_size(in);
        p.cp_div = any_int(in);
        p.preamble = any_enum<wimax_preamble>(in, 3);
        p.uplink = in.take<uint8_t>() & 1;
        p.pad = in.take<uint8_t>() & 1;
        p.scale = any_float(in);
        check(p, true, [&](const auto& q) {
            auto tx = make_wimax_tx(q, cpu);
            wimax_burst_request r;
            std::vector<uint8_t> burst(65536, 0xa5);
            r.data = (in.take<uint8_t>() & 7) ? burst.data() : nullptr;
            r.len = (in.take<uint8_t>() & 3) ? in.range(0, 5000) : any_size(in);
            r.rate_id = any_int(in);
            r.seed = any_int(in);
            try {
                tx->validate(&r, 1);
            } catch (const std::invalid_argument&) {
                return;
            }
            std::vector<cfloat> out(tx->total_samples(&r, 1));
            tx->process(&r, 1, out.data());
        });
        break;
    }
    case 14: {
        // Device and standard strings: parsed, or std::invalid_argument / runtime_error.
        const std::vector<uint8_t> b = in.bytes();
        const std::string s(b.begin(), b.end());
        try {
            resolve_device(s);
        } catch (const std::invalid_argument&) {
        } catch (const std::runtime_error&) {
        }
        try {
            parse_phy_standard(s);
        } catch (const std::invalid_argument&) {
        }
        try {
            viterbi_params::for_protocol(s.substr(0, s.size() / 2), s.substr(s.size() / 2));
        } catch (const std::invalid_argument&) {
        }
        break;
    }
    default: {
        stream_batcher_params p;
        p.batch_samples = any_size(in);
        p.lookback = any_size(in);
        p.keep_before_held = any_size(in);
        try {
            p.validate();
        } catch (const std::invalid_argument&) {
        }
        break;
    }
    }
    return 0;
}
