/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gpuofdm_bench: throughput and latency of the OFDM FFT/IFFT stages, at the core level
// (CPU twin, CUDA with host transfers, CUDA kernel only) and in a GNU Radio flowgraph
// next to fft_vcc. Prints a table and writes the same rows as JSON (--json FILE).

#include "../common/cli_options.h"
#include "bench.h"

#include "runtime/device.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#ifdef GPUOFDM_BENCH_FLOWGRAPH
#include "../common/gr_log_level.h"
#endif

namespace gpuofdm_bench {

namespace {

const char* usage_text =
    "usage: gpuofdm_bench [options]\n"
    "  --quick            few sizes, short runs (the ctest smoke test)\n"
    "  --sizes LIST       FFT sizes, comma separated (default 64,256,2048,4096;\n"
    "                     --quick: 64,2048; the flowgraph part uses only the first\n"
    "                     with --quick)\n"
    "  --batches LIST     symbols per batch for the core rows, the same for every size\n"
    "                     (default: 2^12, 2^16, 2^18, 2^20, 2^22 samples / fft_len,\n"
    "                     i.e. 64,1024,4096,16384,65536 at 64)\n"
    "  --stages LIST      fft, ifft, tx, viterbi, ber, rx, wimax_rx and/or cellsearch\n"
    "                     (default fft,ifft); tx: the\n"
    "                     802.11a transmitter rows (TX bit stages and wifi_tx, core level);\n"
    "                     viterbi: K=7 r1/2 soft decoding, core and flowgraph level,\n"
    "                     next to GNU Radio's fec.cc_decoder; ber: K=7 r1/2 BER vs\n"
    "                     Eb/N0 (BPSK, AWGN, 0..7 dB) of the full-length reference, the\n"
    "                     chunked decoder (CPU twin, CUDA), hard decisions and\n"
    "                     fec.cc_decoder on the same noisy input, gaps at BER 1e-5\n"
    "                     (minutes; --quick: 0.5 Mbit a point at most); rx: wifi_rx end\n"
    "                     to end on back-to-back 1500-octet 54 Mb/s frames, core and\n"
    "                     flowgraph level, CPU twin and CUDA, in Msps and x real time;\n"
    "                     wimax_rx: the 802.16 receiver on 500-octet 64-QAM 3/4 bursts,\n"
    "                     core and flowgraph level, CPU twin and CUDA; cellsearch: NR,\n"
    "                     5GTF and LTE wideband captures channelized to every raster\n"
    "                     candidate and searched, core level, CPU twin and CUDA, x real\n"
    "                     time; timing:\n"
    "                     polyphase timing recovery (QPSK sps 2), one channel sequential\n"
    "                     and chunked, 64/256/1024 channels, CPU twin, CUDA kernel and\n"
    "                     with transfers; flowgraph level next to pfb_clock_sync_ccf and\n"
    "                     symbol_sync_cc; prach: the PRACH detector on bins (formats 0\n"
    "                     and B4, 4 antennas, 1..1024 cells a slot: latency, cells in real\n"
    "                     time) and the chain from 4 x 122.88 Msps samples (x real time),\n"
    "                     core level, CPU twin and CUDA\n"
    "  --viterbi-overlaps LIST  with --stages ber: the overlap study instead of the\n"
    "                     decoder comparison: the chunked CPU twin at each warm-up/\n"
    "                     traceback pair (N = N/N, or W/T), comma separated, against the\n"
    "                     full-length reference on the same input, 2..6 dB, until 200\n"
    "                     reference errors (8 batches at least) or 200\n"
    "                     Mbit a point (--quick: 2 batches)\n"
    "  --viterbi-chunks LIST  the overlap study's chunk lengths (default 256)\n"
    "  --viterbi-rate R   the overlap study's code rate: 1/2 (default), 2/3 or 3/4\n"
    "                     (802.11a puncturing) or 5/6 (802.16); Eb/N0 from 2 dB plus\n"
    "                     0.5, 1 and 1.5 dB for 2/3, 3/4 and 5/6\n"
    "  --cp N             CP of the core rows (default fft_len/4: 16 at 64, as 802.11a)\n"
    "  --seconds S        wall time of each flowgraph row (default 1.5; --quick 0.2)\n"
    "  --core-seconds S   time of each core row (default 0.5; --quick 0.05)\n"
    "  --flowgraph-batch N  our block's batch in the flowgraph rows (default: the\n"
    "                     block's own, 2^18 / fft_len); also sizes the upstream buffers\n"
    "  --null-source      flowgraph source: null_source (zeros by memset, the cheapest\n"
    "                     source) instead of a repeating vector_source of random data\n"
    "  --upstream-batches K  upstream min_output_buffer of the flowgraph rows, in\n"
    "                     batches of our block (default 1)\n"
    "  --rx-repeat K      rx flowgraph rows on CUDA: the recorded file holds the\n"
    "                     4000-frame stream K times over (default 10: 9.8 s of air;\n"
    "                     --quick: 1); the wimax_rx flowgraph rows on CUDA read its\n"
    "                     2000-burst stream K times\n"
    "  --pairs K          prach flowgraph rows on CUDA: K runs of the block, each right\n"
    "                     after a ceiling run of its own; the row gives the medians and\n"
    "                     the ratio the median of the K pairs' ratios (default 1)\n"
    "  --device DEV       cuda or cuda:N for the CUDA rows (default cuda:0)\n"
    "  --no-flowgraph     core rows only\n"
    "  --device-only      CUDA rows only (fails when no GPU is usable)\n"
    "  --json FILE        also write the rows as JSON to FILE\n"
    "  --verbose          GNU Radio's debug log (default: warnings and errors only)\n"
    "  --version          the module's version\n"
    "  -h, --help         this text\n"
    "The last line is PASS (every row measured, exit status 0) or FAIL (exit status 1);\n"
    "bad options exit 2.\n";

struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

template <typename T>
std::vector<T> parse_list(const std::string& opt, const std::string& text)
{
    std::vector<T> out;
    std::stringstream ss(text);
    std::string part;
    while (std::getline(ss, part, ',')) {
        char* end = nullptr;
        const long long v = std::strtoll(part.c_str(), &end, 10);
        if (part.empty() || *end != '\0' || v < 1 || v > (1ll << 20))
            throw usage_error(opt + ": '" + part + "' is not an integer in 1..2^20");
        out.push_back(T(v));
    }
    if (out.empty())
        throw usage_error(opt + ": give at least one value");
    return out;
}

double parse_seconds(const std::string& opt, const std::string& text)
{
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(v > 0.0) || v > 600.0)
        throw usage_error(opt + ": '" + text + "' is not a number of seconds in (0, 600]");
    return v;
}

options parse_options(int argc, char** argv)
{
    options o;
    bool sizes_set = false, seconds_set = false, core_seconds_set = false, rx_repeat_set = false;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                throw usage_error(a + " needs a value");
            return argv[++i];
        };
        if (a == "-h" || a == "--help") {
            std::cout << usage_text;
            std::exit(0);
        } else if (a == "--version") {
            std::cout << gpuofdm_apps::version_line("gpuofdm_bench") << "\n";
            std::exit(0);
        } else if (a == "--verbose") {
            o.verbose = true;
        } else if (a == "--quick") {
            o.quick = true;
        } else if (a == "--sizes") {
            o.sizes = parse_list<int>(a, value());
            sizes_set = true;
        } else if (a == "--batches") {
            o.batches = parse_list<size_t>(a, value());
        } else if (a == "--stages") {
            o.stages.clear();
            std::stringstream ss(value());
            std::string part;
            while (std::getline(ss, part, ',')) {
                if (part == "fft" || part == "ofdm_fft")
                    o.stages.push_back(stage_kind::fft);
                else if (part == "ifft" || part == "ofdm_ifft")
                    o.stages.push_back(stage_kind::ifft);
                else if (part == "tx" || part == "wifi_tx")
                    o.tx = true;
                else if (part == "viterbi")
                    o.viterbi = true;
                else if (part == "ber")
                    o.ber = true;
                else if (part == "rx" || part == "wifi_rx")
                    o.rx = true;
                else if (part == "wimax_rx")
                    o.wimax_rx = true;
                else if (part == "cellsearch" || part == "cell_search")
                    o.cellsearch = true;
                else if (part == "timing")
                    o.timing = true;
                else if (part == "prach")
                    o.prach = true;
                else
                    throw usage_error("--stages: '" + part +
                                      "' is not fft, ifft, tx, viterbi, ber, rx, "
                                      "wimax_rx, cellsearch, timing or prach");
            }
            if (o.stages.empty() && !o.tx && !o.viterbi && !o.ber && !o.rx && !o.wimax_rx &&
                !o.cellsearch && !o.timing && !o.prach)
                throw usage_error("--stages: give fft, ifft, tx, viterbi, ber, rx, wimax_rx, "
                                  "cellsearch, timing and/or prach");
        } else if (a == "--cp") {
            const std::string v = value();
            char* end = nullptr;
            const long cp = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end != '\0' || cp < 0 || cp > (1l << 20))
                throw usage_error("--cp: '" + v + "' is not an integer >= 0");
            o.cp = int(cp);
        } else if (a == "--seconds") {
            o.seconds = parse_seconds(a, value());
            seconds_set = true;
        } else if (a == "--core-seconds") {
            o.core_seconds = parse_seconds(a, value());
            core_seconds_set = true;
        } else if (a == "--flowgraph-batch") {
            o.flowgraph_batch = parse_list<size_t>(a, value()).at(0);
        } else if (a == "--null-source") {
            o.null_source = true;
        } else if (a == "--upstream-batches") {
            o.upstream_batches = parse_list<int>(a, value()).at(0);
            if (o.upstream_batches > 16)
                throw usage_error("--upstream-batches: give 1..16");
        } else if (a == "--rx-repeat") {
            o.rx_repeat = parse_list<int>(a, value()).at(0);
            if (o.rx_repeat < 1 || o.rx_repeat > 100)
                throw usage_error("--rx-repeat: give 1..100");
            rx_repeat_set = true;
        } else if (a == "--pairs") {
            o.pairs = parse_list<int>(a, value()).at(0);
            if (o.pairs < 1 || o.pairs > 50)
                throw usage_error("--pairs: give 1..50");
        } else if (a == "--viterbi-overlaps") {
            o.viterbi_overlaps.clear();
            std::stringstream ss(value());
            std::string part;
            while (std::getline(ss, part, ',')) {
                const size_t slash = part.find('/');
                const std::string w = part.substr(0, slash);
                const std::string t = slash == std::string::npos ? w : part.substr(slash + 1);
                const auto wv = parse_list<size_t>(a, w), tv = parse_list<size_t>(a, t);
                if (wv.size() != 1 || tv.size() != 1 || wv[0] > 4096 || tv[0] > 4096)
                    throw usage_error(a + ": '" + part + "' is not N or W/T with 1..4096");
                o.viterbi_overlaps.emplace_back(wv[0], tv[0]);
            }
            if (o.viterbi_overlaps.empty())
                throw usage_error(a + ": give at least one overlap");
        } else if (a == "--viterbi-chunks") {
            o.viterbi_chunks = parse_list<size_t>(a, value());
            for (size_t c : o.viterbi_chunks)
                if (c > 4096)
                    throw usage_error(a + ": chunk lengths are 1..4096, got " + std::to_string(c));
        } else if (a == "--viterbi-rate") {
            o.viterbi_rate = value();
            if (o.viterbi_rate != "1/2" && o.viterbi_rate != "2/3" && o.viterbi_rate != "3/4" &&
                o.viterbi_rate != "5/6")
                throw usage_error(a + ": give 1/2, 2/3, 3/4 or 5/6");
        } else if (a == "--device") {
            o.device = value();
            if (o.device != "cuda" && o.device.rfind("cuda:", 0) != 0)
                throw usage_error("--device: give cuda or cuda:N (the CPU rows always run "
                                  "unless --device-only)");
        } else if (a == "--no-flowgraph") {
            o.flowgraph = false;
        } else if (a == "--device-only") {
            o.device_only = true;
        } else if (a == "--json") {
            o.json_path = value();
        } else {
            throw usage_error("unknown option '" + a + "'");
        }
    }
    if (o.quick) {
        if (!sizes_set)
            o.sizes = { 64, 2048 };
        if (!seconds_set)
            o.seconds = 0.2;
        if (!core_seconds_set)
            o.core_seconds = 0.05;
        if (!rx_repeat_set)
            o.rx_repeat = 1;
    }
    for (size_t b : o.batches)
        for (int n : o.sizes)
            if (double(b) * n > double(1 << 24))
                throw usage_error("--batches: " + std::to_string(b) + " symbols of " +
                                  std::to_string(n) + " exceed 2^24 samples per batch");
    return o;
}

std::string utc_now()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace

int run(int argc, char** argv)
{
    options o;
    try {
        o = parse_options(argc, argv);
    } catch (const usage_error& e) {
        std::cerr << "gpuofdm_bench: " << e.what() << "\n" << usage_text;
        return 2;
    }

#ifdef GPUOFDM_BENCH_FLOWGRAPH
    gpuofdm_apps::set_gr_log_level(o.verbose);
#endif
    // Fail before the long run, not after it.
    if (!o.json_path.empty() && !std::ofstream(o.json_path)) {
        std::cerr << "gpuofdm_bench: --json: cannot open '" << o.json_path << "' for writing\n";
        return 1;
    }

    std::string why;
    const std::string gpu = gpu_description(o.device, why);
    const bool cuda_usable = !gpu.empty();
    if (cuda_usable)
        o.device = gr::gpuofdm::core::resolve_device(o.device).to_string();
    const unsigned threads = std::thread::hardware_concurrency();
    const std::string date = utc_now();

    std::vector<std::pair<std::string, std::string>> header{
        { "tool", json_string("gpuofdm_bench") },
        { "version", json_string(GPUOFDM_VERSION) },
        { "date", json_string(date) },
        { "gpu", cuda_usable ? json_string(gpu) : "null" },
        { "gpu_unusable_reason", cuda_usable ? "null" : json_string(why) },
        { "cpu_threads", std::to_string(threads) },
#ifdef GPUOFDM_BENCH_FLOWGRAPH
        { "gnuradio", json_string(gnuradio_version()) },
#endif
        { "samples_counted",
          json_string("time-domain samples incl. CP: ofdm_fft input, ofdm_ifft output") },
        { "mode", json_string(o.quick ? "quick" : "full") },
        { "core_seconds", std::to_string(o.core_seconds) },
        { "flowgraph_seconds", o.flowgraph ? std::to_string(o.seconds) : "null" },
    };
    std::printf("gpuofdm_bench %s | %s | GPU: %s | CPU threads: %u", GPUOFDM_VERSION, date.c_str(),
                cuda_usable ? gpu.c_str() : ("none (" + why + ")").c_str(), threads);
#ifdef GPUOFDM_BENCH_FLOWGRAPH
    std::printf(" | GNU Radio %s", gnuradio_version().c_str());
#endif
    std::printf("\n");

    if (o.device_only && !cuda_usable) {
        std::cerr << "gpuofdm_bench: --device-only: " << why << "\n";
        std::printf("FAIL: --device-only and no usable GPU (exit status 1)\n");
        return 1;
    }

    std::vector<row> rows;
    std::vector<std::string> notes;
    std::string error;
    try {
        if (!o.stages.empty()) {
            print_table_header(true);
            run_core(o, cuda_usable, rows, notes);
        }
        if (o.tx) {
            print_tx_table_header();
            run_tx(o, cuda_usable, rows, notes);
        }
        if (o.viterbi)
            run_viterbi(o, cuda_usable, rows, notes);
        if (o.ber && o.viterbi_overlaps.empty())
            run_ber(o, cuda_usable, rows, notes);
        else if (o.ber)
            run_ber_overlaps(o, rows, notes);
        if (o.rx)
            run_rx(o, cuda_usable, rows, notes);
        if (o.wimax_rx)
            run_wimax_rx(o, cuda_usable, rows, notes);
        if (o.cellsearch)
            run_cellsearch(o, cuda_usable, rows, notes);
        if (o.timing)
            run_timing(o, cuda_usable, rows, notes);
        if (o.prach)
            run_prach(o, cuda_usable, rows, notes);
        if (o.flowgraph && o.stages.empty()) {
            notes.push_back("flowgraph: no fft/ifft stage asked for");
        } else if (o.flowgraph) {
#ifdef GPUOFDM_BENCH_FLOWGRAPH
            print_table_header(false);
            run_flowgraph(o, cuda_usable, rows, notes);
#else
            notes.push_back("flowgraph: not built (no GNU Radio)");
#endif
        } else {
            notes.push_back("flowgraph: skipped (--no-flowgraph)");
        }
    } catch (const std::exception& e) {
        error = e.what();
    }

    if (!cuda_usable)
        notes.insert(notes.begin(), "no usable GPU: " + why);
    std::printf("\n");
    for (const auto& n : notes)
        std::printf("note: %s\n", n.c_str());

    if (!o.json_path.empty()) {
        try {
            write_json(o.json_path, header, rows, notes, error);
            std::printf("wrote %zu rows to %s\n", rows.size(), o.json_path.c_str());
        } catch (const std::exception& e) {
            std::cerr << "gpuofdm_bench: error: " << e.what() << "\n";
            std::printf("FAIL: cannot write %s (exit status 1)\n", o.json_path.c_str());
            return 1;
        }
    }
    if (!error.empty()) {
        std::cerr << "gpuofdm_bench: error after " << rows.size() << " rows: " << error << "\n";
        std::printf("FAIL: error after %zu rows (exit status 1)\n", rows.size());
        return 1;
    }
    std::printf("PASS: %zu rows measured%s (exit status 0)\n", rows.size(),
                cuda_usable ? "" : ", CPU rows only: the figures are the CPU twin's");
    return 0;
}

} // namespace gpuofdm_bench

int main(int argc, char** argv)
{
    try {
        return gpuofdm_bench::run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "gpuofdm_bench: error: " << e.what() << "\n";
        return 1;
    }
}
