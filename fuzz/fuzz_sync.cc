/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuofdm authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The synchronizers' CPU twins (802.11a wifi_sync, 802.16 wimax_sync at every cyclic
// prefix, and ofdm_sync over both) on arbitrary samples from any search position: no
// crash, and every detection inside the buffer, in increasing order, from search_from on.

#include "fuzz_input.h"
#include "ofdm/ofdm_sync.h"
#include "wifi/wifi_sync.h"
#include "wimax/wimax_sync.h"

#include <cstdlib>

using namespace gr::gpuofdm::core;
using gr::gpuofdm::fuzz::fuzz_input;

namespace {

void expect(bool ok)
{
    if (!ok)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fuzz_input in(data, size);
    const uint8_t mode = in.take<uint8_t>();
    const size_t search_from = in.take<uint16_t>() % 4096;
    const std::vector<cfloat> x = in.samples();
    const auto cpu = resolve_device("cpu");
    switch (mode % 3) {
    case 0: {
        static auto sync = make_wifi_sync(wifi_sync_params{}, cpu);
        size_t last = 0;
        for (const auto& r : sync->detect(x.data(), x.size(), search_from)) {
            expect(r.ltf_start >= search_from && r.ltf_start + 128 <= x.size());
            expect(r.ltf_start >= last);
            last = r.ltf_start;
        }
        break;
    }
    case 1: {
        static std::unique_ptr<wimax_sync> syncs[4];
        static const int cp_divs[] = { 4, 8, 16, 32 };
        const size_t k = (mode >> 2) % 4;
        if (!syncs[k]) {
            wimax_sync_params p;
            p.cp_div = cp_divs[k];
            syncs[k] = make_wimax_sync(p, cpu);
        }
        size_t last = 0;
        for (const auto& r : syncs[k]->detect(x.data(), x.size(), search_from)) {
            expect(r.start >= search_from && r.start < x.size());
            expect(r.start >= last);
            last = r.start;
        }
        break;
    }
    default: {
        static std::unique_ptr<ofdm_sync> syncs[2];
        const size_t k = (mode >> 2) & 1;
        if (!syncs[k]) {
            ofdm_sync_params p;
            p.standard = k ? phy_standard::ieee80216 : phy_standard::ieee80211a;
            syncs[k] = make_ofdm_sync(p, cpu);
        }
        const uint64_t x_start = uint64_t(mode) << 20;
        for (const auto& f : syncs[k]->detect(x.data(), x.size(), x_start, search_from))
            expect(f.start >= x_start);
        break;
    }
    }
    return 0;
}
