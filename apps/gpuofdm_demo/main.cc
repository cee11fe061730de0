/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gpuofdm_demo: the main job. --mode wifi (the default) runs the 802.11a loopback
// wifi_tx -> channel_model -> wifi_rx; --mode wimax the 802.16 loopback wimax_tx ->
// channel_model -> wimax_rx; --mode ofdm the ofdm_ifft -> ofdm_fft loopback; --mode rx a
// recording (SigMF or raw) through wifi_rx. Every mode
// ends with a PASS or FAIL line; the exit status is 0 (PASS), 1 (FAIL) or 2 (bad options
// or an error).

#include "../common/cli_options.h"
#include "../common/gr_log_level.h"
#include "demo.h"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

void demo_usage()
{
    std::puts("usage: gpuofdm_demo [--mode wifi|wimax|ofdm|rx] [--verbose] [mode options]\n"
              "  --mode M        wifi (default), wimax, ofdm or rx, below\n"
              "  --verbose       GNU Radio's debug log (default: warnings and errors only)\n"
              "  --version       the module's version\n"
              "  -h, --help      this text\n"
              "Every mode prints which device ran and ends with a PASS or FAIL line; exit\n"
              "status 0 PASS, 1 FAIL, 2 bad options or an error.\n");
    wifi_usage();
    wimax_usage();
    ofdm_usage();
    rx_usage();
}

int main(int argc, char** argv)
{
    std::string mode = "wifi";
    bool verbose = false;
    std::vector<char*> rest{ argv[0] };
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            demo_usage();
            return 0;
        }
        if (a == "--version") {
            std::puts(gpuofdm_apps::version_line("gpuofdm_demo").c_str());
            return 0;
        }
        if (a == "--mode") {
            if (i + 1 >= argc) {
                std::fprintf(stderr,
                             "gpuofdm_demo: --mode: needs a value (wifi, wimax, ofdm or rx)\n");
                return 2;
            }
            mode = argv[++i];
        } else if (a.rfind("--mode=", 0) == 0) {
            mode = a.substr(7);
        } else if (a == "--verbose") {
            verbose = true;
        } else {
            rest.push_back(argv[i]);
        }
    }
    gpuofdm_apps::set_gr_log_level(verbose);
    try {
        if (mode == "wifi")
            return run_wifi_loopback(int(rest.size()), rest.data());
        if (mode == "wimax")
            return run_wimax_loopback(int(rest.size()), rest.data());
        if (mode == "ofdm")
            return run_ofdm_loopback(int(rest.size()), rest.data());
        if (mode == "rx")
            return run_wifi_file_rx(int(rest.size()), rest.data());
        std::fprintf(stderr, "gpuofdm_demo: --mode: unknown mode '%s' (wifi, wimax, ofdm or rx)\n",
                     mode.c_str());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuofdm_demo: %s\n", e.what());
        return 2;
    }
}
