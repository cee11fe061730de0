/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.16 loopback: random bursts as PDUs -> wimax_tx (long preamble) -> GNU Radio's
// channels.channel_model (AWGN, CFO, multipath taps) -> wimax_rx -> the PDUs collected and
// compared with what was sent. On the GPU when one is usable, else on the CPU twins.
// Prints bursts sent and received, the PER, the receiver's SNR and CFO estimates, the RS
// corrections and the throughput.

#include "../common/cli_options.h"
#include "demo.h"
#include "demo_util.h"
#include "receiver_rate.h"

#include <gnuradio/blocks/delay.h>
#include <gnuradio/blocks/message_debug.h>
#include <gnuradio/channels/channel_model.h>
#include <gnuradio/top_block.h>
#include <gnuradio/gpuofdm/device.h>
#include <gnuradio/gpuofdm/wimax_rx.h>
#include <gnuradio/gpuofdm/wimax_tx.h>
#include <pmt/pmt.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const char* const profile_names[] = { "BPSK 1/2",   "QPSK 1/2",   "QPSK 3/4",  "16-QAM 1/2",
                                      "16-QAM 3/4", "64-QAM 2/3", "64-QAM 3/4" };

struct wimax_options {
    std::string device = "auto";
    int bursts = 2000;
    int bytes = 500;
    int profile = 6;
    int cp_div = 4;
    double fs = 4e6;
    double snr_db = 30.0;
    double cfo_hz = 10e3;
    std::string taps = "1,0.3-0.2j,0.1+0.1j";
    double max_per = 0.01;
};

} // namespace

void wimax_usage()
{
    std::puts("--mode wimax: 802.16-2004 OFDM-256 loopback, random bursts through\n"
              "wimax_tx -> channels.channel_model -> wimax_rx\n"
              "  --device S      auto (default), cpu, cuda, cuda:N (both blocks)\n"
              "  --bursts N      bursts to send, 1..8192 (2000)\n"
              "  --bytes N       data octets per burst, 4..4095 (500)\n"
              "  --profile P     burst profile (rate_id) 0..6: BPSK 1/2, QPSK 1/2, QPSK 3/4,\n"
              "                  16-QAM 1/2, 16-QAM 3/4, 64-QAM 2/3, 64-QAM 3/4 (6)\n"
              "  --cp D          cyclic prefix 256/D samples: 4, 8, 16, 32 (4)\n"
              "  --fs HZ         sample rate, for the CFO and real time (4e6: 8/7 x 3.5 MHz)\n"
              "  --snr DB        signal to noise ratio per sample on air (30)\n"
              "  --cfo HZ        carrier frequency offset (10e3)\n"
              "  --taps LIST     channel taps, complex, comma separated, normalized to unit\n"
              "                  power (\"1,0.3-0.2j,0.1+0.1j\"; \"1\" for AWGN only)\n"
              "  --max-per P     FAIL (exit 1) when the burst error rate is above P (0.01)\n");
}

namespace {

wimax_options parse_wimax(int argc, char** argv)
{
    using namespace gpuofdm_apps;
    wimax_options o;
    parse_cli(argc, argv,
              {
                  value("--device", o.device),
                  value("--bursts", o.bursts),
                  value("--bytes", o.bytes),
                  value("--profile", o.profile),
                  value("--cp", o.cp_div),
                  value("--fs", o.fs),
                  value("--snr", o.snr_db),
                  value("--cfo", o.cfo_hz),
                  value("--taps", o.taps),
                  value("--max-per", o.max_per),
              },
              demo_usage, "gpuofdm_demo");
    // All PDUs are queued in wimax_tx before the run, and it holds at most 8192.
    if (o.bursts < 1 || o.bursts > 8192)
        throw std::invalid_argument("--bursts: must be 1..8192 (wimax_tx queues at most 8192 "
                                    "PDUs)");
    // 4 octets carry the burst's index; wimax_tx takes at most 4095.
    if (o.bytes < 4 || o.bytes > 4095)
        throw std::invalid_argument("--bytes: must be 4..4095 octets");
    if (o.profile < 0 || o.profile > 6)
        throw std::invalid_argument("--profile: must be 0..6");
    if (!(o.fs > 0 && std::isfinite(o.fs)))
        throw std::invalid_argument("--fs: must be > 0");
    if (!(o.max_per >= 0 && o.max_per <= 1))
        throw std::invalid_argument("--max-per: must be 0..1");
    return o;
}

} // namespace

int run_wimax_loopback(int argc, char** argv)
{
    const wimax_options o = parse_wimax(argc, argv);
    namespace go = gr::gpuofdm;
    const auto taps = gpuofdm_demo::parse_taps(o.taps);

    // Random bursts, each different (its index in the first 4 octets).
    std::mt19937 rng(2026);
    std::vector<std::vector<uint8_t>> sent(size_t(o.bursts));
    std::map<std::vector<uint8_t>, size_t> index;
    for (size_t f = 0; f < sent.size(); f++) {
        auto& p = sent[f];
        p.resize(size_t(o.bytes));
        for (auto& b : p)
            b = uint8_t(rng());
        for (int i = 0; i < 4; i++)
            p[size_t(i)] = uint8_t(f >> (8 * i));
        index[p] = f;
    }

    // Unit average power on air (scale 256 / sqrt(200)), 400 zeros after each burst.
    auto tx = go::wimax_tx::make(o.profile, o.cp_div, "long", false, true, 19072, 400, 18.1019336f,
                                 64, o.device);
    const double noise_voltage = std::pow(10.0, -o.snr_db / 20.0);
    auto chan = gr::channels::channel_model::make(noise_voltage, o.cfo_hz / o.fs, 1.0, taps, 7);
    auto rx = go::wimax_rx::make(o.profile, o.bytes, o.cp_div, false, true, 19072, false, o.fs, 0,
                                 o.device);
    auto sink = gr::blocks::message_debug::make();

    // 100 zeros in front: channel_model's resampler eats its first few samples, and a burst
    // that starts before the stream does is not decoded.
    auto lead = gr::blocks::delay::make(sizeof(gr_complex), 100);

    auto tb = gr::make_top_block("gpuofdm_wimax_loopback");
    tb->connect(tx, 0, lead, 0);
    tb->connect(lead, 0, chan, 0);
    tb->connect(chan, 0, rx, 0);
    tb->msg_connect(rx, "pdus", sink, "store");
    // What the receiver block is handed, decoded again by its core alone afterwards.
    auto recording = gpuofdm_demo::make_record_sink(gpuofdm_demo::max_recorded);
    tb->connect(chan, 0, recording, 0);
    const pmt::pmt_t port = pmt::intern("pdus");
    for (const auto& p : sent)
        tx->_post(port, pmt::cons(pmt::make_dict(), pmt::init_u8vector(p.size(), p)));
    // The transmitter ends when its PDUs are written: as after its last sender finished.
    tx->_post(pmt::intern("system"), pmt::cons(pmt::intern("done"), pmt::from_long(1)));

    std::printf("gpuofdm_demo: 802.16 OFDM-256 loopback wimax_tx -> channel_model -> wimax_rx\n");
    gpuofdm_demo::print_device(rx->device(), o.device);
    std::printf("  %d bursts of %d octets, %s, CP 1/%d (%d samples a burst at %.3g Msps); "
                "channel: SNR %.1f dB, CFO %.0f Hz, %zu taps\n",
                o.bursts, o.bytes, profile_names[o.profile], o.cp_div, rx->burst_samples(),
                o.fs / 1e6, o.snr_db, o.cfo_hz, taps.size());

    const auto t0 = std::chrono::steady_clock::now();
    tb->run();
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // Each sent burst counts once, received ok with exactly its octets.
    std::vector<bool> got(sent.size(), false);
    size_t ok = 0, unknown = 0, rs_corrected = 0;
    double snr_sum = 0, cfo_sum = 0;
    auto number = [](const pmt::pmt_t& meta, const char* key) {
        const pmt::pmt_t v = pmt::dict_ref(meta, pmt::intern(key), pmt::PMT_NIL);
        return pmt::is_number(v) ? pmt::to_double(v) : 0.0;
    };
    for (size_t i = 0; i < sink->num_messages(); i++) {
        const pmt::pmt_t m = sink->get_message(i);
        const pmt::pmt_t meta = pmt::car(m);
        const auto it = index.find(pmt::u8vector_elements(pmt::cdr(m)));
        if (it == index.end()) {
            unknown++;
            continue;
        }
        if (!got[it->second]) {
            got[it->second] = true;
            ok++;
            snr_sum += number(meta, "snr_db");
            cfo_sum += number(meta, "cfo_hz");
            rs_corrected += size_t(number(meta, "rs_corrected"));
        }
    }
    const double per = 1.0 - double(ok) / double(sent.size());
    const double msps = double(rx->samples()) / secs / 1e6;
    std::printf("  bursts sent %zu, received %zu (bad %llu, cut off %llu, other %zu)\n",
                sent.size(), ok, static_cast<unsigned long long>(rx->bad_bursts()),
                static_cast<unsigned long long>(rx->truncated()), unknown);
    std::printf("  PER %.4f\n", per);
    if (ok > 0)
        std::printf("  receiver estimates: SNR %.1f dB, CFO %.0f Hz (means); RS corrected "
                    "%zu octets\n",
                    snr_sum / double(ok), cfo_sum / double(ok), rs_corrected);
    std::printf("  loopback (wimax_tx, channel_model on the CPU, wimax_rx, one flowgraph): time "
                "%.3f s, %.1f Msamples/s (%.2fx real time at %.3g Msps), %.1f Mb/s of burst "
                "data\n",
                secs, msps, msps * 1e6 / o.fs, o.fs / 1e6, 8.0 * double(ok) * o.bytes / secs / 1e6);
    const auto alone = gpuofdm_demo::time_wimax_receiver(recording->samples(), o.device, o.profile,
                                                         o.bytes, o.cp_div, 19072);
    gpuofdm_demo::print_receiver_rate(alone, recording->samples().size(), recording->seen(), o.fs,
                                      "wimax", "bursts");
    char what[96];
    std::snprintf(what, sizeof(what), "PER %.4f %s %.4f (--max-per)", per,
                  per <= o.max_per ? "<=" : ">", o.max_per);
    return gpuofdm_demo::verdict(per <= o.max_per, what);
}
