/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Start/stop cycles of one flowgraph holding every GPU block of the module, then
// make/destroy cycles of the same flowgraph: each cycle starts it, lets it run, stops it
// and waits. Device memory in use (cudaMemGetInfo) and the process's resident set are
// sampled every few cycles; the program prints them, writes them as JSON and exits 1
// when either grew by more than its bound between the first sample (after warm-up) and
// the last. A hang at stop() or wait() is a failure too (the watchdog ends the program).
//
//   gpuofdm_cycles [--device cuda|cuda:N|cpu] [--cycles 100] [--every 10] [--run-ms 50]
//                  [--max-device-growth-mib 16] [--max-rss-growth-mib 64] [--json FILE]

#include "common/cli_options.h"
#include "timing/rrc_prototype.h"

#include <gnuradio/blocks/null_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/top_block.h>
#include <gnuradio/gpuofdm/cell_searcher_cc.h>
#include <gnuradio/gpuofdm/conv_encoder_bb.h>
#include <gnuradio/gpuofdm/demapper_cf.h>
#include <gnuradio/gpuofdm/device.h>
#include <gnuradio/gpuofdm/interleaver_bb.h>
#include <gnuradio/gpuofdm/interleaver_ff.h>
#include <gnuradio/gpuofdm/mapper_bc.h>
#include <gnuradio/gpuofdm/ofdm_fft.h>
#include <gnuradio/gpuofdm/ofdm_ifft.h>
#include <gnuradio/gpuofdm/ofdm_sync_cc.h>
#include <gnuradio/gpuofdm/pfb_timing_sync_ccf.h>
#include <gnuradio/gpuofdm/pfb_timing_sync_multi_ccf.h>
#include <gnuradio/gpuofdm/prach_detector_c.h>
#include <gnuradio/gpuofdm/rs_decoder_bb.h>
#include <gnuradio/gpuofdm/rs_encoder_bb.h>
#include <gnuradio/gpuofdm/scrambler_bb.h>
#include <gnuradio/gpuofdm/viterbi_decoder_fb.h>
#include <gnuradio/gpuofdm/wifi_rx.h>
#include <gnuradio/gpuofdm/wifi_tx.h>
#include <gnuradio/gpuofdm/wimax_rx.h>
#include <gnuradio/gpuofdm/wimax_tx.h>
#include <pmt/pmt.h>

#ifdef GPUOFDM_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace gr::gpuofdm;

//! The groups of blocks the flowgraph can hold (--only picks some).
const std::vector<std::string> all_groups = { "bits", "rs",     "ofdm",       "wifi", "wimax",
                                              "sync", "timing", "cellsearch", "prach" };

struct options {
    std::string device = "cuda";
    int cycles = 100;
    int every = 10;
    int run_ms = 50;
    double max_device_growth_mib = 16;
    double max_rss_growth_mib = 64;
    std::string json;
    std::vector<std::string> only = all_groups;
};

void usage()
{
    std::printf("gpuofdm_cycles [--device cuda|cuda:N|cpu] [--cycles 100] [--every 10] "
                "[--run-ms 50]\n"
                "               [--max-device-growth-mib 16] [--max-rss-growth-mib 64] "
                "[--json FILE]\n"
                "               [--only bits,rs,ofdm,wifi,wimax,sync,timing,cellsearch,prach]\n"
                "Start/stop and make/destroy cycles of a flowgraph with every GPU block;\n"
                "exits 1 when device memory or host RSS grows beyond the bounds.\n");
}

std::string join(const std::vector<std::string>& v)
{
    std::string out;
    for (const auto& x : v)
        out += (out.empty() ? "" : ",") + x;
    return out;
}

//! Device memory in use on the current device, MiB (-1 without CUDA).
double device_used_mib()
{
#ifdef GPUOFDM_HAVE_CUDA
    size_t free = 0, total = 0;
    if (cudaMemGetInfo(&free, &total) == cudaSuccess)
        return double(total - free) / (1 << 20);
#endif
    return -1.0;
}

//! The process's resident set, MiB.
double rss_mib()
{
    std::ifstream f("/proc/self/statm");
    long pages = 0, resident = 0;
    f >> pages >> resident;
    return double(resident) * double(sysconf(_SC_PAGESIZE)) / (1 << 20);
}

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed, unsigned mask)
{
    std::mt19937 rng(seed);
    std::vector<uint8_t> v(n);
    for (auto& b : v)
        b = uint8_t(rng() & mask);
    return v;
}

std::vector<gr_complex> random_samples(size_t n, uint32_t seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<float> g(0.0f, 1.0f);
    std::vector<gr_complex> v(n);
    for (auto& x : v)
        x = gr_complex(g(rng), g(rng));
    return v;
}

pmt::pmt_t pdu(size_t len, uint32_t seed)
{
    const auto data = random_bytes(len, seed, 0xFF);
    return pmt::cons(pmt::make_dict(), pmt::init_u8vector(data.size(), data));
}

//! Every GPU block in one flowgraph (or the groups asked for): endless sources, so only
//! stop() ends a run.
struct flowgraph {
    gr::top_block_sptr tb;
    wifi_tx::sptr wifi_source;
    wimax_tx::sptr wimax_source;

    flowgraph(const std::string& dev, const std::vector<std::string>& groups)
    {
        tb = gr::make_top_block("gpuofdm_cycles");
        const auto has = [&](const char* g) {
            return std::find(groups.begin(), groups.end(), g) != groups.end();
        };
        if (has("bits")) {
            // Scrambler -> encoder -> interleaver -> 16-QAM -> demapper -> deinterleaver
            // -> Viterbi decoder.
            auto bits =
                gr::blocks::vector_source<uint8_t>::make(random_bytes(192 * 512, 1, 1), true);
            auto scr = scrambler_bb::make("802.11a", 93, "", 0, dev);
            auto enc = conv_encoder_bb::make("802.11a", "1/2", "", 0, dev);
            auto il = interleaver_bb::make("802.11a", 192, 4, false, 0, dev);
            auto map = mapper_bc::make("16QAM", 0, dev);
            auto demap = demapper_cf::make("16QAM", 0.5f, false, 0, dev);
            auto dil = interleaver_ff::make("802.11a", 192, 4, true, 0, dev);
            auto vit = viterbi_decoder_fb::make("802.11a", "1/2", "stream", "", 0, dev);
            tb->connect(bits, 0, scr, 0);
            tb->connect(scr, 0, enc, 0);
            tb->connect(enc, 0, il, 0);
            tb->connect(il, 0, map, 0);
            tb->connect(map, 0, demap, 0);
            tb->connect(demap, 0, dil, 0);
            tb->connect(dil, 0, vit, 0);
            tb->connect(vit, 0, gr::blocks::null_sink::make(1), 0);
        }
        if (has("rs")) {
            auto octets =
                gr::blocks::vector_source<uint8_t>::make(random_bytes(36 * 256, 2, 0xFF), true);
            auto rse = rs_encoder_bb::make(40, 36, 2, 0, dev);
            auto rsd = rs_decoder_bb::make(40, 36, 2, 0, dev);
            tb->connect(octets, 0, rse, 0);
            tb->connect(rse, 0, rsd, 0);
            tb->connect(rsd, 0, gr::blocks::null_sink::make(1), 0);
        }
        if (has("ofdm")) {
            auto bins =
                gr::blocks::vector_source<gr_complex>::make(random_samples(64 * 256, 3), true, 64);
            auto ifft = ofdm_ifft::make(64, { 16 }, true, 1.0f, 0, dev);
            auto fft = ofdm_fft::make(64, { 16 }, true, 1.0f, 0, dev);
            tb->connect(bins, 0, ifft, 0);
            tb->connect(ifft, 0, fft, 0);
            tb->connect(fft, 0, gr::blocks::null_sink::make(sizeof(gr_complex) * 64), 0);
        }
        // Transmitters into receivers (PDUs posted before each start).
        if (has("wifi")) {
            wifi_source = wifi_tx::make(24, 93, 400, 1.0f, 64, dev);
            auto wrx = wifi_rx::make(131072, 0.56f, false, "", dev);
            tb->connect(wifi_source, 0, wrx, 0);
        }
        if (has("wimax")) {
            wimax_source = wimax_tx::make(1, 4, "long", false, true, 19072, 400, 1.0f, 64, dev);
            auto xrx = wimax_rx::make(1, 95, 4, false, true, 19072, false, 4e6, 0, dev);
            tb->connect(wimax_source, 0, xrx, 0);
        }
        // The rest on noise: the synchronizer; timing recovery, one channel in chunks and
        // four as one vector stream; the cell search (LTE at 1.92 Msps); the PRACH detector
        // (format 0, an occasion every 2 ms at 30.72 Msps).
        auto noise = gr::blocks::vector_source<gr_complex>::make(random_samples(1 << 16, 4), true);
        if (has("sync")) {
            auto sync = ofdm_sync_cc::make("802.11a", 0.56f, 32, 65536, 20e6, dev);
            tb->connect(noise, 0, sync, 0);
            tb->connect(sync, 0, gr::blocks::null_sink::make(sizeof(gr_complex)), 0);
        }
        if (has("timing")) {
            const auto taps = gr::gpuofdm::core::rrc_prototype(64.0, 32 * 11 * 2, 32.0, 0.35);
            auto timing = pfb_timing_sync_ccf::make(2.0, 0.0628f, taps, 32, 16, 1.5f, 1, dev,
                                                    "chunked", 8192, 2048);
            tb->connect(noise, 0, timing, 0);
            tb->connect(timing, 0, gr::blocks::null_sink::make(sizeof(gr_complex)), 0);
            auto rows =
                gr::blocks::vector_source<gr_complex>::make(random_samples(4 << 14, 5), true, 4);
            auto multi = pfb_timing_sync_multi_ccf::make(4, 2.0, 0.0628f, taps, 32, 16, 1.5f, 1,
                                                         dev, "sequential", 16384, 4096, true);
            tb->connect(rows, 0, multi, 0);
            tb->connect(multi, 0, gr::blocks::null_sink::make(4 * sizeof(gr_complex)), 0);
        }
        if (has("cellsearch")) {
            auto search = cell_searcher_cc::make("lte", 1.92e6, 0, {}, 30, 0, 18, 14, 1, 5, dev);
            tb->connect(noise, 0, search, 0);
            tb->connect(search, 0, gr::blocks::null_sink::make(sizeof(gr_complex)), 0);
        }
        if (has("prach")) {
            auto prach = prach_detector_c::make(30.72e6, "0", 30, 1, { 1 }, { 1 }, {}, { 0.0 }, 1,
                                                0, 0, 61440, 0, 1e-3, dev);
            tb->connect(noise, 0, prach, 0);
        }
    }

    //! Starts, runs \p ms, stops and waits.
    void cycle(int ms, uint32_t seed)
    {
        for (uint32_t i = 0; i < 20; i++) {
            if (wifi_source)
                wifi_source->to_basic_block()->_post(pmt::mp("pdus"), pdu(95, seed + i));
            if (wimax_source)
                wimax_source->to_basic_block()->_post(pmt::mp("pdus"), pdu(95, seed + i));
        }
        tb->start();
        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
        tb->stop();
        tb->wait();
    }
};

struct sample {
    int cycle;
    double device_mib;
    double rss_mib;
};

//! Runs \p o.cycles cycles of \p one (cycle index -> nothing), sampling every o.every.
template <typename Cycle>
std::vector<sample> run(const options& o, const char* what, Cycle&& one)
{
    std::vector<sample> s;
    std::printf("%s: %d cycles\n%8s %12s %10s\n", what, o.cycles, "cycle", "device MiB", "RSS MiB");
    const bool gpu = o.device != "cpu";
    for (int c = 0; c < o.cycles; c++) {
        one(c);
        if (c == 0 || (c + 1) % o.every == 0 || c + 1 == o.cycles) {
            s.push_back({ c + 1, device_used_mib(), rss_mib() });
            if (gpu && s.back().device_mib < 0) // the context is gone: a kernel faulted
                throw std::runtime_error(std::string(what) + ": cycle " + std::to_string(c + 1) +
                                         ": the device no longer answers cudaMemGetInfo");
            std::printf("%8d %12.1f %10.1f\n", c + 1, s.back().device_mib, s.back().rss_mib);
            std::fflush(stdout);
        }
    }
    return s;
}

//! Growth from the first sample after warm-up (the second, or the first) to the smaller of
//! the last two: a leak raises both, memory still held by a cycle's last moments (a thread
//! ending, a buffer not yet handed back to the system) only one.
double growth(const std::vector<sample>& s, double sample::*field)
{
    const sample& first = s.size() > 2 ? s[1] : s.front();
    const double last =
        s.size() > 3 ? std::min(s[s.size() - 2].*field, s.back().*field) : s.back().*field;
    return last - first.*field;
}

} // namespace

int main(int argc, char** argv)
{
    options o;
    std::string only;
    try {
        gpuofdm_apps::parse_cli(
            argc, argv,
            { gpuofdm_apps::value("--device", o.device), gpuofdm_apps::value("--cycles", o.cycles),
              gpuofdm_apps::value("--every", o.every), gpuofdm_apps::value("--run-ms", o.run_ms),
              gpuofdm_apps::value("--max-device-growth-mib", o.max_device_growth_mib),
              gpuofdm_apps::value("--max-rss-growth-mib", o.max_rss_growth_mib),
              gpuofdm_apps::value("--json", o.json), gpuofdm_apps::value("--only", only) },
            usage, "gpuofdm_cycles");
        if (o.cycles < 2 || o.every < 1 || o.run_ms < 0)
            throw std::invalid_argument("--cycles >= 2, --every >= 1, --run-ms >= 0");
        o.device = resolve_device(o.device);
        if (!only.empty()) {
            o.only.clear();
            std::istringstream list(only);
            for (std::string g; std::getline(list, g, ',');) {
                if (std::find(all_groups.begin(), all_groups.end(), g) == all_groups.end())
                    throw std::invalid_argument("--only: a group of " + join(all_groups) +
                                                ", got \"" + g + "\"");
                o.only.push_back(g);
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuofdm_cycles: %s\n", e.what());
        return 2;
    }

    // A watchdog: a cycle that hangs in stop() or wait() ends the program with an error.
    std::atomic<long> beat{ 0 };
    std::thread([&beat] {
        long last = -1;
        for (;;) {
            std::this_thread::sleep_for(std::chrono::seconds(60));
            if (beat.load() == last) {
                std::fprintf(stderr, "gpuofdm_cycles: no cycle ended within 60 s: a hang\n");
                std::_Exit(3);
            }
            last = beat.load();
        }
    }).detach();

    std::printf("gpuofdm_cycles on %s, %d ms a run\n", o.device.c_str(), o.run_ms);
    std::vector<sample> restart, remake;
    try {
        {
            flowgraph fg(o.device, o.only);
            restart = run(o, "start/stop/wait", [&](int c) {
                fg.cycle(o.run_ms, uint32_t(1000 * c));
                beat++;
            });
        }
        remake = run(o, "make/destroy", [&](int c) {
            flowgraph fg(o.device, o.only);
            fg.cycle(o.run_ms, uint32_t(1000 * c));
            beat++;
        });
    } catch (const std::exception& e) {
        std::printf("FAIL: %s (exit status 1)\n", e.what());
        return 1;
    }

    bool ok = true;
    std::ostringstream json;
    json << "{\n  \"device\": \"" << o.device << "\",\n  \"run_ms\": " << o.run_ms
         << ",\n  \"max_device_growth_mib\": " << o.max_device_growth_mib
         << ",\n  \"max_rss_growth_mib\": " << o.max_rss_growth_mib;
    for (const auto& [name, s] :
         { std::make_pair("start_stop", &restart), std::make_pair("make_destroy", &remake) }) {
        const double dg = growth(*s, &sample::device_mib), rg = growth(*s, &sample::rss_mib);
        const bool within = dg <= o.max_device_growth_mib && rg <= o.max_rss_growth_mib;
        ok = ok && within;
        std::printf("%s: device memory %+.1f MiB, RSS %+.1f MiB after warm-up: %s\n", name, dg, rg,
                    within ? "within bounds" : "BEYOND BOUNDS");
        json << ",\n  \"" << name << "\": {\"device_growth_mib\": " << dg
             << ", \"rss_growth_mib\": " << rg
             << ", \"within_bounds\": " << (within ? "true" : "false") << ", \"samples\": [";
        for (size_t i = 0; i < s->size(); i++)
            json << (i ? ", " : "") << "{\"cycle\": " << (*s)[i].cycle
                 << ", \"device_mib\": " << (*s)[i].device_mib
                 << ", \"rss_mib\": " << (*s)[i].rss_mib << "}";
        json << "]}";
    }
    json << "\n}\n";
    if (!o.json.empty())
        std::ofstream(o.json) << json.str();
    return ok ? 0 : 1;
}
