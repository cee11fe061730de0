/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The 802.11a loopback, the main job: random PSDUs (FCS included) as PDUs -> wifi_tx ->
// GNU Radio's channels.channel_model (AWGN, CFO, multipath taps) -> wifi_rx -> the PDUs
// collected and compared with what was sent. On the GPU when one is usable, else on the
// CPU twins. Prints frames sent and received, the PER, the receiver's SNR and CFO
// estimates and the throughput.

#include "../common/cli_options.h"
#include "demo.h"
#include "demo_util.h"
#include "receiver_rate.h"

#include <gnuradio/blocks/message_debug.h>
#include <gnuradio/channels/channel_model.h>
#include <gnuradio/top_block.h>
#include <gnuradio/gpuofdm/device.h>
#include <gnuradio/gpuofdm/wifi_rx.h>
#include <gnuradio/gpuofdm/wifi_tx.h>
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

struct options {
    std::string device = "auto";
    int frames = 2000;
    int len = 1000;
    int rate = 54;
    double snr_db = 30.0;
    double cfo_hz = 50e3;
    std::string taps = "1,0.3-0.2j,0.1+0.1j";
    double max_per = 0.01;
};

} // namespace

void wifi_usage()
{
    std::puts("--mode wifi (the default): 802.11a loopback, random PSDUs through\n"
              "wifi_tx -> channels.channel_model -> wifi_rx\n"
              "  --device S      auto (default), cpu, cuda, cuda:N (both blocks)\n"
              "  --frames N      frames to send, 1..8192 (2000)\n"
              "  --len N         PSDU octets, FCS included, 5..4095 (1000)\n"
              "  --rate R        Mb/s: 6, 9, 12, 18, 24, 36, 48, 54 (54)\n"
              "  --snr DB        signal to noise ratio per sample on air (30)\n"
              "  --cfo HZ        carrier frequency offset at 20 Msps (50e3)\n"
              "  --taps LIST     channel taps, complex, comma separated, normalized to unit\n"
              "                  power (\"1,0.3-0.2j,0.1+0.1j\"; \"1\" for AWGN only)\n"
              "  --max-per P     FAIL (exit 1) when the packet error rate is above P (0.01)\n");
}

namespace {

options parse(int argc, char** argv)
{
    using namespace gpuofdm_apps;
    options o;
    parse_cli(argc, argv,
              {
                  value("--device", o.device),
                  value("--frames", o.frames),
                  value("--len", o.len),
                  value("--rate", o.rate),
                  value("--snr", o.snr_db),
                  value("--cfo", o.cfo_hz),
                  value("--taps", o.taps),
                  value("--max-per", o.max_per),
              },
              demo_usage, "gpuofdm_demo");
    // All PDUs are queued in wifi_tx before the run, and it holds at most 8192.
    if (o.frames < 1 || o.frames > 8192)
        throw std::invalid_argument("--frames: must be 1..8192 (wifi_tx queues at most 8192 "
                                    "PDUs)");
    if (o.len < 5 || o.len > 4095)
        throw std::invalid_argument("--len: must be 5..4095 octets (4 of them the FCS)");
    if (!(o.max_per >= 0 && o.max_per <= 1))
        throw std::invalid_argument("--max-per: must be 0..1");
    return o;
}

//! CRC-32 of IEEE 802.3 (the 802.11 FCS), bitwise: the demo's own, not the module's.
uint32_t fcs32(const uint8_t* p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int b = 0; b < 8; b++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    return ~c;
}

} // namespace

int run_wifi_loopback(int argc, char** argv)
{
    const options o = parse(argc, argv);
    namespace go = gr::gpuofdm;
    const double fs = 20e6;
    const auto taps = gpuofdm_demo::parse_taps(o.taps);

    // Random PSDUs, each ending in its FCS, each different (its index in the first 4 octets).
    std::mt19937 rng(2026);
    std::vector<std::vector<uint8_t>> sent(size_t(o.frames));
    std::map<std::vector<uint8_t>, size_t> index;
    for (size_t f = 0; f < sent.size(); f++) {
        auto& p = sent[f];
        p.resize(size_t(o.len));
        for (auto& b : p)
            b = uint8_t(rng());
        for (int i = 0; i < 4; i++)
            p[size_t(i)] = uint8_t(f >> (8 * i));
        const uint32_t c = fcs32(p.data(), p.size() - 4);
        for (int i = 0; i < 4; i++)
            p[p.size() - 4 + size_t(i)] = uint8_t(c >> (8 * i));
        index[p] = f;
    }

    auto tx = go::wifi_tx::make(o.rate, 0, 400, 8.87520336f, 64, o.device);
    // Unit signal power on air: noise power 10^(-SNR/10).
    const double noise_voltage = std::pow(10.0, -o.snr_db / 20.0);
    auto chan = gr::channels::channel_model::make(noise_voltage, o.cfo_hz / fs, 1.0, taps, 7);
    auto rx = go::wifi_rx::make(262144, 0.56f, false, "", o.device);
    auto sink = gr::blocks::message_debug::make();

    auto tb = gr::make_top_block("gpuofdm_wifi_loopback");
    tb->connect(tx, 0, chan, 0);
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

    std::printf("gpuofdm_demo: 802.11a loopback wifi_tx -> channel_model -> wifi_rx\n");
    gpuofdm_demo::print_device(rx->device(), o.device);
    std::printf("  %d frames of %d octets at %d Mb/s; channel: SNR %.1f dB, CFO %.0f Hz, "
                "%zu taps\n",
                o.frames, o.len, o.rate, o.snr_db, o.cfo_hz, taps.size());

    const auto t0 = std::chrono::steady_clock::now();
    tb->run();
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // Each sent frame counts once, received exactly with a good FCS.
    std::vector<bool> got(sent.size(), false);
    size_t ok = 0, unknown = 0;
    double snr_sum = 0, cfo_sum = 0;
    for (size_t i = 0; i < sink->num_messages(); i++) {
        const pmt::pmt_t m = sink->get_message(i);
        const pmt::pmt_t meta = pmt::car(m);
        const std::vector<uint8_t> psdu = pmt::u8vector_elements(pmt::cdr(m));
        const auto it = index.find(psdu);
        const bool crc_ok = pmt::to_bool(pmt::dict_ref(meta, pmt::intern("crc_ok"), pmt::PMT_F));
        if (it == index.end() || !crc_ok) {
            unknown++;
            continue;
        }
        if (!got[it->second]) {
            got[it->second] = true;
            ok++;
            snr_sum +=
                pmt::to_double(pmt::dict_ref(meta, pmt::intern("snr_db"), pmt::from_double(0)));
            cfo_sum +=
                pmt::to_double(pmt::dict_ref(meta, pmt::intern("cfo_hz"), pmt::from_double(0)));
        }
    }
    const double per = 1.0 - double(ok) / double(sent.size());
    const double samples = double(rx->samples());
    const double msps = samples / secs / 1e6;
    std::printf("  frames sent %zu, received %zu (bad FCS %llu, bad SIGNAL %llu, other %zu)\n",
                sent.size(), ok, static_cast<unsigned long long>(rx->crc_errors()),
                static_cast<unsigned long long>(rx->signal_errors()), unknown);
    std::printf("  PER %.4f\n", per);
    if (ok > 0)
        std::printf("  receiver estimates: SNR %.1f dB, CFO %.0f Hz (means)\n",
                    snr_sum / double(ok), cfo_sum / double(ok));
    std::printf("  loopback (wifi_tx, channel_model on the CPU, wifi_rx, one flowgraph): time "
                "%.3f s, %.1f Msamples/s (%.2fx real time at 20 Msps), %.1f Mb/s of PSDUs\n",
                secs, msps, msps * 1e6 / fs, 8.0 * double(ok) * o.len / secs / 1e6);
    const auto alone =
        gpuofdm_demo::time_wifi_receiver(recording->samples(), o.device, 262144, 0.56f);
    gpuofdm_demo::print_receiver_rate(alone, recording->samples().size(), recording->seen(), fs,
                                      "wifi", "frames");
    char what[96];
    std::snprintf(what, sizeof(what), "PER %.4f %s %.4f (--max-per)", per,
                  per <= o.max_per ? "<=" : ">", o.max_per);
    return gpuofdm_demo::verdict(per <= o.max_per, what);
}
