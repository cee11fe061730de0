/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gpuofdm_demo --mode rx: a recording (SigMF or raw cf32 / cs16 / cs8 at 20 Msps) through
// wifi_rx; prints the frames decoded and a verdict, and can write them as SigMF
// annotations.

#include "../common/cli_options.h"
#include "../common/sigmf.h"
#include "demo.h"
#include "demo_util.h"

#include <gnuradio/blocks/message_debug.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/gpuofdm/wifi_rx.h>
#include <gnuradio/top_block.h>
#include <pmt/pmt.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>

namespace {

struct rx_options {
    std::string device = "auto";
    std::string input;
    std::string format = "cf32";
    std::string annotate;
    int expect = 1;
};

} // namespace

void rx_usage()
{
    std::puts("--mode rx: a recording at 20 Msps through wifi_rx, the frames decoded\n"
              "  --input FILE    SigMF (FILE.sigmf-meta, FILE.sigmf-data, or FILE with a\n"
              "                  FILE.sigmf-meta beside it: its datatype is used) or raw I/Q\n"
              "  --format F      raw I/Q: cf32 (default), cs16 or cs8 (interleaved float32,\n"
              "                  int16, int8; integers read as value/32768, value/128)\n"
              "  --device S      auto (default), cpu, cuda, cuda:N\n"
              "  --annotate OUT  write OUT.sigmf-meta: the recording's metadata and one\n"
              "                  annotation per frame decoded with a good FCS\n"
              "  --expect N      FAIL (exit 1) with fewer than N frames with a good FCS (1)\n");
}

namespace {

rx_options parse_rx(int argc, char** argv)
{
    using namespace gpuofdm_apps;
    rx_options o;
    parse_cli(argc, argv,
              {
                  value("--device", o.device),
                  value("--input", o.input),
                  value("--format", o.format),
                  value("--annotate", o.annotate),
                  value("--expect", o.expect),
              },
              demo_usage, "gpuofdm_demo");
    if (o.input.empty())
        throw std::invalid_argument("--input: give the recording (try --help)");
    format_from_name(o.format); // names --format when it is wrong
    if (o.expect < 0)
        throw std::invalid_argument("--expect: must be >= 0");
    return o;
}

//! Samples of an 802.11a PPDU: preamble 320, SIGNAL 80, DATA symbols of 80.
uint64_t ppdu_samples(long rate_mbps, long psdu_octets)
{
    static const std::map<long, long> n_dbps = {
        { 6, 24 },  { 9, 36 },   { 12, 48 },  { 18, 72 },
        { 24, 96 }, { 36, 144 }, { 48, 192 }, { 54, 216 }
    };
    const auto it = n_dbps.find(rate_mbps);
    if (it == n_dbps.end())
        return 0;
    const long bits = 16 + 8 * psdu_octets + 6;
    return uint64_t(320 + 80 + 80 * ((bits + it->second - 1) / it->second));
}

} // namespace

int run_wifi_file_rx(int argc, char** argv)
{
    const rx_options o = parse_rx(argc, argv);
    gpuofdm_apps::recording rec(o.input, o.format);
    const auto samples = rec.read_all();
    const auto& meta = rec.meta();

    std::printf("gpuofdm_demo: recording -> wifi_rx\n");
    std::printf("  recording: %s (%s %s", rec.data_path().c_str(), rec.is_sigmf() ? "SigMF" : "raw",
                meta.datatype.c_str());
    if (meta.sample_rate > 0)
        std::printf(", %.6g Msps", meta.sample_rate / 1e6);
    if (!meta.captures.empty() && meta.captures[0].frequency != 0)
        std::printf(", centre %.6g MHz", meta.captures[0].frequency / 1e6);
    std::printf(", %zu samples)\n", samples.size());
    if (meta.sample_rate > 0 && meta.sample_rate != 20e6)
        std::printf("  warning: wifi_rx expects 20 Msps, the recording says %.6g Msps\n",
                    meta.sample_rate / 1e6);

    auto src = gr::blocks::vector_source<gr_complex>::make(samples, false);
    auto rx = gr::gpuofdm::wifi_rx::make(262144, 0.56f, false, "", o.device);
    auto sink = gr::blocks::message_debug::make();
    auto tb = gr::make_top_block("gpuofdm_wifi_file_rx");
    tb->connect(src, 0, rx, 0);
    tb->msg_connect(rx, "pdus", sink, "store");
    gpuofdm_demo::print_device(rx->device(), o.device);

    const auto t0 = std::chrono::steady_clock::now();
    tb->run();
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    gpuofdm_apps::sigmf_meta out = meta;
    out.annotations.clear();
    if (out.captures.empty())
        out.captures.push_back({});
    if (out.sample_rate == 0)
        out.sample_rate = 20e6;
    int good = 0;
    for (size_t i = 0; i < sink->num_messages(); i++) {
        const pmt::pmt_t m = sink->get_message(i);
        const pmt::pmt_t d = pmt::car(m);
        if (!pmt::to_bool(pmt::dict_ref(d, pmt::intern("crc_ok"), pmt::PMT_F)))
            continue;
        good++;
        const long rate = pmt::to_long(pmt::dict_ref(d, pmt::intern("rate"), pmt::from_long(0)));
        const long len = long(pmt::blob_length(pmt::cdr(m)));
        gpuofdm_apps::sigmf_annotation a;
        a.sample_start =
            pmt::to_uint64(pmt::dict_ref(d, pmt::intern("start"), pmt::from_uint64(0)));
        a.sample_count = ppdu_samples(rate, len);
        a.label = "802.11a " + std::to_string(rate) + " Mb/s";
        char comment[96];
        std::snprintf(comment, sizeof(comment), "%ld octets, FCS ok, SNR %.1f dB", len,
                      pmt::to_double(pmt::dict_ref(d, pmt::intern("snr_db"), pmt::from_double(0))));
        a.comment = comment;
        out.annotations.push_back(a);
    }
    std::printf("  frames: %zu decoded, %d with a good FCS (bad FCS %llu, bad SIGNAL %llu)\n",
                sink->num_messages(), good, static_cast<unsigned long long>(rx->crc_errors()),
                static_cast<unsigned long long>(rx->signal_errors()));
    std::printf("  time %.3f s, %.1f Msamples/s\n", secs, double(samples.size()) / secs / 1e6);
    if (!o.annotate.empty()) {
        std::string path = o.annotate;
        const std::string ext = ".sigmf-meta";
        if (path.size() < ext.size() || path.compare(path.size() - ext.size(), ext.size(), ext))
            path += ext;
        out.description = "frames wifi_rx decoded from " + rec.data_path();
        gpuofdm_apps::write_sigmf_meta(path, out);
        std::printf("  wrote %zu annotations to %s\n", out.annotations.size(), path.c_str());
    }
    char what[96];
    std::snprintf(what, sizeof(what), "%d frames with a good FCS %s %d (--expect)", good,
                  good >= o.expect ? ">=" : "<", o.expect);
    return gpuofdm_demo::verdict(good >= o.expect, what);
}
