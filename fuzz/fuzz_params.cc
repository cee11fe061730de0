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
#include "prach/prach_detector.h"
#include "prach/prach_frontend.h"
#include "prach/prach_synth.h"
#include "runtime/phy_standard.h"
#include "sync/cell_search.h"
#include "sync/sync_raster.h"
#include "sync/sync_signal_synth.h"
#include "sync/wideband_channelizer.h"
#include "timing/pfb_timing_sync.h"
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

//! A rate or frequency in Hz: the float's range scaled to MHz, or an exact edge.
double any_hz(fuzz_input& in)
{
    static const double edges[] = {
        0, 1.92e6, 7.68e6, 15.36e6, 30.72e6, 122.88e6, 153.6e6, 245.76e6
    };
    const uint8_t how = in.take<uint8_t>();
    return how < 128 ? edges[how % (sizeof(edges) / sizeof(edges[0]))]
                     : double(any_float(in)) * 1e6;
}

std::vector<double> any_offsets(fuzz_input& in)
{
    std::vector<double> v(in.range(0, 8) == 8 ? any_size(in) % 5000 : in.range(0, 8));
    for (double& x : v)
        x = any_hz(in) / 8;
    return v;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fuzz_input in(data, size);
    const auto cpu = resolve_device("cpu");
    const uint8_t which = in.take<uint8_t>();
    switch (which % 23) {
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
    case 16: {
        channelizer_params p;
        p.sample_rate = any_hz(in);
        p.output_rate = any_hz(in) / 16;
        p.offsets_hz = any_offsets(in);
        p.passband_hz = any_hz(in) / 64;
        // The plan is cheap; an awkward rate ratio makes its FFTs long (up to 2^22 points)
        // and their planning slow: built here up to 2^16.
        check(p, p.offsets_hz.size() <= 16, [&](const auto& q) {
            if (make_channelizer_plan(q).fft_in <= (size_t(1) << 16))
                make_wideband_channelizer(q, cpu);
        });
        break;
    }
    case 17: {
        cell_search_params p;
        p.standard = any_enum<cell_standard>(in, 3);
        p.scs_khz = any_int(in);
        p.cfo_range_hz = any_hz(in) / 32;
        p.pss_threshold = any_float(in);
        p.sss_threshold = any_float(in);
        p.combine_periods = any_int(in);
        p.period_s = double(any_float(in)) / 100;
        p.max_peaks = any_int(in);
        p.ssb_lmax = any_int(in);
        p.fivegtf_ess = any_enum<fivegtf_ess_index>(in, 2);
        p.fivegtf_cp = any_enum<fivegtf_long_cp>(in, 2);
        p.combine_symbols = any_int(in) % 2 != 0;
        p.pss_steps = any_int(in);
        check(p, true, [&](const auto& q) { make_cell_search(q, cpu); });
        raster_params r;
        r.standard = any_enum<cell_standard>(in, 3);
        r.sample_rate = any_hz(in);
        r.center_hz = any_hz(in) * 100;
        r.ssb_scs_khz = any_int(in);
        r.usable_fraction = any_float(in);
        r.offsets_hz = any_offsets(in);
        try {
            raster_candidates(r);
        } catch (const std::invalid_argument&) {
        }
        break;
    }
    case 18: {
        // The synthesizer: what validate() accepts generates a short span.
        synth_params p;
        p.standard = any_enum<cell_standard>(in, 3);
        p.sample_rate = any_hz(in);
        p.center_hz = any_hz(in) * 100;
        p.scs_khz = any_int(in);
        p.nr_case = char(in.take<uint8_t>());
        p.ssb_count = any_int(in);
        p.sync_period_s = double(any_float(in)) / 100;
        p.lte_tdd = in.take<uint8_t>() & 1;
        p.lte_extended_cp = in.take<uint8_t>() & 1;
        p.sro_ppm = any_float(in);
        p.noise_power = any_float(in);
        p.seed = in.take<uint32_t>();
        p.cells.resize(in.range(0, 3));
        for (synth_cell& c : p.cells) {
            c.cell_id = any_int(in);
            c.power_db = any_float(in);
            c.offset_hz = any_hz(in) / 8;
            c.cfo_hz = any_float(in) * 1000;
            c.start_s = double(any_float(in)) / 1000;
        }
        check(p, p.sample_rate <= 30.72e6, [&](const auto& q) {
            sync_signal_synth synth(q);
            std::vector<cfloat> out(in.range(0, 4096));
            synth.generate(out.data(), out.size());
        });
        break;
    }
    case 19: {
        prach_detector_params p;
        p.format = any_enum<prach_format>(in, 13);
        p.mu = any_int(in);
        p.cells.resize(in.range(0, 4) == 4 ? any_size(in) % 2000 : in.range(0, 4));
        for (prach_cell_params& c : p.cells) {
            c.logical_root = any_int(in);
            c.zero_correlation_zone = any_int(in);
            c.set = any_enum<prach_restricted_set>(in, 3);
        }
        p.n_antennas = any_int(in);
        p.n_occasions = any_int(in);
        p.idft_size = any_int(in);
        p.false_alarm = any_float(in);
        p.sample_rate = any_hz(in);
        check(p, p.cells.size() * size_t(std::max(p.n_antennas, 0)) <= 16,
              [&](const auto& q) { make_prach_detector(q, cpu); });
        break;
    }
    case 20: {
        prach_frontend_params p;
        p.format = any_enum<prach_format>(in, 13);
        p.mu = any_int(in);
        p.sample_rate = any_hz(in);
        p.offset_hz = any_offsets(in);
        p.occasion_spacing_hz = any_hz(in) / 64;
        p.n_antennas = any_int(in);
        p.n_time_occasions = any_int(in);
        p.n_fd_occasions = any_int(in);
        p.extra_cp_kappa = any_int(in);
        check(p,
              p.offset_hz.size() * size_t(std::max(p.n_antennas, 0)) *
                      size_t(std::max(p.n_time_occasions, 0)) <=
                  16,
              [&](const auto& q) { make_prach_frontend(q, cpu); });
        break;
    }
    case 21: {
        pfb_timing_params p;
        p.sps = any_float(in);
        p.loop_bw = any_float(in);
        p.taps.assign(in.range(0, 8) == 8 ? any_size(in) % 70000 : in.range(0, 700), 0.0f);
        for (size_t i = 0; i < p.taps.size() && i < 64; i++)
            p.taps[i] = any_float(in);
        p.nfilts = unsigned(any_int(in));
        p.init_phase = any_float(in);
        p.max_rate_deviation = any_float(in);
        p.osps = any_int(in);
        p.mode = any_enum<timing_mode>(in, 3);
        p.chunk_samples = any_size(in);
        p.warmup_samples = any_size(in);
        p.n_channels = any_size(in);
        p.max_input_samples = any_size(in);
        check(p,
              p.taps.size() <= 8192 && p.n_channels <= 64 &&
                  p.n_channels * p.max_input_samples <= (size_t(1) << 20),
              [&](const auto& q) { make_pfb_timing_sync(q, cpu); });
        break;
    }
    case 22: {
        // The PRACH synthesizer: what validate() accepts generates a short span.
        prach_synth_params p;
        p.format = any_enum<prach_format>(in, 13);
        p.mu = any_int(in);
        p.sample_rate = any_hz(in);
        p.offset_hz = any_hz(in) / 8;
        p.n_antennas = any_int(in);
        p.start_sample = any_size(in);
        p.period_samples = any_size(in);
        p.extra_cp_kappa = any_int(in);
        p.noise_power = any_float(in);
        p.seed = in.take<uint64_t>();
        p.ues.resize(in.range(0, 3));
        for (prach_synth_ue& u : p.ues) {
            u.u = any_int(in);
            u.cv = any_int(in);
            u.delay_samples = double(any_float(in)) * 64;
            u.cfo_hz = double(any_float(in)) * 1000;
            u.power_db = any_float(in);
            u.gains.resize(in.range(0, 3));
            for (cfloat& g : u.gains)
                g = cfloat(any_float(in), any_float(in));
        }
        check(p, p.sample_rate <= 30.72e6 && p.n_antennas <= 4, [&](const auto& q) {
            prach_synth synth(q);
            std::vector<std::vector<cfloat>> out(size_t(q.n_antennas),
                                                 std::vector<cfloat>(in.range(1, 4096)));
            std::vector<cfloat*> ptrs;
            for (auto& o : out)
                ptrs.push_back(o.data());
            synth.generate(ptrs.data(), out[0].size());
        });
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
