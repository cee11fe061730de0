/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gpuofdm_demo: the main job. --mode wifi (the default) runs the 802.11a loopback
// wifi_tx -> channel_model -> wifi_rx; --mode wimax the 802.16 loopback wimax_tx ->
// channel_model -> wimax_rx; --mode ofdm the ofdm_ifft -> ofdm_fft loopback.

#include "demo.h"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    std::string mode = "wifi";
    std::vector<char*> rest{ argv[0] };
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "--mode" && i + 1 < argc)
            mode = argv[++i];
        else if (a.rfind("--mode=", 0) == 0)
            mode = a.substr(7);
        else
            rest.push_back(argv[i]);
    }
    try {
        if (mode == "wifi")
            return run_wifi_loopback(int(rest.size()), rest.data());
        if (mode == "wimax")
            return run_wimax_loopback(int(rest.size()), rest.data());
        if (mode == "ofdm")
            return run_ofdm_loopback(int(rest.size()), rest.data());
        std::fprintf(stderr, "gpuofdm_demo: --mode: unknown mode '%s' (wifi, wimax or ofdm)\n",
                     mode.c_str());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuofdm_demo: %s\n", e.what());
        return 2;
    }
}
